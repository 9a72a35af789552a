//! The Wanning Beast Chess table screen, from the seat's view only: egui
//! draws the top bar, the notebook (what sensing, peeks and 預知 told you,
//! and your settlements), the private talk, the log, the orders being
//! written and the dialogs; the board, the plates and your cards are the
//! scene of `scene::wanning` in the rest of the window. The host seat gets
//! every seat's secrets and the table's pace instead of orders.

use bevy::prelude::*;
use bevy_egui::egui::{self, Align2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use foodweb_netcode::client::ClientModel;
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::messages::{ClientMsg, Pace};
use foodweb_rules::GameId;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::WanningGame;
use foodweb_rules::wanning::state::{Compare, Learned, LuckDraw};
use foodweb_rules::wanning::view::Settled;
use foodweb_rules::wanning::{
    self, Form, Guess, InstinctId, InstinctUse, Plan, WanningAction, WanningPhase, WanningView,
    data,
};

use super::art::WanningArt;
use super::board::name;
use super::board::{
    Marks, Pick, foresee_open, guard_names, guard_open, kind_key, luck_on_self, orders_open,
    other_living, settlement_steps, usable_seats,
};
use super::talk;
use crate::client::net::{SeatSide, send};
use crate::client::reach::{self, Does};
use crate::client::scene;
use crate::client::scene::keys::KeyAsk;
use crate::client::screens::table::{self, Countdown, Refusals, TableFrame, TableScreen};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// Which of the orders a tap on a plate fills.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Slot {
    #[default]
    Target,
    Second,
    Slaughter,
    Instinct,
    MarkB,
    ForeseeA,
    ForeseeB,
    Guard,
}

/// The orders being written (sent at once with "Give orders").
#[derive(Clone, Debug, Default)]
pub struct Draft {
    /// The round they are for: a new round starts a new draft.
    round: u8,
    pub(crate) target: Option<SeatId>,
    second: Option<SeatId>,
    slaughter: Option<SeatId>,
    use_instinct: bool,
    itarget: Option<SeatId>,
    mark_b: Option<SeatId>,
    /// 趨吉避兇: 兇 (a ward on `itarget`) rather than 吉.
    omen_ill: bool,
    curse: Option<u8>,
    wisdom: Option<Guess>,
    fool: Option<(Vec<u8>, Vec<Form>)>,
    foresee: (Option<SeatId>, Option<SeatId>),
    guard: Option<SeatId>,
    guard_level: u8,
    pub(crate) peek: Option<SeatId>,
}

/// A wisdom (or 大智若愚) guess being written: a level for every seat, and
/// forms.
#[derive(Clone, Debug)]
struct GuessDraft {
    fool: bool,
    levels: Vec<u8>,
    forms: Vec<Option<Form>>,
}

/// Which part of the side panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Side {
    #[default]
    Notebook,
    Talk,
    Log,
}

/// What the player is doing at the table.
#[derive(Resource, Default)]
pub struct WanningUi {
    /// A plate or a card tapped in the scene, for the screen to read.
    pub(crate) tapped: Option<Pick>,
    /// What the keyboard asked this frame (scene/keys.rs).
    keys: KeyAsk,
    pub(crate) bans: Vec<InstinctId>,
    pub(crate) pick: Option<InstinctId>,
    pub(crate) slot: Slot,
    pub(crate) draft: Draft,
    guess: Option<GuessDraft>,
    pub(crate) side: Side,
    pub(crate) talk: talk::Conversations,
    show_rules: bool,
    pub(crate) tab: widgets::TableTab,
    refusals: Refusals,
    controls_height: f32,
}

/// How an instinct is used in a round's orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// Not in the orders: automatic, its own action, or spent at the pick.
    Never,
    Plain,
    OnPlayer,
    TwoPlayers,
    Guess,
    Omens,
}

fn how_used(id: InstinctId) -> Use {
    use InstinctId::*;
    match id {
        Rage | Bloodlust | EarlyBird | Foresight | Vigilance => Use::Never,
        Sturdy | Poison | Balance | Diva | Independence | LastStand | Survive | Mercy => Use::Plain,
        Alliance | Bluff | Beast | Ruins | Luck | Grudge | Pair | Stand => Use::OnPlayer,
        Spokesman => Use::TwoPlayers,
        FoolWise => Use::Guess,
        Omens => Use::Omens,
    }
}

fn instinct_name(id: InstinctId, i18n: &I18n) -> String {
    data().instinct(id).name.get(i18n.lang).to_string()
}

fn phase_text(view: &WanningView, i18n: &I18n) -> String {
    i18n.t(match view.phase {
        WanningPhase::Idle => "wanning-phase-idle",
        WanningPhase::Ban => "wanning-phase-ban",
        WanningPhase::Pick => "wanning-phase-pick",
        WanningPhase::Peek => "wanning-phase-peek",
        WanningPhase::Orders => "wanning-phase-orders",
        WanningPhase::GameOver => "wanning-phase-over",
    })
}

impl WanningUi {
    /// The seats and cards the scene marks, from what is being written.
    pub fn marks(&self, view: &WanningView, i18n: &I18n) -> Marks {
        let mut m = Marks::default();
        match view.phase {
            WanningPhase::Ban => m.chosen = self.bans.clone(),
            WanningPhase::Pick => m.chosen = self.pick.into_iter().collect(),
            _ => {}
        }
        let d = &self.draft;
        let mut role = |s: Option<SeatId>, key: &str| {
            if let Some(s) = s {
                let text = i18n.t(key);
                match m.seats.iter_mut().find(|(x, _)| *x == s) {
                    Some((_, t)) => {
                        t.push_str(" · ");
                        t.push_str(&text);
                    }
                    None => m.seats.push((s, text)),
                }
            }
        };
        let sensing = view.level == Some(1);
        if view.phase == WanningPhase::Orders && view.orders.is_none() {
            role(
                d.target,
                if sensing {
                    "wanning-role-sense"
                } else {
                    "wanning-role-attack"
                },
            );
            role(d.second, "wanning-role-second");
            role(d.slaughter, "wanning-role-slaughter");
            if d.use_instinct {
                role(d.itarget, "wanning-role-instinct");
                role(d.mark_b, "wanning-role-instinct");
            }
        }
        role(d.foresee.0, "wanning-role-foresee");
        role(d.foresee.1, "wanning-role-foresee");
        role(d.guard, "wanning-role-guard");
        if view.phase == WanningPhase::Peek {
            role(d.peek, "wanning-role-peek");
        }
        if let Some(me) = view.me
            && view.host.is_none()
        {
            m.tappable = view.seats.iter().map(|p| p.seat).collect();
            m.usable = usable_seats(view);
            m.unread = talk::talk_counts(view, me)
                .into_iter()
                .filter(|(s, c)| *c > self.talk.read.get(s).copied().unwrap_or(0))
                .map(|(s, _)| s)
                .collect();
            m.unread.sort();
        }
        m
    }

