//! The table scaffold every game's screen stands on: which game's screen
//! shows ([`TableScreen`], a sub-state of `Screen::Table`, chosen by the
//! view that arrived), the placeholder while connecting, leaving (back to
//! the lobby on a LAN, to the title against bots; the seat is left with
//! the screen), refusals to show, the countdown of a deadline, and the
//! scene's share of the window.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fluent_bundle::FluentValue;
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::Bilingual;
use foodweb_rules::GameId;
use iyes_progress::ProgressTracker;

use crate::client::assets::ArtLoad;
use crate::client::net::{LeftRunning, PlayingAgain, Session, Target, send};
use crate::client::reach::Does;
use crate::client::scene::{self, PointerOnUi, SceneRect};
use crate::client::screens::HostedAt;
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// Which game's table screen shows.
#[derive(SubStates, Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Table)]
pub enum TableScreen {
    /// No view yet: the table is being joined.
    #[default]
    Connecting,
    /// The game's own screen: each game's plugin runs its panels and scene
    /// in its own.
    Game(GameId),
}

/// What every table screen uses.
#[derive(SystemParam)]
pub struct TableFrame<'w> {
    pub model: Res<'w, ClientModel>,
    pub outbox: ResMut<'w, Outbox>,
    pub i18n: Res<'w, I18n>,
    pub settings: ResMut<'w, UserSettings>,
    pub scene_rect: ResMut<'w, SceneRect>,
    pub on_ui: ResMut<'w, PointerOnUi>,
    next: ResMut<'w, NextState<Screen>>,
    session: Res<'w, Session>,
    hosted: Res<'w, HostedAt>,
    tracker: Option<Res<'w, ProgressTracker<ArtLoad>>>,
    replay: ResMut<'w, crate::client::replay::Replaying>,
    /// Whether the game-over summary was put away (`summary_window`).
    pub summary: ResMut<'w, Summary>,
    /// Whether "Leave table" is asking first (`leave_ask`).
    pub asking_leave: ResMut<'w, AskingLeave>,
    left_running: ResMut<'w, LeftRunning>,
    playing_again: ResMut<'w, PlayingAgain>,
}

impl TableFrame<'_> {
    /// A LAN table (hosted here or joined), rather than one against bots.
    pub fn on_lan(&self) -> bool {
        !self.hosted.0.is_empty() || self.session.target != Some(Target::InProcess)
    }

    /// Leaves the table: to the lobby on a LAN, to the title otherwise.
    pub fn leave(&mut self) {
        let to = if self.on_lan() {
            Screen::Lobby
        } else {
            Screen::Title
        };
        self.next.set(to);
    }

    /// Leaves our seat in a game still running, as the person chose when
    /// asked (`leave_ask`): to the lobby, which does not follow the game
    /// back here before the server's answer; leaving the screen tells the
    /// server (`leave_table`: the seat stays ours, a bot plays it until we
    /// take it back from the lobby, and it is not taken back by itself).
    pub fn leave_seat(&mut self) {
        self.left_running.0 = self.model.place.map(|(t, _)| t);
        self.leave();
    }

    /// After a game: another one (the lobby on a LAN, the set-up otherwise).
    pub fn new_game(&mut self) {
        let to = if self.on_lan() {
            Screen::Lobby
        } else {
            Screen::Setup
        };
        self.next.set(to);
    }

    /// The seat moves to the next table (`ClientMsg::PlayAgain`): the
    /// table screen is entered afresh, so nothing of this game's screen
    /// stays, and shows the next table's room until its game starts
    /// (`screens::again`).
    pub fn play_again(&mut self) {
        send(&mut self.outbox, ClientMsg::PlayAgain);
        self.playing_again.0 = true;
        self.next.set(Screen::Table);
    }

    pub fn back_to_title(&mut self) {
        self.next.set(Screen::Title);
    }

    /// Sends a move to the table; a refusal comes back as the model's last
    /// rejection ([`Refusals`]).
    pub fn act(&mut self, action: AnyAction) {
        // A replay shows the past: nothing in it can be played.
        if self.replay.on {
            return;
        }
        send(&mut self.outbox, ClientMsg::Act { action });
    }

    /// The host seat has stopped the table's clock (`Pace`).
    pub fn paused(&self) -> bool {
        self.model.lobby.as_ref().is_some_and(|l| l.paused)
    }

    /// How far the game's art has loaded, for its progress bar.
    pub fn art_progress(&self) -> f32 {
        self.tracker.as_ref().map_or(0.0, |p| widgets::fraction(p))
    }

    /// Called after a screen's panels: the rest of the window is the
    /// scene's (`None`: the screen shows no table this frame).
    pub fn claim_rest(&mut self, ctx: &egui::Context, rest: Option<egui::Rect>) {
        scene::claim_rest(ctx, rest, &mut self.scene_rect, &mut self.on_ui);
    }
}

