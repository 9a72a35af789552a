//! A client with no window: it joins through the lobby like a person
//! would and lets a bot choose its seat's moves from the view it was sent.
//! `foodweb client` runs it; the LAN tests start several of them. It can
//! record every message it received, measure action-to-view latency, and
//! send a stream of illegal actions to test the server's judgement.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use foodweb_rules::forest::{CardId, ForestAction};
use foodweb_rules::table::{GameResult, SeatId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{ClientModel, Inbox, NetClientPlugin, Outbox, PlayerName, Session, Target};
use crate::games::{AnyAction, AnySettings, AnyView, bot_move, my_turn, view_over};
use crate::messages::{ClientMsg, LobbyState, Role, SeatKind, ServerMsg, TableId};

/// How a headless client takes part.
#[derive(Clone, Debug)]
pub enum Part {
    /// Opens a table, waits until `people` persons (itself included) sit
    /// at it, fills the other seats with `bots` and starts.
    Create {
        settings: AnySettings,
        seats: u8,
        people: usize,
        bots: String,
        seed: Option<u64>,
        host_seat: bool,
    },
    /// Takes an open seat at the given table, or at the first table that
    /// has one.
    Join { table: Option<TableId> },
    /// Takes the open host seat of the first table that has one, with the
    /// code its owner was shown.
    Host { code: String },
    /// Watches the first table.
    Watch,
    /// Opens the game's guided lesson and sits in it (the robustness
    /// suite's guests that hold lessons).
    Learn { game: foodweb_rules::GameId },
}

#[derive(Resource, Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub target: Target,
    pub part: Part,
    /// The bot kind that chooses this seat's moves.
    pub play: String,
    /// Illegal actions to send in all, a few every frame.
    pub chaos: u32,
    /// At a Wanning table: say one line to every other living player each
    /// round once talk is open (「任意兩名玩家可以自由交流」), so a test
    /// can follow private talk over the wire.
    pub talk: bool,
    /// Where to write every received message, one JSON object a line.
    pub record: Option<PathBuf>,
    /// Where to write the summary (JSON) at the end.
    pub summary: Option<PathBuf>,
    /// Gives up after this many seconds.
    pub timeout_secs: f64,
    pub seed: u64,
    /// Print each connect token the server issues (`token <hex>`).
    pub print_token: bool,
    /// The pin the server's key must have (`--server-key`).
    pub pin: Option<crate::seal::Pin>,
    /// Forged fragment packets to send once connected (each claims 2^40
    /// fragments), as a hostile guest with a real token would.
    pub forge_fragments: u32,
    /// Games to play again (`PlayAgain`) after the first, each at the
    /// table that follows the last.
    pub again: u32,
    /// The local address to connect from (UDP; a test's guest at
    /// 127.0.0.N).
    pub source: Option<std::net::IpAddr>,
    /// At a Wanning table, lines of talk to send one player as fast as
    /// the server takes them once talk is open (a hostile guest's flood).
    pub flood_talk: u32,
    /// Updates a second at least (it also updates whenever a message
    /// comes): 120 for a player; a guest that only holds a place can idle
    /// at a few, so a test machine holds hundreds.
    pub hz: f64,
}

/// What the client did and saw, written as its summary.
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub name: String,
    pub table: Option<TableId>,
    pub seat: Option<SeatId>,
    pub result: Option<GameResult>,
    pub finished: bool,
    pub error: Option<String>,
    pub acts_sent: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub chaos_sent: u64,
    pub forged_sent: u64,
    /// Lines of private talk sent (`Plan::talk`).
    pub said: u64,
    /// Milliseconds from sending an action to receiving the view it changed.
    pub latencies_ms: Vec<f64>,
    pub latency_p50_ms: Option<f64>,
    pub latency_p99_ms: Option<f64>,
    pub messages_received: u64,
    /// Payload bytes received (messages as encoded on the wire, before
    /// lightyear's packet headers and netcode's encryption).
    pub bytes_received: u64,
    pub connections: u32,
    pub token: Option<String>,
    /// The code that takes the host seat of the table this client opened.
    pub host_code: Option<String>,
    /// Every table whose game this client saw to its end, in order
    /// (`Plan::again`).
    pub played: Vec<TableId>,
}

