//! Pieces drawn on several screens: cards, card backs, menu buttons.

use bevy_egui::egui::{self, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, Vec2};
use foodweb_rules::Lang;
use foodweb_rules::forest::{CardId, Role, deck};

use foodweb_netcode::client::ClientModel;

use super::{I18n, card_art, theme};

pub const CARD_SIZE: Vec2 = Vec2::new(92.0, 128.0);
pub const SMALL_CARD: Vec2 = Vec2::new(58.0, 80.0);

fn role_colour(role: Role) -> Color32 {
    match role {
        Role::Producer => Color32::from_rgb(74, 124, 62),
        Role::Herbivore => Color32::from_rgb(160, 124, 70),
        Role::InsectEater => Color32::from_rgb(86, 112, 150),
        Role::Predator => Color32::from_rgb(150, 64, 56),
        Role::Decomposer => Color32::from_rgb(110, 86, 120),
        Role::DeathAndDecay => Color32::from_rgb(40, 40, 44),
    }
}

/// A face-up card: its picture, name, and energy in the top-right corner.
pub fn card(
    ui: &mut egui::Ui,
    card: CardId,
    size: Vec2,
    lang: Lang,
    selected: bool,
    enabled: bool,
) -> egui::Response {
    card_dropped(ui, card, size, lang, selected, enabled, 0.0, 0.0)
}

/// How far the outer cards of a fanned hand sit below the middle ones.
pub const FAN_DROP: f32 = 16.0;

/// One card of a hand held as a fan: `at` runs from -1 (leftmost) to 1
/// (rightmost); outer cards sit lower, a selected card rises.
pub fn fan_card(
    ui: &mut egui::Ui,
    card: CardId,
    size: Vec2,
    lang: Lang,
    selected: bool,
    enabled: bool,
    at: f32,
) -> egui::Response {
    let drop = if selected {
        0.0
    } else {
        4.0 + (FAN_DROP - 4.0) * at * at
    };
    card_dropped(ui, card, size, lang, selected, enabled, drop, FAN_DROP)
}

