//! Where the pieces and controls a player can reach are on the screen,
//! so that a test can play with real pointer and key events, aiming where
//! a person would: the scene's pieces (each tagged with a [`Target`] as it
//! is laid out) and the panels' controls (registered with [`control`]
//! while they are drawn), in the window's logical pixels (a page's CSS
//! pixels), with whether using one does something now.
//!
//! The account is published when it changes: in a browser as the
//! `data-reach` attribute of `<body>` (JSON), on the desktop to the file
//! `FOODWEB_STATUS` names (written whole, then renamed, so a reader never
//! sees half of it). Nothing here is more than the seat's own screen
//! shows: a piece is named by what its face shows the seat (a card whose
//! face this seat cannot see is named by its place only), and only pieces
//! the screen draws are listed.

use bevy::camera::Camera;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use foodweb_netcode::client::ClientModel;
use serde::Serialize;

use super::Screen;
use super::web;

/// A piece of the scene a player can point at: its name (what the seat
/// sees on it) and what using it does now.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Target {
    pub name: String,
    pub does: Does,
}

impl Target {
    pub fn new(name: impl Into<String>, does: Does) -> Self {
        Self {
            name: name.into(),
            does,
        }
    }
}

/// What using a piece or control does now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Does {
    /// Nothing now (shown, not usable).
    Nothing,
    /// Changes a choice on the screen (a card picked, a seat marked).
    Pick,
    /// Sends a move to the table.
    Move,
}

/// One thing on the screen, where it is.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Spot {
    name: String,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    /// Which is on top where two overlap (a panel's control: 0).
    #[serde(skip_serializing_if = "is_zero")]
    z: f32,
    does: Does,
}

fn is_zero(z: &f32) -> bool {
    *z == 0.0
}

/// The screen as a test reads it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Account {
    screen: String,
    seat: Option<u8>,
    revision: u64,
    /// This seat is waited on.
    to_act: bool,
    /// Moves of this seat's the table refused so far, and the last
    /// refusal's words.
    refused: u64,
    refusal: Option<String>,
    over: bool,
    /// The clocks as the screen shows them (its top bar's words).
    clock: String,
    /// The choices on the screen (what is picked), in the game's words.
    choice: String,
    /// What the seat may do now, as the screen's now line says it.
    now: String,
    /// What the screen says beside the pointer (a refusal, "not now").
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
    /// The piece the keyboard is on.
    focus: Option<String>,
    /// The inspected piece's card.
    inspect: Option<Inspecting>,
    /// The settlement lines showing, one after another as they play out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    settlement: Vec<String>,
    /// The lesson at this table, if it is one: its step, what to do, what
    /// it points at, or its summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    lesson: Option<foodweb_rules::lesson::LessonNow>,
    /// The sound switch and volume, and the cues heard and played so far
    /// (issue 39).
    sound: SoundAccount,
    pieces: Vec<Spot>,
    controls: Vec<Spot>,
    /// Updates drawn so far, and whether this one left nothing to draw at
    /// once (`wake::Idle`): a test waits for the screen to settle on it.
    frame: u64,
    idle: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct SoundAccount {
    on: bool,
    volume: u8,
    heard: u64,
    played: u64,
}

/// Parts of the scene that are not pieces but places to drop one on (the
/// middle of a Forest table), in world units, set by the scene's layout.
#[derive(Resource, Default, Clone, PartialEq)]
pub struct Zones(pub Vec<(String, Rect)>);

/// Sounds count, for the screen's account (tests): how many cues were
/// worked out, and how many played.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct SoundCount {
    pub heard: u64,
    pub played: u64,
}

/// The panels' share of the account, gathered while egui draws.
#[derive(Resource, Default)]
pub struct Said {
    /// The clock's words this frame.
    pub clock: String,
    /// The choices on the screen this frame.
    pub choice: String,
    /// What the seat may do now (the screen's now line) this frame.
    pub now: String,
    /// What the screen says beside the pointer, while it shows.
    pub hint: Option<String>,
    /// The inspected piece's card, where it is drawn.
    pub inspect: Option<Inspecting>,
    /// The settlement lines the screen shows now, as it words them.
    pub settlement: Vec<String>,
}

/// An inspected piece's card on the screen (`scene::inspect`): the piece
/// (its name in the account, if it is a target), every word the card
/// says, and where it is drawn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inspecting {
    pub piece: String,
    pub text: String,
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

const CONTROLS: &str = "foodweb-reach-controls";

