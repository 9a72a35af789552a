//! Wanning Beast Chess at the table: its play area of sprites
//! (`scene.rs`), its panels (`panels.rs`) and each settlement played
//! out line by line (`settlement.rs`).

pub mod art;
pub mod board;
pub mod inspect;
pub mod panels;
mod reveal;
pub mod scene;
pub mod settlement;
pub mod setup;
mod sound;
mod talk;
#[cfg(feature = "dev")]
pub mod tour;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;
use crate::client::game_setup::{GameClient, add_game};

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin, settlement::plugin));
    game_art::<art::WanningArt>(app, GameId::Wanning);
    crate::client::sound::game_sounds::<foodweb_rules::wanning::WanningGame>(app, GameId::Wanning);
    add_game(
        app,
        GameId::Wanning,
        GameClient {
            seats: 6,
            picture: "picker/wanning.png",
            form: setup::form,
        },
    );
    #[cfg(feature = "dev")]
    crate::client::tour::add_tour(app, GameId::Wanning, tour::STEPS);
}
