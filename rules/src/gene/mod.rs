//! Gene Survival (基因暗影, seed: `gene-survival.txt`). Work in progress:
//! the map, movement and the settlement arithmetic come first; the rules
//! document is `rules.md` beside this file.

//!
//! The shape: each seat is an entity with its components (`state.rs`:
//! panel, vitals, place, hand, doings, battles); each phase is a file of
//! systems (`setup.rs`, `free.rs`, `action.rs` with `movement` and
//! `gas_vote`, `settlement.rs` with `room_battles` and the seven steps
//! chained); `moves.rs` is the judge; `news.rs` the narrator.

pub mod action;
pub mod bots;
pub mod free;
pub mod game;
pub mod items;
pub mod map;
pub mod moves;
pub mod news;
pub mod scenario;
pub mod settle;
pub mod settlement;
pub mod setup;
pub mod state;

pub use game::{GeneGame, GeneSettings, GeneTimer, GeneTiming, GeneView, RandomBot};
pub use items::{Item, Items, items};
pub use map::{FloorId, ItemKind, Map, MapError, RoomFunction, RoomId, map};
pub use scenario::{GeneCheck, GeneFact, GeneSetup, SeatSetup};
pub use settle::{GeneNumbers, Genes, Standing, battle_losses, numbers, places};
pub use state::{
    GeneAction, GeneOffer, GenePhase, GeneState, GenesRefusal, Goods, Offer, Refusal, SettleFact,
    SettleLine, TradeOffers,
};

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");
