//! Wanning Beast Chess's set-up form: its variant, where the seed is
//! silent or reads two ways (rules.md §8), and its clocks.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::wanning::{
    BanOdds, EarlyBirdForm, LastStandUses, SlaughterRest, WanningSettings,
};

use crate::client::I18n;
use crate::client::game_setup::{FormAt, SetupForm, form_boilerplate, variant_row};

#[derive(Clone)]
pub struct WanningForm {
    pub settings: WanningSettings,
}

pub fn form(_: FormAt) -> Box<dyn SetupForm> {
    Box::new(WanningForm {
        settings: WanningSettings::default(),
    })
}

impl SetupForm for WanningForm {
    fn settings(&self) -> AnySettings {
        AnySettings::Wanning(self.settings.clone())
    }

    fn setup_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        variant_row(ui, i18n, |ui| variant(ui, i18n, &mut self.settings));
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        egui::CollapsingHeader::new(i18n.t("setup-variant"))
            .id_salt("lobby-wanning")
            .show(ui, |ui| variant(ui, i18n, &mut self.settings));
    }

    /// The shortest round cap.
    fn quickest(&mut self) {
        self.settings.round_cap = 3;
    }

    form_boilerplate!();
}

/// The variant's choices and clocks.
fn variant(ui: &mut egui::Ui, i18n: &I18n, w: &mut WanningSettings) {
    ui.vertical(|ui| {
        ui.label(egui::RichText::new(i18n.t("setup-wanning-ban-odds")).strong());
        ui.radio_value(
            &mut w.ban_odds,
            BanOdds::VotesPerPlayer,
            i18n.t("setup-wanning-ban-per-player"),
        );
        ui.radio_value(
            &mut w.ban_odds,
            BanOdds::VotesPerVote,
            i18n.t("setup-wanning-ban-per-vote"),
        );
        ui.checkbox(&mut w.same_instinct, i18n.t("setup-wanning-same-instinct"));
        ui.label(egui::RichText::new(i18n.t("setup-wanning-early-bird")).strong());
        ui.radio_value(
            &mut w.early_bird_form,
            EarlyBirdForm::Drawn,
            i18n.t("setup-wanning-early-bird-drawn"),
        );
        ui.radio_value(
            &mut w.early_bird_form,
            EarlyBirdForm::Neither,
            i18n.t("setup-wanning-early-bird-neither"),
        );
        ui.label(egui::RichText::new(i18n.t("setup-wanning-slaughter")).strong());
        ui.radio_value(
            &mut w.slaughter_rest,
            SlaughterRest::NotFirstRound,
            i18n.t("setup-wanning-slaughter-first"),
        );
        ui.radio_value(
            &mut w.slaughter_rest,
            SlaughterRest::NotTwiceInARow,
            i18n.t("setup-wanning-slaughter-twice"),
        );
        ui.checkbox(&mut w.sturdy_rest, i18n.t("setup-wanning-sturdy-rest"));
        ui.label(egui::RichText::new(i18n.t("setup-wanning-last-stand")).strong());
        ui.radio_value(
            &mut w.last_stand,
            LastStandUses::Once,
            i18n.t("setup-wanning-last-stand-once"),
        );
        ui.radio_value(
            &mut w.last_stand,
            LastStandUses::Unlimited,
            i18n.t("setup-wanning-last-stand-unlimited"),
        );
        ui.add(egui::Slider::new(&mut w.round_cap, 3..=30).text(i18n.t("setup-wanning-round-cap")));
        ui.add(
            egui::Slider::new(&mut w.setup_secs, 0..=300)
                .step_by(5.0)
                .text(i18n.t("setup-wanning-setup-secs")),
        );
        ui.add(
            egui::Slider::new(&mut w.orders_secs, 0..=600)
                .step_by(5.0)
                .text(i18n.t("setup-wanning-orders-secs")),
        );
        ui.label(egui::RichText::new(i18n.t("setup-wanning-no-limit")).small());
    });
}
