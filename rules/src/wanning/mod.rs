//! Wanning Beast Chess (萬寧斗獸棋; seed: `wanning-beast-chess.txt`): 4 to
//! 10 players of hidden levels 1-4, 24 instincts, damage, shields and HP
//! locks settled in the seed's order. The rules document is `rules.md`
//! beside this file.
//!
//! The shape: each seat is an entity with its components (`state.rs`);
//! `setup.rs` deals and runs the bans, the pick and the peek; `round.rs`
//! takes a round's orders; `settle.rs` is the settlement, one system a
//! step, chained in the seed's order; `moves.rs` is the judge; `news.rs`
//! the narrator; `settings.rs` the game's type, settings and house rules;
//! `outcome.rs` the phase and the result; `game.rs` the schedule and the
//! entry points.

pub mod bots;
pub mod data;
pub mod game;
mod instinct_play;
#[cfg(test)]
mod lesson_tests;
pub mod moves;
pub mod news;
pub mod outcome;
pub mod reasoning;
pub mod round;
pub mod scenario;
pub mod settings;
pub mod settle;
pub mod setup;
pub mod state;
pub mod view;

pub use data::{ALL_INSTINCTS, Form, InstinctId, Kind, WanningData, data};
pub use scenario::{WanningCheck, WanningFact, WanningSetup};
pub use settings::{
    BanOdds, EarlyBirdForm, LastStandUses, MAX_TALK_PER_GAME, MAX_TALK_PER_ROUND, SlaughterRest,
    WanningGame, WanningSettings, WanningTimer,
};
pub use state::{Guess, InstinctUse, Plan, WanningAction, WanningPhase, WanningState, WinBy};
pub use view::{HostSeat, HostView, SeatPublic, WanningView, host_view};

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");

/// "Learn to play": the guided first game (`crate::lesson`).
pub fn lesson() -> Option<&'static str> {
    Some(include_str!("lesson.ron"))
}
