//! `foodweb sim`: bots play whole games headless on every core, one rule
//! variant or a sweep of them, reported as text, JSON or an HTML page.

use std::path::PathBuf;

use clap::Args;
use foodweb_rules::GameId;
use foodweb_rules::bot::{Bot, Bots};
use foodweb_rules::sim::{self, FigureReport, SimReport, wilson};
use foodweb_rules::table::{Game, GameSettings, SeatId, Table};

use super::CliError;
use super::outcome::{SweepReport, VariantReport, sim_text, sweep_text};
use super::sweep::{Sweep, set_field};

#[derive(Args, Debug)]
pub struct SimArgs {
    /// forest, crueler, wanning or gene.
    pub game: String,
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bot kinds, dealt round the seats and rotated each game.
    /// For wanning, one kind for every seat, or a kind per level:
    /// 1=reasoning,2=random,...
    #[arg(long, value_delimiter = ',')]
    pub bots: Option<Vec<String>>,
    /// The rule variant. forest: three-rounds, four-rounds, long or
    /// quick; crueler: beasts or dice (how duels are fought); wanning:
    /// settings in RON, e.g. "(ban_odds: VotesPerVote, round_cap: 20)".
    #[arg(long)]
    pub timing: Option<String>,
    /// wanning: the instinct reasoning bots pick first when it is not
    /// banned (its id or name, e.g. LastStand or 垂死抗爭), to measure
    /// its holders.
    #[arg(long)]
    pub prefer: Option<String>,
    /// Threads to play on (1 to 256); every core by default. The results
    /// are the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Plays each value of one setting in turn and compares them:
    /// "SETTING: [a, b, c]". SETTING is a field of the game's settings
    /// (e.g. round_secs, round_cap, last_stand), `players`, `timing`
    /// (forest's named timings, crueler's duel kind) or `bots` (each value
    /// a --bots list, quoted when it has commas: "bots: [random,
    /// 'memory,random']"; for wanning "bots: [random, '3=reasoning']").
    #[arg(long)]
    pub sweep: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML page with the results and plots.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

/// What is counted of each finished table.
type Measure<G> = dyn Fn(&Table<G>) -> Vec<f64> + Sync;
/// What is made of every game's measures at the end.
type Finish = dyn Fn(&mut SimReport, &[Vec<f64>]) + Sync;

/// What one game's sim asks of the command line: the checked settings,
/// bots and what to count of each finished table.
struct Plan<G: Game> {
    settings: G::Settings,
    lineup: Box<sim::Lineup<G>>,
    /// Each figure's name, and whether it is a share of games (a 0 or 1
    /// per game).
    figures: &'static [(&'static str, bool)],
    measure: Box<Measure<G>>,
    /// Turns the measures of every game into the report's game figures
    /// and its own tables (Wanning's levels and instincts).
    finish: Box<Finish>,
}

/// Seconds of CPU the whole process has used (every thread).
fn cpu_secs() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage writes the struct it is given and nothing else.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return t(usage.ru_utime) + t(usage.ru_stime);
        }
    }
    0.0
}

