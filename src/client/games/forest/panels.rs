//! The Forest Showdown table, drawn from the seat's view only.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_rules::GameId;
use foodweb_rules::Lang;
use foodweb_rules::forest::ForestGame;
use foodweb_rules::forest::{self, CardId, ForestAction, ForestPhase, ForestView, deck};
use foodweb_rules::table::{Rejection, SeatId};

use super::art::ForestArt;
use crate::client::net::{SeatSide, send};
use crate::client::reach::{self, Does};
use crate::client::scene;
use crate::client::scene::keys::KeyAsk;
use crate::client::screens::table::{self, Countdown, Refusals, TableFrame, TableScreen};
use crate::client::widgets;
use crate::client::{I18n, Screen, UserSettings, theme};
use foodweb_netcode::client::AwaySeats;
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::messages::ClientMsg;

/// What the player is choosing on the table screen.
#[derive(Resource, Default)]
pub struct TableUi {
    pub selected: Option<CardId>,
    pub target: Option<SeatId>,
    pub named: Option<CardId>,
    show_rules: bool,
    /// On a phone: the table, or its scores and log.
    tab: widgets::TableTab,
    /// The refusal to show.
    refusals: Refusals,
    /// The last finished round whose scores the player has dismissed.
    rounds_seen: usize,
}

fn seat_name(i18n: &I18n, view: &ForestView, seat: SeatId) -> String {
    view.seats
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |s| i18n.name(&s.name))
}

/// Sends the action to the server; a refusal comes back as the model's
/// last rejection.
pub fn submit(outbox: &mut Outbox, ui_state: &mut TableUi, action: ForestAction) {
    send(
        outbox,
        ClientMsg::Act {
            action: AnyAction::Forest(action),
        },
    );
    ui_state.refusals.error = None;
    // A move sent starts the next choice afresh.
    ui_state.selected = None;
    ui_state.named = None;
    ui_state.target = None;
}

#[allow(clippy::too_many_arguments)]
fn top_bar(
    ui: &mut egui::Ui,
    view: &ForestView,
    clocks: &Clocks,
    i18n: &I18n,
    settings: &mut UserSettings,
    state: &mut TableUi,
    exit: &mut table::Exit,
) {
    let pressed = widgets::table_top_bar(ui, i18n, &mut state.tab, settings.sound, |ui| {
        ui.label(
            egui::RichText::new(i18n.ta(
                "table-round",
                &[("n", view.round.into()), ("total", view.rounds.into())],
            ))
            .strong(),
        );
        if let Some(round) = &clocks.round {
            ui.label(round);
        }
        if view.time_up && view.result.is_none() {
            ui.label(egui::RichText::new(i18n.t("table-time-up")).color(theme::BAD));
        }
        ui.separator();
        let status = match view.phase {
            ForestPhase::Showdown => view.showdown.as_ref().map(|s| {
                i18n.ta(
                    "table-showdown-between",
                    &[
                        ("a", seat_name(i18n, view, s.asker).into()),
                        ("b", seat_name(i18n, view, s.target).into()),
                    ],
                )
            }),
            ForestPhase::Turn if Some(view.active) == view.me => Some(i18n.t("table-your-turn")),
            ForestPhase::Turn => Some(i18n.ta(
                "table-turn-of",
                &[("name", seat_name(i18n, view, view.active).into())],
            )),
            _ => None,
        };
        if let Some(status) = status {
            ui.label(egui::RichText::new(status).color(theme::ACCENT).strong());
        }
        if let Some(mine) = &clocks.mine {
            ui.label(mine);
        }
    });
    if pressed.leave {
        *exit = table::Exit::Leave;
    }
    if pressed.rules {
        state.show_rules = !state.show_rules;
    }
    if let Some(lang) = pressed.lang {
        settings.lang = lang;
    }
    if pressed.sound {
        settings.sound = !settings.sound;
    }
}

/// The table's clocks in words, as the top bar shows them: the round's
/// time left, and this seat's time to act.
struct Clocks {
    round: Option<String>,
    mine: Option<String>,
}

impl Clocks {
    fn new(view: &ForestView, now_ms: u64, i18n: &I18n) -> Self {
        Self {
            round: view.round_ends_ms.map(|end| {
                i18n.ta(
                    "table-time-left",
                    &[(
                        "time",
                        widgets::clock_text(end.saturating_sub(now_ms)).into(),
                    )],
                )
            }),
            mine: view.my_deadline_ms.map(|by| {
                i18n.ta(
                    "table-act-by",
                    &[("secs", by.saturating_sub(now_ms).div_ceil(1000).into())],
                )
            }),
        }
    }

