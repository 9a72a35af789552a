//! The Gene Survival table, drawn from the seat's view only: the
//! illustrated map in the middle, the players and the talk on the right,
//! your gene panel, hand and what you can do now along the bottom.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::AwaySeats;
use foodweb_netcode::client::ClientModel;
use foodweb_netcode::games::{AnyAction, AnyView};
use foodweb_rules::GameId;
use foodweb_rules::gene::GeneGame;
use foodweb_rules::gene::{
    self, GeneAction, GeneOffer, GenePhase, GeneView, Genes, ItemKind, RoomFunction, RoomId,
    SettleLine, items, map, numbers,
};
use foodweb_rules::table::SeatId;

use super::scene::{self as gene_map, GeneArt, Hover, MapClicks, Marks, item_colour, item_glyph};
use super::settlement;
use crate::client::net::SeatSide;
use crate::client::reach::{self, Does};
use crate::client::scene;
use crate::client::scene::keys::KeyAsk;
use crate::client::screens::table::{self, Countdown, Refusals, TableFrame, TableScreen};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// What the player is choosing at the table.
#[derive(Resource)]
pub struct GeneUi {
    genes: Genes,
    pub(crate) spawn: Option<RoomId>,
    /// Aiming the rocket launcher: the room picked on the map.
    aiming: bool,
    target: Option<RoomId>,
    surgery: Option<Genes>,
    pub(crate) trade: TradeDraft,
    chat: String,
    show_rules: bool,
    /// On a phone: the map, or the players, log and chat.
    tab: widgets::TableTab,
    /// The refusal to show.
    refusals: Refusals,
    /// The settlement being played out, and the last one put away.
    settlement: settlement::Playing,
    /// What the keyboard asked this frame (scene/keys.rs).
    keys: KeyAsk,
    /// How tall what the bottom panel held was, last pass.
    bottom_held: f32,
}

impl Default for GeneUi {
    fn default() -> Self {
        Self {
            genes: Genes::balanced(numbers().gene_points),
            keys: KeyAsk::default(),
            spawn: None,
            aiming: false,
            target: None,
            surgery: None,
            trade: TradeDraft::default(),
            chat: String::new(),
            show_rules: false,
            tab: widgets::TableTab::Table,
            refusals: Refusals::default(),
            settlement: settlement::Playing::default(),
            bottom_held: 0.0,
        }
    }
}

#[derive(Default)]
pub(crate) struct TradeDraft {
    pub(crate) open: bool,
    pub(crate) to: Option<SeatId>,
    pub(crate) give: Vec<ItemKind>,
    pub(crate) want: Vec<ItemKind>,
    pub(crate) swap_order: bool,
}

fn name(i18n: &I18n, view: &GeneView, seat: SeatId) -> String {
    view.names
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |n| i18n.name(n))
}

/// The seat's number and name ("2 Ann"; "survivor bot 2" as it is).
fn numbered(i18n: &I18n, view: &GeneView, s: SeatId) -> String {
    view.names
        .get(s.index())
        .map_or_else(|| s.to_string(), |n| i18n.numbered(s, n))
}

fn card_name(kind: ItemKind, i18n: &I18n) -> String {
    i18n.pick(&items().get(kind).name).to_string()
}

/// A card as a chip: its colour, its mark and its name.
fn card_chip(ui: &mut egui::Ui, kind: ItemKind, i18n: &I18n, selected: bool) -> egui::Response {
    let name = card_name(kind, i18n);
    let text = if name.chars().count() == 1 {
        name
    } else {
        format!("{} {name}", item_glyph(kind, i18n))
    };
    let fill = item_colour(kind).gamma_multiply(if selected { 1.0 } else { 0.75 });
    let button = egui::Button::new(
        egui::RichText::new(text)
            .color(egui::Color32::BLACK)
            .strong(),
    )
    .fill(fill)
    .stroke(if selected {
        egui::Stroke::new(2.5, egui::Color32::WHITE)
    } else {
        egui::Stroke::new(1.0, egui::Color32::from_gray(40))
    })
    .corner_radius(6.0)
    .min_size(egui::vec2(70.0, 30.0));
    let effect = i18n.pick(&items().get(kind).effect).to_string();
    ui.add(button).on_hover_text(effect)
}

fn phase_text(view: &GeneView, i18n: &I18n) -> String {
    match view.phase {
        GenePhase::Idle => i18n.t("gene-phase-idle"),
        GenePhase::Setup => i18n.t("gene-phase-setup"),
        GenePhase::Free => i18n.t("gene-phase-free"),
        GenePhase::Action => match view.active {
            Some(a) if Some(a) == view.me => i18n.t("gene-phase-action-you"),
            Some(a) => i18n.ta(
                "gene-phase-action-of",
                &[("name", name(i18n, view, a).into())],
            ),
            None => i18n.t("gene-phase-action"),
        },
        GenePhase::GameOver => i18n.t("table-game-over"),
    }
}