    /// A tap in the scene: a card chosen for the ban or the pick, or a
    /// plate put in the slot being filled (which then moves on).
    fn take_tap(&mut self, view: &WanningView) {
        let Some(pick) = self.tapped.take() else {
            return;
        };
        match pick {
            Pick::Instinct(id) => match view.phase {
                WanningPhase::Ban => {
                    if let Some(k) = self.bans.iter().position(|b| *b == id) {
                        self.bans.remove(k);
                    } else if self.bans.len() < 2 {
                        self.bans.push(id);
                    }
                }
                WanningPhase::Pick => self.pick = Some(id),
                _ => {}
            },
            Pick::Seat(s) => {
                let foreseeing = matches!(self.slot, Slot::ForeseeA | Slot::ForeseeB);
                if view.phase == WanningPhase::Peek
                    && view.to_act
                    && Some(s) != view.me
                    && !(foreseeing && foresee_open(view))
                {
                    self.draft.peek = Some(s);
                    return;
                }
                let Some(slot) = slot_for(self.slot, view, s) else {
                    // A plate no move takes now: in the peek, the viewer's
                    // own passes.
                    if view.phase == WanningPhase::Peek {
                        self.draft.peek = None;
                    }
                    return;
                };
                self.slot = slot;
                let d = &mut self.draft;
                let slot = match self.slot {
                    Slot::Target => &mut d.target,
                    Slot::Second => &mut d.second,
                    Slot::Slaughter => &mut d.slaughter,
                    Slot::Instinct => {
                        d.use_instinct = true;
                        &mut d.itarget
                    }
                    Slot::MarkB => &mut d.mark_b,
                    Slot::ForeseeA => &mut d.foresee.0,
                    Slot::ForeseeB => &mut d.foresee.1,
                    Slot::Guard => &mut d.guard,
                };
                *slot = if *slot == Some(s) { None } else { Some(s) };
                self.slot = match self.slot {
                    Slot::ForeseeA => Slot::ForeseeB,
                    Slot::Instinct if how_used_of(view) == Some(Use::TwoPlayers) => Slot::MarkB,
                    other => other,
                };
            }
        }
    }
}

/// The slot a tap on `s`'s plate fills: the one chosen when it can take
/// `s` now, else the first that can (the target, the instinct's seat, 警惕's
/// guess, 預知's first seat), so that every plate marked usable does what
/// the table would take; `None` when none can.
fn slot_for(chosen: Slot, view: &WanningView, s: SeatId) -> Option<Slot> {
    let takes = |slot: Slot| match slot {
        Slot::Target | Slot::Second | Slot::Slaughter | Slot::MarkB => {
            orders_open(view) && other_living(view, s)
        }
        Slot::Instinct => {
            orders_open(view)
                && (other_living(view, s) || (Some(s) == view.me && luck_on_self(view)))
        }
        Slot::ForeseeA | Slot::ForeseeB => foresee_open(view),
        Slot::Guard => guard_open(view) && guard_names(view, s),
    };
    if takes(chosen) {
        return Some(chosen);
    }
    [Slot::Target, Slot::Instinct, Slot::Guard, Slot::ForeseeA]
        .into_iter()
        .find(|k| takes(*k))
}

fn how_used_of(view: &WanningView) -> Option<Use> {
    view.instinct.map(how_used)
}

/// The instinct use the draft asks for, if any.
fn instinct_use(view: &WanningView, d: &Draft) -> Option<InstinctUse> {
    let id = view.instinct?;
    let use_it = d.use_instinct || id == InstinctId::Omens;
    if !use_it {
        return None;
    }
    let t = d.itarget;
    Some(match id {
        InstinctId::Sturdy => InstinctUse::Sturdy,
        InstinctId::Poison => InstinctUse::Poison,
        InstinctId::Balance => InstinctUse::Balance,
        InstinctId::Diva => InstinctUse::Diva,
        InstinctId::Independence => InstinctUse::Independence,
        InstinctId::LastStand => InstinctUse::LastStand,
        InstinctId::Survive => InstinctUse::Survive,
        InstinctId::Mercy => InstinctUse::Mercy,
        InstinctId::Alliance => InstinctUse::Alliance { target: t? },
        InstinctId::Bluff => InstinctUse::Bluff { target: t? },
        InstinctId::Beast => InstinctUse::Beast { target: t? },
        InstinctId::Ruins => InstinctUse::Ruins { target: t? },
        InstinctId::Luck => InstinctUse::Luck { target: t? },
        InstinctId::Grudge => InstinctUse::Grudge { target: t? },
        InstinctId::Pair => InstinctUse::Pair { target: t? },
        InstinctId::Stand => InstinctUse::Stand { target: t? },
        InstinctId::Spokesman => InstinctUse::Mark {
            a: t?,
            b: d.mark_b?,
        },
        InstinctId::FoolWise => {
            let (levels, forms) = d.fool.clone()?;
            InstinctUse::FoolWise { levels, forms }
        }
        InstinctId::Omens => InstinctUse::Omens {
            ill: if d.omen_ill { t } else { None },
            curse: d.curse,
        },
        InstinctId::Rage
        | InstinctId::Bloodlust
        | InstinctId::EarlyBird
        | InstinctId::Foresight
        | InstinctId::Vigilance => return None,
    })
}

