//! The hall: every table a server hosts, the lobby around them, and the
//! one place client messages are judged. It knows nothing of sockets: the
//! lightyear server, host mode and local play all feed it `ClientMsg`s and
//! deliver the `ServerMsg`s it addresses, so every kind of play runs this
//! same code.
//!
//! Time is passed in (milliseconds on the hall's clock), so the hall is
//! deterministic under test.

mod again;
mod lists;
mod room;
mod seating;

pub use seating::{HostSlot, Occupant, RECORD_FORMAT, TableRecord, store_id};

use std::collections::BTreeMap;
use std::path::PathBuf;

use foodweb_rules::table::{Rejection, SeatId, SeatName};
use foodweb_rules::{Bilingual, GameId};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use seating::{HallTable, Seat};

use crate::games::{self, JournalEntry, bot_kinds};
use crate::messages::*;
use crate::replay::{Replay, Viewer as ReplayViewer};
use crate::store::{JournalSync, StoreError, TableStore};

/// A connection, numbered by whoever delivers its messages.
pub type ClientKey = u64;

/// How a hall runs.
#[derive(Clone, Debug)]
pub struct HallConfig {
    /// The server's name, shown in LAN discovery and on joining.
    pub name: String,
    /// Pause before a bot acts, so people can follow the table.
    pub bot_delay_ms: u64,
    /// A person's seat left empty this long is played by a bot until its
    /// person comes back.
    pub takeover_ms: u64,
    /// Where tables are saved; `None` keeps them in memory only.
    pub data_dir: Option<PathBuf>,
    /// The most tables the hall holds (started or not): a bound on what
    /// a guest who opens tables can make the server keep.
    pub max_tables: usize,
    /// When an accepted action reaches the disk, against when anyone
    /// hears of it (`data_dir` only).
    pub journal_sync: JournalSync,
    /// How long "Play again" keeps a seat at the next table for the
    /// person who had it (issue 69).
    pub again_ms: u64,
    /// A table not started where nobody has done anything this long
    /// closes (issue 70).
    pub idle_table_ms: u64,
    /// At the table cap, a table not started where nobody has done
    /// anything this long closes to make room for a new one.
    pub room_idle_ms: u64,
    /// Tables not yet started that one address may have opened.
    pub unstarted_per_address: usize,
    /// Lessons under way at once (they are not tables: in memory, one a
    /// connection).
    pub max_lessons: usize,
    /// Lessons under way at once from one address.
    pub lessons_per_address: usize,
    /// The lobby's list of tables goes out at most this often
    /// (`lists.rs`); 0 sends it on every change.
    pub list_every_ms: u64,
    /// The lobby's lists together take at most this many bytes a second
    /// (`lists.rs`); 0 does not bound them.
    pub list_bytes_per_sec: u64,
}

impl Default for HallConfig {
    fn default() -> Self {
        Self {
            name: "Foodweb".into(),
            bot_delay_ms: 1100,
            takeover_ms: 60_000,
            data_dir: None,
            max_tables: DEFAULT_MAX_TABLES,
            journal_sync: JournalSync::default(),
            again_ms: 60_000,
            idle_table_ms: 10 * 60_000,
            room_idle_ms: room::ROOM_IDLE_MS,
            unstarted_per_address: 4,
            max_lessons: 512,
            lessons_per_address: 8,
            list_every_ms: lists::LIST_EVERY_MS,
            list_bytes_per_sec: lists::LIST_BYTES_PER_SEC,
        }
    }
}

/// Log entries between two full snapshots of a table; in between, each
/// accepted action is appended to the table's journal. A snapshot waits
/// for an update in which its table judged nothing (no answer waits for
/// it), unless the journal has grown to `SNAPSHOT_AT_LATEST` entries.
const SNAPSHOT_EVERY: usize = 256;
const SNAPSHOT_AT_LATEST: usize = 4 * SNAPSHOT_EVERY;

pub use crate::names::MAX_NAME_CHARS;
use crate::names::{valid_name, valid_person_name};

struct Client {
    name: String,
    /// Where it connects from (none for the app's own client).
    addr: Option<std::net::IpAddr>,
    /// This connection's challenge for seat proofs (sent in `Welcome`).
    challenge: String,
    place: Option<(TableId, Role)>,
    /// Its views wait (`Hall::hold_views`): it has not taken what it
    /// was sent.
    held_back: bool,
    /// The lobby's list changed since it was last sent one (`lists.rs`).
    list_due: bool,
    /// What this client has been sent of its table.
    sent_revision: Option<u64>,
    sent_public: usize,
    sent_notes: usize,
}

impl Client {
    fn reset_sync(&mut self) {
        self.sent_revision = None;
        self.sent_public = 0;
        self.sent_notes = 0;
    }
}

/// Counters for the closing note's measurements.
#[derive(Clone, Debug, Default)]
pub struct HallStats {
    pub accepted: u64,
    pub rejected: u64,
    pub saves: u64,
}

pub struct Hall {
    config: HallConfig,
    store: Option<TableStore>,
    tables: BTreeMap<TableId, HallTable>,
    clients: BTreeMap<ClientKey, Client>,
    outbox: Vec<(ClientKey, ServerMsg)>,
    next_table: TableId,
    /// Tables numbered below this are not listed, and cannot be joined or
    /// watched: those a desktop played before it began to host
    /// (`list_only_new_tables`).
    listed_from: TableId,
    now: u64,
    tables_changed: bool,
    /// When the lobby's next list may go out (`lists.rs`).
    next_list_at: Option<u64>,
    pub stats: HallStats,
    /// Saved tables that could not be loaded at start (left on disk).
    unloadable: usize,
    /// Replays built, by table and viewer, with the table revision they
    /// were built at: built again only when the table moved on.
    replays: BTreeMap<(TableId, ReplayViewer), (u64, std::sync::Arc<Replay>)>,
    /// Tables with accepted actions not yet in the journal: written by
    /// `drain`, before any message about them leaves the hall.
    dirty: std::collections::BTreeSet<TableId>,
    /// What the hall recovered from at start (a journal damaged in the
    /// middle, resumed up to its last good entry), for the operator.
    notices: Vec<String>,
}

fn reject(en: impl Into<String>, zh: impl Into<String>) -> Rejection {
    Rejection::new(en, zh)
}

fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system gives random bytes");
    crate::tokens::to_hex(&bytes)
}

/// Messages held at most for a table that cannot save (beyond them, views
/// are dropped: the newest is sent again once it saves).
const MAX_HELD: usize = 4096;

/// Replays the hall keeps built at most.
const REPLAYS_KEPT: usize = 16;

/// The tables a server holds at most unless told otherwise: enough for
/// any party.
pub const DEFAULT_MAX_TABLES: usize = 256;

/// Letters and digits no one misreads (no 0/O, 1/I/L).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Wrong host codes one connection may try at a table; then it is refused
/// there (a new connection costs a token: guessing 6 symbols of 31 does not
/// pay, and no guest can make the owner's code go stale).
pub const HOST_CODE_TRIES: u32 = 20;

/// A host code: 6 symbols from the operating system's randomness.
fn fresh_host_code() -> String {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).expect("the system gives random bytes");
    bytes
        .iter()
        .map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char)
        .collect()
}

/// The bots' chance at a table: from the table's seed, on a stream of its
/// own (independent of the deals), so a table set up with the same seed
/// and played the same way plays the same (the screenshot tours).
pub(crate) fn bot_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}

fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system gives random bytes");
    u64::from_le_bytes(bytes)
}

