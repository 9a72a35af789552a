//! The screenshot tours (`dev` feature): with `FOODWEB_TOUR` naming a
//! folder, the client walks through the screens and a game the way a
//! player would, saves a picture at each step and quits. One runner plays
//! every game's tour; a tour is data: a list of [`Step`]s, each waiting
//! for a moment of the game (the seat playing meanwhile, from its own view
//! only, as the survivor bot would), doing what a player would there, and
//! naming the picture to take.
//!
//!     FOODWEB_TOUR=docs/screenshots cargo run --features dev
//!
//! `FOODWEB_TOUR_GAME` chooses the tour by the game's key (`forest`, the
//! default: title, picker, set-up, table, a showdown, a challenge, the
//! end, a LAN lobby, the join screen; `gene`, `crueler`, `wanning`). Each
//! game's steps live in its folder (`games/<game>/tour.rs`); this file
//! has the runner and the steps every tour shares. `FOODWEB_TOUR_SUFFIX`
//! is added to each picture's name; `startup.txt` gets the seconds from
//! launch to the title screen. `tools/screenshots.sh` runs every tour at
//! three window sizes.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::{AnyAction, bot_move};
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::server::Listeners;
use foodweb_rules::{GameId, Lang};
use rand::SeedableRng;

use super::game_setup::GameClients;
use super::net::{Session, Target, host_on_lan};
use super::screens::{HostedAt, TableSetup};
use super::{LaunchedAt, Screen, UserSettings};

/// Everything a step may look at or change.
#[derive(SystemParam)]
pub struct Ctx<'w, 's> {
    pub commands: Commands<'w, 's>,
    pub model: ResMut<'w, ClientModel>,
    pub outbox: ResMut<'w, Outbox>,
    pub settings: ResMut<'w, UserSettings>,
    pub setup: ResMut<'w, TableSetup>,
    pub clients: Res<'w, GameClients>,
    pub next: ResMut<'w, NextState<Screen>>,
    pub replay: ResMut<'w, super::replay::Replaying>,
    pub picker: ResMut<'w, super::replay::ReplayPicker>,
    pub listeners: ResMut<'w, Listeners>,
    pub hosted: ResMut<'w, HostedAt>,
    pub session: ResMut<'w, Session>,
}

impl Ctx<'_, '_> {
    /// Changes a game's screen state, as a player's clicks would (applied
    /// before the frame is drawn).
    pub fn ui<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
        &mut self,
        change: impl FnOnce(&mut R) + Send + 'static,
    ) {
        self.commands.queue(move |world: &mut World| {
            change(&mut world.resource_mut::<R>());
        });
    }

    pub fn act(&mut self, action: AnyAction) {
        self.outbox.0.push(ClientMsg::Act { action });
    }

    /// Shows the set-up screen of `game` on its defaults, for Ann.
    pub fn set_up(&mut self, game: GameId) {
        match TableSetup::for_game(&self.clients, game, "Ann".into()) {
            Some(chosen) => *self.setup = chosen,
            None => error!("tour: this client has no {}", game.key()),
        }
        self.next.set(Screen::Setup);
    }

    /// Sets up a table of `game` against bots and starts it.
    pub fn start(&mut self, game: GameId, seats: usize, seed: u64) {
        self.settings.lang = Lang::En;
        self.set_up(game);
        self.setup.seats = seats;
        self.setup.seed = seed;
        super::screens::request_start(&mut self.commands);
    }

    /// The set-up form of the game being set up, to change as a player
    /// would.
    pub fn form<F: super::game_setup::SetupForm>(&mut self) -> &mut F {
        self.setup
            .form
            .as_any_mut()
            .downcast_mut()
            .expect("a tour changes its own game's form")
    }
}

pub type Check = fn(&Ctx) -> bool;
pub type Effect = fn(&mut Ctx);

