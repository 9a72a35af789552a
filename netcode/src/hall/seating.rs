//! One table in the hall: who sits where, who owns it, the game once it
//! has started, and the record that is saved to disk.

use foodweb_rules::table::{GameResult, Rejection, SeatId, SeatName};
use serde::{Deserialize, Serialize};

use super::ClientKey;
use crate::games::{AnySettings, HostedTable, bot_kinds};
use crate::messages::{LobbyState, Role, SeatInfo, SeatKind, TableId, TableSummary};

/// Who a seat belongs to. Saved with the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Occupant {
    Open,
    Bot {
        kind: String,
        /// The name its seat shows; by default "<kind> bot <seat>".
        #[serde(default)]
        name: Option<String>,
    },
    Person {
        name: String,
        /// The secret that takes the seat back; only its person has it.
        token: String,
        ready: bool,
    },
}

pub struct Seat {
    pub occupant: Occupant,
    /// The connection playing the seat now, if any.
    pub client: Option<ClientKey>,
    /// Hall time the person left; `None` while connected or not a person.
    pub away_since: Option<u64>,
}

impl Seat {
    /// A person's new seat, played by `client`, with its fresh token.
    pub fn person(name: String, token: String, client: ClientKey) -> Self {
        Self {
            occupant: Occupant::Person {
                name,
                token,
                ready: false,
            },
            client: Some(client),
            away_since: None,
        }
    }

    pub fn open() -> Self {
        Self {
            occupant: Occupant::Open,
            client: None,
            away_since: None,
        }
    }
}

/// The seats of a "Play again" table kept for the old table's people.
#[derive(Clone, Debug)]
pub struct Kept {
    /// By seat: the name of the person it is kept for, until they take it.
    pub seats: Vec<Option<String>>,
    /// The host seat is kept for the old table's host.
    pub host: Option<String>,
    /// Hall time when what is still kept goes to bots (the host seat
    /// stays open) and the table starts.
    pub until: u64,
}

