//! The play area of a table as a Bevy 2D scene: cards, boards and tokens
//! are `Sprite`s, placed from the seat's view, picked with the pointer or a
//! finger, and moved to tell what just happened. egui keeps the panels
//! around it (top bar, side panel, actions, dialogs); each frame the table
//! screen says which part of the window is left for the scene
//! ([`SceneRect`]).
//!
//! Motion is driven by what the client received, never by the rules: a
//! game's scene module lays its pieces out from the view (`Home`), and a
//! piece that moved, appeared or turned over gets a [`Motion`] or a
//! [`Flip`]. Every motion ends within [`SETTLE_SECS`] of the update that
//! caused it, so the newest state shows within 300 ms; an update that
//! arrives while pieces still move first puts them where they were going
//! ([`finish_motions`]). The player's `MotionLevel` shortens or turns off
//! the motion; a table joined mid-game is laid out without any.

#[cfg(feature = "dev")]
pub mod frames;
pub mod hint;
pub mod inspect;
pub mod keys;
pub mod marks;
pub mod pieces;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{LineBreak, TextBounds, TextLayout};
use bevy_egui::egui;
use foodweb_rules::Lang;

use foodweb_netcode::client::ClientModel;

use super::assets::{FullFont, UiAssets};
use super::{I18n, Screen, UserSettings};

/// Every motion ends this long after the update that started it: under
/// 300 ms with a frame to spare, so the newest state shows within 300 ms.
pub const SETTLE_SECS: f32 = 0.25;

/// The part of the window the scene may use, in world units (logical
/// pixels, origin at the window's centre, y up); `None` while a screen
/// shows no table (a phone's side tab, a dialog filling the screen).
#[derive(Resource, Default, Clone, Copy, PartialEq, Debug)]
pub struct SceneRect(pub Option<Rect>);

/// Whether the pointer is over an egui panel or window, so the sprites
/// under it ignore it.
#[derive(Resource, Default)]
pub struct PointerOnUi(pub bool);

/// The order of a table's scene systems in a frame. Each game's plugin
/// puts its systems in these sets; the sets run only at a table.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SceneSystems {
    /// A game lays its newest view out: pieces matched, made and moved home.
    Sync,
    /// The shared motion: every piece on its way home.
    Animate,
    /// A game's own motion on top of the shared one (a die's roll).
    Flourish,
}

/// A game's scene state back to its default when the table screen goes,
/// so the next table is laid out anew.
pub fn reset<R: Resource + Default>(mut commands: Commands) {
    commands.insert_resource(R::default());
}

/// Every entity of a table's scene: despawned when the table screen goes.
#[derive(Component)]
#[require(DespawnOnExit<Screen> = DespawnOnExit(Screen::Table))]
pub struct SceneItem;

/// Where a piece rests, as the view places it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Home(pub Transform);

/// A piece on its way home: from `from`, starting `delay` seconds after
/// `start`, over `secs`.
#[derive(Component, Clone, Copy, Debug)]
pub struct Motion {
    pub from: Transform,
    pub start: f32,
    pub delay: f32,
    pub secs: f32,
}

impl Motion {
    /// A piece put at `from` now, to go home over `secs` after `delay`.
    pub fn from(from: Transform, now: f32, delay: f32, secs: f32) -> (Transform, Motion) {
        (
            from,
            Motion {
                from,
                start: now,
                delay,
                secs,
            },
        )
    }
}

/// A card turning over: it shows its back until halfway, then its face.
#[derive(Component, Clone, Debug)]
pub struct Flip {
    pub start: f32,
    pub delay: f32,
    pub secs: f32,
    pub face: Option<Handle<Image>>,
}

/// A token walking room by room: through `points`, then home, over
/// `secs` from `start`.
#[derive(Component, Clone, Debug)]
pub struct Walk {
    pub points: Vec<Vec2>,
    pub start: f32,
    pub secs: f32,
}