impl Progress {
    /// A table or lesson asked on a connection lost before its answer
    /// came (the server drops an address's newest handshakes past its
    /// bound) is asked again on `connection`.
    fn on_connection(&mut self, connection: u32) {
        if self.asked_on != connection {
            self.asked_on = connection;
            self.created = false;
        }
    }
}

#[derive(Default)]
struct Progress {
    asked_at: f64,
    created: bool,
    /// The connection (`Session::connections`) a table or lesson was
    /// last asked on.
    asked_on: u32,
    filled: bool,
    ready_sent: bool,
    acted_revision: Option<u64>,
    /// The last Wanning round this client talked in.
    talked_round: Option<u8>,
    pending: Option<(u64, Instant)>,
    printed_token: Option<Vec<u8>>,
    /// When the lobby first showed the game's result.
    result_seen_at: Option<f64>,
    /// The table "Play again" was asked at, and when.
    again_from: Option<(TableId, f64)>,
}

/// How long a seated client waits, after the lobby shows the result, for
/// its seat's last view (sent in the same update, but possibly in a later
/// packet).
const LAST_VIEW_WAIT_SECS: f64 = 2.0;

/// How long a client that asked to play again waits for its next table.
const AGAIN_WAIT_SECS: f64 = 10.0;

struct Runner {
    started: Instant,
    rng: ChaCha8Rng,
    record: Option<std::fs::File>,
}

pub fn headless_app(plan: Plan) -> App {
    let (mut app, tick) = crate::headless_app(plan.hz);
    app.add_plugins(lightyear::prelude::client::ClientPlugins {
        tick_duration: tick,
    });
    app.add_plugins(crate::protocol::ProtocolPlugin);
    app.insert_resource(PlayerName(plan.name.clone()));
    app.add_plugins(NetClientPlugin);
    // `foodweb client` opens it before this; a failure here is reported
    // and the client plays on without a record.
    let record = plan
        .record
        .as_ref()
        .and_then(|p| match std::fs::File::create(p) {
            Ok(file) => Some(file),
            Err(e) => {
                eprintln!("foodweb client: cannot write {}: {e}", p.display());
                None
            }
        });
    app.world_mut().insert_non_send(Runner {
        started: Instant::now(),
        rng: ChaCha8Rng::seed_from_u64(plan.seed),
        record,
    });
    let mut session = app.world_mut().resource_mut::<Session>();
    session.source = plan.source;
    session.connect_pinned(plan.target.clone(), plan.pin);
    app.insert_resource(Summary {
        name: plan.name.clone(),
        ..Default::default()
    });
    app.insert_resource(plan);
    app.add_systems(Update, (drive.after(super::receive), forge_fragments));
    app
}