fn top_bar(
    ui: &mut egui::Ui,
    view: &GeneView,
    i18n: &I18n,
    settings: &mut UserSettings,
    state: &mut GeneUi,
    left_ms: Option<u64>,
    exit: &mut table::Exit,
) {
    let pressed = widgets::table_top_bar(ui, i18n, &mut state.tab, settings.sound, |ui| {
        let round = i18n.ta(
            "table-round",
            &[
                ("n", view.round.max(1).into()),
                ("total", numbers().rounds.into()),
            ],
        );
        ui.label(egui::RichText::new(round).strong().size(18.0));
        ui.separator();
        ui.label(
            egui::RichText::new(phase_text(view, i18n))
                .color(theme::ACCENT)
                .strong(),
        );
        if let Some(left) = left_ms {
            widgets::deadline(ui, left);
        }
        if let Some(n) = view.order_card {
            ui.separator();
            ui.label(i18n.ta("gene-order-card", &[("n", n.into())]));
        }
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

/// Everyone at the table as far as the viewer may know: name, HP as last
/// announced, shadow, order, who has acted, and whose person is away
/// (`ClientModel::away_seats`).
fn players(ui: &mut egui::Ui, view: &GeneView, i18n: &I18n, away: AwaySeats) {
    let max = numbers().max_hp;
    egui::Grid::new("gene-players")
        .striped(true)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for (i, hp) in view.hp.iter().enumerate() {
                let seat = SeatId(i as u8);
                let me = view.me == Some(seat);
                let shadow = view.shadows.get(i).copied().unwrap_or(false);
                let mut label = egui::RichText::new(numbered(i18n, view, seat));
                if me {
                    label = label.strong().color(theme::ACCENT);
                }
                ui.label(label);
                let bar = egui::ProgressBar::new((*hp).max(0) as f32 / max as f32)
                    .desired_width(90.0)
                    .text(format!("{hp}"))
                    .fill(if shadow {
                        egui::Color32::from_rgb(110, 90, 150)
                    } else if *hp <= 3 {
                        theme::BAD
                    } else {
                        theme::GOOD.gamma_multiply(0.8)
                    });
                ui.add(bar);
                let mut status = Vec::new();
                if shadow {
                    status.push(i18n.t("gene-shadow"));
                }
                if let Some(n) = view.order.iter().position(|s| *s == seat) {
                    status.push(format!("#{}", n + 1));
                }
                if view.active == Some(seat) {
                    status.push(i18n.t("gene-acting"));
                } else if view.phase == GenePhase::Action && view.acted.get(i) == Some(&true) {
                    status.push(i18n.t("gene-acted"));
                }
                let away = away.contains(seat);
                if away {
                    status.push(i18n.t("lobby-away"));
                }
                ui.label(
                    egui::RichText::new(status.join(" · "))
                        .small()
                        .color(if away { theme::BAD } else { theme::MUTED }),
                );
                ui.end_row();
            }
        });
}

/// The gene panel being chosen: each gene with a point less
/// (`gene-strength-`, ...), its value (drag or type it) and a point more
/// (`gene-strength+`, ...), then how many points are spent. On one line
/// where it fits (the bottom panel stays low, and so the map large), else
/// a gene a line.
fn genes_editor(ui: &mut egui::Ui, genes: &mut Genes, i18n: &I18n) {
    let points = numbers().gene_points;
    let one_line = ui.available_width() >= 560.0;
    let gene = |ui: &mut egui::Ui, key: &str, value: &mut u8| {
        let step = |ui: &mut egui::Ui, text: &str, name: String, enabled: bool| {
            let button = egui::Button::new(egui::RichText::new(text).strong())
                .min_size(egui::vec2(30.0, 0.0));
            let response = ui.add_enabled(enabled, button);
            reach::control(&response, &name, Does::Pick);
            response.clicked()
        };
        if step(ui, "-", format!("gene-{key}-"), *value > 0) {
            *value -= 1;
        }
        ui.add(egui::DragValue::new(value).range(0..=points));
        if step(ui, "+", format!("gene-{key}+"), *value < points) {
            *value += 1;
        }
    };
    let rows = [
        ("strength", i18n.t("gene-strength"), &mut genes.strength),
        ("speed", i18n.t("gene-speed"), &mut genes.speed),
        ("carry", i18n.t("gene-carry"), &mut genes.carry),
    ];
    if one_line {
        ui.horizontal(|ui| {
            for (key, label, value) in rows {
                ui.label(label);
                gene(ui, key, value);
                ui.add_space(10.0);
            }
        });
    } else {
        egui::Grid::new("genes-editor")
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                for (key, label, value) in rows {
                    ui.label(label);
                    ui.horizontal(|ui| gene(ui, key, value));
                    ui.end_row();
                }
            });
    }
    let total = genes.strength + genes.speed + genes.carry;
    let ok = genes.check(points).is_ok();
    ui.label(
        egui::RichText::new(i18n.ta(
            "gene-points-spent",
            &[("total", total.into()), ("points", points.into())],
        ))
        .color(if ok { theme::GOOD } else { theme::BAD }),
    );
}

fn my_panel(ui: &mut egui::Ui, view: &GeneView, i18n: &I18n) {
    ui.vertical(|ui| {
        if let Some(g) = view.genes {
            ui.horizontal(|ui| {
                for (label, v, colour) in [
                    (
                        i18n.t("gene-strength"),
                        g.strength,
                        egui::Color32::from_rgb(220, 90, 70),
                    ),
                    (
                        i18n.t("gene-speed"),
                        g.speed,
                        egui::Color32::from_rgb(90, 170, 230),
                    ),
                    (
                        i18n.t("gene-carry"),
                        g.carry,
                        egui::Color32::from_rgb(200, 170, 80),
                    ),
                ] {
                    ui.label(
                        egui::RichText::new(
                            i18n.ta("gene-stat", &[("gene", label.into()), ("n", v.into())]),
                        )
                        .color(colour)
                        .strong(),
                    );
                }
            });
        }
        let me = view.me.map(|s| s.index());
        let hp = me.and_then(|i| view.hp.get(i)).copied().unwrap_or(0);
        let mut line = vec![i18n.ta("gene-hp", &[("hp", hp.into())])];
        if view.speed > 0 && view.phase == GenePhase::Action {
            line.push(i18n.ta("gene-steps-left", &[("n", view.speed.into())]));
        }
        if view.immune {
            line.push(i18n.t("gene-immune"));
        }
        if me.is_some_and(|i| view.shadows[i]) {
            line.push(i18n.ta("gene-shadow-drained", &[("n", view.drained.into())]));
        }
        ui.label(line.join(" · "));
        if let Some(r) = view.room {
            ui.label(
                egui::RichText::new(i18n.ta(
                    "gene-you-are-in",
                    &[("room", i18n.pick(&map().room(r).name).into())],
                ))
                .color(theme::MUTED),
            );
        }
    });
}

