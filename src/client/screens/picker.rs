//! The game picker: the four games, each with its picture, playable or
//! marked not yet.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, egui};
use foodweb_rules::GameId;

use super::TableSetup;
use crate::client::assets::PickerArt;
use crate::client::game_setup::GameClients;
use crate::client::lesson;
use crate::client::reach::{self, Does};
use crate::client::{I18n, Screen, theme, widgets};

fn draw(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    mut next: ResMut<NextState<Screen>>,
    mut setup: ResMut<TableSetup>,
    clients: Res<GameClients>,
    art: Option<Res<PickerArt>>,
    mut textures: Local<Vec<(GameId, egui::TextureId)>>,
    mut commands: Commands,
) -> Result {
    if textures.is_empty()
        && let Some(art) = &art
    {
        for game in GameId::ALL {
            if let Some(handle) = art.of(game) {
                let id = contexts.add_image(EguiTextureHandle::Strong(handle.clone()));
                textures.push((game, id));
            }
        }
    }
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.horizontal(|ui| {
            let back = ui.button(format!("← {}", i18n.t("menu-back")));
            reach::control(&back, "back", Does::Move);
            if back.clicked() {
                next.set(Screen::Title);
            }
            ui.heading(i18n.t("picker-title"));
        });
        ui.add_space(12.0);
        let columns = if ui.available_width() > 1100.0 { 4 } else { 2 };
        // A phone's two columns run past the screen's bottom.
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(columns, |cols| {
                for (i, game) in GameId::ALL.into_iter().enumerate() {
                    let ui = &mut cols[i % columns];
                    let playable = game.playable();
                    let frame = egui::Frame::group(ui.style())
                        .fill(if playable {
                            egui::Color32::from_rgb(34, 62, 42)
                        } else {
                            egui::Color32::from_rgb(34, 38, 36)
                        })
                        .inner_margin(16.0);
                    let response = frame
                        .show(ui, |ui| {
                            ui.set_width(ui.available_width());
                            ui.set_min_height(200.0);
                            ui.vertical(|ui| {
                                // The game's picture, once loaded (320x160).
                                let width = ui.available_width().min(320.0);
                                let size = egui::vec2(width, width / 2.0);
                                match textures.iter().find(|(g, _)| *g == game) {
                                    Some((_, id)) => {
                                        let tint = if playable {
                                            egui::Color32::WHITE
                                        } else {
                                            egui::Color32::from_gray(140)
                                        };
                                        ui.add(
                                            egui::Image::new(egui::load::SizedTexture::new(
                                                *id, size,
                                            ))
                                            .tint(tint)
                                            .corner_radius(6.0),
                                        );
                                    }
                                    None => {
                                        ui.allocate_space(size);
                                    }
                                }
                                ui.label(
                                    egui::RichText::new(i18n.pick(&game.title()))
                                        .size(26.0)
                                        .color(theme::ACCENT),
                                );
                                ui.label(i18n.pick(&game.tagline()));
                                let seats = game.seats();
                                ui.label(i18n.ta(
                                    "picker-players",
                                    &[
                                        ("min", (*seats.start()).into()),
                                        ("max", (*seats.end()).into()),
                                    ],
                                ));
                                ui.add_space(8.0);
                                let (status, colour) = if playable {
                                    (i18n.t("picker-playable"), theme::GOOD)
                                } else {
                                    (i18n.t("picker-not-yet"), theme::MUTED)
                                };
                                ui.label(egui::RichText::new(status).color(colour));
                            });
                        })
                        .response
                        .interact(egui::Sense::click());
                    reach::control(
                        &response,
                        &format!("game:{game:?}").to_lowercase(),
                        if playable { Does::Move } else { Does::Nothing },
                    );
                    if playable
                        && response.clicked()
                        && let Some(chosen) =
                            TableSetup::for_game(&clients, game, setup.your_name.clone())
                    {
                        *setup = chosen;
                        next.set(Screen::Setup);
                    }
                    // A guided first game, under the game's card (a button
                    // inside the card would lose its clicks to the card).
                    if playable && lesson::has_lesson(game) {
                        let learn =
                            ui.button(egui::RichText::new(i18n.t("picker-learn")).size(17.0));
                        reach::control(
                            &learn,
                            &format!("learn:{game:?}").to_lowercase(),
                            Does::Move,
                        );
                        if learn.clicked() {
                            commands.insert_resource(lesson::LearnRequested(game));
                        }
                    }
                    ui.add_space(16.0);
                }
            })
        });
    });
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw.run_if(in_state(Screen::Picker)),
    );
}