#[allow(clippy::too_many_arguments)]
fn drive(
    plan: Res<Plan>,
    session: Res<Session>,
    model: Res<ClientModel>,
    inbox: Res<Inbox>,
    mut outbox: ResMut<Outbox>,
    mut summary: ResMut<Summary>,
    mut runner: NonSendMut<Runner>,
    mut progress: Local<Progress>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = runner.started.elapsed().as_secs_f64();
    note_inbox(&inbox, &mut summary, &mut runner, &mut progress, now);
    summary.connections = session.connections;
    if plan.print_token
        && let Some(token) = &session.last_token
        && progress.printed_token.as_ref() != Some(token)
    {
        println!("token {}", crate::tokens::to_hex(token));
        progress.printed_token = Some(token.clone());
    }
    summary.accepted = model.accepted;
    summary.rejected = model.rejected;
    summary.token = model.token.clone();
    if let Some((table, code)) = &model.host_code
        && summary.host_code.as_ref() != Some(code)
    {
        println!("host code of table {table}: {code}");
        summary.host_code = Some(code.clone());
    }
    if let Some((table, role)) = model.place {
        summary.table = Some(table);
        if let Role::Player(seat) = role {
            summary.seat = Some(seat);
        }
    }
    let finish = |summary: &mut Summary, exit: &mut MessageWriter<AppExit>, error| {
        finish(&plan, summary, exit, error)
    };
    if now > plan.timeout_secs {
        finish(
            &mut summary,
            &mut exit,
            Some(format!("gave up after {} s", plan.timeout_secs)),
        );
        return;
    }
    // A server whose key is not the one given will not become it: say so
    // and stop, rather than retry until the timeout.
    if let super::LinkState::Lost(why) = &session.state
        && why.contains(crate::seal::WRONG_KEY)
    {
        finish(&mut summary, &mut exit, Some(why.clone()));
        return;
    }
    if !session.is_connected() || model.server.is_none() {
        return;
    }
    let Some((table, role)) = model.place else {
        // The table this client asked for was refused: say why and stop
        // (waiting would only end in the timeout).
        if progress.created
            && let Some(why) = &model.last_rejection
        {
            finish(
                &mut summary,
                &mut exit,
                Some(format!("the server refused the table: {}", why.en)),
            );
            return;
        }
        progress.on_connection(session.connections);
        find_a_place(&plan, &model, &mut outbox, &mut progress, now);
        return;
    };
    // A lesson is held, not played (the robustness suite's guests).
    let held = matches!(plan.part, Part::Learn { .. });
    let Some(lobby) = model.lobby.as_ref().filter(|l| l.id == table && !held) else {
        return;
    };
    let ended = match &model.view {
        Some(view) if view_over(view) => Some(lobby.result.clone().or_else(|| result_of(view))),
        _ if lobby.result.is_some() => {
            // A seat's last view holds what was said and done last: it
            // comes with the lobby's result, maybe a packet later.
            let since = *progress.result_seen_at.get_or_insert(now);
            if matches!(role, Role::Player(_)) && now - since <= LAST_VIEW_WAIT_SECS {
                return;
            }
            Some(lobby.result.clone())
        }
        _ => None,
    };
    if let Some(result) = ended {
        summary.result = result;
        let asked = play_again(&plan, &model, &mut outbox, &mut summary, &mut progress, now);
        if let Err(why) = asked {
            finish(&mut summary, &mut exit, why);
        }
        return;
    }
    let Role::Player(me) = role else { return };
    if !lobby.started {
        before_start(&plan, &model, lobby, me, &mut outbox, &mut progress, now);
        return;
    }
    let Some(view) = model.view.clone() else {
        return;
    };
    flood(&plan, &view, &mut outbox, &mut summary);
    // Talk first: lines sent before this seat's orders land in the round
    // they were meant for (the orders may be the last in, which settles it).
    if plan.talk
        && let AnyView::Wanning(v) = &view
        && progress.talked_round != Some(v.round)
        && let Some(lines) = talk(&plan.name, v)
    {
        for action in lines {
            outbox.0.push(ClientMsg::Act { action });
            summary.said += 1;
        }
        progress.talked_round = Some(v.round);
    }
    if my_turn(&view) && progress.acted_revision != Some(model.revision) {
        let Runner { rng, .. } = &mut *runner;
        // A kind the table's game has no bot of (`--play memory` at a
        // Wanning table) plays as its game's best bot.
        let play = crate::games::bot_kind_for(view.game(), &plan.play);
        if let Some(action) = bot_move(play, &view, rng) {
            outbox.0.push(ClientMsg::Act { action });
            summary.acts_sent += 1;
            progress.acted_revision = Some(model.revision);
            progress.pending = Some((model.revision, Instant::now()));
        }
    }
    if summary.chaos_sent < u64::from(plan.chaos) {
        // Actions no table state allows, turn or no turn: each must be refused.
        for _ in 0..4 {
            let action = nonsense(&view, &mut runner.rng);
            outbox.0.push(ClientMsg::Act { action });
            summary.chaos_sent += 1;
        }
    }
}

/// What came in this update: counted, recorded if asked, and the latency
/// of this seat's last move measured when a newer view arrives.
fn note_inbox(
    inbox: &Inbox,
    summary: &mut Summary,
    runner: &mut Runner,
    progress: &mut Progress,
    now: f64,
) {
    for msg in &inbox.0 {
        summary.messages_received += 1;
        summary.bytes_received += postcard::to_allocvec(msg).map_or(0, |b| b.len() as u64);
        if let Some(file) = runner.record.as_mut() {
            let line = serde_json::json!({ "t": now, "msg": msg });
            let _ = writeln!(file, "{line}");
        }
        if let ServerMsg::View { revision, .. } = msg
            && let Some((sent_rev, at)) = progress.pending
            && *revision > sent_rev
        {
            summary
                .latencies_ms
                .push(at.elapsed().as_secs_f64() * 1000.0);
            progress.pending = None;
        }
    }
}

