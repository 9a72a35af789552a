//! Watching a game again in its own table scene (issue 21). After a game
//! the game-over window offers the replay; the hall sends it in parts
//! (`GetReplay`, `ReplayPart`): this seat's own view at every step, or
//! everything for the host seat. While it runs, the table screen draws the
//! replay's view of the step shown instead of the live one, and a
//! timeline window steps back and forth, plays at a chosen speed and jumps
//! to a round. The live view comes back when the replay is closed.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyView;
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::table::{Announcement, PrivateNote};

use super::net::send;
use super::{I18n, Screen};

/// Steps a second at 1x.
const STEPS_PER_SEC: f32 = 1.5;

/// The replay being watched, if one is.
#[derive(Resource, Default)]
pub struct Replaying {
    /// A replay is open.
    pub on: bool,
    /// The step shown.
    pub step: usize,
    pub playing: bool,
    pub speed: f32,
    timer: f32,
    /// The live view and revision, put back when the replay closes.
    live: Option<(AnyView, u64)>,
    /// The live log and notes, of which a step shows those made by then.
    live_said: Option<(Vec<Announcement>, Vec<PrivateNote>)>,
    /// The step count last asked for (parts come one at a time).
    asked: Option<usize>,
    /// Opened from a file, with no table behind it.
    offline: bool,
    /// Where the replay was saved, to say so.
    saved: Option<String>,
    /// Each round's first step, for the steps that have come (found when
    /// a part arrives, not every frame).
    rounds: Vec<(u8, usize)>,
    /// The step count `rounds` was found for.
    rounds_for: usize,
}

/// A replay file given on the command line, opened once the title shows.
#[derive(Resource)]
pub struct Offline(pub Option<foodweb_netcode::replay::Replay>);

/// Opens the command line's replay: its first step at its game's table.
fn open_offline(
    mut offline: ResMut<Offline>,
    mut model: ResMut<ClientModel>,
    mut replay: ResMut<Replaying>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(r) = offline.0.take() else { return };
    let total = r.steps.len() as u32;
    model.view = r.steps.first().map(|s| s.view.clone());
    model.replay = Some((r, total));
    *replay = Replaying {
        on: true,
        speed: 1.0,
        offline: true,
        ..Replaying::default()
    };
    next.set(Screen::Table);
}

/// Saves the replay where the settings live (`replays/`), as the file
/// `foodweb replay` opens.
#[cfg(not(target_arch = "wasm32"))]
fn save(r: &foodweb_netcode::replay::Replay) -> Result<String, String> {
    let dir = super::settings::config_dir()
        .ok_or("no folder for saved files on this system")?
        .join("replays");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let viewer = match r.viewer {
        foodweb_netcode::replay::Viewer::Seat(s) => format!("seat{}", s.index() + 1),
        foodweb_netcode::replay::Viewer::Everything => "all".into(),
    };
    let stamp = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let path = dir.join(format!("{}-{viewer}-{stamp}.ron", r.game.key()));
    std::fs::write(&path, r.to_ron()).map_err(|e| e.to_string())?;
    Ok(path.display().to_string())
}

impl Replaying {
    /// Opens the replay of the table: its first part is asked for.
    pub fn start(&mut self, outbox: &mut Outbox) {
        *self = Self {
            on: true,
            speed: 1.0,
            asked: Some(0),
            ..Self::default()
        };
        send(outbox, ClientMsg::GetReplay { from: 0 });
    }
}

impl Replaying {
    /// Closes the replay: the live view comes back.
    pub fn close(&mut self, model: &mut ClientModel) {
        if let Some((view, revision)) = self.live.take() {
            model.view = Some(view);
            model.revision = revision;
        }
        if let Some((public, notes)) = self.live_said.take() {
            model.public = public;
            model.notes = notes;
        }
        *self = Self::default();
    }
}

/// Asks for the next part until the whole replay has come.
fn fetch(model: Res<ClientModel>, mut replay: ResMut<Replaying>, mut outbox: ResMut<Outbox>) {
    if !replay.on || replay.offline {
        return;
    }
    let Some((r, total)) = &model.replay else {
        return;
    };
    let have = r.steps.len();
    if have < *total as usize && replay.asked != Some(have) {
        replay.asked = Some(have);
        send(&mut outbox, ClientMsg::GetReplay { from: have as u32 });
    }
}

