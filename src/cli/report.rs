//! `foodweb sim --report FILE`: one self-contained HTML page of a sim or a
//! sweep, its plots drawn by `plotters` as inline SVG (no script, no
//! font file, nothing fetched), read at a glance by a designer.

use plotters::prelude::*;

use super::outcome::SweepReport;

/// One bar group's values: (mean, 95% low, 95% high).
type Interval = (f64, f64, f64);

/// The page.
pub fn html(r: &SweepReport) -> Result<String, String> {
    let values: Vec<String> = r
        .variants
        .iter()
        .map(|v| {
            if v.value.is_empty() {
                "(as set)".to_string()
            } else {
                v.value.clone()
            }
        })
        .collect();
    let first = &r.variants.first().ok_or("nothing was played")?.sim;
    let axis = if r.setting.is_empty() {
        "variant".to_string()
    } else {
        r.setting.clone()
    };
    let mut body = head(r, first);
    // Win rates by level (Wanning) or by bot kind.
    if !first.levels.is_empty() {
        let series: Vec<String> = first
            .levels
            .iter()
            .map(|l| format!("level {} ({})", l.level, l.bot))
            .collect();
        let rates = series_by(r, first.levels.len(), |sim, i| {
            let l = sim.levels.get(i)?;
            Some((l.win_rate, l.ci_low, l.ci_high))
        });
        body += &section(
            "Wins by level",
            "Share of games each level won, with its 95% interval.",
            &grouped("win rate by level", &axis, &values, &series, &rates, true)?,
        );
    }
    let kinds: Vec<String> = kinds_in(r);
    if kinds.len() > 1 || first.levels.is_empty() {
        let rates: Vec<Vec<Interval>> = kinds
            .iter()
            .map(|k| {
                r.variants
                    .iter()
                    .map(|v| {
                        v.sim
                            .bots
                            .iter()
                            .find(|b| &b.kind == k)
                            .map_or((f64::NAN, f64::NAN, f64::NAN), |b| {
                                (b.win_rate, b.ci_low, b.ci_high)
                            })
                    })
                    .collect()
            })
            .collect();
        body += &section(
            "Wins by bot",
            "Games won per seat a kind of bot played (a shared first place counts as a share), with a 95% interval. A fair game gives every seat 1 in the number of players.",
            &grouped("win rate by bot", &axis, &values, &kinds, &rates, true)?,
        );
    }
    // Every seat any variant had (a sweep over players has more in some).
    let most = r
        .variants
        .iter()
        .map(|v| v.sim.seats.len())
        .max()
        .unwrap_or(0);
    let seats: Vec<String> = (1..=most).map(|s| format!("seat {s}")).collect();
    let rates = series_by(r, most, |sim, i| {
        let s = sim.seats.get(i)?;
        Some((s.win_rate, s.ci_low, s.ci_high))
    });
    body += &section(
        "Wins by seat",
        "Share of games each seat won (seat 1 acts first where the game has a first player); the grey line is a fair share where every variant has the same seats.",
        &grouped("win rate by seat", &axis, &values, &seats, &rates, true)?,
    );
    for (i, f) in first.figures.iter().enumerate() {
        let one = vec![
            r.variants
                .iter()
                .map(|v| {
                    let g = &v.sim.figures[i];
                    (g.mean, g.ci_low, g.ci_high)
                })
                .collect(),
        ];
        body += &section(
            &capitalised(&f.name),
            if f.share {
                "Share of games, with a 95% interval."
            } else {
                "Mean over the games, with a 95% interval of the mean."
            },
            &grouped(
                &f.name,
                &axis,
                &values,
                std::slice::from_ref(&f.name),
                &one,
                f.share,
            )?,
        );
    }
    body += &instincts(r, &axis);
    body += &numbers(r, &axis);
    Ok(format!(
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        esc(&format!("{} — foodweb sim", title(&r.game)))
    ))
}

/// The page's title, command and what was played.
fn head(r: &SweepReport, first: &foodweb_rules::sim::SimReport) -> String {
    format!(
        "<h1>{} — {}</h1>\n<p class=cmd><code>foodweb {}</code></p>\n<p>{} games per variant, {} players, seeds {} to {}; {:.1} s on {} threads ({:.1} CPU s).</p>\n",
        esc(&title(&r.game)),
        if r.setting.is_empty() {
            "simulation".to_string()
        } else {
            format!("sweep of <b>{}</b>", esc(&r.setting))
        },
        esc(&r.command),
        first.games,
        if r.setting == "players" {
            "as swept".to_string()
        } else {
            first.players.to_string()
        },
        first.seed,
        first.seed + first.games as u64 - 1,
        r.elapsed_secs,
        first.threads,
        r.cpu_secs
    )
}

/// Each instinct's holders, per variant (Wanning).
fn instincts(r: &SweepReport, axis: &str) -> String {
    let mut body = String::new();
    let Some(first) = r.variants.first().map(|v| &v.sim) else {
        return body;
    };
    if !first.instincts.is_empty() {
        body += "<h2>Instincts</h2>\n<p>Each instinct's holders: how often the holder's level won, and how often the holder was alive when the round cap ended the game.</p>\n";
        for v in &r.variants {
            body += &format!(
                "<h3>{} = {}</h3>\n<table><tr><th>instinct</th><th>holders</th><th>win rate (95%)</th><th>alive at cap</th></tr>\n",
                esc(axis),
                esc(&v.value)
            );
            for i in &v.sim.instincts {
                body += &format!(
                    "<tr><td>{}</td><td>{}</td><td>{:.1}% ({:.1}–{:.1}%)</td><td>{:.1}%</td></tr>\n",
                    esc(&i.instinct),
                    i.holders,
                    100.0 * i.win_rate,
                    100.0 * i.ci_low,
                    100.0 * i.ci_high,
                    100.0 * i.alive_at_cap_rate
                );
            }
            body += "</table>\n";
        }
    }
    body
}

