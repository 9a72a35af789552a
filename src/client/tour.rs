//! A scripted walk through the screens that saves a screenshot of each, for
//! the docs and for looking at what a player sees. Runs only when
//! `FOODWEB_TOUR` names a folder:
//!
//!     FOODWEB_TOUR=docs/screenshots cargo run --release
//!
//! Writes `title-en.png`, `title-zh.png`, `picker.png`, `setup.png`,
//! `table.png`, `showdown.png` (a showdown asked and revealed),
//! `challenge.png` (a challenge picked on the player's turn),
//! `table-en.png`, `game-over.png` (a 45-second game played out),
//! `lobby.png` (hosting a LAN game), `lobby-table.png` (a table opened
//! there), `join.png` (the join screen hearing this very server), and
//! `startup.txt` (seconds from launch to the title screen), then quits.
//! `FOODWEB_TOUR_SUFFIX` is added to each name.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use foodweb_rules::Lang;

use super::net::{SeatSide, Session, Target, host_on_lan};
use super::screens::HostedAt;
use super::screens::TableSetup;
use super::screens::forest_table::TableUi;
use super::{LaunchedAt, Screen, UserSettings};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::games::AnySettings;
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::server::Listeners;
use foodweb_rules::forest::ForestTiming;
use foodweb_rules::forest::{ForestAction, ForestPhase, deck};
use foodweb_rules::table::SeatId;

/// What hosting a LAN game touches.
#[derive(bevy::ecs::system::SystemParam)]
struct LanHosting<'w> {
    listeners: ResMut<'w, Listeners>,
    hosted: ResMut<'w, HostedAt>,
    session: ResMut<'w, Session>,
}

#[derive(Resource)]
struct Tour {
    dir: PathBuf,
    suffix: String,
    step: usize,
    wait: f32,
    /// Waiting for the player's own turn to set up a challenge.
    want_challenge: bool,
    /// The current step's screenshot was asked for last frame.
    shot_taken: bool,
}

/// Each step: what to do, then the screenshot to take after a pause.
const STEPS: [&str; 13] = [
    "title-en",
    "title-zh",
    "picker",
    "setup",
    "table",
    "showdown",
    "challenge",
    "table-en",
    "game-over",
    "lobby",
    "lobby-table",
    "join",
    "quit",
];

#[allow(clippy::too_many_arguments)]
fn run_tour(
    mut commands: Commands,
    time: Res<Time<Real>>,
    tour: Option<ResMut<Tour>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<UserSettings>,
    mut setup: ResMut<TableSetup>,
    launched: Res<LaunchedAt>,
    mut exit: MessageWriter<AppExit>,
    mut title_seen: Local<Option<f32>>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
    mut lan: LanHosting,
) {
    let LanHosting {
        listeners,
        hosted,
        session,
    } = &mut lan;
    let Some(mut tour) = tour else { return };
    if *screen.get() == Screen::Loading {
        return;
    }
    if title_seen.is_none() {
        let secs = launched.0.elapsed().as_secs_f32();
        *title_seen = Some(secs);
        let _ = std::fs::create_dir_all(&tour.dir);
        let _ = std::fs::write(tour.dir.join("startup.txt"), format!("{secs:.2}\n"));
    }
    tour.wait -= time.delta_secs();
    if tour.wait > 0.0 {
        return;
    }
    let step = STEPS.get(tour.step).copied().unwrap_or("quit");
    if step == "quit" {
        exit.write(AppExit::Success);
        return;
    }
    // Take the screenshot of the current step; set up the next one a frame
    // later, so the captured frame shows one step only.
    if !tour.shot_taken {
        let path = tour.dir.join(format!("{step}{}.png", tour.suffix));
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        tour.shot_taken = true;
        return;
    }
    tour.shot_taken = false;
    tour.step += 1;
    tour.wait = 1.5;
    match STEPS.get(tour.step).copied() {
        Some("title-zh") => settings.lang = Lang::Zh,
        Some("picker") => next.set(Screen::Picker),
        Some("setup") => {
            *setup = TableSetup::for_game(foodweb_rules::GameId::Forest, "Ann".into());
            setup.seed = 7;
            // A short game, so the tour reaches the score screen.
            setup.round_secs = 45;
            setup.turn_secs = 15;
            setup.showdown_secs = 10;
            next.set(Screen::Setup);
        }
        Some("table") => {
            setup.your_name = "Ann".into();
            super::screens::request_start(&mut commands);
            tour.wait = 6.0;
        }
        Some("showdown") => {
            // Ask the next seat for a showdown and lay down the first card;
            // the bot answers, and the reveal is on screen for the picture.
            if let Some(view) = model.forest_view() {
                let mut act = |action| {
                    outbox.0.push(ClientMsg::Act {
                        action: AnyAction::Forest(action),
                    })
                };
                act(ForestAction::AskShowdown { target: SeatId(1) });
                if let Some(&card) = view.hand.first() {
                    act(ForestAction::PlayCard { card });
                }
            }
            tour.wait = 4.0;
        }
        Some("challenge") => {
            tour.want_challenge = true;
            tour.wait = 30.0;
        }
        Some("table-en") => settings.lang = Lang::En,
        Some("game-over") => {
            settings.lang = Lang::Zh;
            tour.wait = 60.0;
        }
        Some("lobby") => {
            // Host a LAN game, as the title screen's button does.
            hosted.0 = host_on_lan(listeners).unwrap_or_default();
            session.connect(Target::InProcess);
            next.set(Screen::Lobby);
            tour.wait = 2.5;
        }
        Some("lobby-table") => {
            outbox.0.push(ClientMsg::CreateTable {
                settings: AnySettings::Forest(ForestTiming::Quick.settings()),
                seats: 4,
                host_seat: true,
                seed: None,
            });
            outbox.0.push(ClientMsg::SetBot {
                seat: SeatId(2),
                kind: Some("memory".into()),
                name: Some("机器人 3".into()),
            });
        }
        Some("join") => {
            next.set(Screen::Join);
            tour.wait = 3.0;
        }
        _ => {}
    }
}

