//! Gene Survival's set-up form: how long the phases last, and its house
//! rules folded away: the clocks one by one, a cap on the state cards a
//! player may use in a round, and whether the end reveals the table.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::gene::{GeneSettings, GeneTiming};

use crate::client::I18n;
use crate::client::game_setup::{
    FormAt, SetupForm, drop_down, form_boilerplate, house_number, house_toggle,
};

#[derive(Clone)]
pub struct GeneForm {
    pub timing: GeneTiming,
    /// The timing's settings, with the house rules as the player set them.
    pub settings: GeneSettings,
}

pub fn form(_: FormAt) -> Box<dyn SetupForm> {
    Box::new(GeneForm {
        timing: GeneTiming::Party,
        settings: GeneTiming::Party.settings(),
    })
}

impl GeneForm {
    /// The timings, in a drop-down; choosing one resets the clocks.
    fn timing_choice(&mut self, ui: &mut egui::Ui, i18n: &I18n, id: &str) {
        let label = |t: GeneTiming| i18n.pick(&t.label()).to_string();
        if drop_down(ui, id, &mut self.timing, &GeneTiming::ALL, label) {
            let (cap, reveal) = (self.settings.state_cards, self.settings.reveal_at_end);
            self.settings = self.timing.settings();
            self.settings.state_cards = cap;
            self.settings.reveal_at_end = reveal;
        }
    }
}

impl SetupForm for GeneForm {
    fn settings(&self) -> AnySettings {
        AnySettings::Gene(self.settings.clone())
    }

    fn main_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        ui.label(i18n.t("setup-how-long"));
        self.timing_choice(ui, i18n, "setup-gene-timing");
        ui.end_row();
    }

    fn house_rules(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let usual = self.timing.settings();
        let s = &mut self.settings;
        house_number(
            ui,
            i18n,
            "setup-gene-free-secs",
            &mut s.free_secs,
            0..=900,
            10.0,
            usual.free_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-gene-turn-secs",
            &mut s.turn_secs,
            0..=300,
            5.0,
            usual.turn_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-gene-setup-secs",
            &mut s.setup_secs,
            0..=600,
            10.0,
            usual.setup_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-gene-drop-secs",
            &mut s.drop_secs,
            0..=120,
            5.0,
            usual.drop_secs,
        );
        ui.label(egui::RichText::new(i18n.t("setup-no-limit")).small());
        ui.add_space(6.0);
        house_number(
            ui,
            i18n,
            "setup-gene-state-cards",
            &mut s.state_cards,
            0..=5,
            1.0,
            0,
        );
        ui.add_space(6.0);
        house_toggle(
            ui,
            i18n,
            "setup-gene-reveal",
            &mut s.reveal_at_end,
            usual.reveal_at_end,
        );
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        self.timing_choice(ui, i18n, "lobby-gene-timing");
    }

    /// The brisk clocks.
    fn quickest(&mut self) {
        self.timing = GeneTiming::Brisk;
        self.settings = GeneTiming::Brisk.settings();
    }

    form_boilerplate!();
}