/// Every variant's text report.
fn numbers(r: &SweepReport, axis: &str) -> String {
    let mut body = String::new();
    body += "<h2>The numbers</h2>\n";
    for v in &r.variants {
        body += &format!(
            "<h3>{} = {}</h3>\n<pre>{}</pre>\n",
            esc(axis),
            esc(&v.value),
            esc(&super::outcome::sim_text(&v.sim))
        );
    }
    body
}

const STYLE: &str = "body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\
.cmd code{background:#f3f3f3;padding:.3em .5em;display:inline-block;word-break:break-all}\
svg{max-width:100%;height:auto}table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #eee;text-align:left}\
pre{background:#f7f7f7;padding:1em;overflow-x:auto;font-size:.85em}";

fn title(game: &str) -> String {
    foodweb_rules::GameId::from_key(game)
        .map_or_else(|| game.to_string(), |g| g.title().en.to_string())
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn section(head: &str, what: &str, svg: &str) -> String {
    format!("<h2>{}</h2>\n<p>{}</p>\n{svg}\n", esc(head), esc(what))
}

/// Every bot kind that played in any variant, in order of first sight.
fn kinds_in(r: &SweepReport) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for v in &r.variants {
        for b in &v.sim.bots {
            if !kinds.contains(&b.kind) {
                kinds.push(b.kind.clone());
            }
        }
    }
    kinds
}

/// `n` series, one value per variant each.
fn series_by(
    r: &SweepReport,
    n: usize,
    f: impl Fn(&foodweb_rules::sim::SimReport, usize) -> Option<Interval>,
) -> Vec<Vec<Interval>> {
    let none = (f64::NAN, f64::NAN, f64::NAN);
    (0..n)
        .map(|i| {
            r.variants
                .iter()
                .map(|v| f(&v.sim, i).unwrap_or(none))
                .collect()
        })
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A grouped bar chart: one group per swept value, one bar per series,
/// each with its 95% interval; `rate` draws the axis in percent from 0 to
/// 100, otherwise from 0 to a little over the highest interval.
fn grouped(
    caption: &str,
    axis: &str,
    groups: &[String],
    series: &[String],
    values: &[Vec<Interval>],
    rate: bool,
) -> Result<String, String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {caption}: {e}");
    let top = if rate {
        1.0
    } else {
        let hi = values
            .iter()
            .flatten()
            .map(|v| v.2)
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        (hi * 1.15).max(1e-6)
    };
    let n = groups.len();
    let k = series.len().max(1);
    let width = (160 + n * (40 + 26 * k)).clamp(480, 960) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..top)
            .map_err(|e| err(&e))?;
        let label = |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < n {
                groups[i as usize].clone()
            } else {
                String::new()
            }
        };
        let percent = |y: &f64| format!("{:.0}%", y * 100.0);
        let plain = |y: &f64| format!("{y:.1}");
        chart
            .configure_mesh()
            .disable_x_mesh()
            // Ticks at every half: the whole ones name the groups.
            .x_labels(2 * n + 2)
            .x_label_formatter(&label)
            .y_label_formatter(if rate { &percent } else { &plain })
            .x_desc(axis)
            .draw()
            .map_err(|e| err(&e))?;
        let group_w = 0.8;
        let bar_w = group_w / k as f64;
        for (s, name) in series.iter().enumerate() {
            let color = Palette99::pick(s).to_rgba();
            let off = -group_w / 2.0 + bar_w * s as f64;
            let bars = values[s]
                .iter()
                .enumerate()
                .filter(|(_, v)| v.0.is_finite())
                .map(move |(c, &(p, _, _))| {
                    let x0 = c as f64 + off;
                    Rectangle::new([(x0, 0.0), (x0 + bar_w * 0.9, p)], color.filled())
                });
            let drawn = chart.draw_series(bars).map_err(|e| err(&e))?;
            if series.len() > 1 {
                drawn.label(name.as_str()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
            }
            let whiskers = values[s]
                .iter()
                .enumerate()
                .filter(|(_, v)| v.0.is_finite())
                .map(move |(c, &(p, lo, hi))| {
                    let xc = c as f64 + off + bar_w * 0.45;
                    ErrorBar::new_vertical(
                        xc,
                        lo.max(0.0),
                        p,
                        hi.min(top),
                        BLACK.stroke_width(1),
                        6,
                    )
                });
            chart.draw_series(whiskers).map_err(|e| err(&e))?;
        }
        let same_seats = values.iter().all(|v| v.iter().all(|x| x.0.is_finite()));
        if rate && same_seats && series.len() > 1 && series[0].starts_with("seat") {
            // A fair share: one in the number of seats.
            let fair = 1.0 / series.len() as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(-0.5, fair), (n as f64 - 0.5, fair)],
                    BLACK.mix(0.4),
                )))
                .map_err(|e| err(&e))?;
        }
        if series.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.5))
                .draw()
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}
