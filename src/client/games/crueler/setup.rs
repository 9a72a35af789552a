//! Crueler World's set-up form: its house rules, folded away: how duels
//! are fought and won, the life each box starts with, what "this round"
//! means for starving, and the clocks.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::crueler::{CruelerSettings, DuelKind, StarveBy};

use crate::client::I18n;
use crate::client::game_setup::{
    FormAt, SetupForm, form_boilerplate, house_choice, house_number, house_toggle,
};

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

    fn house_rules(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        let usual = CruelerSettings::default();
        let s = &mut self.settings;
        house_choice(
            ui,
            i18n,
            "setup-crueler-duel",
            &mut s.duel,
            usual.duel,
            &[
                (DuelKind::Beasts, "setup-duel-beasts"),
                (DuelKind::Dice, "setup-duel-dice"),
            ],
        );
        house_number(
            ui,
            i18n,
            "setup-crueler-wins",
            &mut s.wins_needed,
            1..=3,
            1.0,
            usual.wins_needed,
        );
        house_number(
            ui,
            i18n,
            "setup-crueler-life",
            &mut s.start_life,
            1..=50,
            1.0,
            usual.start_life,
        );
        house_choice(
            ui,
            i18n,
            "setup-crueler-starve",
            &mut s.starve_by,
            usual.starve_by,
            &[
                (StarveBy::Round, "setup-crueler-starve-round"),
                (StarveBy::Phase, "setup-crueler-starve-phase"),
            ],
        );
        house_number(
            ui,
            i18n,
            "setup-crueler-ask-secs",
            &mut s.ask_secs,
            0..=300,
            5.0,
            usual.ask_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-crueler-duel-secs",
            &mut s.duel_secs,
            0..=120,
            5.0,
            usual.duel_secs,
        );
        house_number(
            ui,
            i18n,
            "setup-crueler-interlude-secs",
            &mut s.interlude_secs,
            0..=600,
            10.0,
            usual.interlude_secs,
        );
        ui.label(egui::RichText::new(i18n.t("setup-no-limit")).small());
        ui.add_space(6.0);
        house_toggle(
            ui,
            i18n,
            "setup-crueler-reveal",
            &mut s.reveal_at_end,
            usual.reveal_at_end,
        );
    }

    /// A LAN table plays the default duels.
    fn lobby_rows(&mut self, _: &mut egui::Ui, _: &I18n) {}

    /// Crueler World has no clock to shorten.
    fn quickest(&mut self) {}

    form_boilerplate!();
}
