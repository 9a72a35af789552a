//! The loading screen: the name, for the first frame or two, until the UI
//! font (built into the program) is in (`assets::add_ui_font`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::{Screen, theme, widgets};

fn draw(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.38);
            ui.label(
                egui::RichText::new("Foodweb")
                    .size(44.0)
                    .color(theme::ACCENT),
            );
        });
    });
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw.run_if(in_state(Screen::Loading)),
    );
}