fn plan(view: &WanningView, d: &Draft) -> Plan {
    Plan {
        target: d.target,
        second: d.second,
        slaughter: d.slaughter,
        wisdom: d.wisdom.clone(),
        instinct: instinct_use(view, d),
    }
}

/// A slot's button: "Attack: Bo" (tap to fill it from the table), with a
/// cross to empty it.
fn slot_button(
    ui: &mut egui::Ui,
    state: &mut WanningUi,
    view: &WanningView,
    slot: Slot,
    label: &str,
    value: Option<SeatId>,
    i18n: &I18n,
) {
    let who = value.map_or_else(|| i18n.t("wanning-tap-a-player"), |s| name(i18n, view, s));
    let active = state.slot == slot;
    let text = egui::RichText::new(format!("{label}: {who}"));
    let key = slot_key(slot, view);
    let chosen = ui.selectable_label(active, if active { text.strong() } else { text });
    reach::control(&chosen, &format!("slot:{key}"), Does::Pick);
    if chosen.clicked() {
        state.slot = slot;
    }
    let clear = value.is_some().then(|| ui.small_button("×"));
    if let Some(clear) = &clear {
        reach::control(clear, &format!("clear:{key}"), Does::Pick);
    }
    if clear.is_some_and(|c| c.clicked()) {
        let d = &mut state.draft;
        match slot {
            Slot::Target => d.target = None,
            Slot::Second => d.second = None,
            Slot::Slaughter => d.slaughter = None,
            Slot::Instinct => d.itarget = None,
            Slot::MarkB => d.mark_b = None,
            Slot::ForeseeA => d.foresee.0 = None,
            Slot::ForeseeB => d.foresee.1 = None,
            Slot::Guard => d.guard = None,
        }
    }
}

/// A slot's name in the screen's account (`slot:sense`, `clear:sense`...):
/// the target is sensed at level 1 and attacked above.
fn slot_key(slot: Slot, view: &WanningView) -> &'static str {
    match slot {
        Slot::Target if view.level == Some(1) => "sense",
        Slot::Target => "attack",
        Slot::Second => "second",
        Slot::Slaughter => "slaughter",
        Slot::Instinct => "instinct",
        Slot::MarkB => "mark",
        Slot::ForeseeA => "foresee-a",
        Slot::ForeseeB => "foresee-b",
        Slot::Guard => "guard",
    }
}

/// The now line: what the seat may do at this moment (the phase's move,
/// then 預知 and 警惕 whenever the table would take them), or that it
/// waits.
pub(super) fn now(view: &WanningView, i18n: &I18n) -> String {
    let Some(me) = view.me.filter(|_| view.host.is_none()) else {
        return String::new();
    };
    if view.result.is_some() || view.phase == WanningPhase::GameOver {
        return i18n.t("now-wanning-over");
    }
    let alive = !view.seats[me.index()].dead;
    let mut line = match view.phase {
        _ if !alive => i18n.t("now-wanning-dead"),
        WanningPhase::Ban if view.to_act => i18n.t("now-wanning-ban"),
        WanningPhase::Pick if view.to_act => i18n.t("now-wanning-pick"),
        WanningPhase::Peek if view.to_act => i18n.t("now-wanning-peek"),
        WanningPhase::Orders if view.orders.is_none() && view.to_act => {
            i18n.t("now-wanning-orders")
        }
        WanningPhase::Orders if view.orders.is_some() => i18n.t("now-wanning-orders-given"),
        _ => i18n.t("now-wanning-wait"),
    };
    if super::board::foresee_open(view) {
        line.push(' ');
        line.push_str(&i18n.ta("now-wanning-foresee", &[("n", view.foresights_left.into())]));
    }
    if super::board::guard_open(view) {
        line.push(' ');
        line.push_str(&i18n.t("now-wanning-guard"));
    }
    line
}

/// What the player can do now; the action to send, if one was chosen.
fn controls(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
) -> Option<WanningAction> {
    let me = view.me?;
    let alive = !view.seats[me.index()].dead;
    let mut action = None;
    if !alive && view.phase != WanningPhase::GameOver && !view.guard_owed {
        // The now line says so.
        return None;
    }
    match view.phase {
        WanningPhase::Ban if view.to_act => {
            ui.horizontal_wrapped(|ui| {
                let names: Vec<String> =
                    state.bans.iter().map(|b| instinct_name(*b, i18n)).collect();
                ui.label(if names.is_empty() {
                    i18n.t("wanning-none-chosen")
                } else {
                    names.join("、")
                });
                let key = if state.bans.is_empty() {
                    "wanning-ban-none"
                } else {
                    "wanning-ban-these"
                };
                let ban = ui.button(egui::RichText::new(i18n.t(key)).strong());
                reach::control(&ban, "ban", Does::Move);
                if ban.clicked() || state.keys.confirm {
                    action = Some(WanningAction::Ban {
                        instincts: state.bans.clone(),
                    });
                }
            });
        }
        WanningPhase::Pick if view.to_act => {
            if let Some(id) = state.pick {
                let info = data().instinct(id);
                ui.label(
                    egui::RichText::new(format!(
                        "{} — {}",
                        info.name.get(i18n.lang),
                        info.effect.get(i18n.lang)
                    ))
                    .small(),
                );
                let pick = ui.button(
                    egui::RichText::new(i18n.ta(
                        "wanning-pick-this",
                        &[("name", instinct_name(id, i18n).into())],
                    ))
                    .strong(),
                );
                reach::control(&pick, "pick", Does::Move);
                if pick.clicked() || state.keys.confirm {
                    action = Some(WanningAction::Pick { instinct: id });
                }
            }
        }
        WanningPhase::Peek if view.to_act => {
            ui.horizontal_wrapped(|ui| {
                if let Some(t) = state.draft.peek {
                    let peek = ui.button(
                        egui::RichText::new(
                            i18n.ta("wanning-peek-at", &[("name", name(i18n, view, t).into())]),
                        )
                        .strong(),
                    );
                    reach::control(&peek, "peek", Does::Move);
                    if peek.clicked() || state.keys.confirm {
                        action = Some(WanningAction::Peek { target: Some(t) });
                    }
                }
                let pass = ui.button(i18n.t("wanning-peek-pass"));
                reach::control(&pass, "peek-pass", Does::Move);
                if pass.clicked() {
                    action = Some(WanningAction::Peek { target: None });
                }
            });
        }
        WanningPhase::Orders if view.to_act && alive => {
            action = orders(ui, view, state, i18n);
        }
        _ => {}
    }
    if let Some(a) = extras(ui, view, state, i18n) {
        action = Some(a);
    }
    action
}

