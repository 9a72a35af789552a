//! Bots play whole games headless: the `foodweb sim` command and the
//! benchmarks use this.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::bot::Bot;
use crate::table::{Game, GameResult, SeatId, Table, TableConfig};

/// How bots are seated for one game.
pub type Lineup<G> = dyn Fn(usize, SeatId) -> Box<dyn Bot<G>>;

/// Bots act after a pause of table time, so timed rounds run out.
pub const THINK_MS: std::ops::RangeInclusive<u64> = 2_000..=15_000;

/// Upper bound on steps in one game, far above any real game.
const MAX_STEPS: usize = 1_000_000;

#[derive(Clone, Debug, Default, Serialize)]
pub struct SeatReport {
    pub seat: SeatId,
    pub wins: f64,
    pub mean_score: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct BotReport {
    pub kind: String,
    /// Seats played by this kind of bot, over all games.
    pub seats_played: usize,
    /// Games won (a shared first place counts as a share).
    pub wins: f64,
    /// Wins per seat played.
    pub win_rate: f64,
    pub mean_score: f64,
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
    for _ in 0..MAX_STEPS {
        if let Some(result) = table.result() {
            return Ok(result);
        }
        let waiting = table.to_act();
        let mut acted = false;
        for seat in waiting {
            let think = bot_rng.random_range(THINK_MS);
            table.advance_by(think);
            if !table.to_act().contains(&seat) {
                continue;
            }
            let view = table.view(seat);
            if let Some(action) = bots[seat.index()].act(&view, bot_rng) {
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
    pub elapsed_secs: f64,
    pub games_per_sec: f64,
    pub mean_actions: f64,
    pub seats: Vec<SeatReport>,
    pub bots: Vec<BotReport>,
    /// Wins by level (Wanning Beast Chess), with 95% intervals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<LevelReport>,
    /// Each instinct's holders (Wanning Beast Chess): how often the
    /// holder's level won, and how often the holder lived to the round cap.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub instincts: Vec<InstinctReport>,
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
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays `games` games. Game `g` uses table seed `seed + g`.
pub fn simulate<G: Game>(
    games: usize,
    players: usize,
    seed: u64,
    settings: G::Settings,
    lineup: &Lineup<G>,
) -> Result<SimReport, String> {
    simulate_watching(games, players, seed, settings, lineup, &mut |_| {})
}

/// As [`simulate`], and `watch` sees each finished table (a game's own
/// figures: Wanning's wins by level).
pub fn simulate_watching<G: Game>(
    games: usize,
    players: usize,
    seed: u64,
    settings: G::Settings,
    lineup: &Lineup<G>,
    watch: &mut dyn FnMut(&Table<G>),
) -> Result<SimReport, String> {
    let started = std::time::Instant::now();
    let mut seats: Vec<SeatReport> = (0..players)
        .map(|i| SeatReport {
            seat: SeatId(i as u8),
            ..Default::default()
        })
        .collect();
    let mut bots: Vec<BotReport> = Vec::new();
    let mut actions = 0usize;
    // One quiet table plays every game, each from its own seed.
    let mut table: Option<Table<G>> = None;
    for g in 0..games {
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
        let (played, record) = play(fresh, &mut lineup_now, &mut bot_rng)
            .map_err(|e| format!("game {g} (seed {game_seed}): {e}"))?;
        watch(&played);
        table = Some(played);
        actions += record.actions;
        let best = record.scores.iter().copied().max().unwrap_or(0);
        let winners = record.scores.iter().filter(|&&s| s == best).count() as f64;
        for (i, (&score, kind)) in record.scores.iter().zip(&record.kinds).enumerate() {
            let win = if score == best { 1.0 / winners } else { 0.0 };
            seats[i].wins += win;
            seats[i].mean_score += score as f64;
            let b = match bots.iter_mut().position(|b| &b.kind == kind) {
                Some(k) => &mut bots[k],
                None => {
                    bots.push(BotReport {
                        kind: kind.clone(),
                        ..Default::default()
                    });
                    bots.last_mut().unwrap()
                }
            };
            b.seats_played += 1;
            b.wins += win;
            b.mean_score += score as f64;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    for s in &mut seats {
        s.mean_score /= games.max(1) as f64;
    }
    for b in &mut bots {
        b.win_rate = b.wins / b.seats_played.max(1) as f64;
        b.mean_score /= b.seats_played.max(1) as f64;
    }
    bots.sort_by(|a, b| a.kind.cmp(&b.kind));
    Ok(SimReport {
        game: G::ID.key().to_string(),
        games,
        players,
        seed,
        elapsed_secs: elapsed,
        games_per_sec: games as f64 / elapsed.max(1e-9),
        mean_actions: actions as f64 / games.max(1) as f64,
        seats,
        bots,
        levels: Vec::new(),
        instincts: Vec::new(),
    })
}
