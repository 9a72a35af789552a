//! Table set-up: seats, which bots sit where, the rule variant, then start.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_rules::GameId;
use foodweb_rules::forest::ForestTiming;
use foodweb_rules::gene::GeneTiming;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::{
    BanOdds, EarlyBirdForm, LastStandUses, SlaughterRest, WanningSettings,
};

use crate::client::net::{Session, Target};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};
use foodweb_netcode::client::{ClientModel, Outbox, PlayerName};
use foodweb_netcode::games::AnySettings;
use foodweb_netcode::messages::ClientMsg;

#[derive(Resource, Clone, Debug)]
pub struct TableSetup {
    pub game: GameId,
    pub seats: usize,
    /// Bot kind at each seat after yours (seat 1 is you).
    pub bots: Vec<String>,
    pub timing: ForestTiming,
    /// Gene Survival's clocks.
    pub gene_timing: GeneTiming,
    /// How Crueler World's duels are fought.
    pub duel: foodweb_rules::crueler::DuelKind,
    /// Wanning Beast Chess's variant (rules.md §8).
    pub wanning: WanningSettings,
    /// Length of each round; starts from the timing's and can be changed.
    pub round_secs: u32,
    pub turn_secs: u32,
    pub showdown_secs: u32,
    pub seed: u64,
    pub your_name: String,
}

impl TableSetup {
    pub fn for_game(game: GameId, your_name: String) -> Self {
        let defaults = ForestTiming::Quick.settings();
        let best = foodweb_netcode::games::bot_kinds(game)
            .first()
            .copied()
            .unwrap_or("random");
        Self {
            game,
            seats: match game {
                GameId::Gene => 6,
                GameId::Crueler => 8,
                GameId::Wanning => 6,
                _ => 4,
            },
            bots: vec![best.into(); 12],
            timing: ForestTiming::Quick,
            gene_timing: GeneTiming::Party,
            duel: foodweb_rules::crueler::DuelKind::Beasts,
            wanning: WanningSettings::default(),
            round_secs: defaults.round_secs,
            turn_secs: defaults.turn_secs,
            showdown_secs: defaults.showdown_secs,
            seed: web_time::SystemTime::now()
                .duration_since(web_time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs() % 100_000),
            your_name,
        }
    }
}

impl Default for TableSetup {
    fn default() -> Self {
        Self::for_game(GameId::Forest, String::new())
    }
}

/// Set when the player presses start; the table is built on the main
/// thread by [`start_table`].
#[derive(Resource)]
struct StartRequested;

/// Asks for the table set up on this screen to start.
pub fn request_start(commands: &mut Commands) {
    commands.insert_resource(StartRequested);
}

fn draw(
    mut commands: Commands,
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    mut setup: ResMut<TableSetup>,
    mut settings: ResMut<UserSettings>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    if setup.your_name.is_empty() {
        setup.your_name = if settings.name.is_empty() {
            i18n.t("setup-you")
        } else {
            settings.name.clone()
        };
    }
    egui::CentralPanel::default().show(&mut screen, |ui| {
        header(ui, &i18n, setup.game, &mut next);
        ui.add_space(10.0);
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("setup")
                .num_columns(2)
                .spacing([24.0, 12.0])
                .show(ui, |ui| {
                    name_row(ui, &i18n, &mut setup, &mut settings);
                    seats_row(ui, &i18n, &mut setup);
                    bot_rows(ui, &i18n, &mut setup);
                    variant_rows(ui, &i18n, &mut setup);
                });
            ui.add_space(18.0);
            start_button(ui, &i18n, &mut commands);
        });
    });
    Ok(())
}

/// Draws the back button and the screen's title.
fn header(ui: &mut egui::Ui, i18n: &I18n, game: GameId, next: &mut ResMut<NextState<Screen>>) {
    ui.horizontal(|ui| {
        if ui.button(format!("← {}", i18n.t("menu-back"))).clicked() {
            next.set(Screen::Picker);
        }
        ui.heading(format!(
            "{} · {}",
            i18n.t("setup-title"),
            i18n.pick(&game.title())
        ));
    });
}