/// A round's orders: the action, the level's abilities, the instinct.
fn orders(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
) -> Option<WanningAction> {
    let mut action = None;
    let level = view.level.unwrap_or(1);
    ui.horizontal_wrapped(|ui| {
        action_slots(ui, view, state, i18n, level);
    });
    if let Some(id) = view.instinct {
        let how = how_used(id);
        ui.horizontal_wrapped(|ui| match how {
            Use::Never => {}
            Use::Omens => omens_orders(ui, view, state, i18n, id),
            _ => instinct_orders(ui, view, state, i18n, id, how),
        });
        if let Some(luck) = view.luck {
            luck_line(ui, luck, i18n);
        }
    }
    if matches!(level, 1 | 2) && !view.wisdom_used {
        ui.horizontal_wrapped(|ui| {
            wisdom_buttons(ui, view, state, i18n);
        });
    }
    let give = ui.button(
        egui::RichText::new(i18n.t("wanning-give-orders"))
            .strong()
            .size(18.0),
    );
    reach::control(&give, "orders", Does::Move);
    if give.clicked() || state.keys.confirm {
        action = Some(WanningAction::Orders(plan(view, &state.draft)));
    }
    action
}

/// The action's slots: the target (sensed at level 1, attacked above), a
/// second attack and the slaughter when the level or instinct gives them.
fn action_slots(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
    level: u8,
) {
    let target = state.draft.target;
    let key = if level == 1 {
        "wanning-role-sense"
    } else {
        "wanning-role-attack"
    };
    slot_button(ui, state, view, Slot::Target, &i18n.t(key), target, i18n);
    let second = matches!(
        view.instinct,
        Some(InstinctId::Rage | InstinctId::LastStand)
    ) || level == 4;
    if second && level > 1 {
        let v = state.draft.second;
        slot_button(
            ui,
            state,
            view,
            Slot::Second,
            &i18n.t("wanning-role-second"),
            v,
            i18n,
        );
    }
    if level == 4 && view.slaughters_left > 0 {
        let v = state.draft.slaughter;
        let label = i18n.ta(
            "wanning-slaughter-left",
            &[("n", view.slaughters_left.into())],
        );
        slot_button(ui, state, view, Slot::Slaughter, &label, v, i18n);
    }
}

/// 趨吉避兇's orders: 吉 or 兇 (with the ward's seat), and on even rounds
/// the level to curse.
fn omens_orders(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
    id: InstinctId,
) {
    ui.label(instinct_name(id, i18n));
    let good = ui.selectable_value(
        &mut state.draft.omen_ill,
        false,
        i18n.t("wanning-omen-good"),
    );
    reach::control(&good, "omen:good", Does::Pick);
    let ill = ui.selectable_value(&mut state.draft.omen_ill, true, i18n.t("wanning-omen-ill"));
    reach::control(&ill, "omen:ill", Does::Pick);
    if state.draft.omen_ill {
        let v = state.draft.itarget;
        slot_button(
            ui,
            state,
            view,
            Slot::Instinct,
            &i18n.t("wanning-role-ward"),
            v,
            i18n,
        );
    }
    if view.round.is_multiple_of(2) {
        ui.label(i18n.t("wanning-curse"));
        for l in 1..=4u8 {
            let on = state.draft.curse == Some(l);
            let curse = ui.selectable_label(on, format!("L{l}"));
            reach::control(&curse, &format!("curse:{l}"), Does::Pick);
            if curse.clicked() {
                state.draft.curse = if on { None } else { Some(l) };
            }
        }
    }
}

/// Any other instinct's orders: whether to use it and, if so, its one or
/// two seats or its guess.
fn instinct_orders(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
    id: InstinctId,
    how: Use,
) {
    let use_it = ui.checkbox(
        &mut state.draft.use_instinct,
        i18n.ta("wanning-use", &[("name", instinct_name(id, i18n).into())]),
    );
    reach::control(&use_it, "use-instinct", Does::Pick);
    if !state.draft.use_instinct {
        return;
    }
    match how {
        Use::OnPlayer | Use::TwoPlayers => {
            let v = state.draft.itarget;
            slot_button(
                ui,
                state,
                view,
                Slot::Instinct,
                &i18n.t("wanning-role-instinct"),
                v,
                i18n,
            );
            if how == Use::TwoPlayers {
                let v = state.draft.mark_b;
                slot_button(
                    ui,
                    state,
                    view,
                    Slot::MarkB,
                    &i18n.t("wanning-role-instinct"),
                    v,
                    i18n,
                );
            }
        }
        Use::Guess => {
            let label = if state.draft.fool.is_some() {
                i18n.t("wanning-guess-edit")
            } else {
                i18n.t("wanning-guess-write")
            };
            let write = ui.button(label);
            reach::control(&write, "fool-guess", Does::Pick);
            if write.clicked() {
                state.guess = Some(new_guess(view, true));
            }
        }
        _ => {}
    }
}

/// What 幸運 drew this round: attack, guard or rest.
fn luck_line(ui: &mut egui::Ui, luck: LuckDraw, i18n: &I18n) {
    ui.label(
        egui::RichText::new(i18n.t(match luck {
            LuckDraw::Attack => "wanning-luck-attack",
            LuckDraw::Guard => "wanning-luck-guard",
            LuckDraw::Rest => "wanning-luck-rest",
        }))
        .color(theme::ACCENT),
    );
}

