//! Gene Survival's table state and its rules, as plain Rust over one
//! serializable resource: the systems in `game.rs` feed it accepted
//! actions and write out what it says. Work in progress (rules.md's status
//! line says what is built).

use std::collections::{BTreeMap, BTreeSet};

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::items::items;
use super::map::{FloorId, ItemKind, RoomFunction, RoomId, map};
use super::settle::{Genes, Standing, battle_losses, numbers, places};
use crate::table::{Rejection, Said, SeatId};
use crate::text::Bilingual;

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GenePhase {
    #[default]
    Idle,
    /// Everyone spends gene points and picks a spawn room, in secret.
    Setup,
    /// Order cards are dealt; players talk (and, later, trade) until ready.
    Free,
    /// Players act one at a time in order-card order.
    Action,
    GameOver,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneAction {
    /// Setup: the gene panel and the secret spawn room.
    Prepare { genes: Genes, spawn: RoomId },
    /// Free phase: done talking.
    Ready,
    /// Action phase, first: move to a room within speed.
    Move { to: RoomId },
    /// Action phase, after moving: draw a card this room gives.
    Draw { kind: ItemKind },
    /// Action phase, last for the living: the gas vote (ends the turn).
    Vote { floor: FloorId },
    /// Action phase: a shadow ends its turn after moving (the living too,
    /// once every floor is gassed).
    EndTurn,
    /// Action phase: uses a card. Adrenaline before moving; the others
    /// after; the rocket launcher names a room.
    Use {
        kind: ItemKind,
        room: Option<RoomId>,
    },
    /// Action phase, after moving, in a room that gives cards: leaves a card
    /// here.
    Discard { kind: ItemKind },
    /// Action phase, after moving: takes a card left in this room (the
    /// morgue's included) instead of drawing.
    Take { kind: ItemKind },
    /// Action phase, after moving, in the surgery: a new gene panel that
    /// moves at most `SURGERY_POINTS` points.
    Surgery { genes: Genes },
    /// Free phase: offers a trade to one player: these cards of mine (and,
    /// if `swap_order`, our order cards) for those cards of theirs. Replaces
    /// any earlier offer to the same player.
    Offer {
        to: SeatId,
        give: Vec<ItemKind>,
        want: Vec<ItemKind>,
        swap_order: bool,
    },
    /// Free phase: accepts the offer `from` made; the trade happens now.
    Accept { from: SeatId },
    /// Free phase: turns down the offer `from` made.
    Decline { from: SeatId },
    /// Free phase: takes back my offer to `to`.
    Withdraw { to: SeatId },
    /// Table talk: to everyone in the free phase; in the action phase only
    /// to those on the same side of the action room (rules.md §5).
    Chat { text: String },
}

/// A trade one player has offered another (free phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub from: SeatId,
    pub to: SeatId,
    pub give: Vec<ItemKind>,
    pub want: Vec<ItemKind>,
    pub swap_order: bool,
}

impl Offer {
    /// Whether the player offered this holds every card it asks for.
    pub fn can_be_met_by(&self, hand: &[ItemKind]) -> bool {
        holds_all(hand, &self.want)
    }
}

/// One announced line of a settlement: its step (1-7 as the seed numbers
/// them, 8 for the HP roll-call) and the rooms or floors it names, so a
/// client can play the settlement out on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettleLine {
    pub step: u8,
    pub round: u8,
    pub text: Bilingual,
    pub rooms: Vec<RoomId>,
    pub floors: Vec<FloorId>,
}

/// The longest chat line, in characters.
pub const CHAT_CHARS: usize = 200;
/// The most cards one side of a trade may name.
const TRADE_CARDS: usize = 12;

/// Gene points one surgery may move (rules.md §3).
pub const SURGERY_POINTS: u8 = 2;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub genes: Option<Genes>,
    pub hp: i32,
    pub room: Option<RoomId>,
    pub hand: Vec<ItemKind>,
    pub shadow: bool,
    /// HP drained while a shadow.
    pub drained: i32,
    /// Immune to gas and upkeep this round (the first after reviving).
    pub immune: bool,
    /// HP at the end of the previous round (ranks an all-shadow table).
    pub last_round_hp: i32,
    /// HP as the last settlement announced it: what everyone may know.
    pub public_hp: i32,
    pub ready: bool,
    pub moved: bool,
    pub drew: bool,
    pub vote: Option<FloorId>,
    pub acted: bool,
    /// This round's card effects: extra steps for the move, extra strength
    /// in battles, HP changed at settlement step 6.
    pub extra_speed: u32,
    pub extra_strength: i32,
    pub state_change: i32,
    /// Had a surgery this round.
    #[serde(default)]
    pub operated: bool,
    /// Cards the player must still leave in the room after a draw, a take
    /// or a surgery put them over their carry (rules.md §6).
    #[serde(default)]
    pub must_drop: u8,
    /// Medicine, alcohol and adrenaline used this round.
    #[serde(default)]
    pub state_cards: u8,
    /// The battles this player was in: round, room, HP it cost. What the
    /// player itself knows of who is stronger (rules.md §11).
    #[serde(default)]
    pub fought: Vec<(u8, RoomId, i32)>,
}

impl Player {
    fn new() -> Self {
        Self {
            genes: None,
            hp: numbers().start_hp,
            room: None,
            hand: Vec::new(),
            shadow: false,
            drained: 0,
            immune: false,
            last_round_hp: numbers().start_hp,
            public_hp: numbers().start_hp,
            ready: false,
            moved: false,
            drew: false,
            vote: None,
            acted: false,
            extra_speed: 0,
            extra_strength: 0,
            state_change: 0,
            operated: false,
            must_drop: 0,
            state_cards: 0,
            fought: Vec::new(),
        }
    }

    pub fn speed(&self) -> u32 {
        self.genes.map_or(0, |g| u32::from(g.speed)) + self.extra_speed
    }

    pub fn strength(&self) -> i32 {
        if self.shadow {
            0
        } else {
            self.genes.map_or(0, |g| i32::from(g.strength)) + self.extra_strength
        }
    }

    /// Takes the oldest cards over the carry out of the hand.
    fn surplus(&mut self) -> Vec<ItemKind> {
        let over = self.hand.len().saturating_sub(self.carry());
        self.hand.drain(..over).collect()
    }

