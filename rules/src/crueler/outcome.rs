//! Who the table waits on, and how the game ended: read by the view, the
//! scenarios and the table core.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::state::*;
use super::{interlude, moves};
use crate::table::{GameResult, SeatEntities, SeatId};

fn phase(world: &World) -> CruelerPhase {
    *world.resource::<State<CruelerPhase>>().get()
}

/// Seats the table waits on.
pub(crate) fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
    let seats = world.resource::<SeatEntities>();
    into.clear();
    match phase(world) {
        CruelerPhase::Interlude => {
            into.extend(interlude::waiting(
                seats,
                world.resource::<LifeOffers>(),
                |e| {
                    let seat = world.entity(e);
                    (
                        seat.get::<Standing>().is_some_and(|s| s.alive),
                        seat.get::<Ready>().is_some_and(|r| r.0),
                    )
                },
            ));
        }
        CruelerPhase::Predation => into.extend(world.resource::<Asking>().asked()),
        CruelerPhase::Duel => {
            if let Some(d) = moves::duel(world) {
                into.extend(
                    [d.predator, d.prey]
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| d.choice[*i].is_none())
                        .map(|(_, s)| s),
                );
            }
        }
        CruelerPhase::Idle | CruelerPhase::GameOver => {}
    }
}

/// Final places (1 = first): the living by life, then the eliminated,
/// the last to fall first. Level players share a place.
pub fn places(world: &World) -> Vec<u8> {
    let seats = world.resource::<SeatEntities>();
    let keys: Vec<(bool, i32, u8)> = seats
        .iter()
        .map(|(s, _)| {
            let standing = moves::part::<Standing>(world, s);
            let life = if standing.alive {
                moves::life(world, s)
            } else {
                0
            };
            (standing.alive, life, standing.fell.unwrap_or(0))
        })
        .collect();
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u8)
        .collect()
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    if phase(world) != CruelerPhase::GameOver {
        return None;
    }
    let seats = world.resource::<SeatEntities>();
    Some(GameResult {
        scores: seats
            .iter()
            .map(|(s, _)| {
                if moves::alive(world, s) {
                    i64::from(moves::life(world, s))
                } else {
                    0
                }
            })
            .collect(),
        places: places(world),
    })
}
