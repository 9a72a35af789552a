//! Crueler World's set-up form: how duels are fought.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::crueler::{CruelerSettings, DuelKind};

use crate::client::I18n;
use crate::client::game_setup::{FormAt, SetupForm, form_boilerplate, variant_row};

#[derive(Clone)]
pub struct CruelerForm {
    pub settings: CruelerSettings,
}

pub fn form(_: FormAt) -> Box<dyn SetupForm> {
    Box::new(CruelerForm {
        settings: CruelerSettings::default(),
    })
}

impl SetupForm for CruelerForm {
    fn settings(&self) -> AnySettings {
        AnySettings::Crueler(self.settings.clone())
    }

    fn setup_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let duel = &mut self.settings.duel;
        variant_row(ui, i18n, |ui| {
            ui.radio_value(duel, DuelKind::Beasts, i18n.t("setup-duel-beasts"));
            ui.radio_value(duel, DuelKind::Dice, i18n.t("setup-duel-dice"));
        });
    }

    /// A LAN table plays the default duels.
    fn lobby_rows(&mut self, _: &mut egui::Ui, _: &I18n) {}

    /// Crueler World has no clock to shorten.
    fn quickest(&mut self) {}

    form_boilerplate!();
}
