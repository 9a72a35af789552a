//! Wanning Beast Chess: a game against five bots, through the set-up, a
//! round's orders, a settlement played out, a private conversation and the
//! end.
//!
//! Its tour (`dev` feature): the steps `tour.rs` runs for it.

use foodweb_netcode::games::{AnyAction, AnySettings};
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::{InstinctId, WanningGame};
use foodweb_rules::{GameId, Lang};

use super::panels::{Side as WanningSide, WanningUi};
use super::setup::WanningForm;
use crate::client::net::SeatSide;
use crate::client::tour::*;
use crate::client::widgets::TableTab;

fn wanning_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::wanning::WanningView> {
    c.model.view_of::<WanningGame>()
}

/// A deal in which the tour's seat is a level 3 (a bear or a sabre-tooth
/// lives long enough to show a settlement and a conversation).
fn wanning_seed() -> u64 {
    use foodweb_rules::table::{Table, TableConfig};
    (1..500)
        .find(|&seed| {
            Table::<WanningGame>::new(TableConfig::new(seed, 6))
                .is_ok_and(|t| t.view(SeatId(0)).level == Some(3))
        })
        .unwrap_or(5)
}

/// The set-up screen with Wanning's house rules, before the table starts.
fn wanning_setup(c: &mut Ctx) {
    c.settings.lang = Lang::En;
    c.set_up(GameId::Wanning);
    c.setup.seats = 6;
}

fn wanning_start(c: &mut Ctx) {
    c.start(GameId::Wanning, 6, wanning_seed());
    // No clock: the pictures wait for nobody.
    let form = c.form::<WanningForm>();
    form.settings.setup_secs = 0;
    form.settings.orders_secs = 0;
}

fn wanning_in(phase: foodweb_rules::wanning::WanningPhase, c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.phase == phase && v.to_act)
}

fn wanning_ban_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Ban, c)
}

/// The two instincts the tour's seat bans.
fn bans() -> Vec<InstinctId> {
    vec![InstinctId::Balance, InstinctId::Diva]
}

fn wanning_choose_bans(c: &mut Ctx) {
    c.ui::<WanningUi>(|ui| ui.bans = bans());
}

fn wanning_send_bans(c: &mut Ctx) {
    let instincts = bans();
    c.act(AnyAction::Wanning(
        foodweb_rules::wanning::WanningAction::Ban { instincts },
    ));
}

fn wanning_pick_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Pick, c)
}

/// The first instinct not banned that is used in the orders, to show one.
fn pick(c: &Ctx) -> Option<InstinctId> {
    let banned = wanning_view(c)
        .map(|v| v.banned.clone())
        .unwrap_or_default();
    [InstinctId::Bluff, InstinctId::Alliance, InstinctId::Sturdy]
        .into_iter()
        .find(|i| !banned.contains(i))
}

fn wanning_choose_pick(c: &mut Ctx) {
    let pick = pick(c);
    c.ui::<WanningUi>(move |ui| ui.pick = pick);
}

fn wanning_send_pick(c: &mut Ctx) {
    if let Some(instinct) = pick(c) {
        c.act(AnyAction::Wanning(
            foodweb_rules::wanning::WanningAction::Pick { instinct },
        ));
    }
}

fn wanning_peek_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Peek, c)
}

fn wanning_choose_peek(c: &mut Ctx) {
    c.ui::<WanningUi>(|ui| ui.draft.peek = Some(SeatId(2)));
}

fn wanning_send_peek(c: &mut Ctx) {
    c.act(AnyAction::Wanning(
        foodweb_rules::wanning::WanningAction::Peek {
            target: Some(SeatId(2)),
        },
    ));
}

fn wanning_orders_open(c: &Ctx) -> bool {
    wanning_in(foodweb_rules::wanning::WanningPhase::Orders, c)
}

fn wanning_choose_target(c: &mut Ctx) {
    c.ui::<WanningUi>(|ui| ui.draft.target = Some(SeatId(3)));
}

/// A settlement to play out: round 2's orders (the tour's seat alive),
/// or the end.
fn wanning_settled(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| {
        (v.settled.is_some() && v.phase == foodweb_rules::wanning::WanningPhase::Orders)
            || v.result.is_some()
    })
}

fn wanning_talk(c: &mut Ctx) {
    let to = wanning_view(c)
        .filter(|v| v.result.is_none())
        .and_then(|v| v.others_living().first().copied());
    if let Some(to) = to {
        c.act(AnyAction::Wanning(
            foodweb_rules::wanning::WanningAction::Say {
                to,
                text: "I attacked nobody of yours. 我沒有攻擊你的同伴。".into(),
            },
        ));
        c.ui::<WanningUi>(move |ui| {
            ui.side = WanningSide::Talk;
            ui.talk.with = Some(to);
            // On a phone the talk is the side tab.
            ui.tab = TableTab::Side;
        });
    }
}