    fn words(&self) -> String {
        [&self.round, &self.mine]
            .into_iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// The bottom panel's controls for the phase; the action to send, if one
/// was chosen.
fn actions(
    ui: &mut egui::Ui,
    view: &ForestView,
    i18n: &I18n,
    state: &mut TableUi,
    ask: KeyAsk,
) -> Option<ForestAction> {
    let me = view.me?;
    let mut action = None;
    match view.phase {
        ForestPhase::Showdown => showdown_status(ui, view, i18n),
        ForestPhase::Turn if view.active == me => {
            action = my_turn(ui, view, me, i18n, state, ask);
        }
        ForestPhase::Turn => {
            ui.label(i18n.ta(
                "table-waiting",
                &[("name", seat_name(i18n, view, view.active).into())],
            ));
        }
        _ => {}
    }
    action
}

/// A showdown: who has chosen a card, and the viewer's card or a call to
/// choose one.
fn showdown_status(ui: &mut egui::Ui, view: &ForestView, i18n: &I18n) {
    let Some(sd) = view.showdown.as_ref() else {
        return;
    };
    let ready = |r: bool| {
        if r {
            i18n.t("table-chosen")
        } else {
            i18n.t("table-not-chosen")
        }
    };
    ui.label(format!(
        "{}: {}   ·   {}: {}",
        seat_name(i18n, view, sd.asker),
        ready(sd.asker_ready),
        seat_name(i18n, view, sd.target),
        ready(sd.target_ready)
    ));
    if let Some(card) = sd.my_card {
        ui.label(i18n.ta(
            "table-you-chose",
            &[(
                "card",
                i18n.pick(&deck().card(card).name).to_string().into(),
            )],
        ));
    }
}

/// The viewer's turn: a showdown to ask for and, after the opening turn,
/// a challenge to write.
fn my_turn(
    ui: &mut egui::Ui,
    view: &ForestView,
    me: SeatId,
    i18n: &I18n,
    state: &mut TableUi,
    ask: KeyAsk,
) -> Option<ForestAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        action = ask_showdown(ui, view, me, i18n);
    });
    if !view.opening_turn {
        ui.label(
            egui::RichText::new(i18n.t("table-hint-challenge"))
                .small()
                .color(theme::MUTED),
        );
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if let Some(a) = challenge(ui, view, i18n, state, ask) {
                action = Some(a);
            }
        });
    }
    action
}

/// A button per other player to ask for a showdown with.
fn ask_showdown(
    ui: &mut egui::Ui,
    view: &ForestView,
    me: SeatId,
    i18n: &I18n,
) -> Option<ForestAction> {
    let mut action = None;
    ui.label(egui::RichText::new(i18n.t("table-ask-showdown")).strong());
    for s in view.seats.iter().filter(|s| s.seat != me) {
        let ask = ui.add_enabled(s.hand_size > 0, egui::Button::new(i18n.name(&s.name)));
        reach::control(&ask, &format!("ask:{}", s.seat.0), Does::Move);
        if ask.clicked() {
            action = Some(ForestAction::AskShowdown { target: s.seat });
        }
    }
    action
}

/// A challenge: the target, the card named, the taking card, and the
/// button to send it (or why it cannot be sent yet).
fn challenge(
    ui: &mut egui::Ui,
    view: &ForestView,
    i18n: &I18n,
    state: &mut TableUi,
    ask: KeyAsk,
) -> Option<ForestAction> {
    ui.label(egui::RichText::new(i18n.t("table-challenge")).strong());
    target_choice(ui, view, i18n, state);
    named_choice(ui, view, i18n, state);
    let with_text = state.selected.map_or_else(
        || i18n.t("table-pick-with"),
        |c| i18n.pick(&deck().card(c).name).to_string(),
    );
    ui.label(format!("{}: {}", i18n.t("table-with"), with_text));
    let problem = match (state.target, state.named, state.selected) {
        (Some(_), Some(named), Some(with)) => {
            view.challenge_cards(with, named).err().map(Rejection::from)
        }
        _ => Some(Rejection::new(
            "pick a player, a card and your taking card",
            "请选择玩家、点名的牌和你用来吃的牌",
        )),
    };
    let go = ui.add_enabled(
        problem.is_none(),
        egui::Button::new(egui::RichText::new(i18n.t("table-challenge-go")).color(theme::ACCENT)),
    );
    if let Some(p) = &problem {
        ui.label(
            egui::RichText::new(i18n.pick(&p.reason))
                .small()
                .color(theme::MUTED),
        );
    }
    reach::control(&go, "challenge", Does::Move);
    if (go.clicked() || (ask.confirm && problem.is_none()))
        && let (Some(target), Some(named), Some(with)) = (state.target, state.named, state.selected)
    {
        return Some(ForestAction::Challenge {
            target,
            named,
            with,
        });
    }
    None
}

