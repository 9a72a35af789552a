//! Inspect anything (issue 37): a piece of the scene shows, enlarged and
//! in full, what it is and what it does at this table, as players of Board
//! Game Arena expect: while the mouse rests on it, after a long press of a
//! finger (it then stays until the next tap, which does nothing else), or
//! with the I key on the piece the keyboard is on (Esc or I again closes
//! it).
//!
//! What a piece says is an [`Inspect`] on it, built by the game's layout
//! from the seat's own view and the table's settings: it tells nothing the
//! seat may not know, and is laid out anew with the piece (another
//! language, another update). This module only finds which piece is
//! inspected and draws the card beside it (a sheet across a phone).

use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, egui};
use foodweb_netcode::client::ClientModel;

use super::PointerOnUi;
use crate::client::reach::{self, Said};
use crate::client::{I18n, Screen, theme};

/// How long the mouse rests on a piece before its card shows.
pub const DWELL_SECS: f32 = 0.3;
/// How long a finger presses a piece, still, to inspect it.
pub const LONG_PRESS_SECS: f32 = 0.5;

/// What a piece tells when inspected, in the UI language, from the seat's
/// own view.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Inspect {
    pub title: String,
    /// What kind of piece it is, under the title ("PT · Attack").
    pub kind: String,
    /// Show the piece's own picture, large (art, not a blank frame).
    pub own_picture: bool,
    /// The picture shown, and its shape (width over height).
    pub picture: Option<(Handle<Image>, f32)>,
    /// Headed paragraphs: ("What it does", "…").
    pub sections: Vec<(String, String)>,
}

impl Inspect {
    pub fn new(title: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            kind: kind.into(),
            ..Self::default()
        }
    }

    /// Adds a headed paragraph (nothing when `text` is empty).
    pub fn with(mut self, head: impl Into<String>, text: impl Into<String>) -> Self {
        self.add(head, text);
        self
    }

    /// Adds a headed paragraph (nothing when `text` is empty).
    pub fn add(&mut self, head: impl Into<String>, text: impl Into<String>) {
        let text = text.into();
        if !text.is_empty() {
            self.sections.push((head.into(), text));
        }
    }

    /// Shows the piece's own picture.
    pub fn pictured(mut self) -> Self {
        self.own_picture = true;
        self
    }

    /// Every word of it, a line each: what the screen's account reports.
    pub fn text(&self) -> String {
        let mut lines = vec![self.title.clone()];
        if !self.kind.is_empty() {
            lines.push(self.kind.clone());
        }
        for (head, text) in &self.sections {
            lines.push(format!("{head}: {text}"));
        }
        lines.join("\n")
    }
}

/// How the shown card came up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The mouse rests on the piece: the card goes when it leaves.
    Hover,
    /// A long press: the card stays until the next tap.
    Press,
    /// The I key on the focused piece: until Esc or I again.
    Key,
}

/// Which piece's card shows, and what the pointers are on.
#[derive(Resource, Default, Debug)]
pub struct Inspected {
    /// Inspectable pieces under the mouse.
    hovered: Vec<Entity>,
    /// The topmost of them, and since when it has been.
    top: Option<(Entity, f32)>,
    /// The piece whose card shows.
    pub shown: Option<(Entity, By)>,
    /// Pointers pressed while a card stays: their release closes it and
    /// taps nothing.
    closing: Vec<PointerId>,
}

impl Inspected {
    /// A card that stays (long press, key) is up.
    pub fn pinned(&self) -> bool {
        matches!(self.shown, Some((_, By::Press | By::Key)))
    }

    /// Shows `entity`'s card until the next tap or Esc.
    pub fn pin(&mut self, entity: Entity, by: By) {
        self.shown = Some((entity, by));
    }

    /// The card that stays goes.
    pub fn close(&mut self) {
        if self.pinned() {
            self.shown = None;
        }
    }

    /// A press of `pointer` began: with a card up, its release closes
    /// the card and taps nothing.
    pub fn pressed(&mut self, pointer: PointerId) {
        if self.pinned() && !self.closing.contains(&pointer) {
            self.closing.push(pointer);
        }
    }

    /// `pointer` was let go: whether that closed a card (and so taps
    /// nothing).
    pub fn released(&mut self, pointer: PointerId) -> bool {
        let Some(i) = self.closing.iter().position(|p| *p == pointer) else {
            return false;
        };
        self.closing.swap_remove(i);
        self.close();
        true
    }
}

fn hover_on(ev: On<Pointer<Over>>, pieces: Query<(), With<Inspect>>, mut ins: ResMut<Inspected>) {
    if ev.pointer_id.is_mouse() && pieces.contains(ev.entity) && !ins.hovered.contains(&ev.entity) {
        ins.hovered.push(ev.entity);
    }
}

fn hover_off(ev: On<Pointer<Out>>, mut ins: ResMut<Inspected>) {
    if ev.pointer_id.is_mouse() {
        ins.hovered.retain(|e| *e != ev.entity);
    }
}

