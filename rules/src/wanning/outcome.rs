//! The phase the table is in, and how the game ended: read by the judge,
//! the view, the scenarios and the table core.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::state::*;
use crate::table::{GameResult, SeatEntities, seat_part};

pub(crate) fn phase(world: &World) -> WanningPhase {
    *world.resource::<State<WanningPhase>>().get()
}

/// The result: the winning level's players (dead ones too: 「死亡的獲勝
/// 等級者同樣獲勝」) score 1, the rest 0.
pub(crate) fn result(world: &World) -> Option<GameResult> {
    if phase(world) != WanningPhase::GameOver {
        return None;
    }
    let (level, _) = world.resource::<Outcome>().0?;
    let seats = world.resource::<SeatEntities>();
    let scores = seats
        .iter()
        .map(|(s, _)| i64::from(seat_part::<Beast>(world, s).level == level))
        .collect();
    Some(GameResult::from_scores(scores))
}