/// Where a walk along `points` is after `t` (0 to 1) of its time, each
/// leg taking the same share.
pub fn along(points: &[Vec2], t: f32) -> Vec2 {
    match points {
        [] => Vec2::ZERO,
        [p] => *p,
        _ => {
            let legs = (points.len() - 1) as f32;
            let x = (t.clamp(0.0, 1.0) * legs).min(legs - 1e-4);
            let i = x.floor() as usize;
            points[i].lerp(points[i + 1], x - i as f32)
        }
    }
}

/// Parts of a card shown only face up (art, name, energy).
#[derive(Component)]
pub struct FaceOnly;

/// A piece raised (and enlarged) while the pointer is over it.
#[derive(Component, Default, Clone, Copy)]
pub struct Lift {
    pub on: bool,
    /// How far up, in world units.
    pub rise: f32,
    /// Scale while lifted (small cards grow to be read).
    pub zoom: f32,
}

/// A piece the player is dragging: it follows the pointer, not its home.
#[derive(Component)]
pub struct Dragging;

/// When the last update arrived and when its last motion ended, for the
/// frame-time figures (`dev` feature).
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Settling {
    pub update_at: Option<f32>,
    pub moving: bool,
}

/// Egui's rectangle (points) as a world rectangle.
pub fn world_rect(ctx: &egui::Context, rect: egui::Rect) -> Rect {
    let zoom = ctx.zoom_factor();
    let full = ctx.content_rect();
    let (w, h) = (full.width() * zoom, full.height() * zoom);
    let x0 = rect.min.x * zoom - w / 2.0;
    let x1 = rect.max.x * zoom - w / 2.0;
    let y0 = h / 2.0 - rect.max.y * zoom;
    let y1 = h / 2.0 - rect.min.y * zoom;
    Rect::new(x0, y0, x1, y1)
}

/// Called by a table screen after its panels: the rest is the scene's,
/// and whether the pointer is on egui rather than on it.
pub fn claim_rest(
    ctx: &egui::Context,
    rest: Option<egui::Rect>,
    rect: &mut SceneRect,
    on_ui: &mut PointerOnUi,
) {
    let new = rest.filter(|r| r.width() > 40.0 && r.height() > 40.0);
    let world = new.map(|r| world_rect(ctx, r));
    if rect.0 != world {
        rect.0 = world;
    }
    let over = ctx.pointer_latest_pos().is_some_and(|p| {
        new.is_none_or(|r| !r.contains(p))
            || ctx
                .layer_id_at(p)
                .is_some_and(|l| l.order != egui::Order::Background)
    });
    on_ui.0 = over || ctx.egui_is_using_pointer();
}

fn ease_out(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t)
}

fn blend(a: &Transform, b: &Transform, t: f32) -> Transform {
    Transform {
        translation: a.translation.lerp(b.translation, t),
        rotation: a.rotation.slerp(b.rotation, t),
        scale: a.scale.lerp(b.scale, t),
    }
}

/// Moves every piece: toward home along its motion, raised if lifted,
/// squeezed while it turns over.
#[allow(clippy::type_complexity)]
pub(crate) fn animate(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut pieces: Query<
        (
            Entity,
            &Home,
            &mut Transform,
            Option<&Motion>,
            Option<&Flip>,
            Option<&Lift>,
            Option<&mut Sprite>,
            Option<&Children>,
            Option<&Walk>,
        ),
        Without<Dragging>,
    >,
    mut faces: Query<&mut Visibility, With<FaceOnly>>,
    mut settling: ResMut<Settling>,
) {
    let now = time.elapsed_secs();
    let mut moving = false;
    for (entity, home, mut transform, motion, flip, lift, sprite, children, walk) in &mut pieces {
        let mut at = home.0;
        if let Some(w) = walk {
            let t = (now - w.start) / w.secs.max(1e-3);
            if t >= 1.0 {
                commands.entity(entity).remove::<Walk>();
            } else {
                let mut points = w.points.clone();
                points.push(home.0.translation.truncate());
                let p = along(&points, t);
                at.translation.x = p.x;
                at.translation.y = p.y;
                moving = true;
            }
        }
        if let Some(m) = motion {
            let t = (now - m.start - m.delay) / m.secs.max(1e-3);
            if t >= 1.0 {
                commands.entity(entity).remove::<Motion>();
            } else {
                at = blend(&m.from, &home.0, ease_out(t));
                moving = true;
            }
        }
        if let Some(l) = lift
            && l.on
        {
            at.translation.y += l.rise;
            at.translation.z += 50.0;
            at.scale *= l.zoom;
        }
        if let Some(f) = flip {
            let t = ((now - f.start - f.delay) / f.secs.max(1e-3)).clamp(0.0, 1.0);
            if t >= 0.5 {
                turn_face_up(&mut commands, entity, f, sprite, children, &mut faces);
            }
            if t >= 1.0 {
                commands.entity(entity).remove::<Flip>();
            } else {
                at.scale.x *= (1.0 - 2.0 * t).abs().max(0.02);
                moving = true;
            }
        }
        if *transform != at {
            *transform = at;
        }
    }
    if settling.moving && !moving {
        settling.moving = false;
    }
    if moving {
        settling.moving = true;
    }
}