/// The wisdom guess: a button to write (or edit) it, a cross to drop it.
fn wisdom_buttons(ui: &mut egui::Ui, view: &WanningView, state: &mut WanningUi, i18n: &I18n) {
    let label = if state.draft.wisdom.is_some() {
        i18n.t("wanning-wisdom-edit")
    } else {
        i18n.t("wanning-wisdom-write")
    };
    let write = ui.button(label);
    reach::control(&write, "wisdom", Does::Pick);
    if write.clicked() {
        state.guess = Some(new_guess(view, false));
    }
    if state.draft.wisdom.is_some() {
        let drop = ui.small_button("×");
        reach::control(&drop, "clear:wisdom", Does::Pick);
        if drop.clicked() {
            state.draft.wisdom = None;
        }
    }
}

/// What can be done besides the orders: 預知 at any time after the pick,
/// 警惕's guess after a round it lost HP in.
fn extras(
    ui: &mut egui::Ui,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
) -> Option<WanningAction> {
    let mut action = None;
    if foresee_open(view) {
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label(i18n.ta(
                "wanning-foresee-left",
                &[("n", view.foresights_left.into())],
            ));
            let (a, b) = state.draft.foresee;
            slot_button(ui, state, view, Slot::ForeseeA, "A", a, i18n);
            slot_button(ui, state, view, Slot::ForeseeB, "B", b, i18n);
            if let (Some(a), Some(b)) = (a, b) {
                let foresee = ui.button(i18n.t("wanning-foresee"));
                reach::control(&foresee, "foresee", Does::Move);
                if foresee.clicked() {
                    action = Some(WanningAction::Foresee { a, b });
                    state.draft.foresee = (None, None);
                }
            }
        });
    }
    // The table takes the last guess given before the round settles.
    if guard_open(view) {
        ui.separator();
        ui.label(egui::RichText::new(i18n.t("wanning-guard-help")).color(theme::ACCENT));
        ui.horizontal_wrapped(|ui| {
            let g = state.draft.guard;
            slot_button(
                ui,
                state,
                view,
                Slot::Guard,
                &i18n.t("wanning-role-guard"),
                g,
                i18n,
            );
            for l in 1..=4u8 {
                let level = ui.selectable_value(&mut state.draft.guard_level, l, format!("L{l}"));
                reach::control(&level, &format!("guard-level:{l}"), Does::Pick);
            }
            if let Some(t) = g
                && state.draft.guard_level > 0
            {
                let send = ui.button(i18n.t("wanning-guard-send"));
                reach::control(&send, "guard", Does::Move);
                if send.clicked() {
                    action = Some(WanningAction::Guard {
                        guess: Some((t, state.draft.guard_level)),
                    });
                }
            }
            let none = ui.button(i18n.t("wanning-guard-none"));
            reach::control(&none, "guard-none", Does::Move);
            if none.clicked() {
                action = Some(WanningAction::Guard { guess: None });
            }
        });
    }
    action
}

fn new_guess(view: &WanningView, fool: bool) -> GuessDraft {
    let n = view.seats.len();
    let mut levels = vec![1u8; n];
    let mut forms = vec![None; n];
    if let Some(me) = view.me {
        levels[me.index()] = view.level.unwrap_or(1);
        if fool {
            forms[me.index()] = view.instinct_form;
        }
    }
    GuessDraft {
        fool,
        levels,
        forms,
    }
}

/// The wisdom (or 大智若愚) window: a level for every seat, and forms.
fn guess_window(ctx: &egui::Context, view: &WanningView, state: &mut WanningUi, i18n: &I18n) {
    let Some(g) = state.guess.as_mut() else {
        return;
    };
    let n = view.seats.len();
    let mut open = true;
    let mut done = false;
    let title = if g.fool {
        instinct_name(InstinctId::FoolWise, i18n)
    } else {
        i18n.t("wanning-wisdom")
    };
    // A phone's window is narrow: each player's forms go on a line of
    // their own under the levels, and the window sits at the bottom, below
    // the now line.
    let screen = ctx.content_rect();
    let narrow = screen.width() < 520.0;
    let (anchor, offset) = if narrow {
        (Align2::CENTER_BOTTOM, [0.0, -8.0])
    } else {
        (Align2::CENTER_CENTER, [0.0, 0.0])
    };
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .max_width((screen.width() - 16.0).max(200.0))
        .anchor(anchor, offset)
        .show(ctx, |ui| {
            let help = if g.fool {
                i18n.t("wanning-fool-help")
            } else {
                let k = n / 2 + usize::from(view.round as usize >= n.div_ceil(2));
                i18n.ta("wanning-wisdom-help", &[("k", k.into())])
            };
            ui.label(egui::RichText::new(help).small());
            let rows = egui::ScrollArea::vertical().max_height(screen.height() * 0.5);
            rows.show(ui, |ui| {
                egui::Grid::new("wanning-guess")
                    .striped(!narrow)
                    .show(ui, |ui| {
                        for (i, p) in view.seats.iter().enumerate() {
                            ui.label(egui::RichText::new(i18n.name(&p.name)).strong());
                            for l in 1..=4u8 {
                                let level =
                                    ui.selectable_value(&mut g.levels[i], l, format!("L{l}"));
                                reach::control(&level, &format!("guess-level:{i}:{l}"), Does::Pick);
                            }
                            if narrow {
                                ui.end_row();
                                ui.label("");
                            } else {
                                ui.separator();
                            }
                            if !g.fool {
                                let none = ui.selectable_value(&mut g.forms[i], None, "—");
                                reach::control(&none, &format!("guess-form:{i}:none"), Does::Pick);
                            }
                            for (form, text) in [(Form::At, "AT"), (Form::Pt, "PT")] {
                                let f = ui.selectable_value(&mut g.forms[i], Some(form), text);
                                reach::control(&f, &format!("guess-form:{i}:{text}"), Does::Pick);
                            }
                            ui.end_row();
                        }
                    });
            });
            let keep = ui.button(egui::RichText::new(i18n.t("wanning-guess-keep")).strong());
            reach::control(&keep, "guess-keep", Does::Pick);
            done = keep.clicked();
        });
    if done {
        let g = state.guess.take().expect("open");
        if g.fool {
            let forms = g.forms.iter().map(|f| f.unwrap_or(Form::At)).collect();
            state.draft.fool = Some((g.levels, forms));
            state.draft.use_instinct = true;
        } else {
            let forms = g
                .forms
                .iter()
                .enumerate()
                .filter_map(|(i, f)| f.map(|f| (SeatId(i as u8), f)))
                .collect();
            state.draft.wisdom = Some(Guess {
                levels: g.levels,
                forms,
            });
        }
    } else if !open {
        state.guess = None;
    }
}

