//! One file per screen.

pub mod crueler_table;
pub mod forest_table;
pub mod gene_table;
mod join;
mod loading;
mod lobby;
mod picker;
mod setup;
pub mod table;
mod title;
pub mod wanning_table;

use bevy::prelude::*;

pub use lobby::{HostedAt, WebAt};
pub use setup::{TableSetup, request_start};

pub fn plugin(app: &mut App) {
    app.add_plugins((
        loading::plugin,
        title::plugin,
        picker::plugin,
        setup::plugin,
        forest_table::plugin,
        crueler_table::plugin,
        gene_table::plugin,
        wanning_table::plugin,
        join::plugin,
        lobby::plugin,
        table::plugin,
    ));
}