impl Hall {
    /// A hall with the tables saved in the config's data directory. Tables
    /// that cannot be read are left on disk untouched and reported.
    pub fn open(config: HallConfig) -> Result<(Self, Vec<StoreError>), StoreError> {
        let store = match &config.data_dir {
            Some(dir) => Some(TableStore::open_with(dir, config.journal_sync)?),
            None => None,
        };
        let mut hall = Self {
            config,
            store,
            tables: BTreeMap::new(),
            clients: BTreeMap::new(),
            outbox: Vec::new(),
            next_table: 1,
            listed_from: 0,
            now: 0,
            tables_changed: false,
            next_list_at: None,
            stats: HallStats::default(),
            unloadable: 0,
            replays: BTreeMap::new(),
            dirty: Default::default(),
            notices: Vec::new(),
        };
        let mut problems = Vec::new();
        let mut damaged = Vec::new();
        if let Some(store) = &hall.store {
            for id in store.list()? {
                if let Some(n) = id
                    .strip_prefix("table-")
                    .and_then(|n| n.parse::<TableId>().ok())
                {
                    hall.next_table = hall.next_table.max(n + 1);
                }
                match Self::load_table(store, &id) {
                    Ok((table, recovered)) => {
                        let tid = table.id;
                        hall.tables.insert(tid, table);
                        if let Some(notice) = recovered {
                            hall.notices.push(notice);
                            damaged.push(tid);
                        }
                    }
                    Err(e) => problems.push(e),
                }
            }
        }
        // A damaged journal is replaced by a record of what was kept.
        for tid in damaged {
            hall.save_record(tid);
        }
        hall.unloadable = problems.len();
        Ok((hall, problems))
    }

    /// A table as saved in `store`: its record with the journal's actions
    /// played on its snapshot, as the hall reads it back after a restart.
    ///
    /// A running server may save the table while it is read: it writes a
    /// new record, then empties the journal. A record read before that and
    /// a journal read after it would lose the journal's entries, so the
    /// record is read again after the journal and the whole read is
    /// repeated until the record stayed the same.
    pub fn saved_record(store: &TableStore, id: &str) -> Result<TableRecord, StoreError> {
        let mut tries = 0;
        loop {
            let (_, before) = store.read(id)?;
            let table = Self::load_table(store, id)?.0;
            let (_, after) = store.read(id)?;
            tries += 1;
            if before == after || tries == 20 {
                return Ok(table.record());
            }
        }
    }

    /// The table saved under `id`, and what was dropped from its journal
    /// if a line in the middle was damaged.
    fn load_table(store: &TableStore, id: &str) -> Result<(HallTable, Option<String>), StoreError> {
        let (path, text) = store.read(id)?;
        let bad = |reason: String| StoreError::Unreadable {
            path: path.clone(),
            reason,
        };
        let record: TableRecord = ron::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if record.format != RECORD_FORMAT {
            return Err(bad(format!(
                "record format {} (this build reads {RECORD_FORMAT})",
                record.format
            )));
        }
        if store_id(record.id) != id {
            return Err(bad(format!("holds table {}, not {id}", record.id)));
        }
        let game = match &record.snapshot {
            Some(ron) => {
                let game = games::restore_table(record.settings.game(), ron)
                    .map_err(|e| bad(e.to_string()))?;
                if game.seats() != record.seats.len() {
                    return Err(bad("seat count differs from the game's".into()));
                }
                Some(game)
            }
            None => None,
        };
        let mut game = game;
        let snapshot_len = game.as_ref().map_or(0, |g| g.log_len());
        let mut recovered = None;
        if let Some(game) = game.as_mut() {
            let (jpath, lines) = store.read_journal(id)?;
            let last = lines.len().saturating_sub(1);
            for (n, line) in lines.iter().enumerate() {
                // A line that does not read, does not follow the log, or is
                // refused ends the journal there: the table resumes with
                // every entry before it, and says what it dropped.
                let problem = match ron::from_str::<JournalEntry>(line) {
                    // Only the last line can be cut short by a crash; its
                    // action was never acknowledged.
                    Err(_) if n == last => break,
                    Err(e) => Some(e.to_string()),
                    Ok(entry) if entry.index < game.log_len() => continue, // in the snapshot
                    // The clock's own entries come back as it is moved to
                    // the entry's time; then the entry must follow the log.
                    Ok(entry) => game.replay_entry(&entry).err(),
                };
                if let Some(problem) = problem {
                    recovered = Some(format!(
                        "{}: line {} {problem}; resumed after entry {} and dropped {} line(s)",
                        jpath.display(),
                        n + 1,
                        game.log_len(),
                        lines.len() - n
                    ));
                    break;
                }
            }
        }
        let table_now = game.as_ref().map_or(0, |g| g.now_ms());
        let logged = game.as_ref().map_or(0, |g| g.log_len());
        let table = HallTable {
            id: record.id,
            settings: record.settings,
            seed: record.seed,
            has_host_seat: record.has_host_seat,
            host: record.host,
            host_code: record.host_code,
            host_code_misses: Default::default(),
            seats: record
                .seats
                .into_iter()
                .map(|occupant| Seat {
                    away_since: matches!(occupant, Occupant::Person { .. }).then_some(0),
                    occupant,
                    client: None,
                })
                .collect(),
            owner: record.owner,
            game,
            anchor: (0, table_now),
            bots_wait_until: 0,
            bot_rng: bot_rng(record.seed),
            paused: false,
            held_until: None,
            host_runs: false,
            open_replays: record.open_replays,
            journaled: logged,
            snapshot_len,
            spectators: Vec::new(),
            last_lobby: None,
            unsaved: None,
            held: Vec::new(),
            lesson: false,
            again: None,
            kept: None,
            active_at: 0,
        };
        Ok((table, recovered))
    }

    /// What was recovered from at start, one line each (journals damaged
    /// in the middle: where each resumed and what it dropped).
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    pub fn config(&self) -> &HallConfig {
        &self.config
    }

    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    pub fn client_count(&self) -> usize {
        self.clients.len()
    }

    /// The messages addressed since the last call, in order: the answers
    /// to what was handled, then each client's view, lobby or list of
    /// tables as it stands now (one view per update however many actions
    /// it judged, the bots' included).
    pub fn drain(&mut self) -> Vec<(ClientKey, ServerMsg)> {
        // Every action accepted since the last drain is written to the
        // journal before anyone hears of it, and flushed to the disk
        // before or just after (`JournalSync`): one write a table per
        // drain, however many actions (a person's and the bots' after it)
        // it took. A table whose write failed tries again at each drain.
        let mut busy = std::collections::BTreeSet::new();
        let mut due = std::mem::take(&mut self.dirty);
        due.extend(
            self.tables
                .values()
                .filter(|t| t.unsaved.is_some())
                .map(|t| t.id),
        );
        let mut released = Vec::new();
        for tid in due {
            let was_unsaved = self.tables.get(&tid).is_some_and(|t| t.unsaved.is_some());
            match self.commit(tid) {
                Ok(logged) => {
                    if logged {
                        busy.insert(tid);
                    }
                    if was_unsaved && let Some(t) = self.tables.get_mut(&tid) {
                        // Saved at last: the clock runs on from where it
                        // stood, and what was held goes out first.
                        eprintln!("foodweb: table {tid} is saved again and plays on");
                        t.unsaved = None;
                        let table_now = t.game.as_ref().map_or(0, |g| g.now_ms());
                        t.anchor = (self.now, table_now);
                        released.append(&mut t.held);
                        self.clock_changed(tid);
                    }
                }
                Err(why) => {
                    if let Some(t) = self.tables.get_mut(&tid)
                        && t.unsaved.is_none()
                    {
                        eprintln!("foodweb: table {tid} waits: {why}");
                        t.unsaved = Some(why);
                        self.clock_changed(tid);
                    }
                }
            }
        }
        // Snapshots (the whole record, three flushes to the disk) are made
        // for tables that logged nothing since the last drain.
        let snapshots: Vec<TableId> = self
            .tables
            .values()
            .filter(|t| t.unsaved.is_none() && t.snapshot_due(busy.contains(&t.id)))
            .map(|t| t.id)
            .collect();
        for tid in snapshots {
            self.save_record(tid);
        }
        self.flush();
        // Nobody hears of an action that is not on disk: at a table that
        // cannot save, answers and views wait (its lobby says why).
        let mut out = released;
        for (key, msg) in std::mem::take(&mut self.outbox) {
            let about_play = matches!(
                msg,
                ServerMsg::Accepted
                    | ServerMsg::View { .. }
                    | ServerMsg::HostView { .. }
                    | ServerMsg::Feed { .. }
            );
            let waiting = about_play
                .then(|| self.clients.get(&key).and_then(|c| c.place))
                .flatten()
                .and_then(|(tid, _)| self.tables.get_mut(&tid))
                .filter(|t| t.unsaved.is_some());
            match waiting {
                Some(t) if t.held.len() < MAX_HELD => t.held.push((key, msg)),
                // Beyond the bound, views are dropped: whole views, the
                // newest is sent again once the table saves
                // (`clock_changed`).
                Some(_) => {}
                None => out.push((key, msg)),
            }
        }
        out
    }

