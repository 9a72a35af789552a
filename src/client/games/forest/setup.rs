//! Forest Showdown's set-up form: a timing, then its clocks, which start
//! from the timing's and can be changed.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::forest::{ForestSettings, ForestTiming};

use crate::client::I18n;
use crate::client::game_setup::{FormAt, SetupForm, form_boilerplate, variant_row};

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

    fn setup_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        variant_row(ui, i18n, |ui| self.timing_choice(ui, i18n));
        self.clock_rows(ui, i18n);
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let before = self.timing;
        egui::ComboBox::from_id_salt("lobby-timing")
            .selected_text(i18n.pick(&self.timing.label()))
            .show_ui(ui, |ui| {
                for t in ForestTiming::ALL {
                    ui.selectable_value(&mut self.timing, t, i18n.pick(&t.label()));
                }
            });
        if self.timing != before {
            self.settings = self.timing.settings();
        }
    }

    /// The set-up screen's one-minute round.
    fn quickest(&mut self) {
        self.settings.round_secs = 60;
    }

    form_boilerplate!();
}

impl ForestForm {
    /// Forest's timings to choose from; choosing one resets the clocks.
    fn timing_choice(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        for timing in ForestTiming::ALL {
            if ui
                .radio(self.timing == timing, i18n.pick(&timing.label()))
                .clicked()
            {
                self.timing = timing;
                self.settings = timing.settings();
            }
        }
    }

    /// The rows of Forest's clocks: round minutes, turn and showdown
    /// seconds.
    fn clock_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let s = &mut self.settings;
        ui.label(i18n.t("setup-round-minutes"));
        let mut minutes = (s.round_secs / 60).max(1);
        if ui.add(egui::Slider::new(&mut minutes, 1..=60)).changed() {
            s.round_secs = minutes * 60;
        }
        ui.end_row();

        ui.label(i18n.t("setup-turn-secs"));
        ui.add(egui::Slider::new(&mut s.turn_secs, 15..=180));
        ui.end_row();
        ui.label(i18n.t("setup-showdown-secs"));
        ui.add(egui::Slider::new(&mut s.showdown_secs, 10..=90));
        ui.end_row();
    }
}
