//! Gene Survival at the table: its map of sprites (`scene.rs`), its
//! panels (`panels.rs`) and its settlement played out (`settlement.rs`).

mod inspect;
pub mod panels;
mod reveal;
pub mod scene;
mod settlement;
pub mod setup;
mod sound;
#[cfg(feature = "dev")]
pub mod tour;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;
use crate::client::game_setup::{GameClient, add_game};

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin));
    game_art::<scene::GeneArt>(app, GameId::Gene);
    crate::client::sound::game_sounds::<foodweb_rules::gene::GeneGame>(app, GameId::Gene);
    add_game(
        app,
        GameId::Gene,
        GameClient {
            seats: 6,
            picture: "picker/gene.png",
            form: setup::form,
        },
    );
    #[cfg(feature = "dev")]
    crate::client::tour::add_tour(app, GameId::Gene, tour::STEPS);
}