/// Draws the row of the player's name, kept in the settings as it is typed.
fn name_row(
    ui: &mut egui::Ui,
    i18n: &I18n,
    setup: &mut TableSetup,
    settings: &mut ResMut<UserSettings>,
) {
    ui.label(i18n.t("setup-your-name"));
    if ui
        .add(egui::TextEdit::singleline(&mut setup.your_name).desired_width(260.0))
        .changed()
    {
        settings.name = setup.your_name.clone();
    }
    ui.end_row();
}

/// Draws the row of the number of seats.
fn seats_row(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    ui.label(i18n.t("setup-seats"));
    let range = setup.game.seats();
    ui.add(egui::Slider::new(
        &mut setup.seats,
        *range.start()..=*range.end(),
    ));
    ui.end_row();
}

/// Draws a row for each seat after yours, with the bot kind sitting there.
fn bot_rows(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    for seat in 1..setup.seats {
        ui.label(i18n.ta("setup-seat", &[("n", (seat + 1).into())]));
        let game = setup.game;
        // One under the other on a phone, where the kinds do
        // not fit a row (a wrapped row inside a grid cell is
        // measured as one line, and overlapped the next row).
        let kinds = |ui: &mut egui::Ui| {
            let kind = &mut setup.bots[seat - 1];
            for k in foodweb_netcode::games::bot_kinds(game) {
                ui.selectable_value(kind, k.to_string(), bot_label(i18n, k));
            }
        };
        if ui.available_width() < 420.0 {
            ui.vertical(kinds);
        } else {
            ui.horizontal(kinds);
        }
        ui.end_row();
    }
}

/// Draws the rows of the game's rule variant: its choices, Forest's clocks
/// and the seed.
fn variant_rows(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    ui.label(i18n.t("setup-variant"));
    let forest = match setup.game {
        GameId::Crueler => {
            duel_choice(ui, i18n, &mut setup.duel);
            false
        }
        GameId::Wanning => {
            wanning_variant(ui, i18n, &mut setup.wanning);
            false
        }
        GameId::Gene => {
            gene_timing_choice(ui, i18n, &mut setup.gene_timing);
            false
        }
        _ => {
            forest_timing_choice(ui, i18n, setup);
            true
        }
    };
    ui.end_row();
    if forest {
        forest_clock_rows(ui, i18n, setup);
    }
    ui.label(i18n.t("setup-seed"));
    ui.add(egui::DragValue::new(&mut setup.seed));
    ui.end_row();
}

/// Draws Crueler World's duel kinds to choose from.
fn duel_choice(ui: &mut egui::Ui, i18n: &I18n, duel: &mut foodweb_rules::crueler::DuelKind) {
    use foodweb_rules::crueler::DuelKind;
    ui.vertical(|ui| {
        ui.radio_value(duel, DuelKind::Beasts, i18n.t("setup-duel-beasts"));
        ui.radio_value(duel, DuelKind::Dice, i18n.t("setup-duel-dice"));
    });
}

/// Draws Gene Survival's timings to choose from.
fn gene_timing_choice(ui: &mut egui::Ui, i18n: &I18n, gene_timing: &mut GeneTiming) {
    ui.vertical(|ui| {
        for timing in GeneTiming::ALL {
            ui.radio_value(gene_timing, timing, i18n.pick(&timing.label()));
        }
    });
}

/// Draws Forest's timings to choose from; choosing one resets the clocks.
fn forest_timing_choice(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    ui.vertical(|ui| {
        for timing in ForestTiming::ALL {
            if ui
                .radio(setup.timing == timing, i18n.pick(&timing.label()))
                .clicked()
            {
                let preset = timing.settings();
                setup.timing = timing;
                setup.round_secs = preset.round_secs;
                setup.turn_secs = preset.turn_secs;
                setup.showdown_secs = preset.showdown_secs;
            }
        }
    });
}