/// The hand's count and what to do when over the carry (the cards are
/// sprites under the map). Over the carry, where a card may be left, a
/// click leaves it:
/// in the free phase before it ends, in the action phase when a draw put
/// the player over (the referee waits for the choice).
fn hand(ui: &mut egui::Ui, view: &GeneView, i18n: &I18n) {
    ui.horizontal_wrapped(|ui| {
        let over = view.hand.len() > view.carry;
        ui.label(
            egui::RichText::new(i18n.ta(
                "gene-hand",
                &[("n", view.hand.len().into()), ("carry", view.carry.into())],
            ))
            .color(if over { theme::BAD } else { theme::TEXT }),
        );
        if view.hand.is_empty() {
            ui.label(egui::RichText::new(i18n.t("gene-no-cards")).color(theme::MUTED));
        }

        let note = match (view.phase, view.must_drop, view.can_discard) {
            (GenePhase::Action, n, _) if n > 0 => {
                Some(i18n.ta("gene-over-carry-drop", &[("n", n.into())]))
            }
            (GenePhase::Free, _, true) if over => Some(i18n.t("gene-over-carry-free")),
            (GenePhase::Free, _, false) if over => Some(i18n.t("gene-over-carry-kept")),
            _ => None,
        };
        if let Some(note) = note {
            ui.label(egui::RichText::new(note).color(theme::BAD));
        }
    });
}

/// What the player can do now, by phase.
fn controls(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    let me = view.me?;
    let shadow = view.shadows[me.index()];
    match view.phase {
        // Over the carry after a draw: the hand is where to choose.
        GenePhase::Action if view.to_act && view.must_drop > 0 => {
            ui.label(
                egui::RichText::new(i18n.ta("gene-must-drop", &[("n", view.must_drop.into())]))
                    .strong()
                    .color(theme::BAD),
            );
            None
        }
        GenePhase::Setup if view.to_act => setup_controls(ui, state, i18n),
        GenePhase::Setup => {
            ui.label(i18n.t("gene-setup-waiting"));
            None
        }
        GenePhase::Free => free_controls(ui, view, state, i18n, me),
        GenePhase::Action if !view.to_act => {
            let acted = view.acted.get(me.index()).copied().unwrap_or(false);
            ui.label(if acted {
                i18n.t("gene-acted-wait")
            } else {
                i18n.t("gene-wait-turn")
            });
            None
        }
        GenePhase::Action if !view.moved => move_controls(ui, view, i18n),
        GenePhase::Action if shadow => shadow_controls(ui, i18n),
        GenePhase::Action => action_controls(ui, view, state, i18n),
        GenePhase::GameOver | GenePhase::Idle => None,
    }
}

/// The now line: what the seat may do at this moment, or whom it waits on.
pub(super) fn now(view: &GeneView, state: &GeneUi, i18n: &I18n) -> String {
    let Some(me) = view.me else {
        return String::new();
    };
    if view.result.is_some() || view.phase == GenePhase::GameOver {
        return i18n.t("now-gene-over");
    }
    let shadow = view.shadows.get(me.index()).copied().unwrap_or(false);
    let acted = view.acted.get(me.index()).copied().unwrap_or(false);
    match view.phase {
        GenePhase::Setup if view.to_act => match state.spawn {
            Some(r) => i18n.ta(
                "now-gene-spawn-picked",
                &[("room", i18n.pick(&map().room(r).name).into())],
            ),
            None => i18n.t("now-gene-setup"),
        },
        GenePhase::Setup => i18n.t("now-gene-setup-waiting"),
        GenePhase::Free if view.ready => i18n.t("now-gene-ready"),
        GenePhase::Free => i18n.t("now-gene-free"),
        GenePhase::Action if view.to_act && view.must_drop > 0 => {
            i18n.ta("now-gene-must-drop", &[("n", view.must_drop.into())])
        }
        GenePhase::Action if !view.to_act && acted => i18n.t("now-gene-acted"),
        GenePhase::Action if !view.to_act => match view.active {
            Some(a) => i18n.ta("now-gene-wait-of", &[("name", name(i18n, view, a).into())]),
            None => i18n.t("now-gene-wait"),
        },
        GenePhase::Action if !view.moved => i18n.t("now-gene-move"),
        GenePhase::Action if shadow => i18n.t("now-gene-shadow"),
        GenePhase::Action if view.open_floors.is_empty() => i18n.t("now-gene-act-end"),
        GenePhase::Action => i18n.t("now-gene-act-vote"),
        GenePhase::GameOver | GenePhase::Idle => String::new(),
    }
}

