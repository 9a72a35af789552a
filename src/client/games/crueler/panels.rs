//! The Crueler World table screen, from the seat's view only: egui draws
//! the top bar, the results and log, the controls and the dialogs; the
//! table itself (seats, boxes, die, N, cards, the duel's beasts) is the
//! scene of `scene::crueler` in the rest of the window.

use bevy::prelude::*;
use bevy_egui::egui::{self, Align2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::GameId;
use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::crueler::state::Fall;
use foodweb_rules::crueler::{self, CruelerAction, CruelerPhase, CruelerView, Outcome, numbers};
use foodweb_rules::table::SeatId;

use super::art::CruelerArt;
use crate::client::net::{SeatSide, send};
use crate::client::reach::{self, Does};
use crate::client::scene;
use crate::client::scene::keys::KeyAsk;
use crate::client::screens::table::{self, Countdown, Refusals, TableFrame, TableScreen};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// What the player is choosing at the table.
#[derive(Resource, Default)]
pub struct CruelerUi {
    /// A predator card picked (to prey with, or to give away).
    pub(crate) card: Option<SeatId>,
    pub(crate) offer: LifeDraft,
    /// What the keyboard asked this frame (scene/keys.rs).
    keys: KeyAsk,
    show_rules: bool,
    /// On a phone: the table, or the results, log and notes.
    tab: widgets::TableTab,
    /// The refusal to show.
    refusals: Refusals,
    /// The controls' height last frame: the bottom panel's.
    controls_height: f32,
    /// The top panel's content height last pass.
    top_height: f32,
}

#[derive(Default)]
pub(crate) struct LifeDraft {
    pub(crate) open: bool,
    pub(crate) to: Option<SeatId>,
    pub(crate) give: u32,
    pub(crate) want: u32,
}

fn name(i18n: &I18n, view: &CruelerView, seat: SeatId) -> String {
    view.names
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |n| i18n.name(n))
}

/// The seat's number and name ("2 Ann"; "survivor bot 2" as it is).
fn numbered(i18n: &I18n, view: &CruelerView, s: SeatId) -> String {
    view.names
        .get(s.index())
        .map_or_else(|| s.to_string(), |n| i18n.numbered(s, n))
}

fn phase_text(view: &CruelerView, i18n: &I18n) -> String {
    i18n.t(match view.phase {
        CruelerPhase::Idle => "crueler-phase-idle",
        CruelerPhase::Interlude => "crueler-phase-interlude",
        CruelerPhase::Predation if view.second_ask => "crueler-phase-second-ask",
        CruelerPhase::Predation => "crueler-phase-predation",
        CruelerPhase::Duel => "crueler-phase-duel",
        CruelerPhase::GameOver => "crueler-phase-over",
    })
}

/// Sends the action to the server; a refusal comes back as the model's
/// last rejection.
pub(crate) fn act(outbox: &mut Outbox, state: &mut CruelerUi, action: CruelerAction) {
    send(
        outbox,
        ClientMsg::Act {
            action: AnyAction::Crueler(action),
        },
    );
    state.refusals.error = None;
}

/// The viewer's duel in words: the score and the throws so far; the beasts
/// to choose are on the table.
fn duel_panel(ui: &mut egui::Ui, view: &CruelerView, i18n: &I18n) {
    let (Some(d), Some(me)) = (view.duel.as_ref(), view.me) else {
        return;
    };
    let lang = i18n.lang;
    let (mine, theirs) = if d.predator == me { (0, 1) } else { (1, 0) };
    let opponent = if d.predator == me { d.prey } else { d.predator };
    ui.label(
        egui::RichText::new(i18n.ta(
            "crueler-duel-with",
            &[
                ("name", name(i18n, view, opponent).into()),
                ("mine", d.wins[mine].into()),
                ("theirs", d.wins[theirs].into()),
            ],
        ))
        .strong()
        .size(17.0),
    );
    ui.horizontal_wrapped(|ui| {
        for &(a, b) in &d.throws {
            let (x, y) = if mine == 0 { (a, b) } else { (b, a) };
            ui.label(
                egui::RichText::new(format!("{}:{}", x.name().get(lang), y.name().get(lang)))
                    .color(if x.beats(y) {
                        theme::GOOD
                    } else if y.beats(x) {
                        theme::BAD
                    } else {
                        theme::MUTED
                    }),
            );
        }
    });
}

