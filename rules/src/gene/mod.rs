//! Gene Survival (基因暗影, seed: `gene-survival.txt`). Work in progress:
//! the map, movement and the settlement arithmetic come first; the rules
//! document is `rules.md` beside this file.

//!
//! The shape: each seat is an entity with its components (`state.rs`:
//! panel, vitals, place, hand, doings, battles); each phase is a file of
//! systems (`setup.rs`, `free.rs`, `action.rs` with `movement` and
//! `gas_vote`, `settlement.rs` with `room_battles` and the seven steps
//! chained); `moves.rs` is the judge; `news.rs` the narrator; `view.rs`
//! what a seat is sent; `settings.rs` the game's type, settings and
//! clocks; `outcome.rs` who acts and the result; `game.rs` the schedule
//! and the entry points.

pub mod action;
pub mod bots;
pub mod free;
pub mod game;
pub mod items;
pub mod map;
pub mod moves;
pub mod news;
pub mod outcome;
pub mod scenario;
pub mod settings;
pub mod settle;
pub mod settlement;
pub mod setup;
pub mod state;
pub mod view;

pub use bots::RandomBot;
pub use items::{Item, Items, items};
pub use map::{FloorId, ItemKind, Map, MapError, RoomFunction, RoomId, map};
pub use scenario::{GeneCheck, GeneFact, GeneSetup, SeatSetup};
pub use settings::{GeneGame, GeneSettings, GeneTimer, GeneTiming};
pub use settle::{GeneNumbers, Genes, Standing, battle_losses, numbers, places};
pub use state::{
    GeneAction, GeneOffer, GenePhase, GeneState, GenesRefusal, Goods, Offer, Refusal, SettleFact,
    SettleLine, TradeOffers,
};
pub use view::GeneView;

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");

/// "Learn to play": the guided first game (`crate::lesson`), `lesson.ron`.
pub fn lesson() -> Option<&'static str> {
    Some(include_str!("lesson.ron"))
}

#[cfg(test)]
mod lesson_tests;