/// Setup: the genes to share out and the spawn room to confirm.
fn setup_controls(ui: &mut egui::Ui, state: &mut GeneUi, i18n: &I18n) -> Option<GeneAction> {
    // A phone's now line above says the same, and its bottom panel has
    // no line to spare: the confirm button stays in view.
    if !widgets::narrow(ui.ctx()) {
        ui.label(egui::RichText::new(i18n.t("gene-setup-hint")).strong());
    }
    genes_editor(ui, &mut state.genes, i18n);
    let ready = state.genes.check(numbers().gene_points).is_ok() && state.spawn.is_some();
    let label = match state.spawn {
        Some(r) => i18n.ta(
            "gene-confirm-spawn",
            &[("room", i18n.pick(&map().room(r).name).into())],
        ),
        None => i18n.t("gene-pick-spawn"),
    };
    let prepare = ui.add_enabled(
        ready,
        egui::Button::new(egui::RichText::new(label).size(18.0)),
    );
    reach::control(&prepare, "prepare", Does::Move);
    if prepare.clicked() || (ready && state.keys.confirm) {
        return Some(GeneAction::Prepare {
            genes: state.genes,
            spawn: state.spawn?,
        });
    }
    None
}

/// The free phase: ready, open a trade, and the offers made.
fn free_controls(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
    me: SeatId,
) -> Option<GeneAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        if !view.ready {
            let ready = egui::Button::new(egui::RichText::new(i18n.t("gene-ready")).size(18.0));
            let ready = ui.add(ready);
            reach::control(&ready, "ready", Does::Move);
            if ready.clicked() || state.keys.confirm {
                action = Some(GeneAction::Ready);
            }
        } else {
            ui.label(i18n.t("gene-you-are-ready"));
        }
        let trade = ui.button(i18n.t("gene-trade-open"));
        reach::control(&trade, "trade-open", Does::Pick);
        if trade.clicked() {
            state.trade.open = true;
        }
    });
    for o in &view.offers {
        action = offer_row(ui, view, i18n, me, o).or(action);
    }
    action
}

/// Cards named in a list, or the word for nothing.
fn cards_words(cards: &[ItemKind], i18n: &I18n) -> String {
    let words = cards
        .iter()
        .map(|k| card_name(*k, i18n))
        .collect::<Vec<_>>()
        .join(", ");
    if words.is_empty() {
        i18n.t("gene-nothing")
    } else {
        words
    }
}

/// One offer: to the player (accept or decline) or from them (withdraw).
fn offer_row(
    ui: &mut egui::Ui,
    view: &GeneView,
    i18n: &I18n,
    me: SeatId,
    o: &gene::Offer,
) -> Option<GeneAction> {
    let mut action = None;
    let give = cards_words(&o.give.cards, i18n);
    let want = cards_words(&o.want.cards, i18n);
    let order = if o.swaps_order() {
        i18n.t("gene-offer-swap")
    } else {
        String::new()
    };
    ui.horizontal_wrapped(|ui| {
        if o.to == me {
            ui.label(
                egui::RichText::new(i18n.ta(
                    "gene-offer-to-you",
                    &[
                        ("name", name(i18n, view, o.from).into()),
                        ("give", give.as_str().into()),
                        ("want", want.as_str().into()),
                        ("swap", order.as_str().into()),
                    ],
                ))
                .color(theme::ACCENT),
            );
            let accept = ui.button(i18n.t("gene-accept"));
            reach::control(&accept, &format!("accept:{}", o.from.0), Does::Move);
            if accept.clicked() {
                action = Some(GeneAction::Accept { from: o.from });
            }
            let decline = ui.button(i18n.t("gene-decline"));
            reach::control(&decline, &format!("decline:{}", o.from.0), Does::Move);
            if decline.clicked() {
                action = Some(GeneAction::Decline { from: o.from });
            }
        } else {
            ui.label(i18n.ta(
                "gene-offer-from-you",
                &[
                    ("name", name(i18n, view, o.to).into()),
                    ("give", give.as_str().into()),
                    ("want", want.as_str().into()),
                    ("swap", order.as_str().into()),
                ],
            ));
            let withdraw = ui.button(i18n.t("gene-withdraw"));
            reach::control(&withdraw, &format!("withdraw:{}", o.to.0), Does::Move);
            if withdraw.clicked() {
                action = Some(GeneAction::Withdraw { to: o.to });
            }
        }
    });
    action
}

/// The action phase before moving: the hint, and adrenaline to use.
fn move_controls(ui: &mut egui::Ui, view: &GeneView, i18n: &I18n) -> Option<GeneAction> {
    let mut action = None;
    ui.label(egui::RichText::new(i18n.t("gene-move-hint")).strong());
    if view.hand.contains(&ItemKind::Adrenaline)
        && !view.changed_state
        && ui.button(i18n.t("gene-use-adrenaline")).clicked()
    {
        action = Some(GeneAction::Use {
            kind: ItemKind::Adrenaline,
            room: None,
        });
    }
    action
}

/// A shadow after moving: it can only end its turn.
fn shadow_controls(ui: &mut egui::Ui, i18n: &I18n) -> Option<GeneAction> {
    let mut action = None;
    ui.label(i18n.t("gene-shadow-cannot"));
    let end = ui.button(egui::RichText::new(i18n.t("gene-end-turn")).size(18.0));
    reach::control(&end, "end-turn", Does::Move);
    if end.clicked() {
        action = Some(GeneAction::EndTurn);
    }
    action
}

/// The action phase after moving: draw or take, use cards, surgery, then
/// end the turn or vote.
fn action_controls(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    let mut action = draw_and_take(ui, view, i18n);
    action = card_uses(ui, view, state, i18n).or(action);
    if let Some(mut g) = state.surgery {
        ui.label(i18n.t("gene-surgery-hint"));
        genes_editor(ui, &mut g, i18n);
        state.surgery = Some(g);
        if ui.button(i18n.t("gene-operate")).clicked() {
            action = Some(GeneAction::Surgery { genes: g });
            state.surgery = None;
        }
    }
    end_or_vote(ui, view, state, i18n).or(action)
}

