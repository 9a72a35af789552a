//! What just happened to your life (issue 71): each new change to your
//! own life (a trade, a duel you fought, the elimination's bonus, being
//! eliminated, starving) shows in a window over the table (`games::lines`),
//! in the words your notes keep (`news::change_line`), with the N that
//! applied and your life before and after. Cards handed in or given are in
//! the notes only.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;
use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::crueler::news::change_line;
use foodweb_rules::crueler::state::{LifeChange, LifeWhy};
use foodweb_rules::table::Seats;

use crate::client::games::lines::{self, NewLines};
use crate::client::net::SeatSide;
use crate::client::reach;
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme};

/// The lines shown, and those put away.
#[derive(Resource, Default)]
pub struct Playing(NewLines);

/// A line's colour: a loss red, a gain gold.
fn colour(c: &LifeChange) -> bevy_egui::egui::Color32 {
    match c.why {
        LifeWhy::Out { .. } => theme::BAD,
        _ if c.life < 0 => theme::BAD,
        _ => theme::ACCENT,
    }
}

/// Shows the viewer's new life lines, and tells the screen's account.
fn play(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut playing: ResMut<Playing>,
    mut said: ResMut<reach::Said>,
) -> Result {
    let Some(view) = model.view_of::<CruelerGame>() else {
        return Ok(());
    };
    // The whole game's lines are one epoch.
    let all: Vec<&LifeChange> = view.mine.iter().filter(|c| c.of_life()).collect();
    let over = view.result.is_some();
    let range = playing.0.shown(0, all.len(), over, time.elapsed_secs_f64());
    let seats = Seats {
        names: view.names.clone(),
    };
    let lines: Vec<_> = all[range.clone()]
        .iter()
        .map(|c| (i18n.pick(&change_line(c, &seats)).to_string(), colour(c)))
        .collect();
    let words: Vec<String> = lines.iter().map(|(l, _)| l.clone()).collect();
    if said.settlement != words {
        said.settlement = words;
    }
    let Some(round) = all[range.clone()].last().map(|c| c.round) else {
        return Ok(());
    };
    let title = i18n.ta("crueler-settlement", &[("round", round.into())]);
    if lines::window(contexts.ctx_mut()?, title, &lines, &i18n) {
        playing.0.put_away(0, range.end);
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
            play.run_if(in_state(TableScreen::Game(GameId::Crueler))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}
