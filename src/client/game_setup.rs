//! What the client's core asks of a game away from its table: the seats a
//! table of it starts with, its picture in the picker, and its set-up form
//! (its rule variant and clocks, on the set-up screen and in the lobby).
//! Each game's plugin registers its own with [`add_game`]; the core reads
//! them through [`GameClients`] and names no game.

use std::any::Any;

use bevy::prelude::*;
use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::GameId;

use super::I18n;

/// Where a set-up form is drawn: its defaults can differ (a local game
/// against bots starts quick, a LAN table starts as the seed plays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormAt {
    /// The set-up screen of a game against bots.
    Setup,
    /// A new table in a server's lobby.
    Lobby,
}

/// A game's rule variant and clocks as a player chooses them.
pub trait SetupForm: Send + Sync + 'static {
    /// The settings a table is created with.
    fn settings(&self) -> AnySettings;
    /// Draws the set-up screen's rows, in its two-column grid: each row
    /// a label and its control, ended with `ui.end_row()`.
    fn setup_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n);
    /// Draws the lobby's short form under the game's name.
    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n);
    /// Chooses the least time the form offers (autoplay's quick games).
    fn quickest(&mut self);
    fn boxed(&self) -> Box<dyn SetupForm>;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn SetupForm> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

impl std::fmt::Debug for dyn SetupForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.settings())
    }
}

/// Implements [`SetupForm`]'s `boxed` and `as_any_mut` for a form that is
/// `Clone`.
macro_rules! form_boilerplate {
    () => {
        fn boxed(&self) -> Box<dyn $crate::client::game_setup::SetupForm> {
            Box::new(self.clone())
        }
        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }
    };
}
pub(crate) use form_boilerplate;

/// Draws the set-up screen's row of the rule variant: its label and, in
/// the second column, what `body` draws.
pub fn variant_row(ui: &mut egui::Ui, i18n: &I18n, body: impl FnOnce(&mut egui::Ui)) {
    ui.label(i18n.t("setup-variant"));
    ui.vertical(body);
    ui.end_row();
}

/// What a game gives the core.
#[derive(Clone, Copy)]
pub struct GameClient {
    /// Seats at a new table against bots.
    pub seats: usize,
    /// Its picture in the game picker (under `assets/`).
    pub picture: &'static str,
    /// A new set-up form, with the defaults for where it is drawn.
    pub form: fn(FormAt) -> Box<dyn SetupForm>,
}

/// The games this client has, as their plugins registered them.
#[derive(Resource, Default)]
pub struct GameClients(Vec<(GameId, GameClient)>);

impl GameClients {
    pub fn get(&self, game: GameId) -> Option<&GameClient> {
        self.0.iter().find(|(g, _)| *g == game).map(|(_, c)| c)
    }

    /// The games in the order they were registered.
    pub fn games(&self) -> impl Iterator<Item = GameId> + '_ {
        self.0.iter().map(|(g, _)| *g)
    }

    /// A new form for `game`, with the defaults for where it is drawn.
    pub fn form(&self, game: GameId, at: FormAt) -> Option<Box<dyn SetupForm>> {
        self.get(game).map(|client| (client.form)(at))
    }

    /// Seats at a new table of `game` against bots.
    pub fn seats(&self, game: GameId) -> usize {
        self.get(game)
            .map_or(*game.seats().start(), |c| c.seats)
            .clamp(*game.seats().start(), *game.seats().end())
    }
}

/// Registers a game with the client's core: from the game's own plugin.
pub fn add_game(app: &mut App, game: GameId, client: GameClient) {
    app.init_resource::<GameClients>();
    app.world_mut()
        .resource_mut::<GameClients>()
        .0
        .push((game, client));
}
