//! The settlement played out line by line over the map: the table's lines
//! (seed: 「公示本轮行动信息」, each step's rooms flashing on the map) and,
//! after each step's, the seat's own lines of that step (issue 71: 「对相关
//! 玩家的生命值进行秘密结算」: the battle and the strength it lost by, the
//! shadows, the gas, the upkeep, the rocket, its own medicine, its revival,
//! its gold bars at the end, each with its HP before and after, in the
//! words its notes keep). Skip shows them all; Continue puts them away.

use bevy_egui::egui;
use foodweb_rules::Bilingual;
use foodweb_rules::gene::news::change_line;
use foodweb_rules::gene::state::GeneChange;
use foodweb_rules::gene::{self, GenePhase, GeneView, SettleFact, SettleLine};
use foodweb_rules::table::SeatName;

use crate::client::reach::{self, Does};
use crate::client::{I18n, theme, widgets};

/// Seconds each settlement line stays on the map before the next.
const LINE_SECS: f64 = 1.4;

/// The settlement being played out, and the last one put away.
#[derive(Default)]
pub struct Playing {
    /// Its round and when it began.
    playing: Option<(u8, f64)>,
    /// The last settlement the player has closed.
    seen: u8,
}

/// One line of the settlement as the seat sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Entry<'a> {
    /// The table's line.
    Table(&'a SettleLine),
    /// A change to the seat's own HP.
    Mine(&'a GeneChange),
}

/// The table's lines, each step's followed by the seat's own of that step
/// (a step with no line of the table's, as the upkeep, has them before the
/// next step's; the gold bars after the roll-call).
pub fn entries(view: &GeneView) -> Vec<Entry<'_>> {
    let round = view.settlement.first().map_or(0, |l| l.round);
    let mut mine = view.mine.iter().filter(|c| c.round == round).peekable();
    let mut out = Vec::with_capacity(view.settlement.len() + view.mine.len());
    for line in &view.settlement {
        while let Some(c) = mine.next_if(|c| c.step < line.step) {
            out.push(Entry::Mine(c));
        }
        out.push(Entry::Table(line));
    }
    out.extend(mine.map(Entry::Mine));
    out
}

/// The table's line last shown among the first `n`: what the map flashes.
pub fn current<'a>(entries: &[Entry<'a>], n: usize) -> Option<&'a SettleLine> {
    entries[..n.min(entries.len())]
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Table(l) => Some(*l),
            Entry::Mine(_) => None,
        })
}

impl Playing {
    /// Starts a fresh settlement, closes one played out when the action
    /// phase begins, and says how many of its `len` lines show.
    pub fn shown(&mut self, view: &GeneView, len: usize, now: f64) -> Option<usize> {
        let fresh = view.settlement.first().map_or(0, |l| l.round);
        if fresh > self.seen && self.playing.is_none_or(|(r, _)| r != fresh) {
            self.playing = Some((fresh, now));
        }
        let shown = self
            .playing
            .map(|(_, t0)| (((now - t0) / LINE_SECS) as usize + 1).min(len));
        // A settlement played out closes by itself when the action phase begins.
        if let (Some((round, _)), Some(n)) = (self.playing, shown)
            && n >= len
            && view.phase == GenePhase::Action
        {
            self.seen = round;
            self.playing = None;
        }
        self.playing.and(shown)
    }

    /// The round being played out.
    pub fn round(&self) -> Option<u8> {
        self.playing.map(|(r, _)| r)
    }
}

/// The colour a settlement line flashes its rooms in.
pub fn line_colour(line: &SettleLine) -> egui::Color32 {
    match line.fact {
        SettleFact::ShadowMet(_) => egui::Color32::from_rgb(150, 110, 220),
        SettleFact::Battle(_) | SettleFact::Brawl(_) => theme::BAD,
        SettleFact::Rocket(_) => egui::Color32::from_rgb(250, 140, 40),
        _ => theme::ACCENT,
    }
}

/// An entry in words, with its step's number for the table's.
fn words(entry: &Entry, view: &GeneView, i18n: &I18n) -> String {
    match entry {
        Entry::Table(line) => {
            let step = if line.step <= 7 {
                format!("{}. ", line.step)
            } else {
                String::new()
            };
            let words = gene::news::settle_words(line, |s| {
                view.names
                    .get(s.index())
                    .map_or_else(|| Bilingual::new("?", "?"), SeatName::words)
            });
            format!("{step}{}", i18n.pick(&words))
        }
        Entry::Mine(c) => format!("  ➜ {}", i18n.pick(&change_line(c))),
    }
}