fn turn_face_up(
    _commands: &mut Commands,
    _entity: Entity,
    flip: &Flip,
    sprite: Option<Mut<Sprite>>,
    children: Option<&Children>,
    faces: &mut Query<&mut Visibility, With<FaceOnly>>,
) {
    if let (Some(mut sprite), Some(face)) = (sprite, &flip.face)
        && sprite.image != *face
    {
        sprite.image = face.clone();
    }
    for child in children.into_iter().flatten() {
        if let Ok(mut v) = faces.get_mut(*child)
            && *v != Visibility::Inherited
        {
            *v = Visibility::Inherited;
        }
    }
}

/// Puts every moving piece where it was going and every turning card face
/// up: an update that arrives before the last one's motion ended skips it.
pub fn finish_motions(
    commands: &mut Commands,
    moving: impl Iterator<Item = (Entity, Option<Flip>)>,
    sprites: &mut Query<&mut Sprite>,
    faces: &mut Query<(&mut Visibility, &ChildOf), With<FaceOnly>>,
) {
    for (entity, flip) in moving {
        commands.entity(entity).remove::<(Motion, Flip)>();
        if let Some(face) = flip.and_then(|f| f.face)
            && let Ok(mut s) = sprites.get_mut(entity)
        {
            s.image = face;
        }
        for (mut v, parent) in faces.iter_mut() {
            if parent.parent() == entity {
                *v = Visibility::Inherited;
            }
        }
    }
}

/// The table screen is gone (its pieces with it: `SceneItem`): the scene
/// has no part of the window.
fn clear_scene(mut commands: Commands) {
    commands.insert_resource(SceneRect::default());
}

/// The scene shows only where the screen left room for it.
fn show_or_hide(
    rect: Res<SceneRect>,
    mut roots: Query<&mut Visibility, (With<SceneItem>, Without<ChildOf>)>,
) {
    if !rect.is_changed() {
        return;
    }
    let want = if rect.0.is_some() {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut v in &mut roots {
        if *v != want {
            *v = want;
        }
    }
}

/// What every game's scene sync reads: the seat's side of the table, the
/// room on screen, the words, the player's settings, the fonts and the
/// time; and where it notes that an update arrived.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SceneInputs<'w> {
    pub model: Res<'w, ClientModel>,
    pub rect: Res<'w, SceneRect>,
    pub i18n: Res<'w, I18n>,
    pub settings: Res<'w, UserSettings>,
    pub fonts: SceneFonts<'w>,
    pub time: Res<'w, Time<Real>>,
    pub settling: ResMut<'w, Settling>,
}

/// The fonts of the scene's text.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SceneFonts<'w> {
    ui: Res<'w, UiAssets>,
    full: Option<Res<'w, FullFont>>,
    fonts: Res<'w, Assets<Font>>,
}