    pub fn carry(&self) -> usize {
        if self.shadow {
            0
        } else {
            self.genes.map_or(0, |g| usize::from(g.carry))
        }
    }
}

#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneState {
    pub players: Vec<Player>,
    pub round: u8,
    /// Action order of this round (order cards, 1st first).
    pub order: Vec<SeatId>,
    /// Whose turn it is in the action phase (index into `order`).
    pub turn: usize,
    pub gassed: Vec<FloorId>,
    pub supply: Vec<ItemKind>,
    /// Cards lying in rooms (the morgue's included).
    pub piles: BTreeMap<RoomId, Vec<ItemKind>>,
    /// Rooms the rocket launcher was aimed at this round.
    pub rockets: Vec<RoomId>,
    /// Whether a surgery took place this round (settlement step 1).
    #[serde(default)]
    pub surgery: bool,
    /// Trades offered and not yet answered (free phase only).
    #[serde(default)]
    pub offers: Vec<Offer>,
    /// The last settlement, line by line, as it was announced.
    #[serde(default)]
    pub report: Vec<SettleLine>,
    /// The players' names, as the announcements use them.
    #[serde(default)]
    pub names: Vec<String>,
    /// The most medicine, alcohol and adrenaline one player may use in a
    /// round (setting `state_cards`; 0 = no limit).
    #[serde(default)]
    pub state_cards_limit: u8,
    pub over: bool,
}

fn no(en: impl Into<String>, zh: impl Into<String>) -> Rejection {
    Rejection::new(en, zh)
}

/// The refusal of an action its phase does not have, naming the real
/// reason (trades are closed, not "it is not your turn").
fn out_of_phase(phase: GenePhase, action: &GeneAction) -> Option<Rejection> {
    use GeneAction as A;
    use GenePhase as P;
    match (phase, action) {
        (P::GameOver, A::Chat { .. }) => None,
        (P::GameOver, _) => Some(Rejection::game_over()),
        (P::Idle, _) => Some(no("the game has not started", "游戏尚未开始")),
        (
            P::Setup | P::Action,
            A::Offer { .. } | A::Accept { .. } | A::Decline { .. } | A::Withdraw { .. },
        ) => Some(no(
            "trades are closed: cards change hands only in the free phase",
            "交易已关闭：卡牌交易仅限在自由阶段进行",
        )),
        (P::Free | P::Action, A::Prepare { .. }) => Some(no(
            "the set-up is over: genes change only by surgery",
            "设定阶段已结束：基因只能通过手术调整",
        )),
        (P::Setup | P::Action, A::Ready) => Some(no(
            "there is nothing to be ready for: players get ready in the free phase",
            "现在无需准备：准备只在自由阶段进行",
        )),
        (
            P::Setup | P::Free,
            A::Move { .. }
            | A::Draw { .. }
            | A::Take { .. }
            | A::Use { .. }
            | A::Surgery { .. }
            | A::Vote { .. }
            | A::EndTurn,
        ) => Some(no(
            "that is done in the action phase, in your turn",
            "这要在行动阶段轮到你时进行",
        )),
        (P::Setup, A::Discard { .. }) => Some(no(
            "you hold no cards before the game begins",
            "游戏开始前没有道具卡",
        )),
        _ => None,
    }
}

fn room_name(r: RoomId) -> Bilingual {
    map().room(r).name.clone()
}

fn floor_name(f: FloorId) -> Bilingual {
    map().floor_name(f)
}

/// Whether `hand` holds every card of `cards` (as many times as named).
fn holds_all(hand: &[ItemKind], cards: &[ItemKind]) -> bool {
    let mut left = hand.to_vec();
    cards.iter().all(|k| take(&mut left, *k))
}

