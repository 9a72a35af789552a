//! Watching a game again in its own table scene (issue 21). After a game
//! the game-over window offers the replay; the hall sends it in parts
//! (`GetReplay`, `ReplayPart`): this seat's own view at every step, or
//! everything for the host seat. While it runs, the table screen draws the
//! replay's view of the step shown instead of the live one, and a
//! timeline window steps back and forth, plays at a chosen speed and jumps
//! to a round. The live view comes back when the replay is closed.
//!
//! A finished table the player sat at before is in the lobby's list of
//! past games: its replay is asked for with the seat's token
//! (`GetReplay::past`). A saved replay opens offline: `foodweb replay
//! FILE`, the title's list of saved replays, or in a browser a file picked
//! from the device (and saving there downloads the file).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyView;
use foodweb_netcode::messages::{ClientMsg, PastSeat};
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
    /// The live view and revision, taken when the replay opened and put
    /// back when it closes (`None` inside: there was none).
    live: Option<Option<(AnyView, u64)>>,
    /// The live log, notes and (for the host seat) every seat's view, put
    /// back when the replay closes.
    live_said: Option<(Vec<Announcement>, Vec<PrivateNote>, Vec<AnyView>)>,
    /// The past table watched from the lobby, with its seat's token.
    past: Option<PastSeat>,
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
    open_file(r, &mut model, &mut replay, &mut next);
}

/// Opens a replay read from a file: its first step at its game's table.
pub fn open_file(
    r: foodweb_netcode::replay::Replay,
    model: &mut ClientModel,
    replay: &mut Replaying,
    next: &mut NextState<Screen>,
) {
    let total = r.steps.len() as u32;
    model.view = r.steps.first().map(|s| s.view.clone());
    // A replay's clock is the step's own, not the hall's.
    model.view_hall_ms = None;
    model.replay = Some((r, total));
    *replay = Replaying {
        on: true,
        speed: 1.0,
        offline: true,
        live: Some(None),
        ..Replaying::default()
    };
    next.set(Screen::Table);
}

/// The name a saved replay gets: the game, whose eyes, and when.
fn file_name(r: &foodweb_netcode::replay::Replay) -> String {
    let viewer = match r.viewer {
        foodweb_netcode::replay::Viewer::Seat(s) => format!("seat{}", s.index() + 1),
        foodweb_netcode::replay::Viewer::Everything => "all".into(),
    };
    let stamp = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{}-{viewer}-{stamp}.ron", r.game.key())
}

/// Where saved replays are kept on this machine.
#[cfg(not(target_arch = "wasm32"))]
pub fn replays_dir() -> Option<std::path::PathBuf> {
    Some(super::settings::config_dir()?.join("replays"))
}

/// The replays saved on this machine, newest first.
#[cfg(not(target_arch = "wasm32"))]
pub fn saved_replays() -> Vec<std::path::PathBuf> {
    let Some(dir) = replays_dir() else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, std::path::PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ron"))
        .map(|e| {
            let when = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (when, e.path())
        })
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files.into_iter().map(|(_, p)| p).collect()
}

/// Saves the replay where the settings live (`replays/`), as the file
/// `foodweb replay` opens.
#[cfg(not(target_arch = "wasm32"))]
pub fn save(r: &foodweb_netcode::replay::Replay) -> Result<String, String> {
    let dir = replays_dir().ok_or("no folder for saved files on this system")?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(file_name(r));
    std::fs::write(&path, r.to_ron()).map_err(|e| e.to_string())?;
    Ok(path.display().to_string())
}

/// In a browser the replay is downloaded, as a file any Foodweb opens.
#[cfg(target_arch = "wasm32")]
pub fn save(r: &foodweb_netcode::replay::Replay) -> Result<String, String> {
    let name = file_name(r);
    super::web::download(&name, &r.to_ron())?;
    Ok(name)
}

impl Replaying {
    /// Opens the replay of the table we are at: its first part is asked
    /// for.
    pub fn start(&mut self, outbox: &mut Outbox) {
        self.open(outbox, None);
    }

    /// Opens the replay of a table we sat at before (from the lobby).
    pub fn start_past(&mut self, outbox: &mut Outbox, past: PastSeat) {
        self.open(outbox, Some(past));
    }

    fn open(&mut self, outbox: &mut Outbox, past: Option<PastSeat>) {
        *self = Self {
            on: true,
            speed: 1.0,
            asked: Some(0),
            past: past.clone(),
            ..Self::default()
        };
        send(outbox, ClientMsg::GetReplay { from: 0, past });
    }