fn controls(
    ui: &mut egui::Ui,
    view: &CruelerView,
    state: &mut CruelerUi,
    i18n: &I18n,
) -> Option<CruelerAction> {
    let me = view.me?;
    let alive = view.alive[me.index()];
    let mut action = None;
    if !alive && view.phase != CruelerPhase::GameOver {
        // The now line says what an out seat may still do.
        return None;
    }
    match view.phase {
        CruelerPhase::Interlude => {
            ui.horizontal_wrapped(|ui| {
                if !view.ready {
                    let ready = ui.add(egui::Button::new(
                        egui::RichText::new(i18n.t("crueler-ready")).size(18.0),
                    ));
                    reach::control(&ready, "ready", Does::Move);
                    if ready.clicked() || state.keys.confirm {
                        action = Some(CruelerAction::Ready);
                    }
                } else {
                    ui.label(i18n.t("crueler-ready-waiting"));
                }
                let open = ui.button(i18n.t("crueler-offer-open"));
                reach::control(&open, "offer-open", Does::Pick);
                if open.clicked() {
                    state.offer.open = true;
                }
            });
            for o in &view.offers {
                ui.horizontal_wrapped(|ui| {
                    if o.to == me {
                        ui.label(
                            egui::RichText::new(i18n.ta(
                                "crueler-offer-from",
                                &[
                                    ("name", name(i18n, view, o.from).into()),
                                    ("give", o.give.into()),
                                    ("want", o.want.into()),
                                ],
                            ))
                            .color(theme::ACCENT),
                        );
                        let accept = ui.button(i18n.t("crueler-accept"));
                        reach::control(&accept, &format!("accept:{}", o.from.0), Does::Move);
                        if accept.clicked() {
                            action = Some(CruelerAction::Accept { from: o.from });
                        }
                        let decline = ui.button(i18n.t("crueler-decline"));
                        reach::control(&decline, &format!("decline:{}", o.from.0), Does::Move);
                        if decline.clicked() {
                            action = Some(CruelerAction::Decline { from: o.from });
                        }
                    } else {
                        ui.label(i18n.ta(
                            "crueler-offer-to",
                            &[
                                ("name", name(i18n, view, o.to).into()),
                                ("give", o.give.into()),
                                ("want", o.want.into()),
                            ],
                        ));
                        let withdraw = ui.button(i18n.t("crueler-withdraw"));
                        reach::control(&withdraw, &format!("withdraw:{}", o.to.0), Does::Move);
                        if withdraw.clicked() {
                            action = Some(CruelerAction::Withdraw { to: o.to });
                        }
                    }
                });
            }
        }
        CruelerPhase::Predation if view.to_act => {
            // What to do is the now line's (`now`).
            let pass = if view.second_ask && !view.preyed_upon {
                i18n.ta("crueler-pass-starve", &[("n", view.n.into())])
            } else {
                i18n.t("crueler-pass")
            };
            let pass = ui.add(egui::Button::new(egui::RichText::new(pass).size(17.0)));
            reach::control(&pass, "pass", Does::Move);
            if pass.clicked() {
                action = Some(CruelerAction::Pass);
            }
        }
        CruelerPhase::Predation => {
            ui.label(i18n.t("crueler-asking"));
        }
        CruelerPhase::Duel => {
            if view.duel.is_some() {
                duel_panel(ui, view, i18n);
            } else {
                ui.label(i18n.t("crueler-dueling"));
            }
        }
        CruelerPhase::GameOver | CruelerPhase::Idle => {}
    }
    action
}

