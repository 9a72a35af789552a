//! The command line: the desktop client with no arguments, `sim` and
//! `scenario` for headless play.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use foodweb_rules::GameId;
use foodweb_rules::bot::Bot;
use foodweb_rules::forest::{self, ForestGame, ForestTiming};
use foodweb_rules::scenario;
use foodweb_rules::sim::{self, SimReport};
use foodweb_rules::table::SeatId;

pub use args::{CliError, playable_game};
use args::{seconds_up_to_a_day, updates_per_second};

mod args;
pub mod net;

#[derive(Parser, Debug)]
#[command(
    name = "foodweb",
    version,
    about = "Four party games about who eats whom. With no command, opens the desktop client."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Bots play whole games headless and the results are counted.
    Sim {
        /// forest, crueler, wanning or gene.
        game: String,
        #[arg(long, default_value_t = 100)]
        games: usize,
        #[arg(long, default_value_t = 4)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bot kinds, dealt round the seats and rotated each game.
        #[arg(long, value_delimiter = ',')]
        bots: Option<Vec<String>>,
        /// The rule variant. forest: three-rounds, four-rounds, long or
        /// quick; crueler: beasts or dice (how duels are fought); wanning:
        /// settings in RON, e.g. "(ban_odds: VotesPerVote, round_cap: 20)".
        /// For wanning, --bots is one kind for every seat, or a kind per
        /// level: 1=reasoning,2=random,...
        #[arg(long)]
        timing: Option<String>,
        /// wanning: the instinct reasoning bots pick first when it is not
        /// banned (its id or name, e.g. LastStand or 垂死抗爭), to measure
        /// its holders.
        #[arg(long)]
        prefer: Option<String>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Opens a replay file (saved from a table's replay) in the desktop
    /// client, offline.
    Replay { file: PathBuf },
    /// Runs a scripted table from a RON file and reports every step.
    Scenario {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Runs the LAN server, headless: many tables, for desktop (UDP) and
    /// browser (WebSocket) clients.
    Serve(net::ServeArgs),
    /// A headless client: joins a server through the lobby and lets a bot
    /// play its seat (for tests and measurements).
    Client(net::ClientArgs),
    /// Measures a server's hall: many 4-seat bot tables at the normal pace
    /// on one thread, no sockets; prints CPU and memory per table as JSON.
    BenchHall {
        /// forest, crueler or gene.
        #[arg(long, default_value = "forest")]
        game: String,
        /// Tables to run at once (1 to 10,000).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        tables: u32,
        /// Simulated seconds to run (up to a day).
        #[arg(long, default_value_t = 120.0, value_parser = seconds_up_to_a_day)]
        seconds: f64,
        /// Hall updates per simulated second (1 to 1000).
        #[arg(long, default_value_t = 60.0, value_parser = updates_per_second)]
        hz: f64,
        #[arg(long, default_value_t = 1100, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        bot_delay_ms: u64,
        /// Save tables here as the server does (journal and snapshots).
        #[arg(long)]
        data: Option<PathBuf>,
    },
}

/// Runs a command; returns the process exit code.
pub fn run(command: Command) -> Result<i32, CliError> {
    match command {
        Command::Sim {
            game,
            games,
            players,
            seed,
            bots,
            timing,
            prefer,
            json,
        } => {
            if prefer.is_some() && game != GameId::Wanning.key() {
                return Err(CliError(
                    "--prefer is for wanning (an instinct its reasoning bots pick first)".into(),
                ));
            }
            // Gene Survival's rules run headless before its table is offered
            // to players.
            let game = match GameId::from_key(&game) {
                Some(GameId::Gene) => GameId::Gene,
                Some(GameId::Wanning) => GameId::Wanning,
                _ => playable_game(&game)?,
            };
            if !game.seats().contains(&players) {
                return Err(CliError(format!(
                    "{game} takes {} to {} players, not {players}",
                    game.seats().start(),
                    game.seats().end()
                )));
            }
            let report = match game {
                GameId::Forest => sim_forest(games, players, seed, bots, timing)?,
                GameId::Gene => sim_gene(games, players, seed, bots)?,
                GameId::Crueler => sim_crueler(games, players, seed, bots, timing)?,
                GameId::Wanning => sim_wanning(games, players, seed, bots, timing, prefer)?,
            };
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&report).expect("reports serialize")
                );
            } else {
                print!("{}", sim_text(&report));
            }
            Ok(0)
        }
        Command::Replay { file } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliError(format!("cannot read {}: {e}", file.display())))?;
            let replay = foodweb_netcode::replay::Replay::from_ron(&text).map_err(|e| {
                CliError(format!(
                    "{} is not a replay Foodweb opens: {e}",
                    file.display()
                ))
            })?;
            crate::client::run_with(Some(replay));
            Ok(0)
        }
        Command::Serve(args) => net::serve(args),
        Command::Client(args) => net::client(args),
        Command::BenchHall {
            game,
            tables,
            seconds,
            hz,
            bot_delay_ms,
            data,
        } => {
            let game = playable_game(&game)?;
            let report = foodweb_netcode::bench::bench_hall(
                game,
                tables as usize,
                seconds,
                hz,
                bot_delay_ms,
                data,
            )
            .map_err(CliError)?;
            println!(
                "{}",
                serde_json::to_string_pretty(&report).expect("reports serialize")
            );
            Ok(0)
        }
        Command::Scenario { file, json } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliError(format!("cannot read {}: {e}", file.display())))?;
            let game = scenario::scenario_game(&text)
                .map_err(|e| CliError(format!("{}: {e}", file.display())))?;
            let failures = match game {
                GameId::Forest => print_scenario::<ForestGame>(&text, json, &file)?,
                GameId::Gene => {
                    print_scenario::<foodweb_rules::gene::GeneGame>(&text, json, &file)?
                }
                GameId::Crueler => {
                    print_scenario::<foodweb_rules::crueler::CruelerGame>(&text, json, &file)?
                }
                GameId::Wanning => {
                    print_scenario::<foodweb_rules::wanning::WanningGame>(&text, json, &file)?
                }
            };
            Ok(if failures == 0 { 0 } else { 1 })
        }
    }
}

