//! Player input: a request `(seat, action)`, judged in exactly one place.

use bevy_ecs::prelude::*;

use super::{ActionLog, Game, LogEntry, Rejection, SeatId, Seats, TableClock};

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
