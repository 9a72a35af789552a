//! What travels between a client and the server. Every message is typed:
//! bytes that do not decode to one of these are dropped by the transport,
//! and a decoded message that makes no sense is answered with `Rejected`.
//!
//! Secrecy is a property of these types and of who they are sent to: a
//! seat's `View` carries only what that seat may know, `Feed` carries the
//! public announcements and that seat's own private notes, and only the
//! host seat ever receives `HostView`.

use foodweb_rules::table::{Announcement, GameResult, PrivateNote, SeatId, SeatName};
use foodweb_rules::{Bilingual, GameId};
use serde::{Deserialize, Serialize};

use crate::games::{AnyAction, AnySettings, AnyView};
pub use crate::replay::REPLAY_PART_STEPS;

/// Bumped whenever a message changes shape.
pub const PROTOCOL_VERSION: u32 = 14;

/// Tables are numbered by the server from 1.
pub type TableId = u32;

/// How a client sits at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Plays a seat and sees that seat's view.
    Player(SeatId),
    /// The seeds' human host: sees every seat, acts for none.
    Host,
    /// Sees only what is public.
    Spectator,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// The first message: who is here. Names are public.
    Hello {
        name: String,
        version: u32,
    },
    /// Takes back the place at `table` a token was given for (after a
    /// drop or a server restart), proved for this connection's challenge
    /// (`seal::seat_proof` with `ProofFor::Resume`): the token itself is
    /// never sent again, and a proof is good on one connection only.
    Resume {
        table: TableId,
        proof: String,
    },
    /// Asks for the open tables again.
    ListTables,
    /// Opens a table of the settings' game and seats the creator at seat 1.
    CreateTable {
        settings: AnySettings,
        seats: u8,
        /// Whether the table has a host seat (sees everything, acts for none).
        host_seat: bool,
        /// Deal number; `None` lets the server pick one.
        seed: Option<u64>,
        /// Once the game is over, everyone who sat at the table (and who
        /// watches it) may replay it with everything shown, and have its
        /// record; otherwise each seat replays only its own views.
        #[serde(default)]
        open_replays: bool,
    },
    /// Takes the given seat, or any open one (`None`).
    TakeSeat {
        table: TableId,
        seat: Option<SeatId>,
    },
    /// Takes the open host seat of a table that has not started, with the
    /// code its owner was shown; the owner, seated at that table, moves to
    /// it (and runs the table from there).
    TakeHostSeat {
        table: TableId,
        code: String,
    },
    Watch {
        table: TableId,
    },
    Leave,
    SetName {
        name: String,
    },
    SetReady {
        ready: bool,
    },
    /// Before the start: puts a bot of `kind` at an open seat (named `name`,
    /// or after its kind), or opens a bot's seat again (`kind: None`). Only
    /// the table's owner may.
    SetBot {
        seat: SeatId,
        kind: Option<String>,
        name: Option<String>,
    },
    /// Before the start: puts bots of `kind` at every open seat.
    FillWithBots {
        kind: String,
    },
    /// Starts the game once every seat is taken and every person is ready.
    Start,
    /// A move in the game, for the sender's own seat.
    Act {
        action: AnyAction,
    },
    /// The host seat sets the table's pace: `Pause` stops its clock and
    /// its bots until `Resume`; `Hold` stops them for `secs` seconds (5 to
    /// 600), which gives every running deadline that much more time.
    Pace {
        pace: Pace,
    },
    /// "Learn to play": opens the game's guided first game, the sender
    /// at seat 1 and scripted players named `names` at the others, and
    /// starts it. It is kept in memory only, and over when the sender
    /// leaves.
    Learn {
        game: GameId,
        names: Vec<String>,
    },
    /// Asks for the replay of the table the sender is at, from step
    /// `from` on: its own seat's views (the host seat, or anyone at a
    /// finished table opened to everyone: everything). With `past`, of a
    /// table the sender sat at before, proved by the seat's token. The
    /// answer comes in parts (`ReplayPart`), each of at most
    /// `REPLAY_PART_STEPS` steps.
    GetReplay {
        from: u32,
        #[serde(default)]
        past: Option<PastSeat>,
    },
    /// Asks for the hall's clock (`Pong`), with the client's own time
    /// (milliseconds) to be sent back: the round trip it measures bounds
    /// the error of the clock offset it estimates.
    Ping {
        sent_ms: u64,
    },
    /// After a game, sits the sender at the next table of the same
    /// settings and people (issue 69): the first to ask opens it, each
    /// seat kept for its person a minute; it starts once all are back,
    /// when the minute is up (bots take the rest), or when its owner starts
    /// it. Answered as a seat is (`Joined`, `Lobby`).
    PlayAgain,
}