    fn send(&mut self, to: ClientKey, msg: ServerMsg) {
        self.outbox.push((to, msg));
    }

    fn refuse(&mut self, to: ClientKey, why: Rejection) {
        self.stats.rejected += 1;
        self.send(to, ServerMsg::Rejected { reason: why.reason });
    }

    /// A new connection. It is a guest until it says hello.
    pub fn connect(&mut self, client: ClientKey) {
        self.connect_from(client, None);
    }

    /// A new connection from `addr` (none for the app's own client): what
    /// it may open is bounded by address (`HallConfig::unstarted_per_address`,
    /// `lessons_per_address`).
    pub fn connect_from(&mut self, client: ClientKey, addr: Option<std::net::IpAddr>) {
        self.clients.insert(
            client,
            Client {
                name: format!("Guest {client}"),
                addr,
                challenge: crate::seal::challenge(),
                place: None,
                held_back: false,
                list_due: false,
                sent_revision: None,
                sent_public: 0,
                sent_notes: 0,
            },
        );
    }

    /// A connection that has not taken what it was sent (its transport's
    /// queue is long: `server::pump`) is sent no view or feed until
    /// `hold` is false again; then it is sent the latest view and the
    /// feed since what it last had, one of each: the views in between
    /// are coalesced, never queued.
    pub fn hold_views(&mut self, client: ClientKey, hold: bool) {
        if let Some(c) = self.clients.get_mut(&client) {
            c.held_back = hold;
        }
    }

    /// A connection is gone. A person's seat in a game under way waits for
    /// them (and a bot stands in after `takeover_ms`); a seat in a table not
    /// yet started is opened again.
    pub fn disconnect(&mut self, client: ClientKey) {
        self.detach(client);
        self.clients.remove(&client);
    }

    /// Judges one message from `client`; answers go to the outbox (and
    /// views with them, when it is drained).
    pub fn handle(&mut self, client: ClientKey, msg: ClientMsg) {
        if !self.clients.contains_key(&client) {
            self.connect(client);
        }
        // Anything but the clock's ping and the table list is someone
        // doing something at their table (`room::close_idle_tables`).
        let doing = !matches!(msg, ClientMsg::Ping { .. } | ClientMsg::ListTables);
        if let Err(why) = self.judge(client, msg) {
            self.refuse(client, why);
        }
        if doing {
            self.table_active(client);
        }
    }

    fn judge(&mut self, client: ClientKey, msg: ClientMsg) -> Result<(), Rejection> {
        match msg {
            ClientMsg::Hello { name, version } => self.hello(client, &name, version),
            ClientMsg::SetName { name } => {
                let name = valid_person_name(&name)?;
                if let Some((tid, Role::Player(seat))) = self.place(client) {
                    self.tables[&tid].name_clash(seat.index(), &name)?;
                }
                let name = self.rename(client, name);
                self.send(client, ServerMsg::Named { name });
                Ok(())
            }
            ClientMsg::Ping { sent_ms } => {
                let hall_ms = self.now;
                self.send(client, ServerMsg::Pong { sent_ms, hall_ms });
                Ok(())
            }
            ClientMsg::ListTables => {
                let tables = self.summaries();
                self.send(client, ServerMsg::Tables { tables });
                Ok(())
            }
            ClientMsg::Resume { table, proof } => self.resume(client, table, &proof),
            ClientMsg::CreateTable {
                settings,
                seats,
                host_seat,
                seed,
                open_replays,
            } => self.create(client, settings, seats, host_seat, seed, open_replays),
            ClientMsg::TakeSeat { table, seat } => self.take_seat(client, table, seat),
            ClientMsg::TakeHostSeat { table, code } => self.take_host_seat(client, table, &code),
            ClientMsg::Watch { table } => {
                self.not_seated(client)?;
                let t = self.listed_table_mut(table)?;
                t.spectators.push(client);
                self.attach(client, table, Role::Spectator, None);
                Ok(())
            }
            ClientMsg::Leave => {
                if self.place(client).is_none() {
                    return Err(reject("you are not at a table", "你不在任何一桌"));
                }
                self.back_to_lobby(client, None);
                Ok(())
            }
            ClientMsg::SetReady { ready } => {
                let (tid, seat) = self.seated_before_start(client)?;
                let t = self.tables.get_mut(&tid).expect("seated at a table");
                if let Occupant::Person { ready: r, .. } = &mut t.seats[seat.index()].occupant {
                    *r = ready;
                }
                self.table_changed(tid);
                Ok(())
            }
            ClientMsg::SetBot { seat, kind, name } => {
                let tid = self.owner_before_start(client)?;
                let t = self.tables.get_mut(&tid).expect("owner of a table");
                let slot = t
                    .seats
                    .get_mut(seat.index())
                    .ok_or_else(|| Rejection::unknown_seat(seat))?;
                match (&slot.occupant, kind) {
                    (Occupant::Person { .. }, _) => {
                        return Err(reject(
                            format!("seat {seat} is a person's"),
                            format!("{seat} 号座位有人"),
                        ));
                    }
                    (_, None) => slot.occupant = Occupant::Open,
                    (_, Some(kind)) => {
                        let kind = valid_bot(t.settings.game(), &kind)?;
                        let name = name.map(|n| valid_name(&n)).transpose()?;
                        if let Some(n) = &name {
                            t.name_clash(seat.index(), n)?;
                        }
                        t.seats[seat.index()].occupant = Occupant::Bot { kind, name };
                    }
                }
                // The owner may give a seat kept for "Play again" away.
                t.unkeep(seat.index());
                self.table_changed(tid);
                Ok(())
            }
            ClientMsg::FillWithBots { kind } => {
                let tid = self.owner_before_start(client)?;
                let t = self.tables.get_mut(&tid).expect("owner of a table");
                let kind = valid_bot(t.settings.game(), &kind)?;
                for i in 0..t.seats.len() {
                    t.unkeep(i);
                }
                for slot in &mut t.seats {
                    if slot.occupant == Occupant::Open {
                        slot.occupant = Occupant::Bot {
                            kind: kind.clone(),
                            name: None,
                        };
                    }
                }
                self.table_changed(tid);
                Ok(())
            }
            ClientMsg::Start => self.start(client),
            ClientMsg::Act { action } => self.act(client, action),
            ClientMsg::Pace { pace } => self.pace(client, pace),
            ClientMsg::GetReplay { from, past } => self.send_replay(client, from, past),
            ClientMsg::Learn { game, names } => self.learn(client, game, names),
            ClientMsg::PlayAgain => self.play_again(client),
        }
    }

    fn hello(&mut self, client: ClientKey, name: &str, version: u32) -> Result<(), Rejection> {
        if version != PROTOCOL_VERSION {
            return Err(reject(
                format!(
                    "this server speaks protocol {PROTOCOL_VERSION}, your client {version}: update one of them"
                ),
                format!("服务器协议版本 {PROTOCOL_VERSION}，客户端 {version}：请更新其中之一"),
            ));
        }
        let name = valid_person_name(name)?;
        self.rename(client, name.clone());
        let challenge = self.clients[&client].challenge.clone();
        self.send(
            client,
            ServerMsg::Welcome {
                server: self.config.name.clone(),
                version: PROTOCOL_VERSION,
                name,
                challenge,
            },
        );
        let tables = self.summaries();
        self.send(client, ServerMsg::Tables { tables });
        Ok(())
    }