fn print_scenario<G: foodweb_rules::bot::Bots>(
    text: &str,
    json: bool,
    file: &std::path::Path,
) -> Result<usize, CliError> {
    let (report, _) =
        scenario::run::<G>(text).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    if json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        );
    } else {
        print!("{}", report.to_text());
    }
    Ok(report.failures)
}

fn sim_wanning(
    games: usize,
    players: usize,
    seed: u64,
    bots: Option<Vec<String>>,
    settings: Option<String>,
    prefer: Option<String>,
) -> Result<SimReport, CliError> {
    use foodweb_rules::sim::{LevelReport, wilson};
    use foodweb_rules::wanning::{self, WanningGame, bots::LevelBot};
    let kinds = wanning_bot_kinds(bots)?;
    let prefer = prefer.as_deref().map(instinct_named).transpose()?;
    let lineup_kinds = kinds.clone();
    let lineup = move |_game: usize, _seat: SeatId| -> Box<dyn Bot<WanningGame>> {
        Box::new(
            LevelBot::new(lineup_kinds.clone())
                .expect("bot kinds were checked")
                .preferring(prefer),
        )
    };
    let settings = wanning_settings(settings)?;
    let mut won = [0usize; 4];
    // Per instinct: (holders, holders whose level won, holders alive at the cap).
    let mut held: std::collections::BTreeMap<wanning::InstinctId, (usize, usize, usize)> =
        Default::default();
    let mut report = sim::simulate_watching::<WanningGame>(
        games,
        players,
        seed,
        settings,
        &lineup,
        &mut |table| {
            let host = wanning::host_view(table.world());
            if let Some(level) = host.winner {
                won[level as usize - 1] += 1;
            }
            let capped = host.won_by == Some(wanning::WinBy::Cap);
            for s in &host.seats {
                let Some(id) = s.instinct else { continue };
                let e = held.entry(id).or_default();
                e.0 += 1;
                e.1 += usize::from(host.winner == Some(s.level));
                e.2 += usize::from(capped && !s.dead);
            }
        },
    )
    .map_err(CliError)?;
    report.instincts = held
        .into_iter()
        .map(|(id, (holders, w, alive))| {
            let (ci_low, ci_high) = wilson(w, holders);
            sim::InstinctReport {
                instinct: wanning::data().instinct(id).name.zh.clone(),
                holders,
                won: w,
                win_rate: w as f64 / holders.max(1) as f64,
                ci_low,
                ci_high,
                alive_at_cap: alive,
                alive_at_cap_rate: alive as f64 / holders.max(1) as f64,
            }
        })
        .collect();
    report.levels = (1..=4u8)
        .map(|level| {
            let w = won[level as usize - 1];
            let (ci_low, ci_high) = wilson(w, games);
            LevelReport {
                level,
                bot: kinds[level as usize - 1].clone(),
                games_won: w,
                win_rate: w as f64 / games.max(1) as f64,
                ci_low,
                ci_high,
            }
        })
        .collect();
    Ok(report)
}