/// A seat someone sat at: the table, and the proof for this connection's
/// challenge (`seal::seat_proof` with `ProofFor::Replay`) of the token the
/// seat was given (`Joined::token`), which only its person has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PastSeat {
    pub table: TableId,
    pub proof: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pace {
    Pause,
    Resume,
    Hold { secs: u16 },
}

/// A line in the list of tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSummary {
    pub id: TableId,
    pub game: GameId,
    pub seats: u8,
    pub open_seats: u8,
    pub host_seat_open: bool,
    pub started: bool,
    pub over: bool,
    /// Replays open to everyone once the game is over.
    #[serde(default)]
    pub open_replays: bool,
    pub players: Vec<SeatName>,
    /// Seats whose person is away in a game under way (a bot plays each
    /// until they return): issue 68.
    #[serde(default)]
    pub away: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    Open,
    Bot {
        kind: String,
    },
    Person {
        ready: bool,
        connected: bool,
        /// A bot plays the seat while its person is away.
        stand_in: bool,
    },
    /// Kept by "Play again" for whoever had it at the last game (its
    /// name is theirs), until they sit or the time is up.
    Kept,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: SeatId,
    pub name: SeatName,
    pub kind: SeatKind,
}

/// Everything public about one table's seating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyState {
    pub id: TableId,
    pub settings: AnySettings,
    pub seats: Vec<SeatInfo>,
    /// `Some(name)` when the host seat is taken, `Some("")` when it is open.
    pub host: Option<String>,
    pub owner: Option<SeatId>,
    pub started: bool,
    pub result: Option<GameResult>,
    pub bot_kinds: Vec<String>,
    pub spectators: u32,
    /// The host seat stopped the table's clock (and its bots): paused, or
    /// a deadline held.
    #[serde(default)]
    pub paused: bool,
    /// The server cannot save the table (the store's error): the game
    /// waits, and goes on by itself once a save succeeds.
    #[serde(default)]
    pub unsaved: Option<String>,
    /// The host seat runs the table (its owner moved there before the
    /// start, to play host on a big screen).
    #[serde(default)]
    pub host_runs: bool,
    /// Replays open to everyone once the game is over.
    #[serde(default)]
    pub open_replays: bool,
    /// A "Play again" table: when (hall milliseconds) the seats still kept
    /// go to bots and it starts (issue 69).
    #[serde(default)]
    pub again_until: Option<u64>,
}

