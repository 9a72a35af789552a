//! Crueler World (seed: `crueler-world.txt`): up to 13 players prey on each
//! other in duels over four rounds. The rules document is `rules.md`
//! beside this file.

//!
//! The shape: each seat is an entity with its components (`state.rs`);
//! each phase is a file of systems, one per move (`interlude.rs`,
//! `predation.rs`, `duel.rs`); `moves.rs` is the judge, listing what each
//! phase accepts; `news.rs` puts what happened into words; `settings.rs`
//! holds the game's type, settings and clocks; `outcome.rs` who acts and
//! the result; `game.rs` is the schedule and the entry points the table
//! core calls.

pub mod bots;
pub mod duel;
pub mod game;
pub mod interlude;
#[cfg(test)]
mod lesson_tests;
pub mod moves;
pub mod news;
pub mod numbers;
pub mod outcome;
pub mod predation;
pub mod scenario;
pub mod settings;
pub mod state;
pub mod view;

pub use bots::RandomBot;
pub use numbers::{CruelerNumbers, NumbersError, numbers};
pub use scenario::{CruelerCheck, CruelerFact, CruelerSetup};
pub use settings::{CruelerGame, CruelerSettings, CruelerTimer};
pub use state::{
    Beast, CruelerAction, CruelerPhase, CruelerState, Duel, DuelKind, LifeOffer, Outcome, StarveBy,
};
pub use view::{CruelerView, DuelView};

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");

/// "Learn to play": the guided first game (`crate::lesson`).
pub fn lesson() -> Option<&'static str> {
    Some(include_str!("lesson.ron"))
}
