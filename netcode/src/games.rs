//! The games a server can host, behind one object-safe interface, so the
//! hall (lobby, seats, bots, saving) is written once for every game.
//!
//! On the wire a game's actions, views and settings travel inside the
//! `Any*` enums: one variant per playable game, so a message that names a
//! game the server does not host cannot even be decoded.

use foodweb_rules::GameId;
use foodweb_rules::bot::Bot;
use foodweb_rules::crueler::{self, CruelerAction, CruelerGame, CruelerSettings, CruelerView};
use foodweb_rules::forest::{self, ForestAction, ForestGame, ForestSettings, ForestView};
use foodweb_rules::gene::{self, GeneAction, GeneGame, GeneSettings, GeneView};
use foodweb_rules::table::{
    Announcements, Game, GameResult, LogEntry, Rejection, SeatId, Seats, SnapshotError, Table,
    TableConfig, TableSnapshot,
};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// An action of any hosted game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyAction {
    Forest(ForestAction),
    Gene(GeneAction),
    Crueler(CruelerAction),
}

/// One seat's view (or a spectator's) of any hosted game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyView {
    Forest(ForestView),
    Gene(Box<GeneView>),
    Crueler(Box<CruelerView>),
}

/// The rule variant a table is created with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnySettings {
    Forest(ForestSettings),
    Gene(GeneSettings),
    Crueler(CruelerSettings),
}

impl AnySettings {
    pub fn game(&self) -> GameId {
        match self {
            AnySettings::Forest(_) => GameId::Forest,
            AnySettings::Gene(_) => GameId::Gene,
            AnySettings::Crueler(_) => GameId::Crueler,
        }
    }

    /// Whether the variant is one the game can be played with (the check
    /// the game makes when a table starts).
    pub fn check(&self) -> Result<(), Rejection> {
        match self {
            AnySettings::Forest(s) => s.check(),
            AnySettings::Gene(s) => s.check(),
            AnySettings::Crueler(s) => s.check(),
        }
    }

    /// The default variant of a game, if this build hosts it.
    pub fn default_for(game: GameId) -> Option<Self> {
        match game {
            GameId::Forest => Some(AnySettings::Forest(ForestSettings::default())),
            GameId::Gene => Some(AnySettings::Gene(GeneSettings::default())),
            GameId::Crueler => Some(AnySettings::Crueler(CruelerSettings::default())),
            _ => None,
        }
    }
}

impl AnyView {
    pub fn game(&self) -> GameId {
        match self {
            AnyView::Forest(_) => GameId::Forest,
            AnyView::Gene(_) => GameId::Gene,
            AnyView::Crueler(_) => GameId::Crueler,
        }
    }
}

/// What the hall needs of a game beyond the rules: how its types travel
/// inside the `Any*` enums, and which bots can take its seats.
pub trait HostGame: Game<View: for<'de> Deserialize<'de>> {
    fn wrap_action(action: Self::Action) -> AnyAction;
    fn unwrap_action(action: &AnyAction) -> Option<&Self::Action>;
    fn wrap_view(view: Self::View) -> AnyView;
    fn unwrap_settings(settings: &AnySettings) -> Option<&Self::Settings>;
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>>;
    fn bot_kinds() -> &'static [&'static str];
}

impl HostGame for ForestGame {
    fn wrap_action(action: ForestAction) -> AnyAction {
        AnyAction::Forest(action)
    }
    fn unwrap_action(action: &AnyAction) -> Option<&ForestAction> {
        match action {
            AnyAction::Forest(a) => Some(a),
            _ => None,
        }
    }
    fn wrap_view(view: ForestView) -> AnyView {
        AnyView::Forest(view)
    }
    fn unwrap_settings(settings: &AnySettings) -> Option<&ForestSettings> {
        match settings {
            AnySettings::Forest(s) => Some(s),
            _ => None,
        }
    }
    fn bot(kind: &str) -> Option<Box<dyn Bot<ForestGame>>> {
        forest::bots::bot(kind)
    }
    fn bot_kinds() -> &'static [&'static str] {
        &forest::bots::BOT_KINDS
    }
}

impl HostGame for GeneGame {
    fn wrap_action(action: GeneAction) -> AnyAction {
        AnyAction::Gene(action)
    }
    fn unwrap_action(action: &AnyAction) -> Option<&GeneAction> {
        match action {
            AnyAction::Gene(a) => Some(a),
            _ => None,
        }
    }
    fn wrap_view(view: GeneView) -> AnyView {
        AnyView::Gene(Box::new(view))
    }
    fn unwrap_settings(settings: &AnySettings) -> Option<&GeneSettings> {
        match settings {
            AnySettings::Gene(s) => Some(s),
            _ => None,
        }
    }
    fn bot(kind: &str) -> Option<Box<dyn Bot<GeneGame>>> {
        gene::bots::bot(kind)
    }
    fn bot_kinds() -> &'static [&'static str] {
        &gene::bots::BOT_KINDS
    }
}

impl HostGame for CruelerGame {
    fn wrap_action(action: CruelerAction) -> AnyAction {
        AnyAction::Crueler(action)
    }
    fn unwrap_action(action: &AnyAction) -> Option<&CruelerAction> {
        match action {
            AnyAction::Crueler(a) => Some(a),
            _ => None,
        }
    }
    fn wrap_view(view: CruelerView) -> AnyView {
        AnyView::Crueler(Box::new(view))
    }
    fn unwrap_settings(settings: &AnySettings) -> Option<&CruelerSettings> {
        match settings {
            AnySettings::Crueler(s) => Some(s),
            _ => None,
        }
    }
    fn bot(kind: &str) -> Option<Box<dyn Bot<CruelerGame>>> {
        crueler::bots::bot(kind)
    }
    fn bot_kinds() -> &'static [&'static str] {
        &crueler::bots::BOT_KINDS
    }
}

