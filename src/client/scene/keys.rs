//! The table by keyboard, as players of digital card games expect: the
//! arrow keys (or a number key) move a focus over the pieces a tap means
//! something for now, in reading order; Enter uses the focused piece (the
//! same [`Tap`] a pointer makes, and lets the focus go) or, with none
//! focused, presses the
//! screen's main button (ban, pick, give the orders, ready...); I shows
//! the focused piece's card (`inspect`); Esc puts a card away, or drops
//! the focus and the choices being made. Tab moves through the panels'
//! buttons (egui's own focus, Enter or Space presses one). No key acts on
//! the table while egui has the keyboard (a chat line being typed, a
//! button focused with Tab).

use bevy::prelude::*;
use bevy_egui::EguiContexts;

use super::inspect::{By, Inspect, Inspected};
use super::{SceneItem, Tap};
use crate::client::Screen;
use crate::client::reach::{Does, KeyFocus, Target};

/// What the keyboard asked of the screen this frame: Enter with no piece
/// focused (press the main button), Esc (drop the choices being made).
/// Screens read it while they draw; cleared every frame.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct KeyAsk {
    pub confirm: bool,
    pub cancel: bool,
}

/// The ring drawn around the focused piece.
#[derive(Component)]
struct FocusRing;

/// The usable pieces in reading order: rows from the top, left to right
/// in each.
fn usable(targets: &Query<(Entity, &Target, &GlobalTransform, &ViewVisibility)>) -> Vec<Entity> {
    let mut list: Vec<(i32, f32, Entity)> = targets
        .iter()
        .filter(|(_, t, _, seen)| t.does != Does::Nothing && seen.get())
        .map(|(e, _, at, _)| {
            let p = at.translation();
            (-(p.y / 40.0).round() as i32, p.x, e)
        })
        .collect();
    list.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    list.into_iter().map(|(.., e)| e).collect()
}

#[allow(clippy::too_many_arguments)]
fn keys(
    mut commands: Commands,
    input: Res<ButtonInput<KeyCode>>,
    mut contexts: EguiContexts,
    targets: Query<(Entity, &Target, &GlobalTransform, &ViewVisibility)>,
    inspectable: Query<(), With<Inspect>>,
    mut focus: ResMut<KeyFocus>,
    mut ask: ResMut<KeyAsk>,
    mut inspected: ResMut<Inspected>,
) {
    *ask = KeyAsk::default();
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if input.just_pressed(KeyCode::Escape) {
        // A card up goes first; the choices stay.
        if inspected.pinned() {
            inspected.close();
            return;
        }
        focus.0 = None;
        ask.cancel = true;
        // Out of a focused button too, back to the table.
        if let Some(id) = ctx.memory(|m| m.focused()) {
            ctx.memory_mut(|m| m.surrender_focus(id));
        }
        return;
    }
    // Typing in chat, or a button focused with Tab: the keys are egui's.
    if ctx.memory(|m| m.focused().is_some()) || ctx.egui_wants_keyboard_input() {
        return;
    }
    let list = usable(&targets);
    if focus.0.is_some_and(|e| !list.contains(&e)) {
        focus.0 = None;
    }
    let at = focus.0.and_then(|e| list.iter().position(|x| *x == e));
    let step = |d: isize| -> Option<Entity> {
        if list.is_empty() {
            return None;
        }
        let n = list.len() as isize;
        let i = match at {
            Some(i) => (i as isize + d).rem_euclid(n),
            None if d > 0 => 0,
            None => n - 1,
        };
        Some(list[i as usize])
    };
    if input.any_just_pressed([KeyCode::ArrowRight, KeyCode::ArrowDown]) {
        focus.0 = step(1);
    } else if input.any_just_pressed([KeyCode::ArrowLeft, KeyCode::ArrowUp]) {
        focus.0 = step(-1);
    }
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    if let Some(n) = DIGITS.iter().position(|k| input.just_pressed(*k))
        && let Some(e) = list.get(n)
    {
        focus.0 = Some(*e);
    }
    // I shows the focused piece's card, and I again puts it away.
    if input.just_pressed(KeyCode::KeyI)
        && let Some(e) = focus.0
        && inspectable.contains(e)
    {
        if inspected.shown == Some((e, By::Key)) {
            inspected.close();
        } else {
            inspected.pin(e, By::Key);
        }
    }
    if input.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]) {
        // A piece used lets the focus go: Enter again confirms.
        match focus.0.take() {
            Some(entity) => commands.trigger(Tap { entity }),
            None => ask.confirm = true,
        }
    }
}

/// The ring follows the focused piece: a gold plate just behind it, a
/// little larger.
fn show_focus(
    mut commands: Commands,
    focus: Res<KeyFocus>,
    pieces: Query<(&GlobalTransform, &Sprite), Without<FocusRing>>,
    mut ring: Query<(&mut Transform, &mut Sprite, &mut Visibility), With<FocusRing>>,
) {
    let want = focus
        .0
        .and_then(|e| pieces.get(e).ok())
        .and_then(|(at, s)| {
            let (scale, rotation, translation) = at.to_scale_rotation_translation();
            let size = s.custom_size? * scale.truncate() + Vec2::splat(12.0);
            Some((translation - Vec3::Z * 0.05, rotation, size))
        });
    let Ok((mut t, mut sprite, mut vis)) = ring.single_mut() else {
        commands.spawn((
            SceneItem,
            FocusRing,
            Sprite::from_color(
                crate::client::scene::colour(crate::client::theme::ACCENT),
                Vec2::ONE,
            ),
            Transform::default(),
            Visibility::Hidden,
            Pickable::IGNORE,
        ));
        return;
    };
    match want {
        Some((at, rotation, size)) => {
            t.translation = at;
            t.rotation = rotation;
            sprite.custom_size = Some(size);
            if *vis != Visibility::Inherited {
                *vis = Visibility::Inherited;
            }
        }
        None => {
            if *vis != Visibility::Hidden {
                *vis = Visibility::Hidden;
            }
        }
    }
}

fn forget(mut focus: ResMut<KeyFocus>) {
    focus.0 = None;
}

pub fn plugin(app: &mut App) {
    app.init_resource::<KeyFocus>()
        .init_resource::<KeyAsk>()
        .add_systems(
            PreUpdate,
            keys.after(bevy::input::InputSystems)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(
            PostUpdate,
            show_focus
                .after(bevy::transform::TransformSystems::Propagate)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(OnExit(Screen::Table), forget);
}
