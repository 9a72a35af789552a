//! Which art the screen needs: the picker's pictures on the picker, and
//! the game's art on its set-up screen, its lobby and its table, each
//! loaded once (`assets::ArtLoad`).

use bevy::prelude::*;
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;

use super::setup::TableSetup;
use crate::client::Screen;
use crate::client::assets::{ArtLoad, GameArt, PickerArt};

/// The game whose art the screen shows, if any: the one being set up, or
/// the table's.
fn wanted_game(screen: &Screen, setup: &TableSetup, model: &ClientModel) -> Option<GameId> {
    match screen {
        Screen::Setup => Some(setup.game),
        Screen::Table | Screen::Lobby => model.view.as_ref().map(|v| v.game()),
        _ => None,
    }
}

fn load_art(
    screen: Res<State<Screen>>,
    setup: Res<TableSetup>,
    model: Res<ClientModel>,
    art: Res<State<ArtLoad>>,
    mut next: ResMut<NextState<ArtLoad>>,
    picker: Option<Res<PickerArt>>,
    games: Res<GameArt>,
) {
    if *art.get() != ArtLoad::Idle && *art.get() != ArtLoad::Ready {
        return;
    }
    if *screen.get() == Screen::Picker && picker.is_none() {
        next.set(ArtLoad::Picker);
        return;
    }
    if let Some(game) = wanted_game(screen.get(), &setup, &model)
        && games.missing(game)
    {
        next.set(ArtLoad::Game(game));
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, load_art.run_if(not(in_state(Screen::Loading))));
}