/// One step of a tour.
#[derive(Clone, Copy)]
pub struct Step {
    /// The moment to wait for.
    until: Check,
    /// Whether the seat plays on while waiting.
    play: bool,
    /// What a player does at that moment.
    then: Effect,
    /// Seconds to let the screen settle before the picture.
    settle: f32,
    /// The picture's name; none for a step that only acts.
    shot: Option<&'static str>,
}

pub const fn step(until: Check, then: Effect, settle: f32, shot: Option<&'static str>) -> Step {
    Step {
        until,
        play: false,
        then,
        settle,
        shot,
    }
}

/// A step that plays the seat until its moment.
pub const fn playing(until: Check, then: Effect, settle: f32, shot: Option<&'static str>) -> Step {
    Step {
        until,
        play: true,
        then,
        settle,
        shot,
    }
}

pub fn now(_: &Ctx) -> bool {
    true
}

pub fn nothing(_: &mut Ctx) {}

// Every tour watches its game again after the end (issue 21).

pub fn replay_open(c: &mut Ctx) {
    c.replay.start(&mut c.outbox);
}

pub fn replay_loaded(c: &Ctx) -> bool {
    c.model
        .replay
        .as_ref()
        .is_some_and(|(r, total)| *total > 0 && r.steps.len() >= *total as usize)
}

/// The replay at a step two thirds of the way through.
pub fn replay_middle(c: &mut Ctx) {
    let count = c.model.replay.as_ref().map_or(0, |(r, _)| r.steps.len());
    c.replay.step = count * 2 / 3;
}

pub fn replay_close(c: &mut Ctx) {
    let model = &mut *c.model;
    c.replay.close_and_return(model, &mut c.next);
}

/// Saves the replay as a player would ("Save as a file").
pub fn replay_save(c: &mut Ctx) {
    if let Some((r, _)) = &c.model.replay
        && let Err(e) = super::replay::save(r)
    {
        warn!("tour: the replay was not saved: {e}");
    }
}

/// From the lobby, the replay of the finished game we sat at ("Watch your
/// replay"), by our seat's token.
pub fn past_replay(c: &mut Ctx) {
    let past = c
        .model
        .tables
        .iter()
        .find_map(|t| c.settings.past_seat_at(&c.model, t));
    match past {
        Some(past) => {
            c.replay.start_past(&mut c.outbox, past);
            c.next.set(Screen::Table);
        }
        None => warn!("tour: no finished game of ours in the lobby"),
    }
}

/// The title's "Watch a saved replay".
pub fn saved_replays(c: &mut Ctx) {
    c.next.set(Screen::Title);
    c.picker.ask();
}

pub fn english(c: &mut Ctx) {
    c.settings.lang = Lang::En;
}

pub fn chinese(c: &mut Ctx) {
    c.settings.lang = Lang::Zh;
}

/// Hosts a LAN game, as the title screen's button does.
pub fn host_lan(c: &mut Ctx) {
    c.hosted.0 = host_on_lan(&mut c.listeners).unwrap_or_default();
    c.session.connect(Target::InProcess);
    c.next.set(Screen::Lobby);
}