impl SceneFonts<'_> {
    /// The UI font: the characters of Foodweb's own texts.
    pub fn ui(&self) -> Handle<Font> {
        self.ui.ui_font.clone()
    }

    /// Whether the full CJK font (for what players typed) has loaded.
    pub fn typed_ready(&self) -> bool {
        self.full
            .as_ref()
            .is_some_and(|f| self.fonts.contains(&f.font))
    }

    /// The font for names and what players typed: the full one once it has
    /// loaded, the UI font until then.
    pub fn typed(&self) -> Handle<Font> {
        match &self.full {
            Some(f) if self.typed_ready() => f.font.clone(),
            _ => self.ui(),
        }
    }
}

/// A piece tapped or clicked: pressed and let go again within
/// [`TAP_SLOP`] of where it was pressed, however quickly. Scenes observe
/// this rather than `Pointer<Click>`: bevy_picking's click needs the
/// pointer to have hovered the piece a frame before it is let go, which a
/// finger's tap (a new pointer, pressed and lifted between two frames of
/// a slow software renderer) and a quick click never do.
#[derive(EntityEvent, Clone, Copy, Debug)]
pub struct Tap {
    pub entity: Entity,
}

/// How far (logical pixels) a press may move and still be a tap.
pub const TAP_SLOP: f32 = 10.0;

/// Pieces under each pointer's press, where and when it was pressed.
#[derive(Resource, Default)]
struct Presses(Vec<(bevy::picking::pointer::PointerId, Entity, Vec2, f32)>);

fn note_press(
    ev: On<Pointer<Press>>,
    pickable: Query<(), With<Pickable>>,
    mut presses: ResMut<Presses>,
    time: Res<Time<Real>>,
) {
    // The piece pressed, not the parents the press bubbles up to (a card
    // on a seat's plate is one tap, not two).
    if ev.event.button != PointerButton::Primary
        || ev.entity != ev.original_event_target()
        || pickable.get(ev.entity).is_err()
    {
        return;
    }
    let at = ev.pointer_location.position;
    presses
        .0
        .push((ev.pointer_id, ev.entity, at, time.elapsed_secs()));
}

/// A finger held still on a piece for [`inspect::LONG_PRESS_SECS`]
/// inspects it; its release then taps nothing.
fn long_presses(
    time: Res<Time<Real>>,
    mut presses: ResMut<Presses>,
    pointers: Query<(
        &bevy::picking::pointer::PointerId,
        &bevy::picking::pointer::PointerLocation,
    )>,
    pieces: Query<(), With<inspect::Inspect>>,
    mut inspected: ResMut<inspect::Inspected>,
    alarm: Res<crate::client::wake::Alarm>,
) {
    let now = time.elapsed_secs();
    let held = presses.0.iter().find(|(pointer, entity, from, at)| {
        pointer.is_touch()
            && now - at >= inspect::LONG_PRESS_SECS
            && pieces.contains(*entity)
            && pointers.iter().any(|(id, loc)| {
                id == pointer
                    && loc
                        .location()
                        .is_some_and(|l| l.position.distance(*from) <= TAP_SLOP)
            })
    });
    let Some(&(pointer, entity, ..)) = held else {
        // A finger still down is looked at again when its hold is long
        // enough (the app sleeps while nothing moves).
        if let Some(pressed) = presses.0.iter().map(|p| p.3).reduce(f32::max) {
            alarm.after_secs(pressed + inspect::LONG_PRESS_SECS - now);
        }
        return;
    };
    inspected.pin(entity, inspect::By::Press);
    presses.0.retain(|p| p.0 != pointer);
}

/// A press let go near where it started taps what it pressed, unless it
/// was pressed through a panel (egui's layers as last drawn, or outside
/// the scene's share of the window).
/// With an inspected piece's card up to stay, the next tap closes it and
/// taps nothing.
fn taps(
    mut commands: Commands,
    mut inputs: MessageReader<bevy::picking::pointer::PointerInput>,
    mut presses: ResMut<Presses>,
    mut panels: Panels,
    mut inspected: ResMut<inspect::Inspected>,
    mut last: ResMut<hint::LastTap>,
) {
    use bevy::picking::pointer::PointerAction;
    for input in inputs.read() {
        let at = input.location.position;
        match input.action {
            PointerAction::Press(PointerButton::Primary) => inspected.pressed(input.pointer_id),
            PointerAction::Release(PointerButton::Primary) => {
                let (mine, rest): (Vec<_>, Vec<_>) =
                    presses.0.drain(..).partition(|p| p.0 == input.pointer_id);
                presses.0 = rest;
                if inspected.released(input.pointer_id) {
                    continue;
                }
                let Some(&(_, _, from, _)) = mine.first() else {
                    continue;
                };
                if from.distance(at) > TAP_SLOP || panels.at(from) {
                    continue;
                }
                last.pieces.clear();
                last.at = at;
                for (_, entity, ..) in mine {
                    last.pieces.push(entity);
                    commands.trigger(Tap { entity });
                }
            }
            _ => {}
        }
    }
}