fn learned_line(view: &WanningView, l: &Learned, i18n: &I18n) -> String {
    match l {
        Learned::Sensed {
            round,
            target,
            object,
        } => match object {
            Some(o) => i18n.ta(
                "wanning-learned-sensed",
                &[
                    ("round", (*round).into()),
                    ("name", name(i18n, view, *target).into()),
                    ("object", name(i18n, view, *o).into()),
                ],
            ),
            None => i18n.ta(
                "wanning-learned-sensed-none",
                &[
                    ("round", (*round).into()),
                    ("name", name(i18n, view, *target).into()),
                ],
            ),
        },
        Learned::Foreseen { a, b, order } => i18n.ta(
            match order {
                Compare::Higher => "wanning-learned-higher",
                Compare::Lower => "wanning-learned-lower",
                Compare::Equal => "wanning-learned-equal",
            },
            &[
                ("a", name(i18n, view, *a).into()),
                ("b", name(i18n, view, *b).into()),
            ],
        ),
        Learned::Peeked { target, kind } => i18n.ta(
            "wanning-learned-peeked",
            &[
                ("name", name(i18n, view, *target).into()),
                ("kind", i18n.t(kind_key(*kind)).into()),
            ],
        ),
        Learned::Wisdom { round, right } => i18n.ta(
            if *right {
                "wanning-learned-wisdom-right"
            } else {
                "wanning-learned-wisdom-wrong"
            },
            &[("round", (*round).into())],
        ),
    }
}

fn settled_line(s: &Settled, i18n: &I18n) -> String {
    let steps: Vec<String> = settlement_steps(s, i18n)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    format!(
        "{}: {}",
        i18n.ta("wanning-round-n", &[("round", s.round.into())]),
        steps.join(" → ")
    )
}

/// The notebook: the viewer's secrets and what it learned in private.
fn notebook(ui: &mut egui::Ui, view: &WanningView, i18n: &I18n) {
    if let (Some(level), Some(animal)) = (view.level, view.animal) {
        let a = &data().animals[animal];
        ui.label(
            egui::RichText::new(i18n.ta(
                "wanning-you-are",
                &[
                    ("animal", a.name.get(i18n.lang).to_string().into()),
                    ("level", level.into()),
                ],
            ))
            .strong(),
        );
    }
    if let Some(id) = view.instinct {
        let info = data().instinct(id);
        let mut line = format!(
            "{} · {}",
            info.name.get(i18n.lang),
            info.effect.get(i18n.lang)
        );
        if let Some(left) = view.instinct_uses_left {
            line.push_str(&format!(
                " · {}",
                i18n.ta("wanning-uses-left", &[("n", left.into())])
            ));
        }
        if view.instinct_resting {
            line.push_str(&format!(" · {}", i18n.t("wanning-resting")));
        }
        ui.label(egui::RichText::new(line).small());
    }
    if view.radical {
        ui.label(egui::RichText::new(i18n.t("wanning-radical")).small());
    }
    if !view.marks.is_empty() {
        let marks: Vec<String> = view
            .marks
            .iter()
            .map(|(s, k)| format!("{} ×{k}", name(i18n, view, *s)))
            .collect();
        ui.label(
            egui::RichText::new(i18n.ta("wanning-marks", &[("marks", marks.join("、").into())]))
                .small(),
        );
    }
    if let Some(f) = view.forms {
        use foodweb_rules::wanning::state::FormsPicked;
        ui.label(
            egui::RichText::new(i18n.t(match f {
                FormsPicked::MoreAt => "wanning-forms-at",
                FormsPicked::MorePt => "wanning-forms-pt",
                FormsPicked::Equal => "wanning-forms-equal",
            }))
            .small(),
        );
    }
    if !view.banned.is_empty() {
        let b: Vec<String> = view
            .banned
            .iter()
            .map(|b| instinct_name(*b, i18n))
            .collect();
        ui.label(
            egui::RichText::new(i18n.ta("wanning-banned", &[("names", b.join("、").into())]))
                .small()
                .color(theme::MUTED),
        );
    }
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("wanning-notebook")
        .stick_to_bottom(true)
        .show(ui, |ui| {
            if view.learned.is_empty() && view.settled.is_none() {
                ui.label(egui::RichText::new(i18n.t("wanning-notebook-empty")).color(theme::MUTED));
            }
            for l in &view.learned {
                ui.label(
                    egui::RichText::new(learned_line(view, l, i18n))
                        .small()
                        .color(theme::ACCENT),
                );
            }
            if let Some(s) = &view.settled {
                ui.label(egui::RichText::new(settled_line(s, i18n)).small());
            }
        });
}

/// The host seat: every seat's secrets, and the table's pace.
fn host_panel(ui: &mut egui::Ui, view: &WanningView, i18n: &I18n, paused: bool) -> Option<Pace> {
    let h = view.host.as_deref()?;
    let mut pace = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(i18n.t("wanning-host"))
                .strong()
                .color(theme::ACCENT),
        );
        if paused {
            if ui.button(i18n.t("wanning-resume")).clicked() {
                pace = Some(Pace::Resume);
            }
        } else if ui.button(i18n.t("wanning-pause")).clicked() {
            pace = Some(Pace::Pause);
        }
        if ui.button(i18n.t("wanning-extend")).clicked() {
            pace = Some(Pace::Hold { secs: 30 });
        }
    });
    egui::Grid::new("wanning-host-grid")
        .striped(true)
        .show(ui, |ui| {
            for key in [
                "wanning-host-player",
                "wanning-host-beast",
                "wanning-host-instinct",
                "wanning-host-hp",
                "wanning-host-shields",
                "wanning-host-orders",
            ] {
                ui.label(egui::RichText::new(i18n.t(key)).strong());
            }
            ui.end_row();
            for s in &h.seats {
                let who = egui::RichText::new(i18n.name(&s.name));
                ui.label(if s.dead { who.strikethrough() } else { who });
                ui.label(format!(
                    "L{} {}",
                    s.level,
                    data().animals[s.animal].name.get(i18n.lang)
                ));
                let mut instinct = s
                    .instinct
                    .map(|i| instinct_name(i, i18n))
                    .unwrap_or_else(|| "—".into());
                if s.early_bird {
                    instinct.push_str(&format!(
                        " ({})",
                        instinct_name(InstinctId::EarlyBird, i18n)
                    ));
                }
                ui.label(instinct);
                ui.label(if s.hp != s.announced {
                    format!("{} ({})", s.hp, s.announced)
                } else {
                    s.hp.to_string()
                });
                ui.label(s.shields.to_string());
                ui.label(if s.orders.is_some() { "✓" } else { "" });
                ui.end_row();
            }
        });
    pace
}

