//! Bots play whole games headless: the `foodweb sim` command and the
//! benchmarks use this.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::bot::Bot;
use crate::table::{Game, GameResult, SeatId, Table, TableConfig};

/// How bots are seated for one game.
pub type Lineup<G> = dyn Fn(usize, SeatId) -> Box<dyn Bot<G>> + Sync;

/// Bots act after a pause of table time, so timed rounds run out.
pub const THINK_MS: std::ops::RangeInclusive<u64> = 2_000..=15_000;

/// Upper bound on steps in one game, far above any real game.
const MAX_STEPS: usize = 1_000_000;

#[derive(Clone, Debug, Default, Serialize)]
pub struct SeatReport {
    pub seat: SeatId,
    /// Games won (a shared first place counts as a share).
    pub wins: f64,
    pub mean_score: f64,
    /// Wins per game, with its Wilson interval at 95%.
    pub win_rate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct BotReport {
    pub kind: String,
    /// Seats played by this kind of bot, over all games.
    pub seats_played: usize,
    /// Games won (a shared first place counts as a share).
    pub wins: f64,
    /// Wins per seat played, with its Wilson interval at 95% (over seats
    /// played: the seats of one game are not independent, so read it as
    /// a guide).
    pub win_rate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub mean_score: f64,
}

/// One of a game's own figures over a simulation (table minutes, rounds
/// reaching the cap ...): its mean over the games and a 95% interval of
/// the mean (normal approximation; Wilson's for a share of games).
#[derive(Clone, Debug, Default, Serialize)]
pub struct FigureReport {
    pub name: String,
    /// A share of games (0 to 1), shown in percent.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub share: bool,
    pub mean: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

impl FigureReport {
    pub fn of(name: &str, share: bool, values: impl Iterator<Item = f64> + Clone) -> Self {
        let n = values.clone().count() as f64;
        let mean = values.clone().sum::<f64>() / n.max(1.0);
        let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.959_963_984_540_054 * (var / n.max(1.0)).sqrt();
        // A share's interval is Wilson's, which stays within 0 to 1.
        let (ci_low, ci_high) = if share {
            wilson_f(mean * n, n as usize)
        } else {
            (mean - half, mean + half)
        };
        Self {
            name: name.to_string(),
            share,
            mean,
            ci_low,
            ci_high,
        }
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct GameRecord {
    pub actions: usize,
    pub scores: Vec<i64>,
    pub kinds: Vec<String>,
}

/// Plays one game at a narrated table (its announcements kept, as at a
/// real table); an error if it did not finish (a bot or rules bug).
pub fn play_one<G: Game>(
    config: TableConfig<G>,
    bots: &mut [Box<dyn Bot<G>>],
    bot_rng: &mut ChaCha8Rng,
) -> Result<(Table<G>, GameRecord), String> {
    play(Table::new(config), bots, bot_rng)
}

/// Plays one game at a quiet table ([`Table::quiet`]): the same game and
/// result as [`play_one`], without the words.
pub fn play_quiet<G: Game>(
    config: TableConfig<G>,
    bots: &mut [Box<dyn Bot<G>>],
    bot_rng: &mut ChaCha8Rng,
) -> Result<(Table<G>, GameRecord), String> {
    play(Table::quiet(config), bots, bot_rng)
}

/// Plays one game at a table already dealt (a reused one, say).
pub fn play_table<G: Game>(
    table: Table<G>,
    bots: &mut [Box<dyn Bot<G>>],
    bot_rng: &mut ChaCha8Rng,
) -> Result<(Table<G>, GameRecord), String> {
    play(Ok(table), bots, bot_rng)
}

fn play<G: Game>(
    table: Result<Table<G>, crate::table::Rejection>,
    bots: &mut [Box<dyn Bot<G>>],
    bot_rng: &mut ChaCha8Rng,
) -> Result<(Table<G>, GameRecord), String> {
    let mut table = table.map_err(|e| e.to_string())?;
    let result = play_on(&mut table, bots, bot_rng)?;
    let record = GameRecord {
        actions: table.log().actions(),
        scores: result.scores,
        kinds: bots.iter().map(|b| b.kind().to_string()).collect(),
    };
    Ok((table, record))
}

/// Bots play the table on from where it stands to the end of the game
/// (a scenario's `PlayOn`, a sim's game); each thinks a moment of table
/// time before it acts, and the clock jumps to the next deadline when
/// nobody acts.
pub fn play_on<G: Game>(
    table: &mut Table<G>,
    bots: &mut [Box<dyn Bot<G>>],
    bot_rng: &mut ChaCha8Rng,
) -> Result<GameResult, String> {
    // Each seat's last view, written over at its next move (`view_into`).
    let mut views: Vec<Option<G::View>> = (0..bots.len()).map(|_| None).collect();
    for _ in 0..MAX_STEPS {
        if let Some(result) = table.result() {
            return Ok(result);
        }
        let waiting = table.to_act();
        let seen = table.steps();
        let mut acted = false;
        for seat in waiting {
            let think = bot_rng.random_range(THINK_MS);
            table.advance_by(think);
            // Asked again only if a deadline or another seat's move has
            // changed the table since.
            if table.steps() != seen && !table.waiting().contains(&seat) {
                continue;
            }
            let view = match &mut views[seat.index()] {
                Some(view) => {
                    table.view_into(seat, view);
                    view
                }
                none => none.insert(table.view(seat)),
            };
            if let Some(action) = bots[seat.index()].act(view, bot_rng) {
                table
                    .submit(seat, action.clone())
                    .map_err(|e| format!("bot at seat {seat} tried {action:?}: {e}"))?;
                acted = true;
            }
        }
        if !acted {
            match table.next_deadline() {
                Some(at) => table.advance_to(at),
                None if table.result().is_none() => {
                    return Err("the table waits on nobody and has no deadline".into());
                }
                None => {}
            }
        }
    }
    Err(format!("the game did not end within {MAX_STEPS} steps"))
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct SimReport {
    pub game: String,
    pub games: usize,
    pub players: usize,
    pub seed: u64,
    /// Threads that played the games (the results do not depend on it).
    pub threads: usize,
    pub elapsed_secs: f64,
    pub games_per_sec: f64,
    pub mean_actions: f64,
    /// CPU seconds the games took (every thread; set by the command line).
    pub cpu_secs: f64,
    pub games_per_cpu_sec: f64,
    pub seats: Vec<SeatReport>,
    pub bots: Vec<BotReport>,
    /// Wins by level (Wanning Beast Chess), with 95% intervals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<LevelReport>,
    /// Each instinct's holders (Wanning Beast Chess): how often the
    /// holder's level won, and how often the holder lived to the round cap.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub instincts: Vec<InstinctReport>,
    /// The game's own figures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<FigureReport>,
}

/// One instinct's holders over a simulation (Wanning Beast Chess).
#[derive(Clone, Debug, Default, Serialize)]
pub struct InstinctReport {
    pub instinct: String,
    /// Seats that held it (a 笨鳥先飛 counts as what it drew).
    pub holders: usize,
    /// Holders whose level won.
    pub won: usize,
    pub win_rate: f64,
    /// Wilson score interval at 95% of the win rate.
    pub ci_low: f64,
    pub ci_high: f64,
    /// Holders alive when a game ended at the round cap.
    pub alive_at_cap: usize,
    /// `alive_at_cap` over `holders`.
    pub alive_at_cap_rate: f64,
}

/// One level's record over a simulation (Wanning Beast Chess).
#[derive(Clone, Debug, Default, Serialize)]
pub struct LevelReport {
    pub level: u8,
    /// The bot that played the level.
    pub bot: String,
    pub games_won: usize,
    pub win_rate: f64,
    /// Wilson score interval at 95%.
    pub ci_low: f64,
    pub ci_high: f64,
}

/// The Wilson score interval at 95% for `wins` of `n`.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    wilson_f(wins as f64, n)
}

/// [`wilson`] for wins counted in shares (a shared first place).
pub fn wilson_f(wins: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// How many threads a sim uses when not told: every core the process may use.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Plays `games` games on every core. Game `g` uses table seed `seed + g`.
pub fn simulate<G: Game>(
    games: usize,
    players: usize,
    seed: u64,
    settings: G::Settings,
    lineup: &Lineup<G>,
) -> Result<SimReport, String> {
    simulate_watching(games, players, seed, all_cores(), settings, lineup, &|_| ())
        .map(|(report, _)| report)
}

/// One finished game as a worker thread saw it.
struct Played<W> {
    game: usize,
    actions: usize,
    scores: Vec<i64>,
    kinds: Vec<&'static str>,
    watched: W,
}

/// The count so far, kept in game order: a game that finishes before an
/// earlier one waits here until that one is in, so the sums (of floating
/// shares of wins) are added in the same order for any number of threads,
/// and what waits is a few games per thread, never the whole run.
struct Tally<W> {
    next: usize,
    waiting: std::collections::BTreeMap<usize, Played<W>>,
    seats: Vec<SeatReport>,
    bots: Vec<BotReport>,
    actions: usize,
    watched: Vec<W>,
}

impl<W> Tally<W> {
    fn new(players: usize, games: usize) -> Self {
        Self {
            next: 0,
            waiting: Default::default(),
            seats: (0..players)
                .map(|i| SeatReport {
                    seat: SeatId(i as u8),
                    ..Default::default()
                })
                .collect(),
            bots: Vec::new(),
            actions: 0,
            watched: Vec::with_capacity(games.min(1 << 20)),
        }
    }

    fn add(&mut self, played: Played<W>) {
        self.waiting.insert(played.game, played);
        while let Some(p) = self.waiting.remove(&self.next) {
            self.count(p);
            self.next += 1;
        }
    }

    fn count(&mut self, p: Played<W>) {
        self.watched.push(p.watched);
        self.actions += p.actions;
        let best = p.scores.iter().copied().max().unwrap_or(0);
        let winners = p.scores.iter().filter(|&&s| s == best).count() as f64;
        for (i, (&score, kind)) in p.scores.iter().zip(&p.kinds).enumerate() {
            let win = if score == best { 1.0 / winners } else { 0.0 };
            self.seats[i].wins += win;
            self.seats[i].mean_score += score as f64;
            let k = match self.bots.iter().position(|b| b.kind == *kind) {
                Some(k) => k,
                None => {
                    self.bots.push(BotReport {
                        kind: kind.to_string(),
                        ..Default::default()
                    });
                    self.bots.len() - 1
                }
            };
            let b = &mut self.bots[k];
            b.seats_played += 1;
            b.wins += win;
            b.mean_score += score as f64;
        }
    }
}

/// As [`simulate`], on `threads` threads, and `watch` reads each finished
/// table (a game's own figures: Wanning's wins by level); what it returns
/// comes back in game order. Each thread plays games at its own reused
/// table, taking the next game number when it is free; the results are
/// counted in game order ([`Tally`]), so the report is the same for any
/// number of threads (only the timings differ).
pub fn simulate_watching<G: Game, W: Send>(
    games: usize,
    players: usize,
    seed: u64,
    threads: usize,
    settings: G::Settings,
    lineup: &Lineup<G>,
    watch: &(dyn Fn(&Table<G>) -> W + Sync),
) -> Result<(SimReport, Vec<W>), String> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let started = std::time::Instant::now();
    let threads = threads.clamp(1, games.max(1));
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::<W>::new(players, games));
    let failed: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let worker = || {
        // One quiet table plays every game this thread takes, each from
        // its own seed.
        let mut table: Option<Table<G>> = None;
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= games {
                return;
            }
            let game_seed = seed.wrapping_add(g as u64);
            let mut config = TableConfig::<G>::new(game_seed, players);
            config.settings = settings.clone();
            let mut lineup_now: Vec<Box<dyn Bot<G>>> =
                (0..players).map(|i| lineup(g, SeatId(i as u8))).collect();
            let mut bot_rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x0b07_5eed);
            let fresh = match table.take() {
                Some(mut t) => t.reset(config).map(|()| t),
                None => Table::quiet(config),
            };
            let played = fresh.map_err(|e| e.to_string()).and_then(|mut t| {
                let result = play_on(&mut t, &mut lineup_now, &mut bot_rng)?;
                Ok((t, result))
            });
            match played {
                Ok((t, result)) => {
                    let one = Played {
                        game: g,
                        actions: t.log().actions(),
                        scores: result.scores,
                        kinds: lineup_now.iter().map(|b| b.kind()).collect(),
                        watched: watch(&t),
                    };
                    tally.lock().unwrap_or_else(|p| p.into_inner()).add(one);
                    table = Some(t);
                }
                Err(e) => {
                    // No thread takes a game after this one; the earliest
                    // game that failed is the one reported.
                    next.store(games, Ordering::Relaxed);
                    let mut first = failed.lock().unwrap_or_else(|p| p.into_inner());
                    if first.as_ref().is_none_or(|(f, _)| g < *f) {
                        *first = Some((g, format!("game {g} (seed {game_seed}): {e}")));
                    }
                    return;
                }
            }
        }
    };
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(worker);
            }
        });
    }
    if let Some((_, e)) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let Tally {
        mut seats,
        mut bots,
        actions,
        watched,
        ..
    } = tally.into_inner().unwrap_or_else(|p| p.into_inner());
    let elapsed = started.elapsed().as_secs_f64();
    for s in &mut seats {
        s.mean_score /= games.max(1) as f64;
        s.win_rate = s.wins / games.max(1) as f64;
        (s.ci_low, s.ci_high) = wilson_f(s.wins, games);
    }
    for b in &mut bots {
        b.win_rate = b.wins / b.seats_played.max(1) as f64;
        (b.ci_low, b.ci_high) = wilson_f(b.wins, b.seats_played);
        b.mean_score /= b.seats_played.max(1) as f64;
    }
    bots.sort_by(|a, b| a.kind.cmp(&b.kind));
    let report = SimReport {
        game: G::ID.key().to_string(),
        games,
        players,
        seed,
        threads,
        elapsed_secs: elapsed,
        games_per_sec: games as f64 / elapsed.max(1e-9),
        mean_actions: actions as f64 / games.max(1) as f64,
        seats,
        bots,
        ..Default::default()
    };
    Ok((report, watched))
}
