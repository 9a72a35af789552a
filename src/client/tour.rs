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
//! `FOODWEB_TOUR_GAME` chooses the tour: Forest Showdown's by default
//! (title, picker, set-up, table, a showdown, a challenge, the end, a LAN
//! lobby, the join screen), `gene` or `crueler`. `FOODWEB_TOUR_SUFFIX` is
//! added to each picture's name; `startup.txt` gets the seconds from
//! launch to the title screen. `tools/screenshots.sh` runs every tour at
//! three window sizes.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::{AnyAction, AnySettings, AnyView, bot_move};
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::server::Listeners;
use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::crueler::{Beast, CruelerAction, CruelerPhase};
use foodweb_rules::forest::ForestGame;
use foodweb_rules::forest::{ForestAction, ForestPhase, ForestTiming, deck};
use foodweb_rules::gene::GeneGame;
use foodweb_rules::gene::{GeneAction, GenePhase, GeneTiming, Genes, ItemKind, RoomId, map};
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::WanningGame;
use foodweb_rules::{GameId, Lang};
use rand::SeedableRng;

use super::games::forest::panels::TableUi;
use super::games::gene::panels::GeneUi;
use super::games::wanning::panels::{Side as WanningSide, WanningUi};
use super::net::{SeatSide, Session, Target, host_on_lan};
use super::screens::{HostedAt, TableSetup};
use super::{LaunchedAt, Screen, UserSettings};

/// Everything a step may look at or change.
#[derive(SystemParam)]
pub struct Ctx<'w, 's> {
    commands: Commands<'w, 's>,
    model: ResMut<'w, ClientModel>,
    outbox: ResMut<'w, Outbox>,
    settings: ResMut<'w, UserSettings>,
    setup: ResMut<'w, TableSetup>,
    next: ResMut<'w, NextState<Screen>>,
    forest_ui: ResMut<'w, TableUi>,
    gene_ui: ResMut<'w, GeneUi>,
    wanning_ui: ResMut<'w, WanningUi>,
    replay: ResMut<'w, super::replay::Replaying>,
    picker: ResMut<'w, super::replay::ReplayPicker>,
    listeners: ResMut<'w, Listeners>,
    hosted: ResMut<'w, HostedAt>,
    session: ResMut<'w, Session>,
}

impl Ctx<'_, '_> {
    fn act(&mut self, action: AnyAction) {
        self.outbox.0.push(ClientMsg::Act { action });
    }

    /// Sets up a table of `game` against bots and starts it.
    fn start(&mut self, game: GameId, seats: usize, seed: u64) {
        self.settings.lang = Lang::En;
        *self.setup = TableSetup::for_game(game, "Ann".into());
        self.setup.seats = seats;
        self.setup.seed = seed;
        self.next.set(Screen::Setup);
        super::screens::request_start(&mut self.commands);
    }
}

type Check = fn(&Ctx) -> bool;
type Effect = fn(&mut Ctx);

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

const fn step(until: Check, then: Effect, settle: f32, shot: Option<&'static str>) -> Step {
    Step {
        until,
        play: false,
        then,
        settle,
        shot,
    }
}

/// A step that plays the seat until its moment.
const fn playing(until: Check, then: Effect, settle: f32, shot: Option<&'static str>) -> Step {
    Step {
        until,
        play: true,
        then,
        settle,
        shot,
    }
}

fn now(_: &Ctx) -> bool {
    true
}

fn nothing(_: &mut Ctx) {}

// Every tour watches its game again after the end (issue 21).

fn replay_open(c: &mut Ctx) {
    c.replay.start(&mut c.outbox);
}

fn replay_loaded(c: &Ctx) -> bool {
    c.model
        .replay
        .as_ref()
        .is_some_and(|(r, total)| *total > 0 && r.steps.len() >= *total as usize)
}

/// The replay at a step two thirds of the way through.
fn replay_middle(c: &mut Ctx) {
    let count = c.model.replay.as_ref().map_or(0, |(r, _)| r.steps.len());
    c.replay.step = count * 2 / 3;
}

fn replay_close(c: &mut Ctx) {
    let model = &mut *c.model;
    c.replay.close(model);
}

/// Saves the replay as a player would ("Save as a file").
fn replay_save(c: &mut Ctx) {
    if let Some((r, _)) = &c.model.replay
        && let Err(e) = super::replay::save(r)
    {
        warn!("tour: the replay was not saved: {e}");
    }
}

