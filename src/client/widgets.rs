//! Pieces of egui drawn on several screens: menu buttons, a table's bars
//! and panels, the loading bars.

use bevy_egui::egui;
use foodweb_rules::Lang;
use iyes_progress::ProgressTracker;

use foodweb_netcode::client::ClientModel;

use super::{I18n, theme};

/// The root of a screen: a `Ui` covering the window, for panels to divide.
pub fn screen(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "screen".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.content_rect()),
    )
}

/// A one-line text field whose cursor goes to the end of its text when it
/// gains focus. A tap on a phone lands anywhere in the field; with the
/// cursor at the start, a typed name went in before the old one
/// ("BobPlayer") and Backspace did nothing (issue 66).
pub fn line_field(ui: &mut egui::Ui, edit: egui::TextEdit) -> egui::Response {
    let mut out = edit.show(ui);
    if out.response.gained_focus() {
        let end = egui::text::CCursor::new(out.galley.text().chars().count());
        out.state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::one(end)));
        out.state.store(ui.ctx(), out.response.response.id);
    }
    out.response.response
}

/// A wide menu button.
pub fn menu_button(ui: &mut egui::Ui, text: &str, enabled: bool) -> egui::Response {
    ui.add_enabled(
        enabled,
        egui::Button::new(egui::RichText::new(text).size(22.0)).min_size(egui::vec2(320.0, 48.0)),
    )
}

/// The language switch shown on the title and table screens.
pub fn language_switch(ui: &mut egui::Ui, lang: &mut Lang) {
    ui.selectable_value(lang, Lang::Zh, "中文");
    ui.selectable_value(lang, Lang::En, "English");
}

/// The rules document, with its headings, quotes and tables set apart.
pub fn rules_text(ui: &mut egui::Ui, markdown: &str) {
    for line in markdown.lines() {
        let line = line.trim_end();
        if line.starts_with("<!--") || line.starts_with("| ---") {
            continue;
        }
        let text = if let Some(h) = line.strip_prefix("# ") {
            egui::RichText::new(h).size(26.0).color(theme::ACCENT)
        } else if let Some(h) = line.strip_prefix("## ") {
            egui::RichText::new(h).size(21.0).color(theme::ACCENT)
        } else if let Some(h) = line.strip_prefix("### ") {
            egui::RichText::new(h).size(18.0).strong()
        } else if let Some(q) = line.strip_prefix("> ") {
            egui::RichText::new(q).italics().color(theme::MUTED)
        } else if line.starts_with('|') {
            egui::RichText::new(line.trim_matches('|').replace(" | ", "  ·  ")).small()
        } else {
            egui::RichText::new(line.replace("**", ""))
        };
        ui.label(text);
    }
}

/// Screens narrower than this (in points: a phone held upright) stack what
/// wider ones put side by side.
pub const NARROW_WIDTH: f32 = 720.0;

/// Whether the window is phone-narrow.
/// Which keys do what at this table, under its actions (not on a phone,
/// which has no keyboard to speak of).
pub fn keys_help(ui: &mut egui::Ui, i18n: &I18n, key: &str) {
    if !narrow(ui.ctx()) {
        ui.label(egui::RichText::new(i18n.t(key)).small().color(theme::MUTED));
    }
}

/// The now line (issue 38): one line under the top bar naming what the
/// seat may do at this moment (or whom the table waits on), in every
/// game, guided or not; the marked pieces are the ones it speaks of. At a
/// lesson's table the lesson's step takes its place: what to do and why,
/// and how far the lesson has come. Told to the screen's account too.
pub fn now_line(
    ui: &mut egui::Ui,
    said: &mut crate::client::reach::Said,
    lesson: Option<&foodweb_rules::lesson::LessonNow>,
    i18n: &I18n,
    text: String,
) {
    let step = lesson
        .filter(|l| !l.done)
        .and_then(|l| Some((l, l.say.as_ref()?)));
    crate::client::reach::point_at(ui.ctx(), step.map(|(l, _)| l.point.clone()));
    match step {
        Some((l, say)) => {
            egui::Frame::new()
                .stroke(egui::Stroke::new(1.5, theme::ACCENT))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(8, 4))
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(
                            egui::RichText::new(i18n.ta(
                                "lesson-step",
                                &[("n", l.step.into()), ("total", l.steps.into())],
                            ))
                            .color(theme::MUTED),
                        );
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new(say.get(i18n.lang))
                                    .color(theme::ACCENT)
                                    .strong(),
                            )
                            .wrap(),
                        );
                    });
                });
        }
        None if !text.is_empty() => {
            ui.add(
                egui::Label::new(egui::RichText::new(&text).color(theme::ACCENT).strong()).wrap(),
            );
        }
        None => {}
    }
    said.now = text;
}