    /// Closes the replay as its Close button does: a replay from a file
    /// goes back to the title, a past table's to the lobby, a live table's
    /// to its table.
    pub fn close_and_return(&mut self, model: &mut ClientModel, next: &mut NextState<Screen>) {
        if self.offline {
            next.set(Screen::Title);
        } else if self.past.is_some() {
            next.set(Screen::Lobby);
        }
        self.close(model);
    }

    /// Closes the replay: the live view comes back (or none, if there was
    /// none: a past table, a file).
    pub fn close(&mut self, model: &mut ClientModel) {
        if let Some(live) = self.live.take() {
            (model.view, model.revision) = match live {
                Some((view, revision)) => (Some(view), revision),
                None => (None, 0),
            };
        }
        if let Some((public, notes, seats)) = self.live_said.take() {
            model.public = public;
            model.notes = notes;
            model.host_views = seats;
        }
        model.replay = None;
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
        let past = replay.past.clone();
        send(
            &mut outbox,
            ClientMsg::GetReplay {
                from: have as u32,
                past,
            },
        );
    }
}

/// Puts the step shown where the table screen draws from.
fn show(time: Res<Time<Real>>, mut model: ResMut<ClientModel>, mut replay: ResMut<Replaying>) {
    if !replay.on {
        return;
    }
    let Some(count) = model.replay.as_ref().map(|(r, _)| r.steps.len()) else {
        return;
    };
    if count == 0 {
        return;
    }
    if replay.live.is_none() {
        replay.live = Some(model.view.clone().map(|v| (v, model.revision)));
        replay.live_said = Some((
            model.public.clone(),
            model.notes.clone(),
            model.host_views.clone(),
        ));
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
        let step = model.replay.as_ref().map(|(r, _)| {
            // The log and the notes as they stood at that step.
            let (public, notes) = r.said_at(replay.step);
            let step = &r.steps[replay.step];
            (
                step.view.clone(),
                step.seats.clone(),
                public.to_vec(),
                notes.to_vec(),
            )
        });
        if let Some((view, seats, public, notes)) = step {
            model.view = Some(view);
            model.view_hall_ms = None;
            // A replay of everything shows every seat, as the host saw.
            model.host_views = seats;
            model.revision = revision;
            model.public = public;
            model.notes = notes;
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
    mut published: Local<String>,
) -> Result {
    if !replay.on {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (count, total) = match &model.replay {
        Some((r, total)) => (r.steps.len(), *total as usize),
        None => (0, 0),
    };
    // Where the replay stands, for a browser test: "step/loaded/total".
    let standing = format!("{}/{count}/{total}", replay.step + 1);
    if *published != standing {
        super::web::publish("replay", &standing);
        *published = standing;
    }
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
                let next = ui.button("▶|");
                super::reach::control(&next, "replay-next", super::reach::Does::Pick);
                if next.clicked() {
                    replay.step = (replay.step + 1).min(count - 1);
                }
                let end = ui.button("⏭");
                super::reach::control(&end, "replay-end", super::reach::Does::Pick);
                if end.clicked() {
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
                if count == total
                    && !replay.offline
                    && ui.button(i18n.t("replay-save")).clicked()
                    && let Some((r, _)) = &model.replay
                {
                    replay.saved = Some(match save(r) {
                        Ok(path) => {
                            let said = if super::web::IN_BROWSER {
                                "replay-downloaded"
                            } else {
                                "replay-saved"
                            };
                            i18n.ta(said, &[("path", path.into())])
                        }
                        Err(e) => i18n.ta("replay-not-saved", &[("why", e.into())]),
                    });
                }
                let button = ui.button(i18n.t("replay-close"));
                super::reach::control(&button, "replay-close", super::reach::Does::Move);
                close = button.clicked();
            });
            if let Some(saved) = &replay.saved {
                ui.label(egui::RichText::new(saved).small());
            }
        });
    if close {
        replay.close_and_return(&mut model, &mut next);
    }
    Ok(())
}

/// The title's "Watch a replay": on a desktop a list of the replays
/// saved here; in a browser a file picked from the device.
#[derive(Resource, Default)]
pub struct ReplayPicker {
    open: bool,
    /// Why the last file could not be opened.
    error: Option<String>,
}

impl ReplayPicker {
    pub fn ask(&mut self) {
        self.error = None;
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = super::web::pick_file() {
            self.error = Some(e);
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.open = true;
        }
    }
}