impl LobbyState {
    /// How many seats persons hold.
    pub fn persons(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| matches!(s.kind, SeatKind::Person { .. }))
            .count()
    }

    /// Whether `seat`'s person is away from the running game: their
    /// connection went, the seat is still theirs, and a bot stands in after
    /// the table's delay until they come back.
    pub fn away(&self, seat: SeatId) -> bool {
        self.started
            && self.result.is_none()
            && self.seats.get(seat.index()).is_some_and(|s| {
                matches!(
                    s.kind,
                    SeatKind::Person {
                        connected: false,
                        ..
                    }
                )
            })
    }

    /// Whether every seat is filled and every person but `owner` (who
    /// starts the game) is ready: what a start needs.
    pub fn ready_to_start(&self, owner: SeatId) -> bool {
        self.seats.iter().enumerate().all(|(i, s)| match s.kind {
            SeatKind::Open => false,
            // A bot takes a kept seat when the owner starts.
            SeatKind::Bot { .. } | SeatKind::Kept => true,
            SeatKind::Person { ready, .. } => ready || i == owner.index(),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ServerMsg {
    Welcome {
        server: String,
        version: u32,
        name: String,
        /// This connection's challenge (hex): seat proofs are made for it
        /// (`Resume`, `PastSeat`), so a recorded proof opens nothing on
        /// another connection.
        challenge: String,
    },
    Tables {
        tables: Vec<TableSummary>,
    },
    /// You are at a table. Keep the token: it takes the place back after a
    /// drop or a server restart. It comes once, when the place is first
    /// taken (`None` when it is taken back, or for a spectator).
    Joined {
        table: TableId,
        role: Role,
        token: Option<String>,
    },
    /// You are no longer at a table.
    Left,
    Lobby(LobbyState),
    /// Your whole view, sent whenever it changed. `revision` orders views.
    View {
        table: TableId,
        revision: u64,
        view: AnyView,
        /// The hall's clock (milliseconds) when the view was made: the
        /// view's table time stood there then, so every device counts its
        /// deadlines down from the same moment (with `Pong`'s offset).
        hall_ms: u64,
    },
    /// The host seat's view: every seat's view and the public one.
    HostView {
        table: TableId,
        revision: u64,
        seats: Vec<AnyView>,
        public: AnyView,
        /// As `View::hall_ms`.
        hall_ms: u64,
    },
    /// Announcements and notes from the given positions on; a feed from
    /// position 0 replaces what the client had.
    Feed {
        table: TableId,
        public_from: u32,
        public: Vec<Announcement>,
        notes_from: u32,
        notes: Vec<PrivateNote>,
    },
    /// To the table's owner only: the code that takes the table's open host
    /// seat before the start (the owner passes it to whoever will host).
    HostCode {
        table: TableId,
        code: String,
    },
    /// A part of the replay asked for (`GetReplay`): steps `from` to
    /// `from + steps.len()` of `total`.
    ReplayPart {
        table: TableId,
        game: foodweb_rules::GameId,
        viewer: crate::replay::Viewer,
        /// With the first part only (`from` 0): the names, the log as the
        /// viewer heard it, and for everything the table's record.
        head: Option<Box<crate::replay::ReplayHead>>,
        finished: bool,
        total: u32,
        from: u32,
        steps: Vec<crate::replay::ReplayStep>,
    },
    /// The lesson at your table, when it moves on (`Learn`): the step,
    /// what to do and why, what the screen marks, or its summary.
    Lesson {
        table: TableId,
        now: foodweb_rules::lesson::LessonNow,
    },
    /// Your last `Act` was accepted.
    Accepted,
    /// Your last message was refused; nothing changed.
    Rejected {
        reason: Bilingual,
    },
    /// The name the server now knows you by (`SetName`; a name another
    /// seat at your table goes by gets a number).
    Named {
        name: String,
    },
    /// The answer to `Ping`: the client's own stamp back, and the hall's
    /// clock (milliseconds) when it answered, from which the client
    /// estimates how far the hall's clock is from its own.
    Pong {
        sent_ms: u64,
        hall_ms: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::forest::ForestSettings;

    fn lobby(kinds: Vec<SeatKind>) -> LobbyState {
        LobbyState {
            id: 1,
            settings: AnySettings::Forest(ForestSettings::default()),
            seats: kinds
                .into_iter()
                .enumerate()
                .map(|(i, kind)| SeatInfo {
                    seat: SeatId(i as u8),
                    name: format!("seat {}", i + 1).into(),
                    kind,
                })
                .collect(),
            host: None,
            owner: Some(SeatId(0)),
            started: false,
            result: None,
            bot_kinds: Vec::new(),
            spectators: 0,
            unsaved: None,
            paused: false,
            host_runs: false,
            open_replays: false,
            again_until: None,
        }
    }

    fn person(ready: bool) -> SeatKind {
        SeatKind::Person {
            ready,
            connected: true,
            stand_in: false,
        }
    }

    /// The hall's start rule (`Hall::start`): no seat may be empty, and
    /// every person but the owner, whose start counts as ready, is ready.
    #[test]
    fn a_start_needs_every_seat_filled_and_every_other_person_ready() {
        let bot = || SeatKind::Bot {
            kind: "memory".into(),
        };
        let full = lobby(vec![person(false), person(true), bot()]);
        assert_eq!(full.persons(), 2);
        assert!(full.ready_to_start(SeatId(0)));
        assert!(!full.ready_to_start(SeatId(1)), "seat 1 is not ready");
        let open = lobby(vec![person(false), SeatKind::Open, bot()]);
        assert_eq!(open.persons(), 1);
        assert!(!open.ready_to_start(SeatId(0)));
    }
}