/// A step's deadline in the top bar: "⏱ m:ss", red in its last 15 s.
pub fn deadline(ui: &mut egui::Ui, left_ms: u64) {
    tick_on(ui.ctx(), left_ms);
    let colour = if left_ms < 15_000 {
        theme::BAD
    } else {
        theme::TEXT
    };
    ui.label(egui::RichText::new(format!("⏱ {}", clock_text(left_ms))).color(colour));
}

/// Until a countdown at `left_ms` shows its next second ([`clock_text`]
/// rounds up: 4.2 s reads 0:05 until 4.0 s).
pub fn next_second(left_ms: u64) -> std::time::Duration {
    let into = match left_ms % 1000 {
        0 => 1000,
        ms => ms,
    };
    // A millisecond past the turn, so the update finds it turned.
    std::time::Duration::from_millis(into + 1)
}

/// Wakes the app when a countdown at `left_ms` shows its next second (it
/// draws only on change).
pub fn tick_on(ctx: &egui::Context, left_ms: u64) {
    if left_ms > 0 {
        super::wake::wake_after(ctx, next_second(left_ms));
    }
}

/// A countdown as "m:ss", rounded up so it reads 0:00 only at the end.
pub fn clock_text(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

pub fn narrow(ctx: &egui::Context) -> bool {
    ctx.content_rect().width() < NARROW_WIDTH
}

/// A settlement played out over a table: on a wide screen at its right,
/// `top` down and `width` wide; on a phone, whose board is all its middle,
/// over the top bar, the screen's width. Whether it is a phone's, too.
pub fn settlement_window(
    ctx: &egui::Context,
    title: String,
    top: f32,
    width: f32,
) -> (egui::Window<'static>, bool) {
    let window = egui::Window::new(title)
        .id(egui::Id::new("settlement"))
        .collapsible(false);
    if narrow(ctx) {
        let width = ctx.content_rect().width() - 16.0;
        let window = window
            .anchor(egui::Align2::CENTER_TOP, [0.0, 4.0])
            .default_width(width)
            .max_width(width);
        (window, true)
    } else {
        let window = window
            .anchor(egui::Align2::RIGHT_TOP, [-8.0, top])
            .default_width(width);
        (window, false)
    }
}

/// Which half of a table screen a phone shows: the table, or its side
/// (scores, log, notes). Wider screens show both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableTab {
    #[default]
    Table,
    Side,
}

/// What was pressed in a table's top bar this frame.
#[derive(Default)]
pub struct BarPressed {
    /// The language chosen, if it changed.
    pub lang: Option<Lang>,
    pub rules: bool,
    pub leave: bool,
    /// The sound switched (on to off, or off to on).
    pub sound: bool,
}

/// A table's top bar: its status (`status` draws it) on the left, and the
/// language, sound (`sound_on`: it is on now), rules and leave buttons on
/// the right. On a phone the status
/// wraps and the buttons, with the table/side tabs first, get a row of
/// their own.
pub fn table_top_bar(
    ui: &mut egui::Ui,
    i18n: &I18n,
    tab: &mut TableTab,
    sound_on: bool,
    status: impl FnOnce(&mut egui::Ui),
) -> BarPressed {
    let mut pressed = BarPressed::default();
    let mut lang = i18n.lang;
    if narrow(ui.ctx()) {
        ui.horizontal_wrapped(status);
        ui.horizontal_wrapped(|ui| {
            let table = ui.selectable_value(tab, TableTab::Table, i18n.t("table-tab-table"));
            super::reach::control(&table, "tab-table", super::reach::Does::Pick);
            let side = ui.selectable_value(tab, TableTab::Side, i18n.t("table-tab-side"));
            super::reach::control(&side, "tab-side", super::reach::Does::Pick);
            ui.separator();
            language_switch(ui, &mut lang);
            pressed.sound = sound_switch(ui, i18n, sound_on);
            pressed.rules = ui.button(i18n.t("table-rules")).clicked();
            pressed.leave = leave_button(ui, i18n);
        });
    } else {
        ui.horizontal(|ui| {
            status(ui);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                pressed.leave = leave_button(ui, i18n);
                pressed.rules = ui.button(i18n.t("table-rules")).clicked();
                pressed.sound = sound_switch(ui, i18n, sound_on);
                language_switch(ui, &mut lang);
            });
        });
    }
    pressed.lang = (lang != i18n.lang).then_some(lang);
    pressed
}

/// The top bar's "Leave table"; whether it was pressed.
fn leave_button(ui: &mut egui::Ui, i18n: &I18n) -> bool {
    let button = ui.button(i18n.t("table-leave"));
    super::reach::control(&button, "table-leave", super::reach::Does::Move);
    button.clicked()
}