/// The card under the mouse shows once the mouse has rested there (at
/// once when another card was up: moving along a row reads each), and
/// goes when it leaves or a button is pressed; a piece gone takes its
/// card with it.
fn dwell(
    time: Res<Time<Real>>,
    on_ui: Res<PointerOnUi>,
    buttons: Res<ButtonInput<MouseButton>>,
    pieces: Query<&GlobalTransform, With<Inspect>>,
    model: Res<ClientModel>,
    mut ins: ResMut<Inspected>,
    alarm: Res<crate::client::wake::Alarm>,
) {
    let now = time.elapsed_secs();
    // A lesson's summary is read, not a card the mouse happens to rest on
    // after the last move (it covered the summary).
    if model.lesson.as_ref().is_some_and(|l| l.done) {
        ins.top = None;
        ins.shown = None;
        return;
    }
    // A press or a drag puts a hover card away (it would stand between
    // the card dragged and where it is dropped) until the mouse rests
    // again.
    if buttons.pressed(MouseButton::Left) {
        ins.top = None;
        if matches!(ins.shown, Some((_, By::Hover))) {
            ins.shown = None;
        }
        return;
    }
    ins.hovered.retain(|e| pieces.contains(*e));
    if let Some((e, _)) = ins.shown
        && !pieces.contains(e)
    {
        ins.shown = None;
    }
    let top = if on_ui.0 {
        None
    } else {
        ins.hovered
            .iter()
            .filter_map(|e| pieces.get(*e).ok().map(|t| (*e, t.translation().z)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(e, _)| e)
    };
    if top != ins.top.map(|t| t.0) {
        ins.top = top.map(|e| (e, now));
    }
    if ins.pinned() {
        return;
    }
    let hovering = matches!(ins.shown, Some((_, By::Hover)));
    ins.shown = match ins.top {
        Some((e, since)) if hovering || now - since >= DWELL_SECS => Some((e, By::Hover)),
        Some((_, since)) => {
            // The mouse rests without a sound: looked at again once it
            // has rested long enough.
            alarm.after_secs(since + DWELL_SECS - now);
            None
        }
        _ => None,
    };
}

/// The inspected piece's rectangle in the window (logical pixels).
fn screen_rect(
    camera: &Camera,
    cam_at: &GlobalTransform,
    at: &GlobalTransform,
    size: Vec2,
) -> Option<Rect> {
    let half = size / 2.0;
    let mut r = Rect::EMPTY;
    for corner in [
        half,
        -half,
        Vec2::new(half.x, -half.y),
        Vec2::new(-half.x, half.y),
    ] {
        let p = camera
            .world_to_viewport(cam_at, at.transform_point(corner.extend(0.0)))
            .ok()?;
        r = r.union_point(p);
    }
    Some(r)
}

/// Where the card goes: above a piece low in the window (a hand of cards:
/// the row stays in view), below one high in it, beside the others (on
/// the side with more room); across a narrow window, on the half the
/// piece is not on.
fn place(piece: Rect, window: Vec2) -> (egui::Align2, egui::Pos2, f32) {
    let wide = 340.0_f32.min(window.x - 16.0);
    let x = piece.center().x.clamp(
        wide / 2.0 + 8.0,
        (window.x - wide / 2.0 - 8.0).max(wide / 2.0 + 8.0),
    );
    if window.x >= 600.0 && piece.center().y > window.y * 0.62 {
        return (
            egui::Align2::CENTER_BOTTOM,
            egui::pos2(x, piece.min.y - 8.0),
            wide,
        );
    }
    if window.x >= 600.0 && piece.center().y < window.y * 0.25 {
        return (
            egui::Align2::CENTER_TOP,
            egui::pos2(x, piece.max.y + 8.0),
            wide,
        );
    }
    if window.x < 600.0 {
        let width = window.x - 16.0;
        if piece.center().y > window.y / 2.0 {
            (
                egui::Align2::CENTER_BOTTOM,
                egui::pos2(window.x / 2.0, piece.min.y - 8.0),
                width,
            )
        } else {
            (
                egui::Align2::CENTER_TOP,
                egui::pos2(window.x / 2.0, piece.max.y + 8.0),
                width,
            )
        }
    } else if piece.center().x < window.x / 2.0 {
        (
            egui::Align2::LEFT_CENTER,
            egui::pos2(piece.max.x + 12.0, piece.center().y),
            320.0,
        )
    } else {
        (
            egui::Align2::RIGHT_CENTER,
            egui::pos2(piece.min.x - 12.0, piece.center().y),
            320.0,
        )
    }
}

/// Draws the inspected piece's card and tells the screen's account.
#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    ins: Res<Inspected>,
    i18n: Res<I18n>,
    mut said: ResMut<Said>,
    pieces: Query<(
        &Inspect,
        &GlobalTransform,
        Option<&Sprite>,
        Option<&reach::Target>,
    )>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    said.inspect = None;
    let Some((entity, by)) = ins.shown else {
        return Ok(());
    };
    let (Ok((card, at, sprite, target)), Ok((camera, cam_at)), Ok(window)) =
        (pieces.get(entity), cameras.single(), windows.single())
    else {
        return Ok(());
    };
    let size = sprite
        .and_then(|s| s.custom_size)
        .unwrap_or(Vec2::splat(40.0));
    let Some(piece) = screen_rect(camera, cam_at, at, size) else {
        return Ok(());
    };
    let picture = card
        .picture
        .as_ref()
        .map(|(h, shape)| (contexts.add_image(EguiTextureHandle::Weak(h.id())), *shape));
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let (pivot, pos, width) = place(
        Rect::from_corners(piece.min / zoom, piece.max / zoom),
        Vec2::new(window.width(), window.height()) / zoom,
    );
    let shown = egui::Area::new(egui::Id::new("inspect-card"))
        .order(egui::Order::Tooltip)
        .pivot(pivot)
        .fixed_pos(pos)
        .constrain(true)
        .interactable(false)
        // At once: a software renderer's few frames a second would show
        // egui's fade-in as a card too faint to read.
        .fade_in(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_width(width - 16.0);
                if let Some((tex, shape)) = picture {
                    let h = 150.0_f32.min(width * 0.6 / shape.max(0.1));
                    ui.vertical_centered(|ui| {
                        ui.add(egui::Image::new((tex, egui::vec2(h * shape, h))));
                    });
                }
                ui.label(egui::RichText::new(&card.title).size(20.0).strong());
                if !card.kind.is_empty() {
                    ui.label(egui::RichText::new(&card.kind).color(theme::MUTED));
                }
                for (head, text) in &card.sections {
                    ui.add_space(4.0);
                    ui.label(egui::RichText::new(head).strong().color(theme::ACCENT));
                    ui.label(text);
                }
                if by != By::Hover {
                    ui.add_space(4.0);
                    let close = match by {
                        By::Key => "inspect-close-key",
                        _ => "inspect-close-tap",
                    };
                    ui.label(
                        egui::RichText::new(i18n.t(close))
                            .small()
                            .color(theme::MUTED),
                    );
                }
            });
        });
    let r = shown.response.rect;
    said.inspect = Some(reach::Inspecting {
        piece: target.map(|t| t.name.clone()).unwrap_or_default(),
        text: card.text(),
        x: r.min.x * zoom,
        y: r.min.y * zoom,
        w: r.width() * zoom,
        h: r.height() * zoom,
    });
    Ok(())
}

