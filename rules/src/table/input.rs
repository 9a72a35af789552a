//! Player input: a request `(seat, action)`, judged in exactly one place.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::{ActionLog, Game, LogEntry, SeatId, Seats, TableClock};
use crate::text::Bilingual;

crate::phrasebook!("table");

/// Why an action was refused. Nothing at the table changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{reason}")]
pub struct Rejection {
    pub reason: Bilingual,
}

impl Rejection {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self {
            reason: Bilingual::new(en, zh),
        }
    }

    /// A refusal worded from the table core's phrasebook (`table.ftl`).
    pub(crate) fn said(key: &str, args: &[(&str, crate::narrate::Arg)]) -> Self {
        Self {
            reason: say(key, args),
        }
    }

    pub fn unknown_seat(seat: SeatId) -> Self {
        Self::said("no-unknown-seat", &[("seat", seat.to_string().into())])
    }

    pub fn not_your_turn() -> Self {
        Self::said("no-not-your-turn", &[])
    }

    pub fn game_over() -> Self {
        Self::said("no-game-over", &[])
    }
}

/// A seat asks to act.
#[derive(Message, Clone, Debug)]
pub struct ActionRequest<A: Send + Sync + 'static> {
    pub seat: SeatId,
    pub action: A,
}

/// An action that passed judgement; the game's systems carry it out.
#[derive(Message, Clone, Debug)]
pub struct Accepted<A: Send + Sync + 'static> {
    pub seat: SeatId,
    pub action: A,
}

/// The verdicts given in the last step, in order.
#[derive(Resource, Default, Debug)]
pub struct Verdicts(pub Vec<Result<(), Rejection>>);

/// Judges every pending request: unknown seats first, then the game's own
/// [`Game::check`], which only reads the world. Accepted requests are
/// logged and passed on; rejected ones leave no trace but their verdict.
pub fn judge_requests<G: Game>(world: &mut World) {
    let requests: Vec<ActionRequest<G::Action>> = world
        .resource_mut::<Messages<ActionRequest<G::Action>>>()
        .drain()
        .collect();
    for request in requests {
        let verdict = if world.resource::<Seats>().contains(request.seat) {
            G::check(world, request.seat, &request.action)
        } else {
            Err(Rejection::unknown_seat(request.seat))
        };
        if verdict.is_ok() {
            let at_ms = world.resource::<TableClock>().now_ms;
            world
                .resource_mut::<ActionLog<G::Action>>()
                .entries
                .push(LogEntry::Act {
                    at_ms,
                    seat: request.seat,
                    action: request.action.clone(),
                });
            world.write_message(Accepted {
                seat: request.seat,
                action: request.action,
            });
        }
        world.resource_mut::<Verdicts>().0.push(verdict);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrate::Phrasebook;

    /// Chinese and English throughout: both files give every phrase.
    #[test]
    fn both_languages_have_every_phrase() {
        assert_eq!(Phrasebook::missing(EN, ZH), Vec::<String>::new());
        assert_eq!(
            Rejection::unknown_seat(SeatId(6)).reason,
            Bilingual::new("there is no seat 7 at this table", "本桌没有 7 号座位")
        );
    }
}