/// The cards the room lets the player draw, and those left there to take.
fn draw_and_take(ui: &mut egui::Ui, view: &GeneView, i18n: &I18n) -> Option<GeneAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        if !view.can_draw.is_empty() {
            ui.label(i18n.t("gene-draw"));
            for &k in &view.can_draw {
                let chip = card_chip(ui, k, i18n, false);
                reach::control(&chip, &format!("draw:{k:?}").to_lowercase(), Does::Move);
                if chip.clicked() {
                    action = Some(GeneAction::Draw { kind: k });
                }
            }
        }
        if !view.can_take.is_empty() {
            ui.label(i18n.t("gene-take"));
            for &k in &view.can_take {
                let chip = card_chip(ui, k, i18n, false);
                reach::control(&chip, &format!("take:{k:?}").to_lowercase(), Does::Move);
                if chip.clicked() {
                    action = Some(GeneAction::Take { kind: k });
                }
            }
        }
    });
    action
}

/// Cards to use (medicine, alcohol, the rocket), a card to leave in the
/// room, and the surgery to open.
fn card_uses(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        for kind in [ItemKind::Medicine, ItemKind::Alcohol] {
            if view.hand.contains(&kind)
                && !view.changed_state
                && ui
                    .button(i18n.ta("gene-use", &[("card", card_name(kind, i18n).into())]))
                    .clicked()
            {
                action = Some(GeneAction::Use { kind, room: None });
            }
        }
        if view.hand.contains(&ItemKind::Rocket)
            && let Some(a) = rocket(ui, state, i18n)
        {
            action = Some(a);
        }
        let here = view.room.map(|r| map().room(r));
        if here.is_some_and(|r| !r.draws.is_empty()) && !view.hand.is_empty() {
            ui.menu_button(i18n.t("gene-leave-card"), |ui| {
                for &k in &view.hand {
                    if ui.button(card_name(k, i18n)).clicked() {
                        action = Some(GeneAction::Discard { kind: k });
                        ui.close();
                    }
                }
            });
        }
        if here.is_some_and(|r| r.function == Some(RoomFunction::Surgery)) {
            let open = state.surgery.is_some();
            if ui
                .selectable_label(open, i18n.t("gene-surgery-open"))
                .clicked()
            {
                state.surgery = if open { None } else { view.genes };
            }
        }
    });
    action
}

/// The rocket launcher: aim, pick a room on the map, fire or cancel.
fn rocket(ui: &mut egui::Ui, state: &mut GeneUi, i18n: &I18n) -> Option<GeneAction> {
    let mut action = None;
    if !state.aiming {
        if ui.button(i18n.t("gene-fire-rocket")).clicked() {
            state.aiming = true;
            state.target = None;
        }
        return action;
    }
    match state.target {
        None => {
            ui.label(egui::RichText::new(i18n.t("gene-fire-pick")).color(theme::ACCENT));
        }
        Some(r) => {
            if ui
                .button(i18n.ta(
                    "gene-fire-at",
                    &[("room", i18n.pick(&map().room(r).name).into())],
                ))
                .clicked()
            {
                action = Some(GeneAction::Use {
                    kind: ItemKind::Rocket,
                    room: Some(r),
                });
                state.aiming = false;
            }
        }
    }
    if ui.button(i18n.t("gene-cancel")).clicked() {
        state.aiming = false;
    }
    action
}

/// End the turn, or, with floors open to the vote, a ballot per floor.
fn end_or_vote(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        if view.open_floors.is_empty() {
            let end = ui.button(i18n.t("gene-end-turn"));
            reach::control(&end, "end-turn", Does::Move);
            if end.clicked() || state.keys.confirm {
                action = Some(GeneAction::EndTurn);
            }
        } else {
            ui.label(egui::RichText::new(i18n.t("gene-vote-hint")).strong());
            for &f in &view.open_floors {
                let vote = ui.small_button(gene_map::floor_label(f, i18n.lang));
                reach::control(
                    &vote,
                    &format!("vote:{}-{}", f.building, f.floor),
                    Does::Move,
                );
                if vote.clicked() {
                    action = Some(GeneAction::Vote { floor: f });
                }
            }
        }
    });
    action
}
fn trade_window(
    ctx: &egui::Context,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    if !state.trade.open || view.phase != GenePhase::Free {
        state.trade.open = false;
        return None;
    }
    let me = view.me?;
    let mut action = None;
    let mut open = true;
    egui::Window::new(i18n.t("gene-trade"))
        .open(&mut open)
        .collapsible(false)
        .default_width(460.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(i18n.t("gene-trade-hint"));
            ui.horizontal_wrapped(|ui| {
                ui.label(i18n.t("gene-trade-with"));
                for i in 0..view.hp.len() {
                    let s = SeatId(i as u8);
                    if s == me {
                        continue;
                    }
                    let label = numbered(i18n, view, s);
                    let whom = ui.selectable_label(state.trade.to == Some(s), label);
                    reach::control(&whom, &format!("trade-to:{i}"), Does::Pick);
                    if whom.clicked() {
                        state.trade.to = Some(s);
                    }
                }
            });
            ui.separator();
            ui.label(i18n.t("gene-trade-give"));
            ui.horizontal_wrapped(|ui| {
                // Each card in the hand once per copy, toggled by position.
                let mut counts = std::collections::BTreeMap::<ItemKind, usize>::new();
                for &k in &view.hand {
                    let n = counts.entry(k).or_default();
                    *n += 1;
                    let chosen = state.trade.give.iter().filter(|g| **g == k).count() >= *n;
                    let chip = card_chip(ui, k, i18n, chosen);
                    reach::control(
                        &chip,
                        &format!("trade-give:{k:?}").to_lowercase(),
                        Does::Pick,
                    );
                    if chip.clicked() {
                        if chosen {
                            if let Some(p) = state.trade.give.iter().position(|g| *g == k) {
                                state.trade.give.remove(p);
                            }
                        } else {
                            state.trade.give.push(k);
                        }
                    }
                }
                if view.hand.is_empty() {
                    ui.label(egui::RichText::new(i18n.t("gene-no-cards")).color(theme::MUTED));
                }
            });
            ui.label(i18n.t("gene-trade-want"));
            ui.horizontal_wrapped(|ui| {
                for kind in ItemKind::ALL {
                    let n = state.trade.want.iter().filter(|k| **k == kind).count();
                    let r = card_chip(ui, kind, i18n, n > 0);
                    reach::control(
                        &r,
                        &format!("trade-want:{kind:?}").to_lowercase(),
                        Does::Pick,
                    );
                    if r.clicked() {
                        state.trade.want.push(kind);
                    }
                    if r.secondary_clicked()
                        && let Some(p) = state.trade.want.iter().position(|k| *k == kind)
                    {
                        state.trade.want.remove(p);
                    }
                    if n > 1 {
                        ui.label(format!("×{n}"));
                    }
                }
            });
            if !state.trade.want.is_empty()
                && ui.small_button(i18n.t("gene-trade-clear-want")).clicked()
            {
                state.trade.want.clear();
            }
            let swap = ui.checkbox(&mut state.trade.swap_order, i18n.t("gene-trade-swap"));
            reach::control(&swap, "trade-swap", Does::Pick);
            ui.separator();
            let can = state.trade.to.is_some()
                && (!state.trade.give.is_empty()
                    || !state.trade.want.is_empty()
                    || state.trade.swap_order);
            let send = ui.add_enabled(
                can,
                egui::Button::new(egui::RichText::new(i18n.t("gene-trade-send")).size(17.0)),
            );
            reach::control(&send, "trade-send", Does::Move);
            if send.clicked() {
                action = Some(GeneAction::Offer {
                    to: state.trade.to?,
                    give: std::mem::take(&mut state.trade.give),
                    want: std::mem::take(&mut state.trade.want),
                    swap_order: state.trade.swap_order,
                });
                state.trade.open = false;
            }
            Some(())
        });
    if !open {
        state.trade.open = false;
    }
    action
}

