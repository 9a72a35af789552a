//! What just happened to your hand (issue 71): each showdown and challenge
//! you were in, with how the two cards met and why (「If one card "eats"
//! the other then that player takes the "eaten" card」, each eating the
//! other, neither, Death & Decay and its takers), the energy it gained or
//! cost you, show in a window over the table (the round's deal: the notes)
//! (`games::lines`), in the words your notes keep (`news::change_line`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;
use foodweb_rules::forest::news::change_line;
use foodweb_rules::forest::{ForestChange, ForestGame};
use foodweb_rules::table::Seats;

use crate::client::games::lines::{self, NewLines};
use crate::client::net::SeatSide;
use crate::client::reach;
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme};

/// The lines shown, and those put away.
#[derive(Resource, Default)]
pub struct Playing(NewLines);

/// A line's colour: energy lost red, gained gold, neither plain.
fn colour(c: &ForestChange) -> bevy_egui::egui::Color32 {
    match c.energy {
        ..0 => theme::BAD,
        1.. => theme::ACCENT,
        0 => theme::MUTED,
    }
}

/// Shows the viewer's new lines of this round (a round's deal starts
/// them afresh), and tells the screen's account.
fn play(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut playing: ResMut<Playing>,
    mut said: ResMut<reach::Said>,
) -> Result {
    let Some(view) = model.view_of::<ForestGame>() else {
        return Ok(());
    };
    let over = view.result.is_some();
    // The round's first line, its deal, stays in the notes: the window
    // shows what the round's showdowns and challenges did (a window at
    // each deal would cover the top bar as the round opens).
    let moves = view.mine_count.saturating_sub(1);
    let range = playing
        .0
        .shown(view.round, moves, over, time.elapsed_secs_f64());
    let seats = Seats {
        names: view.seats.iter().map(|s| s.name.clone()).collect(),
    };
    // The view holds the newest lines only: the count's last ones (line k
    // of the moves is the round's line k + 1).
    let held = view.mine_count - view.mine.len();
    let from = if range.is_empty() {
        view.mine.len()
    } else {
        (range.start + 1).max(held) - held
    };
    let lines: Vec<_> = view.mine[from..]
        .iter()
        .map(|c| (i18n.pick(&change_line(c, &seats)).to_string(), colour(c)))
        .collect();
    let words: Vec<String> = lines.iter().map(|(l, _)| l.clone()).collect();
    if said.settlement != words {
        said.settlement = words;
    }
    if lines.is_empty() {
        return Ok(());
    }
    let title = i18n.ta("forest-settlement", &[("round", view.round.into())]);
    if lines::window(contexts.ctx_mut()?, title, &lines, &i18n) {
        playing.0.put_away(view.round, range.end);
    }
    Ok(())
}

fn reset(mut commands: Commands, mut said: ResMut<reach::Said>) {
    commands.insert_resource(Playing::default());
    said.settlement.clear();
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Playing>()
        .add_systems(
            EguiPrimaryContextPass,
            play.run_if(in_state(TableScreen::Game(GameId::Forest))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}