fn begin(mut commands: Commands, mut settings: ResMut<UserSettings>) {
    // FOODWEB_TOUR_GAME=gene runs the Gene Survival tour instead.
    if std::env::var("FOODWEB_TOUR_GAME").is_ok() {
        return;
    }
    if let Ok(dir) = std::env::var("FOODWEB_TOUR") {
        settings.lang = Lang::En;
        commands.insert_resource(Tour {
            dir: dir.into(),
            suffix: std::env::var("FOODWEB_TOUR_SUFFIX").unwrap_or_default(),
            step: 0,
            wait: 2.5,
            want_challenge: false,
            shot_taken: false,
        });
    }
}

/// Moves the pointer to a corner, so no tooltip covers the pictures.
fn park_pointer(mut windows: Query<&mut Window>, tour: Option<Res<Tour>>, mut done: Local<bool>) {
    if tour.is_none() || *done {
        return;
    }
    for mut window in &mut windows {
        window.set_cursor_position(Some(Vec2::new(2.0, 2.0)));
        *done = true;
    }
}

/// On the player's own turn, picks a challenge in the table screen (as a
/// player would: a card the table has seen, and a taking card that eats it)
/// so the picture shows the challenge controls filled in.
fn pick_challenge(
    tour: Option<ResMut<Tour>>,
    model: Res<ClientModel>,
    mut table_ui: ResMut<TableUi>,
) {
    let (Some(mut tour), Some(view)) = (tour, model.forest_view()) else {
        return;
    };
    if !tour.want_challenge {
        return;
    }
    let mine = view.me == Some(view.active) && view.phase == ForestPhase::Turn;
    if !mine || view.opening_turn {
        return;
    }
    let legal = |with, named| view.challenge_cards(with, named).is_ok();
    let others: Vec<_> = view.opponents_with_cards().collect();
    let mut choice = None;
    for s in &others {
        for &named in &s.known {
            if let Some(&with) = view.hand.iter().find(|&&w| legal(w, named)) {
                choice = Some((s.seat, named, with));
            }
        }
    }
    if choice.is_none()
        && let (Some(s), Some(&with)) = (others.first(), view.hand.first())
    {
        choice = deck()
            .ids()
            .find(|&n| legal(with, n))
            .map(|n| (s.seat, n, with));
    }
    if let Some((target, named, with)) = choice {
        table_ui.target = Some(target);
        table_ui.named = Some(named);
        table_ui.selected = Some(with);
    }
    tour.want_challenge = false;
    tour.wait = 0.5;
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, begin)
        .add_systems(Update, (park_pointer, pick_challenge, run_tour).chain());
}