/// Records a control of the panels where egui drew it: `name` says what it
/// is (`ready`, `ask:2`...), `does` what pressing it does now.
pub fn control(response: &egui::Response, name: &str, does: Does) {
    let zoom = response.ctx.zoom_factor();
    // What shows of it (a scrolled panel clips it), where egui drew it in
    // the pass that is kept: a pass egui will discard lays out again.
    let r = response.interact_rect;
    if r.area() <= 0.0 {
        return;
    }
    let spot = Spot {
        name: name.to_string(),
        x: r.min.x * zoom,
        y: r.min.y * zoom,
        w: r.width() * zoom,
        h: r.height() * zoom,
        z: 0.0,
        does: if response.enabled() {
            does
        } else {
            Does::Nothing
        },
    };
    // A lesson's step points at it: a gold frame around it.
    let pointed = response
        .ctx
        .data(|d| d.get_temp::<Vec<String>>(egui::Id::new(POINT)))
        .is_some_and(|p| p.iter().any(|p| foodweb_rules::lesson::matches(p, name)));
    if pointed && spot.does != Does::Nothing {
        response.ctx.layer_painter(response.layer_id).rect_stroke(
            response.rect.expand(3.0),
            5.0,
            egui::Stroke::new(2.5, crate::client::theme::ACCENT),
            egui::StrokeKind::Outside,
        );
    }
    response.ctx.data_mut(|d| {
        let spots = d.get_temp_mut_or_default::<Vec<Spot>>(egui::Id::new(CONTROLS));
        spots.retain(|s| s.name != spot.name);
        spots.push(spot);
    });
}

/// Where the control `name` was last drawn in this pass and what pressing
/// it does (the panels' tests press what a person sees).
/// A finger (or the mouse button) at `at`, pressed or let go, as egui
/// receives it: for tests that tap what `drawn` found.
#[cfg(test)]
pub fn finger(at: egui::Pos2, pressed: bool) -> Vec<egui::Event> {
    vec![
        egui::Event::PointerMoved(at),
        egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        },
    ]
}

#[cfg(test)]
pub fn drawn(ctx: &egui::Context, name: &str) -> Option<(egui::Rect, Does)> {
    ctx.data(|d| {
        let spots = d.get_temp::<Vec<Spot>>(egui::Id::new(CONTROLS))?;
        let s = spots.iter().find(|s| s.name == name)?;
        let zoom = ctx.zoom_factor();
        let rect = egui::Rect::from_min_size(
            egui::pos2(s.x / zoom, s.y / zoom),
            egui::vec2(s.w / zoom, s.h / zoom),
        );
        Some((rect, s.does))
    })
}

const POINT: &str = "foodweb-lesson-point";

/// What a lesson's step points at this frame (`None`: no lesson, or no
/// step of the learner's): the controls [`control`] registers by those
/// names get a frame.
pub fn point_at(ctx: &egui::Context, point: Option<Vec<String>>) {
    ctx.data_mut(|d| match point {
        Some(p) => {
            d.insert_temp(egui::Id::new(POINT), p);
        }
        None => d.remove::<Vec<String>>(egui::Id::new(POINT)),
    });
}

/// Whether anyone reads the account: a browser (a test's page) always, a
/// desktop only when `FOODWEB_STATUS` names a file.
#[derive(Resource)]
struct Sink {
    file: Option<std::path::PathBuf>,
    last: Account,
}

fn sink() -> Sink {
    Sink {
        file: (!web::IN_BROWSER)
            .then(|| std::env::var_os("FOODWEB_STATUS").map(Into::into))
            .flatten(),
        last: Account::default(),
    }
}

/// The controls egui drew this frame, taken out of its memory (so the next
/// frame starts empty).
fn take_controls(mut contexts: EguiContexts, mut out: ResMut<Drawn>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    out.0 = ctx.data_mut(|d| {
        std::mem::take(d.get_temp_mut_or_default::<Vec<Spot>>(egui::Id::new(CONTROLS)))
    });
}

/// Controls drawn in the last egui pass.
#[derive(Resource, Default)]
struct Drawn(Vec<Spot>);

/// Where each target sprite is on the screen: its rectangle's corners
/// through the camera.
fn spot_of(
    camera: &Camera,
    cam_at: &GlobalTransform,
    at: &GlobalTransform,
    size: Vec2,
    anchor: Vec2,
) -> Option<(f32, f32, f32, f32)> {
    let half = size / 2.0;
    let centre = -anchor * size;
    let mut min = Vec2::splat(f32::MAX);
    let mut max = Vec2::splat(f32::MIN);
    for corner in [
        Vec2::new(-half.x, -half.y),
        Vec2::new(half.x, -half.y),
        Vec2::new(-half.x, half.y),
        Vec2::new(half.x, half.y),
    ] {
        let world = at.transform_point((centre + corner).extend(0.0));
        let p = camera.world_to_viewport(cam_at, world).ok()?;
        min = min.min(p);
        max = max.max(p);
    }
    Some((min.x, min.y, max.x - min.x, max.y - min.y))
}

