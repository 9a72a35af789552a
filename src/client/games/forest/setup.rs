//! Forest Showdown's set-up form: how long a game lasts (a timing), and
//! folded away its clocks, which start from the timing's and can be
//! changed.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::forest::{ForestSettings, ForestTiming};

use crate::client::I18n;
use crate::client::game_setup::{
    FormAt, SetupForm, drop_down, form_boilerplate, house_number, house_toggle,
};

#[derive(Clone)]
pub struct ForestForm {
    pub timing: ForestTiming,
    /// The timing's settings, with the clocks as the player set them.
    pub settings: ForestSettings,
}

/// A local game against bots starts quick; a LAN table plays three rounds
/// of the seed's 20 minutes.
pub fn form(at: FormAt) -> Box<dyn SetupForm> {
    let timing = match at {
        FormAt::Setup => ForestTiming::Quick,
        FormAt::Lobby => ForestTiming::ThreeRounds,
    };
    Box::new(ForestForm {
        timing,
        settings: timing.settings(),
    })
}

impl SetupForm for ForestForm {
    fn settings(&self) -> AnySettings {
        AnySettings::Forest(self.settings.clone())
    }

    fn main_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        ui.label(i18n.t("setup-how-long"));
        self.timing_choice(ui, i18n, "setup-timing");
        ui.end_row();
    }

    fn house_rules(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let usual = self.timing.settings();
        let s = &mut self.settings;
        let was = (s.round_secs / 60).max(1);
        let mut minutes = was;
        house_number(
            ui,
            i18n,
            "setup-round-minutes",
            &mut minutes,
            1..=60,
            1.0,
            (usual.round_secs / 60).max(1),
        );
        if minutes != was {
            s.round_secs = minutes * 60;
        }
        house_number(
            ui,
            i18n,
            "setup-turn-secs",
            &mut s.turn_secs,
            15..=180,
            5.0,
            usual.turn_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-showdown-secs",
            &mut s.showdown_secs,
            10..=90,
            5.0,
            usual.showdown_secs,
        );
        ui.add_space(6.0);
        house_toggle(
            ui,
            i18n,
            "setup-forest-reveal",
            &mut s.reveal_at_end,
            usual.reveal_at_end,
        );
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        self.timing_choice(ui, i18n, "lobby-timing");
    }

    /// The set-up screen's one-minute round.
    fn quickest(&mut self) {
        self.settings.round_secs = 60;
    }

    form_boilerplate!();
}

impl ForestForm {
    /// Forest's timings, in a drop-down; choosing one resets the clocks.
    fn timing_choice(&mut self, ui: &mut egui::Ui, i18n: &I18n, id: &str) {
        let label = |t: ForestTiming| i18n.pick(&t.label()).to_string();
        if drop_down(ui, id, &mut self.timing, &ForestTiming::ALL, label) {
            self.settings = self.timing.settings();
        }
    }
}
