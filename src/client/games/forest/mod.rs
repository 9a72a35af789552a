//! Forest Showdown at the table: its play area of sprites (`scene.rs`),
//! its layout (`layout.rs`), its panels (`panels.rs`), what just happened
//! to your hand (`settlement.rs`) and what it adds to the page's status
//! (`status.rs`).

pub mod art;
mod inspect;
mod layout;
pub mod panels;
pub mod scene;
mod settlement;
pub mod setup;
mod sound;
mod status;
#[cfg(feature = "dev")]
pub mod tour;

use bevy::prelude::*;
use foodweb_rules::GameId;

use crate::client::assets::game_art;
use crate::client::game_setup::{GameClient, add_game};

pub fn plugin(app: &mut App) {
    app.add_plugins((
        scene::plugin,
        panels::plugin,
        status::plugin,
        inspect::plugin,
        settlement::plugin,
    ));
    game_art::<art::ForestArt>(app, GameId::Forest);
    crate::client::sound::game_sounds::<foodweb_rules::forest::ForestGame>(app, GameId::Forest);
    add_game(
        app,
        GameId::Forest,
        GameClient {
            seats: 4,
            picture: "picker/forest.png",
            form: setup::form,
        },
    );
    #[cfg(feature = "dev")]
    crate::client::tour::add_tour(app, GameId::Forest, tour::STEPS);
}