pub fn run(args: SimArgs) -> Result<i32, CliError> {
    let game = GameId::from_key(&args.game).ok_or_else(|| {
        CliError(format!(
            "unknown game '{}' (forest, crueler, gene, wanning)",
            args.game
        ))
    })?;
    if args.prefer.is_some() && game != GameId::Wanning {
        return Err(CliError(
            "--prefer is for wanning (an instinct its reasoning bots pick first)".into(),
        ));
    }
    if !game.seats().contains(&args.players) {
        return Err(CliError(format!(
            "{game} takes {} to {} players, not {}",
            game.seats().start(),
            game.seats().end(),
            args.players
        )));
    }
    if args.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    let sweep = args.sweep.as_deref().map(Sweep::parse).transpose()?;
    let threads = args.threads.map_or_else(sim::all_cores, usize::from);
    // `players` is swept by the command line itself.
    let players_of = |value: Option<&str>| -> Result<usize, CliError> {
        match (sweep.as_ref().map(|s| s.key.as_str()), value) {
            (Some("players"), Some(v)) => {
                let n: usize = v
                    .parse()
                    .map_err(|_| CliError(format!("players: '{v}' is not a number")))?;
                if !game.seats().contains(&n) {
                    return Err(CliError(format!(
                        "{game} takes {} to {} players, not {n}",
                        game.seats().start(),
                        game.seats().end()
                    )));
                }
                Ok(n)
            }
            _ => Ok(args.players),
        }
    };
    let values: Vec<Option<String>> = match &sweep {
        Some(s) => s.values.iter().cloned().map(Some).collect(),
        None => vec![None],
    };
    let cpu0 = cpu_secs();
    let wall0 = std::time::Instant::now();
    let mut variants = Vec::new();
    // Every variant is checked before any is played.
    for pass in [false, true] {
        for value in &values {
            let one = Variant {
                sweep: sweep.as_ref().map(|s| s.key.as_str()),
                value: value.as_deref(),
                bots: args.bots.clone(),
                timing: args.timing.clone(),
                prefer: args.prefer.clone(),
            };
            let cpu_before = cpu_secs();
            let run = Run {
                games: args.games,
                players: players_of(value.as_deref())?,
                seed: args.seed,
                threads,
                play: pass,
            };
            let played = match game {
                GameId::Forest => run.plan(forest_plan(&one)?)?,
                GameId::Crueler => run.plan(crueler_plan(&one)?)?,
                GameId::Gene => run.plan(gene_plan(&one)?)?,
                GameId::Wanning => run.plan(wanning_plan(&one)?)?,
            };
            if let Some(mut sim) = played {
                sim.cpu_secs = cpu_secs() - cpu_before;
                sim.games_per_cpu_sec = sim.games as f64 / sim.cpu_secs.max(1e-9);
                variants.push(VariantReport {
                    value: value.clone().unwrap_or_default(),
                    sim,
                });
            }
        }
    }
    let command = std::env::args()
        .skip(1)
        .map(|a| shell_word(&a))
        .collect::<Vec<_>>()
        .join(" ");
    let whole = SweepReport {
        game: game.key().to_string(),
        command,
        setting: sweep.as_ref().map(|s| s.key.clone()).unwrap_or_default(),
        variants,
        cpu_secs: cpu_secs() - cpu0,
        elapsed_secs: wall0.elapsed().as_secs_f64(),
    };
    if let Some(path) = &args.report {
        let page = super::report::html(&whole).map_err(CliError)?;
        std::fs::write(path, page)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    let text = match (&sweep, args.json) {
        (None, true) => serde_json::to_string(&whole.variants[0].sim).expect("reports serialize"),
        (Some(_), true) => serde_json::to_string(&whole).expect("reports serialize"),
        (None, false) => sim_text(&whole.variants[0].sim),
        (Some(_), false) => sweep_text(&whole),
    };
    println!("{}", text.trim_end());
    Ok(0)
}

/// A word as a shell would need it quoted.
fn shell_word(a: &str) -> String {
    if a.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// The rule variant and bots of one run: the command line's, with the
/// swept setting, if any, set to one value.
struct Variant<'a> {
    sweep: Option<&'a str>,
    value: Option<&'a str>,
    bots: Option<Vec<String>>,
    timing: Option<String>,
    prefer: Option<String>,
}

impl Variant<'_> {
    /// The swept value if the sweep is over `key`.
    fn swept(&self, key: &str) -> Option<&str> {
        (self.sweep == Some(key)).then_some(self.value).flatten()
    }

    fn bots(&self) -> Option<Vec<String>> {
        match self.swept("bots") {
            Some(v) => Some(v.split(',').map(|s| s.trim().to_string()).collect()),
            None => self.bots.clone(),
        }
    }

    fn timing(&self) -> Option<String> {
        self.swept("timing")
            .map(str::to_string)
            .or_else(|| self.timing.clone())
    }

    /// Sets the swept setting, if it is one of the game's settings.
    fn settings<S: serde::Serialize + serde::de::DeserializeOwned + GameSettings>(
        &self,
        base: S,
    ) -> Result<S, CliError> {
        let (Some(key), Some(value)) = (self.sweep, self.value) else {
            return Ok(base);
        };
        if matches!(key, "bots" | "timing" | "players") {
            return Ok(base);
        }
        let s = set_field(&base, key, value)?;
        s.check()
            .map_err(|e| CliError(format!("{key}: {value}: {e}")))?;
        Ok(s)
    }
}

