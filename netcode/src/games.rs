//! The games a server can host, behind one object-safe interface, so the
//! hall (lobby, seats, bots, saving) is written once for every game. The
//! registry comes from the one list of games (`any::hosted_games!`), as
//! do the wire types (`any.rs`), re-exported here.

use std::marker::PhantomData;

use foodweb_rules::GameId;
use foodweb_rules::bot::Bot;
use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::forest::ForestGame;
use foodweb_rules::gene::GeneGame;
use foodweb_rules::lesson::{LessonNow, LessonRun, lesson_text};
use foodweb_rules::table::{
    Announcements, GameResult, LogEntry, Rejection, SeatId, SeatName, Seats, SnapshotError, Table,
    TableConfig, TableSnapshot,
};
use foodweb_rules::wanning::WanningGame;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use crate::any::{AnyAction, AnySettings, AnyView, HostGame};
use crate::replay::{REPLAY_FORMAT, Replay, ReplayError, ReplayStep, Viewer};

/// The registry of the listed games.
macro_rules! registry {
    ($($id:ident: $game:ty, $bots:path;)*) => {
        /// The hosted games, for the hall to look up by id.
        static GAMES: &[&(dyn GameEntry + Sync)] = &[$(&Entry::<$game>(PhantomData),)*];
    };
}
crate::any::hosted_games!(registry);

/// A hosted game, as the hall looks it up by its id: every entry point
/// that needs the game's type, behind one object.
trait GameEntry {
    fn id(&self) -> GameId;
    fn bot_kinds(&self) -> &'static [&'static str];
    fn new_table(
        &self,
        settings: &AnySettings,
        seed: u64,
        names: Vec<SeatName>,
    ) -> Result<Box<dyn HostedTable>, Rejection>;
    fn new_lesson(&self, names: Vec<SeatName>) -> Result<Box<dyn HostedTable>, Rejection>;
    fn lesson_players(&self) -> Option<usize>;
    fn restore(&self, ron: &str) -> Result<Box<dyn HostedTable>, SnapshotError>;
    fn replay(&self, ron: &str) -> Result<Box<dyn HostedTable>, String>;
    fn bot_move(&self, kind: &str, view: &AnyView, rng: &mut ChaCha8Rng) -> Option<AnyAction>;
    fn replay_steps(&self, ron: &str, viewer: Viewer) -> Result<Replay, String>;
}

struct Entry<G>(PhantomData<G>);