/// Ends the run: the summary written (with the latency quantiles) and the
/// app told to exit, with an error if there was one.
fn finish(
    plan: &Plan,
    summary: &mut Summary,
    exit: &mut MessageWriter<AppExit>,
    error: Option<String>,
) {
    summary.finished = error.is_none();
    if let Some(why) = &error {
        eprintln!("foodweb client: {why}");
    }
    summary.error = error;
    let mut sorted = summary.latencies_ms.clone();
    sorted.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        (!sorted.is_empty()).then(|| sorted[((sorted.len() - 1) as f64 * q).round() as usize])
    };
    summary.latency_p50_ms = pick(0.5);
    summary.latency_p99_ms = pick(0.99);
    if let Some(path) = &plan.summary {
        let text = serde_json::to_string_pretty(&*summary).expect("summaries serialize");
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("foodweb: cannot write {}: {e}", path.display());
        }
    }
    exit.write(if summary.finished {
        AppExit::Success
    } else {
        AppExit::error()
    });
}

/// At the end of a game: "Play again" while `Plan::again` says so (the
/// next table is awaited, and its refusal ends the run); otherwise
/// `Err(None)`, the run is over.
fn play_again(
    plan: &Plan,
    model: &ClientModel,
    outbox: &mut Outbox,
    summary: &mut Summary,
    progress: &mut Progress,
    now: f64,
) -> Result<(), Option<String>> {
    let Some((table, role)) = model.place else {
        return Err(None);
    };
    if let Some((asked_at, when)) = progress.again_from
        && asked_at == table
    {
        // (A refusal of a move sent before the end may come meanwhile:
        // only the next table's coming, or not, says what became of it.)
        if now - when > AGAIN_WAIT_SECS {
            let why = model.last_rejection.as_ref().map_or("", |r| r.en.as_str());
            return Err(Some(format!(
                "no next table {AGAIN_WAIT_SECS} s after \"Play again\" (last refusal: {why})"
            )));
        }
        return Ok(());
    }
    if summary.played.last() != Some(&table) {
        summary.played.push(table);
    }
    if summary.played.len() > plan.again as usize || matches!(role, Role::Spectator) {
        return Err(None);
    }
    outbox.0.push(ClientMsg::PlayAgain);
    println!("playing again after table {table}");
    *progress = Progress {
        again_from: Some((table, now)),
        created: progress.created,
        asked_on: progress.asked_on,
        filled: progress.filled,
        printed_token: progress.printed_token.take(),
        ..Progress::default()
    };
    Ok(())
}

/// Before the game starts: the table's creator fills the empty seats with
/// bots once its people are in and asks to start; anyone else says it is
/// ready. A "Play again" table starts by itself.
fn before_start(
    plan: &Plan,
    model: &ClientModel,
    lobby: &LobbyState,
    me: SeatId,
    outbox: &mut Outbox,
    progress: &mut Progress,
    now: f64,
) {
    if lobby.again_until.is_some() {
        return;
    }
    if model.is_owner() {
        if let Part::Create { people, bots, .. } = &plan.part {
            if lobby.persons() >= *people && !progress.filled {
                outbox
                    .0
                    .push(ClientMsg::FillWithBots { kind: bots.clone() });
                progress.filled = true;
            }
            if progress.filled && now - progress.asked_at > 0.3 {
                outbox.0.push(ClientMsg::Start);
                progress.asked_at = now;
            }
        }
    } else if !progress.ready_sent
        && matches!(
            lobby.seats[me.index()].kind,
            SeatKind::Person { ready: false, .. }
        )
    {
        outbox.0.push(ClientMsg::SetReady { ready: true });
        progress.ready_sent = true;
    }
}

