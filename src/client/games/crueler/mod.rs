//! Crueler World at the table: its play area of sprites (`scene.rs`), its
//! panels (`panels.rs`) and what just happened to your life
//! (`settlement.rs`).

pub mod art;
pub mod inspect;
pub mod panels;
pub mod scene;
pub mod settlement;
pub mod setup;
mod sound;
#[cfg(feature = "dev")]
pub mod tour;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;
use crate::client::game_setup::{GameClient, add_game};

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin, settlement::plugin));
    game_art::<art::CruelerArt>(app, GameId::Crueler);
    crate::client::sound::game_sounds::<foodweb_rules::crueler::CruelerGame>(app, GameId::Crueler);
    add_game(
        app,
        GameId::Crueler,
        GameClient {
            seats: 8,
            picture: "picker/crueler.png",
            form: setup::form,
        },
    );
    #[cfg(feature = "dev")]
    crate::client::tour::add_tour(app, GameId::Crueler, tour::STEPS);
}