/// How many games of one variant to play, and where.
struct Run {
    games: usize,
    players: usize,
    seed: u64,
    threads: usize,
    /// False: the plan is only checked.
    play: bool,
}

impl Run {
    fn plan<G: Game>(&self, plan: Plan<G>) -> Result<Option<SimReport>, CliError> {
        if !self.play {
            return Ok(None);
        }
        let (mut report, measured) = sim::simulate_watching::<G, Vec<f64>>(
            self.games,
            self.players,
            self.seed,
            self.threads,
            plan.settings,
            &*plan.lineup,
            &*plan.measure,
        )
        .map_err(CliError)?;
        report.figures = plan
            .figures
            .iter()
            .enumerate()
            .map(|(i, (name, share))| FigureReport::of(name, *share, measured.iter().map(|m| m[i])))
            .collect();
        (plan.finish)(&mut report, &measured);
        Ok(Some(report))
    }
}

/// The table's clock at the end, in minutes: how long the game took.
fn minutes<G: Game>(t: &Table<G>) -> f64 {
    t.now_ms() as f64 / 60_000.0
}

/// Bots of the kinds asked for (or `default`), dealt round the seats and
/// rotated each game; every kind is checked first.
fn rotating<G: Bots>(
    v: &Variant,
    default: [&str; 2],
    known: &[&str],
) -> Result<Box<sim::Lineup<G>>, CliError> {
    let kinds = v
        .bots()
        .unwrap_or_else(|| default.map(String::from).to_vec());
    if let Some(k) = kinds.iter().find(|k| G::bot(k).is_none()) {
        return Err(CliError(format!(
            "unknown {} bot '{k}' (bots: {})",
            G::ID.key(),
            known.join(", ")
        )));
    }
    Ok(Box::new(move |game: usize, seat: SeatId| {
        G::bot(&kinds[(seat.index() + game) % kinds.len()]).expect("bot kinds were checked")
    }))
}