/// From the lobby, the replay of the finished game we sat at ("Watch your
/// replay"), by our seat's token.
fn past_replay(c: &mut Ctx) {
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
fn saved_replays(c: &mut Ctx) {
    c.next.set(Screen::Title);
    c.picker.ask();
}

fn english(c: &mut Ctx) {
    c.settings.lang = Lang::En;
}

fn chinese(c: &mut Ctx) {
    c.settings.lang = Lang::Zh;
}

// Forest Showdown: the screens, then a short game, then a LAN lobby.

fn forest_setup(c: &mut Ctx) {
    *c.setup = TableSetup::for_game(GameId::Forest, "Ann".into());
    c.setup.seed = 7;
    // A short game, so the tour reaches the score screen.
    c.setup.round_secs = 45;
    c.setup.turn_secs = 15;
    c.setup.showdown_secs = 10;
    c.next.set(Screen::Setup);
}

fn forest_start(c: &mut Ctx) {
    c.setup.your_name = "Ann".into();
    super::screens::request_start(&mut c.commands);
}

fn forest_table_open(c: &Ctx) -> bool {
    c.model.view_of::<ForestGame>().is_some()
}

/// Asks the next seat for a showdown and lays down the first card; the bot
/// answers, and the reveal is on screen for the picture.
fn forest_showdown(c: &mut Ctx) {
    let Some(card) = c
        .model
        .view_of::<ForestGame>()
        .and_then(|v| v.hand.first().copied())
    else {
        return;
    };
    c.act(AnyAction::Forest(ForestAction::AskShowdown {
        target: SeatId(1),
    }));
    c.act(AnyAction::Forest(ForestAction::PlayCard { card }));
}

fn forest_my_turn(c: &Ctx) -> bool {
    c.model
        .view_of::<ForestGame>()
        .is_some_and(|v| v.me == Some(v.active) && v.phase == ForestPhase::Turn && !v.opening_turn)
}

/// Picks a challenge in the table screen (as a player would: a card the
/// table has seen, and a taking card that eats it), so the picture shows
/// the challenge filled in.
fn forest_challenge(c: &mut Ctx) {
    let Some(view) = c.model.view_of::<ForestGame>() else {
        return;
    };
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
        c.forest_ui.target = Some(target);
        c.forest_ui.named = Some(named);
        c.forest_ui.selected = Some(with);
    }
}

fn forest_over(c: &Ctx) -> bool {
    c.model
        .view_of::<ForestGame>()
        .is_some_and(|v| v.result.is_some())
}

/// Hosts a LAN game, as the title screen's button does.
fn host_lan(c: &mut Ctx) {
    c.hosted.0 = host_on_lan(&mut c.listeners).unwrap_or_default();
    c.session.connect(Target::InProcess);
    c.next.set(Screen::Lobby);
}

fn lan_table(c: &mut Ctx) {
    c.outbox.0.push(ClientMsg::CreateTable {
        settings: AnySettings::Forest(ForestTiming::Quick.settings()),
        seats: 4,
        host_seat: true,
        seed: None,
        open_replays: false,
    });
    c.outbox.0.push(ClientMsg::SetBot {
        seat: SeatId(2),
        kind: Some("memory".into()),
        name: Some("机器人 3".into()),
    });
}

const FOREST: &[Step] = &[
    step(now, english, 1.0, Some("title-en")),
    step(now, chinese, 1.5, Some("title-zh")),
    step(now, |c| c.next.set(Screen::Picker), 1.5, Some("picker")),
    step(now, forest_setup, 1.5, Some("setup")),
    step(now, forest_start, 6.0, None),
    step(forest_table_open, nothing, 0.5, Some("table")),
    step(now, forest_showdown, 4.0, Some("showdown")),
    step(forest_my_turn, forest_challenge, 0.5, Some("challenge")),
    step(now, english, 1.5, Some("table-en")),
    step(now, chinese, 0.1, None),
    step(forest_over, nothing, 2.0, Some("game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("replay")),
    step(now, replay_save, 0.5, None),
    step(now, replay_close, 0.5, None),
    step(now, host_lan, 2.5, Some("lobby")),
    step(now, past_replay, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("past-replay")),
    step(now, replay_close, 1.5, Some("lobby-after-replay")),
    step(now, lan_table, 1.5, Some("lobby-table")),
    step(now, |c| c.next.set(Screen::Join), 3.0, Some("join")),
    step(now, saved_replays, 1.5, Some("saved-replays")),
];

// Gene Survival: a game against five bots.

fn gene_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::gene::GeneView> {
    c.model.view_of::<GeneGame>()
}

fn gene_start(c: &mut Ctx) {
    c.start(GameId::Gene, 6, 11);
    c.setup.gene_timing = GeneTiming::Untimed;
}

fn gene_setting_up(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Setup)
}

/// The picture shows the gene editor and the chosen room.
fn gene_spawn(c: &mut Ctx) {
    c.gene_ui.spawn = map().by_key("e2-office");
}

fn gene_prepare(c: &mut Ctx) {
    let spawn = c
        .gene_ui
        .spawn
        .or(map().by_key("e2-office"))
        .unwrap_or(RoomId(0));
    let genes = Genes {
        strength: 4,
        speed: 3,
        carry: 3,
    };
    c.act(AnyAction::Gene(GeneAction::Prepare { genes, spawn }));
}

fn gene_free(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Free)
}