fn wanning_notebook(c: &mut Ctx) {
    c.ui::<WanningUi>(|ui| ui.side = WanningSide::Notebook);
}

fn wanning_back_to_table(c: &mut Ctx) {
    c.settings.lang = Lang::En;
    c.ui::<WanningUi>(|ui| ui.tab = TableTab::Table);
}

fn wanning_over(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.result.is_some())
}

/// A LAN table of Wanning Beast Chess with a host seat, its other seats
/// bots.
fn wanning_lan_table(c: &mut Ctx) {
    let settings = foodweb_rules::wanning::WanningSettings {
        setup_secs: 0,
        orders_secs: 0,
        ..Default::default()
    };
    c.outbox.0.push(ClientMsg::CreateTable {
        settings: AnySettings::Wanning(settings),
        seats: 6,
        host_seat: true,
        seed: Some(wanning_seed()),
        open_replays: false,
    });
}

fn wanning_host_code(c: &Ctx) -> bool {
    c.model.host_code.is_some() && c.model.lobby.is_some()
}

/// The owner moves to the host seat, as the lobby's button does.
fn wanning_sit_as_host(c: &mut Ctx) {
    if let (Some((table, code)), Some(lobby)) = (c.model.host_code.clone(), &c.model.lobby)
        && lobby.id == table
    {
        c.outbox.0.push(ClientMsg::TakeHostSeat { table, code });
    }
}

fn wanning_hosting(c: &Ctx) -> bool {
    matches!(
        c.model.place,
        Some((_, foodweb_netcode::messages::Role::Host))
    ) && c.model.lobby.as_ref().is_some_and(|l| l.host_runs)
}

fn wanning_fill_and_start(c: &mut Ctx) {
    c.outbox.0.push(ClientMsg::FillWithBots {
        kind: "reasoning".into(),
    });
    c.outbox.0.push(ClientMsg::Start);
}

fn wanning_host_round(c: &Ctx) -> bool {
    wanning_view(c).is_some_and(|v| v.host.is_some() && (v.round >= 2 || v.result.is_some()))
}

pub const STEPS: &[Step] = &[
    step(now, wanning_setup, 1.5, Some("wanning-setup")),
    step(now, chinese, 1.0, Some("wanning-setup-zh")),
    step(now, wanning_start, 4.0, None),
    step(
        wanning_ban_open,
        wanning_choose_bans,
        1.5,
        Some("wanning-ban"),
    ),
    step(now, chinese, 1.0, Some("wanning-ban-zh")),
    step(now, english, 0.1, None),
    step(now, wanning_send_bans, 0.5, None),
    step(
        wanning_pick_open,
        wanning_choose_pick,
        1.0,
        Some("wanning-pick"),
    ),
    step(now, wanning_send_pick, 0.5, None),
    step(
        wanning_peek_open,
        wanning_choose_peek,
        1.0,
        Some("wanning-peek"),
    ),
    step(now, wanning_send_peek, 0.5, None),
    step(
        wanning_orders_open,
        wanning_choose_target,
        1.0,
        Some("wanning-orders"),
    ),
    playing(wanning_settled, nothing, 3.0, Some("wanning-settlement")),
    step(now, wanning_talk, 1.5, Some("wanning-talk")),
    step(now, chinese, 1.5, Some("wanning-zh")),
    step(now, wanning_notebook, 1.0, Some("wanning-notebook-zh")),
    step(now, wanning_back_to_table, 0.1, None),
    playing(wanning_over, nothing, 3.0, Some("wanning-game-over")),
    step(now, chinese, 1.0, Some("wanning-game-over-zh")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("wanning-replay-zh")),
    step(now, replay_close, 0.5, None),
    step(now, english, 0.1, None),
    step(now, host_lan, 2.5, None),
    step(now, wanning_lan_table, 1.0, None),
    step(wanning_host_code, nothing, 1.0, Some("wanning-lobby")),
    step(now, wanning_sit_as_host, 1.0, None),
    step(wanning_hosting, nothing, 1.0, Some("wanning-lobby-host")),
    step(now, wanning_fill_and_start, 3.0, None),
    step(wanning_host_round, nothing, 1.5, Some("wanning-host")),
    step(now, chinese, 1.0, Some("wanning-host-zh")),
];
