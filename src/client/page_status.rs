//! What the client shows, written on the page it runs in (`data-*`
//! attributes of `<body>`) for a browser test to wait on: the screen, the
//! server's name once it welcomed us, the seat, the table's revision, how many showdowns this seat has seen
//! resolved, a Wanning table's round and whether the game is over, and where the title screen's buttons are. Nothing here is
//! more than the seat's own screen shows. A no-op on the desktop.

use bevy::prelude::*;
use foodweb_netcode::client::ClientModel;
use foodweb_rules::forest::ForestGame;
use foodweb_rules::forest::ShowdownReveal;
use foodweb_rules::wanning::WanningGame;

use super::net::SeatSide;
use super::{Screen, web};

fn publish_screen(screen: Res<State<Screen>>) {
    if screen.is_changed() {
        web::publish("screen", &format!("{:?}", screen.get()).to_lowercase());
    }
}

/// Showdowns seen resolved at this table: each new reveal counts once.
#[derive(Default)]
struct Seen {
    last: Option<ShowdownReveal>,
    showdowns: u32,
}

fn publish_table(model: Res<ClientModel>, mut seen: Local<Seen>) {
    if !model.is_changed() {
        return;
    }
    web::publish("server", model.server.as_deref().unwrap_or_default());
    let seat = model.my_seat().map(|s| s.0.to_string()).unwrap_or_default();
    web::publish("seat", &seat);
    web::publish("revision", &model.revision.to_string());
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
    // Wanning Beast Chess: the round under way, and the game's end.
    let round = model.view_of::<WanningGame>().map_or(0, |v| v.round);
    web::publish("round", &round.to_string());
    let over = model
        .view
        .as_ref()
        .is_some_and(foodweb_netcode::games::view_over);
    web::publish("over", if over { "1" } else { "" });
}

/// Frames drawn so far: a test that reads what the screen shows waits for
/// it to hold over a few frames, however slowly they come.
fn publish_frame(mut frames: Local<u64>) {
    *frames += 1;
    if web::IN_BROWSER {
        web::publish("frame", &frames.to_string());
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (publish_screen, publish_table))
        .add_systems(Last, publish_frame);
}