fn gene_trade(c: &mut Ctx) {
    let trade = &mut c.gene_ui.trade;
    trade.open = true;
    trade.to = Some(SeatId(2));
    trade.want = vec![ItemKind::Water, ItemKind::Food];
    trade.swap_order = true;
}

fn gene_ready(c: &mut Ctx) {
    c.gene_ui.trade.open = false;
    c.act(AnyAction::Gene(GeneAction::Ready));
}

fn gene_to_move(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Action && v.to_act && !v.moved)
}

fn gene_settling(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.round >= 2 && !v.settlement.is_empty())
}

fn gene_over(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.result.is_some())
}

const GENE: &[Step] = &[
    step(now, gene_start, 4.0, None),
    step(gene_setting_up, gene_spawn, 1.0, Some("gene-setup")),
    step(now, gene_prepare, 1.0, None),
    step(gene_free, gene_trade, 1.0, Some("gene-trade")),
    step(now, gene_ready, 0.5, None),
    step(gene_to_move, nothing, 0.5, Some("gene-action")),
    // A few lines into the settlement's playback.
    playing(gene_settling, nothing, 5.0, Some("gene-settlement")),
    step(now, chinese, 1.0, None),
    playing(gene_to_move, nothing, 0.5, Some("gene-zh")),
    playing(gene_over, nothing, 20.0, Some("gene-game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("gene-replay")),
    step(now, replay_close, 0.5, None),
];

// Crueler World: a game against seven bots; the seat preys when first
// asked, to show a duel.

fn crueler_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::crueler::CruelerView> {
    c.model.view_of::<CruelerGame>()
}

fn crueler_interlude(c: &Ctx) -> bool {
    crueler_view(c).is_some_and(|v| v.phase == CruelerPhase::Interlude)
}

fn crueler_ready(c: &mut Ctx) {
    c.act(AnyAction::Crueler(CruelerAction::Ready));
}

fn crueler_asked(c: &Ctx) -> bool {
    crueler_view(c)
        .is_some_and(|v| v.phase == CruelerPhase::Predation && v.to_act && !v.targets.is_empty())
}

fn crueler_prey(c: &mut Ctx) {
    if let Some(&target) = crueler_view(c).and_then(|v| v.targets.first()) {
        c.act(AnyAction::Crueler(CruelerAction::Prey { target }));
    }
}

fn crueler_duel_first(c: &Ctx) -> bool {
    crueler_view(c)
        .and_then(|v| v.duel.as_ref())
        .is_some_and(|d| !d.chosen && d.throws.is_empty())
}

fn crueler_choose(c: &mut Ctx) {
    c.act(AnyAction::Crueler(CruelerAction::Choose {
        beast: Beast::Tiger,
    }));
}

fn crueler_duel_thrown(c: &Ctx) -> bool {
    crueler_view(c)
        .and_then(|v| v.duel.as_ref())
        .is_some_and(|d| !d.chosen && !d.throws.is_empty())
}

fn crueler_over(c: &Ctx) -> bool {
    crueler_view(c).is_some_and(|v| v.result.is_some())
}

const CRUELER: &[Step] = &[
    step(now, |c| c.start(GameId::Crueler, 8, 21), 4.0, None),
    step(crueler_interlude, nothing, 1.0, Some("crueler-table")),
    step(now, crueler_ready, 0.5, None),
    playing(crueler_asked, nothing, 1.0, Some("crueler-asked")),
    step(now, crueler_prey, 1.0, None),
    step(crueler_duel_first, crueler_choose, 1.5, None),
    playing(crueler_duel_thrown, nothing, 0.5, Some("crueler-duel")),
    step(now, chinese, 1.0, None),
    playing(crueler_interlude, nothing, 1.0, Some("crueler-zh")),
    playing(crueler_over, nothing, 2.0, Some("crueler-game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("crueler-replay")),
    step(now, replay_close, 0.5, None),
];

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

fn begin(mut commands: Commands) {
    let Ok(dir) = std::env::var("FOODWEB_TOUR") else {
        return;
    };
    let steps = match std::env::var("FOODWEB_TOUR_GAME").as_deref() {
        Ok("gene") => GENE,
        Ok("crueler") => CRUELER,
        Ok("wanning") => WANNING,
        _ => FOREST,
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

// Wanning Beast Chess: a game against five bots, through the set-up, a
// round's orders, a settlement played out, a private conversation and the
// end.

fn wanning_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::wanning::WanningView> {
    c.model.view_of::<WanningGame>()
}

/// A deal in which the tour's seat is a level 3 (a bear or a sabre-tooth
/// lives long enough to show a settlement and a conversation).
fn wanning_seed() -> u64 {
    use foodweb_rules::table::{Table, TableConfig};
    use foodweb_rules::wanning::WanningGame;
    (1..500)
        .find(|&seed| {
            Table::<WanningGame>::new(TableConfig::new(seed, 6))
                .is_ok_and(|t| t.view(SeatId(0)).level == Some(3))
        })
        .unwrap_or(5)
}

/// The set-up screen with Wanning's house rules, before the table starts.
fn wanning_setup(c: &mut Ctx) {
    c.settings.lang = Lang::En;
    *c.setup = TableSetup::for_game(GameId::Wanning, "Ann".into());
    c.setup.seats = 6;
    c.next.set(Screen::Setup);
}

fn wanning_start(c: &mut Ctx) {
    c.start(GameId::Wanning, 6, wanning_seed());
    // No clock: the pictures wait for nobody.
    c.setup.wanning.setup_secs = 0;
    c.setup.wanning.orders_secs = 0;
}

fn wanning_in(phase: foodweb_rules::wanning::WanningPhase, c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.phase == phase && v.to_act)
}

fn wanning_ban_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Ban, c)
}

fn wanning_choose_bans(c: &mut Ctx) {
    use foodweb_rules::wanning::InstinctId;
    c.wanning_ui.bans = vec![InstinctId::Balance, InstinctId::Diva];
}

fn wanning_send_bans(c: &mut Ctx) {
    let instincts = c.wanning_ui.bans.clone();
    c.act(AnyAction::Wanning(
        foodweb_rules::wanning::WanningAction::Ban { instincts },
    ));
}

fn wanning_pick_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Pick, c)
}

/// The first instinct not banned that is used in the orders, to show one.
fn wanning_choose_pick(c: &mut Ctx) {
    use foodweb_rules::wanning::InstinctId;
    let banned = wanning_view(c)
        .map(|v| v.banned.clone())
        .unwrap_or_default();
    c.wanning_ui.pick = [InstinctId::Bluff, InstinctId::Alliance, InstinctId::Sturdy]
        .into_iter()
        .find(|i| !banned.contains(i));
}

fn wanning_send_pick(c: &mut Ctx) {
    if let Some(instinct) = c.wanning_ui.pick {
        c.act(AnyAction::Wanning(
            foodweb_rules::wanning::WanningAction::Pick { instinct },
        ));
    }
}

fn wanning_peek_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Peek, c)
}

