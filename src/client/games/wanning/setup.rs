//! Wanning Beast Chess's set-up form: its house rules, folded away, where
//! the seed is silent or reads two ways (rules.md §8), and its clocks.

use bevy_egui::egui;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::wanning::{
    BanOdds, EarlyBirdForm, LastStandUses, MAX_TALK_PER_GAME, MAX_TALK_PER_ROUND, SlaughterRest,
    WanningSettings,
};

use crate::client::I18n;
use crate::client::game_setup::{
    FormAt, SetupForm, form_boilerplate, house_choice, house_number, house_toggle,
};

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

    fn house_rules(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        house_rules(ui, i18n, &mut self.settings);
    }

    fn lobby_rows(&mut self, ui: &mut egui::Ui, i18n: &I18n) {
        egui::CollapsingHeader::new(i18n.t("setup-more-rules"))
            .id_salt("lobby-wanning")
            .show(ui, |ui| house_rules(ui, i18n, &mut self.settings));
    }

    /// The shortest round cap.
    fn quickest(&mut self) {
        self.settings.round_cap = 3;
    }

    form_boilerplate!();
}

/// The house rules, each where the seed is silent or reads two ways
/// (rules.md §8), in a line a player understands, its default marked;
/// then the clocks.
fn house_rules(ui: &mut egui::Ui, i18n: &I18n, w: &mut WanningSettings) {
    let usual = WanningSettings::default();
    house_choice(
        ui,
        i18n,
        "setup-wanning-ban-odds",
        &mut w.ban_odds,
        usual.ban_odds,
        &[
            (BanOdds::VotesPerPlayer, "setup-wanning-ban-per-player"),
            (BanOdds::VotesPerVote, "setup-wanning-ban-per-vote"),
        ],
    );
    house_toggle(
        ui,
        i18n,
        "setup-wanning-same-instinct",
        &mut w.same_instinct,
        usual.same_instinct,
    );
    house_choice(
        ui,
        i18n,
        "setup-wanning-early-bird",
        &mut w.early_bird_form,
        usual.early_bird_form,
        &[
            (EarlyBirdForm::Drawn, "setup-wanning-early-bird-drawn"),
            (EarlyBirdForm::Neither, "setup-wanning-early-bird-neither"),
        ],
    );
    house_choice(
        ui,
        i18n,
        "setup-wanning-slaughter",
        &mut w.slaughter_rest,
        usual.slaughter_rest,
        &[
            (
                SlaughterRest::NotFirstRound,
                "setup-wanning-slaughter-first",
            ),
            (
                SlaughterRest::NotTwiceInARow,
                "setup-wanning-slaughter-twice",
            ),
        ],
    );
    house_toggle(
        ui,
        i18n,
        "setup-wanning-sturdy-rest",
        &mut w.sturdy_rest,
        usual.sturdy_rest,
    );
    house_choice(
        ui,
        i18n,
        "setup-wanning-last-stand",
        &mut w.last_stand,
        usual.last_stand,
        &[
            (LastStandUses::Once, "setup-wanning-last-stand-once"),
            (
                LastStandUses::Unlimited,
                "setup-wanning-last-stand-unlimited",
            ),
        ],
    );
    house_number(
        ui,
        i18n,
        "setup-wanning-round-cap",
        &mut w.round_cap,
        3..=30,
        1.0,
        usual.round_cap,
    );
    house_number(
        ui,
        i18n,
        "setup-wanning-setup-secs",
        &mut w.setup_secs,
        0..=300,
        5.0,
        usual.setup_secs,
    );
    house_number(
        ui,
        i18n,
        "setup-wanning-orders-secs",
        &mut w.orders_secs,
        0..=600,
        5.0,
        usual.orders_secs,
    );
    ui.label(egui::RichText::new(i18n.t("setup-no-limit")).small());
    ui.add_space(6.0);
    talk_and_end(ui, i18n, w, &usual);
}

/// The talk's bounds and the end's reveal.
fn talk_and_end(ui: &mut egui::Ui, i18n: &I18n, w: &mut WanningSettings, usual: &WanningSettings) {
    house_number(
        ui,
        i18n,
        "setup-wanning-talk-round",
        &mut w.talk_per_round,
        1..=MAX_TALK_PER_ROUND,
        1.0,
        usual.talk_per_round,
    );
    house_number(
        ui,
        i18n,
        "setup-wanning-talk-game",
        &mut w.talk_per_game,
        1..=MAX_TALK_PER_GAME,
        10.0,
        usual.talk_per_game,
    );
    house_toggle(
        ui,
        i18n,
        "setup-wanning-reveal",
        &mut w.reveal_at_end,
        usual.reveal_at_end,
    );
}
