//! Colours, fonts and text size for every screen.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::UserSettings;
use super::assets::{FullFont, UI_FONT_BYTES};

pub const BACKGROUND: Color = Color::srgb(0.07, 0.12, 0.09);
pub const PANEL: egui::Color32 = egui::Color32::from_rgb(22, 38, 28);
pub const ACCENT: egui::Color32 = egui::Color32::from_rgb(236, 190, 92);
pub const TEXT: egui::Color32 = egui::Color32::from_rgb(236, 232, 218);
pub const MUTED: egui::Color32 = egui::Color32::from_rgb(160, 170, 150);
pub const GOOD: egui::Color32 = egui::Color32::from_rgb(130, 200, 120);
pub const BAD: egui::Color32 = egui::Color32::from_rgb(230, 120, 100);

/// Which fonts egui has: the UI font, then the full one too.
#[derive(Resource, PartialEq, Eq, Clone, Copy)]
enum FontsInstalled {
    Ui,
    Full,
}

fn install_fonts(
    mut commands: Commands,
    mut contexts: EguiContexts,
    full: Option<Res<FullFont>>,
    fonts: Res<Assets<Font>>,
    installed: Option<Res<FontsInstalled>>,
) -> Result {
    if installed.as_deref() == Some(&FontsInstalled::Full) {
        return Ok(());
    }
    let full_font = full.as_ref().and_then(|f| fonts.get(&f.font));
    let emoji = full.as_ref().and_then(|f| fonts.get(&f.emoji));
    let icons = full.as_ref().and_then(|f| fonts.get(&f.icons));
    let now = if full_font.is_some() && emoji.is_some() && icons.is_some() {
        FontsInstalled::Full
    } else {
        FontsInstalled::Ui
    };
    if installed.as_deref() == Some(&now) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Ours only (egui's built-in fonts are left out of the module, issue
    // 22): the UI subset (Latin and every character of our own texts,
    // built into the program), then the full one for the characters the
    // subset lacks, then the symbols.
    let loaded =
        |font: Option<&Font>| font.map(|f| egui::FontData::from_owned(f.data.data().to_vec()));
    let mut defs = egui::FontDefinitions::empty();
    let ours = [
        ("cjk-ui", Some(egui::FontData::from_static(UI_FONT_BYTES))),
        ("cjk-full", loaded(full_font)),
        ("emoji", loaded(emoji)),
        ("icons", loaded(icons)),
    ];
    for (name, data) in ours {
        let Some(data) = data else { continue };
        defs.font_data
            .insert(name.into(), std::sync::Arc::new(data));
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            defs.families.entry(family).or_default().push(name.into());
        }
    }
    ctx.set_fonts(defs);
    commands.insert_resource(now);
    Ok(())
}

fn style(mut contexts: EguiContexts, settings: Res<UserSettings>, mut done: Local<bool>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The text size the window has room for (`shown_ui_scale`), checked
    // every frame: a window can shrink.
    let zoom = shown_ui_scale(ctx, settings.ui_scale);
    if (ctx.zoom_factor() - zoom).abs() > 0.001 {
        ctx.set_zoom_factor(zoom);
    }
    if !*done || settings.is_changed() {
        let mut visuals = egui::Visuals::dark();
        visuals.panel_fill = PANEL;
        visuals.window_fill = PANEL;
        visuals.override_text_color = Some(TEXT);
        visuals.selection.bg_fill = egui::Color32::from_rgb(70, 110, 60);
        // A steady cursor on the desktop: a blinking one asks egui to draw
        // again and again (bevy_egui draws at once however late egui
        // asks), so a name field left focused would keep the app from
        // sleeping (issue 67; a browser page still draws every frame).
        visuals.text_cursor.blink = crate::client::web::IN_BROWSER;
        ctx.set_visuals(visuals);
        ctx.all_styles_mut(|s| {
            s.text_styles
                .insert(egui::TextStyle::Body, egui::FontId::proportional(17.0));
            s.text_styles
                .insert(egui::TextStyle::Button, egui::FontId::proportional(18.0));
            s.text_styles
                .insert(egui::TextStyle::Heading, egui::FontId::proportional(28.0));
            s.text_styles
                .insert(egui::TextStyle::Small, egui::FontId::proportional(14.0));
            s.spacing.button_padding = egui::vec2(12.0, 6.0);
            s.spacing.item_spacing = egui::vec2(10.0, 8.0);
        });
        *done = true;
    }
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (install_fonts, style).chain());
}

/// The text sizes the settings offer (egui's zoom).
pub const UI_SCALES: [f32; 5] = [0.75, 1.0, 1.25, 1.5, 1.75];

/// The least room, in points, the title, settings, lobby and summary are
/// laid out for: a phone held upright (360x640 CSS pixels, less a
/// browser's bars).
pub const LEAST_ROOM: egui::Vec2 = egui::vec2(360.0, 560.0);

/// The largest text size offered in a window of `window` points at text
/// size 1: the largest that leaves every screen its least room, and never
/// less than 1 (issue 66: at 1280x720 a larger size pushed the settings,
/// then Quit, below the window, and the choice survived a restart).
pub fn largest_ui_scale(window: egui::Vec2) -> f32 {
    UI_SCALES
        .into_iter()
        .filter(|s| *s <= 1.0 || (window.x / s >= LEAST_ROOM.x && window.y / s >= LEAST_ROOM.y))
        .fold(1.0, f32::max)
}

/// The window's size in points at text size 1 (whatever the zoom now).
pub fn window_at_scale_one(ctx: &egui::Context) -> egui::Vec2 {
    ctx.content_rect().size() * ctx.zoom_factor()
}

/// The text size to show: the chosen one, or the largest this window
/// offers if the chosen one is larger (a window made smaller, a settings
/// file from a larger screen).
pub fn shown_ui_scale(ctx: &egui::Context, chosen: f32) -> f32 {
    chosen.min(largest_ui_scale(window_at_scale_one(ctx)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 66: "at 1280x720 any step above the default pushes Settings
    /// below the window": the sizes offered leave every screen at least a
    /// phone's room; the default and smaller are always offered.
    #[test]
    fn a_text_size_is_offered_only_where_the_screens_fit() {
        let largest = |w: f32, h: f32| largest_ui_scale(egui::vec2(w, h));
        assert_eq!(largest(1280.0, 720.0), 1.25);
        assert_eq!(largest(1920.0, 1080.0), 1.75);
        assert_eq!(largest(390.0, 844.0), 1.0);
        assert_eq!(largest(360.0, 640.0), 1.0);
        assert_eq!(largest(200.0, 200.0), 1.0);
        for (w, h) in [(1280.0, 720.0), (1920.0, 1080.0), (1366.0, 768.0)] {
            let s = largest(w, h);
            assert!(s <= 1.0 || (w / s >= LEAST_ROOM.x && h / s >= LEAST_ROOM.y));
        }
    }
}