/// Wanning's `--bots`: one kind for every seat, or `LEVEL=KIND` for some
/// levels (a level not named plays `random`); every kind checked.
fn wanning_bot_kinds(bots: Option<Vec<String>>) -> Result<[String; 4], CliError> {
    use foodweb_rules::wanning;
    let spec = bots.unwrap_or_else(|| vec!["random".into()]);
    let mut kinds: [String; 4] = std::array::from_fn(|_| "random".to_string());
    match spec.as_slice() {
        [one] if !one.contains('=') => kinds = std::array::from_fn(|_| one.clone()),
        many => {
            for item in many {
                let parsed = item
                    .split_once('=')
                    .and_then(|(l, k)| Some((l.parse::<usize>().ok()?, k)))
                    .filter(|(l, _)| (1..=4).contains(l));
                let Some((level, kind)) = parsed else {
                    return Err(CliError(format!(
                        "bad --bots entry '{item}': give one bot kind, or LEVEL=KIND for levels 1 to 4"
                    )));
                };
                kinds[level - 1] = kind.to_string();
            }
        }
    }
    for k in &kinds {
        if wanning::bots::bot(k).is_none() {
            return Err(CliError(format!(
                "unknown wanning bot '{k}' (bots: {})",
                wanning::bots::BOT_KINDS.join(", ")
            )));
        }
    }
    Ok(kinds)
}

/// Wanning's `--prefer`: an instinct by its id or its English or Chinese
/// name.
fn instinct_named(name: &str) -> Result<foodweb_rules::wanning::InstinctId, CliError> {
    use foodweb_rules::wanning;
    wanning::ALL_INSTINCTS
        .into_iter()
        .find(|id| {
            let words = &wanning::data().instinct(*id).name;
            format!("{id:?}").eq_ignore_ascii_case(name)
                || words.en.eq_ignore_ascii_case(name)
                || words.zh == name
        })
        .ok_or_else(|| {
            CliError(format!(
                "unknown instinct '{name}' for --prefer (e.g. LastStand, 垂死抗爭)"
            ))
        })
}

/// Wanning's `--timing`: settings in RON, checked.
fn wanning_settings(
    text: Option<String>,
) -> Result<foodweb_rules::wanning::WanningSettings, CliError> {
    let Some(text) = text else {
        return Ok(Default::default());
    };
    let s: foodweb_rules::wanning::WanningSettings = ron::from_str(&text)
        .map_err(|e| CliError(format!("bad wanning settings '{text}': {e}")))?;
    foodweb_rules::table::GameSettings::check(&s)
        .map_err(|e| CliError(format!("bad wanning settings: {e}")))?;
    Ok(s)
}

fn sim_forest(
    games: usize,
    players: usize,
    seed: u64,
    bots: Option<Vec<String>>,
    timing: Option<String>,
) -> Result<SimReport, CliError> {
    let kinds = bots.unwrap_or_else(|| vec!["memory".into(), "random".into()]);
    for k in &kinds {
        if forest::bots::bot(k).is_none() {
            return Err(CliError(format!(
                "unknown forest bot '{k}' (bots: {})",
                forest::bots::BOT_KINDS.join(", ")
            )));
        }
    }
    let settings = match timing.as_deref() {
        None | Some("three-rounds") => ForestTiming::ThreeRounds.settings(),
        Some("four-rounds") => ForestTiming::FourRounds.settings(),
        Some("long") => ForestTiming::Long.settings(),
        Some("quick") => ForestTiming::Quick.settings(),
        Some(other) => {
            return Err(CliError(format!(
                "unknown timing '{other}' (three-rounds, four-rounds, long, quick)"
            )));
        }
    };
    let lineup = move |game: usize, seat: SeatId| -> Box<dyn Bot<ForestGame>> {
        let kind = &kinds[(seat.index() + game) % kinds.len()];
        forest::bots::bot(kind).expect("bot kinds were checked")
    };
    sim::simulate::<ForestGame>(games, players, seed, settings, &lineup).map_err(CliError)
}

