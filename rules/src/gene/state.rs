//! Gene Survival's table state and its rules, as plain Rust over one
//! serializable resource: the systems in `game.rs` feed it accepted
//! actions and write out what it says. Work in progress (rules.md's status
//! line says what is built).

use std::collections::{BTreeMap, BTreeSet};

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::items::items;
use super::map::{FloorId, ItemKind, RoomFunction, RoomId, map};
use super::settle::{Genes, Standing, battle_losses, numbers, places};
use crate::table::{Rejection, SeatId};
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
}

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

    pub fn carry(&self) -> usize {
        if self.shadow {
            0
        } else {
            self.genes.map_or(0, |g| usize::from(g.carry))
        }
    }
}

/// What the referee says while applying a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    All(Bilingual),
    To(SeatId, Bilingual),
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
    pub over: bool,
}

fn no(en: impl Into<String>, zh: impl Into<String>) -> Rejection {
    Rejection::new(en, zh)
}

fn room_name(r: RoomId) -> Bilingual {
    map().room(r).name.clone()
}

fn floor_name(f: FloorId) -> Bilingual {
    let b = &map().buildings[f.building as usize];
    Bilingual::new(
        format!("{} floor {}", b.en, f.floor),
        format!("{}{}层", b.zh, f.floor),
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
            over: false,
        }
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
            GenePhase::Free => all.filter(|&s| !self.player(s).ready).collect(),
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
            ItemKind::Medicine | ItemKind::Alcohol if !me.moved => {
                Err(no("move first", "请先移动"))
            }
            ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
                if me.state_change != 0 || me.extra_strength != 0 || me.extra_speed != 0 =>
            {
                Err(no(
                    "one card that changes your state a round",
                    "每轮只能使用一张改变自身状态的卡",
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
                    said.push(Said::All(Bilingual::new(
                        "The action phase begins.",
                        "行动阶段开始。",
                    )));
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
                let p = &mut self.players[i];
                p.hand.push(*kind);
                p.drew = true;
                // Over the carry: the oldest surplus is left in the room.
                let room = p.room.expect("placed");
                while p.hand.len() > p.carry() {
                    let dropped = p.hand.remove(0);
                    self.piles.entry(room).or_default().push(dropped);
                }
                let name = &items().get(*kind).name;
                said.push(Said::To(
                    seat,
                    Bilingual::new(
                        format!("You drew {}.", name.en),
                        format!("你抽到了{}。", name.zh),
                    ),
                ));
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
                let p = &mut self.players[i];
                p.hand.push(*kind);
                p.drew = true;
                while p.hand.len() > p.carry() {
                    let dropped = p.hand.remove(0);
                    self.piles.entry(room).or_default().push(dropped);
                }
                None
            }
            GeneAction::Surgery { genes } => {
                let p = &mut self.players[i];
                p.genes = Some(*genes);
                p.operated = true;
                self.surgery = true;
                // A smaller carry drops the surplus here.
                let room = p.room.expect("placed");
                while p.hand.len() > p.carry() {
                    let dropped = p.hand.remove(0);
                    self.piles.entry(room).or_default().push(dropped);
                }
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
                None
            }
            GeneAction::Discard { kind } => {
                let room = self.players[i].room.expect("placed");
                take(&mut self.players[i].hand, *kind);
                self.piles.entry(room).or_default().push(*kind);
                None
            }
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
    fn begin_round(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> GenePhase {
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
        }
        self.rockets.clear();
        self.surgery = false;
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
        // 1. Whether a surgery took place (not who, not what).
        said.push(Said::All(if self.surgery {
            Bilingual::new("A surgery took place.", "手术室进行了手术。")
        } else {
            Bilingual::new("No surgery this round.", "本轮没有进行手术。")
        }));
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
                }
                let (en, zh) = if living.len() == 2 {
                    ("a battle", "战斗")
                } else {
                    ("a brawl", "乱斗")
                };
                events.push(Bilingual::new(
                    format!("There was {en} in {}.", room_name(*room).en),
                    format!("{}发生{zh}。", room_name(*room).zh),
                ));
            }
            if !living.is_empty() && !shadows.is_empty() {
                for &l in &living {
                    loss[l] += shadows.len() as i32;
                }
                for &sh in &shadows {
                    self.players[sh].drained += living.len() as i32;
                }
                events.push(Bilingual::new(
                    format!("A shadow met the living in {}.", room_name(*room).en),
                    format!("{}有暗影与人相遇。", room_name(*room).zh),
                ));
            }
        }
        if events.is_empty() {
            said.push(Said::All(Bilingual::new(
                "No battles this round.",
                "本轮没有战斗。",
            )));
        }
        for e in events {
            said.push(Said::All(e));
        }
        let mut fallen = Vec::new();
        self.hurt(&loss, &mut fallen, said);
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
                    said.push(Said::All(Bilingual::new(
                        format!("{} is now gassed.", floor_name(*f).en),
                        format!("{}成为毒气楼层。", floor_name(*f).zh),
                    )));
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
        self.hurt(&loss, &mut fallen, said);
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
        self.hurt(&loss, &mut fallen, said);
        // 5. The rooms the rocket launcher hit: every living player there.
        let mut loss = vec![0; seats];
        for r in std::mem::take(&mut self.rockets) {
            said.push(Said::All(Bilingual::new(
                format!("A rocket hit {}.", room_name(r).en),
                format!("火箭筒袭击了{}。", room_name(r).zh),
            )));
            for (i, p) in self.players.iter().enumerate() {
                if !p.shadow && p.room == Some(r) {
                    loss[i] += 3;
                }
            }
        }
        self.hurt(&loss, &mut fallen, said);
        // 6. Who changed their own state with medicine, alcohol or adrenaline.
        let mut loss = vec![0; seats];
        let mut changed = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.state_change != 0 || p.extra_strength != 0 || p.extra_speed != 0 {
                changed.push((i + 1).to_string());
                if !p.shadow {
                    loss[i] = -p.state_change;
                }
            }
        }
        if !changed.is_empty() {
            said.push(Said::All(Bilingual::new(
                format!("Changed their own state: seat {}.", changed.join(", ")),
                format!("改变了自身状态：{} 号。", changed.join("、")),
            )));
        }
        self.hurt(&loss, &mut fallen, said);
        // 7. Shadows that drained 2 or more revive, with their old panel.
        for (i, p) in self.players.iter_mut().enumerate() {
            p.immune = false;
            if p.shadow && !fallen.contains(&i) && p.drained >= n.revive_after_drained {
                p.shadow = false;
                p.hp = n.revive_hp;
                p.drained = 0;
                p.immune = true;
                said.push(Said::All(Bilingual::new(
                    format!("Seat {} revived.", i + 1),
                    format!("{} 号复活了。", i + 1),
                )));
            }
        }
        // Every player's HP is public after the settlement.
        for p in &mut self.players {
            p.public_hp = p.hp;
        }
        let hps: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}:{}", i + 1, p.hp))
            .collect();
        said.push(Said::All(Bilingual::new(
            format!("HP after round {round}: {}", hps.join("  ")),
            format!("第 {round} 轮后的生命值：{}", hps.join("  ")),
        )));
        let alive = self.living().count();
        if round >= n.rounds || alive <= 1 {
            self.finish(said);
        } else {
            for p in &mut self.players {
                p.last_round_hp = p.hp;
            }
        }
    }

    /// Applies one step's HP changes (a negative loss heals, up to the
    /// maximum); a player at 0 becomes a shadow at once, and their cards go
    /// to the morgue.
    fn hurt(&mut self, loss: &[i32], fallen: &mut Vec<usize>, said: &mut Vec<Said>) {
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
                said.push(Said::All(Bilingual::new(
                    format!("Seat {} became a shadow.", i + 1),
                    format!("{} 号成为暗影。", i + 1),
                )));
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

fn take(hand: &mut Vec<ItemKind>, kind: ItemKind) -> bool {
    match hand.iter().position(|k| *k == kind) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}
