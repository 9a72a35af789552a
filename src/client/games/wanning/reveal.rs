//! The end reveals the table (issue 71): in the game-over summary, who was
//! who (every player's animal, level and instinct, with its form and type,
//! their HP or the round they died in) and how the game was won, once the
//! rules reveal it (`table::end_revealed`; the table's `reveal_at_end`).

use bevy_egui::egui;
use foodweb_rules::wanning::state::WinBy;
use foodweb_rules::wanning::view::Revealed;
use foodweb_rules::wanning::{Form, WanningView, data};

use super::board::{kind_key, name};
use crate::client::{I18n, theme};

/// How the game was won, in words (`None` while nothing is revealed).
pub fn won_by(view: &WanningView, i18n: &I18n) -> Option<String> {
    let level = view.winner?;
    Some(match view.won_by? {
        WinBy::LastLevel => i18n.ta("wanning-won-by-last-level", &[("level", level.into())]),
        WinBy::Wisdom(s) => i18n.ta(
            "wanning-won-by-wisdom",
            &[("name", name(i18n, view, s).into())],
        ),
        WinBy::FoolWise(s) => i18n.ta(
            "wanning-won-by-fool-wise",
            &[("name", name(i18n, view, s).into())],
        ),
        WinBy::Cap => i18n.ta("wanning-won-by-cap", &[("level", level.into())]),
    })
}

/// Each seat as the end reveals it: two lines a seat, so a phone's width
/// holds them; the winning level's seats marked.
pub fn who_was_who(ui: &mut egui::Ui, view: &WanningView, i18n: &I18n) {
    if view.revealed.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.label(egui::RichText::new(i18n.t("wanning-reveal-title")).strong());
    for r in &view.revealed {
        let won = view.winner == Some(r.level);
        let head = i18n.ta(
            "wanning-reveal-seat",
            &[
                ("name", name(i18n, view, r.seat).into()),
                (
                    "animal",
                    data().animals[r.animal]
                        .name
                        .get(i18n.lang)
                        .to_string()
                        .into(),
                ),
                ("level", r.level.into()),
            ],
        );
        let head = egui::RichText::new(if won { format!("🏆 {head}") } else { head });
        ui.label(if won {
            head.strong().color(theme::ACCENT)
        } else {
            head
        });
        ui.label(egui::RichText::new(details(r, i18n)).small());
    }
}

/// "Sturdy (PT · Defence) · HP 2", or "… · died in round 3".
fn details(r: &Revealed, i18n: &I18n) -> String {
    let instinct = match r.instinct {
        Some(id) => {
            let form = match r.form {
                Some(Form::At) => "AT",
                Some(Form::Pt) => "PT",
                None => "—",
            };
            let kind = r.kind.map_or_else(String::new, |k| i18n.t(kind_key(k)));
            let mut line = i18n.ta(
                "wanning-reveal-instinct",
                &[
                    (
                        "instinct",
                        data().instinct(id).name.get(i18n.lang).to_string().into(),
                    ),
                    ("form", form.into()),
                    ("kind", kind.into()),
                ],
            );
            if r.early_bird {
                line.push_str(&format!(" · {}", i18n.t("wanning-reveal-early-bird")));
            }
            line
        }
        None => i18n.t("wanning-reveal-no-instinct"),
    };
    let fate = match r.died {
        Some(round) => i18n.ta("wanning-reveal-died", &[("round", round.into())]),
        None => i18n.ta("wanning-reveal-alive", &[("hp", r.hp.into())]),
    };
    format!("{instinct} · {fate}")
}
