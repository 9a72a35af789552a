//! A refused action explains itself where the pointer is (issue 38): a
//! tap on pieces none of which does anything now says what the seat may
//! do instead (the screen's now line); a move the table refused says why,
//! beside the pointer that made it. The words go after [`HINT_SECS`], at
//! the next tap, or when the table screen goes.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::ClientModel;

use super::marks::usable;
use crate::client::reach::{Said, Target};
use crate::client::{I18n, Screen, theme};

/// How long a hint stays.
pub const HINT_SECS: f32 = 3.5;

/// The last tap on the scene: where (window logical pixels) and the pieces
/// under it.
#[derive(Resource, Default)]
pub struct LastTap {
    pub at: Vec2,
    pub pieces: Vec<Entity>,
}

/// The words beside the pointer, where, and until when.
#[derive(Resource, Default)]
struct Hint {
    text: String,
    at: Option<egui::Pos2>,
    until: f32,
    refusal: bool,
}

/// A tap on pieces that all do nothing now: "not now", and what can be
/// done. Runs before the scene lays out again, so the targets are the
/// ones the tap met.
fn explain_taps(
    last: Res<LastTap>,
    targets: Query<&Target>,
    said: Res<Said>,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut hint: ResMut<Hint>,
) {
    if !last.is_changed() || last.is_added() {
        return;
    }
    let met: Vec<&Target> = last
        .pieces
        .iter()
        .filter_map(|e| targets.get(*e).ok())
        .collect();
    if met.is_empty() || met.iter().any(|t| usable(t)) {
        *hint = Hint::default();
        return;
    }
    let text = if said.now.is_empty() {
        i18n.t("hint-not-now")
    } else {
        i18n.ta("hint-not-now-but", &[("now", said.now.clone().into())])
    };
    *hint = Hint {
        text,
        at: Some(egui::pos2(last.at.x, last.at.y)),
        until: time.elapsed_secs() + HINT_SECS,
        refusal: false,
    };
}

/// A move the table refused: its words beside the pointer that made it
/// (a tap on the scene or a press of a panel's button).
fn explain_refusals(
    model: Res<ClientModel>,
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut seen: Local<Option<u64>>,
    mut hint: ResMut<Hint>,
) {
    let first = seen.is_none();
    if *seen == Some(model.rejected) {
        return;
    }
    *seen = Some(model.rejected);
    // Refusals from before this screen opened are not this pointer's.
    if first {
        return;
    }
    let Some(r) = &model.last_rejection else {
        return;
    };
    let at = contexts
        .ctx_mut()
        .ok()
        .and_then(|ctx| ctx.input(|i| i.pointer.interact_pos()));
    *hint = Hint {
        text: i18n.pick(r).to_string(),
        at,
        until: time.elapsed_secs() + HINT_SECS,
        refusal: true,
    };
}

/// Draws the hint beside the pointer (above it, kept on the screen) and
/// tells the screen's account.
fn draw(
    mut contexts: EguiContexts,
    time: Res<Time<Real>>,
    mut hint: ResMut<Hint>,
    mut said: ResMut<Said>,
    alarm: Res<crate::client::wake::Alarm>,
) -> Result {
    if hint.text.is_empty() || time.elapsed_secs() > hint.until {
        if !hint.text.is_empty() {
            *hint = Hint::default();
        }
        said.hint = None;
        return Ok(());
    }
    // Put away on time, however still the screen is.
    alarm.after_secs(hint.until - time.elapsed_secs() + 0.01);
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let at = hint
        .at
        .unwrap_or(egui::pos2(screen.center().x, screen.max.y - 160.0));
    let width = (screen.width() - 24.0).min(300.0);
    let stroke = if hint.refusal {
        theme::BAD
    } else {
        theme::ACCENT
    };
    egui::Area::new(egui::Id::new("pointer-hint"))
        .order(egui::Order::Tooltip)
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(at - egui::vec2(0.0, 18.0))
        .constrain(true)
        .interactable(false)
        .fade_in(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .stroke(egui::Stroke::new(2.0, stroke))
                .show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.add(egui::Label::new(&hint.text).wrap());
                });
        });
    said.hint = Some(hint.text.clone());
    Ok(())
}

fn forget(mut hint: ResMut<Hint>, mut said: ResMut<Said>) {
    *hint = Hint::default();
    said.hint = None;
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LastTap>()
        .init_resource::<Hint>()
        .add_systems(
            Update,
            (explain_taps, explain_refusals)
                .before(super::SceneSystems::Sync)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Table)))
        .add_systems(OnExit(Screen::Table), forget);
}