#[allow(clippy::too_many_arguments)]
/// What the Gene table screen shares with its map scene.
#[derive(bevy::ecs::system::SystemParam)]
struct GeneScene<'w> {
    clicks: ResMut<'w, MapClicks>,
    hovered: Res<'w, Hover>,
    marks: Option<Res<'w, Marks>>,
    art: Option<Res<'w, GeneArt>>,
    close: ResMut<'w, gene_map::MapClose>,
}

/// The Gene table screen: its bars and panels around the map, the marks
/// the map shows, and the settlement, trade, rules and ranking windows.
fn draw(
    mut contexts: EguiContexts,
    mut frame: TableFrame,
    mut state: ResMut<GeneUi>,
    time: Res<Time<Real>>,
    mut countdown: Local<Countdown>,
    mut said: ResMut<reach::Said>,
    ask: Res<KeyAsk>,
    mut commands: Commands,
    mut scene_io: GeneScene,
) -> Result {
    let Some(view) = frame.model.view_of::<GeneGame>().cloned() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let now = time.elapsed_secs_f64();
    // The clock counts down from the table time the view was made at.
    let left_ms = countdown.left_ms(
        &frame.model,
        now,
        view.now_ms,
        view.deadline_ms,
        frame.paused(),
    );
    said.clock = left_ms.map(widgets::clock_text).unwrap_or_default();
    said.choice = format!(
        "spawn={:?} target={:?} genes={}·{}·{}",
        state.spawn, state.target, state.genes.strength, state.genes.speed, state.genes.carry
    );
    state.refusals.update(&frame.model);
    follow_keys(&mut state, &ask);
    let progress = frame.art_progress();
    let (model, i18n, settings) = (&*frame.model, &*frame.i18n, &mut *frame.settings);
    let mut screen = widgets::screen(ctx);
    let mut exit = table::Exit::Stay;
    let mut action = None;
    let (mut held, mut held_mine) = (0.0_f32, 0.0_f32);
    egui::Panel::top("gene-top").show(&mut screen, |ui| {
        top_bar(ui, &view, i18n, settings, &mut state, left_ms, &mut exit);
        widgets::now_line(
            ui,
            &mut said,
            model.lesson.as_ref(),
            i18n,
            self::now(&view, &state, i18n),
        );
    });
    let table_shown = widgets::side_panel(&mut screen, "gene-side", state.tab, |ui| {
        if let Some(a) = side(ui, &view, model, &mut state, i18n) {
            action = Some(a);
        }
    });
    if table_shown {
        widgets::table_bottom(
            &mut screen,
            "gene-bottom",
            150.0,
            300.0,
            |ui| {
                my_panel(ui, &view, i18n);
                held_mine = ui.min_rect().height();
            },
            |ui| {
                if let Some(a) = hand_and_controls(ui, &view, &mut state, i18n) {
                    action = Some(a);
                }
                held = ui.min_rect().height();
            },
        );
    }
    let held = held.max(held_mine);
    // The bottom panel takes its height from what it held last pass (and
    // keeps it): when it holds more now (new controls), it will grow, and
    // this pass is laid out again, so that no control is shown (nor told
    // to the screen's account) where it will not stay.
    if held > state.bottom_held + 0.5 {
        ctx.request_discard("the Gene table's bottom panel grows");
    }
    state.bottom_held = held;
    let entries = settlement::entries(&view);
    let shown = state.settlement.shown(&view, entries.len(), now);
    let current = shown.and_then(|n| settlement::current(&entries, n));
    let lines = shown.map_or_else(Vec::new, |n| settlement::said(&entries, n, &view, i18n));
    if said.settlement != lines {
        said.settlement = lines;
    }
    let mut rest = None;
    if table_shown {
        let (map_rest, clicked) = map_area(
            ctx,
            &mut screen,
            (&view, model, i18n),
            &mut state,
            current,
            (&mut scene_io, &mut commands),
            progress,
        );
        rest = map_rest;
        action = clicked.or(action);
    }
    scene::claim_rest(ctx, rest, &mut frame.scene_rect, &mut frame.on_ui);
    if shown.is_some() {
        settlement::window(
            ctx,
            &entries,
            &said.settlement,
            &mut state.settlement,
            i18n,
            now,
        );
    }
    if let Some(a) = trade_window(ctx, &view, &mut state, i18n) {
        action = Some(a);
    }
    table::rules_window(ctx, i18n, &mut state.show_rules, gene::RULES_MD);
    // The ranking, once the last settlement has been played out.
    let played_out = shown.is_none_or(|n| n >= entries.len());
    if let Some(result) = &view.result
        && played_out
        // A lesson's end has its own window (`lesson.rs`).
        && frame.model.lesson.is_none()
    {
        let at = frame.model.place.map(|(t, _)| t);
        table::summary_window(ctx, i18n, at, &mut frame.summary, &mut exit, |ui| {
            super::reveal::ranking(ui, &view, result, i18n, |s| name(i18n, &view, s))
        });
    }
    if let Some(action) = action {
        frame.act(AnyAction::Gene(action));
        state.refusals.error = None;
    }
    frame.go(exit);
    Ok(())
}

