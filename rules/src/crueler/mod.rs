//! Crueler World (seed: `crueler-world.txt`): up to 13 players prey on each
//! other in duels over four rounds. The rules document is `rules.md`
//! beside this file.

pub mod bots;
pub mod game;
pub mod numbers;
pub mod scenario;
pub mod state;

pub use game::{CruelerGame, CruelerSettings, CruelerTimer, CruelerView, DuelView, RandomBot};
pub use numbers::{CruelerNumbers, NumbersError, numbers};
pub use scenario::{CruelerCheck, CruelerFact, CruelerSetup};
pub use state::{
    Beast, CruelerAction, CruelerPhase, CruelerState, Duel, DuelKind, LifeOffer, Outcome, Player,
    StarveBy,
};

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");
