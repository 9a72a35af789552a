//! One file per screen.

mod again;
mod art;
mod join;
mod leave_ask;
mod loading;
mod lobby;
mod picker;
mod setup;
pub mod table;
mod title;

use bevy::prelude::*;

pub use lobby::{HostedAt, WebAt};
pub use setup::{TableSetup, bot_name, request_start};

/// When this app begins to host, its hall lists only the tables opened
/// from then on: its earlier games against bots stay its own.
fn keep_earlier_tables_private(
    hosted: Res<HostedAt>,
    hall: Option<NonSendMut<foodweb_netcode::Hall>>,
    mut hosting: Local<bool>,
) {
    let now = !hosted.0.is_empty();
    if now
        && !*hosting
        && let Some(mut hall) = hall
    {
        hall.list_only_new_tables();
    }
    *hosting = now;
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        keep_earlier_tables_private.run_if(resource_changed::<HostedAt>),
    );
    app.add_plugins((
        art::plugin,
        loading::plugin,
        title::plugin,
        picker::plugin,
        setup::plugin,
        join::plugin,
        leave_ask::plugin,
        lobby::plugin,
        table::plugin,
        again::plugin,
    ));
}