/// Whether "Leave table" is asking first (`leave_ask`).
#[derive(Resource, Default)]
pub struct AskingLeave(pub bool);

/// Whether leaving now is leaving a seat in a game still running (issue
/// 68: asked first; the seat stays ours until the game ends).
pub fn leaves_a_running_seat(model: &ClientModel) -> bool {
    model.my_seat().is_some()
        && model
            .lobby
            .as_ref()
            .is_some_and(|l| l.started && l.result.is_none())
}

/// Where a table screen's buttons asked to go this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exit {
    #[default]
    Stay,
    Leave,
    NewGame,
    /// The next table, with the same settings and people (issue 69).
    PlayAgain,
    Title,
    /// Watch the game again, step by step.
    Replay,
}

impl TableFrame<'_> {
    /// Goes where the screen's buttons asked.
    pub fn go(&mut self, exit: Exit) {
        match exit {
            Exit::Stay => {}
            // A seat in a game still running: asked first (issue 68).
            Exit::Leave if leaves_a_running_seat(&self.model) => {
                self.asking_leave.0 = true;
            }
            Exit::Leave => self.leave(),
            Exit::NewGame => self.new_game(),
            Exit::PlayAgain => self.play_again(),
            Exit::Title => self.back_to_title(),
            Exit::Replay => self.replay.start(&mut self.outbox),
        }
    }
}

/// The game-over summary put away, at the table it was put away at (the
/// next table's shows again).
#[derive(Resource, Default)]
pub struct Summary {
    closed_at: Option<Option<u32>>,
    /// The table whose summary is showing and when it came up (egui's
    /// clock), for `SUMMARY_ARMS_AFTER`.
    shown: Option<(Option<u32>, f64)>,
    /// "Play again" is offered (`again::offered`).
    pub again: bool,
}

/// How long the game-over summary's buttons stay greyed after it comes up:
/// a tap aimed at the board as the game ended (a vote, a card, "Ready")
/// must not land on "New game" or "Close" in the window that has just
/// covered it.
pub const SUMMARY_ARMS_AFTER: f64 = 0.6;

impl Summary {
    /// Whether the summary of `table`, shown at egui's time `now`, has been
    /// up long enough to take a press; notes when it came up.
    fn armed(&mut self, table: Option<u32>, now: f64) -> bool {
        match self.shown {
            Some((at, since)) if at == table => now - since >= SUMMARY_ARMS_AFTER,
            _ => {
                self.shown = Some((table, now));
                false
            }
        }
    }

    /// Seconds until the summary takes a press (0 once it does).
    fn arms_in(&self, now: f64) -> f64 {
        self.shown.map_or(0.0, |(_, since)| {
            (since + SUMMARY_ARMS_AFTER - now).max(0.0)
        })
    }
}