/// The dialog for a life offer, its top at `below` (the top panel's
/// bottom).
fn offer_window(
    ctx: &egui::Context,
    view: &CruelerView,
    state: &mut CruelerUi,
    i18n: &I18n,
    below: f32,
) -> Option<CruelerAction> {
    if !state.offer.open || view.phase != CruelerPhase::Interlude {
        state.offer.open = false;
        return None;
    }
    let me = view.me?;
    let mut action = None;
    let mut open = true;
    // Just below the top panel, so that a lesson's words stay in sight
    // while the offer is made; its width is set and its top fixed, so
    // nothing in it moves as it first takes its size.
    let width = (ctx.content_rect().width() - 16.0).min(380.0);
    egui::Window::new(i18n.t("crueler-offer-title"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .min_width(width)
        .max_width(width)
        .anchor(Align2::CENTER_TOP, [0.0, below + 8.0])
        .show(ctx, |ui| {
            ui.label(i18n.t("crueler-offer-note"));
            ui.horizontal_wrapped(|ui| {
                for i in 0..view.alive.len() {
                    let s = SeatId(i as u8);
                    if s == me || !view.alive[i] {
                        continue;
                    }
                    let whom =
                        ui.selectable_label(state.offer.to == Some(s), numbered(i18n, view, s));
                    reach::control(&whom, &format!("offer-to:{}", s.0), Does::Pick);
                    if whom.clicked() {
                        state.offer.to = Some(s);
                    }
                }
            });
            let max = view.my_life.unwrap_or(1).max(1) as u32 - 1;
            amount(
                ui,
                &mut state.offer.give,
                max,
                "offer-give",
                &i18n.t("crueler-you-give"),
            );
            amount(
                ui,
                &mut state.offer.want,
                20,
                "offer-want",
                &i18n.t("crueler-you-ask"),
            );
            let can = state.offer.to.is_some() && (state.offer.give > 0 || state.offer.want > 0);
            let send = ui.add_enabled(can, egui::Button::new(i18n.t("crueler-send-offer")));
            reach::control(&send, "offer-send", Does::Move);
            if send.clicked() {
                action = Some(CruelerAction::OfferLife {
                    to: state.offer.to?,
                    give: state.offer.give,
                    want: state.offer.want,
                });
                state.offer.open = false;
            }
            Some(())
        });
    if !open {
        state.offer.open = false;
    }
    action
}

/// One side of a life offer: its words, then - and + buttons (`NAME-`,
/// `NAME+`) on either side of a slider (`NAME`), from 0 to `max`.
fn amount(ui: &mut egui::Ui, value: &mut u32, max: u32, name: &str, label: &str) {
    *value = (*value).min(max);
    ui.horizontal(|ui| {
        ui.label(label);
        let less = ui.add_enabled(*value > 0, egui::Button::new(" - "));
        reach::control(&less, &format!("{name}-"), Does::Pick);
        if less.clicked() {
            *value -= 1;
        }
        let slider = ui.add(egui::Slider::new(value, 0..=max));
        reach::control(&slider, name, Does::Pick);
        let more = ui.add_enabled(*value < max, egui::Button::new(" + "));
        reach::control(&more, &format!("{name}+"), Does::Pick);
        if more.clicked() {
            *value += 1;
        }
    });
}

fn history_line(view: &CruelerView, o: &Outcome, i18n: &I18n) -> String {
    match o {
        Outcome::Duel {
            round,
            n,
            predator,
            prey,
            winner,
        } => i18n.ta(
            "crueler-history-duel",
            &[
                ("round", (*round).into()),
                ("n", (*n).into()),
                ("predator", name(i18n, view, *predator).into()),
                ("prey", name(i18n, view, *prey).into()),
                ("winner", name(i18n, view, *winner).into()),
            ],
        ),
        Outcome::Elimination { round, n } => i18n.ta(
            "crueler-history-elimination",
            &[("round", (*round).into()), ("n", (*n).into())],
        ),
        Outcome::Starved { round, n, seat } => i18n.ta(
            "crueler-history-starved",
            &[
                ("round", (*round).into()),
                ("n", (*n).into()),
                ("name", name(i18n, view, *seat).into()),
            ],
        ),
        Outcome::StarvedOut { round, seat, .. } => i18n.ta(
            "crueler-history-starved-out",
            &[
                ("round", (*round).into()),
                ("name", name(i18n, view, *seat).into()),
            ],
        ),
    }
}

/// The Crueler World table screen: the top bar, the results and log, the
/// controls, then the offer, rules and game-over windows over the scene.
#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    mut frame: TableFrame,
    mut state: ResMut<CruelerUi>,
    time: Res<Time<Real>>,
    mut countdown: Local<Countdown>,
    mut said: ResMut<reach::Said>,
    ask: Res<KeyAsk>,
    art: Option<Res<CruelerArt>>,
) -> Result {
    let Some(view) = frame.model.view_of::<CruelerGame>().cloned() else {
        return Ok(());
    };
    let art_ready = art.is_some();
    let progress = frame.art_progress();
    let ctx = contexts.ctx_mut()?;
    // The clock counts down from the table time the view was made at.
    let left_ms = countdown.left_ms(
        &frame.model,
        time.elapsed_secs_f64(),
        view.now_ms,
        view.my_deadline_ms,
        frame.paused(),
    );
    tell_reach(&mut said, &state, &view, left_ms);
    state.refusals.update(&frame.model);
    state.keys = *ask;
    if ask.cancel {
        state.card = None;
    }
    let (model, i18n, settings) = (&*frame.model, &*frame.i18n, &mut *frame.settings);
    let mut screen = widgets::screen(ctx);
    let mut exit = table::Exit::Stay;
    let mut action = None;
    let top = egui::Panel::top("crueler-top").show(&mut screen, |ui| {
        top_bar(ui, &view, left_ms, i18n, settings, &mut state, &mut exit);
        widgets::now_line(
            ui,
            &mut said,
            model.lesson.as_ref(),
            i18n,
            now(&view, &state, i18n),
        );
        ui.min_rect().height()
    });
    // A panel takes its height from what it held last pass: when the top
    // one's changed (a lesson's step of more lines), this pass is laid out
    // again, so that the table is not shown (nor told to the screen's
    // account) where it will not stay.
    if (top.inner - state.top_height).abs() > 0.5 {
        state.top_height = top.inner;
        ctx.request_discard("the top panel changed height");
    }
    let table_shown = widgets::side_panel(&mut screen, "crueler-side", state.tab, |ui| {
        side(ui, &view, model, i18n);
    });
    let mut rest = None;
    if table_shown {
        action = bottom_panel(&mut screen, ctx, &view, &mut state, i18n);
        rest = table::scene_or_loading(&mut screen, i18n, art_ready, progress);
    }
    scene::claim_rest(ctx, rest, &mut frame.scene_rect, &mut frame.on_ui);
    if let Some(a) = offer_window(ctx, &view, &mut state, i18n, top.response.rect.bottom()) {
        action = Some(a);
    }
    table::rules_window(ctx, i18n, &mut state.show_rules, crueler::RULES_MD);
    // A lesson's end has its own window (`lesson.rs`).
    if model.lesson.is_none() {
        let table = frame.model.place.map(|(t, _)| t);
        game_over_window(ctx, &view, i18n, (table, &mut frame.summary), &mut exit);
    }
    if let Some(action) = action {
        act(&mut frame.outbox, &mut state, action);
    }
    frame.go(exit);
    Ok(())
}

/// The now line: what the seat may do at this moment, or what the table
/// is doing.
pub(super) fn now(view: &CruelerView, state: &CruelerUi, i18n: &I18n) -> String {
    let Some(me) = view.me else {
        return String::new();
    };
    if view.result.is_some() || view.phase == CruelerPhase::GameOver {
        return i18n.t("now-crueler-over");
    }
    if !view.alive[me.index()] {
        let can_give = view
            .my_cards
            .iter()
            .any(|&c| super::scene::givable(view, c));
        return match state.card {
            Some(c) if can_give => i18n.ta("now-crueler-give-to", &[("n", (c.0 + 1).into())]),
            _ if can_give => i18n.t("now-crueler-give"),
            _ => i18n.t("now-crueler-out"),
        };
    }
    match view.phase {
        CruelerPhase::Interlude if view.ready => i18n.t("now-crueler-ready"),
        CruelerPhase::Interlude => i18n.ta("now-crueler-interlude", &[("n", view.n.into())]),
        // rules.md §7: asked once more and not preyed upon, a pass starves.
        CruelerPhase::Predation if view.to_act => {
            let starves = view.second_ask && !view.preyed_upon;
            let key = match (view.targets.is_empty(), starves, view.second_ask) {
                (true, true, _) => "now-crueler-no-prey-starve",
                (true, false, _) => "now-crueler-no-prey",
                (false, true, _) => "now-crueler-prey-starve",
                (false, false, true) => "now-crueler-prey-again",
                (false, false, false) => "now-crueler-prey",
            };
            i18n.ta(key, &[("n", view.n.into())])
        }
        CruelerPhase::Predation => i18n.t("now-crueler-asking"),
        CruelerPhase::Duel => match &view.duel {
            Some(d) => {
                let other = if d.predator == me { d.prey } else { d.predator };
                let key = if d.chosen {
                    "now-crueler-beast-chosen"
                } else {
                    "now-crueler-beast"
                };
                i18n.ta(key, &[("name", name(i18n, view, other).into())])
            }
            None => i18n.t("now-crueler-duel"),
        },
        CruelerPhase::Idle | CruelerPhase::GameOver => String::new(),
    }
}

/// Tells the reach account this frame's clock and choices.
fn tell_reach(said: &mut reach::Said, state: &CruelerUi, view: &CruelerView, left_ms: Option<u64>) {
    said.clock = left_ms.map(widgets::clock_text).unwrap_or_default();
    said.choice = choice_words(state, view);
}

/// The choices on the screen, and which asking the question is: a seat
/// with no predator card left sees only "Pass" at every asking, but the
/// question above it changes (your turn, asked once more, the next
/// phase), and so must the account, or a pass taken looks like nothing.
fn choice_words(state: &CruelerUi, view: &CruelerView) -> String {
    format!(
        "card={:?} offer={:?}:{}:{} throws={} chosen={} asked={}.{}.{}",
        state.card,
        state.offer.to,
        state.offer.give,
        state.offer.want,
        view.duel.as_ref().map_or(0, |d| d.throws.len()),
        view.duel.as_ref().is_some_and(|d| d.chosen),
        view.round,
        view.phase_no,
        if view.second_ask { "again" } else { "first" },
    )
}

/// The top bar: the round and phase, N, the clock and the reserve, with
/// the leave, rules and language buttons.
fn top_bar(
    ui: &mut egui::Ui,
    view: &CruelerView,
    left_ms: Option<u64>,
    i18n: &I18n,
    settings: &mut UserSettings,
    state: &mut CruelerUi,
    exit: &mut table::Exit,
) {
    let pressed = widgets::table_top_bar(ui, i18n, &mut state.tab, settings.sound, |ui| {
        round_status(ui, view, left_ms, i18n);
    });
    if pressed.leave {
        *exit = table::Exit::Leave;
    }
    if pressed.rules {
        state.show_rules = !state.show_rules;
    }
    if let Some(l) = pressed.lang {
        settings.lang = l;
    }
    if pressed.sound {
        settings.sound = !settings.sound;
    }
}

/// The top bar's status: the round and phase, N, the phase's name, the
/// clock and whether the reserve is on.
fn round_status(ui: &mut egui::Ui, view: &CruelerView, left_ms: Option<u64>, i18n: &I18n) {
    ui.label(
        egui::RichText::new(i18n.ta(
            "crueler-round",
            &[
                ("round", view.round.into()),
                ("rounds", numbers().rounds.len().into()),
                ("phase", view.phase_no.into()),
                ("phases", numbers().phases_in(view.round).into()),
            ],
        ))
        .strong()
        .size(18.0),
    );
    ui.separator();
    ui.label(
        egui::RichText::new(format!("N = {}", view.n))
            .strong()
            .size(20.0)
            .color(theme::ACCENT),
    );
    ui.separator();
    ui.label(egui::RichText::new(phase_text(view, i18n)).color(theme::ACCENT));
    if let Some(left) = left_ms {
        widgets::deadline(ui, left);
    }
    if numbers().reserve(view.round) {
        ui.label(egui::RichText::new(i18n.t("crueler-reserve-on")).color(theme::GOOD));
    }
}

/// The side panel: the results so far, then the log and notes.
fn side(ui: &mut egui::Ui, view: &CruelerView, model: &ClientModel, i18n: &I18n) {
    ui.label(egui::RichText::new(i18n.t("crueler-results")).strong());
    egui::ScrollArea::vertical()
        .id_salt("crueler-history")
        .max_height(ui.available_height() * 0.3)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for o in &view.history {
                ui.label(egui::RichText::new(history_line(view, o, i18n)).small());
            }
        });
    ui.separator();
    widgets::log_and_notes(ui, i18n, model, 0.55, 0.0);
}

