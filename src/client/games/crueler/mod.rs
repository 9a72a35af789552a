//! Crueler World at the table: its play area of sprites (`scene.rs`) and
//! its panels (`panels.rs`).

pub mod art;
pub mod panels;
pub mod scene;
#[cfg(feature = "dev")]
pub mod tour;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin));
    game_art::<art::CruelerArt>(app, GameId::Crueler);
    #[cfg(feature = "dev")]
    crate::client::tour::add_tour(app, GameId::Crueler, tour::STEPS);
}
