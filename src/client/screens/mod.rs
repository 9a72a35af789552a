//! One file per screen.

pub mod forest_table;
mod loading;
mod picker;
mod setup;
mod title;

use bevy::prelude::*;

pub use setup::{TableSetup, request_start};

pub fn plugin(app: &mut App) {
    app.add_plugins((
        loading::plugin,
        title::plugin,
        picker::plugin,
        setup::plugin,
        forest_table::plugin,
    ));
}
