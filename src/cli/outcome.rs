//! What `foodweb sim` found: one variant's or a sweep's results, and
//! their text.

use foodweb_rules::sim::SimReport;
use serde::Serialize;

/// One variant's results: what `sim` reports once, and a sweep once per
/// value.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    /// The swept value ("" when nothing is swept).
    pub value: String,
    #[serde(flatten)]
    pub sim: SimReport,
}

/// A sweep's results.
#[derive(Clone, Debug, Serialize)]
pub struct SweepReport {
    pub game: String,
    /// The command line that made it (without the program's path).
    pub command: String,
    pub setting: String,
    pub variants: Vec<VariantReport>,
    pub cpu_secs: f64,
    pub elapsed_secs: f64,
}

pub fn sim_text(r: &SimReport) -> String {
    let mut out = format!(
        "game {}  games {}  players {}  seed {}  threads {}\n\
         elapsed {:.2} s  games/s {:.1}  CPU {:.2} s  games per CPU s {:.1}  mean actions/game {:.1}\n",
        r.game,
        r.games,
        r.players,
        r.seed,
        r.threads,
        r.elapsed_secs,
        r.games_per_sec,
        r.cpu_secs,
        r.games_per_cpu_sec,
        r.mean_actions
    );
    out += "\nby bot:\n";
    for b in &r.bots {
        out += &format!(
            "  {:<9} seats {:>6}  wins {:>8.1}  win rate {:>5.1}% (95%: {:.1}% to {:.1}%)  mean score {:.1}\n",
            b.kind,
            b.seats_played,
            b.wins,
            100.0 * b.win_rate,
            100.0 * b.ci_low,
            100.0 * b.ci_high,
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
            "  seat {:<3} wins {:>8.1}  win rate {:>5.1}% (95%: {:.1}% to {:.1}%)  mean score {:.1}\n",
            s.seat,
            s.wins,
            100.0 * s.win_rate,
            100.0 * s.ci_low,
            100.0 * s.ci_high,
            s.mean_score
        );
    }
    if !r.figures.is_empty() {
        out += "\ngame figures (mean, 95% interval):\n";
        for f in &r.figures {
            let k = if f.share { 100.0 } else { 1.0 };
            let unit = if f.share { "%" } else { "" };
            out += &format!(
                "  {:<28} {:>8.2}{unit}  ({:.2}{unit} to {:.2}{unit})\n",
                f.name,
                k * f.mean,
                k * f.ci_low,
                k * f.ci_high
            );
        }
    }
    out
}

pub fn sweep_text(s: &SweepReport) -> String {
    let mut out = format!(
        "sweep of {} over {}: {} variants, {:.1} s, {:.1} CPU s\n",
        s.game,
        s.setting,
        s.variants.len(),
        s.elapsed_secs,
        s.cpu_secs
    );
    for v in &s.variants {
        out += &format!("\n=== {} = {}\n", s.setting, v.value);
        out += &sim_text(&v.sim);
    }
    out
}