#[allow(clippy::too_many_arguments)]
fn card_dropped(
    ui: &mut egui::Ui,
    card: CardId,
    size: Vec2,
    lang: Lang,
    selected: bool,
    enabled: bool,
    drop: f32,
    room: f32,
) -> egui::Response {
    let sense = if enabled {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (slot, response) = ui.allocate_exact_size(size + Vec2::new(0.0, room), sense);
    let rect = Rect::from_min_size(slot.min + Vec2::new(0.0, drop), size);
    let species = deck().card(card);
    let scale = size.y / CARD_SIZE.y;
    let painter = ui.painter_at(slot.expand(4.0));
    let lift = if enabled && response.hovered() {
        -4.0
    } else {
        0.0
    };
    let rect = rect.translate(Vec2::new(0.0, lift));
    let parchment = Color32::from_rgb(240, 234, 214);
    let role = role_colour(species.role);
    let mut fill = role.lerp_to_gamma(parchment, 0.55);
    if !enabled {
        fill = fill.gamma_multiply(0.6);
    }
    painter.rect_filled(rect, CornerRadius::same(8), parchment);
    painter.rect_filled(rect.shrink(4.0 * scale), CornerRadius::same(6), fill);
    let border = if selected {
        Stroke::new(3.0, theme::ACCENT)
    } else {
        Stroke::new(1.0, Color32::from_gray(30))
    };
    painter.rect_stroke(
        rect,
        CornerRadius::same(8),
        border,
        egui::StrokeKind::Outside,
    );
    // Energy, top right.
    let badge = Pos2::new(rect.right() - 14.0 * scale, rect.top() + 14.0 * scale);
    painter.circle_filled(badge, 11.0 * scale, Color32::from_rgb(250, 214, 90));
    painter.text(
        badge,
        egui::Align2::CENTER_CENTER,
        species.energy.to_string(),
        FontId::proportional(14.0 * scale),
        Color32::BLACK,
    );
    // Picture: the illustration, or the glyph if it did not load.
    let art_centre = Pos2::new(rect.center().x, rect.top() + size.y * 0.44);
    match card_art::texture(ui.ctx(), card) {
        Some(texture) => {
            let side = (size.x - 10.0 * scale).min(size.y - 44.0 * scale);
            let art = Rect::from_center_size(art_centre, Vec2::splat(side));
            let tint = if enabled {
                Color32::WHITE
            } else {
                Color32::from_gray(170)
            };
            painter.image(
                texture,
                art,
                Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
                tint,
            );
        }
        None => {
            painter.text(
                art_centre,
                egui::Align2::CENTER_CENTER,
                &species.icon,
                FontId::proportional(40.0 * scale),
                Color32::WHITE,
            );
        }
    }
    // Name.
    let name_rect = Rect::from_min_max(
        Pos2::new(rect.left() + 3.0, rect.bottom() - 30.0 * scale),
        Pos2::new(rect.right() - 3.0, rect.bottom() - 4.0),
    );
    painter.rect_filled(name_rect, CornerRadius::same(4), role.gamma_multiply(0.9));
    let font = FontId::proportional(if lang == Lang::Zh { 13.0 } else { 11.0 } * scale.max(0.8));
    let galley = painter.layout(
        species.name.get(lang).to_string(),
        font,
        Color32::WHITE,
        name_rect.width() - 2.0,
    );
    painter.galley(
        name_rect.center() - galley.size() / 2.0,
        galley,
        Color32::WHITE,
    );
    response.on_hover_text(format!(
        "{} · {} {}",
        species.name.get(lang),
        species.role.name().get(lang),
        species.energy
    ))
}

/// The common back of every card.
pub fn card_back(ui: &mut egui::Ui, size: Vec2) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, CornerRadius::same(6), Color32::from_rgb(30, 70, 44));
    painter.rect_stroke(
        rect.shrink(3.0),
        CornerRadius::same(4),
        Stroke::new(1.5, theme::ACCENT),
        egui::StrokeKind::Inside,
    );
    if size.x >= 40.0 {
        painter.circle_stroke(
            rect.center(),
            size.x * 0.25,
            Stroke::new(1.5, theme::ACCENT),
        );
    }
    response
}

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

/// A wide menu button.
pub fn menu_button(ui: &mut egui::Ui, text: &str, enabled: bool) -> egui::Response {
    ui.add_enabled(
        enabled,
        egui::Button::new(egui::RichText::new(text).size(22.0)).min_size(Vec2::new(320.0, 48.0)),
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
/// A countdown as "m:ss", rounded up so it reads 0:00 only at the end.
pub fn clock_text(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

pub fn narrow(ctx: &egui::Context) -> bool {
    ctx.content_rect().width() < NARROW_WIDTH
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
}

/// A table's top bar: its status (`status` draws it) on the left, and the
/// language, rules and leave buttons on the right. On a phone the status
/// wraps and the buttons, with the table/side tabs first, get a row of
/// their own.
pub fn table_top_bar(
    ui: &mut egui::Ui,
    i18n: &I18n,
    tab: &mut TableTab,
    status: impl FnOnce(&mut egui::Ui),
) -> BarPressed {
    let mut pressed = BarPressed::default();
    let mut lang = i18n.lang;
    if narrow(ui.ctx()) {
        ui.horizontal_wrapped(status);
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(tab, TableTab::Table, i18n.t("table-tab-table"));
            ui.selectable_value(tab, TableTab::Side, i18n.t("table-tab-side"));
            ui.separator();
            language_switch(ui, &mut lang);
            pressed.rules = ui.button(i18n.t("table-rules")).clicked();
            pressed.leave = ui.button(i18n.t("table-leave")).clicked();
        });
    } else {
        ui.horizontal(|ui| {
            status(ui);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                pressed.leave = ui.button(i18n.t("table-leave")).clicked();
                pressed.rules = ui.button(i18n.t("table-rules")).clicked();
                language_switch(ui, &mut lang);
            });
        });
    }
    pressed.lang = (lang != i18n.lang).then_some(lang);
    pressed
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
