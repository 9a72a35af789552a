//! The one place a Gene Survival action is judged: what each phase
//! accepts (`out_of_phase` names the real reason for the rest), and a check
//! for each move. It reads the world and never changes it.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::free::audience;
use super::game::GeneGame;
use super::map::{ItemKind, RoomFunction, RoomId, map};
use super::settle::numbers;
use super::state::*;
use crate::table::{Rejection, SeatId, Settings};

fn no(en: impl Into<String>, zh: impl Into<String>) -> Rejection {
    Rejection::new(en, zh)
}

pub(crate) use crate::table::{Seated, seat_part as part};

/// Whether the seat has used as many state-changing cards this round as
/// the table allows (setting `state_cards`; 0 = no limit).
pub fn state_cards_spent(world: &World, seat: SeatId) -> bool {
    let at = Seated::new(world);
    let limit = world.resource::<Settings<GeneGame>>().0.state_cards;
    limit > 0 && at.get::<Doings>(seat).state_cards >= limit
}

/// Every floor a living player may still vote for.
pub fn open_floors(world: &World) -> Vec<super::map::FloorId> {
    let gassed = &world.resource::<Gassed>().0;
    map()
        .floors()
        .into_iter()
        .filter(|f| !gassed.contains(f))
        .collect()
}

/// Who hears `seat` talk now, or why nobody does.
pub fn hearers(world: &World, seat: SeatId) -> Result<Vec<SeatId>, Rejection> {
    let at = Seated::new(world);
    let phase = *world.resource::<State<GenePhase>>().get();
    audience(
        phase,
        seat,
        world.resource::<Calendar>().active(),
        |s| at.get::<Doings>(s).acted,
        at.seats.iter().map(|(s, _)| s),
    )
    .ok_or_else(|| no("you are alone in the action room", "你正独自在行动室里"))
}