/// Every game's tour, by game: each game's plugin adds its own
/// ([`add_tour`]).
#[derive(Resource, Default)]
pub struct Tours(Vec<(GameId, &'static [Step])>);

/// Adds a game's tour, as its art is registered: from its own plugin.
pub fn add_tour(app: &mut App, game: GameId, steps: &'static [Step]) {
    app.init_resource::<Tours>();
    app.world_mut()
        .resource_mut::<Tours>()
        .0
        .push((game, steps));
}

/// The tour under way.
#[derive(Resource)]
struct Tour {
    steps: &'static [Step],
    dir: PathBuf,
    suffix: String,
    step: usize,
    /// Seconds before the next thing happens.
    wait: f32,
    /// Seconds left before the tour gives up.
    patience: f32,
    /// The current step's moment came: its picture is next.
    shot_due: bool,
    rng: rand_chacha::ChaCha8Rng,
    /// The last model revision the seat acted on.
    acted_at: u64,
}

fn begin(mut commands: Commands, tours: Res<Tours>) {
    let Ok(dir) = std::env::var("FOODWEB_TOUR") else {
        return;
    };
    // The first game's tour unless another is asked for.
    let asked = std::env::var("FOODWEB_TOUR_GAME").ok();
    let game = asked.as_deref().and_then(GameId::from_key);
    let Some(&(_, steps)) = tours
        .0
        .iter()
        .find(|(g, _)| game.is_none_or(|want| *g == want))
    else {
        error!("tour: no tour for {asked:?}");
        return;
    };
    let _ = std::fs::create_dir_all(&dir);
    commands.insert_resource(Tour {
        steps,
        dir: dir.into(),
        suffix: std::env::var("FOODWEB_TOUR_SUFFIX").unwrap_or_default(),
        step: 0,
        wait: 2.5,
        patience: 600.0,
        shot_due: false,
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(9),
        acted_at: 0,
    });
}

/// The seat plays as the survivor bot would, from its own view only, once
/// per new view.
fn play_my_seat(tour: &mut Tour, c: &mut Ctx) {
    let Some(view) = &c.model.view else { return };
    let to_act = view.seat().to_act();
    if tour.acted_at == c.model.revision || !to_act {
        return;
    }
    let best = foodweb_netcode::games::bot_kinds(view.game())
        .first()
        .copied()
        .unwrap_or("random");
    if let Some(action) = bot_move(best, view, &mut tour.rng) {
        tour.acted_at = c.model.revision;
        tour.wait = 0.3;
        c.act(action);
    }
}

#[allow(clippy::too_many_arguments)]
fn run(
    time: Res<Time<Real>>,
    tour: Option<ResMut<Tour>>,
    screen: Res<State<Screen>>,
    launched: Res<LaunchedAt>,
    mut exit: MessageWriter<AppExit>,
    mut title_seen: Local<bool>,
    mut c: Ctx,
) {
    let Some(mut tour) = tour else { return };
    if *screen.get() == Screen::Loading {
        return;
    }
    if !*title_seen {
        *title_seen = true;
        let secs = launched.0.elapsed().as_secs_f32();
        let _ = std::fs::write(tour.dir.join("startup.txt"), format!("{secs:.2}\n"));
    }
    let dt = time.delta_secs();
    tour.wait -= dt;
    tour.patience -= dt;
    if tour.patience < 0.0 {
        error!("tour: gave up at step {}", tour.step);
        exit.write(AppExit::error());
        return;
    }
    if tour.wait > 0.0 {
        return;
    }
    let Some(step) = tour.steps.get(tour.step).copied() else {
        exit.write(AppExit::Success);
        return;
    };
    if tour.shot_due {
        // The screen has settled: the picture, then the next step.
        if let Some(name) = step.shot {
            let path = tour.dir.join(format!("{name}{}.png", tour.suffix));
            c.commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path));
        }
        tour.shot_due = false;
        tour.step += 1;
        tour.wait = 0.5;
        return;
    }
    if (step.until)(&c) {
        (step.then)(&mut c);
        tour.shot_due = true;
        tour.wait = step.settle;
    } else if step.play {
        play_my_seat(&mut tour, &mut c);
    }
}

/// Moves the pointer to a corner, so no tooltip covers the pictures.
fn park_pointer(mut windows: Query<&mut Window>, tour: Option<Res<Tour>>) {
    if tour.is_none() {
        return;
    }
    for mut window in &mut windows {
        if window.cursor_position() != Some(Vec2::new(2.0, 2.0)) {
            window.set_cursor_position(Some(Vec2::new(2.0, 2.0)));
        }
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Tours>()
        .add_systems(Startup, begin)
        .add_systems(Update, (park_pointer, run).chain())
        // A tour's steps are timed: it draws on and on.
        .add_systems(
            Last,
            crate::client::wake::draw_on
                .run_if(resource_exists::<Tour>)
                .in_set(crate::client::wake::AskToWake),
        );
}