/// Draws the rows of Forest's clocks: round minutes, turn and showdown
/// seconds.
fn forest_clock_rows(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    ui.label(i18n.t("setup-round-minutes"));
    let mut minutes = (setup.round_secs / 60).max(1);
    if ui.add(egui::Slider::new(&mut minutes, 1..=60)).changed() {
        setup.round_secs = minutes * 60;
    }
    ui.end_row();

    ui.label(i18n.t("setup-turn-secs"));
    ui.add(egui::Slider::new(&mut setup.turn_secs, 15..=180));
    ui.end_row();
    ui.label(i18n.t("setup-showdown-secs"));
    ui.add(egui::Slider::new(&mut setup.showdown_secs, 10..=90));
    ui.end_row();
}

/// Draws the big start button.
fn start_button(ui: &mut egui::Ui, i18n: &I18n, commands: &mut Commands) {
    let start = egui::Button::new(
        egui::RichText::new(i18n.t("setup-start"))
            .size(24.0)
            .color(theme::ACCENT),
    )
    .min_size(egui::vec2(280.0, 52.0));
    if ui.add(start).clicked() {
        commands.insert_resource(StartRequested);
    }
}

/// Wanning Beast Chess's variant, where the seed is silent or reads two
/// ways (rules.md §8): shared by the set-up and the LAN lobby.
pub fn wanning_variant(ui: &mut egui::Ui, i18n: &I18n, w: &mut WanningSettings) {
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

/// A bot kind as the set-up screen names it.
fn bot_label(i18n: &I18n, kind: &str) -> String {
    match kind {
        "memory" => i18n.t("setup-bot-memory"),
        "random" => i18n.t("setup-bot-random"),
        "survivor" => i18n.t("setup-bot-survivor"),
        "reasoning" => i18n.t("setup-bot-reasoning"),
        other => other.to_string(),
    }
}

/// A bot's seat name in the player's language ("Bot 3", "机器人 3").
pub fn bot_name(i18n: &I18n, seat: usize) -> String {
    i18n.ta("setup-bot-name", &[("n", seat.into())])
}

/// Opens the table on the server in this app (local play is a hosted
/// table like any other), seats the chosen bots, starts it and moves to the
/// table screen.
fn start_table(world: &mut World) {
    if world.remove_resource::<StartRequested>().is_none() {
        return;
    }
    let setup = world.resource::<TableSetup>().clone();
    let settings = match setup.game {
        GameId::Gene => AnySettings::Gene(setup.gene_timing.settings()),
        GameId::Wanning => AnySettings::Wanning(setup.wanning.clone()),
        GameId::Crueler => AnySettings::Crueler(foodweb_rules::crueler::CruelerSettings {
            duel: setup.duel,
            ..Default::default()
        }),
        _ => {
            let mut settings = setup.timing.settings();
            settings.round_secs = setup.round_secs;
            settings.turn_secs = setup.turn_secs;
            settings.showdown_secs = setup.showdown_secs;
            AnySettings::Forest(settings)
        }
    };
    world.resource_mut::<PlayerName>().0 = setup.your_name.clone();
    let mut msgs = Vec::new();
    if world.resource::<ClientModel>().place.is_some() {
        msgs.push(ClientMsg::Leave);
    }
    msgs.push(ClientMsg::SetName {
        name: setup.your_name.clone(),
    });
    msgs.push(ClientMsg::CreateTable {
        settings,
        seats: setup.seats as u8,
        host_seat: false,
        seed: Some(setup.seed),
        open_replays: true,
    });
    for i in 1..setup.seats {
        msgs.push(ClientMsg::SetBot {
            seat: SeatId(i as u8),
            kind: Some(setup.bots[i - 1].clone()),
            name: Some(bot_name(world.resource::<I18n>(), i + 1)),
        });
    }
    msgs.push(ClientMsg::Start);
    let mut session = world.resource_mut::<Session>();
    if session.target != Some(Target::InProcess) {
        session.connect(Target::InProcess);
    }
    world.resource_mut::<Outbox>().0.extend(msgs);
    world.resource_mut::<NextState<Screen>>().set(Screen::Table);
}

pub fn plugin(app: &mut App) {
    app.init_resource::<TableSetup>()
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Setup)))
        .add_systems(Update, start_table.run_if(in_state(Screen::Setup)));
}