fn sim_gene(
    games: usize,
    players: usize,
    seed: u64,
    bots: Option<Vec<String>>,
) -> Result<SimReport, CliError> {
    use foodweb_rules::gene::{self, GeneGame};
    let kinds = bots.unwrap_or_else(|| vec!["survivor".into(), "random".into()]);
    for k in &kinds {
        if gene::bots::bot(k).is_none() {
            return Err(CliError(format!(
                "unknown gene bot '{k}' (bots: {})",
                gene::bots::BOT_KINDS.join(", ")
            )));
        }
    }
    let lineup = move |game: usize, seat: SeatId| -> Box<dyn Bot<GeneGame>> {
        let kind = &kinds[(seat.index() + game) % kinds.len()];
        gene::bots::bot(kind).expect("bot kinds were checked")
    };
    sim::simulate::<GeneGame>(games, players, seed, Default::default(), &lineup).map_err(CliError)
}

fn sim_crueler(
    games: usize,
    players: usize,
    seed: u64,
    bots: Option<Vec<String>>,
    duel: Option<String>,
) -> Result<SimReport, CliError> {
    use foodweb_rules::crueler::{self, CruelerGame, CruelerSettings, DuelKind};
    let kinds = bots.unwrap_or_else(|| vec!["survivor".into(), "random".into()]);
    for k in &kinds {
        if crueler::bots::bot(k).is_none() {
            return Err(CliError(format!(
                "unknown crueler bot '{k}' (bots: {})",
                crueler::bots::BOT_KINDS.join(", ")
            )));
        }
    }
    let settings = CruelerSettings {
        duel: match duel.as_deref() {
            None | Some("beasts") => DuelKind::Beasts,
            Some("dice") => DuelKind::Dice,
            Some(other) => {
                return Err(CliError(format!(
                    "unknown crueler duel '{other}' (beasts, dice)"
                )));
            }
        },
        ..CruelerSettings::default()
    };
    let lineup = move |game: usize, seat: SeatId| -> Box<dyn Bot<CruelerGame>> {
        let kind = &kinds[(seat.index() + game) % kinds.len()];
        crueler::bots::bot(kind).expect("bot kinds were checked")
    };
    sim::simulate::<CruelerGame>(games, players, seed, settings, &lineup).map_err(CliError)
}

fn sim_text(r: &SimReport) -> String {
    let mut out = format!(
        "game {}  games {}  players {}  seed {}\nelapsed {:.2} s  games/s {:.1}  mean actions/game {:.1}\n",
        r.game, r.games, r.players, r.seed, r.elapsed_secs, r.games_per_sec, r.mean_actions
    );
    out += "\nby bot:\n";
    for b in &r.bots {
        out += &format!(
            "  {:<8} seats {:>6}  wins {:>8.1}  win rate {:>5.1}%  mean score {:.1}\n",
            b.kind,
            b.seats_played,
            b.wins,
            100.0 * b.win_rate,
            b.mean_score
        );
    }
    if !r.levels.is_empty() {
        out += "\nby level:\n";
        for l in &r.levels {
            out += &format!(
                "  level {}  {:<9} wins {:>6}  win rate {:>5.1}%  (95%: {:.1}% to {:.1}%)\n",
                l.level,
                l.bot,
                l.games_won,
                100.0 * l.win_rate,
                100.0 * l.ci_low,
                100.0 * l.ci_high
            );
        }
    }
    if !r.instincts.is_empty() {
        out += "\nby instinct (holders; their level's wins; alive when the round cap ended the game):\n";
        for i in &r.instincts {
            out += &format!(
                "  {:<6} holders {:>5}  win rate {:>5.1}% (95%: {:.1}% to {:.1}%)  alive at cap {:>5.1}%\n",
                i.instinct,
                i.holders,
                100.0 * i.win_rate,
                100.0 * i.ci_low,
                100.0 * i.ci_high,
                100.0 * i.alive_at_cap_rate
            );
        }
    }
    out += "\nby seat:\n";
    for s in &r.seats {
        out += &format!(
            "  seat {:<3} wins {:>8.1}  mean score {:.1}\n",
            s.seat, s.wins, s.mean_score
        );
    }
    out
}