/// The Wanning table screen: the top bar, the side panel, the orders (or
/// the host's panel), then the guess, rules and game-over windows over the
/// scene.
#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    mut frame: TableFrame,
    mut state: ResMut<WanningUi>,
    time: Res<Time<Real>>,
    mut countdown: Local<Countdown>,
    mut said: ResMut<reach::Said>,
    ask: Res<KeyAsk>,
    art: Option<Res<WanningArt>>,
) -> Result {
    let Some(view) = frame.model.view_of::<WanningGame>().cloned() else {
        return Ok(());
    };
    let art_ready = art.is_some();
    let progress = frame.art_progress();
    let paused = frame.paused();
    let ctx = contexts.ctx_mut()?;
    let left_ms = countdown.left_ms(
        &frame.model,
        time.elapsed_secs_f64(),
        view.now_ms,
        view.deadline_ms,
        paused,
    );
    tell_reach(&mut said, &state, left_ms, view.round);
    state.refusals.update(&frame.model);
    state.keys = *ask;
    clear_choices(&mut state, &view, ask.cancel);
    state.take_tap(&view);
    let (model, i18n, settings) = (&*frame.model, &*frame.i18n, &mut *frame.settings);
    let mut screen = widgets::screen(ctx);
    let mut exit = table::Exit::Stay;
    let mut action = None;
    let mut pace = None;
    egui::Panel::top("wanning-top").show(&mut screen, |ui| {
        top_bar(
            ui, &view, left_ms, paused, i18n, settings, &mut state, &mut exit,
        );
        widgets::now_line(ui, &mut said, model.lesson.as_ref(), i18n, now(&view, i18n));
    });
    let new_talk = talk::unread(&view, &state.talk.read);
    let table_shown = widgets::side_panel(&mut screen, "wanning-side", state.tab, |ui| {
        action = side(ui, &view, model, &mut state, i18n, new_talk);
    });
    let mut rest = None;
    if table_shown {
        let (a, p) = bottom_panel(&mut screen, ctx, &view, &mut state, i18n, paused);
        if let Some(a) = a {
            action = Some(a);
        }
        pace = p;
        rest = table::scene_or_loading(&mut screen, i18n, art_ready, progress);
    }
    scene::claim_rest(ctx, rest, &mut frame.scene_rect, &mut frame.on_ui);
    guess_window(ctx, &view, &mut state, i18n);
    table::rules_window(ctx, i18n, &mut state.show_rules, wanning::RULES_MD);
    // A lesson's end has its own window (`lesson.rs`).
    if model.lesson.is_none() {
        let table = frame.model.place.map(|(t, _)| t);
        game_over_window(ctx, &view, i18n, (table, &mut frame.summary), &mut exit);
    }
    if let Some(action) = action {
        frame.act(AnyAction::Wanning(action));
        state.refusals.error = None;
    }
    if let Some(pace) = pace {
        send(&mut frame.outbox, ClientMsg::Pace { pace });
    }
    frame.go(exit);
    Ok(())
}

/// Tells the reach account this frame's clock and choices.
fn tell_reach(said: &mut reach::Said, state: &WanningUi, left_ms: Option<u64>, round: u8) {
    said.clock = left_ms.map(widgets::clock_text).unwrap_or_default();
    // The guess being written (levels and forms) and the one kept: each
    // tap in the guess window shows here.
    let writing = state
        .guess
        .as_ref()
        .map(|g| format!("{:?}/{:?}", g.levels, g.forms));
    said.choice = format!(
        "round={round} bans={:?} pick={:?} peek={:?} target={:?} instinct={} guess={:?} wisdom={:?}",
        state.bans,
        state.pick,
        state.draft.peek,
        state.draft.target,
        state.draft.use_instinct,
        writing,
        state.draft.wisdom.as_ref().map(|w| (&w.levels, &w.forms))
    );
}

/// Drops the bans, the pick and the orders being written when the player
/// cancels, and the orders alone when a new round starts.
fn clear_choices(state: &mut WanningUi, view: &WanningView, cancel: bool) {
    if cancel {
        state.bans.clear();
        state.pick = None;
        state.draft = Draft {
            round: view.round,
            ..Draft::default()
        };
        state.slot = Slot::Target;
    }
    if state.draft.round != view.round {
        state.draft = Draft {
            round: view.round,
            ..Draft::default()
        };
        state.slot = Slot::Target;
    }
}