/// The challenge's target: a list of the opponents with cards.
fn target_choice(ui: &mut egui::Ui, view: &ForestView, i18n: &I18n, state: &mut TableUi) {
    let target_text = state
        .target
        .map_or_else(|| i18n.t("table-pick-target"), |t| seat_name(i18n, view, t));
    let combo = egui::ComboBox::from_id_salt("target")
        .selected_text(target_text)
        .show_ui(ui, |ui| {
            for s in view.opponents_with_cards() {
                let item = ui.selectable_value(&mut state.target, Some(s.seat), i18n.name(&s.name));
                reach::control(&item, &format!("target:{}", s.seat.0), Does::Pick);
            }
        });
    reach::control(&combo.response, "target", Does::Pick);
}

/// The card the challenge names: a list of the deck, only the cards the
/// selected taking card may name enabled.
fn named_choice(ui: &mut egui::Ui, view: &ForestView, i18n: &I18n, state: &mut TableUi) {
    let named_text = state.named.map_or_else(
        || i18n.t("table-pick-named"),
        |c| i18n.pick(&deck().card(c).name).to_string(),
    );
    let combo = egui::ComboBox::from_id_salt("named")
        .selected_text(named_text)
        .height(400.0)
        .show_ui(ui, |ui| {
            // The cards the selected taking card may name.
            let allowed = state.selected.map(|w| view.challengeable(w));
            for c in deck().ids() {
                let ok = allowed.as_ref().is_none_or(|a| a.contains(&c));
                let label = format!(
                    "{} {} ({})",
                    deck().card(c).icon,
                    i18n.pick(&deck().card(c).name),
                    deck().card(c).energy
                );
                ui.add_enabled_ui(ok, |ui| {
                    let item = ui.selectable_value(&mut state.named, Some(c), label);
                    let name = format!("named:{}", deck().card(c).key);
                    reach::control(&item, &name, Does::Pick);
                });
            }
        });
    reach::control(&combo.response, "named", Does::Pick);
}

/// Each seat's scores by round; a seat whose person is away
/// (`ClientModel::away_seats`) says so by its name.
fn scores(ui: &mut egui::Ui, view: &ForestView, i18n: &I18n, away: AwaySeats) {
    egui::Grid::new("scores").striped(true).show(ui, |ui| {
        ui.label("");
        for r in 1..=view.rounds {
            ui.label(i18n.ta("table-round-short", &[("n", r.into())]));
        }
        ui.label(i18n.t("table-total"));
        ui.end_row();
        for s in &view.seats {
            ui.horizontal(|ui| {
                ui.label(i18n.name(&s.name));
                if away.contains(s.seat) {
                    ui.label(
                        egui::RichText::new(i18n.t("lobby-away"))
                            .small()
                            .color(theme::BAD),
                    );
                }
            });
            for r in 0..view.rounds as usize {
                ui.label(
                    s.round_scores
                        .get(r)
                        .map_or("–".to_string(), |v| v.to_string()),
                );
            }
            ui.label(egui::RichText::new(s.total.to_string()).strong());
            ui.end_row();
        }
    });
}