#[allow(clippy::too_many_arguments)]
fn publish(
    mut sink: ResMut<Sink>,
    screen: Res<State<Screen>>,
    model: Res<ClientModel>,
    said: Res<Said>,
    drawn: Res<Drawn>,
    zones: Res<Zones>,
    focus: Res<KeyFocus>,
    (settings, sounds, idle): (
        Res<super::UserSettings>,
        Res<SoundCount>,
        Res<super::wake::Idle>,
    ),
    cameras: Query<(&Camera, &GlobalTransform)>,
    window: Query<&Window, With<PrimaryWindow>>,
    targets: Query<(
        &Target,
        &GlobalTransform,
        &Sprite,
        &bevy::sprite::Anchor,
        &ViewVisibility,
    )>,
) {
    if !web::IN_BROWSER && sink.file.is_none() {
        return;
    }
    let Ok((camera, cam_at)) = cameras.single() else {
        return;
    };
    let bounds = window
        .single()
        .map(|w| Vec2::new(w.width(), w.height()))
        .unwrap_or(Vec2::splat(f32::MAX));
    let mut pieces: Vec<Spot> = targets
        .iter()
        .filter(|(.., seen)| seen.get())
        .filter_map(|(t, at, sprite, anchor, _)| {
            let size = sprite.custom_size?;
            let (x, y, w, h) = spot_of(camera, cam_at, at, size, anchor.as_vec())?;
            // Only what the window shows.
            (x + w > 0.0 && y + h > 0.0 && x < bounds.x && y < bounds.y).then(|| Spot {
                name: t.name.clone(),
                x: x.round(),
                y: y.round(),
                w: w.round(),
                h: h.round(),
                z: at.translation().z,
                does: t.does,
            })
        })
        .collect();
    // A zone's world rectangle (origin at the window's centre, y up) in
    // the window's pixels.
    pieces.extend(zones.0.iter().map(|(name, r)| Spot {
        name: name.clone(),
        x: (r.min.x + bounds.x / 2.0).round(),
        y: (bounds.y / 2.0 - r.max.y).round(),
        w: r.width().round(),
        h: r.height().round(),
        z: -1.0,
        does: Does::Nothing,
    }));
    pieces.sort_by(|a, b| a.name.cmp(&b.name));
    let view = model.view.as_ref();
    let account = Account {
        screen: format!("{:?}", screen.get()).to_lowercase(),
        seat: model.my_seat().map(|s| s.0),
        revision: model.revision,
        to_act: view.is_some_and(foodweb_netcode::games::my_turn),
        refused: model.rejected,
        refusal: model.last_rejection.as_ref().map(|r| r.en.to_string()),
        over: view.is_some_and(foodweb_netcode::games::view_over),
        clock: said.clock.clone(),
        choice: said.choice.clone(),
        now: said.now.clone(),
        hint: said.hint.clone(),
        focus: focus
            .0
            .and_then(|e| targets.get(e).ok())
            .map(|(t, ..)| t.name.clone()),
        inspect: said.inspect.clone(),
        settlement: said.settlement.clone(),
        lesson: model.lesson.clone(),
        sound: SoundAccount {
            on: settings.sound,
            volume: settings.volume,
            heard: sounds.heard,
            played: sounds.played,
        },
        pieces,
        controls: drawn.0.clone(),
        frame: idle.frame,
        idle: idle.idle,
    };
    if account == sink.last {
        return;
    }
    let Ok(json) = serde_json::to_string(&account) else {
        return;
    };
    if web::IN_BROWSER {
        web::publish("reach", &json);
    } else if let Some(file) = &sink.file {
        let tmp = file.with_extension("tmp");
        if std::fs::write(&tmp, &json).is_ok() {
            let _ = std::fs::rename(&tmp, file);
        }
    }
    sink.last = account;
}

pub fn plugin(app: &mut App) {
    app.insert_resource(sink())
        .init_resource::<Said>()
        .init_resource::<Zones>()
        .init_resource::<Drawn>()
        // The last egui pass's controls, all of them drawn by now.
        .add_systems(
            PreUpdate,
            take_controls.run_if(|s: Res<Sink>| web::IN_BROWSER || s.file.is_some()),
        )
        // Last: after the layout (`PostUpdate`) and after the update's
        // idleness is known.
        .add_systems(Last, publish.after(super::wake::IdleNoted));
}

/// The piece the keyboard is on.
#[derive(Resource, Default, Debug)]
pub struct KeyFocus(pub Option<Entity>);