/// The table screen went: no card shows.
fn forget(mut commands: Commands) {
    commands.insert_resource(Inspected::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Inspected>()
        .add_observer(hover_on)
        .add_observer(hover_off)
        .add_systems(Update, dwell.run_if(in_state(Screen::Table)))
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Table)))
        .add_systems(OnExit(Screen::Table), forget);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card beside the piece on a wide window, on the side with room;
    /// across a phone, on the half the piece is not on.
    #[test]
    fn the_card_goes_where_there_is_room() {
        let wide = Vec2::new(1280.0, 720.0);
        let left = Rect::new(100.0, 300.0, 180.0, 420.0);
        let (pivot, pos, _) = place(left, wide);
        assert_eq!(pivot, egui::Align2::LEFT_CENTER);
        assert!(pos.x > left.max.x);
        let right = Rect::new(1000.0, 300.0, 1080.0, 420.0);
        let (pivot, pos, _) = place(right, wide);
        assert_eq!(pivot, egui::Align2::RIGHT_CENTER);
        assert!(pos.x < right.min.x);
        // A card of the hand along the bottom: the card above it.
        let hand = Rect::new(20.0, 600.0, 100.0, 710.0);
        let (pivot, pos, width) = place(hand, wide);
        assert_eq!(pivot, egui::Align2::CENTER_BOTTOM);
        assert!(pos.y < hand.min.y && pos.x - width / 2.0 >= 0.0);
        let phone = Vec2::new(390.0, 844.0);
        let low = Rect::new(100.0, 600.0, 180.0, 720.0);
        let (pivot, pos, width) = place(low, phone);
        assert_eq!(pivot, egui::Align2::CENTER_BOTTOM);
        assert!(pos.y < low.min.y && width <= phone.x);
    }

    /// A long-press card stays through its own release, and the next tap
    /// closes it without tapping anything; a hover card needs no tap.
    #[test]
    fn a_pinned_card_closes_on_the_next_tap_only() {
        let mut ins = Inspected::default();
        let finger = PointerId::Touch(1);
        ins.pin(Entity::PLACEHOLDER, By::Press);
        assert!(!ins.released(finger), "the long press's own release");
        assert!(ins.pinned());
        ins.pressed(finger);
        assert!(ins.released(finger), "the next tap closes the card");
        assert!(ins.shown.is_none());
        ins.shown = Some((Entity::PLACEHOLDER, By::Hover));
        ins.pressed(PointerId::Mouse);
        assert!(
            !ins.released(PointerId::Mouse),
            "a click under a hover card taps"
        );
    }
}