    /// Renames a client, and its seat before the start; returns the name
    /// its seat goes by (numbered if another seat has it).
    fn rename(&mut self, client: ClientKey, name: String) -> String {
        let c = self.clients.get_mut(&client).expect("known client");
        c.name = name.clone();
        if let Some((tid, Role::Player(seat))) = c.place {
            let t = self.tables.get_mut(&tid).expect("seated at a table");
            let name = t.distinct_name(seat.index(), &name);
            if !t.started()
                && let Occupant::Person { name: n, .. } = &mut t.seats[seat.index()].occupant
            {
                *n = name.clone();
                self.table_changed(tid);
                return name;
            }
        }
        name
    }

    /// Whether `client` is at a table (seated, hosting or watching).
    pub fn is_seated(&self, client: ClientKey) -> bool {
        self.place(client).is_some()
    }

    fn place(&self, client: ClientKey) -> Option<(TableId, Role)> {
        self.clients.get(&client).and_then(|c| c.place)
    }

    fn not_seated(&self, client: ClientKey) -> Result<(), Rejection> {
        match self.place(client) {
            Some((tid, _)) => Err(reject(
                format!("you are at table {tid}: leave it first"),
                format!("你在第 {tid} 桌：请先离开"),
            )),
            None => Ok(()),
        }
    }

    /// A table a client not at it may join or watch: a listed one (an
    /// unlisted one is refused as a missing one is).
    fn listed_table_mut(&mut self, id: TableId) -> Result<&mut HallTable, Rejection> {
        // A lesson is one person's: not listed, joined or watched.
        if id < self.listed_from || self.tables.get(&id).is_some_and(|t| t.lesson) {
            return Err(reject(
                format!("there is no table {id}"),
                format!("没有第 {id} 桌"),
            ));
        }
        self.table_mut(id)
    }

    fn table_mut(&mut self, id: TableId) -> Result<&mut HallTable, Rejection> {
        self.tables
            .get_mut(&id)
            .ok_or_else(|| reject(format!("there is no table {id}"), format!("没有第 {id} 桌")))
    }

    fn seated_before_start(&self, client: ClientKey) -> Result<(TableId, SeatId), Rejection> {
        match self.place(client) {
            Some((tid, Role::Player(seat))) => {
                if self.tables[&tid].started() {
                    Err(reject("the game has started", "游戏已经开始"))
                } else {
                    Ok((tid, seat))
                }
            }
            _ => Err(reject("you have no seat", "你没有座位")),
        }
    }

    fn owner_before_start(&self, client: ClientKey) -> Result<TableId, Rejection> {
        if let Some((tid, Role::Host)) = self.place(client)
            && let Some(t) = self.tables.get(&tid)
            && t.host_runs
        {
            if t.started() {
                return Err(reject("the game has started", "游戏已经开始"));
            }
            return Ok(tid);
        }
        let (tid, seat) = self.seated_before_start(client)?;
        if self.tables[&tid].owner != Some(seat) {
            return Err(reject(
                "only the table's owner (who opened it) may do that",
                "只有开桌的人可以这样做",
            ));
        }
        Ok(tid)
    }

    fn create(
        &mut self,
        client: ClientKey,
        settings: games::AnySettings,
        seats: u8,
        host_seat: bool,
        seed: Option<u64>,
        open_replays: bool,
    ) -> Result<(), Rejection> {
        self.not_seated(client)?;
        let game = settings.game();
        if !game.playable() || bot_kinds(game).is_empty() {
            return Err(reject(
                format!("{} cannot be played here yet", game.title().en),
                format!("这里还不能玩{}", game.title().zh),
            ));
        }
        let range = game.seats();
        if !range.contains(&(seats as usize)) {
            return Err(reject(
                format!(
                    "{} takes {} to {} players, not {seats}",
                    game.title().en,
                    range.start(),
                    range.end()
                ),
                format!(
                    "{}需要 {} 到 {} 名玩家，而不是 {seats} 名",
                    game.title().zh,
                    range.start(),
                    range.end()
                ),
            ));
        }
        settings.check()?;
        self.room_for_an_unstarted_table(client)?;
        self.room_for_a_table()?;
        let id = self.next_table;
        self.next_table += 1;
        let token = fresh_token();
        let name = self.clients[&client].name.clone();
        let seed = seed.unwrap_or_else(fresh_seed);
        let mut seats_of = vec![Seat::person(name, token.clone(), client)];
        seats_of.extend((1..seats).map(|_| Seat::open()));
        let mut table = HallTable::new(
            id,
            settings,
            seed,
            host_seat,
            seats_of,
            open_replays,
            self.now,
        );
        table.host_code = host_seat.then(fresh_host_code);
        self.tables.insert(id, table);
        self.attach(client, id, Role::Player(SeatId(0)), Some(token));
        self.table_changed(id);
        Ok(())
    }

    /// "Learn to play": the game's guided first game, the sender at seat
    /// 1 and the lesson's scripted players at the others, started at once.
    /// Kept in memory only: a lesson left is over.
    fn learn(
        &mut self,
        client: ClientKey,
        game: GameId,
        names: Vec<String>,
    ) -> Result<(), Rejection> {
        self.not_seated(client)?;
        let players = games::lesson_players(game).ok_or_else(|| {
            reject(
                format!("{} has no guided game yet", game.title().en),
                format!("{}还没有教学对局", game.title().zh),
            )
        })?;
        if names.len() + 1 != players {
            return Err(reject(
                format!(
                    "the lesson seats {players}: name the {} others",
                    players - 1
                ),
                format!("这一课有 {players} 个座位：请为另外 {} 位起名", players - 1),
            ));
        }
        let mut all = vec![self.clients[&client].name.clone()];
        for n in &names {
            all.push(valid_name(n)?);
        }
        self.room_for_a_lesson(client)?;
        let names = all
            .iter()
            .enumerate()
            .map(|(i, name)| match i {
                0 => SeatName::person(name.clone()),
                _ => SeatName::Bot {
                    kind: "lesson".into(),
                    number: i as u16 + 1,
                    name: Some(name.clone()),
                },
            })
            .collect();
        let table_game = games::new_lesson(game, names)?;
        let id = self.next_table;
        self.next_table += 1;
        let token = fresh_token();
        let mut seats = vec![Seat::person(all[0].clone(), token.clone(), client)];
        seats.extend(all[1..].iter().map(|name| Seat {
            occupant: Occupant::Bot {
                kind: "lesson".into(),
                name: Some(name.clone()),
            },
            client: None,
            away_since: None,
        }));
        let now = self.now;
        let mut table = HallTable::new(id, table_game.settings(), 0, false, seats, false, now);
        table.lesson = true;
        table.game = Some(table_game);
        table.bots_wait_until = now + self.config.bot_delay_ms;
        self.tables.insert(id, table);
        self.attach(client, id, Role::Player(SeatId(0)), Some(token));
        self.table_changed(id);
        Ok(())
    }

    fn take_seat(
        &mut self,
        client: ClientKey,
        tid: TableId,
        seat: Option<SeatId>,
    ) -> Result<(), Rejection> {
        self.not_seated(client)?;
        let name = self.clients[&client].name.clone();
        let t = self.listed_table_mut(tid)?;
        if t.started() {
            return Err(reject(
                "the game has started: a seat is taken back only with its token",
                "游戏已经开始：只有凭令牌才能回到座位",
            ));
        }
        let seat = match seat {
            Some(seat) => seat,
            None => (0..t.seats.len())
                .position(|i| t.seats[i].occupant == Occupant::Open && !t.is_kept(i))
                .map(|i| SeatId(i as u8))
                .ok_or_else(|| {
                    reject(
                        format!("table {tid} has no open seat"),
                        format!("第 {tid} 桌没有空座位"),
                    )
                })?,
        };
        let slot = t
            .seats
            .get_mut(seat.index())
            .ok_or_else(|| Rejection::unknown_seat(seat))?;
        if slot.occupant != Occupant::Open {
            return Err(reject(
                format!("seat {seat} is taken"),
                format!("{seat} 号座位已有人"),
            ));
        }
        if t.is_kept(seat.index()) {
            return Err(reject(
                format!("seat {seat} is kept for whoever had it last game"),
                format!("{seat} 号座位为上一局坐这里的人保留"),
            ));
        }
        t.name_clash(seat.index(), &name)?;
        let name = t.distinct_name(seat.index(), &name);
        let token = fresh_token();
        t.seats[seat.index()] = Seat::person(name, token.clone(), client);
        if t.owner.is_none() && !t.host_runs {
            t.owner = Some(seat);
        }
        self.attach(client, tid, Role::Player(seat), Some(token));
        self.table_changed(tid);
        Ok(())
    }