/// The Forest Showdown table screen: the top bar, the scores and log, the
/// controls, then the rules, round-over and game-over windows over the
/// scene.
#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    mut frame: TableFrame,
    mut state: ResMut<TableUi>,
    art: Option<Res<ForestArt>>,
    time: Res<Time<Real>>,
    mut countdown: Local<Countdown>,
    mut said: ResMut<reach::Said>,
    ask: Res<KeyAsk>,
) -> Result {
    let art_ready = art.is_some();
    let progress = frame.art_progress();
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    let Some(view) = frame.model.view_of::<ForestGame>().cloned() else {
        return Ok(());
    };
    // The clocks count down from the table time the view was made at.
    let now_ms = countdown.table_now_ms(
        &frame.model,
        time.elapsed_secs_f64(),
        view.now_ms,
        frame.paused(),
    );
    state.refusals.update(&frame.model);
    if ask.cancel {
        state.selected = None;
        state.target = None;
        state.named = None;
    }
    let (model, i18n, settings) = (&*frame.model, &*frame.i18n, &mut *frame.settings);
    let clocks = Clocks::new(&view, now_ms, i18n);
    for end in [view.round_ends_ms, view.my_deadline_ms]
        .into_iter()
        .flatten()
    {
        widgets::tick_on(ctx, end.saturating_sub(now_ms));
    }
    tell_reach(&mut said, &state, &clocks);
    let mut exit = table::Exit::Stay;
    let mut action = None;
    egui::Panel::top("table-top").show(&mut screen, |ui| {
        top_bar(ui, &view, &clocks, i18n, settings, &mut state, &mut exit);
        widgets::now_line(
            ui,
            &mut said,
            model.lesson.as_ref(),
            i18n,
            now(&view, &state, i18n),
        );
    });
    let table_shown = widgets::side_panel(&mut screen, "table-log", state.tab, |ui| {
        ui.heading(i18n.t("table-scores"));
        scores(ui, &view, i18n, model.away_seats());
        ui.separator();
        widgets::log_and_notes(ui, i18n, model, 0.65, 0.0);
    });
    let mut rest = None;
    if table_shown {
        egui::Panel::bottom("table-actions").show(&mut screen, |ui| {
            action = bottom(ui, &view, model, i18n, &mut state, *ask);
        });
        rest = table::scene_or_loading(&mut screen, i18n, art_ready, progress);
    }
    scene::claim_rest(ctx, rest, &mut frame.scene_rect, &mut frame.on_ui);
    table::rules_window(ctx, i18n, &mut state.show_rules, forest::RULES_MD);
    round_over_window(ctx, &view, i18n, &mut state, *ask);
    // A lesson's end has its own window (`lesson.rs`).
    if model.lesson.is_none() {
        let table = frame.model.place.map(|(t, _)| t);
        game_over_window(ctx, &view, i18n, (table, &mut frame.summary), &mut exit);
    }
    if let Some(action) = action {
        submit(&mut frame.outbox, &mut state, action);
    }
    frame.go(exit);
    Ok(())
}

/// The now line: what the seat may do at this moment, with the choices
/// made so far, or whom the table waits on.
pub(super) fn now(view: &ForestView, state: &TableUi, i18n: &I18n) -> String {
    let card = |c: CardId| i18n.pick(&deck().card(c).name).to_string();
    let name = |s: SeatId| seat_name(i18n, view, s);
    if view.result.is_some() {
        return i18n.t("now-forest-over");
    }
    match view.phase {
        ForestPhase::Turn if super::layout::my_turn(view) => {
            if view.opening_turn {
                i18n.t("now-forest-opening")
            } else if let (Some(with), Some(target)) = (state.selected, state.target) {
                i18n.ta(
                    "now-forest-with-target",
                    &[("card", card(with).into()), ("name", name(target).into())],
                )
            } else if let Some(with) = state.selected {
                i18n.ta("now-forest-with", &[("card", card(with).into())])
            } else {
                i18n.t("now-forest-turn")
            }
        }
        ForestPhase::Turn => i18n.ta(
            "now-forest-wait-turn",
            &[("name", name(view.active).into())],
        ),
        ForestPhase::Showdown => {
            let Some(sd) = view.showdown.as_ref() else {
                return String::new();
            };
            let other = if view.me == Some(sd.asker) {
                Some(sd.target)
            } else if view.me == Some(sd.target) {
                Some(sd.asker)
            } else {
                None
            };
            match (other, sd.my_card) {
                (Some(o), None) => i18n.ta("now-forest-lay", &[("name", name(o).into())]),
                (Some(o), Some(c)) => i18n.ta(
                    "now-forest-laid",
                    &[("card", card(c).into()), ("name", name(o).into())],
                ),
                (None, _) => i18n.ta(
                    "now-forest-watch-showdown",
                    &[("a", name(sd.asker).into()), ("b", name(sd.target).into())],
                ),
            }
        }
        ForestPhase::Idle | ForestPhase::GameOver => String::new(),
    }
}

/// Tells the reach account this frame's clocks and choices.
fn tell_reach(said: &mut reach::Said, state: &TableUi, clocks: &Clocks) {
    said.clock = clocks.words();
    said.choice = format!(
        "selected={} target={} named={}",
        state
            .selected
            .map_or(String::new(), |c| deck().card(c).key.clone()),
        state.target.map_or(String::new(), |t| t.0.to_string()),
        state
            .named
            .map_or(String::new(), |c| deck().card(c).key.clone()),
    );
}