/// The one game-over summary of every game (issue 66: the games' own
/// dialogs could not be closed, covered the log and "Leave table", and
/// Gene's was pushed off a phone's left edge): the game's `ranking`, then
/// what comes next, in a window that fits the screen and scrolls, and that
/// can be closed and opened again ("🏆 Game over" at the bottom).
pub fn summary_window(
    ctx: &egui::Context,
    i18n: &I18n,
    table: Option<u32>,
    summary: &mut Summary,
    exit: &mut Exit,
    ranking: impl FnOnce(&mut egui::Ui),
) {
    let room = ctx.content_rect();
    if summary.closed_at == Some(table) {
        summary.shown = None;
        // A small window of its own, as the summary is (a plain area's
        // button did not take a phone's tap in the browser test).
        egui::Window::new("summary-reopen")
            .title_bar(false)
            .resizable(false)
            .collapsible(false)
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -16.0])
            .show(ctx, |ui| {
                let open = ui.button(format!("🏆 {}", i18n.t("table-game-over")));
                crate::client::reach::control(&open, "summary-open", Does::Move);
                if open.clicked() {
                    summary.closed_at = None;
                }
            });
        return;
    }
    let now = ctx.input(|i| i.time);
    let armed = summary.armed(table, now);
    if !armed {
        crate::client::wake::wake_after(
            ctx,
            std::time::Duration::from_secs_f64(summary.arms_in(now)),
        );
    }
    let mut open = true;
    let mut close = false;
    let mut pressed = Exit::Stay;
    egui::Window::new(i18n.t("table-game-over"))
        .id("game-over-summary".into())
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .max_width((room.width() - 24.0).max(200.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height((room.height() * 0.55).max(120.0))
                .show(ui, ranking);
            ui.separator();
            close = after_game_buttons(ui, i18n, armed, summary.again, &mut pressed);
        });
    if !armed {
        return;
    }
    if pressed != Exit::Stay {
        *exit = pressed;
    }
    if !open || close {
        summary.closed_at = Some(table);
    }
}

/// The summary's buttons: another game, the title, the replay, or put the
/// summary away (returned). Wrapped, so a phone shows them all; greyed
/// until `armed`.
fn after_game_buttons(
    ui: &mut egui::Ui,
    i18n: &I18n,
    armed: bool,
    again: bool,
    exit: &mut Exit,
) -> bool {
    let mut close = false;
    ui.horizontal_wrapped(|ui| {
        if again {
            let button = ui.add_enabled(
                armed,
                egui::Button::new(egui::RichText::new(i18n.t("table-play-again")).strong()),
            );
            crate::client::reach::control(&button, "summary-play-again", Does::Move);
            if button.clicked() {
                *exit = Exit::PlayAgain;
            }
        }
        for (key, name, to) in [
            ("table-new-game", "summary-new-game", Exit::NewGame),
            ("table-back-to-title", "summary-title", Exit::Title),
            ("replay-watch", "summary-replay", Exit::Replay),
        ] {
            let button = ui.add_enabled(armed, egui::Button::new(i18n.t(key)));
            crate::client::reach::control(&button, name, Does::Move);
            if button.clicked() {
                *exit = to;
            }
        }
        let button = ui.add_enabled(armed, egui::Button::new(i18n.t("table-close")));
        crate::client::reach::control(&button, "summary-close", Does::Move);
        close = button.clicked();
    });
    close
}

/// The game's rules document in a window, while `show` is on.
pub fn rules_window(ctx: &egui::Context, i18n: &I18n, show: &mut bool, markdown: &str) {
    if !*show {
        return;
    }
    egui::Window::new(i18n.t("table-rules"))
        .open(show)
        .default_size([720.0, 560.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                widgets::rules_text(ui, markdown);
            });
        });
}