    /// The host seat sees every hand, so it is not for anyone who asks:
    /// before the start it takes the code shown to the table's owner; after
    /// the start only its own token (`Resume`) takes it back.
    fn take_host_seat(
        &mut self,
        client: ClientKey,
        tid: TableId,
        code: &str,
    ) -> Result<(), Rejection> {
        // The owner moves from its seat to the host seat, and runs the
        // table from there: whoever plays host on a big screen.
        let moving_owner = match self.place(client) {
            Some((at, Role::Player(seat))) if at == tid => {
                let t = self.table_mut(tid)?;
                if t.owner != Some(seat) {
                    return Err(reject(
                        "only the table's owner moves to its host seat; others leave their seat first",
                        "只有桌主可以移到主持人座位；其他人请先离开座位",
                    ));
                }
                Some(seat)
            }
            _ => {
                self.not_seated(client)?;
                None
            }
        };
        let name = self.clients[&client].name.clone();
        let t = if moving_owner.is_some() {
            self.table_mut(tid)?
        } else {
            self.listed_table_mut(tid)?
        };
        if !t.has_host_seat {
            return Err(reject(
                format!("table {tid} has no host seat"),
                format!("第 {tid} 桌没有主持人座位"),
            ));
        }
        if t.host.is_some() {
            return Err(reject(
                format!("the host seat of table {tid} is taken"),
                format!("第 {tid} 桌的主持人座位已有人"),
            ));
        }
        if t.started() {
            return Err(reject(
                format!("table {tid} has started: its host seat stays empty"),
                format!("第 {tid} 桌已开始：主持人座位保持空着"),
            ));
        }
        let misses = t.host_code_misses.entry(client).or_insert(0);
        if *misses >= HOST_CODE_TRIES {
            return Err(reject(
                format!("too many wrong host codes for table {tid} from this connection"),
                format!("这个连接对第 {tid} 桌试错主持人代码的次数太多"),
            ));
        }
        let matches = t
            .host_code
            .as_deref()
            .is_some_and(|want| want.eq_ignore_ascii_case(code.trim()));
        if !matches && moving_owner.is_none() {
            *misses += 1;
            return Err(reject(
                format!("that is not the host code of table {tid} (the table's owner has it)"),
                format!("这不是第 {tid} 桌的主持人代码（桌主有这个代码）"),
            ));
        }
        let t = self.table_mut(tid)?;
        if let Some(seat) = moving_owner {
            t.seats[seat.index()] = Seat::open();
            t.owner = None;
            t.host_runs = true;
            if let Some(c) = self.clients.get_mut(&client) {
                c.place = None;
            }
        }
        let t = self.table_mut(tid)?;
        t.host_code = None;
        let token = fresh_token();
        t.host = Some(HostSlot {
            name,
            token: token.clone(),
            client: Some(client),
        });
        self.attach(client, tid, Role::Host, Some(token));
        self.table_changed(tid);
        Ok(())
    }

    /// Takes back the place at `tid` whose token `proof` proves for this
    /// connection's challenge.
    fn resume(&mut self, client: ClientKey, tid: TableId, proof: &str) -> Result<(), Rejection> {
        let challenge = self.clients[&client].challenge.as_str();
        let found = self
            .tables
            .get(&tid)
            .and_then(|t| t.proved(challenge, crate::seal::ProofFor::Resume, proof));
        let Some(role) = found else {
            if self.place(client).is_some() {
                // A connection at a table keeps its place: it is told only
                // that this proof opened nothing (issue 70: it was told it
                // had left, and kept playing its seat).
                return Err(reject(
                    "that seat proof opens no seat here; you keep your place",
                    "这个座位凭证在这里打不开任何座位；你的位置不变",
                ));
            }
            // Whatever place the client remembers is gone: it forgets the
            // token and is back in the lobby, told why.
            self.send(client, ServerMsg::Left);
            if self.unloadable > 0 {
                return Err(reject(
                    format!(
                        "that token opens no seat here: {} saved table(s) could not be loaded on this server (their files are kept for the host to look at), so your table may be lost; you are back in the lobby",
                        self.unloadable
                    ),
                    format!(
                        "这个令牌在这里打不开任何座位：服务器上有 {} 张保存的桌子无法载入（文件保留给主机查看），你的桌子可能已丢失；你已回到大厅",
                        self.unloadable
                    ),
                ));
            }
            return Err(reject(
                "that token opens no seat here: you are back in the lobby",
                "这个令牌在这里打不开任何座位：你已回到大厅",
            ));
        };
        if self.place(client).is_some() {
            self.detach(client);
        }
        // Whoever held the place before (a dead connection) loses it.
        let t = self.tables.get_mut(&tid).expect("found above");
        let previous = match role {
            Role::Player(seat) => {
                let slot = &mut t.seats[seat.index()];
                slot.away_since = None;
                slot.client.replace(client)
            }
            Role::Host => t.host.as_mut().and_then(|h| h.client.replace(client)),
            Role::Spectator => None,
        };
        if let Some(old) = previous.filter(|&old| old != client)
            && let Some(c) = self.clients.get_mut(&old)
        {
            c.place = None;
            self.send(old, ServerMsg::Left);
        }
        // The client has its token: it does not travel again.
        self.attach(client, tid, role, None);
        self.table_changed(tid);
        Ok(())
    }

    /// Tells the table's owner the code that takes its host seat (while
    /// the seat is open and the game has not started).
    fn send_host_code(&mut self, tid: TableId) {
        let Some(t) = self.tables.get(&tid) else {
            return;
        };
        let owner = t
            .owner
            .and_then(|s| t.seats.get(s.index()))
            .and_then(|s| s.client);
        if let (Some(owner), Some(code), false) = (owner, t.host_code.clone(), t.started()) {
            self.send(owner, ServerMsg::HostCode { table: tid, code });
        }
    }

    /// Records the client's place, tells it, and sends it the whole table.
    fn attach(&mut self, client: ClientKey, tid: TableId, role: Role, token: Option<String>) {
        let c = self.clients.get_mut(&client).expect("known client");
        c.place = Some((tid, role));
        c.reset_sync();
        self.send(
            client,
            ServerMsg::Joined {
                table: tid,
                role,
                token,
            },
        );
        let t = &self.tables[&tid];
        let lobby = t.lobby(self.now, self.config.takeover_ms);
        let owns = matches!(role, Role::Player(seat) if t.owner == Some(seat));
        self.send(client, ServerMsg::Lobby(lobby));
        if owns {
            self.send_host_code(tid);
        }
        self.tables_changed = true;
    }

    /// Takes a client from its table to the lobby and tells it so, with
    /// `why` first when the table sent it there (`room::close_unstarted`).
    fn back_to_lobby(&mut self, client: ClientKey, why: Option<&Rejection>) {
        self.detach(client);
        if let Some(why) = why {
            self.send(
                client,
                ServerMsg::Rejected {
                    reason: why.reason.clone(),
                },
            );
        }
        self.send(client, ServerMsg::Left);
        let tables = self.summaries();
        self.send(client, ServerMsg::Tables { tables });
    }