fn wanning_choose_peek(c: &mut Ctx) {
    c.wanning_ui.draft.peek = Some(SeatId(2));
}

fn wanning_send_peek(c: &mut Ctx) {
    c.act(AnyAction::Wanning(
        foodweb_rules::wanning::WanningAction::Peek {
            target: Some(SeatId(2)),
        },
    ));
}

fn wanning_orders_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Orders, c)
}

fn wanning_choose_target(c: &mut Ctx) {
    c.wanning_ui.draft.target = Some(SeatId(3));
}

/// A settlement to play out: round 2's orders (the tour's seat alive),
/// or the end.
fn wanning_settled(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| {
        (v.settled.is_some() && v.phase == foodweb_rules::wanning::WanningPhase::Orders)
            || v.result.is_some()
    })
}

fn wanning_talk(c: &mut Ctx) {
    let to = wanning_view(c)
        .filter(|v| v.result.is_none())
        .and_then(|v| v.others_living().first().copied());
    if let Some(to) = to {
        c.act(AnyAction::Wanning(
            foodweb_rules::wanning::WanningAction::Say {
                to,
                text: "I attacked nobody of yours. 我沒有攻擊你的同伴。".into(),
            },
        ));
        c.wanning_ui.side = WanningSide::Talk;
        c.wanning_ui.talk_with = Some(to);
        // On a phone the talk is the side tab.
        c.wanning_ui.tab = super::widgets::TableTab::Side;
    }
}

fn wanning_notebook(c: &mut Ctx) {
    c.wanning_ui.side = WanningSide::Notebook;
}