/// The part of the window left after a screen's panels: the scene's once
/// the game's art has loaded (`Some`), the art's progress bar until then.
pub fn scene_or_loading(
    screen: &mut egui::Ui,
    i18n: &I18n,
    art_ready: bool,
    progress: f32,
) -> Option<egui::Rect> {
    let free = screen.available_rect_before_wrap();
    if art_ready {
        return Some(free);
    }
    widgets::art_loading(screen, i18n, free, progress);
    None
}

/// The refusal to show: the model's newest, until the screen clears it.
#[derive(Default)]
pub struct Refusals {
    seen: u64,
    pub error: Option<Bilingual>,
}

impl Refusals {
    /// Takes a refusal that came since the last look.
    pub fn update(&mut self, model: &ClientModel) {
        if self.seen != model.rejected {
            self.seen = model.rejected;
            self.error = model.last_rejection.clone();
        }
    }
}

/// A deadline counted down between views. The table's time moves on from
/// the moment the view was made, on the hall's clock as this device
/// estimates it (`HallClock`), so every device at the table shows the same
/// time however late its view came and however few frames it draws (issue
/// 54); before the first `Pong` (and in a replay) it moves on from the
/// view's arrival. While the host seat has stopped the table's clock it
/// stands where the view says.
#[derive(Default)]
pub struct Countdown {
    key: (u64, u64, bool),
    received_at: f64,
    /// The view came with its hall time since the clock last stopped: the
    /// time since can be read on the hall's clock.
    hall_timed: bool,
}

impl Countdown {
    /// Milliseconds left of `deadline_ms` (table time) at `now` (seconds
    /// of real time, the clock the connection's pings are timed on), for
    /// the model's view, made at table time `view_now_ms`.
    pub fn left_ms(
        &mut self,
        model: &ClientModel,
        now: f64,
        view_now_ms: u64,
        deadline_ms: Option<u64>,
        paused: bool,
    ) -> Option<u64> {
        let table_now = self.table_now_ms(model, now, view_now_ms, paused);
        deadline_ms.map(|d| d.saturating_sub(table_now))
    }

    /// The table's time now (milliseconds), for the model's view made at
    /// `view_now_ms`: every deadline of the view counts down from it.
    pub fn table_now_ms(
        &mut self,
        model: &ClientModel,
        now: f64,
        view_now_ms: u64,
        paused: bool,
    ) -> u64 {
        let key = (model.revision, view_now_ms, paused);
        if self.key != key {
            // A clock that only started again has no new view yet: its
            // hall time is from before the stop.
            self.hall_timed = self.key.0 != key.0 || self.key.1 != key.1 || self.received_at == 0.0;
            self.key = key;
            self.received_at = now;
        }
        if paused {
            return view_now_ms;
        }
        let by_arrival = ((now - self.received_at).max(0.0) * 1000.0) as u64;
        let by_hall = model
            .view_hall_ms
            .filter(|_| self.hall_timed)
            .zip(model.hall_clock.hall_now_ms(now * 1000.0))
            .map(|(made, hall_now)| (hall_now - made as f64).max(0.0) as u64);
        view_now_ms + by_hall.unwrap_or(by_arrival)
    }
}

/// The game's screen for the view that arrived.
fn pick_screen(
    model: Res<ClientModel>,
    state: Res<State<TableScreen>>,
    mut next: ResMut<NextState<TableScreen>>,
) {
    let want = model
        .view
        .as_ref()
        .map_or(TableScreen::Connecting, |v| TableScreen::Game(v.game()));
    if *state.get() != want {
        next.set(want);
    }
}

/// Until the table's first view comes (after "Play again", the next
/// table's room is drawn by `screens::again`).
fn connecting(mut contexts: EguiContexts, mut frame: TableFrame) -> Result {
    if frame.model.again_waiting().is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    let mut leave = false;
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.4);
            ui.heading(frame.i18n.t("table-connecting"));
            ui.add_space(12.0);
            // A "Play again" refused (the next game began without us).
            if let Some(why) = &frame.model.last_rejection {
                ui.colored_label(theme::BAD, frame.i18n.pick(why));
                ui.add_space(12.0);
            }
            leave = ui.button(frame.i18n.t("table-leave")).clicked();
        });
    });
    frame.claim_rest(ctx, None);
    if leave {
        frame.leave();
    }
    Ok(())
}