/// The bottom panel: the controls, the keys, the refusal and, for the
/// host seat, every hand; the action chosen, if any.
fn bottom(
    ui: &mut egui::Ui,
    view: &ForestView,
    model: &ClientModel,
    i18n: &I18n,
    state: &mut TableUi,
    ask: KeyAsk,
) -> Option<ForestAction> {
    let action = actions(ui, view, i18n, state, ask);
    widgets::keys_help(ui, i18n, "keys-help-forest");
    if let Some(e) = &state.refusals.error {
        ui.label(egui::RichText::new(i18n.pick(e)).color(theme::BAD));
    }
    if !model.host_views.is_empty() {
        host_hands(ui, model, i18n, i18n.lang);
    }
    action
}

/// End of a round (not the last): the round's scores until dismissed.
fn round_over_window(
    ctx: &egui::Context,
    view: &ForestView,
    i18n: &I18n,
    state: &mut TableUi,
    ask: KeyAsk,
) {
    let finished = view.seats.first().map_or(0, |s| s.round_scores.len());
    if view.result.is_some() || finished <= state.rounds_seen {
        return;
    }
    egui::Window::new(i18n.ta("table-round-over", &[("n", finished.into())]))
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            scores(ui, view, i18n, AwaySeats::default());
            let go_on = ui.button(i18n.t("table-continue"));
            reach::control(&go_on, "continue", Does::Pick);
            if go_on.clicked() || ask.confirm {
                state.rounds_seen = finished;
            }
        });
}

/// The game-over window: the scores, the places (the winner's with a
/// trophy), and the buttons for what comes next.
fn game_over_window(
    ctx: &egui::Context,
    view: &ForestView,
    i18n: &I18n,
    (at, summary): (Option<u32>, &mut table::Summary),
    exit: &mut table::Exit,
) {
    let Some(result) = &view.result else {
        return;
    };
    table::summary_window(ctx, i18n, at, summary, exit, |ui| {
        scores(ui, view, i18n, AwaySeats::default());
        ui.separator();
        let mut standings: Vec<_> = view.seats.iter().collect();
        standings.sort_by_key(|s| (result.places[s.seat.index()], s.seat));
        for s in standings {
            let place = result.places[s.seat.index()];
            let text = format!(
                "{}  {}  ({})",
                i18n.ta("table-place", &[("n", place.into())]),
                s.name,
                s.total
            );
            ui.label(if place == 1 {
                egui::RichText::new(format!("🏆 {text}"))
                    .color(theme::ACCENT)
                    .size(20.0)
            } else {
                egui::RichText::new(text)
            });
        }
        revealed_hands(ui, view, i18n);
    });
}

/// The end reveals the table (issue 71; rules.md §7): each seat's counted
/// hand of each round, card by card with its energy, and the short-hand
/// bonus, adding up to the round's score.
fn revealed_hands(ui: &mut egui::Ui, view: &ForestView, i18n: &I18n) {
    if view.revealed.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new(i18n.t("forest-revealed")).strong());
    for (r, seat) in view.revealed.iter().zip(&view.seats) {
        ui.label(egui::RichText::new(seat_name(i18n, view, r.seat)).strong());
        for (k, (hand, score)) in r.hands.iter().zip(&seat.round_scores).enumerate() {
            let cards: Vec<String> = hand
                .iter()
                .map(|&c| {
                    let card = deck().card(c);
                    format!("{} {}", i18n.pick(&card.name), card.energy)
                })
                .collect();
            let bonus = score - deck().energy(hand);
            let key = if bonus > 0 {
                "forest-revealed-round-bonus"
            } else {
                "forest-revealed-round"
            };
            let line = i18n.ta(
                key,
                &[
                    ("round", (k + 1).into()),
                    ("cards", cards.join(" · ").into()),
                    ("bonus", bonus.into()),
                    ("score", (*score).into()),
                ],
            );
            ui.label(egui::RichText::new(line).small());
        }
    }
}

/// The host seat sees every hand (and acts for nobody).
fn host_hands(ui: &mut egui::Ui, model: &ClientModel, i18n: &I18n, lang: Lang) {
    egui::CollapsingHeader::new(i18n.t("table-host-hands"))
        .default_open(true)
        .show(ui, |ui| {
            for v in &model.host_views {
                let foodweb_netcode::games::AnyView::Forest(v) = v else {
                    continue;
                };
                let Some(me) = v.me else { continue };
                ui.horizontal_wrapped(|ui| {
                    ui.label(egui::RichText::new(seat_name(i18n, v, me)).strong());
                    for &card in &v.hand {
                        ui.label(deck().card(card).name.get(lang));
                    }
                });
            }
        });
}

fn reset(mut commands: Commands) {
    commands.insert_resource(TableUi::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<TableUi>()
        .add_systems(
            EguiPrimaryContextPass,
            draw.run_if(in_state(TableScreen::Game(GameId::Forest))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}