impl<G: HostGame> GameEntry for Entry<G> {
    fn id(&self) -> GameId {
        G::ID
    }
    fn bot_kinds(&self) -> &'static [&'static str] {
        G::bot_kinds()
    }
    fn new_table(
        &self,
        settings: &AnySettings,
        seed: u64,
        names: Vec<SeatName>,
    ) -> Result<Box<dyn HostedTable>, Rejection> {
        let settings = G::unwrap_settings(settings)
            .ok_or_else(|| unknown_game(settings.game()))?
            .clone();
        let config = TableConfig::<G> {
            seed,
            seats: Seats { names },
            settings,
        };
        Ok(Box::new(Hosted::new(Table::new(config)?)))
    }
    fn new_lesson(&self, names: Vec<SeatName>) -> Result<Box<dyn HostedTable>, Rejection> {
        let broken = |e: String| Rejection::new(e, "这一课的文件有误");
        let text = lesson_text(G::ID).ok_or_else(|| no_lesson(G::ID))?;
        let lesson = LessonRun::<G>::parse(text).map_err(broken)?;
        let (table, run) = LessonRun::start(lesson, names).map_err(broken)?;
        let mut hosted = Hosted::new(table);
        hosted.lesson = Some(run);
        Ok(Box::new(hosted))
    }
    fn lesson_players(&self) -> Option<usize> {
        let lesson = LessonRun::<G>::parse(lesson_text(G::ID)?).ok()?;
        Some(lesson.players)
    }
    fn restore(&self, ron: &str) -> Result<Box<dyn HostedTable>, SnapshotError> {
        Ok(Box::new(Hosted::new(Table::<G>::from_saved(ron)?)))
    }
    fn replay(&self, ron: &str) -> Result<Box<dyn HostedTable>, String> {
        let snapshot = TableSnapshot::<G>::from_ron(ron).map_err(|e| e.to_string())?;
        let table = Table::replay(snapshot.config, None, &snapshot.log, snapshot.clock_ms)
            .map_err(|e| e.to_string())?;
        Ok(Box::new(Hosted::new(table)))
    }
    fn bot_move(&self, kind: &str, view: &AnyView, rng: &mut ChaCha8Rng) -> Option<AnyAction> {
        let view = G::unwrap_view(view)?;
        G::bot(kind)?.act(view, rng).map(G::wrap_action)
    }
    /// The game dealt again from its seed and played again move by move,
    /// deadlines falling at their times; after each change (a new
    /// revision) the viewer's view is kept.
    fn replay_steps(&self, ron: &str, viewer: Viewer) -> Result<Replay, String> {
        let snapshot = TableSnapshot::<G>::from_ron(ron).map_err(|e| e.to_string())?;
        let mut table = Table::<G>::new(snapshot.config.clone()).map_err(|e| e.to_string())?;
        let mut steps: Vec<ReplayStep> = Vec::new();
        // The seat's notes counted so far, and how many of the table's
        // that count covers: each step counts only the new ones.
        let (mut counted, mut mine) = (0usize, 0usize);
        let mut note = |t: &Table<G>| {
            let said = t.announcements();
            let revision = (t.log().entries.len() + said.public.len() + said.private.len()) as u64;
            if steps.last().is_some_and(|s| s.revision == revision) {
                return;
            }
            // A seat's own view; for everything, what the host seat is
            // sent: the host's view and every seat's.
            let (view, seats, notes) = match viewer {
                Viewer::Seat(seat) => {
                    mine += said.private[counted..]
                        .iter()
                        .filter(|n| n.seat == seat)
                        .count();
                    counted = said.private.len();
                    (G::view(t.world(), Some(seat)), Vec::new(), mine)
                }
                Viewer::Everything => (
                    G::host_view(t.world()),
                    (0..t.config().seats.count())
                        .map(|i| G::wrap_view(G::view(t.world(), Some(SeatId(i as u8)))))
                        .collect(),
                    said.private.len(),
                ),
            };
            steps.push(ReplayStep {
                revision,
                at_ms: t.now_ms(),
                view: G::wrap_view(view),
                seats,
                public: said.public.len() as u32,
                notes: notes as u32,
            });
        };
        note(&table);
        for (i, entry) in snapshot.log.entries.iter().enumerate() {
            match entry {
                LogEntry::Act {
                    at_ms,
                    seat,
                    action,
                } => {
                    table.advance_to(*at_ms);
                    note(&table);
                    table
                        .submit(*seat, action.clone())
                        .map_err(|e| format!("log entry {i} was refused on replay: {e}"))?;
                }
                LogEntry::Auto { at_ms, .. } => table.advance_to(*at_ms),
            }
            note(&table);
        }
        table.advance_to(snapshot.clock_ms);
        note(&table);
        let said = table.announcements();
        let (notes, record) = match viewer {
            Viewer::Seat(seat) => (
                said.private
                    .iter()
                    .filter(|n| n.seat == seat)
                    .cloned()
                    .collect(),
                None,
            ),
            Viewer::Everything => (said.private.clone(), Some(ron.to_string())),
        };
        Ok(Replay {
            format: REPLAY_FORMAT,
            game: G::ID,
            viewer,
            names: snapshot.config.seats.names.clone(),
            finished: table.result().is_some(),
            steps,
            public: said.public.clone(),
            notes,
            record,
        })
    }
}

/// The hosted game with this id.
fn entry(game: GameId) -> Option<&'static (dyn GameEntry + Sync)> {
    GAMES.iter().copied().find(|e| e.id() == game)
}

/// Bot kinds a game's seats can be given; the first is the best player.
pub fn bot_kinds(game: GameId) -> &'static [&'static str] {
    entry(game).map_or(&[], |e| e.bot_kinds())
}

/// `wanted` if `game` has a bot of that kind, else its best: a seat told
/// to play Forest's "memory" at a Wanning table plays Wanning's best.
pub fn bot_kind_for(game: GameId, wanted: &str) -> &str {
    let kinds = bot_kinds(game);
    if kinds.contains(&wanted) {
        wanted
    } else {
        kinds.first().copied().unwrap_or("random")
    }
}

/// One accepted action as the hall's journal keeps it: appended (and
/// flushed to disk) before its sender hears it was accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Its place in the table's action log.
    pub index: usize,
    pub at_ms: u64,
    pub seat: SeatId,
    pub action: AnyAction,
}