/// Keeps what the keyboard asked this frame for the controls; a cancel
/// drops the spawn or target being chosen.
fn follow_keys(state: &mut GeneUi, ask: &KeyAsk) {
    state.keys = *ask;
    if ask.cancel {
        state.spawn = None;
        state.aiming = false;
        state.target = None;
    }
}

/// The side panel: the players, the log and notes, and the chat.
fn side(
    ui: &mut egui::Ui,
    view: &GeneView,
    model: &ClientModel,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    players(ui, view, i18n, model.away_seats());
    ui.separator();
    widgets::log_and_notes(ui, i18n, model, 0.45, 70.0);
    ui.separator();
    chat(ui, view, state, i18n)
}

/// The chat line: what to say to those in the room, and Send.
fn chat(ui: &mut egui::Ui, view: &GeneView, state: &mut GeneUi, i18n: &I18n) -> Option<GeneAction> {
    let mut action = None;
    let hearers = view
        .audience
        .iter()
        .filter(|s| Some(**s) != view.me)
        .count();
    let hint = if view.me.is_none() {
        i18n.t("gene-chat-spectator")
    } else if view.audience.is_empty() {
        i18n.t("gene-chat-alone")
    } else {
        i18n.ta("gene-chat-hint", &[("n", hearers.into())])
    };
    ui.horizontal(|ui| {
        let edit = crate::client::widgets::line_field(
            ui,
            egui::TextEdit::singleline(&mut state.chat)
                .hint_text(hint)
                .char_limit(gene::state::CHAT_CHARS)
                .desired_width(220.0),
        );
        let send_now = ui.button(i18n.t("gene-send")).clicked()
            || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
        if send_now && !state.chat.trim().is_empty() {
            action = Some(GeneAction::Chat {
                text: state.chat.trim().to_string(),
            });
            state.chat.clear();
        }
    });
    action
}

/// The bottom's right part: the hand, what the player can do now, the
/// last refusal and the keys.
fn hand_and_controls(
    ui: &mut egui::Ui,
    view: &GeneView,
    state: &mut GeneUi,
    i18n: &I18n,
) -> Option<GeneAction> {
    hand(ui, view, i18n);
    ui.separator();
    let action = controls(ui, view, state, i18n);
    if let Some(e) = &state.refusals.error {
        ui.label(egui::RichText::new(i18n.pick(e)).color(theme::BAD));
    }
    widgets::keys_help(ui, i18n, "keys-help-gene");
    action
}

/// The map's part of the screen: the marks it shows, the phone's zoom, the
/// hovered room's words, and what was clicked on it. Returns the rect left
/// to the scene and the action a click asks for.
fn map_area(
    ctx: &egui::Context,
    screen: &mut egui::Ui,
    (view, model, i18n): (&GeneView, &ClientModel, &I18n),
    state: &mut GeneUi,
    current: Option<&SettleLine>,
    (scene_io, commands): (&mut GeneScene, &mut Commands),
    progress: f32,
) -> (Option<egui::Rect>, Option<GeneAction>) {
    let marks = marks(view, state, model, current);
    // A phone shows the whole map, or a closer view dragged along.
    if widgets::narrow(ctx) {
        zoom_row(screen, i18n, &mut scene_io.close);
    }
    // The map is the scene's; what the pointer is on shows here.
    let free = screen.available_rect_before_wrap();
    if let Some(words) = gene_map::hovered_words(*scene_io.hovered, &marks, i18n) {
        // It only tells: taps pass through it to the map under it.
        egui::Area::new(egui::Id::new("gene-hover"))
            .interactable(false)
            .fixed_pos(free.left_top() + egui::vec2(8.0, 6.0))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(words));
            });
    }
    let rest = table::scene_or_loading(screen, i18n, scene_io.art.is_some(), progress);
    if scene_io.marks.as_deref() != Some(&marks) {
        commands.insert_resource(marks);
    }
    let clicks = std::mem::take(&mut *scene_io.clicks);
    (rest, map_clicks(view, state, clicks))
}