fn find_a_place(
    plan: &Plan,
    model: &ClientModel,
    outbox: &mut Outbox,
    progress: &mut Progress,
    now: f64,
) {
    match &plan.part {
        Part::Create {
            settings,
            seats,
            seed,
            host_seat,
            ..
        } => {
            if !progress.created {
                outbox.0.push(ClientMsg::CreateTable {
                    settings: settings.clone(),
                    seats: *seats,
                    host_seat: *host_seat,
                    seed: *seed,
                    open_replays: false,
                });
                progress.created = true;
            }
        }
        Part::Learn { game } => {
            if !progress.created {
                let others = crate::games::lesson_players(*game)
                    .unwrap_or(1)
                    .saturating_sub(1);
                outbox.0.push(ClientMsg::Learn {
                    game: *game,
                    names: (1..=others).map(|i| format!("Teacher {i}")).collect(),
                });
                progress.created = true;
            }
        }
        part => {
            if now - progress.asked_at < 0.3 {
                return;
            }
            progress.asked_at = now;
            let open = model.tables.iter().find(|t| match part {
                Part::Join { table } => {
                    !t.started && t.open_seats > 0 && table.is_none_or(|id| id == t.id)
                }
                Part::Host { .. } => !t.started && t.host_seat_open,
                _ => true,
            });
            match (part, open) {
                (Part::Join { .. }, Some(t)) => outbox.0.push(ClientMsg::TakeSeat {
                    table: t.id,
                    seat: None,
                }),
                (Part::Host { code }, Some(t)) => outbox.0.push(ClientMsg::TakeHostSeat {
                    table: t.id,
                    code: code.clone(),
                }),
                (Part::Watch, Some(t)) => outbox.0.push(ClientMsg::Watch { table: t.id }),
                _ => outbox.0.push(ClientMsg::ListTables),
            }
        }
    }
}

/// Pushes forged transport packets straight onto the connection (netcode
/// seals them like any other): a first fragment of a message that claims
/// 2^40 fragments, on every channel id a server could have. lightyear 0.30
/// allocated the whole message at once and aborted; the patched receiver
/// refuses it (vendor/README.md).
fn forge_fragments(
    plan: Res<Plan>,
    session: Res<Session>,
    mut links: Query<&mut lightyear::prelude::Link>,
    mut summary: ResMut<Summary>,
) {
    if summary.forged_sent >= u64::from(plan.forge_fragments) || !session.is_connected() {
        return;
    }
    let Some(mut link) = session.entity().and_then(|e| links.get_mut(e).ok()) else {
        return;
    };
    for channel in 0..8u8 {
        let n = summary.forged_sent as u16;
        link.send
            .push(forged_fragment(channel, n, n, 1 << 40).into());
        summary.forged_sent += 1;
    }
}

/// A lightyear 0.30 transport packet holding one first fragment: header
/// (type `DataFragment`, packet id, ack, ack bits, tick), channel id
/// (varint), message id (u16), fragment index 0, the claimed count
/// (varint), compression none, 8 bytes of data.
fn forged_fragment(channel: u8, packet_id: u16, message_id: u16, claimed: u64) -> Vec<u8> {
    let mut b = vec![1u8];
    b.extend(packet_id.to_be_bytes());
    b.extend([0u8; 2 + 4 + 4]);
    b.push(channel & 0x3f);
    b.extend(message_id.to_be_bytes());
    b.push(0);
    b.extend((claimed | 0xc000_0000_0000_0000).to_be_bytes());
    b.push(0);
    b.push(8);
    b.extend([0xAB; 8]);
    b
}

/// One line to every other living player, if the seat may talk now: in a
/// round's orders from round 2 on (after round 1's announcement), alive,
/// before giving its orders (so the round cannot settle before the lines
/// arrive).
/// Each line says who said it to whom and when, `[Ana>3@2]`, so a test can
/// tell every line from every other in what a client received.
fn talk(name: &str, v: &foodweb_rules::wanning::WanningView) -> Option<Vec<AnyAction>> {
    use foodweb_rules::wanning::{WanningAction, WanningPhase};
    let me = v.me?;
    let open = v.phase == WanningPhase::Orders && v.round >= 2 && v.to_act;
    if !open || v.seats[me.index()].dead {
        return None;
    }
    Some(
        v.others_living()
            .into_iter()
            .map(|to| {
                AnyAction::Wanning(WanningAction::Say {
                    to,
                    text: format!("[{name}>{}@{}]", to.index() + 1, v.round),
                })
            })
            .collect(),
    )
}

