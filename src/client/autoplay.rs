//! Autoplay: a bot plays this client's seat through the real screens, the
//! way a person would, so a browser test (or one person trying a LAN table
//! alone) can watch whole games go by. Off unless asked for:
//!
//! - in a browser, by the page's address: `?autoplay=host&people=2`,
//!   `?autoplay=join` or `?autoplay=local` (`&seed=N`, `&bot=random`,
//!   `&name=Ann` for the page's player, `&game=wanning` for another game
//!   than Forest Showdown, `&think_ms=4000` for a slower player);
//! - on the desktop, by `FOODWEB_AUTOPLAY=host|join|local` (and
//!   `FOODWEB_PEOPLE`, `FOODWEB_SEED`, `FOODWEB_BOT`, `FOODWEB_GAME`).
//!
//! `local` with `&games=N` (`FOODWEB_GAMES`) plays N games one after
//! another, back to the title after each, and logs the client's resident
//! memory as each ends (`tools/idle-cost.sh` reads it: issue 67, memory
//! that stops growing).
//!
//! `host` opens a Forest Showdown table in the lobby of the server it was
//! connected to (from the title screen, by whoever pressed the button),
//! waits for `people` persons (itself included), fills the other seats with
//! bots and starts. `join` takes an open seat at the first table that has
//! one and says it is ready. `local` starts a game against bots in this
//! client's own server, as Play against bots does. At the table the bot
//! chooses from the seat's view only, like every other bot.

use bevy::prelude::*;
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::{bot_move, my_turn};
use foodweb_netcode::messages::{ClientMsg, SeatKind};
use foodweb_rules::GameId;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::game_setup::{FormAt, GameClients};
use super::screens::{TableSetup, request_start};
use super::wake::Alarm;
use super::{Screen, UserSettings, web};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Host,
    Join,
    Local,
}

#[derive(Resource)]
struct Autoplay {
    part: Part,
    /// The game a `host` or `local` page sets up (`&game=wanning`).
    game: GameId,
    /// Persons the host waits for, itself included.
    people: usize,
    bot: String,
    seed: u64,
    rng: ChaCha8Rng,
    /// Seconds until the next lobby request may go.
    cooldown: f32,
    /// The table revision this seat last acted on, and how long it has
    /// been waiting to act (a person's pause, so the screens can be seen).
    acted_on: Option<u64>,
    thinking: f32,
    /// How long it waits (`&think_ms=`, `THINK_SECS` by default): a
    /// party's pages think as long as people do, so a game lasts.
    think_secs: f32,
    created: bool,
    filled: bool,
    ready_sent: bool,
    local_started: bool,
    /// `&hands=1`: the seat is left to the person at the screen (or a
    /// test's real pointer and key events); autoplay only gets the game
    /// going.
    hands: bool,
    /// `&seats=N`: the table's size for `local` (the game's default
    /// otherwise).
    seats: Option<usize>,
    /// `&quickest=1`: a `local` or `host` table on the set-up's shortest
    /// timings.
    quickest: bool,
    /// `&games=N`: games a `local` page plays one after another, and how
    /// many have ended.
    games: u32,
    ended: u32,
}

/// Seconds a seat waits before it acts: long enough to see the screen.
const THINK_SECS: f32 = 0.6;