/// The bottom panel: the controls; the cards, the beasts and the box are
/// on the table. The action chosen, if any.
fn bottom_panel(
    screen: &mut egui::Ui,
    ctx: &egui::Context,
    view: &CruelerView,
    state: &mut CruelerUi,
    i18n: &I18n,
) -> Option<CruelerAction> {
    let mut action = None;
    let height = ctx.content_rect().height();
    // As tall as its content was last frame (a scroll area alone
    // would keep the panel at its first size), up to 30 % of the
    // window; more scrolls.
    let most = (height * 0.3).max(90.0);
    let tall = (state.controls_height + 16.0).clamp(60.0, most);
    egui::Panel::bottom("crueler-bottom")
        .exact_size(tall)
        .show(screen, |ui| {
            let shown = egui::ScrollArea::vertical().show(ui, |ui| {
                life_line(ui, view, i18n);
                if let Some(a) = controls(ui, view, state, i18n) {
                    action = Some(a);
                }
                if let Some(e) = &state.refusals.error {
                    ui.label(egui::RichText::new(i18n.pick(e)).color(theme::BAD));
                }
                widgets::keys_help(ui, i18n, "keys-help-crueler");
            });
            state.controls_height = shown.content_size.y;
        });
    // The panel takes its height from what it held last pass: when that
    // changed (an offer to answer came), this pass is laid out again, so
    // that no control is shown (nor told to the screen's account) where it
    // will not stay.
    if (state.controls_height + 16.0).clamp(60.0, most) != tall {
        ctx.request_discard("the controls panel changed height");
    }
    action
}

