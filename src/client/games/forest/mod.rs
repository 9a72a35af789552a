//! Forest Showdown at the table: its play area of sprites (`scene.rs`)
//! its layout (`layout.rs`) and its panels (`panels.rs`).

pub mod art;
mod layout;
pub mod panels;
pub mod scene;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin));
    game_art::<art::ForestArt>(app, GameId::Forest);
}