/// Bot kinds a game's seats can be given; the first is the best player.
pub fn bot_kinds(game: GameId) -> &'static [&'static str] {
    match game {
        GameId::Forest => ForestGame::bot_kinds(),
        GameId::Gene => GeneGame::bot_kinds(),
        GameId::Crueler => CruelerGame::bot_kinds(),
        _ => &[],
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
    fn view(&self, seat: Option<SeatId>) -> AnyView;
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
}

impl<G: HostGame> Hosted<G> {
    fn new(table: Table<G>) -> Self {
        let seats = table.config().seats.count();
        Self {
            table,
            bots: (0..seats).map(|_| None).collect(),
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
        self.table.submit(seat, action.clone())
    }
    fn advance_to(&mut self, now_ms: u64) {
        self.table.advance_to(now_ms);
    }
    fn now_ms(&self) -> u64 {
        self.table.now_ms()
    }
    fn view(&self, seat: Option<SeatId>) -> AnyView {
        G::wrap_view(G::view(self.table.world(), seat))
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
        (self.table.log().entries.len() + said.public.len() + said.private.len()) as u64
    }
    fn snapshot_ron(&self) -> String {
        self.table.snapshot().to_ron()
    }
    fn log_len(&self) -> usize {
        self.table.log().entries.len()
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
    fn bot_act(
        &mut self,
        seat: SeatId,
        kind: &str,
        rng: &mut ChaCha8Rng,
    ) -> Option<Result<(), Rejection>> {
        if !self.table.to_act().contains(&seat) {
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

/// Deals a new table of the game the settings belong to.
pub fn new_table(
    settings: &AnySettings,
    seed: u64,
    names: Vec<String>,
) -> Result<Box<dyn HostedTable>, Rejection> {
    fn make<G: HostGame>(
        settings: &AnySettings,
        seed: u64,
        names: Vec<String>,
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
    match settings.game() {
        GameId::Forest => make::<ForestGame>(settings, seed, names),
        GameId::Gene => make::<GeneGame>(settings, seed, names),
        GameId::Crueler => make::<CruelerGame>(settings, seed, names),
        other => Err(unknown_game(other)),
    }
}

/// Rebuilds a table from its saved snapshot.
pub fn restore_table(game: GameId, ron: &str) -> Result<Box<dyn HostedTable>, SnapshotError> {
    fn make<G: HostGame>(ron: &str) -> Result<Box<dyn HostedTable>, SnapshotError> {
        Ok(Box::new(Hosted::new(Table::<G>::from_saved(ron)?)))
    }
    match game {
        GameId::Forest => make::<ForestGame>(ron),
        GameId::Gene => make::<GeneGame>(ron),
        GameId::Crueler => make::<CruelerGame>(ron),
        other => Err(SnapshotError::Inconsistent(format!(
            "{other} is not hosted by this build"
        ))),
    }
}

/// The same game played again from the snapshot's seed and action log, to
/// the snapshot's clock: what an uninterrupted table would have reached.
pub fn replay_table(game: GameId, ron: &str) -> Result<Box<dyn HostedTable>, String> {
    fn make<G: HostGame>(ron: &str) -> Result<Box<dyn HostedTable>, String> {
        let snapshot = TableSnapshot::<G>::from_ron(ron).map_err(|e| e.to_string())?;
        let table = Table::replay(snapshot.config, None, &snapshot.log, snapshot.clock_ms)
            .map_err(|e| e.to_string())?;
        Ok(Box::new(Hosted::new(table)))
    }
    match game {
        GameId::Forest => make::<ForestGame>(ron),
        GameId::Gene => make::<GeneGame>(ron),
        GameId::Crueler => make::<CruelerGame>(ron),
        other => Err(format!("{other} is not hosted by this build")),
    }
}

/// What a bot of `kind` would do given a seat's view, for clients that let
/// a bot play their seat (headless test clients, "autoplay").
pub fn bot_move(kind: &str, view: &AnyView, rng: &mut ChaCha8Rng) -> Option<AnyAction> {
    match view {
        AnyView::Forest(v) => ForestGame::bot(kind)?
            .act(v, rng)
            .map(ForestGame::wrap_action),
        AnyView::Gene(v) => GeneGame::bot(kind)?.act(v, rng).map(GeneGame::wrap_action),
        AnyView::Crueler(v) => CruelerGame::bot(kind)?
            .act(v, rng)
            .map(CruelerGame::wrap_action),
    }
}

/// Whether the view's seat is being waited on.
pub fn my_turn(view: &AnyView) -> bool {
    match view {
        AnyView::Forest(v) => v.to_act,
        AnyView::Gene(v) => v.to_act,
        AnyView::Crueler(v) => v.to_act,
    }
}

/// Whether the game in the view is over.
pub fn view_over(view: &AnyView) -> bool {
    match view {
        AnyView::Forest(v) => v.result.is_some(),
        AnyView::Gene(v) => v.result.is_some(),
        AnyView::Crueler(v) => v.result.is_some(),
    }
}