/// Puts the step shown where the table screen draws from.
fn show(time: Res<Time>, mut model: ResMut<ClientModel>, mut replay: ResMut<Replaying>) {
    if !replay.on {
        return;
    }
    let Some(count) = model.replay.as_ref().map(|(r, _)| r.steps.len()) else {
        return;
    };
    if count == 0 {
        return;
    }
    if replay.live.is_none()
        && let Some(view) = model.view.clone()
    {
        replay.live = Some((view, model.revision));
        replay.live_said = Some((model.public.clone(), model.notes.clone()));
    }
    if replay.rounds_for != count {
        replay.rounds_for = count;
        replay.rounds.clear();
        if let Some((r, _)) = &model.replay {
            for (k, step) in r.steps.iter().enumerate() {
                let round = step.view.seat().round();
                if replay.rounds.last().is_none_or(|(last, _)| *last != round) {
                    replay.rounds.push((round, k));
                }
            }
        }
    }
    if replay.playing {
        replay.timer += time.delta_secs() * replay.speed * STEPS_PER_SEC;
        while replay.timer >= 1.0 {
            replay.timer -= 1.0;
            if replay.step + 1 < count {
                replay.step += 1;
            } else {
                replay.playing = false;
            }
        }
    }
    replay.step = replay.step.min(count - 1);
    // A revision of its own per step, so the scene moves as it did live.
    let revision = u64::MAX / 2 + replay.step as u64;
    if model.revision != revision {
        let step = model
            .replay
            .as_ref()
            .map(|(r, _)| r.steps[replay.step].clone());
        if let Some(step) = step {
            model.view = Some(step.view);
            model.revision = revision;
            // The log and the notes as they stood at that step.
            if let Some((public, notes)) = &replay.live_said {
                model.public = public[..(step.public as usize).min(public.len())].to_vec();
                model.notes = notes[..(step.notes as usize).min(notes.len())].to_vec();
            }
        }
    }
}

/// The timeline: back, forward, play at a speed, jump to a round, close.
fn timeline(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    mut model: ResMut<ClientModel>,
    mut replay: ResMut<Replaying>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    if !replay.on {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (count, total) = match &model.replay {
        Some((r, total)) => (r.steps.len(), *total as usize),
        None => (0, 0),
    };
    let rounds = replay.rounds.clone();
    let mut close = false;
    // One strip along the top of a wide table, clear of the cards below;
    // on a phone along the bottom, over the controls (nothing in a replay
    // can be played), leaving the top bar's tabs and buttons free.
    let (anchor, offset) = if super::widgets::narrow(ctx) {
        (egui::Align2::CENTER_BOTTOM, [0.0, -4.0])
    } else {
        (egui::Align2::CENTER_TOP, [0.0, 44.0])
    };
    egui::Window::new(i18n.t("replay-title"))
        .anchor(anchor, offset)
        .min_width(ctx.content_rect().width().min(640.0) - 24.0)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if count < total || count == 0 {
                ui.label(i18n.ta(
                    "replay-loading",
                    &[("have", count.into()), ("total", total.into())],
                ));
            }
            if count == 0 {
                close = ui.button(i18n.t("replay-close")).clicked();
                return;
            }
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(i18n.t("replay-title")).strong());
                if ui.button("⏮").clicked() {
                    replay.step = 0;
                }
                if ui.button("◀").clicked() {
                    replay.step = replay.step.saturating_sub(1);
                }
                let play = if replay.playing { "⏸" } else { "▶" };
                if ui.button(play).clicked() {
                    replay.playing = !replay.playing;
                }
                if ui.button("▶|").clicked() {
                    replay.step = (replay.step + 1).min(count - 1);
                }
                if ui.button("⏭").clicked() {
                    replay.step = count - 1;
                }
                for speed in [0.5, 1.0, 2.0, 4.0] {
                    let on = replay.speed == speed;
                    if ui.selectable_label(on, format!("{speed}×")).clicked() {
                        replay.speed = speed;
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                let mut step = replay.step;
                ui.add(
                    egui::Slider::new(&mut step, 0..=count - 1)
                        .text(i18n.ta("replay-of", &[("total", count.into())])),
                );
                replay.step = step;
                ui.label(i18n.t("replay-round"));
                for (round, at) in &rounds {
                    if ui.small_button(round.to_string()).clicked() {
                        replay.step = *at;
                    }
                }
                #[cfg(not(target_arch = "wasm32"))]
                if count == total
                    && !replay.offline
                    && ui.button(i18n.t("replay-save")).clicked()
                    && let Some((r, _)) = &model.replay
                {
                    replay.saved = Some(match save(r) {
                        Ok(path) => i18n.ta("replay-saved", &[("path", path.into())]),
                        Err(e) => i18n.ta("replay-not-saved", &[("why", e.into())]),
                    });
                }
                close = ui.button(i18n.t("replay-close")).clicked();
            });
            if let Some(saved) = &replay.saved {
                ui.label(egui::RichText::new(saved).small());
            }
        });
    if close {
        if replay.offline {
            next.set(Screen::Title);
        }
        replay.close(&mut model);
    }
    Ok(())
}

/// Leaving the table closes the replay.
fn forget(mut replay: ResMut<Replaying>) {
    *replay = Replaying::default();
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Replaying>()
        .add_systems(
            OnEnter(Screen::Title),
            open_offline.run_if(resource_exists::<Offline>),
        )
        .add_systems(
            Update,
            (fetch, show).chain().run_if(in_state(Screen::Table)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            timeline.run_if(in_state(Screen::Table)),
        )
        .add_systems(OnExit(Screen::Table), forget);
}