    /// Takes a client away from its table (it said Leave, or dropped).
    fn detach(&mut self, client: ClientKey) {
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        let Some((tid, role)) = c.place.take() else {
            return;
        };
        let now = self.now;
        let mut renew_code = false;
        let mut unpaused = false;
        let Some(t) = self.tables.get_mut(&tid) else {
            return;
        };
        match role {
            Role::Player(seat) => {
                let started = t.started();
                let slot = &mut t.seats[seat.index()];
                if slot.client != Some(client) {
                    return;
                }
                slot.client = None;
                if started {
                    // The seat stays theirs; a bot stands in after a while.
                    slot.away_since = Some(now);
                } else {
                    *slot = Seat::open();
                    if t.owner == Some(seat) {
                        t.owner = t
                            .seats
                            .iter()
                            .position(|s| matches!(s.occupant, Occupant::Person { .. }))
                            .map(|i| SeatId(i as u8));
                        // The new owner is the one who hands out the code.
                        renew_code = true;
                    }
                }
            }
            Role::Host => {
                if t.host.as_ref().is_some_and(|h| h.client == Some(client)) {
                    if t.started() {
                        if let Some(h) = t.host.as_mut() {
                            h.client = None;
                        }
                        // Nobody else may resume: the clock runs again
                        // rather than stopping the table for good.
                        if t.stopped(now) {
                            t.paused = false;
                            t.held_until = None;
                            if let Some(g) = t.game.as_ref() {
                                t.anchor = (now, g.now_ms());
                            }
                            unpaused = true;
                        }
                    } else {
                        // Open again, behind a new code for the owner.
                        t.host = None;
                        t.host_code = Some(fresh_host_code());
                        renew_code = true;
                        if t.host_runs {
                            // The table's runner left: its first person
                            // runs it now.
                            t.host_runs = false;
                            t.owner = t
                                .seats
                                .iter()
                                .position(|s| matches!(s.occupant, Occupant::Person { .. }))
                                .map(|i| SeatId(i as u8));
                        }
                    }
                }
            }
            Role::Spectator => t.spectators.retain(|&s| s != client),
        }
        let abandoned = t.lesson
            || !t.started()
                && t.host.is_none()
                && !t
                    .seats
                    .iter()
                    .any(|s| matches!(s.occupant, Occupant::Person { .. }));
        if abandoned {
            self.drop_table(tid);
            return;
        }
        if renew_code {
            self.send_host_code(tid);
        }
        if unpaused {
            self.clock_changed(tid);
        } else {
            self.table_changed(tid);
        }
    }

    /// Forgets a table that never started and has no one left at it: out of
    /// memory, off the disk, out of every lobby (its spectators are told).
    fn drop_table(&mut self, tid: TableId) {
        self.replays.retain(|(t, _), _| *t != tid);
        let Some(t) = self.tables.remove(&tid) else {
            return;
        };
        for fan in t.spectators {
            if let Some(c) = self.clients.get_mut(&fan) {
                c.place = None;
            }
            self.send(fan, ServerMsg::Left);
        }
        if let Some(store) = &self.store
            && let Err(e) = store.remove(&store_id(tid))
        {
            eprintln!("warning: cannot delete abandoned table {tid}: {e}");
        }
        self.tables_changed = true;
    }

    fn start(&mut self, client: ClientKey) -> Result<(), Rejection> {
        let tid = self.owner_before_start(client)?;
        // A "Play again" table started by its owner: bots take the seats
        // still kept.
        self.release_kept(tid);
        let t = self.tables.get_mut(&tid).expect("owner of a table");
        // The owner starting counts as the owner being ready.
        if let Some(owner) = t.owner
            && let Occupant::Person { ready, .. } = &mut t.seats[owner.index()].occupant
        {
            *ready = true;
        }
        let open: Vec<String> = (0..t.seats.len())
            .filter(|&i| t.seats[i].occupant == Occupant::Open)
            .map(|i| (i + 1).to_string())
            .collect();
        if !open.is_empty() {
            return Err(reject(
                format!(
                    "seats {} are empty: seat people or bots there",
                    open.join(", ")
                ),
                format!("{} 号座位还空着：请让人或机器人坐下", open.join("、")),
            ));
        }
        let waiting: Vec<Bilingual> = (0..t.seats.len())
            .filter(|&i| matches!(t.seats[i].occupant, Occupant::Person { ready: false, .. }))
            .map(|i| t.name_of(i).words())
            .collect();
        if !waiting.is_empty() {
            let (en, zh): (Vec<String>, Vec<String>) =
                waiting.into_iter().map(|w| (w.en, w.zh)).unzip();
            return Err(reject(
                format!("not ready yet: {}", en.join(", ")),
                format!("还没准备好：{}", zh.join("、")),
            ));
        }
        self.begin(tid)
    }

    /// Deals the game of a table whose seats are all filled.
    fn begin(&mut self, tid: TableId) -> Result<(), Rejection> {
        let now = self.now;
        let t = self.tables.get_mut(&tid).expect("a listed table");
        let names = (0..t.seats.len()).map(|i| t.name_of(i)).collect();
        t.game = Some(games::new_table(&t.settings, t.seed, names)?);
        t.anchor = (now, 0);
        t.bots_wait_until = now + self.config.bot_delay_ms;
        self.table_changed(tid);
        Ok(())
    }

    /// A part of the replay of the sender's table, or of a table it sat
    /// at before (`past`, proved by the seat's token): its seat's own
    /// views (what it was sent), or everything for the host seat and for
    /// anyone once a table opened to everyone is over; a spectator gets
    /// none unless then. Built once per revision of the table and kept.
    fn send_replay(
        &mut self,
        client: ClientKey,
        from: u32,
        past: Option<PastSeat>,
    ) -> Result<(), Rejection> {
        let not_yours = || {
            reject(
                "replays are for the people who sat at the table",
                "回放只给坐在这桌的人",
            )
        };
        let (tid, viewer) = match past {
            Some(PastSeat { table, proof }) => {
                // A wrong proof and a missing table answer alike.
                let challenge = self.clients[&client].challenge.as_str();
                let viewer = self
                    .tables
                    .get(&table)
                    .and_then(|t| t.viewer_proved(challenge, &proof))
                    .ok_or_else(not_yours)?;
                (table, viewer)
            }
            None => {
                let (tid, role) = self
                    .place(client)
                    .ok_or_else(|| reject("you are not at a table", "你不在任何一桌"))?;
                let t = &self.tables[&tid];
                let viewer = match role {
                    Role::Player(seat) => t.replay_viewer(ReplayViewer::Seat(seat)),
                    Role::Host => ReplayViewer::Everything,
                    Role::Spectator if t.open_replays && t.is_over() => ReplayViewer::Everything,
                    Role::Spectator => return Err(not_yours()),
                };
                (tid, viewer)
            }
        };
        let t = &self.tables[&tid];
        if t.lesson {
            // Its deal is the lesson's, which a replay from the seed would
            // not make again.
            return Err(reject("a lesson keeps no replay", "教学对局没有回放"));
        }
        let Some(game) = t.game.as_ref() else {
            return Err(reject("the game has not started", "游戏还没开始"));
        };
        let revision = game.revision();
        let replay = match self.replays.get(&(tid, viewer)) {
            Some((built, r)) if *built == revision => r.clone(),
            _ => {
                let r = crate::games::replay(game.game(), &game.snapshot_ron(), viewer)
                    .map_err(|e| reject(e.to_string(), format!("无法生成回放：{e}")))?;
                let r = std::sync::Arc::new(r);
                // One replay kept per table and viewer, and a few at most
                // in all (a replay is a game's worth of views).
                if self.replays.len() >= REPLAYS_KEPT
                    && let Some(&oldest) = self.replays.keys().next()
                {
                    self.replays.remove(&oldest);
                }
                self.replays.insert((tid, viewer), (revision, r.clone()));
                r
            }
        };
        let total = replay.steps.len();
        let start = (from as usize).min(total);
        let end = (start + replay.part_steps()).min(total);
        self.send(
            client,
            ServerMsg::ReplayPart {
                table: tid,
                game: replay.game,
                viewer,
                head: (start == 0).then(|| Box::new(replay.head())),
                finished: replay.finished,
                total: total as u32,
                from: start as u32,
                steps: replay.steps[start..end].to_vec(),
            },
        );
        Ok(())
    }