impl Kept {
    pub fn is_empty(&self) -> bool {
        self.host.is_none() && self.seats.iter().all(Option::is_none)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostSlot {
    pub name: String,
    pub token: String,
    #[serde(skip)]
    pub client: Option<ClientKey>,
}

pub struct HallTable {
    pub id: TableId,
    pub settings: AnySettings,
    pub seed: u64,
    pub has_host_seat: bool,
    pub host: Option<HostSlot>,
    /// What takes the open host seat before the start: shown to the
    /// table's owner only, never in the lobby (`ServerMsg::HostCode`).
    pub host_code: Option<String>,
    /// Wrong host codes tried, by connection; at `HOST_CODE_TRIES` that
    /// connection is refused here.
    pub host_code_misses: std::collections::HashMap<ClientKey, u32>,
    pub seats: Vec<Seat>,
    pub owner: Option<SeatId>,
    pub game: Option<Box<dyn HostedTable>>,
    /// Hall time and table time that correspond, for moving the clock.
    pub anchor: (u64, u64),
    /// Hall time before which no bot acts (so people can follow).
    pub bots_wait_until: u64,
    /// What the table's bots and stand-ins draw on (`bot_rng`).
    pub bot_rng: rand_chacha::ChaCha8Rng,
    /// The table's owner moved to the host seat before the start: the host
    /// seat runs the table (bots, start) and nobody else does.
    pub host_runs: bool,
    /// The host seat paused the table (`Pace::Pause`).
    pub paused: bool,
    /// The host seat held the clock until this hall time (`Pace::Hold`).
    pub held_until: Option<u64>,
    /// Chosen at creation: once the game is over, everyone may replay it
    /// with everything shown (`CreateTable::open_replays`).
    pub open_replays: bool,
    /// Log entries already on disk (in the snapshot or the journal).
    pub journaled: usize,
    /// Log entries in the last full snapshot written.
    pub snapshot_len: usize,
    pub spectators: Vec<ClientKey>,
    pub last_lobby: Option<LobbyState>,
    /// Why the store could not write this table's accepted actions: the
    /// table is stopped (no action taken, no bot, no clock) until a write
    /// succeeds, and nobody hears of what was not written.
    pub unsaved: Option<String>,
    /// What was not sent while `unsaved`: the answers and views about
    /// actions not yet on disk, sent once they are.
    pub held: Vec<(ClientKey, crate::messages::ServerMsg)>,
    /// A guided first game (`Learn`): its script moves the other seats,
    /// it is never saved, and it is over when its learner leaves.
    pub lesson: bool,
    /// The table "Play again" opened after this one (issue 69).
    pub again: Option<TableId>,
    /// A "Play again" table's seats kept for the last game's people.
    pub kept: Option<Kept>,
    /// Hall time anyone last did something here (`room.rs`: a table not
    /// started and idle too long closes).
    pub active_at: u64,
}

impl HallTable {
    /// A new table, not started, its seats `seats` (the creator's
    /// first), at hall time `now`.
    pub fn new(
        id: TableId,
        settings: AnySettings,
        seed: u64,
        has_host_seat: bool,
        seats: Vec<Seat>,
        open_replays: bool,
        now: u64,
    ) -> Self {
        Self {
            id,
            settings,
            seed,
            has_host_seat,
            host: None,
            host_code: None,
            host_code_misses: Default::default(),
            seats,
            owner: Some(SeatId(0)),
            game: None,
            anchor: (now, 0),
            bots_wait_until: 0,
            bot_rng: super::bot_rng(seed),
            paused: false,
            held_until: None,
            host_runs: false,
            open_replays,
            journaled: 0,
            snapshot_len: 0,
            spectators: Vec::new(),
            last_lobby: None,
            unsaved: None,
            held: Vec::new(),
            lesson: false,
            again: None,
            kept: None,
            active_at: now,
        }
    }

    /// Whether `seat` is kept for whoever had it at the last game.
    pub fn is_kept(&self, seat: usize) -> bool {
        self.kept
            .as_ref()
            .is_some_and(|k| k.seats.get(seat).is_some_and(Option::is_some))
    }

    /// `seat` is no longer kept (its owner gave it away).
    pub fn unkeep(&mut self, seat: usize) {
        if let Some(slot) = self.kept.as_mut().and_then(|k| k.seats.get_mut(seat)) {
            *slot = None;
        }
    }

    pub fn started(&self) -> bool {
        self.game.is_some()
    }

    /// Whether the table's clock and bots are stopped at hall time `now`.
    pub fn stopped(&self, now: u64) -> bool {
        self.paused || self.unsaved.is_some() || self.held_until.is_some_and(|until| now < until)
    }

    pub fn result(&self) -> Option<GameResult> {
        self.game.as_ref().and_then(|g| g.result())
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Whether the whole record should be saved now, `busy` telling if the
    /// table judged anything since the last save: every `SNAPSHOT_EVERY`
    /// log entries and at the end, once the table is quiet; at
    /// `SNAPSHOT_AT_LATEST` entries, busy or not.
    pub fn snapshot_due(&self, busy: bool) -> bool {
        let Some(game) = &self.game else { return false };
        let behind = game.log_len().saturating_sub(self.snapshot_len);
        if behind == 0 {
            return false;
        }
        behind >= super::SNAPSHOT_AT_LATEST
            || (!busy && (behind >= super::SNAPSHOT_EVERY || game.result().is_some()))
    }

    /// Refused if `name` looks like, but is not, the name of whoever else
    /// sits at the table, or whom a seat or the host seat is kept for
    /// (issue 70: "a Cyrillic 'Аna'" beside Ana).
    pub fn name_clash(&self, seat: usize, name: &str) -> Result<(), Rejection> {
        let kept = self
            .kept
            .iter()
            .flat_map(|k| k.seats.iter().chain([&k.host]));
        let others = (0..self.seats.len())
            .filter(|&i| i != seat && self.seats[i].occupant != Occupant::Open)
            .flat_map(|i| {
                let words = self.name_of(i).words();
                [words.en, words.zh]
            })
            .chain(kept.flatten().cloned())
            .chain(self.host.iter().map(|h| h.name.clone()));
        for other in others {
            if let Some(why) = crate::names::looks_like(name, &other) {
                return Err(why);
            }
        }
        Ok(())
    }

    /// `name` for a person at `seat`, or, when another person at the
    /// table goes by it already, the name with a number ("Player 2", the
    /// seat's own if free): no two seats at a table share a name (issue
    /// 54: two phones that never chose a name both sat as "Player").
    pub fn distinct_name(&self, seat: usize, name: &str) -> String {
        let taken = |wanted: &str| {
            self.seats.iter().enumerate().any(|(i, s)| {
                i != seat
                    && matches!(&s.occupant, Occupant::Person { name, .. }
                        if name.to_lowercase() == wanted.to_lowercase())
            })
        };
        if !taken(name) {
            return name.to_string();
        }
        (seat + 1..)
            .map(|k| format!("{name} {k}"))
            .find(|candidate| !taken(candidate))
            .expect("a table has fewer seats than numbers")
    }

    /// The name of whoever sits at `seat` (an empty person's name for an
    /// open seat).
    pub fn name_of(&self, seat: usize) -> SeatName {
        match &self.seats[seat].occupant {
            Occupant::Open => SeatName::default(),
            Occupant::Bot { kind, name } => SeatName::Bot {
                kind: kind.clone(),
                number: seat as u16 + 1,
                name: name.clone(),
            },
            Occupant::Person { name, .. } => SeatName::person(name.clone()),
        }
    }

    /// The bot that plays `seat` now: its own bot, or a stand-in for a
    /// person away longer than `takeover_ms`.
    pub fn bot_at(&self, seat: usize, now: u64, takeover_ms: u64) -> Option<&str> {
        let slot = &self.seats[seat];
        match &slot.occupant {
            Occupant::Bot { kind, .. } => Some(kind.as_str()),
            Occupant::Person { .. } if self.stands_in(seat, now, takeover_ms) => {
                bot_kinds(self.settings.game()).first().copied()
            }
            _ => None,
        }
    }

    /// Whether time alone has changed what the lobby last sent says: an
    /// away person's seat now has a stand-in, or a hold has run out. (A
    /// hall asks at every tick while anyone is away; building the whole
    /// lobby to compare it cost a tenth of a hall's time.)
    pub fn lobby_aged(&self, now: u64, takeover_ms: u64) -> bool {
        let Some(last) = &self.last_lobby else {
            return true;
        };
        last.paused != self.stopped(now)
            || self.seats.iter().enumerate().any(|(i, slot)| {
                slot.away_since.is_some()
                    && match last.seats.get(i).map(|s| &s.kind) {
                        Some(SeatKind::Person { stand_in, .. }) => {
                            *stand_in != self.stands_in(i, now, takeover_ms)
                        }
                        _ => true,
                    }
            })
    }

    pub fn stands_in(&self, seat: usize, now: u64, takeover_ms: u64) -> bool {
        let slot = &self.seats[seat];
        matches!(slot.occupant, Occupant::Person { .. })
            && slot.client.is_none()
            && slot
                .away_since
                .is_some_and(|t| now.saturating_sub(t) >= takeover_ms)
    }

    /// The replay viewer a seat proof proves (for the connection's
    /// `challenge`): a person's seat, or the host seat (everything); at a
    /// finished table opened to everyone, any of them sees everything.
    pub fn viewer_proved(&self, challenge: &str, proof: &str) -> Option<crate::replay::Viewer> {
        use crate::replay::Viewer;
        let viewer = match self.proved(challenge, crate::seal::ProofFor::Replay, proof)? {
            Role::Host => Viewer::Everything,
            Role::Player(seat) => Viewer::Seat(seat),
            Role::Spectator => return None,
        };
        Some(self.replay_viewer(viewer))
    }

    /// What `viewer` may see in a replay of this table now: everything
    /// once it is over, if it was created open.
    pub fn replay_viewer(&self, viewer: crate::replay::Viewer) -> crate::replay::Viewer {
        if self.open_replays && self.is_over() {
            crate::replay::Viewer::Everything
        } else {
            viewer
        }
    }

    /// The place whose token `proof` proves for a connection's
    /// `challenge` (`seal::seat_proof`): a person's seat or the host seat.
    /// Each token is tried (at most 13 seats and the host), so the proof
    /// names no seat and a wrong one learns nothing.
    pub fn proved(
        &self,
        challenge: &str,
        what: crate::seal::ProofFor,
        proof: &str,
    ) -> Option<Role> {
        let proves = |token: &str| crate::seal::proves(token, challenge, self.id, what, proof);
        if self.host.as_ref().is_some_and(|h| proves(&h.token)) {
            return Some(Role::Host);
        }
        self.seats
            .iter()
            .position(|s| matches!(&s.occupant, Occupant::Person { token, .. } if proves(token)))
            .map(|i| Role::Player(SeatId(i as u8)))
    }

    pub fn lobby(&self, now: u64, takeover_ms: u64) -> LobbyState {
        LobbyState {
            id: self.id,
            settings: self.settings.clone(),
            seats: (0..self.seats.len())
                .map(|i| {
                    let slot = &self.seats[i];
                    let kept = self.kept.as_ref().and_then(|k| k.seats.get(i)?.clone());
                    if let Some(name) = kept.filter(|_| slot.occupant == Occupant::Open) {
                        return SeatInfo {
                            seat: SeatId(i as u8),
                            name: SeatName::person(name),
                            kind: SeatKind::Kept,
                        };
                    }
                    SeatInfo {
                        seat: SeatId(i as u8),
                        name: self.name_of(i),
                        kind: match &slot.occupant {
                            Occupant::Open => SeatKind::Open,
                            Occupant::Bot { kind, .. } => SeatKind::Bot { kind: kind.clone() },
                            Occupant::Person { ready, .. } => SeatKind::Person {
                                ready: *ready,
                                connected: slot.client.is_some(),
                                stand_in: self.stands_in(i, now, takeover_ms),
                            },
                        },
                    }
                })
                .collect(),
            host: self.has_host_seat.then(|| {
                self.host
                    .as_ref()
                    .map(|h| h.name.clone())
                    .unwrap_or_default()
            }),
            owner: self.owner,
            started: self.started(),
            result: self.result(),
            bot_kinds: bot_kinds(self.settings.game())
                .iter()
                .map(|k| k.to_string())
                .collect(),
            spectators: self.spectators.len() as u32,
            paused: self.stopped(now),
            unsaved: self.unsaved.clone(),
            host_runs: self.host_runs,
            open_replays: self.open_replays,
            again_until: self
                .kept
                .as_ref()
                .filter(|_| !self.started())
                .map(|k| k.until),
        }
    }

    pub fn summary(&self) -> TableSummary {
        let open = (0..self.seats.len())
            .filter(|&i| self.seats[i].occupant == Occupant::Open && !self.is_kept(i))
            .count();
        TableSummary {
            id: self.id,
            game: self.settings.game(),
            seats: self.seats.len() as u8,
            open_seats: open as u8,
            host_seat_open: self.has_host_seat && self.host.is_none(),
            started: self.started(),
            over: self.is_over(),
            open_replays: self.open_replays,
            players: (0..self.seats.len())
                .filter(|&i| self.seats[i].occupant != Occupant::Open)
                .map(|i| self.name_of(i))
                .collect(),
            away: self.seats.iter().filter(|s| s.away_since.is_some()).count() as u8,
        }
    }

    pub fn record(&self) -> TableRecord {
        TableRecord {
            format: RECORD_FORMAT,
            id: self.id,
            settings: self.settings.clone(),
            seed: self.seed,
            has_host_seat: self.has_host_seat,
            host: self.host.clone(),
            host_code: self.host_code.clone(),
            seats: self.seats.iter().map(|s| s.occupant.clone()).collect(),
            owner: self.owner,
            snapshot: self.game.as_ref().map(|g| g.snapshot_ron()),
            open_replays: self.open_replays,
        }
    }
}

/// Bumped whenever the record layout changes.
pub const RECORD_FORMAT: u32 = 1;

/// A table as saved in the server's data directory: its seating and, once
/// started, the game's whole snapshot (seed, action log, state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRecord {
    pub format: u32,
    pub id: TableId,
    pub settings: AnySettings,
    pub seed: u64,
    pub has_host_seat: bool,
    pub host: Option<HostSlot>,
    /// The code that takes the open host seat before the start.
    #[serde(default)]
    pub host_code: Option<String>,
    pub seats: Vec<Occupant>,
    pub owner: Option<SeatId>,
    /// `TableSnapshot` RON of the game, once started.
    pub snapshot: Option<String>,
    /// Replays open to everyone once the game is over.
    #[serde(default)]
    pub open_replays: bool,
}

/// The store id of a table.
pub fn store_id(id: TableId) -> String {
    format!("table-{id}")
}
