//! Player input: a request `(seat, action)`, judged in exactly one place,
//! then carried out by the systems of its kind of move.

use std::fmt::Debug;
use std::hash::Hash;

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, Schedules};

use super::{ActionLog, Game, LogEntry, Moves, Rejection, SeatId, Seats, TableClock};

/// An action that passed judgement; the game's systems carry it out.
#[derive(Message, Clone, Debug)]
pub struct Accepted<A: Send + Sync + 'static> {
    pub seat: SeatId,
    pub action: A,
}

/// The systems that carry out one kind of move (each under the `in_state`
/// of the phases it is made in). A step runs them only when it accepted
/// such a move ([`apply_moves`]), so a step does the work of its move and
/// not every other move's.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OnMove<M: Copy + Eq + Hash + Debug + Send + Sync + 'static>(pub M);

/// Judges a request: unknown seats first, then the game's own
/// [`Game::check`], which only reads the world. An accepted request is
/// logged and passed on to its move's systems; a refused one leaves no
/// trace but its verdict.
pub(crate) fn judge<G: Game>(
    world: &mut World,
    seat: SeatId,
    action: G::Action,
) -> Result<(), Rejection> {
    if !world.resource::<Seats>().contains(seat) {
        return Err(Rejection::unknown_seat(seat));
    }
    G::check(world, seat, &action)?;
    let at_ms = world.resource::<TableClock>().now_ms;
    world
        .resource_mut::<ActionLog<G::Action>>()
        .entries
        .push(LogEntry::Act {
            at_ms,
            seat,
            action: action.clone(),
        });
    world.write_message(Accepted { seat, action });
    Ok(())
}

/// A game's kind of move.
type MoveOf<G> = <<G as Game>::Action as Moves>::Move;

/// Each kind of move's schedule, once it has come (boxed: a `Schedule` is
/// a large struct, and a game has many kinds of move).
type MoveSchedules<G> = Vec<(MoveOf<G>, Option<Box<Schedule>>)>;

/// Carries out the moves accepted since it last ran (a seat's, or the
/// referee's defaults when a clock ran out): each kind's [`OnMove`]
/// schedule runs once, in the order the kinds came, and its systems read
/// their messages. The schedules are taken out of `Schedules` the first
/// time a kind comes and kept here (with `None` for a kind nobody handles).
pub fn apply_moves<G: Game>(
    world: &mut World,
    mut cursor: Local<MessageCursor<Accepted<G::Action>>>,
    mut kept: Local<MoveSchedules<G>>,
    mut kinds: Local<Vec<MoveOf<G>>>,
) {
    // The kinds that came, in a list kept from step to step.
    kinds.clear();
    for accepted in cursor.read(world.resource::<Messages<Accepted<G::Action>>>()) {
        let kind = accepted.action.kind();
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    for &kind in kinds.iter() {
        let i = match kept.iter().position(|(k, _)| *k == kind) {
            Some(i) => i,
            None => {
                let schedule = world.resource_mut::<Schedules>().remove(OnMove(kind));
                kept.push((kind, schedule.map(Box::new)));
                kept.len() - 1
            }
        };
        if let Some(schedule) = kept[i].1.as_mut() {
            schedule.run(world);
        }
    }
}
