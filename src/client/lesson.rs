//! "Learn to play" (issue 38): each game's guided first game, from the
//! game picker. The table is local play like any other (the hall deals the
//! lesson's table, `ClientMsg::Learn`, and its script moves the other
//! seats); the table screen tells each step in its now line
//! (`widgets::now_line`) and marks only what the step uses
//! (`scene::marks`). Once every step is done, a window says what to
//! remember and offers a real game. The player may leave at any time: a
//! lesson left is over.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::GameId;

use crate::client::game_setup::GameClients;
use crate::client::net::{Session, Target};
use crate::client::reach::{self, Does};
use crate::client::screens::TableSetup;
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme};

/// The picker asked for a game's lesson.
#[derive(Resource)]
pub struct LearnRequested(pub GameId);

/// Whether the game has a guided first game.
pub fn has_lesson(game: GameId) -> bool {
    foodweb_netcode::games::lesson_players(game).is_some()
}

/// Opens the lesson's table in the server in this app and moves to the
/// table screen.
fn start_lesson(world: &mut World) {
    let Some(LearnRequested(game)) = world.remove_resource::<LearnRequested>() else {
        return;
    };
    let Some(players) = foodweb_netcode::games::lesson_players(game) else {
        return;
    };
    let your_name = world.resource::<TableSetup>().your_name.clone();
    let i18n = world.resource::<I18n>();
    let names = (2..=players)
        .map(|n| crate::client::screens::bot_name(i18n, n))
        .collect();
    let mut msgs = Vec::new();
    if world.resource::<ClientModel>().place.is_some() {
        msgs.push(ClientMsg::Leave);
    }
    if !your_name.trim().is_empty() {
        msgs.push(ClientMsg::SetName { name: your_name });
    }
    msgs.push(ClientMsg::Learn { game, names });
    let mut session = world.resource_mut::<Session>();
    if session.target != Some(Target::InProcess) {
        session.connect(Target::InProcess);
    }
    world.resource_mut::<Outbox>().0.extend(msgs);
    world.resource_mut::<NextState<Screen>>().set(Screen::Table);
}

/// The lesson's end: what to remember, and a real game of the same or
/// the title.
fn lesson_over(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    clients: Res<GameClients>,
    screen: Res<State<TableScreen>>,
    mut setup: ResMut<TableSetup>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let (Some(lesson), TableScreen::Game(game)) = (model.lesson.as_ref(), *screen.get()) else {
        return Ok(());
    };
    if !lesson.done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let width = (ctx.content_rect().width() - 24.0).min(520.0);
    // The title inside, where it wraps (a phone's window is narrow).
    egui::Window::new("lesson-over")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .default_width(width)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(width);
            ui.add(
                egui::Label::new(
                    egui::RichText::new(i18n.ta(
                        "lesson-done-title",
                        &[("game", i18n.pick(&game.title()).to_string().into())],
                    ))
                    .size(24.0)
                    .color(theme::ACCENT),
                )
                .wrap(),
            );
            ui.add_space(4.0);
            ui.label(egui::RichText::new(i18n.t("lesson-remember")).strong());
            for line in &lesson.summary {
                ui.horizontal_top(|ui| {
                    ui.label(egui::RichText::new("•").color(theme::ACCENT));
                    ui.add(egui::Label::new(line.get(i18n.lang)).wrap());
                });
            }
            ui.add_space(8.0);
            ui.horizontal_wrapped(|ui| {
                let real = ui.button(
                    egui::RichText::new(i18n.t("lesson-real-game"))
                        .size(18.0)
                        .color(theme::ACCENT),
                );
                reach::control(&real, "lesson-real-game", Does::Move);
                if real.clicked()
                    && let Some(chosen) =
                        TableSetup::for_game(&clients, game, setup.your_name.clone())
                {
                    *setup = chosen;
                    next.set(Screen::Setup);
                }
                let title = ui.button(i18n.t("table-back-to-title"));
                reach::control(&title, "lesson-title", Does::Move);
                if title.clicked() {
                    next.set(Screen::Title);
                }
            });
        });
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        start_lesson.run_if(resource_exists::<LearnRequested>),
    )
    .add_systems(
        EguiPrimaryContextPass,
        lesson_over.run_if(in_state(Screen::Table)),
    );
}
