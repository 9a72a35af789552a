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
    if !*done || settings.is_changed() {
        ctx.set_zoom_factor(settings.ui_scale);
        let mut visuals = egui::Visuals::dark();
        visuals.panel_fill = PANEL;
        visuals.window_fill = PANEL;
        visuals.override_text_color = Some(TEXT);
        visuals.selection.bg_fill = egui::Color32::from_rgb(70, 110, 60);
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
