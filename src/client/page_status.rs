//! What the client shows, written on the page it runs in (`data-*`
//! attributes of `<body>`) for a browser test to wait on: the screen, the
//! server's name once it welcomed us, the seat, the table's revision, the
//! round and whether the game is over, the name we go by and the names
//! at our table, how much of the log and our notes we have and how many
//! of our moves were taken, whose seats are away, and where the title screen's
//! buttons are; a game adds its own (Forest's showdowns seen resolved).
//! Nothing here is more than the seat's own screen shows. A no-op on the
//! desktop.

use super::{I18n, Screen, web};
use bevy::prelude::*;
use foodweb_netcode::client::ClientModel;

fn publish_screen(screen: Res<State<Screen>>) {
    if screen.is_changed() {
        web::publish("screen", &format!("{:?}", screen.get()).to_lowercase());
    }
}

fn publish_table(model: Res<ClientModel>, i18n: Res<I18n>) {
    if !model.is_changed() && !i18n.is_changed() {
        return;
    }
    web::publish("server", model.server.as_deref().unwrap_or_default());
    // The name the server knows us by, and the names at our table as its
    // lobby shows them (public to everyone in the lobby), in our language.
    web::publish("name", &model.name);
    let names: Vec<String> = model
        .lobby
        .iter()
        .flat_map(|l| l.seats.iter().map(|s| i18n.name(&s.name)))
        .collect();
    web::publish("names", &names.join(" | "));
    let table = model.place.map(|(t, _)| t.to_string()).unwrap_or_default();
    web::publish("table", &table);
    let seat = model.my_seat().map(|s| s.0.to_string()).unwrap_or_default();
    web::publish("seat", &seat);
    web::publish("revision", &model.revision.to_string());
    // What this seat has been told (the public log, its own notes) and
    // how many of its moves the hall took: a page back after a reload
    // has them all again (issue 68).
    web::publish("log", &model.public.len().to_string());
    web::publish("notes", &model.notes.len().to_string());
    web::publish("accepted", &model.accepted.to_string());
    // The seats whose person is away, as their plates show (issue 68).
    let away: Vec<String> = model.away_seats().iter().map(|s| s.0.to_string()).collect();
    web::publish("away", &away.join(","));
    let round = model.view.as_ref().map_or(0, |v| v.seat().round());
    web::publish("round", &round.to_string());
    let over = model
        .view
        .as_ref()
        .is_some_and(foodweb_netcode::games::view_over);
    web::publish("over", if over { "1" } else { "" });
    let started = model.lobby.as_ref().is_some_and(|l| l.started);
    web::publish("started", if started { "1" } else { "" });
}

/// Updates drawn so far, and the last that left nothing to draw at once
/// (`wake::Idle`): a test that reads what the screen shows waits until it
/// has settled, however slowly frames come.
fn publish_frame(idle: Res<super::wake::Idle>) {
    if web::IN_BROWSER {
        web::publish("frame", &idle.frame.to_string());
        if idle.idle {
            web::publish("idle", &idle.frame.to_string());
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (publish_screen, publish_table))
        .add_systems(Last, publish_frame.after(super::wake::IdleNoted));
}