/// A table of some game, driven by the hall.
pub trait HostedTable {
    fn game(&self) -> GameId;
    fn seats(&self) -> usize;
    fn submit(&mut self, seat: SeatId, action: &AnyAction) -> Result<(), Rejection>;
    fn advance_to(&mut self, now_ms: u64);
    fn now_ms(&self) -> u64;
    /// The table time of its earliest pending deadline, if any.
    fn next_deadline(&self) -> Option<u64>;
    fn view(&self, seat: Option<SeatId>) -> AnyView;
    /// What the host seat sees of the whole table (`Game::host_view`).
    fn host_view(&self) -> AnyView;
    fn to_act(&self) -> Vec<SeatId>;
    fn result(&self) -> Option<GameResult>;
    fn announcements(&self) -> &Announcements;
    /// Grows with every change a seat could see: an entry in the action
    /// log (accepted or automatic) or a new announcement or note.
    fn revision(&self) -> u64;
    /// The whole table as RON (`TableSnapshot`).
    fn snapshot_ron(&self) -> String;
    /// Entries in the action log (accepted and automatic).
    fn log_len(&self) -> usize;
    /// The accepted actions from log position `from` on.
    fn journal_from(&self, from: usize) -> Vec<JournalEntry>;
    /// Plays a journalled action again: moves the clock to its time (which
    /// fires the same deadlines as before) and submits it.
    fn replay_entry(&mut self, entry: &JournalEntry) -> Result<(), String>;
    /// The table's rule variant.
    fn settings(&self) -> AnySettings;
    /// The lesson this table follows (`Learn`), as the learner is told it.
    fn lesson(&self) -> Option<LessonNow>;
    /// A lesson's next step that is not the learner's (a scripted move,
    /// the clock moved on). `None`: no such step now (or no lesson).
    fn lesson_step(&mut self) -> Option<Result<(), String>>;
    /// Lets a bot of `kind` act at `seat` if the table waits on it; the
    /// bot sees only that seat's view. `None`: nothing to do.
    fn bot_act(
        &mut self,
        seat: SeatId,
        kind: &str,
        rng: &mut ChaCha8Rng,
    ) -> Option<Result<(), Rejection>>;
}

/// A bot playing a seat, and its kind.
type SeatBot<G> = (String, Box<dyn Bot<G>>);

struct Hosted<G: HostGame> {
    table: Table<G>,
    bots: Vec<Option<SeatBot<G>>>,
    lesson: Option<LessonRun<G>>,
}

impl<G: HostGame> Hosted<G> {
    fn new(table: Table<G>) -> Self {
        let seats = table.config().seats.count();
        Self {
            table,
            bots: (0..seats).map(|_| None).collect(),
            lesson: None,
        }
    }
}

impl<G: HostGame> HostedTable for Hosted<G> {
    fn game(&self) -> GameId {
        G::ID
    }
    fn seats(&self) -> usize {
        self.table.config().seats.count()
    }
    fn submit(&mut self, seat: SeatId, action: &AnyAction) -> Result<(), Rejection> {
        let Some(action) = G::unwrap_action(action) else {
            return Err(Rejection::new(
                format!("that is not an action of {}", G::ID.title().en),
                format!("这不是{}的行动", G::ID.title().zh),
            ));
        };
        match &mut self.lesson {
            Some(lesson) => lesson.submit(&mut self.table, seat, action.clone()),
            None => self.table.submit(seat, action.clone()),
        }
    }
    fn advance_to(&mut self, now_ms: u64) {
        self.table.advance_to(now_ms);
    }
    fn now_ms(&self) -> u64 {
        self.table.now_ms()
    }
    fn next_deadline(&self) -> Option<u64> {
        self.table.next_deadline()
    }
    fn view(&self, seat: Option<SeatId>) -> AnyView {
        G::wrap_view(G::view(self.table.world(), seat))
    }
    fn host_view(&self) -> AnyView {
        G::wrap_view(G::host_view(self.table.world()))
    }
    fn to_act(&self) -> Vec<SeatId> {
        self.table.to_act()
    }
    fn result(&self) -> Option<GameResult> {
        self.table.result()
    }
    fn announcements(&self) -> &Announcements {
        self.table.announcements()
    }
    fn revision(&self) -> u64 {
        let said = self.table.announcements();
        // A lesson's steps count too: its last words change no table.
        let lesson = self.lesson.as_ref().map_or(0, LessonRun::position);
        (self.table.log_len() + said.public.len() + said.private.len() + lesson) as u64
    }
    fn snapshot_ron(&self) -> String {
        self.table.snapshot().to_ron()
    }
    fn log_len(&self) -> usize {
        self.table.log_len()
    }
    fn journal_from(&self, from: usize) -> Vec<JournalEntry> {
        let entries = &self.table.log().entries;
        (from.min(entries.len())..entries.len())
            .filter_map(|index| match &entries[index] {
                LogEntry::Act {
                    at_ms,
                    seat,
                    action,
                } => Some(JournalEntry {
                    index,
                    at_ms: *at_ms,
                    seat: *seat,
                    action: G::wrap_action(action.clone()),
                }),
                LogEntry::Auto { .. } => None,
            })
            .collect()
    }
    fn replay_entry(&mut self, entry: &JournalEntry) -> Result<(), String> {
        self.table.advance_to(entry.at_ms);
        if self.log_len() != entry.index {
            return Err(format!(
                "journal entry {} does not follow the log (which has {} entries)",
                entry.index,
                self.log_len()
            ));
        }
        self.submit(entry.seat, &entry.action)
            .map_err(|e| format!("journal entry {} is refused: {e}", entry.index))
    }
    fn settings(&self) -> AnySettings {
        G::wrap_settings(self.table.config().settings.clone())
    }
    fn lesson(&self) -> Option<LessonNow> {
        self.lesson.as_ref().map(LessonRun::now)
    }
    fn lesson_step(&mut self) -> Option<Result<(), String>> {
        self.lesson.as_mut()?.auto_step(&mut self.table)
    }
    fn bot_act(
        &mut self,
        seat: SeatId,
        kind: &str,
        rng: &mut ChaCha8Rng,
    ) -> Option<Result<(), Rejection>> {
        if self.lesson.is_some() || !self.table.to_act().contains(&seat) {
            return None;
        }
        let slot = self.bots.get_mut(seat.index())?;
        if slot.as_ref().is_none_or(|(k, _)| k != kind) {
            *slot = Some((kind.to_string(), G::bot(kind)?));
        }
        let (_, bot) = slot.as_mut()?;
        let view = self.table.view(seat);
        let action = bot.act(&view, rng)?;
        Some(self.table.submit(seat, action))
    }
}