fn card_list(cards: &[ItemKind]) -> Bilingual {
    if cards.is_empty() {
        return Bilingual::new("nothing", "无");
    }
    let names: Vec<&Bilingual> = cards.iter().map(|k| &items().get(*k).name).collect();
    Bilingual::new(
        names
            .iter()
            .map(|n| n.en.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        names
            .iter()
            .map(|n| n.zh.as_str())
            .collect::<Vec<_>>()
            .join("、"),
    )
}

impl GeneState {
    pub fn new(seats: usize, rng: &mut ChaCha8Rng) -> Self {
        let mut supply: Vec<ItemKind> = items()
            .items
            .iter()
            .flat_map(|i| std::iter::repeat_n(i.kind, i.supply as usize))
            .collect();
        supply.shuffle(rng);
        Self {
            players: (0..seats).map(|_| Player::new()).collect(),
            round: 0,
            order: Vec::new(),
            turn: 0,
            gassed: Vec::new(),
            supply,
            piles: BTreeMap::new(),
            rockets: Vec::new(),
            surgery: false,
            offers: Vec::new(),
            report: Vec::new(),
            names: (1..=seats).map(|n| format!("Seat {n}")).collect(),
            state_cards_limit: 0,
            over: false,
        }
    }

    /// A player's name as the announcements give it.
    pub fn name(&self, seat: SeatId) -> &str {
        self.names.get(seat.index()).map_or("?", String::as_str)
    }

    /// Who hears `seat` talk now, or why nobody does. In the action phase
    /// the player in the action room talks to no one, and those who have
    /// acted wait in the meeting room: 「行动结束的玩家将进入会议室等候，无法与
    /// 未行动的玩家交换信息」.
    pub fn audience(&self, phase: GenePhase, seat: SeatId) -> Result<Vec<SeatId>, Rejection> {
        let all = (0..self.players.len()).map(|i| SeatId(i as u8));
        match phase {
            GenePhase::Action => {
                if self.active() == Some(seat) {
                    return Err(no("you are alone in the action room", "你正独自在行动室里"));
                }
                let acted = self.player(seat).acted;
                Ok(all
                    .filter(|&s| self.player(s).acted == acted && self.active() != Some(s))
                    .collect())
            }
            _ => Ok(all.collect()),
        }
    }

    /// The offer `from` has made to `to`, if any.
    pub fn offer(&self, from: SeatId, to: SeatId) -> Option<&Offer> {
        self.offers.iter().find(|o| o.from == from && o.to == to)
    }

    /// Whether both sides of an offer still hold what it names.
    fn can_meet(&self, o: &Offer) -> bool {
        holds_all(&self.player(o.from).hand, &o.give) && holds_all(&self.player(o.to).hand, &o.want)
    }

    pub fn player(&self, seat: SeatId) -> &Player {
        &self.players[seat.index()]
    }

    pub fn living(&self) -> impl Iterator<Item = SeatId> + '_ {
        (0..self.players.len())
            .map(|i| SeatId(i as u8))
            .filter(|&s| !self.player(s).shadow)
    }

    pub fn active(&self) -> Option<SeatId> {
        self.order.get(self.turn).copied()
    }

    /// Seats the table waits on in `phase`.
    pub fn to_act(&self, phase: GenePhase) -> Vec<SeatId> {
        let all = (0..self.players.len()).map(|i| SeatId(i as u8));
        match phase {
            GenePhase::Setup => all.filter(|&s| self.player(s).genes.is_none()).collect(),
            // Not yet ready, or asked to answer a trade.
            GenePhase::Free => all
                .filter(|&s| !self.player(s).ready || self.offers.iter().any(|o| o.to == s))
                .collect(),
            GenePhase::Action => self.active().into_iter().collect(),
            GenePhase::Idle | GenePhase::GameOver => Vec::new(),
        }
    }

    /// The one place a Gene Survival action is judged.
    pub fn check(
        &self,
        phase: GenePhase,
        seat: SeatId,
        action: &GeneAction,
    ) -> Result<(), Rejection> {
        let me = self.player(seat);
        if let Some(refusal) = out_of_phase(phase, action) {
            return Err(refusal);
        }
        if phase == GenePhase::Action && me.must_drop > 0 {
            // 「将持有的道具卡数量调整至负重范围内」 comes first.
            match action {
                GeneAction::Discard { kind } if me.hand.contains(kind) => return Ok(()),
                GeneAction::Discard { .. } => {
                    return Err(no("you hold no such card", "你没有这张卡"));
                }
                GeneAction::Chat { .. } => {}
                _ => {
                    let n = me.must_drop;
                    return Err(no(
                        format!("you are over your carry: leave {n} card(s) here first"),
                        format!("你超出了负重：请先在这里丢弃 {n} 张道具卡"),
                    ));
                }
            }
        }
        match (phase, action) {
            (GenePhase::Setup, GeneAction::Prepare { genes, spawn }) => {
                if me.genes.is_some() {
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
                self.audience(phase, seat).map(|_| ())
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
                if to.index() >= self.players.len() || *to == seat {
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
                let them = self.player(*to);
                if (me.shadow || them.shadow) && !(give.is_empty() && want.is_empty()) {
                    return Err(no(
                        "shadows hold no cards: they trade order cards only",
                        "暗影不能持有道具卡，只能交易顺位卡",
                    ));
                }
                if !holds_all(&me.hand, give) {
                    return Err(no(
                        "you do not hold every card you offer",
                        "你没有你要给出的全部卡",
                    ));
                }
                Ok(())
            }
            (GenePhase::Free, GeneAction::Accept { from }) => match self.offer(*from, seat) {
                None => Err(no(
                    "that player has made you no offer",
                    "对方没有向你提出交易",
                )),
                Some(o) if !self.can_meet(o) => Err(no(
                    "the cards that offer names are no longer held: ask for a new one",
                    "这笔交易涉及的卡已不在手中，请重新提出交易",
                )),
                Some(_) => Ok(()),
            },
            (GenePhase::Free, GeneAction::Decline { from }) => match self.offer(*from, seat) {
                None => Err(no(
                    "that player has made you no offer",
                    "对方没有向你提出交易",
                )),
                Some(_) => Ok(()),
            },
            (GenePhase::Free, GeneAction::Withdraw { to }) => match self.offer(seat, *to) {
                None => Err(no(
                    "you have made that player no offer",
                    "你没有向对方提出交易",
                )),
                Some(_) => Ok(()),
            },
            (GenePhase::Free, GeneAction::Discard { kind }) => {
                // 「若持有的道具卡数量超过自身负重，则需要该阶段结束时调整至负重范围内」:
                // in the free phase only a player over the carry may drop
                // cards, and only down to it; and 「只能在可抽卡的房间进行」.
                if me.hand.len() <= me.carry() {
                    return Err(no(
                        "in the free phase you drop cards only to get back within your carry",
                        "自由阶段只有超出负重时才能丢弃道具卡",
                    ));
                }
                if me.room.is_none_or(|r| map().room(r).draws.is_empty()) {
                    return Err(no(
                        "cards may be left only in rooms that give cards",
                        "只能在可抽卡的房间丢弃道具卡",
                    ));
                }
                if !me.hand.contains(kind) {
                    return Err(no("you hold no such card", "你没有这张卡"));
                }
                Ok(())
            }
            (GenePhase::Free, GeneAction::Ready) => {
                if me.ready {
                    Err(no("you are ready already", "你已经准备好了"))
                } else {
                    Ok(())
                }
            }
            (GenePhase::Action, a) => {
                if self.active() != Some(seat) {
                    return Err(Rejection::not_your_turn());
                }
                match a {
                    GeneAction::Move { to } => {
                        if me.moved {
                            return Err(no("you have moved this round", "你本轮已经移动过了"));
                        }
                        let from = me.room.expect("a player in play has a room");
                        if !map().destinations(from, me.speed(), me.shadow).contains(to) {
                            return Err(no(
                                "that room is not within your speed (and you must leave this one)",
                                "那个房间不在你的速度范围内（而且你必须离开当前房间）",
                            ));
                        }
                        Ok(())
                    }
                    GeneAction::Use { kind, room } => self.check_use(seat, *kind, *room),
                    _ if !me.moved => Err(no("move first", "请先移动")),
                    GeneAction::Take { kind } => {
                        if me.shadow {
                            return Err(no("shadows cannot take cards", "暗影不能拿取道具卡"));
                        }
                        if me.drew {
                            return Err(no("you have drawn this round", "你本轮已经抽过卡了"));
                        }
                        let room = me.room.expect("placed");
                        if !self.piles.get(&room).is_some_and(|p| p.contains(kind)) {
                            return Err(no("no such card lies here", "这里没有这张卡"));
                        }
                        Ok(())
                    }
                    GeneAction::Surgery { genes } => {
                        let old = me.genes.expect("prepared");
                        if me.shadow {
                            return Err(no("shadows cannot use rooms", "暗影不能使用房间功能"));
                        }
                        if map().room(me.room.expect("placed")).function
                            != Some(RoomFunction::Surgery)
                        {
                            return Err(no(
                                "surgery happens in the surgery",
                                "手术只能在手术室进行",
                            ));
                        }
                        if me.operated {
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
                    GeneAction::Discard { kind } => {
                        let room = map().room(me.room.expect("placed"));
                        if room.draws.is_empty() {
                            return Err(no(
                                "cards may be left only in rooms that give cards",
                                "只能在可抽卡的房间丢弃道具卡",
                            ));
                        }
                        if !me.hand.contains(kind) {
                            return Err(no("you hold no such card", "你没有这张卡"));
                        }
                        Ok(())
                    }
                    GeneAction::Draw { kind } => {
                        if me.shadow {
                            return Err(no("shadows cannot draw", "暗影不能抽卡"));
                        }
                        if me.drew {
                            return Err(no("you have drawn this round", "你本轮已经抽过卡了"));
                        }
                        let room = map().room(me.room.expect("placed"));
                        if !room.draws.contains(kind) {
                            return Err(no(
                                "this room does not give that card",
                                "这个房间不能抽这种卡",
                            ));
                        }
                        if !self.supply.contains(kind) {
                            return Err(no("none of those are left", "这种卡已经没有了"));
                        }
                        Ok(())
                    }
                    GeneAction::Vote { floor } => {
                        if me.shadow {
                            return Err(no("shadows do not vote", "暗影不能投票"));
                        }
                        if !map().floors().contains(floor) {
                            return Err(no("there is no such floor", "没有这个楼层"));
                        }
                        if self.gassed.contains(floor) {
                            return Err(no(
                                "that floor is gassed already: it cannot be voted again",
                                "该楼层已经是毒气楼层，不能重复被投",
                            ));
                        }
                        Ok(())
                    }
                    GeneAction::EndTurn => {
                        // With every floor gassed there is nothing to vote
                        // for (rules.md §5).
                        if me.shadow || self.open_floors().is_empty() {
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

    /// Whether the seat has used as many state-changing cards this round as
    /// the table allows.
    pub fn state_cards_spent(&self, seat: SeatId) -> bool {
        let limit = self.state_cards_limit;
        limit > 0 && self.player(seat).state_cards >= limit
    }

    fn check_use(
        &self,
        seat: SeatId,
        kind: ItemKind,
        room: Option<RoomId>,
    ) -> Result<(), Rejection> {
        let me = self.player(seat);
        if me.shadow {
            return Err(no("shadows hold no cards", "暗影没有道具卡"));
        }
        if !me.hand.contains(&kind) {
            return Err(no("you hold no such card", "你没有这张卡"));
        }
        match kind {
            ItemKind::Water | ItemKind::Food | ItemKind::Gold => Err(no(
                "water and food are handed in at settlement, gold bars count at the end",
                "水和粮在结算时上交，金条在最后兑换",
            )),
            ItemKind::Adrenaline if me.moved => Err(no(
                "adrenaline is used before moving",
                "肾上腺素须在移动前使用",
            )),
            // 「移动完毕后，可进行相应行动」: cards are used after moving
            // (adrenaline, which adds steps, is the written exception).
            ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Rocket if !me.moved => {
                Err(no("move first", "请先移动"))
            }
            ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
                if self.state_cards_spent(seat) =>
            {
                let n = self.state_cards_limit;
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

    /// Applies an accepted action; returns the next phase if it changes.
    pub fn apply(
        &mut self,
        seat: SeatId,
        action: &GeneAction,
        rng: &mut ChaCha8Rng,
        said: &mut Vec<Said>,
    ) -> Option<GenePhase> {
        let i = seat.index();
        match action {
            GeneAction::Prepare { genes, spawn } => {
                self.players[i].genes = Some(*genes);
                self.players[i].room = Some(*spawn);
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!("You start in {}.", room_name(*spawn).en),
                        format!("你的出生房间是{}。", room_name(*spawn).zh),
                    ),
                ));
                if self.players.iter().all(|p| p.genes.is_some()) {
                    return Some(self.begin_round(rng, said));
                }
                None
            }
            GeneAction::Ready => {
                self.players[i].ready = true;
                if self.players.iter().all(|p| p.ready) {
                    self.end_free_phase(said);
                    return Some(GenePhase::Action);
                }
                None
            }
            GeneAction::Move { to } => {
                self.players[i].room = Some(*to);
                self.players[i].moved = true;
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!("You moved to {}.", room_name(*to).en),
                        format!("你移动到了{}。", room_name(*to).zh),
                    ),
                ));
                None
            }
            GeneAction::Draw { kind } => {
                let at = self.supply.iter().position(|k| k == kind).expect("judged");
                self.supply.remove(at);
                self.receive(seat, *kind, Bilingual::new("drew", "抽到了"), said);
                None
            }
            GeneAction::Vote { floor } => {
                self.players[i].vote = Some(*floor);
                self.end_turn(rng, said)
            }
            GeneAction::EndTurn => self.end_turn(rng, said),
            GeneAction::Use { kind, room } => {
                let p = &mut self.players[i];
                take(&mut p.hand, *kind);
                if matches!(
                    kind,
                    ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
                ) {
                    p.state_cards += 1;
                }
                match kind {
                    ItemKind::Medicine => p.state_change += 3,
                    ItemKind::Alcohol => {
                        p.extra_strength += 2;
                        p.state_change -= 1;
                    }
                    ItemKind::Adrenaline => {
                        p.extra_speed += 2;
                        p.state_change += 1;
                    }
                    ItemKind::Rocket => self.rockets.extend(*room),
                    ItemKind::Water | ItemKind::Food | ItemKind::Gold => {}
                }
                let name = &items().get(*kind).name;
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!("You used {}.", name.en),
                        format!("你使用了{}。", name.zh),
                    ),
                ));
                None
            }
            GeneAction::Take { kind } => {
                let room = self.players[i].room.expect("placed");
                let pile = self.piles.entry(room).or_default();
                let at = pile.iter().position(|k| k == kind).expect("judged");
                pile.remove(at);
                self.receive(seat, *kind, Bilingual::new("took", "拿取了"), said);
                None
            }
            GeneAction::Surgery { genes } => {
                let p = &mut self.players[i];
                p.genes = Some(*genes);
                p.operated = true;
                self.surgery = true;
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!(
                            "Surgery done: strength {}, speed {}, carry {}.",
                            genes.strength, genes.speed, genes.carry
                        ),
                        format!(
                            "手术完成：武力 {}，速度 {}，负重 {}。",
                            genes.strength, genes.speed, genes.carry
                        ),
                    ),
                ));
                // A smaller carry: the surplus is left here.
                self.over_carry(seat, said);
                None
            }
            GeneAction::Discard { kind } => {
                let p = &mut self.players[i];
                let room = p.room.expect("placed");
                take(&mut p.hand, *kind);
                p.must_drop = p.must_drop.saturating_sub(1);
                self.piles.entry(room).or_default().push(*kind);
                None
            }
            GeneAction::Offer {
                to,
                give,
                want,
                swap_order,
            } => {
                self.offers.retain(|o| !(o.from == seat && o.to == *to));
                let offer = Offer {
                    from: seat,
                    to: *to,
                    give: give.clone(),
                    want: want.clone(),
                    swap_order: *swap_order,
                };
                let (g, w) = (card_list(give), card_list(want));
                let (oe, oz) = if *swap_order {
                    (" and order cards swapped", "，并交换顺位卡")
                } else {
                    ("", "")
                };
                said.push(Said::To(
                    *to,
                    Bilingual::new(
                        format!("{} offers you {} for {}{oe}.", self.name(seat), g.en, w.en),
                        format!(
                            "{}提出交易：给你{}，换你的{}{oz}。",
                            self.name(seat),
                            g.zh,
                            w.zh
                        ),
                    ),
                ));
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!("You offered {} {} for {}{oe}.", self.name(*to), g.en, w.en),
                        format!(
                            "你向{}提出交易：给出{}，换取{}{oz}。",
                            self.name(*to),
                            g.zh,
                            w.zh
                        ),
                    ),
                ));
                self.offers.push(offer);
                None
            }
            GeneAction::Accept { from } => {
                let at = self
                    .offers
                    .iter()
                    .position(|o| o.from == *from && o.to == seat)
                    .expect("judged");
                let o = self.offers.remove(at);
                self.trade(&o, said);
                None
            }
            GeneAction::Decline { from } => {
                self.offers.retain(|o| !(o.from == *from && o.to == seat));
                said.push(Said::To(
                    *from,
                    Bilingual::new(
                        format!("{} turned down your offer.", self.name(seat)),
                        format!("{}拒绝了你的交易。", self.name(seat)),
                    ),
                ));
                None
            }
            GeneAction::Withdraw { to } => {
                self.offers.retain(|o| !(o.from == seat && o.to == *to));
                said.push(Said::To(
                    *to,
                    Bilingual::new(
                        format!("{} took back their offer.", self.name(seat)),
                        format!("{}撤回了交易。", self.name(seat)),
                    ),
                ));
                None
            }
            // Chat is delivered by the table (it knows the audience).
            GeneAction::Chat { .. } => None,
        }
    }

    /// Carries out an accepted trade; offers it leaves unmeetable lapse.
    fn trade(&mut self, o: &Offer, said: &mut Vec<Said>) {
        for k in &o.give {
            take(&mut self.players[o.from.index()].hand, *k);
            self.players[o.to.index()].hand.push(*k);
        }
        for k in &o.want {
            take(&mut self.players[o.to.index()].hand, *k);
            self.players[o.from.index()].hand.push(*k);
        }
        if o.swap_order {
            for s in &mut self.order {
                if *s == o.from {
                    *s = o.to;
                } else if *s == o.to {
                    *s = o.from;
                }
            }
        }
        for (me, them, got, gave) in [
            (o.from, o.to, &o.want, &o.give),
            (o.to, o.from, &o.give, &o.want),
        ] {
            let (g, r) = (card_list(gave), card_list(got));
            let mut line = Bilingual::new(
                format!(
                    "Trade with {} done: you gave {}, got {}.",
                    self.name(them),
                    g.en,
                    r.en
                ),
                format!(
                    "与{}的交易完成：你给出{}，得到{}。",
                    self.name(them),
                    g.zh,
                    r.zh
                ),
            );
            if o.swap_order {
                let n = self
                    .order
                    .iter()
                    .position(|s| *s == me)
                    .map_or(0, |n| n + 1);
                line.en.push_str(&format!(" Your order card is now {n}."));
                line.zh.push_str(&format!("你的顺位卡现在是 {n}。"));
            }
            said.push(Said::To(me, line));
        }
        let lapsed: Vec<Offer> = self
            .offers
            .iter()
            .filter(|x| !self.can_meet(x))
            .cloned()
            .collect();
        self.offers.retain(|x| !lapsed.contains(x));
        for x in lapsed {
            for s in [x.from, x.to] {
                let other = if s == x.from { x.to } else { x.from };
                said.push(Said::To(
                    s,
                    Bilingual::new(
                        format!(
                            "The offer between you and {} lapsed: its cards changed hands.",
                            self.name(other)
                        ),
                        format!("你与{}之间的交易已失效：相关的卡已易手。", self.name(other)),
                    ),
                ));
            }
        }
    }

    /// A drawn or taken card reaches the hand (the turn's one draw), the
    /// player is told, and the carry is checked.
    fn receive(&mut self, seat: SeatId, kind: ItemKind, verb: Bilingual, said: &mut Vec<Said>) {
        let p = &mut self.players[seat.index()];
        p.hand.push(kind);
        p.drew = true;
        let name = &items().get(kind).name;
        said.push(Said::To(
            seat,
            Bilingual::new(
                format!("You {} {}.", verb.en, name.en),
                format!("你{}{}。", verb.zh, name.zh),
            ),
        ));
        self.over_carry(seat, said);
    }

    /// After a draw, a take or a surgery: 「将持有的道具卡数量调整至负重范围内，
    /// 多出的道具卡将丢弃在该房间」. The player chooses what to leave, unless
    /// every card held is of one kind (then the surplus is left at once).
    fn over_carry(&mut self, seat: SeatId, said: &mut Vec<Said>) {
        let p = &mut self.players[seat.index()];
        let surplus = p.hand.len().saturating_sub(p.carry());
        if surplus == 0 {
            return;
        }
        if p.hand.iter().all(|k| *k == p.hand[0]) {
            self.drop_oldest(seat, said);
            return;
        }
        p.must_drop = surplus as u8;
        said.push(Said::To(
            seat,
            Bilingual::new(
                format!("You are over your carry: choose {surplus} card(s) to leave here."),
                format!("你超出了负重：请选择 {surplus} 张道具卡留在这里。"),
            ),
        ));
    }

    /// Leaves the oldest cards over the carry in the player's room (the
    /// referee's default when the player does not choose in time).
    pub fn drop_oldest(&mut self, seat: SeatId, said: &mut Vec<Said>) {
        let p = &mut self.players[seat.index()];
        p.must_drop = 0;
        let Some(room) = p.room else { return };
        let dropped = p.surplus();
        if dropped.is_empty() {
            return;
        }
        let list = card_list(&dropped);
        self.piles.entry(room).or_default().extend(dropped);
        said.push(Said::To(
            seat,
            Bilingual::new(
                format!(
                    "Over your carry: {} left in {}.",
                    list.en,
                    room_name(room).en
                ),
                format!("超出负重：{}留在了{}。", list.zh, room_name(room).zh),
            ),
        ));
    }

    /// The free phase ends: unanswered offers lapse, and whoever still
    /// carries too much loses the oldest surplus (rules.md §5): left lying
    /// in a room that gives cards, handed back to the supply anywhere else
    /// (cards are left only where cards are drawn).
    pub fn end_free_phase(&mut self, said: &mut Vec<Said>) {
        self.offers.clear();
        for i in 0..self.players.len() {
            let p = &mut self.players[i];
            let Some(room) = p.room else { continue };
            let dropped = p.surplus();
            if dropped.is_empty() {
                continue;
            }
            let list = card_list(&dropped);
            let line = if map().room(room).draws.is_empty() {
                self.supply.extend(dropped);
                Bilingual::new(
                    format!(
                        "Over your carry: the referee took back {} (cards are left only in rooms that give cards).",
                        list.en
                    ),
                    format!(
                        "超出负重：裁判收回了{}（只能在可抽卡的房间丢弃道具卡）。",
                        list.zh
                    ),
                )
            } else {
                self.piles.entry(room).or_default().extend(dropped);
                Bilingual::new(
                    format!(
                        "Over your carry: you left {} in {}.",
                        list.en,
                        room_name(room).en
                    ),
                    format!("超出负重：你把{}留在了{}。", list.zh, room_name(room).zh),
                )
            };
            said.push(Said::To(SeatId(i as u8), line));
        }
        let order: Vec<String> = self
            .order
            .iter()
            .map(|s| self.name(*s).to_string())
            .collect();
        said.push(Said::All(Bilingual::new(
            format!("The action phase begins. Order: {}.", order.join(", ")),
            format!("行动阶段开始。行动顺序：{}。", order.join("、")),
        )));
    }

    /// A phase's time ran out: the referee does what the waiting players did
    /// not (rules.md §10). Returns the next phase if it changes.
    pub fn time_out(
        &mut self,
        phase: GenePhase,
        rng: &mut ChaCha8Rng,
        said: &mut Vec<Said>,
    ) -> Option<GenePhase> {
        match phase {
            GenePhase::Setup => {
                let spawns: Vec<RoomId> = map().spawn_rooms().collect();
                for i in 0..self.players.len() {
                    if self.players[i].genes.is_some() {
                        continue;
                    }
                    let spawn = *spawns.choose(rng).expect("a map has spawn rooms");
                    let genes = Genes::balanced(numbers().gene_points);
                    self.players[i].genes = Some(genes);
                    self.players[i].room = Some(spawn);
                    said.push(Said::To(
                        SeatId(i as u8),
                        Bilingual::new(
                            format!(
                                "Time is up: you get strength {}, speed {}, carry {} and start in {}.",
                                genes.strength,
                                genes.speed,
                                genes.carry,
                                room_name(spawn).en
                            ),
                            format!(
                                "时间到：系统为你分配武力 {}、速度 {}、负重 {}，出生在{}。",
                                genes.strength,
                                genes.speed,
                                genes.carry,
                                room_name(spawn).zh
                            ),
                        ),
                    ));
                }
                Some(self.begin_round(rng, said))
            }
            GenePhase::Free => {
                said.push(Said::All(Bilingual::new(
                    "Time is up for the free phase.",
                    "自由阶段时间到。",
                )));
                for p in &mut self.players {
                    p.ready = true;
                }
                self.end_free_phase(said);
                Some(GenePhase::Action)
            }
            GenePhase::Action => {
                let seat = self.active()?;
                let i = seat.index();
                said.push(Said::All(Bilingual::new(
                    format!("{} ran out of time.", self.name(seat)),
                    format!("{}超时。", self.name(seat)),
                )));
                if self.players[i].must_drop > 0 {
                    self.drop_oldest(seat, said);
                }
                if !self.players[i].moved {
                    // Everyone must move: the referee picks a room in reach.
                    let p = &self.players[i];
                    let options = map().destinations(p.room.expect("placed"), p.speed(), p.shadow);
                    if let Some(&to) = options.choose(rng) {
                        self.apply(seat, &GeneAction::Move { to }, rng, said);
                    }
                }
                // No vote is cast for a player who ran out of time.
                self.end_turn(rng, said)
            }
            GenePhase::Idle | GenePhase::GameOver => None,
        }
    }

    fn end_turn(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> Option<GenePhase> {
        if let Some(s) = self.active() {
            self.players[s.index()].acted = true;
        }
        self.turn += 1;
        if self.turn < self.order.len() {
            return None;
        }
        self.settle(said);
        if self.over {
            return Some(GenePhase::GameOver);
        }
        Some(self.begin_round(rng, said))
    }

    /// Deals order cards for the next round.
    pub(crate) fn begin_round(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> GenePhase {
        self.round += 1;
        let mut order: Vec<SeatId> = (0..self.players.len()).map(|i| SeatId(i as u8)).collect();
        order.shuffle(rng);
        for (n, s) in order.iter().enumerate() {
            said.push(Said::To(
                *s,
                Bilingual::new(
                    format!("Round {}: your order card is {}.", self.round, n + 1),
                    format!("第 {} 轮：你的顺位卡是 {}。", self.round, n + 1),
                ),
            ));
        }
        self.order = order;
        self.turn = 0;
        for p in &mut self.players {
            p.ready = false;
            p.moved = false;
            p.drew = false;
            p.vote = None;
            p.acted = false;
            p.extra_speed = 0;
            p.extra_strength = 0;
            p.state_change = 0;
            p.operated = false;
            p.must_drop = 0;
            p.state_cards = 0;
        }
        self.rockets.clear();
        self.surgery = false;
        self.offers.clear();
        said.push(Said::All(Bilingual::new(
            format!("Round {} begins: the free phase.", self.round),
            format!("第 {} 轮开始：自由阶段。", self.round),
        )));
        GenePhase::Free
    }

    /// The settlement, announced in the seed's order. HP changes step by
    /// step: 「若在任意结算过程中，有玩家的生命值归零，则会公示成为暗影」.
    fn settle(&mut self, said: &mut Vec<Said>) {
        let n = numbers();
        let round = self.round;
        let seats = self.players.len();
        let mut report = Vec::new();
        // 1. Whether a surgery took place (not who, not what).
        let text = if self.surgery {
            Bilingual::new("A surgery took place.", "手术室进行了手术。")
        } else {
            Bilingual::new("No surgery this round.", "本轮没有进行手术。")
        };
        line(&mut report, said, 1, text, vec![], vec![]);
        // 2. Battles, brawls, shadows meeting the living (room names only).
        let mut rooms: BTreeMap<RoomId, Vec<usize>> = BTreeMap::new();
        for (i, p) in self.players.iter().enumerate() {
            if let Some(r) = p.room {
                rooms.entry(r).or_default().push(i);
            }
        }
        let mut loss = vec![0i32; seats];
        let mut events = Vec::new();
        for (room, here) in &rooms {
            let (shadows, living): (Vec<usize>, Vec<usize>) =
                here.iter().partition(|&&i| self.players[i].shadow);
            if living.len() >= 2 {
                let strengths: Vec<i32> =
                    living.iter().map(|&i| self.players[i].strength()).collect();
                for (k, l) in battle_losses(&strengths).into_iter().enumerate() {
                    loss[living[k]] += l;
                    self.players[living[k]].fought.push((round, *room, l));
                }
                let (en, zh) = if living.len() == 2 {
                    ("a battle", "战斗")
                } else {
                    ("a brawl", "乱斗")
                };
                events.push((
                    Bilingual::new(
                        format!("There was {en} in {}.", room_name(*room).en),
                        format!("{}发生{zh}。", room_name(*room).zh),
                    ),
                    *room,
                ));
            }
            if !living.is_empty() && !shadows.is_empty() {
                for &l in &living {
                    loss[l] += shadows.len() as i32;
                }
                for &sh in &shadows {
                    self.players[sh].drained += living.len() as i32;
                }
                events.push((
                    Bilingual::new(
                        format!("A shadow met the living in {}.", room_name(*room).en),
                        format!("{}有暗影与人相遇。", room_name(*room).zh),
                    ),
                    *room,
                ));
            }
        }
        if events.is_empty() {
            let text = Bilingual::new("No battles this round.", "本轮没有战斗。");
            line(&mut report, said, 2, text, vec![], vec![]);
        }
        for (text, room) in events {
            line(&mut report, said, 2, text, vec![room], vec![]);
        }
        let mut fallen = Vec::new();
        self.hurt(&loss, &mut fallen, said, &mut report, 2);
        if self.decided() {
            return self.end_settlement(report, said);
        }
        // 3. The new gas floor(s): most votes; every floor tied at the top.
        let mut votes: BTreeMap<FloorId, u32> = BTreeMap::new();
        for p in &self.players {
            if let Some(f) = p.vote {
                *votes.entry(f).or_default() += 1;
            }
        }
        if let Some(&top) = votes.values().max() {
            for (f, v) in &votes {
                if *v == top && !self.gassed.contains(f) {
                    self.gassed.push(*f);
                    let text = Bilingual::new(
                        format!("{} is now gassed.", floor_name(*f).en),
                        format!("{}成为毒气楼层。", floor_name(*f).zh),
                    );
                    line(&mut report, said, 3, text, vec![], vec![*f]);
                }
            }
        }
        let gas = n.gas(round);
        let loss: Vec<i32> = self
            .players
            .iter()
            .map(|p| {
                let on_gas = p
                    .room
                    .is_some_and(|r| self.gassed.contains(&map().room(r).floor));
                if !p.shadow && !p.immune && on_gas {
                    gas
                } else {
                    0
                }
            })
            .collect();
        self.hurt(&loss, &mut fallen, said, &mut report, 3);
        if self.decided() {
            return self.end_settlement(report, said);
        }
        // 4. Upkeep from round 2: one water and one food.
        let mut loss = vec![0; seats];
        for (i, p) in self.players.iter_mut().enumerate() {
            if p.shadow || p.immune || round < n.upkeep_from_round {
                continue;
            }
            let water = take(&mut p.hand, ItemKind::Water);
            let food = take(&mut p.hand, ItemKind::Food);
            loss[i] = n.upkeep_loss(round, water, food);
        }
        self.hurt(&loss, &mut fallen, said, &mut report, 4);
        if self.decided() {
            return self.end_settlement(report, said);
        }
        // 5. The rooms the rocket launcher hit: every living player there.
        let mut loss = vec![0; seats];
        for r in std::mem::take(&mut self.rockets) {
            let text = Bilingual::new(
                format!("A rocket hit {}.", room_name(r).en),
                format!("火箭筒袭击了{}。", room_name(r).zh),
            );
            line(&mut report, said, 5, text, vec![r], vec![]);
            for (i, p) in self.players.iter().enumerate() {
                if !p.shadow && p.room == Some(r) {
                    loss[i] += 3;
                }
            }
        }
        self.hurt(&loss, &mut fallen, said, &mut report, 5);
        if self.decided() {
            return self.end_settlement(report, said);
        }
        // 6. Whether anyone changed their own state with medicine, alcohol
        // or adrenaline: 「是否有玩家……改变自身状态」 (whether, not who).
        let mut loss = vec![0; seats];
        let mut changed = false;
        for (i, p) in self.players.iter().enumerate() {
            if p.state_change != 0 || p.extra_strength != 0 || p.extra_speed != 0 {
                changed = true;
                if !p.shadow {
                    loss[i] = -p.state_change;
                }
            }
        }
        let text = if changed {
            Bilingual::new(
                "Someone changed their own state with medicine, alcohol or adrenaline.",
                "有玩家使用药品、酒或肾上腺素改变了自身状态。",
            )
        } else {
            Bilingual::new(
                "Nobody changed their own state this round.",
                "本轮没有玩家改变自身状态。",
            )
        };
        line(&mut report, said, 6, text, vec![], vec![]);
        self.hurt(&loss, &mut fallen, said, &mut report, 6);
        if self.decided() {
            return self.end_settlement(report, said);
        }
        // 7. Shadows that drained 2 or more revive, with their old panel.
        for (i, p) in self.players.iter_mut().enumerate() {
            p.immune = false;
            if p.shadow && !fallen.contains(&i) && p.drained >= n.revive_after_drained {
                p.shadow = false;
                p.hp = n.revive_hp;
                p.drained = 0;
                p.immune = true;
                let text = Bilingual::new(
                    format!("{} revived.", self.names[i]),
                    format!("{}复活了。", self.names[i]),
                );
                line(&mut report, said, 7, text, vec![], vec![]);
            }
        }
        self.end_settlement(report, said);
    }

    /// 「若任意轮次中只剩1名玩家存活，则该玩家直接获胜，游戏立即结束」 (and a
    /// table of shadows ends too): checked after every settlement step.
    fn decided(&self) -> bool {
        self.living().count() <= 1
    }

    /// The end of a settlement, after its last step or the step that
    /// decided the game: every HP is announced, and the game ends or the
    /// living remember this round's HP (rules.md §8).
    fn end_settlement(&mut self, mut report: Vec<SettleLine>, said: &mut Vec<Said>) {
        let round = self.round;
        let decided = self.decided();
        if decided && let Some(last) = self.living().next() {
            let name = self.names.get(last.index()).cloned().unwrap_or_default();
            let text = Bilingual::new(
                format!("{name} is the last one living and wins at once."),
                format!("只剩{name}存活，直接获胜。"),
            );
            line(&mut report, said, 8, text, vec![], vec![]);
        }
        // Every player's HP is public after the settlement.
        for p in &mut self.players {
            p.public_hp = p.hp;
        }
        let hps: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {}", self.names[i], p.hp))
            .collect();
        let text = Bilingual::new(
            format!("HP after round {round}: {}", hps.join(" · ")),
            format!("第 {round} 轮后的生命值：{}", hps.join(" · ")),
        );
        line(&mut report, said, 8, text, vec![], vec![]);
        for l in &mut report {
            l.round = round;
        }
        self.report = report;
        if round >= numbers().rounds || decided {
            self.finish(said);
        } else {
            // 「根据各自生前一轮的生命值进行排名」: a shadow keeps the HP of
            // the last round it ended alive.
            for p in self.players.iter_mut().filter(|p| !p.shadow) {
                p.last_round_hp = p.hp;
            }
        }
    }

    /// Applies one step's HP changes (a negative loss heals, up to the
    /// maximum); a player at 0 becomes a shadow at once, and their cards go
    /// to the morgue.
    fn hurt(
        &mut self,
        loss: &[i32],
        fallen: &mut Vec<usize>,
        said: &mut Vec<Said>,
        report: &mut Vec<SettleLine>,
        step: u8,
    ) {
        let max = numbers().max_hp;
        let morgue = map().morgue();
        for (i, &l) in loss.iter().enumerate() {
            let p = &mut self.players[i];
            if p.shadow || l == 0 {
                continue;
            }
            p.hp = (p.hp - l).min(max);
            if p.hp <= 0 {
                p.hp = 0;
                p.shadow = true;
                p.drained = 0;
                p.room = Some(morgue);
                let cards = std::mem::take(&mut p.hand);
                self.piles.entry(morgue).or_default().extend(cards);
                fallen.push(i);
                let text = Bilingual::new(
                    format!("{} became a shadow.", self.names[i]),
                    format!("{}成为暗影。", self.names[i]),
                );
                line(report, said, step, text, vec![], vec![]);
            }
        }
    }

    fn finish(&mut self, said: &mut Vec<Said>) {
        if self.round >= numbers().rounds {
            // Gold bars become HP.
            for p in &mut self.players {
                if !p.shadow {
                    let gold = p.hand.iter().filter(|k| **k == ItemKind::Gold).count() as i32;
                    p.hp += gold;
                }
            }
        }
        self.over = true;
        said.push(Said::All(Bilingual::new("The game is over.", "游戏结束。")));
    }

    /// Final places (1 = first), once over.
    pub fn places(&self) -> Vec<u8> {
        let everyone_shadow = self.living().count() == 0;
        let standings: Vec<Standing> = self
            .players
            .iter()
            .map(|p| Standing {
                alive: !p.shadow || everyone_shadow,
                hp: if everyone_shadow {
                    p.last_round_hp
                } else {
                    p.hp
                },
                strength: p.genes.map_or(0, |g| g.strength),
            })
            .collect();
        places(&standings)
    }

    /// Every floor a living player may still vote for.
    pub fn open_floors(&self) -> Vec<FloorId> {
        map()
            .floors()
            .into_iter()
            .filter(|f| !self.gassed.contains(f))
            .collect()
    }

    /// Kinds of card lying in the seat's room.
    pub fn lying_here(&self, seat: SeatId) -> Vec<ItemKind> {
        let Some(r) = self.player(seat).room else {
            return Vec::new();
        };
        let kinds: BTreeSet<ItemKind> = self.piles.get(&r).into_iter().flatten().copied().collect();
        kinds.into_iter().collect()
    }

    pub fn kinds_here(&self, seat: SeatId) -> Vec<ItemKind> {
        let p = self.player(seat);
        let Some(r) = p.room else { return Vec::new() };
        let present: BTreeSet<ItemKind> = self.supply.iter().copied().collect();
        map()
            .room(r)
            .draws
            .iter()
            .copied()
            .filter(|k| present.contains(k))
            .collect()
    }
}

/// Announces a settlement line and keeps it for the report.
fn line(
    report: &mut Vec<SettleLine>,
    said: &mut Vec<Said>,
    step: u8,
    text: Bilingual,
    rooms: Vec<RoomId>,
    floors: Vec<FloorId>,
) {
    said.push(Said::All(text.clone()));
    report.push(SettleLine {
        step,
        round: 0,
        text,
        rooms,
        floors,
    });
}

fn take(hand: &mut Vec<ItemKind>, kind: ItemKind) -> bool {
    match hand.iter().position(|k| *k == kind) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}