fn wanning_back_to_table(c: &mut Ctx) {
    c.settings.lang = Lang::En;
    c.wanning_ui.tab = super::widgets::TableTab::Table;
}

fn wanning_over(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.result.is_some())
}

/// A LAN table of Wanning Beast Chess with a host seat, its other seats
/// bots.
fn wanning_lan_table(c: &mut Ctx) {
    let settings = foodweb_rules::wanning::WanningSettings {
        setup_secs: 0,
        orders_secs: 0,
        ..Default::default()
    };
    c.outbox.0.push(ClientMsg::CreateTable {
        settings: AnySettings::Wanning(settings),
        seats: 6,
        host_seat: true,
        seed: Some(wanning_seed()),
        open_replays: false,
    });
}

fn wanning_host_code(c: &Ctx) -> bool {
    c.model.host_code.is_some() && c.model.lobby.is_some()
}

/// The owner moves to the host seat, as the lobby's button does.
fn wanning_sit_as_host(c: &mut Ctx) {
    if let (Some((table, code)), Some(lobby)) = (c.model.host_code.clone(), &c.model.lobby)
        && lobby.id == table
    {
        c.outbox.0.push(ClientMsg::TakeHostSeat { table, code });
    }
}

fn wanning_hosting(c: &Ctx) -> bool {
    matches!(
        c.model.place,
        Some((_, foodweb_netcode::messages::Role::Host))
    ) && c.model.lobby.as_ref().is_some_and(|l| l.host_runs)
}

fn wanning_fill_and_start(c: &mut Ctx) {
    c.outbox.0.push(ClientMsg::FillWithBots {
        kind: "reasoning".into(),
    });
    c.outbox.0.push(ClientMsg::Start);
}

fn wanning_host_round(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.host.is_some() && (v.round >= 2 || v.result.is_some()))
}

const WANNING: &[Step] = &[
    step(now, wanning_setup, 1.5, Some("wanning-setup")),
    step(now, chinese, 1.0, Some("wanning-setup-zh")),
    step(now, wanning_start, 4.0, None),
    step(
        wanning_ban_open,
        wanning_choose_bans,
        1.5,
        Some("wanning-ban"),
    ),
    step(now, chinese, 1.0, Some("wanning-ban-zh")),
    step(now, english, 0.1, None),
    step(now, wanning_send_bans, 0.5, None),
    step(
        wanning_pick_open,
        wanning_choose_pick,
        1.0,
        Some("wanning-pick"),
    ),
    step(now, wanning_send_pick, 0.5, None),
    step(
        wanning_peek_open,
        wanning_choose_peek,
        1.0,
        Some("wanning-peek"),
    ),
    step(now, wanning_send_peek, 0.5, None),
    step(
        wanning_orders_open,
        wanning_choose_target,
        1.0,
        Some("wanning-orders"),
    ),
    playing(wanning_settled, nothing, 3.0, Some("wanning-settlement")),
    step(now, wanning_talk, 1.5, Some("wanning-talk")),
    step(now, chinese, 1.5, Some("wanning-zh")),
    step(now, wanning_notebook, 1.0, Some("wanning-notebook-zh")),
    step(now, wanning_back_to_table, 0.1, None),
    playing(wanning_over, nothing, 3.0, Some("wanning-game-over")),
    step(now, chinese, 1.0, Some("wanning-game-over-zh")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("wanning-replay-zh")),
    step(now, replay_close, 0.5, None),
    step(now, english, 0.1, None),
    step(now, host_lan, 2.5, None),
    step(now, wanning_lan_table, 1.0, None),
    step(wanning_host_code, nothing, 1.0, Some("wanning-lobby")),
    step(now, wanning_sit_as_host, 1.0, None),
    step(wanning_hosting, nothing, 1.0, Some("wanning-lobby-host")),
    step(now, wanning_fill_and_start, 3.0, None),
    step(wanning_host_round, nothing, 1.5, Some("wanning-host")),
    step(now, chinese, 1.0, Some("wanning-host-zh")),
];

/// The seat plays as the survivor bot would, from its own view only, once
/// per new view.
fn play_my_seat(tour: &mut Tour, c: &mut Ctx) {
    let Some(view) = &c.model.view else { return };
    let to_act = match view {
        AnyView::Gene(v) => v.to_act,
        AnyView::Crueler(v) => v.to_act,
        AnyView::Forest(v) => v.to_act,
        AnyView::Wanning(v) => v.to_act,
    };
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
    app.add_systems(Startup, begin)
        .add_systems(Update, (park_pointer, run).chain());
}