/// The viewer's life, and while the box is away a note that it is.
fn life_line(ui: &mut egui::Ui, view: &CruelerView, i18n: &I18n) {
    let alive = view.me.is_some_and(|s| view.alive[s.index()]);
    ui.horizontal_wrapped(|ui| {
        if let Some(life) = view.my_life {
            ui.label(
                egui::RichText::new(i18n.ta("crueler-your-life", &[("life", life.into())]))
                    .size(18.0)
                    .strong(),
            );
        }
        if matches!(view.phase, CruelerPhase::Predation | CruelerPhase::Duel) && alive {
            ui.label(egui::RichText::new(i18n.t("crueler-box-away")).color(theme::MUTED));
        }
    });
}

/// How a seat's game ended, as the end reveals it (none: not revealed).
fn how_it_ended(view: &CruelerView, i: usize, i18n: &I18n) -> Option<String> {
    let r = view.revealed.get(i)?;
    Some(match (r.fell, r.how) {
        (None, _) => i18n.t("crueler-still-in"),
        (
            Some(_),
            Some(Fall {
                round,
                by: Some(by),
            }),
        ) => i18n.ta(
            "crueler-fell-to",
            &[
                ("round", round.into()),
                ("name", name(i18n, view, by).into()),
            ],
        ),
        (Some(_), Some(Fall { round, by: None })) => {
            i18n.ta("crueler-fell-starved", &[("round", round.into())])
        }
        (Some(_), None) => i18n.t("crueler-out"),
    })
}