/// Over every table screen while the server cannot save the table: why
/// nothing moves, and that it goes on by itself (issue 33).
fn unsaved_banner(mut contexts: EguiContexts, frame: TableFrame) -> Result {
    let Some(why) = frame.model.lobby.as_ref().and_then(|l| l.unsaved.clone()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let text = frame
        .i18n
        .ta("table-unsaved", &[("why", FluentValue::from(why))]);
    egui::Area::new(egui::Id::new("unsaved-banner"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 8.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .fill(egui::Color32::from_rgb(120, 30, 30))
                .show(ui, |ui| {
                    ui.set_max_width((ctx.content_rect().width() - 24.0).min(560.0));
                    ui.colored_label(egui::Color32::WHITE, text);
                });
        });
    Ok(())
}

/// Leaving the table screen leaves the table (a game under way keeps the
/// seat for its token; a bot stands in).
fn leave_table(
    mut outbox: ResMut<Outbox>,
    mut model: ResMut<ClientModel>,
    mut settings: ResMut<crate::client::UserSettings>,
    mut again: ResMut<PlayingAgain>,
) {
    if again.0 {
        // Entered afresh for the next table: the old game's view goes, the
        // seat goes with the person.
        again.0 = false;
        model.await_next_table();
        return;
    }
    if model.place.is_some() {
        // Left by choice: not taken back by itself (issue 68).
        settings.mark_left(&model, true);
        send(&mut outbox, ClientMsg::Leave);
    }
}

pub fn plugin(app: &mut App) {
    app.add_sub_state::<TableScreen>()
        .init_resource::<AskingLeave>()
        .init_resource::<Summary>()
        .add_systems(Update, pick_screen.run_if(in_state(Screen::Table)))
        .add_systems(
            EguiPrimaryContextPass,
            (
                connecting.run_if(in_state(TableScreen::Connecting)),
                unsaved_banner.run_if(in_state(Screen::Table)),
            ),
        )
        .add_systems(OnExit(Screen::Table), leave_table);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(revision: u64) -> ClientModel {
        ClientModel {
            revision,
            ..ClientModel::default()
        }
    }

    /// Before the hall's clock is known, a deadline counts down on the
    /// client's clock from the moment its view came, and starts again with
    /// the next view.
    #[test]
    fn a_countdown_runs_from_the_views_arrival() {
        let mut c = Countdown::default();
        let (one, two) = (model(1), model(2));
        assert_eq!(
            c.left_ms(&one, 10.0, 5_000, Some(20_000), false),
            Some(15_000)
        );
        assert_eq!(
            c.left_ms(&one, 12.5, 5_000, Some(20_000), false),
            Some(12_500)
        );
        assert_eq!(c.left_ms(&one, 40.0, 5_000, Some(20_000), false), Some(0));
        assert_eq!(
            c.left_ms(&two, 41.0, 9_000, Some(20_000), false),
            Some(11_000)
        );
        assert_eq!(c.left_ms(&two, 41.0, 9_000, None, false), None);
    }

    /// While the host seat holds the clock the countdown stands; when it
    /// runs again it counts on from where it stood.
    #[test]
    fn a_countdown_stands_while_the_clock_is_stopped() {
        let mut c = Countdown::default();
        let one = model(1);
        assert_eq!(
            c.left_ms(&one, 10.0, 5_000, Some(20_000), false),
            Some(15_000)
        );
        assert_eq!(
            c.left_ms(&one, 11.0, 6_000, Some(20_000), true),
            Some(14_000)
        );
        assert_eq!(
            c.left_ms(&one, 60.0, 6_000, Some(20_000), true),
            Some(14_000)
        );
        assert_eq!(
            c.left_ms(&one, 61.0, 6_000, Some(20_000), false),
            Some(14_000)
        );
        assert_eq!(
            c.left_ms(&one, 63.0, 6_000, Some(20_000), false),
            Some(12_000)
        );
    }

    /// Two devices whose views of one table state came at different times
    /// (one 3 s late) and whose own clocks differ show the same time left,
    /// read on the hall's clock (issue 54: "1:06 on one phone while
    /// another showed 0:40").
    #[test]
    fn two_devices_agree_on_the_hall_clock() {
        // The hall made the view at its 100 s, when 5 s of table time had
        // gone; the deadline is at 65 s of table time.
        let device = |own_minus_hall_ms: f64, rtt_ms: f64| {
            let mut m = model(7);
            m.view_hall_ms = Some(100_000);
            // A ping sent at hall time 90 s came back a round trip later.
            let sent = 90_000.0 + own_minus_hall_ms;
            m.hall_clock
                .pong(sent as u64, (90_000.0 + rtt_ms / 2.0) as u64, sent + rtt_ms);
            m
        };
        let (a, b) = (device(-40_000.0, 20.0), device(1_234_000.0, 60.0));
        let (mut ca, mut cb) = (Countdown::default(), Countdown::default());
        // Hall time 110 s: a's view came at once, b's 3 s late.
        let at = |own_minus_hall_ms: f64, hall_ms: f64| (hall_ms + own_minus_hall_ms) / 1000.0;
        ca.table_now_ms(&a, at(-40_000.0, 100_000.0), 5_000, false);
        cb.table_now_ms(&b, at(1_234_000.0, 103_000.0), 5_000, false);
        let left_a = ca.left_ms(&a, at(-40_000.0, 110_000.0), 5_000, Some(65_000), false);
        let left_b = cb.left_ms(&b, at(1_234_000.0, 110_000.0), 5_000, Some(65_000), false);
        assert_eq!(left_a, Some(50_000));
        assert_eq!(left_b, Some(50_000));
    }

    /// A clock that starts again counts on from where it stood, not from
    /// the hall time of the view made before it stopped.
    #[test]
    fn a_restarted_clock_ignores_the_old_views_hall_time() {
        let mut m = model(3);
        m.view_hall_ms = Some(100_000);
        m.hall_clock.pong(100_000, 100_000, 100_000.0);
        let mut c = Countdown::default();
        assert_eq!(c.table_now_ms(&m, 100.0, 5_000, false), 5_000);
        assert_eq!(c.table_now_ms(&m, 101.0, 5_000, false), 6_000);
        assert_eq!(c.table_now_ms(&m, 102.0, 5_000, true), 5_000);
        assert_eq!(c.table_now_ms(&m, 160.0, 5_000, false), 5_000);
        assert_eq!(c.table_now_ms(&m, 161.5, 5_000, false), 6_500);
    }

    fn english() -> I18n {
        let mut i = I18n::default();
        i.lang = foodweb_rules::Lang::En;
        i
    }

    /// One pass of a phone-sized screen showing table 7's summary at
    /// egui's time `time`: where "New game" is, what it does, and where the
    /// buttons asked to go.
    fn summary_pass(
        ctx: &egui::Context,
        summary: &mut Summary,
        time: f64,
        events: Vec<egui::Event>,
    ) -> (Exit, (egui::Rect, Does)) {
        let input = egui::RawInput {
            time: Some(time),
            events,
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(390.0, 844.0),
            )),
            ..Default::default()
        };
        let (i18n, mut exit, mut spot) = (english(), Exit::Stay, None);
        ctx.run_ui(input, |ui| {
            summary_window(ui.ctx(), &i18n, Some(7), summary, &mut exit, |ui| {
                ui.label("1. Bot 2");
            });
            spot = crate::client::reach::drawn(ui.ctx(), "summary-new-game");
        })
        .drop_without_applying_deltas();
        (exit, spot.expect("the summary shows its New game button"))
    }

    /// A tap meant for the board as the game ended (the last vote, the last
    /// "Ready") lands on the summary that has just covered it: it must not
    /// start a new game (the browser test's Gene seat once found itself on
    /// the set-up screen instead of the summary). The same tap once the
    /// summary has been up `SUMMARY_ARMS_AFTER` is a press.
    #[test]
    fn the_summary_takes_no_press_in_its_first_moments() {
        let ctx = egui::Context::default();
        let mut summary = Summary::default();
        let (_, (_, does)) = summary_pass(&ctx, &mut summary, 100.0, vec![]);
        assert_eq!(does, Does::Nothing, "greyed as it comes up");
        // Laid out (a new window takes a pass to size itself).
        let (_, (button, _)) = summary_pass(&ctx, &mut summary, 100.1, vec![]);
        let at = button.center();
        summary_pass(
            &ctx,
            &mut summary,
            100.2,
            crate::client::reach::finger(at, true),
        );
        let (exit, _) = summary_pass(
            &ctx,
            &mut summary,
            100.25,
            crate::client::reach::finger(at, false),
        );
        assert_eq!(exit, Exit::Stay, "a tap in its first moments");
        let (_, (button, does)) = summary_pass(&ctx, &mut summary, 100.7, vec![]);
        assert_eq!(does, Does::Move, "armed after {SUMMARY_ARMS_AFTER} s");
        let at = button.center();
        summary_pass(
            &ctx,
            &mut summary,
            100.8,
            crate::client::reach::finger(at, true),
        );
        let (exit, _) = summary_pass(
            &ctx,
            &mut summary,
            100.85,
            crate::client::reach::finger(at, false),
        );
        assert_eq!(exit, Exit::NewGame, "the same tap, once armed");
    }

    /// A table of ours (seat 1) whose game has started, and whether it is
    /// over.
    fn seated(over: bool) -> ClientModel {
        use foodweb_netcode::messages::{LobbyState, Role};
        let result = over.then(|| foodweb_rules::table::GameResult {
            scores: vec![],
            places: vec![],
        });
        ClientModel {
            place: Some((3, Role::Player(foodweb_rules::table::SeatId(1)))),
            lobby: Some(LobbyState {
                id: 3,
                settings: foodweb_netcode::games::AnySettings::Forest(
                    foodweb_rules::forest::ForestSettings::timed(1),
                ),
                seats: vec![],
                host: None,
                owner: None,
                started: true,
                result,
                bot_kinds: vec![],
                spectators: 0,
                paused: false,
                unsaved: None,
                host_runs: false,
                open_replays: false,
                again_until: None,
            }),
            ..ClientModel::default()
        }
    }

    /// An app with what a `TableFrame` reads: the model and settings given.
    fn frame_app(model: ClientModel, settings: UserSettings) -> App {
        use bevy::state::app::StatesPlugin;
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Screen>()
            .insert_resource(model)
            .insert_resource(english())
            .insert_resource(settings)
            .insert_resource(Session::default());
        app.init_resource::<Outbox>()
            .init_resource::<SceneRect>()
            .init_resource::<PointerOnUi>()
            .init_resource::<HostedAt>()
            .init_resource::<crate::client::replay::Replaying>()
            .init_resource::<Summary>()
            .init_resource::<AskingLeave>()
            .init_resource::<LeftRunning>()
            .init_resource::<PlayingAgain>();
        app
    }

    /// Issue 69: "Play again" moves the seat to the next table: the table
    /// screen is entered afresh (every game's screen state put away on
    /// its exit), the old game's view goes, and the server hears
    /// `PlayAgain` and never `Leave`, which would give up the new seat.
    #[test]
    fn play_again_enters_the_table_afresh_and_keeps_the_seat() {
        let mut app = frame_app(seated(true), UserSettings::default());
        let go = app
            .world_mut()
            .register_system(|mut f: TableFrame| f.go(Exit::PlayAgain));
        app.world_mut().run_system(go).unwrap();
        assert!(matches!(
            app.world().resource::<NextState<Screen>>(),
            NextState::Pending(Screen::Table)
        ));
        let exit = app.world_mut().register_system(leave_table);
        app.world_mut().run_system(exit).unwrap();
        let sent = &app.world().resource::<Outbox>().0;
        assert!(matches!(sent[..], [ClientMsg::PlayAgain]), "{sent:?}");
        let model = app.world().resource::<ClientModel>();
        assert!(
            model.view.is_none() && model.lobby.is_none(),
            "the old game's view goes"
        );
        assert!(
            model.my_seat().is_some(),
            "the seat stays until the next table's"
        );
        assert!(!app.world().resource::<PlayingAgain>().0);
        let past = &app.world().resource::<UserSettings>().past_seats;
        assert!(past.iter().all(|s| !s.left), "not left by choice: {past:?}");
    }

    /// Issue 68: ""Leave table" mid-game asks nothing and the seat cannot
    /// be taken back". In a game still running it asks first and goes
    /// nowhere yet; after the game, or before a seat, it leaves at once.
    #[test]
    fn leaving_a_running_game_asks_first() {
        let leave = |model: ClientModel| {
            let mut app = frame_app(model, UserSettings::default());
            let go = app
                .world_mut()
                .register_system(|mut f: TableFrame| f.go(Exit::Leave));
            app.world_mut().run_system(go).unwrap();
            let asked = app.world().resource::<AskingLeave>().0;
            let went = !matches!(
                app.world().resource::<NextState<Screen>>(),
                NextState::Unchanged
            );
            (asked, went)
        };
        assert_eq!(leave(seated(false)), (true, false), "a running game asks");
        assert_eq!(leave(seated(true)), (false, true), "a game over leaves");
        assert_eq!(
            leave(ClientModel::default()),
            (false, true),
            "no seat leaves"
        );
    }

    /// Issue 68: "a person who left can take the seat back until the game
    /// ends". Leaving when asked goes to the lobby, remembering the table
    /// left (the lobby took the screen straight back to the running game
    /// before the server's `Left`), and leaving the screen tells the
    /// server once and marks the seat left, so it is offered back but not
    /// taken back by itself.
    #[test]
    fn leaving_when_asked_tells_the_server_once_and_keeps_the_seat_offered() {
        use crate::client::settings::SavedSeat;
        let mut model = seated(false);
        model.token = Some("tok".into());
        model.token_table = Some(3);
        let mut settings = UserSettings::default();
        settings.remember_seat(SavedSeat {
            server: "Party".into(),
            key: String::new(),
            table: 3,
            game: GameId::Forest,
            token: "tok".into(),
            left: false,
        });
        let mut app = frame_app(model, settings);
        let go = app
            .world_mut()
            .register_system(|mut f: TableFrame| f.leave_seat());
        app.world_mut().run_system(go).unwrap();
        let exit = app.world_mut().register_system(leave_table);
        app.world_mut().run_system(exit).unwrap();
        let sent = &app.world().resource::<Outbox>().0;
        assert_eq!(
            sent.iter()
                .filter(|m| matches!(m, ClientMsg::Leave))
                .count(),
            1,
            "the server is told once: {sent:?}"
        );
        assert_eq!(
            app.world().resource::<crate::client::net::LeftRunning>().0,
            Some(3)
        );
        let seats = &app.world().resource::<UserSettings>().past_seats;
        assert!(seats.iter().all(|s| s.left), "left by choice: {seats:?}");
        assert!(matches!(
            app.world().resource::<NextState<Screen>>(),
            NextState::Pending(Screen::Lobby)
        ));
    }
}