fn unknown_game(game: GameId) -> Rejection {
    Rejection::new(
        format!("{} cannot be played here yet", game.title().en),
        format!("这里还不能玩{}", game.title().zh),
    )
}

fn no_lesson(game: GameId) -> Rejection {
    Rejection::new(
        format!("{} has no guided game yet", game.title().en),
        format!("{}还没有教学对局", game.title().zh),
    )
}

/// Deals the game's lesson table (`Learn`): the learner at seat 1, the
/// scripted players named `names` at the others.
pub fn new_lesson(game: GameId, names: Vec<SeatName>) -> Result<Box<dyn HostedTable>, Rejection> {
    entry(game)
        .ok_or_else(|| no_lesson(game))?
        .new_lesson(names)
}

/// How many seats the game's lesson has, if it has one.
pub fn lesson_players(game: GameId) -> Option<usize> {
    entry(game)?.lesson_players()
}

/// Deals a new table of the game the settings belong to.
pub fn new_table(
    settings: &AnySettings,
    seed: u64,
    names: Vec<SeatName>,
) -> Result<Box<dyn HostedTable>, Rejection> {
    let game = settings.game();
    entry(game)
        .ok_or_else(|| unknown_game(game))?
        .new_table(settings, seed, names)
}

/// Rebuilds a table from its saved snapshot.
pub fn restore_table(game: GameId, ron: &str) -> Result<Box<dyn HostedTable>, SnapshotError> {
    entry(game)
        .ok_or_else(|| SnapshotError::Inconsistent(format!("{game} is not hosted by this build")))?
        .restore(ron)
}

/// The same game played again from the snapshot's seed and action log, to
/// the snapshot's clock: what an uninterrupted table would have reached.
pub fn replay_table(game: GameId, ron: &str) -> Result<Box<dyn HostedTable>, String> {
    entry(game)
        .ok_or_else(|| format!("{game} is not hosted by this build"))?
        .replay(ron)
}

/// What a bot of `kind` would do given a seat's view, for clients that let
/// a bot play their seat (headless test clients, "autoplay").
pub fn bot_move(kind: &str, view: &AnyView, rng: &mut ChaCha8Rng) -> Option<AnyAction> {
    entry(view.game())?.bot_move(kind, view, rng)
}

/// The replay of a table from its snapshot (`TableSnapshot` RON), as
/// `viewer` saw it.
pub fn replay(game: GameId, snapshot_ron: &str, viewer: Viewer) -> Result<Replay, ReplayError> {
    entry(game)
        .ok_or_else(|| format!("{game} is not hosted by this build"))
        .and_then(|e| e.replay_steps(snapshot_ron, viewer))
        .map_err(ReplayError::Table)
}

/// Whether the view's seat is being waited on.
pub fn my_turn(view: &AnyView) -> bool {
    view.seat().to_act()
}

/// Whether the game in the view is over.
pub fn view_over(view: &AnyView) -> bool {
    view.seat().result().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat told a kind its table's game has plays that kind; told
    /// another game's kind, its own game's best (issue 68's party: a
    /// headless client with `--play memory` at a Wanning table sent no
    /// move at all).
    #[test]
    fn a_bot_kind_of_another_game_plays_this_games_best() {
        assert_eq!(bot_kind_for(GameId::Forest, "memory"), "memory");
        let best = bot_kinds(GameId::Wanning)[0];
        assert_eq!(bot_kind_for(GameId::Wanning, "memory"), best);
        assert!(bot_kinds(GameId::Wanning).contains(&"random"));
        assert_eq!(bot_kind_for(GameId::Wanning, "random"), "random");
    }
}
