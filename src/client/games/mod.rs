//! Each game at the table, one folder a game: its play area of sprites
//! (`scene.rs`: layout, pieces, motion, input) and its egui panels
//! (`panels.rs`), registered by one plugin. This list is the only place
//! the client's core names the games.

pub mod crueler;
pub mod forest;
pub mod gene;
pub mod lines;
#[cfg(test)]
pub mod marks;
pub mod wanning;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        forest::plugin,
        gene::plugin,
        crueler::plugin,
        wanning::plugin,
    ));
}