fn begin(mut commands: Commands, mut settings: ResMut<UserSettings>, clients: Res<GameClients>) {
    let part = match web::page_param("autoplay").as_deref() {
        Some("host") => Part::Host,
        Some("join") => Part::Join,
        Some("local") => Part::Local,
        Some(other) => {
            warn!("autoplay '{other}' is not host, join or local: left off");
            return;
        }
        None => return,
    };
    let number = |name: &str, default: u64| {
        web::page_param(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let seed = number("seed", 7);
    // The page's name for its player (a browser keeps no settings file;
    // on the desktop the saved name stays as it is).
    if web::IN_BROWSER
        && let Some(name) = web::page_param("name").filter(|n| !n.trim().is_empty())
    {
        settings.name = name.trim().to_string();
    }
    // The game asked for, or the first the client lists.
    let game = web::page_param("game")
        .and_then(|g| GameId::from_key(&g))
        .filter(|g| g.playable())
        .or_else(|| clients.games().next())
        .unwrap_or(GameId::ALL[0]);
    let best = foodweb_netcode::games::bot_kinds(game)
        .first()
        .copied()
        .unwrap_or("random");
    info!("autoplay: {part:?} {}", game.key());
    commands.insert_resource(Autoplay {
        part,
        game,
        people: number("people", 1).max(1) as usize,
        bot: web::page_param("bot").unwrap_or_else(|| best.into()),
        seed,
        rng: ChaCha8Rng::seed_from_u64(seed),
        cooldown: 0.0,
        acted_on: None,
        thinking: 0.0,
        think_secs: web::page_param("think_ms")
            .and_then(|v| v.parse::<u32>().ok())
            .map_or(THINK_SECS, |ms| ms as f32 / 1000.0),
        created: false,
        filled: false,
        ready_sent: false,
        local_started: false,
        hands: web::page_param("hands").is_some_and(|v| v == "1"),
        seats: web::page_param("seats").and_then(|v| v.parse().ok()),
        quickest: web::page_param("quickest").is_some_and(|v| v == "1"),
        games: number("games", 1).max(1) as u32,
        ended: 0,
    });
}

/// `local`: from the title screen, a Forest Showdown game against bots.
fn start_local(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut on_title: Local<f32>,
    mut auto: ResMut<Autoplay>,
    mut setup: ResMut<TableSetup>,
    clients: Res<GameClients>,
    mut next: ResMut<NextState<Screen>>,
    alarm: Res<Alarm>,
) {
    if auto.part != Part::Local || auto.local_started {
        return;
    }
    // A moment on the title screen first, as a person would take.
    *on_title += time.delta_secs();
    if *on_title < 1.5 {
        alarm.after_secs(1.5 - *on_title);
        return;
    }
    let Some(chosen) = TableSetup::for_game(&clients, auto.game, "Autoplay".into()) else {
        error!("autoplay: this client has no {}", auto.game.key());
        auto.local_started = true;
        return;
    };
    *setup = chosen;
    setup.seed = auto.seed;
    if let Some(seats) = auto.seats
        && auto.game.seats().contains(&seats)
    {
        setup.seats = seats;
    }
    if auto.quickest {
        // The least time the set-up screen offers.
        setup.form.quickest();
    }
    next.set(Screen::Setup);
    request_start(&mut commands);
    auto.local_started = true;
    *on_title = 0.0;
}

/// `host` and `join`: find a place in the lobby and get the game going.
fn in_lobby(
    time: Res<Time<Real>>,
    mut auto: ResMut<Autoplay>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
    clients: Res<GameClients>,
    alarm: Res<Alarm>,
) {
    auto.cooldown -= time.delta_secs();
    if auto.cooldown > 0.0 {
        // Looked at again once the wait is over (the app sleeps).
        alarm.after_secs(auto.cooldown);
        return;
    }
    if model.server.is_none() {
        return;
    }
    // What the lobby says next wakes the app: asked again then, or a
    // moment after a request.
    let sent = outbox.0.len();
    in_lobby_now(&mut auto, &model, &mut outbox, &clients);
    if outbox.0.len() > sent {
        auto.cooldown = auto.cooldown.max(0.4);
        alarm.after_secs(auto.cooldown);
    }
}

fn in_lobby_now(
    auto: &mut Autoplay,
    model: &ClientModel,
    outbox: &mut Outbox,
    clients: &GameClients,
) {
    let Some(_) = model.place else {
        match auto.part {
            Part::Host if !auto.created => {
                // The set-up screen's defaults (a quick Forest round), on
                // its shortest timings with `&quickest=1`.
                let Some(mut form) = clients.form(auto.game, FormAt::Setup) else {
                    return;
                };
                if auto.quickest {
                    form.quickest();
                }
                let mut settings = form.settings();
                *settings.grace_secs_mut() = foodweb_rules::table::USUAL_GRACE_SECS;
                outbox.0.push(ClientMsg::CreateTable {
                    settings,
                    seats: *auto.game.seats().start() as u8,
                    host_seat: false,
                    seed: Some(auto.seed),
                    open_replays: false,
                });
                auto.created = true;
            }
            // The hall sends its tables on welcome and on each change.
            Part::Join => {
                if let Some(t) = model.tables.iter().find(|t| !t.started && t.open_seats > 0) {
                    outbox.0.push(ClientMsg::TakeSeat {
                        table: t.id,
                        seat: None,
                    });
                    // Time for the seat to be granted before asking again.
                    auto.cooldown = 3.0;
                }
            }
            _ => {}
        }
        return;
    };
    let (Some(lobby), Some(me)) = (model.lobby.as_ref(), model.my_seat()) else {
        return;
    };
    if lobby.started {
        return;
    }
    if model.is_owner() {
        if lobby.persons() >= auto.people && !auto.filled {
            outbox.0.push(ClientMsg::FillWithBots {
                kind: auto.bot.clone(),
            });
            auto.filled = true;
        }
        if auto.filled && lobby.ready_to_start(me) {
            outbox.0.push(ClientMsg::Start);
            // Time for the start to arrive before asking again.
            auto.cooldown = 3.0;
        }
    } else if !auto.ready_sent
        && matches!(
            lobby.seats[me.index()].kind,
            SeatKind::Person { ready: false, .. }
        )
    {
        outbox.0.push(ClientMsg::SetReady { ready: true });
        auto.ready_sent = true;
    }
}

/// At the table: when the seat is waited on, the bot chooses, after a
/// person's pause.
fn at_table(
    time: Res<Time<Real>>,
    mut auto: ResMut<Autoplay>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
    alarm: Res<Alarm>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(view) = model.view.as_ref() else {
        return;
    };
    if foodweb_netcode::games::view_over(view) {
        game_over(&mut auto, &mut next);
        return;
    }
    if auto.hands {
        return;
    }
    if !my_turn(view) || auto.acted_on == Some(model.revision) {
        auto.thinking = 0.0;
        return;
    }
    auto.thinking += time.delta_secs();
    if auto.thinking < auto.think_secs {
        alarm.after_secs(auto.think_secs - auto.thinking);
        return;
    }
    let Autoplay { bot, rng, .. } = &mut *auto;
    // A page that joined someone's table plays its game's best bot unless
    // told one of that game's kinds (`&bot=`).
    let bot = foodweb_netcode::games::bot_kind_for(view.game(), bot);
    if let Some(action) = bot_move(bot, view, rng) {
        outbox.0.push(ClientMsg::Act { action });
    }
    auto.acted_on = Some(model.revision);
}

/// A `local` game has ended: the next of `&games=N` from the title, with
/// what the client holds now in the log.
fn game_over(auto: &mut Autoplay, next: &mut NextState<Screen>) {
    if auto.part != Part::Local || !auto.local_started || auto.ended >= auto.games {
        return;
    }
    auto.ended += 1;
    info!(
        "autoplay: game {} of {} over; resident memory {} KiB",
        auto.ended,
        auto.games,
        foodweb_netcode::bench::rss_kib()
    );
    if auto.ended < auto.games {
        auto.local_started = false;
        auto.seed += 1;
        next.set(Screen::Title);
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, begin).add_systems(
        Update,
        (
            start_local.run_if(in_state(Screen::Title)),
            in_lobby.run_if(in_state(Screen::Lobby)),
            at_table.run_if(in_state(Screen::Table)),
        )
            .run_if(resource_exists::<Autoplay>),
    );
}