/// The one place a Gene Survival action is judged.
pub fn check(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Rejection> {
    let at = Seated::new(world);
    let phase = *world.resource::<State<GenePhase>>().get();
    if let Some(refusal) = out_of_phase(phase, action) {
        return Err(refusal);
    }
    let hand = at.get::<Hand>(seat);
    let panel = at.get::<Panel>(seat);
    let vitals = at.get::<Vitals>(seat);
    let place = at.get::<Place>(seat);
    let doings = at.get::<Doings>(seat);
    let calendar = world.resource::<Calendar>();
    if phase == GenePhase::Action && hand.must_drop > 0 {
        // 「将持有的道具卡数量调整至负重范围内」 comes first.
        match action {
            GeneAction::Discard { kind } if hand.cards.contains(kind) => return Ok(()),
            GeneAction::Discard { .. } => {
                return Err(no("you hold no such card", "你没有这张卡"));
            }
            GeneAction::Chat { .. } => {}
            _ => {
                let n = hand.must_drop;
                return Err(no(
                    format!("you are over your carry: leave {n} card(s) here first"),
                    format!("你超出了负重：请先在这里丢弃 {n} 张道具卡"),
                ));
            }
        }
    }
    let offers = world.resource::<TradeOffers>();
    let count = at.seats.0.len();
    match (phase, action) {
        (GenePhase::Setup, GeneAction::Prepare { genes, spawn }) => {
            if panel.genes.is_some() {
                return Err(no("you have prepared already", "你已经准备好了"));
            }
            genes
                .check(numbers().gene_points)
                .map_err(|reason| Rejection { reason })?;
            if spawn.0 as usize >= map().rooms.len() {
                return Err(no("there is no such room", "没有这个房间"));
            }
            if *spawn == map().morgue() {
                return Err(no(
                    "the morgue is for shadows: spawn elsewhere",
                    "停尸间是暗影的地方：请选别的出生房间",
                ));
            }
            Ok(())
        }
        (_, GeneAction::Chat { text }) => {
            let chars = text.chars().count();
            if chars == 0 || chars > CHAT_CHARS {
                return Err(no(
                    format!("say something of 1 to {CHAT_CHARS} characters"),
                    format!("发言须为 1 到 {CHAT_CHARS} 个字符"),
                ));
            }
            if text.chars().any(char::is_control) {
                return Err(no("no control characters, please", "发言不能含控制字符"));
            }
            if phase == GenePhase::Idle {
                return Err(no("not now", "现在不能这样做"));
            }
            hearers(world, seat).map(|_| ())
        }
        (
            GenePhase::Free,
            GeneAction::Offer {
                to,
                give,
                want,
                swap_order,
            },
        ) => {
            if to.index() >= count || *to == seat {
                return Err(no(
                    "offer to another player at this table",
                    "请向本桌的另一名玩家提出交易",
                ));
            }
            if give.is_empty() && want.is_empty() && !swap_order {
                return Err(no("the offer trades nothing", "这笔交易什么也没有交换"));
            }
            if give.len() > TRADE_CARDS || want.len() > TRADE_CARDS {
                return Err(no(
                    format!("at most {TRADE_CARDS} cards a side"),
                    format!("每方最多 {TRADE_CARDS} 张卡"),
                ));
            }
            let them = at.get::<Vitals>(*to);
            if (vitals.shadow || them.shadow) && !(give.is_empty() && want.is_empty()) {
                return Err(no(
                    "shadows hold no cards: they trade order cards only",
                    "暗影不能持有道具卡，只能交易顺位卡",
                ));
            }
            if !holds_all(&hand.cards, give) {
                return Err(no(
                    "you do not hold every card you offer",
                    "你没有你要给出的全部卡",
                ));
            }
            Ok(())
        }
        (GenePhase::Free, GeneAction::Accept { from }) => {
            let o = offers.to_answer(seat, *from)?;
            if !(holds_all(&at.get::<Hand>(o.from).cards, &o.give.cards)
                && holds_all(&at.get::<Hand>(o.to).cards, &o.want.cards))
            {
                return Err(no(
                    "the cards that offer names are no longer held: ask for a new one",
                    "这笔交易涉及的卡已不在手中，请重新提出交易",
                ));
            }
            Ok(())
        }
        (GenePhase::Free, GeneAction::Decline { from }) => {
            offers.to_answer(seat, *from)?;
            Ok(())
        }
        (GenePhase::Free, GeneAction::Withdraw { to }) => {
            offers.to_withdraw(seat, *to)?;
            Ok(())
        }
        (GenePhase::Free, GeneAction::Discard { kind }) => {
            // 「若持有的道具卡数量超过自身负重，则需要该阶段结束时调整至负重范围内」:
            // in the free phase only a player over the carry may drop
            // cards, and only down to it; and 「只能在可抽卡的房间进行」.
            if hand.cards.len() <= carry(panel, vitals) {
                return Err(no(
                    "in the free phase you drop cards only to get back within your carry",
                    "自由阶段只有超出负重时才能丢弃道具卡",
                ));
            }
            leave_here(place, hand, *kind)
        }
        (GenePhase::Free, GeneAction::Ready) => {
            if doings.ready {
                Err(no("you are ready already", "你已经准备好了"))
            } else {
                Ok(())
            }
        }
        (GenePhase::Action, a) => {
            if calendar.active() != Some(seat) {
                return Err(Rejection::not_your_turn());
            }
            match a {
                GeneAction::Move { to } => {
                    if doings.moved {
                        return Err(no("you have moved this round", "你本轮已经移动过了"));
                    }
                    let from = place.0.expect("a player in play has a room");
                    if !map()
                        .destinations(from, speed(panel, doings), vitals.shadow)
                        .contains(to)
                    {
                        return Err(no(
                            "that room is not within your speed (and you must leave this one)",
                            "那个房间不在你的速度范围内（而且你必须离开当前房间）",
                        ));
                    }
                    Ok(())
                }
                GeneAction::Use { kind, room } => check_use(world, seat, *kind, *room),
                _ if !doings.moved => Err(no("move first", "请先移动")),
                GeneAction::Take { kind } => {
                    if vitals.shadow {
                        return Err(no("shadows cannot take cards", "暗影不能拿取道具卡"));
                    }
                    if doings.drew {
                        return Err(no("you have drawn this round", "你本轮已经抽过卡了"));
                    }
                    let room = place.0.expect("placed");
                    let piles = &world.resource::<Piles>().0;
                    if !piles.get(&room).is_some_and(|p| p.contains(kind)) {
                        return Err(no("no such card lies here", "这里没有这张卡"));
                    }
                    Ok(())
                }
                GeneAction::Surgery { genes } => {
                    let old = panel.genes.expect("prepared");
                    if vitals.shadow {
                        return Err(no("shadows cannot use rooms", "暗影不能使用房间功能"));
                    }
                    if map().room(place.0.expect("placed")).function != Some(RoomFunction::Surgery)
                    {
                        return Err(no("surgery happens in the surgery", "手术只能在手术室进行"));
                    }
                    if panel.operated {
                        return Err(no("one surgery a round", "每轮只能做一次手术"));
                    }
                    genes
                        .check(numbers().gene_points)
                        .map_err(|reason| Rejection { reason })?;
                    let moved = old.strength.abs_diff(genes.strength)
                        + old.speed.abs_diff(genes.speed)
                        + old.carry.abs_diff(genes.carry);
                    if moved / 2 > SURGERY_POINTS || moved == 0 {
                        return Err(no(
                            format!("a surgery moves 1 to {SURGERY_POINTS} gene points"),
                            format!("一次手术可调整 1 到 {SURGERY_POINTS} 点基因"),
                        ));
                    }
                    Ok(())
                }
                GeneAction::Discard { kind } => leave_here(place, hand, *kind),
                GeneAction::Draw { kind } => {
                    if vitals.shadow {
                        return Err(no("shadows cannot draw", "暗影不能抽卡"));
                    }
                    if doings.drew {
                        return Err(no("you have drawn this round", "你本轮已经抽过卡了"));
                    }
                    let room = map().room(place.0.expect("placed"));
                    if !room.draws.contains(kind) {
                        return Err(no(
                            "this room does not give that card",
                            "这个房间不能抽这种卡",
                        ));
                    }
                    if !world.resource::<Supply>().0.contains(kind) {
                        return Err(no("none of those are left", "这种卡已经没有了"));
                    }
                    Ok(())
                }
                GeneAction::Vote { floor } => {
                    if vitals.shadow {
                        return Err(no("shadows do not vote", "暗影不能投票"));
                    }
                    if !map().floors().contains(floor) {
                        return Err(no("there is no such floor", "没有这个楼层"));
                    }
                    if world.resource::<Gassed>().0.contains(floor) {
                        return Err(no(
                            "that floor is gassed already: it cannot be voted again",
                            "该楼层已经是毒气楼层，不能重复被投",
                        ));
                    }
                    Ok(())
                }
                GeneAction::EndTurn => {
                    // With every floor gassed there is nothing to vote for
                    // (rules.md §5).
                    if vitals.shadow || open_floors(world).is_empty() {
                        Ok(())
                    } else {
                        Err(no(
                            "the living end their turn by voting",
                            "存活玩家以投票结束回合",
                        ))
                    }
                }
                _ => Err(no("not now", "现在不能这样做")),
            }
        }
        _ => Err(no("not now", "现在不能这样做")),
    }
}

/// A card may be left only in a room that gives cards (「只能在可抽卡的房间
/// 进行」), and only a card the player holds.
fn leave_here(place: &Place, hand: &Hand, kind: ItemKind) -> Result<(), Rejection> {
    if place.0.is_none_or(|r| map().room(r).draws.is_empty()) {
        return Err(no(
            "cards may be left only in rooms that give cards",
            "只能在可抽卡的房间丢弃道具卡",
        ));
    }
    if !hand.cards.contains(&kind) {
        return Err(no("you hold no such card", "你没有这张卡"));
    }
    Ok(())
}

fn check_use(
    world: &World,
    seat: SeatId,
    kind: ItemKind,
    room: Option<RoomId>,
) -> Result<(), Rejection> {
    let at = Seated::new(world);
    let vitals = at.get::<Vitals>(seat);
    let doings = at.get::<Doings>(seat);
    if vitals.shadow {
        return Err(no("shadows hold no cards", "暗影没有道具卡"));
    }
    if !at.get::<Hand>(seat).cards.contains(&kind) {
        return Err(no("you hold no such card", "你没有这张卡"));
    }
    match kind {
        ItemKind::Water | ItemKind::Food | ItemKind::Gold => Err(no(
            "water and food are handed in at settlement, gold bars count at the end",
            "水和粮在结算时上交，金条在最后兑换",
        )),
        ItemKind::Adrenaline if doings.moved => Err(no(
            "adrenaline is used before moving",
            "肾上腺素须在移动前使用",
        )),
        // 「移动完毕后，可进行相应行动」: cards are used after moving
        // (adrenaline, which adds steps, is the written exception).
        ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Rocket if !doings.moved => {
            Err(no("move first", "请先移动"))
        }
        ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
            if state_cards_spent(world, seat) =>
        {
            let n = world.resource::<Settings<GeneGame>>().0.state_cards;
            Err(no(
                format!("at most {n} card(s) that change your state a round at this table"),
                format!("本桌每轮最多使用 {n} 张改变自身状态的卡"),
            ))
        }
        ItemKind::Rocket => match room {
            Some(r) if (r.0 as usize) < map().rooms.len() => Ok(()),
            _ => Err(no("name the room to fire at", "请指定火箭筒袭击的房间")),
        },
        _ => Ok(()),
    }
}
