//! The end reveals the table (issue 71): the game-over ranking with every
//! player's gene panel, the gold bars turned to HP, and why each place is
//! where it is (rules.md §8), once the rules reveal it
//! (`table::end_revealed`; the table's `reveal_at_end`); without it, the
//! places, the HP the table heard and the gold cubes only.

use bevy_egui::egui;
use foodweb_rules::gene::GeneView;
use foodweb_rules::gene::view::{GeneRevealed, RankedBy};
use foodweb_rules::table::{GameResult, SeatId};

use crate::client::{I18n, theme};

/// Why the places are as they are, in words (`None` while nothing is
/// revealed).
fn ranked_by(view: &GeneView, i18n: &I18n, name: &impl Fn(SeatId) -> String) -> Option<String> {
    Some(match view.ranked_by? {
        RankedBy::Hp => i18n.t("gene-ranked-hp"),
        RankedBy::AllShadows => i18n.t("gene-ranked-all-shadows"),
        RankedBy::LastLiving(s) => i18n.ta("gene-ranked-last-living", &[("name", name(s).into())]),
    })
}

/// The HP a seat ranked by: its gold bars and its shadow marked.
fn hp_cell(view: &GeneView, i: usize, r: Option<&GeneRevealed>, i18n: &I18n) -> String {
    let (hp, shadow, gold) = match r {
        Some(r) => (r.hp, r.shadow, r.gold),
        None => (view.hp[i], view.shadows[i], 0),
    };
    let hp_words = if gold > 0 {
        i18n.ta("gene-hp-gold", &[("hp", hp.into()), ("gold", gold.into())])
    } else {
        hp.to_string()
    };
    if shadow {
        i18n.ta("gene-hp-shadow", &[("hp", hp_words.into())])
    } else {
        hp_words
    }
}

/// The ranking: why, then place, player, HP (and, revealed, the gene
/// panel) and gold cubes, best first; then what the cubes are. `name`
/// names a seat.
pub fn ranking(
    ui: &mut egui::Ui,
    view: &GeneView,
    result: &GameResult,
    i18n: &I18n,
    name: impl Fn(SeatId) -> String,
) {
    if let Some(why) = ranked_by(view, i18n, &name) {
        ui.label(egui::RichText::new(why).small());
    }
    let revealed = !view.revealed.is_empty();
    let mut order: Vec<usize> = (0..result.places.len()).collect();
    order.sort_by_key(|&i| (result.places[i], i));
    egui::Grid::new("gene-ranking")
        .striped(true)
        .show(ui, |ui| {
            ui.label(i18n.t("gene-place"));
            ui.label(i18n.t("gene-player"));
            ui.label(i18n.t("gene-hp-header"));
            if revealed {
                ui.label(i18n.t("gene-genes-header"));
            }
            ui.label(i18n.t("gene-gold"));
            ui.end_row();
            for i in order {
                let seat = SeatId(i as u8);
                let place = result.places[i];
                let mut who = egui::RichText::new(name(seat));
                if place == 1 {
                    who = who.color(theme::ACCENT).strong().size(19.0);
                }
                ui.label(i18n.ta("table-place", &[("n", place.into())]));
                ui.label(who);
                let r = view.revealed.get(i);
                ui.label(hp_cell(view, i, r, i18n));
                if let Some(r) = r {
                    ui.label(r.genes.map_or_else(
                        || "—".to_string(),
                        |g| format!("{}·{}·{}", g.strength, g.speed, g.carry),
                    ));
                }
                ui.label(result.scores[i].to_string());
                ui.end_row();
            }
        });
    if revealed {
        ui.label(egui::RichText::new(i18n.t("gene-genes-legend")).small());
    }
    ui.label(egui::RichText::new(i18n.t("gene-cubes-note")).small());
}
