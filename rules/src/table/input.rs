//! Player input: a request `(seat, action)`, judged in exactly one place.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::{ActionLog, Game, LogEntry, SeatId, Seats, TableClock};
use crate::text::Bilingual;

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

    pub fn unknown_seat(seat: SeatId) -> Self {
        Self::new(
            format!("there is no seat {seat} at this table"),
            format!("本桌没有 {seat} 号座位"),
        )
    }

    pub fn not_your_turn() -> Self {
        Self::new("it is not your turn", "还没轮到你")
    }

    pub fn game_over() -> Self {
        Self::new("the game is over", "游戏已经结束")
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
