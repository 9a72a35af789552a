//! One file per screen.

mod art;
mod join;
mod loading;
mod lobby;
mod picker;
mod setup;
pub mod table;
mod title;

use bevy::prelude::*;

pub use lobby::{HostedAt, WebAt};
pub use setup::{TableSetup, bot_name, request_start};

pub fn plugin(app: &mut App) {
    app.add_plugins((
        art::plugin,
        loading::plugin,
        title::plugin,
        picker::plugin,
        setup::plugin,
        join::plugin,
        lobby::plugin,
        table::plugin,
    ));
}