/// The game-over window: every seat's place and life and, the end
/// revealing the table (issue 71; rules.md §10), how each one's game
/// ended: who eliminated whom; and the buttons for what comes next.
fn game_over_window(
    ctx: &egui::Context,
    view: &CruelerView,
    i18n: &I18n,
    (at, summary): (Option<u32>, &mut table::Summary),
    exit: &mut table::Exit,
) {
    let Some(result) = &view.result else {
        return;
    };
    let revealed = !view.revealed.is_empty();
    table::summary_window(ctx, i18n, at, summary, exit, |ui| {
        let mut order: Vec<usize> = (0..result.places.len()).collect();
        order.sort_by_key(|&i| (result.places[i], i));
        egui::Grid::new("crueler-ranking")
            .striped(true)
            .show(ui, |ui| {
                ui.label(i18n.t("crueler-place"));
                ui.label(i18n.t("crueler-player"));
                ui.label(i18n.t("crueler-life"));
                if revealed {
                    ui.label(i18n.t("crueler-how"));
                }
                ui.end_row();
                for i in order {
                    let place = result.places[i];
                    let mut who = egui::RichText::new(name(i18n, view, SeatId(i as u8)));
                    if place == 1 {
                        who = who.color(theme::ACCENT).strong().size(19.0);
                    }
                    ui.label(i18n.ta("table-place", &[("n", place.into())]));
                    ui.label(who);
                    ui.label(if view.alive[i] {
                        result.scores[i].to_string()
                    } else {
                        i18n.t("crueler-out")
                    });
                    if let Some(how) = how_it_ended(view, i, i18n) {
                        ui.label(how);
                    }
                    ui.end_row();
                }
            });
        if revealed {
            ui.label(egui::RichText::new(i18n.t("crueler-revealed-note")).small());
        }
    });
}

