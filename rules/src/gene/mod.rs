//! Gene Survival (基因暗影, seed: `gene-survival.txt`). Work in progress:
//! the map, movement and the settlement arithmetic come first; the rules
//! document is `rules.md` beside this file.

pub mod bots;
pub mod game;
pub mod items;
pub mod map;
pub mod scenario;
pub mod settle;
pub mod state;

pub use game::{GeneGame, GeneSettings, GeneTimer, GeneTiming, GeneView, RandomBot};
pub use items::{Item, Items, items};
pub use map::{FloorId, ItemKind, Map, MapError, RoomFunction, RoomId, map};
pub use scenario::{GeneCheck, GeneFact, GeneSetup, SeatSetup};
pub use settle::{GeneNumbers, Genes, Standing, battle_losses, numbers, places};
pub use state::{GeneAction, GenePhase, GeneState, Offer, SettleLine};

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");
