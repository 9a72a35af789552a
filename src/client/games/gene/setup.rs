//! Gene Survival's set-up form: its clocks.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::gene::GeneTiming;

use crate::client::I18n;
use crate::client::game_setup::{FormAt, SetupForm, form_boilerplate, variant_row};

#[derive(Clone)]
pub struct GeneForm {
    pub timing: GeneTiming,
}

pub fn form(_: FormAt) -> Box<dyn SetupForm> {
    Box::new(GeneForm {
        timing: GeneTiming::Party,
    })
}

impl SetupForm for GeneForm {
    fn settings(&self) -> AnySettings {
        AnySettings::Gene(self.timing.settings())
    }

    fn setup_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        variant_row(ui, i18n, |ui| {
            for timing in GeneTiming::ALL {
                ui.radio_value(&mut self.timing, timing, i18n.pick(&timing.label()));
            }
        });
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        egui::ComboBox::from_id_salt("lobby-gene-timing")
            .selected_text(i18n.pick(&self.timing.label()))
            .show_ui(ui, |ui| {
                for t in GeneTiming::ALL {
                    ui.selectable_value(&mut self.timing, t, i18n.pick(&t.label()));
                }
            });
    }

    /// The brisk clocks.
    fn quickest(&mut self) {
        self.timing = GeneTiming::Brisk;
    }

    form_boilerplate!();
}
