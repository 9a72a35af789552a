//! Marks on the pieces a tap does something with now (issue 38: "the
//! pieces they may use or target are marked"): a gold rim just inside the
//! edge of each piece whose [`Target`] says it is usable, over its face
//! and under the next piece (a fanned hand's cards overlap: a frame
//! outside the edge would cross the card beside it), breathing gently
//! (steady with motion off, and always easy to see at a software
//! renderer's few frames a second). The rim follows its piece (a child of
//! it), and goes when the piece's `Target` says it does nothing. A piece
//! that marks itself (Gene's rooms in reach) carries [`OwnMark`].
//!
//! What is usable is each game's own word (its scene's `Target`s, from the
//! seat's view); each game's tests hold it to the judge's legal actions
//! (`games::marks`).

use bevy::prelude::*;
use foodweb_netcode::client::ClientModel;
use foodweb_rules::lesson::matches;

use super::SceneSystems;
use crate::client::reach::{Does, Target};
use crate::client::settings::MotionLevel;
use crate::client::{Screen, UserSettings, theme};

/// A piece that draws its own mark: the frame is not added.
#[derive(Component)]
pub struct OwnMark;

/// A piece's frame, one of its children.
#[derive(Component)]
pub struct MarkFrame;

/// How thick the rim is.
const THICK: f32 = 4.0;
/// Above the piece's face and what is drawn on it, below the next piece
/// (pieces stand a whole unit of depth apart).
const RIM_Z: f32 = 0.95;

/// Whether a piece with this target is marked.
pub fn usable(target: &Target) -> bool {
    target.does != Does::Nothing
}

/// Every piece that may be marked, with its frames (among its children),
/// unless it marks itself.
type Markable<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, Target>,
        &'static Sprite,
        Option<&'static Children>,
    ),
    Without<OwnMark>,
>;

/// Adds or takes away each piece's frame when its target changes, or when
/// a lesson's step points elsewhere: at a lesson's table only the pieces
/// its step names are marked (the one move it teaches).
fn mark(
    mut commands: Commands,
    pieces: Markable,
    frames: Query<(), With<MarkFrame>>,
    model: Res<ClientModel>,
    mut pointed: Local<Option<Vec<String>>>,
) {
    let point = model
        .lesson
        .as_ref()
        .filter(|l| !l.done && l.say.is_some())
        .map(|l| l.point.clone());
    let again = *pointed != point;
    if again {
        pointed.clone_from(&point);
    }
    for (piece, target, sprite, children) in &pieces {
        if !again && !target.is_changed() {
            continue;
        }
        let old: Vec<Entity> = children
            .into_iter()
            .flatten()
            .copied()
            .filter(|c| frames.contains(*c))
            .collect();
        let on = usable(&target)
            && point
                .as_ref()
                .is_none_or(|p| p.iter().any(|p| matches(p, &target.name)));
        let size = sprite.custom_size.filter(|_| on);
        match (size, old.is_empty()) {
            (Some(size), true) => {
                commands.entity(piece).with_children(|c| {
                    c.spawn((
                        MarkFrame,
                        Transform::from_xyz(0.0, 0.0, RIM_Z),
                        Visibility::Inherited,
                    ))
                    .with_children(|c| {
                        for (at, bar) in bars(size) {
                            c.spawn((
                                Sprite::from_color(super::colour(theme::ACCENT), bar),
                                Transform::from_translation(at.extend(0.0)),
                                Pickable::IGNORE,
                            ));
                        }
                    });
                });
            }
            (None, false) => {
                for frame in old {
                    commands.entity(frame).despawn();
                }
            }
            _ => {}
        }
    }
}

/// The four bars of a rim inside a piece of `size`: where each centre is
/// and its size.
fn bars(size: Vec2) -> [(Vec2, Vec2); 4] {
    let half = size / 2.0 - Vec2::splat(THICK / 2.0);
    let across = Vec2::new(size.x, THICK);
    let down = Vec2::new(THICK, size.y - 2.0 * THICK);
    [
        (Vec2::new(0.0, half.y), across),
        (Vec2::new(0.0, -half.y), across),
        (Vec2::new(-half.x, 0.0), down),
        (Vec2::new(half.x, 0.0), down),
    ]
}

/// The frames breathe between half and full strength, a little under once
/// a second, drawn 20 times a second (smooth enough for so slow a change,
/// and a third of the frames); with motion off they stay at full.
fn breathe(
    time: Res<Time<Real>>,
    settings: Res<UserSettings>,
    frames: Query<&Children, With<MarkFrame>>,
    mut bars: Query<&mut Sprite>,
    alarm: Res<crate::client::wake::Alarm>,
) {
    let alpha = if settings.motion == MotionLevel::Off {
        0.9
    } else {
        if !frames.is_empty() {
            alarm.after(BREATH_STEP);
        }
        0.7 + 0.25 * (time.elapsed_secs() * std::f32::consts::TAU * 0.8).sin()
    };
    for children in &frames {
        for &bar in children {
            if let Ok(mut sprite) = bars.get_mut(bar) {
                sprite.color.set_alpha(alpha);
            }
        }
    }
}

/// How often a breathing frame is drawn.
pub const BREATH_STEP: std::time::Duration = std::time::Duration::from_millis(50);

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (mark, breathe)
            .chain()
            .in_set(SceneSystems::Flourish)
            .run_if(in_state(Screen::Table)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rim lies along the piece's edge, inside it, its bars meeting
    /// at the corners without overlapping.
    #[test]
    fn the_rim_lines_the_piece() {
        let size = Vec2::new(80.0, 120.0);
        let piece = Rect::from_center_size(Vec2::ZERO, size);
        let rects: Vec<Rect> = bars(size)
            .iter()
            .map(|(at, s)| Rect::from_center_size(*at, *s))
            .collect();
        let outer = rects.iter().fold(rects[0], |a, r| a.union(*r));
        assert_eq!(outer, piece);
        let area: f32 = rects.iter().map(|r| r.width() * r.height()).sum();
        let inner = (size - Vec2::splat(2.0 * THICK)).element_product();
        assert!((area - (size.element_product() - inner)).abs() < 0.01);
    }
}