/// The lines shown, as the screen words them (the screen's account).
pub fn said(entries: &[Entry], n: usize, view: &GeneView, i18n: &I18n) -> Vec<String> {
    entries
        .iter()
        .take(n)
        .map(|e| words(e, view, i18n))
        .collect()
}

/// The settlement being played out: its first `n` lines, the newest in its
/// colour (the seat's own in red for a loss, green for a gain), and Skip
/// or Continue.
/// `lines`: the first `n` entries' words (`said`).
pub fn window(
    ctx: &egui::Context,
    entries: &[Entry],
    lines: &[String],
    playing: &mut Playing,
    i18n: &I18n,
    now: f64,
) {
    let n = lines.len();
    let Some(round) = playing.round() else {
        return;
    };
    // A phone shows its last lines only (the log has them all), leaving
    // the map and the controls below it to tap.
    let title = i18n.ta("gene-settlement", &[("n", round.into())]);
    let (window, narrow) = widgets::settlement_window(ctx, title, 220.0, 360.0);
    let first = if narrow { n.saturating_sub(4) } else { 0 };
    window.show(ctx, |ui| {
        for (k, (entry, line)) in entries.iter().zip(lines).enumerate().skip(first) {
            let mut text = egui::RichText::new(line);
            if k + 1 == n {
                text = text.strong().color(match entry {
                    Entry::Table(line) => line_colour(line),
                    Entry::Mine(c) if c.hp < 0 => theme::BAD,
                    Entry::Mine(c) if c.hp > 0 => theme::GOOD,
                    Entry::Mine(_) => theme::ACCENT,
                });
            } else if matches!(entry, Entry::Mine(_)) {
                text = text.color(theme::ACCENT);
            }
            ui.label(text);
        }
        let done = n >= entries.len();
        let close = ui.button(if done {
            i18n.t("table-continue")
        } else {
            i18n.t("gene-skip")
        });
        let name = if done {
            "settlement-continue"
        } else {
            "settlement-skip"
        };
        reach::control(&close, name, Does::Pick);
        if close.clicked() {
            if done {
                playing.seen = round;
                playing.playing = None;
            } else if let Some(p) = playing.playing.as_mut() {
                p.1 = now - LINE_SECS * entries.len() as f64;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::gene::state::GeneWhy;

    /// Issue 71: "Gene Survival never says why you lost HP: the
    /// settlement's numbered steps skip from 3 to 6 (no upkeep line)". The
    /// seat's own lines follow its step's table lines; the upkeep's, which
    /// the table does not announce, come before step 5's; the gold bars
    /// after the roll-call.
    #[test]
    fn each_of_your_lines_follows_its_steps_table_lines() {
        let line = |step, fact| SettleLine {
            step,
            round: 2,
            fact,
        };
        let mine = |step, why| GeneChange {
            round: 2,
            step,
            why,
            hp: -1,
            hp_after: 5,
        };
        let room = gene::RoomId(0);
        let view = GeneView {
            settlement: vec![
                line(1, SettleFact::Surgery(false)),
                line(2, SettleFact::Battle(room)),
                line(5, SettleFact::Rocket(room)),
                line(6, SettleFact::StateChanged(false)),
                line(8, SettleFact::Hps(vec![])),
            ],
            mine: vec![
                mine(
                    2,
                    GeneWhy::Battle {
                        room,
                        brawl: false,
                        strongest: 4,
                        yours: 3,
                    },
                ),
                mine(
                    4,
                    GeneWhy::Upkeep {
                        water: true,
                        food: false,
                    },
                ),
                mine(8, GeneWhy::Gold { bars: 1 }),
            ],
            ..GeneView::default()
        };
        let order: Vec<(bool, u8)> = entries(&view)
            .iter()
            .map(|e| match e {
                Entry::Table(l) => (false, l.step),
                Entry::Mine(c) => (true, c.step),
            })
            .collect();
        assert_eq!(
            order,
            [
                (false, 1),
                (false, 2),
                (true, 2),
                (true, 4),
                (false, 5),
                (false, 6),
                (false, 8),
                (true, 8)
            ]
        );
        let e = entries(&view);
        assert_eq!(
            current(&e, 3).map(|l| l.step),
            Some(2),
            "the map flashes the battle's room"
        );
    }
}