/// The panels over the scene, as egui last drew them: whether a point of
/// the window (logical pixels) is on one rather than on the scene. Asked
/// where a press began, not where the pointer was a frame ago (a finger
/// has no position until it touches).
#[derive(bevy::ecs::system::SystemParam)]
pub struct Panels<'w, 's> {
    contexts: bevy_egui::EguiContexts<'w, 's>,
    rect: Res<'w, SceneRect>,
    windows: Query<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
}

impl Panels<'_, '_> {
    pub fn at(&mut self, at: Vec2) -> bool {
        let (Some(r), Ok(window)) = (self.rect.0, self.windows.single()) else {
            return true;
        };
        let world = Vec2::new(at.x - window.width() / 2.0, window.height() / 2.0 - at.y);
        if !r.contains(world) {
            return true;
        }
        let Ok(ctx) = self.contexts.ctx_mut() else {
            return false;
        };
        let p = egui::pos2(at.x, at.y) / ctx.zoom_factor();
        ctx.layer_id_at(p)
            .is_some_and(|l| l.order != egui::Order::Background)
    }
}

/// Raises a piece with a [`Lift`] while the pointer is on it (not through
/// a panel).
pub fn lift_on(ev: On<Pointer<Over>>, mut lifts: Query<&mut Lift>, on_ui: Res<PointerOnUi>) {
    if on_ui.0 {
        return;
    }
    if let Ok(mut l) = lifts.get_mut(ev.entity) {
        l.on = true;
    }
}

/// Puts a lifted piece down when the pointer leaves it.
pub fn lift_off(ev: On<Pointer<Out>>, mut lifts: Query<&mut Lift>) {
    if let Ok(mut l) = lifts.get_mut(ev.entity) {
        l.on = false;
    }
}

/// A theme colour (egui's) as the scene's.
pub fn colour(c: egui::Color32) -> Color {
    Color::srgba_u8(c.r(), c.g(), c.b(), c.a())
}

/// Chinese breaks between any two characters; English between words.
pub fn line_break(lang: Lang) -> LineBreak {
    match lang {
        Lang::Zh => LineBreak::AnyCharacter,
        Lang::En => LineBreak::WordBoundary,
    }
}

/// Words drawn in the scene: what they say, where, how big, in what
/// colour, wrapped to `width`.
#[derive(Clone, Debug, PartialEq)]
pub struct Words {
    pub text: String,
    pub at: Vec2,
    pub size: f32,
    pub colour: Color,
    pub width: f32,
}

impl Words {
    /// The words as a [`label`] (placed by the caller at `at`).
    pub fn label(&self, font: Handle<Font>, lang: Lang, left: bool) -> impl Bundle {
        label(
            self.text.clone(),
            font,
            self.size,
            self.colour,
            self.width,
            lang,
            left,
        )
    }
}

/// A line of the scene's text, wrapped to `width`: centred on its
/// transform, or starting there (`left`). Never picked.
pub fn label(
    text: String,
    font: Handle<Font>,
    size: f32,
    colour: Color,
    width: f32,
    lang: Lang,
    left: bool,
) -> impl Bundle {
    (
        Text2d::new(text),
        TextFont::from(font).with_font_size(size.max(1.0)),
        TextColor(colour),
        TextLayout::new(
            if left { Justify::Left } else { Justify::Center },
            line_break(lang),
        ),
        TextBounds::new_horizontal(width.max(4.0)),
        if left {
            Anchor::CENTER_LEFT
        } else {
            Anchor::CENTER
        },
        Pickable::IGNORE,
    )
}

