//! Who the table waits on, and how the game ended: read by the view, the
//! scenarios and the table core.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::moves;
use super::settle::{numbers, places as rank};
use super::state::*;
use crate::table::{GameResult, SeatId, refill};

pub(crate) fn phase(world: &World) -> GenePhase {
    *world.resource::<State<GenePhase>>().get()
}

/// Seats the table waits on.
pub(crate) fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
    let at = moves::Seated::new(world);
    let all = at.seats.iter().map(|(s, _)| s);
    match phase(world) {
        GenePhase::Setup => refill(into, all.filter(|&s| at.get::<Panel>(s).genes.is_none())),
        // Not yet ready, or asked to answer a trade.
        GenePhase::Free => {
            let offers = world.resource::<TradeOffers>();
            refill(
                into,
                all.filter(|&s| !at.get::<Doings>(s).ready || offers.waiting_on(s)),
            );
        }
        GenePhase::Action => refill(into, world.resource::<Calendar>().active()),
        GenePhase::Idle | GenePhase::GameOver => into.clear(),
    }
}

/// Final places (1 = first), once over.
pub fn places(world: &World) -> Vec<u8> {
    let at = moves::Seated::new(world);
    let seats = at.seats;
    let everyone_shadow = seats.iter().all(|(s, _)| at.get::<Vitals>(s).shadow);
    let standings: Vec<super::settle::Standing> = seats
        .iter()
        .map(|(s, _)| {
            let v = at.get::<Vitals>(s);
            super::settle::Standing {
                alive: !v.shadow || everyone_shadow,
                hp: if everyone_shadow {
                    v.last_round_hp
                } else {
                    v.hp
                },
                strength: at.get::<Panel>(s).genes.map_or(0, |g| g.strength),
            }
        })
        .collect();
    rank(&standings)
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    if phase(world) != GenePhase::GameOver {
        return None;
    }
    let places = places(world);
    let cubes = &numbers().place_cubes;
    let scores = places
        .iter()
        .map(|&p| i64::from(*cubes.get(p as usize - 1).unwrap_or(&0)))
        .collect();
    Some(GameResult { scores, places })
}