    /// The host seat runs the pace: pause, resume, or hold the clock (a
    /// deadline extended). It stops the table's clock and its bots, never
    /// a person: people may still act, talk and read.
    fn pace(&mut self, client: ClientKey, pace: Pace) -> Result<(), Rejection> {
        let Some((tid, Role::Host)) = self.place(client) else {
            return Err(reject(
                "only the host seat runs the pace",
                "只有主持人可以暂停、继续或延长时限",
            ));
        };
        let now = self.now;
        let t = self.tables.get_mut(&tid).expect("seated at a table");
        let running = !t.stopped(now);
        let anchor = t.anchor;
        let Some(game) = t.game.as_mut() else {
            return Err(reject("the game has not started", "游戏还没开始"));
        };
        if game.result().is_some() {
            return Err(reject("the game is over", "游戏已结束"));
        }
        // The clock up to now first, so the stop is where the table is.
        if running {
            game.advance_to(anchor.1 + now.saturating_sub(anchor.0));
        }
        match pace {
            Pace::Pause => t.paused = true,
            Pace::Resume => {
                t.paused = false;
                t.held_until = None;
            }
            Pace::Hold { secs } => {
                if !(5..=600).contains(&secs) {
                    return Err(reject(
                        "a deadline is extended by 5 to 600 seconds",
                        "时限只能延长 5 到 600 秒",
                    ));
                }
                let from = t.held_until.filter(|&u| u > now).unwrap_or(now);
                t.held_until = Some(from + u64::from(secs) * 1000);
            }
        }
        let game = t.game.as_ref().expect("started");
        t.anchor = (now, game.now_ms());
        self.clock_changed(tid);
        Ok(())
    }

    /// The table's clock stopped or started: every client there hears it
    /// (the lobby) and gets the view again, made at the table's time now.
    fn clock_changed(&mut self, tid: TableId) {
        self.table_changed(tid);
        for c in self.clients.values_mut() {
            if c.place.is_some_and(|(t, _)| t == tid) {
                c.reset_sync();
            }
        }
    }

    fn act(&mut self, client: ClientKey, action: games::AnyAction) -> Result<(), Rejection> {
        let seat = match self.place(client) {
            Some((_, Role::Player(seat))) => seat,
            Some((_, Role::Host)) => {
                return Err(reject(
                    "the host seat sees everything but acts for nobody",
                    "主持人能看到一切，但不能替任何人行动",
                ));
            }
            Some((_, Role::Spectator)) => {
                return Err(reject("spectators cannot act", "观众不能行动"));
            }
            None => return Err(reject("you have no seat", "你没有座位")),
        };
        let (tid, _) = self.place(client).expect("seated");
        let t = self.tables.get_mut(&tid).expect("seated at a table");
        if let Some(why) = &t.unsaved {
            return Err(reject(
                format!(
                    "the server cannot save this game right now ({why}): the table waits until it can"
                ),
                format!("服务器暂时无法保存这局游戏（{why}）：牌桌暂停，能保存时自动继续"),
            ));
        }
        let Some(game) = t.game.as_mut() else {
            return Err(reject("the game has not started", "游戏还没开始"));
        };
        game.submit(seat, &action)?;
        self.stats.accepted += 1;
        // Written to the journal before the sender hears it was accepted
        // (`drain` writes it first): no accepted action is lost to a crash
        // of the server.
        self.dirty.insert(tid);
        if self.tables[&tid].is_over() {
            // The lobby shows the result (`drain` saves the record).
            self.lobby_changed(tid);
        }
        self.send(client, ServerMsg::Accepted);
        Ok(())
    }

    /// The earliest hall time (milliseconds) at which `tick` would change
    /// something no message caused: a deadline of a running table, a bot's
    /// or a lesson's next move, a hold's end, an away person's stand-in
    /// taking over, the lobby's list held back by its period. `None`: nothing until a message comes. An app that
    /// draws only on change wakes its in-app server then (issue 67).
    pub fn next_due(&self) -> Option<u64> {
        let takeover = self.config.takeover_ms;
        let now = self.now;
        self.tables
            .values()
            .filter_map(|t| {
                if let Some(until) = t.held_until {
                    return Some(until);
                }
                let game = t.game.as_ref()?;
                if t.paused || t.unsaved.is_some() || game.result().is_some() {
                    return None;
                }
                let deadline = game
                    .next_deadline()
                    .map(|d| t.anchor.0 + d.saturating_sub(t.anchor.1));
                let bots = game
                    .to_act()
                    .into_iter()
                    .any(|s| {
                        // A lesson's script plays every seat but the learner's.
                        (t.lesson && s.index() != 0) || t.bot_at(s.index(), now, takeover).is_some()
                    })
                    .then_some(t.bots_wait_until.max(now));
                let stand_in = t
                    .seats
                    .iter()
                    .filter(|s| s.client.is_none())
                    .filter_map(|s| s.away_since)
                    .map(|away| away + takeover)
                    .filter(|&at| at > now)
                    .min();
                [deadline, bots, stand_in].into_iter().flatten().min()
            })
            .chain(self.next_kept_due())
            .chain(self.next_idle_due())
            .chain(self.next_list_due())
            .min()
    }

    /// Moves every game's clock to `now` (hall milliseconds) and lets bots
    /// and stand-ins act (`drain` saves what changed and tells every
    /// client).
    pub fn tick(&mut self, now: u64) {
        self.now = self.now.max(now);
        let now = self.now;
        self.expire_kept(now);
        self.close_idle_tables(now);
        let ids: Vec<TableId> = self.tables.keys().copied().collect();
        for tid in ids {
            let takeover = self.config.takeover_ms;
            let delay = self.config.bot_delay_ms;
            let t = self.tables.get_mut(&tid).expect("listed");
            let stopped = t.stopped(now);
            let (held_out, paused) = (t.held_until.is_some_and(|until| now >= until), t.paused);
            let Some(game) = t.game.as_mut() else {
                continue;
            };
            let playing = game.result().is_none();
            if held_out {
                // A hold ran out: the clock runs on from where it stood.
                let table_now = game.now_ms();
                t.held_until = None;
                t.anchor = (now, table_now);
                if !paused {
                    self.clock_changed(tid);
                }
                continue;
            }
            if stopped {
                let table_now = game.now_ms();
                t.anchor = (now, table_now);
            } else if playing {
                let at = t.anchor.1 + now.saturating_sub(t.anchor.0);
                game.advance_to(at);
            }
            if t.lesson && !stopped && now >= t.bots_wait_until {
                // A lesson's script moves the other seats, one visible
                // move at a time so the learner can follow.
                let game = t.game.as_mut().expect("started");
                for _ in 0..1_000 {
                    let logged = game.log_len();
                    match game.lesson_step() {
                        Some(Ok(())) => {
                            t.anchor = (now, game.now_ms());
                            if game.log_len() != logged {
                                t.bots_wait_until = now + delay;
                                break;
                            }
                        }
                        Some(Err(e)) => eprintln!("foodweb: {e}"),
                        None => break,
                    }
                }
            } else if playing && !stopped && now >= t.bots_wait_until {
                // With no pause, bots play on until a person must act.
                for _ in 0..10_000 {
                    let game = t.game.as_ref().expect("started");
                    let bot = game.to_act().into_iter().find_map(|s| {
                        t.bot_at(s.index(), now, takeover)
                            .map(|k| (s, k.to_string()))
                    });
                    let Some((seat, kind)) = bot else { break };
                    let game = t.game.as_mut().expect("started");
                    match game.bot_act(seat, &kind, &mut t.bot_rng) {
                        Some(Ok(())) => self.stats.accepted += 1,
                        Some(Err(_)) | None => break,
                    }
                    if delay > 0 {
                        t.bots_wait_until = now + delay;
                        break;
                    }
                }
            }
            // Without a message, a lobby changes only as time makes an absent
            // person's seat a stand-in's, or when bots end the game.
            // (Time changes no seating: the record is saved with the
            // game, by `drain`.)
            // A table whose log grew is journalled at the next drain.
            let grew = t.game.as_ref().is_some_and(|g| g.log_len() != t.journaled);
            let ended = playing && t.is_over();
            let aged =
                t.seats.iter().any(|s| s.away_since.is_some()) && t.lobby_aged(now, takeover);
            if ended || aged {
                let lobby = t.lobby(now, takeover);
                if t.last_lobby.as_ref() != Some(&lobby) {
                    self.lobby_changed(tid);
                }
            }
            if grew {
                self.dirty.insert(tid);
            }
        }
    }