/// The top bar's sound switch ("♪ On" / "♪ Off"); whether it was pressed.
fn sound_switch(ui: &mut egui::Ui, i18n: &I18n, on: bool) -> bool {
    let (label, hover) = if on {
        ("table-sound-button-on", "table-sound-on")
    } else {
        ("table-sound-button-off", "table-sound-off")
    };
    let button = ui
        .selectable_label(on, i18n.t(label))
        .on_hover_text(i18n.t(hover));
    super::reach::control(&button, "sound", super::reach::Does::Pick);
    button.clicked()
}

/// A table screen's side panel: at the right on wide screens; on narrow
/// ones, the whole screen below the top bar while its tab is chosen.
/// Returns whether the table itself is to be drawn.
pub fn side_panel(
    screen: &mut egui::Ui,
    id: &'static str,
    tab: TableTab,
    add: impl FnOnce(&mut egui::Ui),
) -> bool {
    if !narrow(screen.ctx()) {
        egui::Panel::right(id)
            .default_size(330.0)
            .resizable(true)
            .show(screen, add);
        return true;
    }
    if tab == TableTab::Side {
        egui::CentralPanel::default().show(screen, add);
        return false;
    }
    true
}

/// The table's public log (what everyone saw) over this seat's private
/// notes, each scrolling and kept at its newest line. `log_share` is the
/// part of the height left that the log may take; `reserve` is kept free
/// below the notes (for a chat line, say).
pub fn log_and_notes(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    log_share: f32,
    reserve: f32,
) {
    ui.label(egui::RichText::new(i18n.t("table-log")).strong());
    egui::ScrollArea::vertical()
        .id_salt("table-log")
        .max_height(ui.available_height() * log_share)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for a in &model.public {
                ui.label(egui::RichText::new(i18n.pick(&a.text)).small());
            }
        });
    ui.separator();
    ui.label(egui::RichText::new(i18n.t("table-notes")).strong());
    egui::ScrollArea::vertical()
        .id_salt("table-notes")
        .max_height((ui.available_height() - reserve).max(60.0))
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for n in &model.notes {
                ui.label(
                    egui::RichText::new(i18n.pick(&n.text))
                        .small()
                        .color(theme::ACCENT),
                );
            }
        });
}

/// A table screen's bottom panel: what the seat holds (`mine`, in a column
/// `mine_width` wide) beside what it can do (`rest`); on a phone the two
/// stack, and scroll when they need more than half the screen.
pub fn table_bottom(
    screen: &mut egui::Ui,
    id: &'static str,
    min_height: f32,
    mine_width: f32,
    mine: impl FnOnce(&mut egui::Ui),
    rest: impl FnOnce(&mut egui::Ui),
) {
    let ctx = screen.ctx().clone();
    if narrow(&ctx) {
        let height = ctx.content_rect().height();
        egui::Panel::bottom(id)
            .min_size(height * 0.38)
            .max_size(height * 0.5)
            .show(screen, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    mine(ui);
                    ui.separator();
                    rest(ui);
                });
            });
    } else {
        egui::Panel::bottom(id)
            .min_size(min_height)
            .show(screen, |ui| {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        ui.set_width(mine_width);
                        mine(ui);
                    });
                    ui.separator();
                    ui.vertical(rest);
                });
            });
    }
}

/// How far a loading state has come, from 0 to 1.
pub fn fraction<S: bevy::state::state::FreelyMutableState>(tracker: &ProgressTracker<S>) -> f32 {
    let g = tracker.get_global_progress();
    if g.total == 0 {
        0.0
    } else {
        g.done as f32 / g.total as f32
    }
}

/// The place of a table's scene while the game's art still loads: its
/// own progress bar (the art loads when the game is chosen, not before
/// the title screen).
pub fn art_loading(screen: &mut egui::Ui, i18n: &I18n, rect: egui::Rect, fraction: f32) {
    screen.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(rect.height() * 0.4);
            ui.label(i18n.t("table-art-loading"));
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(rect.width().min(420.0) * 0.9)
                    .show_percentage(),
            );
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A countdown wakes the app when it shows its next second
    /// ([`clock_text`] rounds up): 4.2 s reads 0:05 until 4.0 s, so the
    /// next change is 200 ms away; at a whole second, a second away.
    #[test]
    fn a_countdown_wakes_the_app_when_its_shown_second_turns() {
        for (left_ms, wait_ms) in [(4_200, 201), (4_000, 1_001), (999, 1_000), (1, 2)] {
            let wait = next_second(left_ms);
            assert_eq!(wait.as_millis(), wait_ms, "at {left_ms} ms left");
            let later = left_ms.saturating_sub(wait_ms as u64);
            assert_ne!(
                clock_text(later),
                clock_text(left_ms),
                "at {left_ms} ms left"
            );
            let just_before = left_ms - (wait_ms as u64 - 2).min(left_ms);
            assert_eq!(
                clock_text(just_before),
                clock_text(left_ms),
                "at {left_ms} ms left"
            );
        }
    }
}