/// A saved replay as the list shows it: its game, whose eyes, and how long
/// ago it was saved (from its name, `<game>-<seatN|all>-<unix secs>.ron`);
/// a file named otherwise shows its name.
#[cfg(not(target_arch = "wasm32"))]
fn file_label(i18n: &I18n, path: &std::path::Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut parts = name.trim_end_matches(".ron").splitn(3, '-');
    let (Some(game), Some(viewer), Some(stamp)) = (parts.next(), parts.next(), parts.next()) else {
        return name;
    };
    let (Some(game), Ok(stamp)) = (foodweb_rules::GameId::from_key(game), stamp.parse::<u64>())
    else {
        return name;
    };
    let viewer = match viewer.strip_prefix("seat") {
        Some(n) => i18n.ta("replay-file-seat", &[("n", n.to_string().into())]),
        None => i18n.t("replay-file-all"),
    };
    let now = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let minutes = now.saturating_sub(stamp) / 60;
    let ago = if minutes < 60 {
        i18n.ta("replay-ago-min", &[("n", minutes.into())])
    } else if minutes < 48 * 60 {
        i18n.ta("replay-ago-hours", &[("n", (minutes / 60).into())])
    } else {
        i18n.ta("replay-ago-days", &[("n", (minutes / 1440).into())])
    };
    format!("{} · {viewer} · {ago}", i18n.pick(&game.title()))
}

/// Reads a replay file's text, and opens it if it is a good one.
fn open_text(
    text: Result<String, String>,
    picker: &mut ReplayPicker,
    model: &mut ClientModel,
    replay: &mut Replaying,
    next: &mut NextState<Screen>,
) {
    match text
        .and_then(|t| foodweb_netcode::replay::Replay::from_ron(&t).map_err(|e| e.to_string()))
    {
        Ok(r) => {
            picker.open = false;
            open_file(r, model, replay, next);
        }
        Err(e) => picker.error = Some(e),
    }
}

fn picker_window(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    mut picker: ResMut<ReplayPicker>,
    mut model: ResMut<ClientModel>,
    mut replay: ResMut<Replaying>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    #[cfg(target_arch = "wasm32")]
    if let Some(text) = super::web::picked_file() {
        open_text(text, &mut picker, &mut model, &mut replay, &mut next);
    }
    let ctx = contexts.ctx_mut()?;
    if !picker.open {
        if let Some(e) = picker.error.clone() {
            egui::Window::new(i18n.t("menu-replays"))
                .collapsible(false)
                .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -24.0])
                .show(ctx, |ui| {
                    ui.label(i18n.ta("replay-bad-file", &[("why", e.into())]));
                    if ui.button(i18n.t("replay-close")).clicked() {
                        picker.error = None;
                    }
                });
        }
        return Ok(());
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut open = true;
        let mut chosen = None;
        egui::Window::new(i18n.t("menu-replays"))
            .open(&mut open)
            .collapsible(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                let files = saved_replays();
                if files.is_empty() {
                    ui.label(i18n.t("replay-none-saved"));
                }
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .show(ui, |ui| {
                        for path in files.iter().take(40) {
                            if ui
                                .button(file_label(&i18n, path))
                                .on_hover_text(path.display().to_string())
                                .clicked()
                            {
                                chosen = Some(path.clone());
                            }
                        }
                    });
                if let Some(dir) = replays_dir() {
                    ui.label(
                        egui::RichText::new(i18n.ta(
                            "replay-folder",
                            &[("path", dir.display().to_string().into())],
                        ))
                        .small(),
                    );
                }
                if let Some(e) = &picker.error {
                    ui.label(i18n.ta("replay-bad-file", &[("why", e.clone().into())]));
                }
            });
        picker.open = open;
        if let Some(path) = chosen {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()));
            open_text(text, &mut picker, &mut model, &mut replay, &mut next);
        }
    }
    Ok(())
}

/// Leaving the table closes the replay.
fn forget(mut replay: ResMut<Replaying>, mut model: ResMut<ClientModel>) {
    if replay.on {
        replay.close(&mut model);
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Replaying>()
        .init_resource::<ReplayPicker>()
        .add_systems(
            EguiPrimaryContextPass,
            picker_window.run_if(in_state(Screen::Title)),
        )
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
        .add_systems(OnExit(Screen::Table), forget)
        .add_systems(
            Last,
            crate::client::wake::draw_on
                .run_if(|r: Res<Replaying>| r.on && r.playing)
                .in_set(crate::client::wake::AskToWake),
        );
}
