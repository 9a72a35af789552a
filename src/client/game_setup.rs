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
    /// Draws the set-up screen's rows above its start button, in its
    /// two-column grid (a label and its control, ended with
    /// `ui.end_row()`): at most the one choice most players make (how long
    /// a game lasts). Nothing by default.
    fn main_rows(&mut self, _ui: &mut egui::Ui, _i18n: &I18n) {}
    /// Draws the house rules, folded away under the start button: each a
    /// line a player understands, its default marked ([`house_choice`],
    /// [`house_toggle`], [`house_number`]).
    fn house_rules(&mut self, ui: &mut egui::Ui, i18n: &I18n);
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

/// A choice's words, marked when it is the default.
fn marked(i18n: &I18n, text: String, default: bool) -> String {
    if default {
        i18n.ta("setup-default-mark", &[("choice", text.into())])
    } else {
        text
    }
}

/// A drop-down of `all`, as wide as the room left (a phone's is narrow:
/// a long label is cut short, not the screen widened); whether the choice
/// changed.
pub fn drop_down<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    id: &str,
    value: &mut T,
    all: &[T],
    label: impl Fn(T) -> String,
) -> bool {
    let before = *value;
    egui::ComboBox::from_id_salt(id)
        .width((ui.available_width() - 8.0).clamp(120.0, 320.0))
        .truncate()
        .selected_text(label(*value))
        .show_ui(ui, |ui| {
            for t in all {
                ui.selectable_value(value, *t, label(*t));
            }
        });
    *value != before
}

/// A house rule of a few choices: its line (`line`, a message key), then
/// one button per choice (`(value, key)`), the default marked.
pub fn house_choice<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    i18n: &I18n,
    line: &str,
    value: &mut T,
    default: T,
    choices: &[(T, &str)],
) {
    ui.label(egui::RichText::new(i18n.t(line)).strong());
    for (v, key) in choices {
        ui.radio_value(value, *v, marked(i18n, i18n.t(key), *v == default));
    }
    ui.add_space(6.0);
}

/// A house rule that is on or off, its default said.
pub fn house_toggle(ui: &mut egui::Ui, i18n: &I18n, line: &str, value: &mut bool, default: bool) {
    let usual = i18n.t(if default {
        "setup-default-on"
    } else {
        "setup-default-off"
    });
    ui.checkbox(value, format!("{} ({usual})", i18n.t(line)));
    ui.add_space(6.0);
}

/// A house rule that is a number, on a slider, its default said.
pub fn house_number<T: egui::emath::Numeric + std::fmt::Display>(
    ui: &mut egui::Ui,
    i18n: &I18n,
    line: &str,
    value: &mut T,
    range: std::ops::RangeInclusive<T>,
    step: f64,
    default: T,
) {
    ui.label(i18n.ta(
        "setup-default-number",
        &[
            ("line", i18n.t(line).into()),
            ("n", default.to_string().into()),
        ],
    ));
    ui.add(egui::Slider::new(value, range).step_by(step));
    ui.add_space(6.0);
}

/// The row of the table's grace (`table::after_grace`): the seconds each
/// clock of a move waits, so every phone has shown what just happened.
pub fn grace_row(ui: &mut egui::Ui, i18n: &I18n, grace_secs: &mut u32) {
    house_number(
        ui,
        i18n,
        "setup-grace",
        grace_secs,
        0..=foodweb_rules::table::MAX_GRACE_SECS,
        1.0,
        foodweb_rules::table::USUAL_GRACE_SECS,
    );
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
