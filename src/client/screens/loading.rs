//! The loading screen: a progress bar while assets load.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iyes_progress::ProgressTracker;

use crate::client::{Screen, theme, widgets};

fn draw(mut contexts: EguiContexts, progress: Option<Res<ProgressTracker<Screen>>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    let fraction = progress.map_or(0.0, |p| widgets::fraction(&p));
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.38);
            ui.label(
                egui::RichText::new("Foodweb")
                    .size(44.0)
                    .color(theme::ACCENT),
            );
            ui.add_space(16.0);
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(420.0)
                    .show_percentage(),
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