/// Lines a flooding guest sends an update (`Plan::flood_talk`).
const FLOOD_PER_UPDATE: usize = 50;

/// A flooding guest's lines this update (`Plan::flood_talk`): long ones,
/// to one player, as many as it may send.
fn flood(plan: &Plan, view: &AnyView, outbox: &mut Outbox, summary: &mut Summary) {
    let AnyView::Wanning(v) = view else { return };
    let Some(to) = flood_target(v) else { return };
    for _ in 0..FLOOD_PER_UPDATE {
        if summary.said >= u64::from(plan.flood_talk) {
            return;
        }
        outbox.0.push(ClientMsg::Act {
            action: AnyAction::Wanning(foodweb_rules::wanning::WanningAction::Say {
                to,
                text: format!("{:>4}{}", summary.said, "🐺".repeat(195)),
            }),
        });
        summary.said += 1;
    }
}

/// Whom a flooding guest talks at: the first other living player, once
/// talk is open and while this seat is alive.
fn flood_target(v: &foodweb_rules::wanning::WanningView) -> Option<SeatId> {
    let me = v.me?;
    let open = v.phase == foodweb_rules::wanning::WanningPhase::Orders && v.round >= 2;
    if !open || v.seats[me.index()].dead {
        return None;
    }
    v.others_living().into_iter().next()
}

fn result_of(view: &AnyView) -> Option<GameResult> {
    match view {
        AnyView::Forest(v) => v.result.clone(),
        AnyView::Gene(v) => v.result.clone(),
        AnyView::Crueler(v) => v.result.clone(),
        AnyView::Wanning(v) => v.result.clone(),
    }
}

/// A random action of the view's game that no rule can allow whatever the
/// table's state when it arrives: aimed at the sender's own seat or at a
/// seat the table does not have, with random cards.
fn nonsense(view: &AnyView, rng: &mut ChaCha8Rng) -> AnyAction {
    match view {
        AnyView::Forest(v) => {
            let kinds = foodweb_rules::forest::deck().ids().count() as u8;
            let seats = v.seats.len() as u8;
            let target = match (rng.random_bool(0.5), v.me) {
                (true, Some(me)) => me,
                _ => SeatId(rng.random_range(seats..200)),
            };
            let card = CardId(rng.random_range(0..kinds));
            AnyAction::Forest(if rng.random_bool(0.3) {
                ForestAction::AskShowdown { target }
            } else {
                ForestAction::Challenge {
                    target,
                    named: card,
                    with: CardId(rng.random_range(0..kinds)),
                }
            })
        }
        // Trades with oneself or a seat the table lacks: never allowed.
        AnyView::Gene(v) => {
            use foodweb_rules::gene::{GeneAction, ItemKind};
            let seats = v.hp.len() as u8;
            let to = match (rng.random_bool(0.5), v.me) {
                (true, Some(me)) => me,
                _ => SeatId(rng.random_range(seats..200)),
            };
            AnyAction::Gene(if rng.random_bool(0.5) {
                GeneAction::Offer {
                    to,
                    give: Vec::new(),
                    want: vec![ItemKind::Gold],
                    swap_order: false,
                }
            } else {
                GeneAction::Withdraw { to }
            })
        }
        // Preying on oneself or on a seat the table lacks: never allowed.
        AnyView::Crueler(v) => {
            use foodweb_rules::crueler::CruelerAction;
            let seats = v.alive.len() as u8;
            let target = match (rng.random_bool(0.5), v.me) {
                (true, Some(me)) => me,
                _ => SeatId(rng.random_range(seats..200)),
            };
            AnyAction::Crueler(CruelerAction::Prey { target })
        }
        // Talk to, or foresee, a seat the table does not have.
        AnyView::Wanning(v) => {
            use foodweb_rules::wanning::WanningAction;
            let seats = v.seats.len() as u8;
            let far = SeatId(rng.random_range(seats..200));
            AnyAction::Wanning(if rng.random_bool(0.5) {
                WanningAction::Say {
                    to: far,
                    text: "?".into(),
                }
            } else {
                WanningAction::Foresee { a: far, b: far }
            })
        }
    }
}