/// The top bar: the round, the phase, the clock and the pause, with the
/// leave, rules and language buttons.
fn top_bar(
    ui: &mut egui::Ui,
    view: &WanningView,
    left_ms: Option<u64>,
    paused: bool,
    i18n: &I18n,
    settings: &mut UserSettings,
    state: &mut WanningUi,
    exit: &mut table::Exit,
) {
    let pressed = widgets::table_top_bar(ui, i18n, &mut state.tab, settings.sound, |ui| {
        round_status(ui, view, left_ms, paused, i18n);
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

/// The top bar's status: the round (once play has started), the phase's
/// name, the clock and a note when the table is paused.
fn round_status(
    ui: &mut egui::Ui,
    view: &WanningView,
    left_ms: Option<u64>,
    paused: bool,
    i18n: &I18n,
) {
    if view.round > 0 {
        ui.label(
            egui::RichText::new(i18n.ta(
                "wanning-round",
                &[("round", view.round.into()), ("cap", view.round_cap.into())],
            ))
            .strong()
            .size(18.0),
        );
        ui.separator();
    }
    ui.label(egui::RichText::new(phase_text(view, i18n)).color(theme::ACCENT));
    if let Some(left) = left_ms {
        widgets::deadline(ui, left);
    }
    if paused {
        ui.label(
            egui::RichText::new(i18n.t("wanning-paused"))
                .strong()
                .color(theme::BAD),
        );
    }
}

/// The side panel: tabs for the notebook, the talk (with its unread
/// lines) and the log, and the one chosen; a line said, if one was sent.
fn side(
    ui: &mut egui::Ui,
    view: &WanningView,
    model: &ClientModel,
    state: &mut WanningUi,
    i18n: &I18n,
    new_talk: usize,
) -> Option<WanningAction> {
    ui.horizontal(|ui| {
        let notebook =
            ui.selectable_value(&mut state.side, Side::Notebook, i18n.t("wanning-notebook"));
        reach::control(&notebook, "side-notebook", Does::Pick);
        let talk_tab = if new_talk > 0 {
            format!("{} ({new_talk})", i18n.t("wanning-talk"))
        } else {
            i18n.t("wanning-talk")
        };
        let talk = ui.selectable_value(&mut state.side, Side::Talk, talk_tab);
        reach::control(&talk, "side-talk", Does::Pick);
        let log = ui.selectable_value(&mut state.side, Side::Log, i18n.t("table-log"));
        reach::control(&log, "side-log", Does::Pick);
    });
    ui.separator();
    match state.side {
        Side::Notebook => notebook(ui, view, i18n),
        Side::Talk => return talk::talk(ui, view, &mut state.talk, i18n, talk::bounds(model)),
        Side::Log => widgets::log_and_notes(ui, i18n, model, 0.55, 0.0),
    }
    None
}

/// The bottom panel: the controls, or the host's panel for the host seat;
/// the action chosen and the pace asked for, if any.
fn bottom_panel(
    screen: &mut egui::Ui,
    ctx: &egui::Context,
    view: &WanningView,
    state: &mut WanningUi,
    i18n: &I18n,
    paused: bool,
) -> (Option<WanningAction>, Option<Pace>) {
    let mut action = None;
    let mut pace = None;
    let height = ctx.content_rect().height();
    let most = (height * if view.host.is_some() { 0.45 } else { 0.34 }).max(90.0);
    let tall = (state.controls_height + 16.0).clamp(60.0, most);
    egui::Panel::bottom("wanning-bottom")
        .exact_size(tall)
        .show(screen, |ui| {
            let shown = egui::ScrollArea::both().show(ui, |ui| {
                if view.host.is_some() {
                    pace = host_panel(ui, view, i18n, paused);
                } else {
                    action = controls(ui, view, state, i18n);
                }
                if let Some(e) = &state.refusals.error {
                    ui.label(egui::RichText::new(i18n.pick(e)).color(theme::BAD));
                }
                widgets::keys_help(ui, i18n, "keys-help-wanning");
            });
            state.controls_height = shown.content_size.y;
        });
    // The panel takes its height from what it held last pass: when that
    // changed (a button came), this pass is laid out again, so that no
    // control is shown (nor told to the screen's account) where it will
    // not stay.
    if (state.controls_height + 16.0).clamp(60.0, most) != tall {
        ctx.request_discard("the orders panel changed height");
    }
    (action, pace)
}

/// The game-over window: the level that won, whether the viewer won, and
/// the buttons for what comes next.
fn game_over_window(
    ctx: &egui::Context,
    view: &WanningView,
    i18n: &I18n,
    (at, summary): (Option<u32>, &mut table::Summary),
    exit: &mut table::Exit,
) {
    let Some(level) = view.winner else {
        return;
    };
    if view.result.is_none() {
        return;
    }
    table::summary_window(ctx, i18n, at, summary, exit, |ui| {
        ui.label(
            egui::RichText::new(i18n.ta("wanning-level-wins", &[("level", level.into())]))
                .strong()
                .size(20.0)
                .color(theme::ACCENT),
        );
        if let Some(how) = super::reveal::won_by(view, i18n) {
            ui.label(how);
        }
        if let Some(mine) = view.level {
            ui.label(i18n.t(if mine == level {
                "wanning-you-won"
            } else {
                "wanning-you-lost"
            }));
        }
        super::reveal::who_was_who(ui, view, i18n);
    });
}

fn reset(mut commands: Commands) {
    commands.insert_resource(WanningUi::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<WanningUi>()
        .add_systems(
            EguiPrimaryContextPass,
            draw.run_if(in_state(TableScreen::Game(GameId::Wanning))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 「嗜殺…自動發動」, 預知 and 警惕 are their own moves, 笨鳥先飛 is spent
    /// at the pick: none is offered in the orders; every other instinct
    /// builds the use its rules document names.
    #[test]
    fn each_instinct_is_offered_as_its_rules_use_it() {
        let view_with = |id| WanningView {
            instinct: Some(id),
            ..blank()
        };
        let d = Draft {
            use_instinct: true,
            itarget: Some(SeatId(2)),
            mark_b: Some(SeatId(3)),
            fool: Some((vec![1; 4], vec![Form::At; 4])),
            ..Draft::default()
        };
        for info in &data().instincts {
            let got = instinct_use(&view_with(info.id), &d);
            assert_eq!(
                got.is_none(),
                how_used(info.id) == Use::Never,
                "{:?}: {got:?}",
                info.id
            );
        }
        // 趨吉避兇 is used every round (「每回合必須發動」), asked or not.
        let omens = view_with(InstinctId::Omens);
        assert!(instinct_use(&omens, &Draft::default()).is_some());
    }

    fn blank() -> WanningView {
        use foodweb_rules::table::{Table, TableConfig};
        let t = Table::<wanning::WanningGame>::new(TableConfig::new(3, 4)).expect("a table");
        t.view(SeatId(0))
    }
}
