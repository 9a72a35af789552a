//! Private talk at a Wanning table: a conversation per pair with unread
//! marks, the seed's no-lying rule above it, and how many more lines the
//! table's bounds let this player send (issue 70). The host seat reads
//! every conversation.

use std::collections::HashMap;

use bevy_egui::egui;
use foodweb_netcode::client::ClientModel;
use foodweb_netcode::games::AnySettings;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::moves::talk_open;
use foodweb_rules::wanning::state::TalkLine;
use foodweb_rules::wanning::{WanningAction, WanningSettings, WanningView};

use super::board::name;
use crate::client::reach::{self, Does};
use crate::client::{I18n, theme};

/// The player's conversations: the one open, the line being written, and
/// how many lines of each were read.
#[derive(Default)]
pub struct Conversations {
    pub(crate) with: Option<SeatId>,
    text: String,
    pub(super) read: HashMap<SeatId, usize>,
}

/// The conversation's other player, from the viewer's side.
fn other(line: &TalkLine, me: SeatId) -> SeatId {
    if line.from == me { line.to } else { line.from }
}

/// Lines of each of the viewer's conversations, by the other player.
pub(super) fn talk_counts(view: &WanningView, me: SeatId) -> HashMap<SeatId, usize> {
    let mut count: HashMap<SeatId, usize> = HashMap::new();
    for l in &view.talk {
        *count.entry(other(l, me)).or_default() += 1;
    }
    count
}

pub(super) fn unread(view: &WanningView, read: &HashMap<SeatId, usize>) -> usize {
    let Some(me) = view.me else { return 0 };
    talk_counts(view, me)
        .iter()
        .map(|(s, c)| c.saturating_sub(read.get(s).copied().unwrap_or(0)))
        .sum()
}

/// Private talk: a conversation per pair, with unread marks; the seed's
/// no-lying rule above it. The host reads every conversation.
pub(super) fn talk(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut Conversations,
    i18n: &I18n,
    bounds: Option<&WanningSettings>,
) -> Option<WanningAction> {
    ui.label(
        egui::RichText::new(i18n.t("wanning-no-lying"))
            .small()
            .color(theme::ACCENT),
    );
    if let Some(h) = view.host.as_deref() {
        egui::ScrollArea::vertical()
            .id_salt("wanning-host-talk")
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for l in &h.talk {
                    ui.label(
                        egui::RichText::new(format!(
                            "[{}] {} → {}: {}",
                            l.round,
                            name(i18n, view, l.from),
                            name(i18n, view, l.to),
                            l.text
                        ))
                        .small(),
                    );
                }
            });
        return None;
    }
    let me = view.me?;
    let mut action = None;
    let count = talk_counts(view, me);
    ui.horizontal_wrapped(|ui| {
        for p in &view.seats {
            if p.seat == me {
                continue;
            }
            let lines = count.get(&p.seat).copied().unwrap_or(0);
            if p.dead && lines == 0 {
                continue;
            }
            let new = lines.saturating_sub(state.read.get(&p.seat).copied().unwrap_or(0));
            let label = if new > 0 {
                format!("{} ({new})", i18n.name(&p.name))
            } else {
                i18n.name(&p.name)
            };
            let text = egui::RichText::new(label);
            let text = if new > 0 {
                text.strong().color(theme::ACCENT)
            } else {
                text
            };
            let chosen = ui.selectable_label(state.with == Some(p.seat), text);
            reach::control(&chosen, &format!("talk-with:{}", p.seat.0), Does::Pick);
            if chosen.clicked() {
                state.with = Some(p.seat);
            }
        }
    });
    let Some(with) = state.with else {
        ui.label(egui::RichText::new(i18n.t("wanning-talk-choose")).color(theme::MUTED));
        return None;
    };
    ui.separator();
    let lines: Vec<&TalkLine> = view.talk.iter().filter(|l| other(l, me) == with).collect();
    state.read.insert(with, lines.len());
    egui::ScrollArea::vertical()
        .id_salt("wanning-talk")
        .max_height((ui.available_height() - 60.0).max(60.0))
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for l in &lines {
                let mine = l.from == me;
                ui.label(
                    egui::RichText::new(format!("{}: {}", name(i18n, view, l.from), l.text))
                        .color(if mine { theme::TEXT } else { theme::ACCENT }),
                );
            }
        });
    let alive = !view.seats[me.index()].dead && !view.seats[with.index()].dead;
    if alive && !talk_open(view.round, view.phase) {
        // The judge would refuse the line: say when it opens instead.
        let not_yet = ui.label(
            egui::RichText::new(i18n.t("wanning-talk-not-yet"))
                .small()
                .color(theme::MUTED),
        );
        reach::control(&not_yet, "talk-not-yet", Does::Nothing);
    } else if alive {
        // The button first, from the right, and the line takes what is
        // left: a line sized from a guess at the button's width pushed the
        // panel wider every frame the guess fell short.
        ui.horizontal(|ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let send = ui.button(i18n.t("wanning-talk-send"));
                reach::control(&send, "talk-send", Does::Move);
                let send = send.clicked();
                let edit = crate::client::widgets::line_field(
                    ui,
                    egui::TextEdit::singleline(&mut state.text)
                        .hint_text(i18n.t("wanning-talk-hint"))
                        .desired_width(ui.available_width()),
                );
                reach::control(&edit, "talk-line", Does::Pick);
                let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (send || enter) && !state.text.trim().is_empty() {
                    action = Some(WanningAction::Say {
                        to: with,
                        text: state.text.trim().to_string(),
                    });
                    state.text.clear();
                }
            });
        });
        if let Some(settings) = bounds {
            lines_left(ui, i18n, view, settings);
        }
    }
    action
}

/// The settings of the Wanning table the model is at, for its bounds
/// on talk (none in a replay, which has no table's settings).
pub(super) fn bounds(model: &ClientModel) -> Option<&WanningSettings> {
    match &model.lobby.as_ref()?.settings {
        AnySettings::Wanning(s) => Some(s),
        _ => None,
    }
}

/// Under the line being written: how many more the judge will take
/// (`WanningView::talk_left`), in red once none.
fn lines_left(ui: &mut egui::Ui, i18n: &I18n, view: &WanningView, settings: &WanningSettings) {
    let Some((round, game)) = view.talk_left(settings) else {
        return;
    };
    let text = i18n.ta(
        "wanning-talk-left",
        &[("round", round.into()), ("game", game.into())],
    );
    let colour = if round == 0 { theme::BAD } else { theme::MUTED };
    let label = ui.label(egui::RichText::new(text).small().color(colour));
    // Its numbers in its name, for a test to read as a person reads them.
    reach::control(&label, &format!("talk-left:{round}:{game}"), Does::Nothing);
}