/// What the map marks for the seat's view: its token, where it can go or
/// pick, gas, ballots, the settlement line playing, and its hand.
fn marks(
    view: &GeneView,
    state: &GeneUi,
    model: &ClientModel,
    current: Option<&SettleLine>,
) -> Marks {
    let mut marks = view_marks(view, state);
    // At a lesson's table, while a step of the learner's shows, only what
    // it points at is framed (as `scene::marks` does for other pieces).
    marks.lesson = model
        .lesson
        .as_ref()
        .filter(|l| !l.done && l.say.is_some())
        .map(|l| l.point.clone());
    if let Some(line) = current {
        marks.flash_rooms = line.rooms();
        marks.flash_floors = line.floors();
        marks.flash_colour = Some(settlement::line_colour(line));
    }
    for v in &model.host_views {
        if let AnyView::Gene(v) = v
            && let (Some(s), Some(r)) = (v.me, v.room)
        {
            marks.others.push((r, s.index() + 1, v.shadows[s.index()]));
        }
    }
    marks
}

/// What the seat's own view and its choices on the screen mark: its
/// token, where it can go or pick, gas, ballots and its hand (and so what
/// the map's pieces let it do, `scene::marked`).
pub(super) fn view_marks(view: &GeneView, state: &GeneUi) -> Marks {
    let mut marks = Marks {
        me: view.room.zip(view.me.map(|s| view.shadows[s.index()])),
        my_number: view.me.map(|s| s.index() + 1),
        gassed: view.gassed.clone(),
        my_vote: view.vote,
        hand: view.hand.clone(),
        hand_clickable: view.hand.len() > view.carry && view.can_discard,
        ..Default::default()
    };
    match view.phase {
        GenePhase::Setup if view.to_act => {
            marks.pickable = map().spawn_rooms().collect();
            marks.selected = state.spawn;
        }
        // Over the carry (rules.md §6): "until they have left enough, [the
        // player] may only leave cards": the hand is all the map offers.
        GenePhase::Action if view.must_drop > 0 => {}
        GenePhase::Action if view.to_act && !view.moved => {
            marks.reach = view.reach.iter().copied().collect();
        }
        GenePhase::Action if view.to_act && state.aiming => {
            marks.pickable = map().ids().collect();
            marks.selected = state.target;
        }
        // A shadow does not vote (rules.md): no ballot is offered.
        GenePhase::Action if view.to_act && !view.me.is_some_and(|s| view.shadows[s.index()]) => {
            marks.votable = view.open_floors.clone();
        }
        _ => {}
    }
    marks
}

/// A phone's map zoom: the whole map or a closer view, and how to move it.
fn zoom_row(screen: &mut egui::Ui, i18n: &I18n, close: &mut ResMut<gene_map::MapClose>) {
    screen.horizontal(|ui| {
        let was_close = close.0;
        let words = if was_close {
            i18n.t("gene-map-whole")
        } else {
            i18n.t("gene-map-closer")
        };
        let zoom = ui.button(words);
        reach::control(&zoom, "map-zoom", Does::Pick);
        if zoom.clicked() {
            close.0 = !was_close;
        }
        if was_close {
            ui.label(
                egui::RichText::new(i18n.t("gene-map-drag"))
                    .small()
                    .color(theme::MUTED),
            );
        }
    });
}

/// What a click on the map asks for: a spawn or a rocket's target picked,
/// a move, a vote or a card left.
fn map_clicks(view: &GeneView, state: &mut GeneUi, clicks: MapClicks) -> Option<GeneAction> {
    let mut action = None;
    if let Some(room) = clicks.room {
        match view.phase {
            GenePhase::Setup => state.spawn = Some(room),
            GenePhase::Action if state.aiming => state.target = Some(room),
            GenePhase::Action => action = Some(GeneAction::Move { to: room }),
            _ => {}
        }
    }
    if let Some(floor) = clicks.floor {
        action = Some(GeneAction::Vote { floor });
    }
    if let Some(kind) = clicks.card {
        action = Some(GeneAction::Discard { kind });
    }
    action
}

fn reset(mut commands: Commands) {
    commands.insert_resource(GeneUi::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<GeneUi>()
        .add_systems(
            EguiPrimaryContextPass,
            draw.run_if(in_state(TableScreen::Game(GameId::Gene))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}

#[cfg(test)]
mod tests {
    use crate::client::I18n;
    use foodweb_rules::Lang;

    /// The Gene table's words read as they did inline (issue 19): the
    /// swap note keeps its leading space, numbers and names are arguments.
    #[test]
    fn gene_words_keep_their_wording() {
        let mut i18n = I18n::default();
        let offer = |i18n: &I18n| {
            let swap = i18n.t("gene-offer-swap");
            i18n.ta(
                "gene-offer-to-you",
                &[
                    ("name", "Ann".into()),
                    ("give", "Water".into()),
                    ("want", "Food".into()),
                    ("swap", swap.into()),
                ],
            )
        };
        i18n.lang = Lang::En;
        assert_eq!(
            offer(&i18n),
            "Ann offers Water for your Food + swap order cards"
        );
        assert_eq!(
            i18n.ta("gene-hp-shadow", &[("hp", (-2).into())]),
            "-2 (shadow)"
        );
        i18n.lang = Lang::Zh;
        assert_eq!(
            offer(&i18n),
            "Ann提议：给你 Water，换你的 Food + 交换顺位卡"
        );
        assert_eq!(
            i18n.ta("gene-map-helicopter", &[("n", 4.into())]),
            "直升机 · 4 步"
        );
    }
}
