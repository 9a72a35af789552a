//! Foodweb's game rules, headless. A table is a Bevy `App` with no
//! rendering: [`table`] is the core every game shares, and each game is a
//! module of its own with its rules document beside its code.

// Functions stay short enough to read whole (clippy.toml sets the
// length); test code is left out.
#![warn(clippy::too_many_lines)]
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod bot;

#[doc(hidden)]
pub use pastey;
pub mod crueler;
pub mod forest;
pub mod game_id;
pub mod gene;
pub mod lesson;
pub mod narrate;
pub mod scenario;
pub mod sim;
pub mod table;
pub mod text;
pub mod wanning;

pub use game_id::GameId;
pub use text::{Bilingual, Lang};
