//! What Forest Showdown adds to the page's status for a browser test
//! (`page_status`): how many showdowns this seat has seen resolved.

use bevy::prelude::*;
use foodweb_netcode::client::ClientModel;
use foodweb_rules::forest::{ForestGame, ShowdownReveal};

use crate::client::net::SeatSide;
use crate::client::web;

/// Showdowns seen resolved at this table: each new reveal counts once.
#[derive(Default)]
struct Seen {
    last: Option<ShowdownReveal>,
    showdowns: u32,
}

/// Counts each showdown resolved in this seat's view, and publishes it.
fn publish_showdowns(model: Res<ClientModel>, mut seen: Local<Seen>) {
    if !model.is_changed() {
        return;
    }
    let reveal = model
        .view_of::<ForestGame>()
        .and_then(|v| v.last_showdown.clone());
    if reveal.is_some() && reveal != seen.last {
        seen.showdowns += 1;
    }
    if model.view.is_none() {
        seen.showdowns = 0;
    }
    seen.last = reveal;
    web::publish("showdowns", &seen.showdowns.to_string());
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, publish_showdowns);
}
