//! Crueler World at the table: its play area of sprites (`scene.rs`) and
//! its panels (`panels.rs`).

pub mod panels;
pub mod scene;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, panels::plugin));
}
