//! Table set-up, as players of Board Game Arena expect it: your name, how
//! many play (and, for some games, how long), and a start button in view on
//! a phone and at 1280x720; the bots and the house rules folded away under
//! it, each rule in a line a player understands with its default marked.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_rules::GameId;
use foodweb_rules::table::SeatId;

use crate::client::game_setup::{FormAt, GameClients, SetupForm, grace_row};
use crate::client::net::{Session, Target};
use crate::client::reach::{self, Does};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};
use foodweb_netcode::client::{ClientModel, Outbox, PlayerName};
use foodweb_netcode::messages::ClientMsg;

#[derive(Resource, Clone, Debug)]
pub struct TableSetup {
    pub game: GameId,
    pub seats: usize,
    /// Bot kind at each seat after yours (seat 1 is you).
    pub bots: Vec<String>,
    /// The game's rule variant and clocks, as its own form keeps them.
    pub form: Box<dyn SetupForm>,
    pub seed: u64,
    pub your_name: String,
    /// The seconds each clock of a move waits (`table::after_grace`).
    pub grace_secs: u32,
}

impl TableSetup {
    /// A table of `game` against the best bots, on the game's defaults;
    /// `None` if this client lacks the game.
    pub fn for_game(clients: &GameClients, game: GameId, your_name: String) -> Option<Self> {
        let best = foodweb_netcode::games::bot_kinds(game)
            .first()
            .copied()
            .unwrap_or("random");
        Some(Self {
            game,
            seats: clients.seats(game),
            bots: vec![best.into(); 12],
            form: clients.form(game, FormAt::Setup)?,
            seed: web_time::SystemTime::now()
                .duration_since(web_time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs() % 100_000),
            your_name,
            grace_secs: foodweb_rules::table::USUAL_GRACE_SECS,
        })
    }
}

impl FromWorld for TableSetup {
    /// The first game the client lists.
    fn from_world(world: &mut World) -> Self {
        let clients = world.resource::<GameClients>();
        clients
            .games()
            .find_map(|game| Self::for_game(clients, game, String::new()))
            .expect("the games' registry lists a game")
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
                    setup.form.main_rows(ui, &i18n);
                });
            ui.add_space(14.0);
            start_button(ui, &i18n, &mut commands);
            ui.label(
                egui::RichText::new(i18n.ta(
                    "setup-summary",
                    &[("bots", (setup.seats.saturating_sub(1)).into())],
                ))
                .color(theme::MUTED),
            );
            ui.add_space(10.0);
            let folded =
                egui::CollapsingHeader::new(egui::RichText::new(i18n.t("setup-more")).strong())
                    .id_salt("setup-more")
                    .default_open(false)
                    .show(ui, |ui| {
                        egui::Grid::new("setup-bots")
                            .num_columns(2)
                            .spacing([24.0, 8.0])
                            .show(ui, |ui| bot_rows(ui, &i18n, &mut setup));
                        ui.add_space(10.0);
                        setup.form.house_rules(ui, &i18n);
                        grace_row(ui, &i18n, &mut setup.grace_secs);
                        deal_row(ui, &i18n, &mut setup);
                    });
            reach::control(&folded.header_response, "house-rules", Does::Pick);
        });
    });
    Ok(())
}

/// Draws the back button and the screen's title.
fn header(ui: &mut egui::Ui, i18n: &I18n, game: GameId, next: &mut ResMut<NextState<Screen>>) {
    ui.horizontal(|ui| {
        let back = ui.button(format!("← {}", i18n.t("menu-back")));
        reach::control(&back, "back", Does::Move);
        if back.clicked() {
            next.set(Screen::Picker);
        }
        ui.heading(i18n.pick(&game.title()));
    });
    ui.label(egui::RichText::new(i18n.t("setup-title")).color(theme::MUTED));
}

/// Draws the row of the player's name, kept in the settings as it is typed.
fn name_row(
    ui: &mut egui::Ui,
    i18n: &I18n,
    setup: &mut TableSetup,
    settings: &mut ResMut<UserSettings>,
) {
    ui.label(i18n.t("setup-your-name"));
    if crate::client::widgets::line_field(
        ui,
        egui::TextEdit::singleline(&mut setup.your_name).desired_width(260.0),
    )
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

/// Draws the row of the deal's number: the same number deals the same
/// game again.
fn deal_row(ui: &mut egui::Ui, i18n: &I18n, setup: &mut TableSetup) {
    ui.horizontal_wrapped(|ui| {
        ui.label(i18n.t("setup-seed"));
        ui.add(egui::DragValue::new(&mut setup.seed));
    });
}

/// Draws the big start button.
fn start_button(ui: &mut egui::Ui, i18n: &I18n, commands: &mut Commands) {
    let start = egui::Button::new(
        egui::RichText::new(i18n.t("setup-start"))
            .size(24.0)
            .color(theme::ACCENT),
    )
    .min_size(egui::vec2(280.0, 52.0));
    let start = ui.add(start);
    reach::control(&start, "start", Does::Move);
    if start.clicked() {
        commands.insert_resource(StartRequested);
    }
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
    let mut settings = setup.form.settings();
    *settings.grace_secs_mut() = setup.grace_secs;
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
            name: None,
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