fn forest_plan(v: &Variant) -> Result<Plan<foodweb_rules::forest::ForestGame>, CliError> {
    use foodweb_rules::forest::{self, ForestGame, ForestTiming};
    let base = match v.timing().as_deref() {
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
    Ok(Plan {
        settings: v.settings(base)?,
        lineup: rotating::<ForestGame>(v, ["memory", "random"], &forest::bots::BOT_KINDS)?,
        figures: &[
            ("table minutes", false),
            ("winning score", false),
            ("first place shared", true),
        ],
        measure: Box::new(|t| {
            let r = t
                .result()
                .unwrap_or_else(|| unreachable!("a played game is over"));
            let best = r.scores.iter().copied().max().unwrap_or(0);
            let firsts = r.places.iter().filter(|&&p| p == 1).count();
            vec![minutes(t), best as f64, f64::from(u8::from(firsts > 1))]
        }),
        finish: Box::new(|_, _| {}),
    })
}

fn crueler_plan(v: &Variant) -> Result<Plan<foodweb_rules::crueler::CruelerGame>, CliError> {
    use foodweb_rules::crueler::{self, CruelerGame, CruelerSettings, DuelKind};
    let base = CruelerSettings {
        duel: match v.timing().as_deref() {
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
    Ok(Plan {
        settings: v.settings(base)?,
        lineup: rotating::<CruelerGame>(v, ["survivor", "random"], &crueler::bots::BOT_KINDS)?,
        figures: &[
            ("table minutes", false),
            ("players alive at the end", false),
        ],
        measure: Box::new(|t| {
            let alive = t.public_view().alive.iter().filter(|&&a| a).count();
            vec![minutes(t), alive as f64]
        }),
        finish: Box::new(|_, _| {}),
    })
}

fn gene_plan(v: &Variant) -> Result<Plan<foodweb_rules::gene::GeneGame>, CliError> {
    use foodweb_rules::gene::{self, GeneGame};
    if v.timing.is_some() {
        return Err(CliError(
            "--timing is not for gene: sweep or set its settings by name".into(),
        ));
    }
    Ok(Plan {
        settings: v.settings(Default::default())?,
        lineup: rotating::<GeneGame>(v, ["survivor", "random"], &gene::bots::BOT_KINDS)?,
        figures: &[("table minutes", false), ("shadows at the end", false)],
        measure: Box::new(|t| {
            let shadows = t.public_view().shadows.iter().filter(|&&s| s).count();
            vec![minutes(t), shadows as f64]
        }),
        finish: Box::new(|_, _| {}),
    })
}

fn wanning_plan(v: &Variant) -> Result<Plan<foodweb_rules::wanning::WanningGame>, CliError> {
    use foodweb_rules::sim::{InstinctReport, LevelReport};
    use foodweb_rules::wanning::{self, WanningGame, bots::LevelBot};
    let kinds = wanning_bot_kinds(v.bots())?;
    let prefer = v.prefer.as_deref().map(instinct_named).transpose()?;
    let base = wanning_settings(v.timing())?;
    let lineup_kinds = kinds.clone();
    // Measures: minutes, rounds, ended at the cap, the winning level (0:
    // none), then per instinct in `ALL_INSTINCTS` order: held, holder's
    // level won, holder alive at the cap (as counts).
    let n = wanning::ALL_INSTINCTS.len();
    Ok(Plan {
        settings: v.settings(base)?,
        lineup: Box::new(
            move |_game: usize, _seat: SeatId| -> Box<dyn Bot<WanningGame>> {
                Box::new(
                    LevelBot::new(lineup_kinds.clone())
                        .expect("bot kinds were checked")
                        .preferring(prefer),
                )
            },
        ),
        figures: &[
            ("table minutes", false),
            ("rounds", false),
            ("ended at the round cap", true),
        ],
        measure: Box::new(move |t| {
            let host = wanning::host_view(t.world());
            let capped = host.won_by == Some(wanning::WinBy::Cap);
            let mut m = vec![
                minutes(t),
                f64::from(host.round),
                f64::from(u8::from(capped)),
                host.winner.map_or(0.0, f64::from),
            ];
            let mut per = vec![0.0; 3 * n];
            for s in &host.seats {
                let Some(id) = s.instinct else { continue };
                let i = wanning::ALL_INSTINCTS
                    .iter()
                    .position(|x| *x == id)
                    .expect("every instinct is listed");
                per[3 * i] += 1.0;
                per[3 * i + 1] += f64::from(u8::from(host.winner == Some(s.level)));
                per[3 * i + 2] += f64::from(u8::from(capped && !s.dead));
            }
            m.extend(per);
            m
        }),
        finish: Box::new(move |report, measured| {
            let games = measured.len();
            report.levels = (1..=4u8)
                .map(|level| {
                    let w = measured.iter().filter(|m| m[3] == f64::from(level)).count();
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
            report.instincts = wanning::ALL_INSTINCTS
                .iter()
                .enumerate()
                .filter_map(|(i, id)| {
                    let sum =
                        |k: usize| measured.iter().map(|m| m[4 + 3 * i + k]).sum::<f64>() as usize;
                    let (holders, w, alive) = (sum(0), sum(1), sum(2));
                    (holders > 0).then(|| {
                        let (ci_low, ci_high) = wilson(w, holders);
                        InstinctReport {
                            instinct: wanning::data().instinct(*id).name.zh.clone(),
                            holders,
                            won: w,
                            win_rate: w as f64 / holders as f64,
                            ci_low,
                            ci_high,
                            alive_at_cap: alive,
                            alive_at_cap_rate: alive as f64 / holders as f64,
                        }
                    })
                })
                .collect();
        }),
    })
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
    GameSettings::check(&s).map_err(|e| CliError(format!("bad wanning settings: {e}")))?;
    Ok(s)
}