    /// Marks a table's seating as changed: its record is saved and its
    /// lobby sent again at the next flush.
    fn table_changed(&mut self, tid: TableId) {
        self.lobby_changed(tid);
        self.save_record(tid);
    }

    /// Marks a table's lobby to be sent again (and the list of tables).
    fn lobby_changed(&mut self, tid: TableId) {
        if let Some(t) = self.tables.get_mut(&tid) {
            t.last_lobby = None;
        }
        self.tables_changed = true;
    }

    /// Writes the table's whole record (seating and game snapshot),
    /// atomically, and empties its journal.
    fn save_record(&mut self, tid: TableId) {
        let Some(t) = self.tables.get_mut(&tid).filter(|t| !t.lesson) else {
            return;
        };
        let logged = t.game.as_ref().map_or(0, |g| g.log_len());
        if let Some(store) = &self.store {
            let text = ron::to_string(&t.record()).expect("records always serialize");
            let id = store_id(tid);
            self.stats.saves += 1;
            if let Err(e) = store.save_text(&id, &text) {
                // The journal still holds every action since the last
                // record (`journaled` is unchanged): nothing accepted is
                // lost, and the snapshot is tried again when it is due.
                eprintln!("foodweb: {e}");
                return;
            }
            if let Err(e) = store.clear_journal(&id) {
                // The record holds every entry: the journal's old lines
                // are skipped when it is read back.
                eprintln!("foodweb: {e}");
            }
        }
        t.journaled = logged;
        t.snapshot_len = logged;
    }

    /// Appends the table's newly accepted actions to its journal (every
    /// `SNAPSHOT_EVERY` log entries, and at the end, `drain` writes the
    /// whole record when the table is quiet). Says whether it logged
    /// anything; an error if the store could not write them (they are
    /// written with the next ones, in order, when it can).
    fn commit(&mut self, tid: TableId) -> Result<bool, String> {
        let Some(t) = self.tables.get_mut(&tid).filter(|t| !t.lesson) else {
            return Ok(false);
        };
        let Some(game) = t.game.as_ref() else {
            return Ok(false);
        };
        let logged = game.log_len();
        if logged == t.journaled {
            return Ok(false);
        }
        let entries = game.journal_from(t.journaled);
        if let Some(store) = &self.store
            && !entries.is_empty()
        {
            let lines: Vec<String> = entries
                .iter()
                .map(|e| ron::to_string(e).expect("journal entries always serialize"))
                .collect();
            self.stats.saves += 1;
            store
                .append_journal(&store_id(tid), &lines)
                .map_err(|e| e.to_string())?;
        }
        t.journaled = logged;
        Ok(true)
    }

    /// From now on, only tables opened from now on are listed, joined or
    /// watched: a desktop that begins to host keeps its earlier games
    /// against bots to itself (issue 66: "the host's earlier private bot
    /// games are listed for its guests to watch").
    pub fn list_only_new_tables(&mut self) {
        self.listed_from = self.next_table;
        self.tables_changed = true;
    }

    /// Sends every client what changed at its table, and the list of tables
    /// to those not at one.
    fn flush(&mut self) {
        let now = self.now;
        let takeover = self.config.takeover_ms;
        let keys: Vec<ClientKey> = self.clients.keys().copied().collect();
        // Lobbies first, then views and feeds.
        for t in self.tables.values_mut() {
            if t.last_lobby.is_none() {
                let lobby = t.lobby(now, takeover);
                for &k in &keys {
                    if self.clients[&k].place.is_some_and(|(tid, _)| tid == t.id) {
                        self.outbox.push((k, ServerMsg::Lobby(lobby.clone())));
                    }
                }
                t.last_lobby = Some(lobby);
            }
        }
        self.send_lists(&keys);
        for k in keys {
            self.sync(k);
        }
    }

    /// Sends one client its view and feed if its table moved on.
    fn sync(&mut self, k: ClientKey) {
        let c = &self.clients[&k];
        if c.held_back {
            return;
        }
        let Some((tid, role)) = c.place else { return };
        let Some(game) = self.tables.get(&tid).and_then(|t| t.game.as_ref()) else {
            return;
        };
        let revision = game.revision();
        if c.sent_revision == Some(revision) {
            return;
        }
        let said = game.announcements();
        let view = match role {
            Role::Player(seat) => ServerMsg::View {
                table: tid,
                revision,
                view: game.view(Some(seat)),
                hall_ms: self.now,
            },
            Role::Spectator => ServerMsg::View {
                table: tid,
                revision,
                view: game.view(None),
                hall_ms: self.now,
            },
            Role::Host => ServerMsg::HostView {
                table: tid,
                revision,
                seats: (0..game.seats())
                    .map(|i| game.view(Some(SeatId(i as u8))))
                    .collect(),
                public: game.host_view(),
                hall_ms: self.now,
            },
        };
        let public_from = c.sent_public.min(said.public.len());
        let public = said.public[public_from..].to_vec();
        // A player's own notes; the host's are everyone's; a spectator
        // none. Only the ones not sent yet are copied (a seat is told a
        // line at each change to its things: copying them all at every
        // send made a long game's sends grow with its square).
        let seat_of = |n: &&foodweb_rules::table::PrivateNote| match role {
            Role::Player(seat) => n.seat == seat,
            Role::Host => true,
            Role::Spectator => false,
        };
        let count = said.private.iter().filter(seat_of).count();
        let notes_from = c.sent_notes.min(count);
        let new_notes: Vec<_> = said
            .private
            .iter()
            .filter(seat_of)
            .skip(notes_from)
            .cloned()
            .collect();
        let feed = ServerMsg::Feed {
            table: tid,
            public_from: public_from as u32,
            public,
            notes_from: notes_from as u32,
            notes: new_notes,
        };
        let public_len = said.public.len();
        let notes_len = count;
        let c = self.clients.get_mut(&k).expect("known client");
        let lesson = match role {
            Role::Player(_) => game.lesson(),
            _ => None,
        };
        c.sent_revision = Some(revision);
        c.sent_public = public_len;
        c.sent_notes = notes_len;
        self.outbox.push((k, view));
        self.outbox.push((k, feed));
        if let Some(now) = lesson {
            self.outbox.push((k, ServerMsg::Lesson { table: tid, now }));
        }
    }
}

fn valid_bot(game: GameId, kind: &str) -> Result<String, Rejection> {
    if bot_kinds(game).contains(&kind) {
        Ok(kind.to_string())
    } else {
        Err(reject(
            format!(
                "there is no '{kind}' bot for {}; there are: {}",
                game.title().en,
                bot_kinds(game).join(", ")
            ),
            format!(
                "{}没有“{kind}”机器人；可选：{}",
                game.title().zh,
                bot_kinds(game).join("、")
            ),
        ))
    }
}

/// A bilingual line for a table, for logs and consoles.
pub fn describe(summary: &TableSummary) -> Bilingual {
    Bilingual::new(
        format!(
            "table {}: {} ({}/{} seats open)",
            summary.id,
            summary.game.title().en,
            summary.open_seats,
            summary.seats
        ),
        format!(
            "第 {} 桌：{}（{}/{} 个空座）",
            summary.id,
            summary.game.title().zh,
            summary.open_seats,
            summary.seats
        ),
    )
}