fn reset(mut commands: Commands) {
    commands.insert_resource(CruelerUi::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<CruelerUi>()
        .add_systems(
            EguiPrimaryContextPass,
            draw.run_if(in_state(TableScreen::Game(GameId::Crueler))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::table::{Table, TableConfig};

    /// rules.md §7: "those who have not preyed are asked once more, in the
    /// same order". When every seat passes, seat 0 is asked twice with the
    /// same cards (the same pieces and the same "Pass" on the screen), yet
    /// the question is another one, and the account says so: a pass taken
    /// at the first asking is seen to be taken.
    #[test]
    fn each_asking_is_told_apart() {
        let mut table = Table::<CruelerGame>::new(TableConfig::new(22, 4)).expect("a table");
        let ui = CruelerUi::default();
        let mut asked = Vec::new();
        while asked.len() < 3 {
            let seat = *table.to_act().first().expect("someone is waited on");
            let action = match table.phase() {
                CruelerPhase::Predation => {
                    if seat == SeatId(0) {
                        let view = table.view(seat);
                        asked.push((view.my_cards.clone(), choice_words(&ui, &view)));
                    }
                    CruelerAction::Pass
                }
                _ => CruelerAction::Ready,
            };
            table.submit(seat, action).expect("a legal move");
        }
        // First asking, asked again, the next phase's first asking.
        assert_eq!(asked[0].0, asked[1].0, "nobody preyed: the same cards");
        assert_ne!(asked[0].1, asked[1].1);
        assert_ne!(asked[1].1, asked[2].1);
    }
}