/// A piece of a table's scene at its home `at`: a scene item with the
/// game's key (`piece`), its picture if it has one (`None`: text only, never
/// picked).
pub fn spawn_piece<'a>(
    commands: &'a mut Commands,
    piece: impl Component,
    at: Transform,
    picture: Option<(Handle<Image>, Vec2, Color)>,
) -> EntityCommands<'a> {
    let mut e = commands.spawn((SceneItem, piece, at, Home(at), Visibility::default()));
    match picture {
        Some((image, size, tint)) => {
            let mut sprite = Sprite::from_image(image);
            sprite.custom_size = Some(size);
            sprite.color = tint;
            e.insert(sprite);
        }
        None => {
            e.insert(Pickable::IGNORE);
        }
    }
    e
}

/// A picture drawn on a piece: the image at `size`, tinted. Never picked.
pub fn picture(image: Handle<Image>, size: Vec2, tint: Color) -> impl Bundle {
    let mut sprite = Sprite::from_image(image);
    sprite.custom_size = Some(size);
    sprite.color = tint;
    (sprite, Pickable::IGNORE)
}

/// How long a motion takes at the player's setting.
pub fn motion_secs(settings: &UserSettings) -> f32 {
    SETTLE_SECS * settings.motion.factor()
}

pub fn plugin(app: &mut App) {
    app.init_resource::<SceneRect>()
        .init_resource::<PointerOnUi>()
        .init_resource::<Presses>()
        .add_observer(note_press)
        .add_systems(
            PreUpdate,
            (taps, long_presses)
                .chain()
                .after(bevy::picking::PickingSystems::Last)
                .run_if(in_state(Screen::Table)),
        )
        .init_resource::<Settling>()
        .add_systems(
            Last,
            // A motion under way is drawn frame by frame.
            crate::client::wake::draw_on
                .run_if(|s: Res<Settling>| s.moving)
                .in_set(crate::client::wake::AskToWake),
        )
        .configure_sets(
            Update,
            (
                SceneSystems::Sync,
                SceneSystems::Animate,
                SceneSystems::Flourish,
            )
                .chain()
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(
            Update,
            (show_or_hide, animate)
                .chain()
                .in_set(SceneSystems::Animate),
        )
        .add_systems(OnExit(Screen::Table), clear_scene)
        .add_plugins((keys::plugin, inspect::plugin, marks::plugin, hint::plugin));
    #[cfg(feature = "dev")]
    app.add_plugins(frames::plugin);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::settings::MotionLevel;

    #[test]
    fn motion_eases_out_and_ends_at_home() {
        assert_eq!(ease_out(0.0), 0.0);
        assert_eq!(ease_out(1.0), 1.0);
        // Ease-out: more than half the way in the first half of the time.
        assert!(ease_out(0.5) > 0.5);
        let a = Transform::from_xyz(0.0, 0.0, 0.0);
        let b = Transform::from_xyz(100.0, -50.0, 2.0);
        assert_eq!(blend(&a, &b, 1.0).translation, b.translation);
    }

    /// A walk passes every room of its path in order and ends at the last.
    #[test]
    fn a_walk_goes_room_by_room() {
        let path = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)];
        assert_eq!(along(&path, 0.0), Vec2::ZERO);
        assert_eq!(along(&path, 0.5), Vec2::new(10.0, 0.0));
        assert!(along(&path, 1.0).distance(Vec2::new(10.0, 10.0)) < 0.01);
        assert_eq!(along(&path, 0.25), Vec2::new(5.0, 0.0));
    }

    /// Issue 19: "the latest state always shows within 300 ms".
    #[test]
    fn every_motion_level_settles_within_300_ms() {
        for level in [MotionLevel::Full, MotionLevel::Reduced, MotionLevel::Off] {
            // A frame of 33 ms to spare.
            assert!(SETTLE_SECS * level.factor() + 0.033 <= 0.3);
        }
        assert_eq!(MotionLevel::Off.factor(), 0.0);
    }
}
