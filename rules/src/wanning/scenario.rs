//! Scripted Wanning Beast Chess tables: the set-up a scenario file may
//! give and the statements its `Check` steps make (format:
//! `rules/SCENARIOS.md`; files: `rules/scenarios/wanning/`).

use bevy_ecs::prelude::*;
use bevy_ecs::world::EntityWorldMut;
use serde::{Deserialize, Serialize};

use super::data::InstinctId;
use super::data::data;
use super::outcome::{phase, result};
use super::settings::WanningGame;
use super::state::*;
use super::view::WanningView;
use crate::table::{Rejection, SeatEntities, SeatId, Settings, seat_part};

/// A table as it stands when round 1 begins: levels, instincts, HP and
/// shields as given (anything not given is dealt). A set-up skips the
/// bans, the pick and the peek.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WanningSetup {
    /// A level (1-4) for every seat.
    pub levels: Option<Vec<u8>>,
    /// An instinct for every seat (`None`: none).
    pub instincts: Option<Vec<Option<InstinctId>>>,
    /// HP for every seat (and last round's HP).
    pub hp: Option<Vec<i32>>,
    /// Shields for every seat.
    pub shields: Option<Vec<i32>>,
    pub banned: Vec<InstinctId>,
    /// An animal for every seat (its key in the data), of the seat's level.
    pub animals: Option<Vec<String>>,
    /// Last round's HP for every seat, when it differs from `hp`.
    pub last_hp: Option<Vec<i32>>,
    /// The HP the table last heard for every seat, when it differs from
    /// `hp` (a past 獨立宣言). Never below the true HP: HP does not rise
    /// between rounds.
    pub announced: Option<Vec<i32>>,
    /// Instinct uses spent so far, for every seat.
    pub used: Option<Vec<u8>>,
    /// The round each seat's instinct was last used in (cooldowns).
    pub last_used: Option<Vec<Option<u8>>>,
    /// 殺戮 uses spent, for every seat.
    pub slaughters: Option<Vec<u8>>,
    /// The round to begin with (default 1): the rounds before it count as
    /// played (恐懼 is over after round 1, 殺戮 rests in round 1).
    pub round: Option<u8>,
    /// 幸運's draw in the first round, for every seat (`None`: drawn as at
    /// any table). A seat without 幸運 draws nothing whatever is given.
    pub luck: Option<Vec<Option<LuckDraw>>>,
    /// Every later 幸運 draw, for every seat, in order (after `luck`'s):
    /// chance a scenario fixes beyond the first round. Draws past the list
    /// come from the seed.
    pub luck_draws: Option<Vec<Vec<LuckDraw>>>,
    /// What each seat given 笨鳥先飛 in `instincts` draws (`None`: drawn from
    /// the seed): the set-up makes the draw the pick would, with its shield
    /// (「獲得除此本能外的任意一個隨機本能，並獲得一點護盾」).
    pub early_bird: Option<Vec<Option<InstinctId>>>,
    /// HP each seat lost last round (警惕's 「扣除的生命值」); also its damage
    /// received, unless `damaged_last` is given.
    pub lost_last: Option<Vec<i32>>,
    /// Damage and true damage each seat received last round, before shields
    /// (臥薪嘗膽's 「上回合受到傷害」).
    pub damaged_last: Option<Vec<i32>>,
    /// Each seat's last instinct target (「不可連續對同一人」).
    pub last_target: Option<Vec<Option<SeatId>>>,
    /// 替身力量's scarecrows, for every seat.
    pub scarecrows: Option<Vec<u8>>,
    /// 外交部發言人's marks each seat has put: (on whom, how many).
    pub marks: Option<Vec<Vec<(SeatId, u8)>>>,
    /// 斷井頹垣 has turned radical, for every seat.
    pub radical: Option<Vec<bool>>,
    /// 臥薪嘗膽's triggers so far, for every seat.
    pub grudges: Option<Vec<u8>>,
    /// 趨吉避兇's choice last round, for every seat (`Some(false)`: 吉,
    /// `Some(true)`: 兇).
    pub omen_last: Option<Vec<Option<bool>>>,
    /// Statuses carried into the first round played, each a list of seats.
    pub statuses: SetupStatuses,
}

/// What last round left on seats, in force in the first round played.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupStatuses {
    /// 仁慈 struck them: 「被攻擊者下回合無法使用本能，發動智慧必定失敗」.
    pub spared: Vec<SeatId>,
    /// 垂死抗爭 is in its second round: 「持續兩回合」.
    pub standing: Vec<SeatId>,
    /// 趨吉避兇's 吉+吉 is in its second round: 「使自己等級的玩家最大扣除血量為
    /// 1，持續兩回合」 (given on the 趨吉避兇 holder).
    pub omen_capped: Vec<SeatId>,
    /// 警惕 lost HP last round and may guess now.
    pub guard_owed: Vec<SeatId>,
    /// 狐假虎威's target died: the next attack or sensing adds 1 true damage.
    pub bluff_bonus: Vec<SeatId>,
}

use crate::scenario::setup_error as bad;

impl WanningSetup {
    /// Refuses a set-up that does not fit the table, with the reason.
    pub fn check(&self, world: &World) -> Result<(), Rejection> {
        let n = world.resource::<SeatEntities>().0.len();
        self.check_hp(n)?;
        self.check_uses(n)?;
        self.check_last_round(n)?;
        self.check_values()
    }

    /// One value per seat (`what` names them) where a list is given.
    fn same_len(n: usize, what: &str, got: Option<usize>) -> Result<(), Rejection> {
        match got {
            Some(k) if k != n => Err(bad(format!("{k} {what} for {n} seats"))),
            _ => Ok(()),
        }
    }

    /// Levels, instincts, HP, shields, animals and announced HP: one per
    /// seat, and no announced HP below the true one.
    fn check_hp(&self, n: usize) -> Result<(), Rejection> {
        let len = |what: &str, got: Option<usize>| Self::same_len(n, what, got);
        len("levels", self.levels.as_ref().map(Vec::len))?;
        len("instincts", self.instincts.as_ref().map(Vec::len))?;
        len("HP values", self.hp.as_ref().map(Vec::len))?;
        len("shield counts", self.shields.as_ref().map(Vec::len))?;
        len("animals", self.animals.as_ref().map(Vec::len))?;
        len("last-round HP values", self.last_hp.as_ref().map(Vec::len))?;
        len("announced HP values", self.announced.as_ref().map(Vec::len))?;
        if let Some(heard) = &self.announced {
            for (i, h) in heard.iter().enumerate() {
                let hp = self.hp.as_ref().map_or(n as i32 - 1, |hp| hp[i]);
                if *h < hp {
                    return Err(bad(format!(
                        "seat {}'s announced HP {h} is below its HP {hp}: HP never rises between rounds",
                        i + 1
                    )));
                }
            }
        }
        Ok(())
    }

    /// Uses, cooldowns and draws: one per seat, and an Early Bird draw only
    /// for its holder, never itself nor a banned instinct.
    fn check_uses(&self, n: usize) -> Result<(), Rejection> {
        let len = |what: &str, got: Option<usize>| Self::same_len(n, what, got);
        len("use counts", self.used.as_ref().map(Vec::len))?;
        len("last uses", self.last_used.as_ref().map(Vec::len))?;
        len("slaughter counts", self.slaughters.as_ref().map(Vec::len))?;
        len("luck draws", self.luck.as_ref().map(Vec::len))?;
        len("later luck draws", self.luck_draws.as_ref().map(Vec::len))?;
        len("Early Bird draws", self.early_bird.as_ref().map(Vec::len))?;
        if let Some(draws) = &self.early_bird {
            for (i, d) in draws.iter().enumerate() {
                let holds = self
                    .instincts
                    .as_ref()
                    .is_some_and(|h| h[i] == Some(InstinctId::EarlyBird));
                match d {
                    Some(_) if !holds => {
                        return Err(bad(format!(
                            "seat {} draws for Early Bird but does not hold it",
                            i + 1
                        )));
                    }
                    Some(InstinctId::EarlyBird) => {
                        return Err(bad("Early Bird draws an instinct other than itself".into()));
                    }
                    Some(id) if self.banned.contains(id) => {
                        return Err(bad(format!("Early Bird cannot draw the banned {id:?}")));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Last round's losses, targets, marks and statuses: one per seat,
    /// every seat named at the table, marks 1 to 3 on others, nothing
    /// negative.
    fn check_last_round(&self, n: usize) -> Result<(), Rejection> {
        let len = |what: &str, got: Option<usize>| Self::same_len(n, what, got);
        len(
            "last-round HP losses",
            self.lost_last.as_ref().map(Vec::len),
        )?;
        len(
            "last-round damage values",
            self.damaged_last.as_ref().map(Vec::len),
        )?;
        len("last targets", self.last_target.as_ref().map(Vec::len))?;
        len("scarecrow counts", self.scarecrows.as_ref().map(Vec::len))?;
        len("mark lists", self.marks.as_ref().map(Vec::len))?;
        len("radical states", self.radical.as_ref().map(Vec::len))?;
        len("grudge counts", self.grudges.as_ref().map(Vec::len))?;
        len("omen choices", self.omen_last.as_ref().map(Vec::len))?;
        let seat_ok = |s: &SeatId| s.index() < n;
        let st = &self.statuses;
        let listed = [
            &st.spared,
            &st.standing,
            &st.omen_capped,
            &st.guard_owed,
            &st.bluff_bonus,
        ];
        let targets = self.last_target.iter().flatten().flatten();
        let marked = self.marks.iter().flatten().flatten().map(|(s, _)| s);
        if let Some(s) = listed
            .into_iter()
            .flatten()
            .chain(targets)
            .chain(marked)
            .find(|s| !seat_ok(s))
        {
            return Err(bad(format!("there is no seat {s} at {n} seats")));
        }
        if let Some(marks) = &self.marks {
            for (i, list) in marks.iter().enumerate() {
                if list
                    .iter()
                    .any(|(s, k)| s.index() == i || !(1..=3).contains(k))
                {
                    return Err(bad(format!(
                        "seat {}'s marks: on other seats, 1 to 3 each (「每個人至多被同一人的外交部標記三次」)",
                        i + 1
                    )));
                }
            }
        }
        for (what, v) in [
            ("HP losses", &self.lost_last),
            ("damage values", &self.damaged_last),
        ] {
            if v.as_ref().is_some_and(|v| v.iter().any(|x| *x < 0)) {
                return Err(bad(format!("last-round {what} cannot be negative")));
            }
        }
        Ok(())
    }

    /// The round, animals of the right level, levels 1 to 4, HP above 0,
    /// no negative shields.
    fn check_values(&self) -> Result<(), Rejection> {
        if self.round == Some(0) {
            return Err(bad("rounds are counted from 1".into()));
        }
        if let Some(animals) = &self.animals {
            for (i, key) in animals.iter().enumerate() {
                let Some(a) = super::data::data().animals.iter().find(|a| &a.key == key) else {
                    return Err(bad(format!("there is no animal '{key}'")));
                };
                if let Some(l) = self.levels.as_ref().map(|l| l[i])
                    && l != a.level
                {
                    return Err(bad(format!("the {key} is level {}, not {l}", a.level)));
                }
            }
        }
        if let Some(l) = &self.levels
            && let Some(bad_level) = l.iter().find(|l| !(1..=4).contains(*l))
        {
            return Err(bad(format!("level {bad_level}: levels are 1 to 4")));
        }
        if self
            .hp
            .as_ref()
            .is_some_and(|h| h.iter().any(|hp| *hp <= 0))
        {
            return Err(bad("every HP must be above 0".into()));
        }
        if self
            .shields
            .as_ref()
            .is_some_and(|s| s.iter().any(|k| *k < 0))
        {
            return Err(bad("shields cannot be negative".into()));
        }
        Ok(())
    }

    /// Sets the seats as the script says, after the deal: bans, HP,
    /// shields and instincts, animals, last round's HP, uses, cooldowns
    /// and the round.
    pub fn apply_after_deal(&self, world: &mut World) {
        world.resource_mut::<Banned>().0 = self.banned.clone();
        let seats = world.resource::<SeatEntities>().clone();
        for (s, e) in seats.iter() {
            self.set_seat(s.index(), &mut world.entity_mut(e));
        }
        for (s, e) in seats.iter() {
            self.set_last_round(s, &mut world.entity_mut(e));
        }
        if let Some(r) = self.round {
            // The round's opening adds one.
            world.resource_mut::<Round>().0 = r - 1;
        }
        self.script_luck(world, seats.0.len());
        self.draw_early_birds(world, &seats);
    }

    /// A seat's HP, announced HP, shields and instinct.
    fn set_seat(&self, i: usize, seat: &mut EntityWorldMut) {
        if let Some(hp) = &self.hp {
            let mut life = seat.get_mut::<Life>().expect("a seat");
            life.hp = hp[i];
            life.last_hp = hp[i];
            life.announced = hp[i];
            life.known = hp[i];
        }
        if let Some(heard) = &self.announced {
            seat.get_mut::<Life>().expect("a seat").announced = heard[i];
        }
        if let Some(k) = &self.shields {
            seat.get_mut::<Life>().expect("a seat").shields = k[i];
        }
        if let Some(ids) = &self.instincts {
            seat.get_mut::<Instinct>().expect("a seat").id = ids[i];
        }
    }

    /// A seat's animal and what the rounds before left on it: last HP,
    /// uses, cooldowns, losses, targets, marks and statuses.
    fn set_last_round(&self, s: SeatId, seat: &mut EntityWorldMut) {
        let i = s.index();
        if let Some(animals) = &self.animals {
            let d = super::data::data();
            let animal = d
                .animals
                .iter()
                .position(|a| a.key == animals[i])
                .expect("checked");
            let mut beast = seat.get_mut::<Beast>().expect("a seat");
            beast.animal = animal;
            beast.level = d.animals[animal].level;
        }
        if let Some(last) = &self.last_hp {
            seat.get_mut::<Life>().expect("a seat").last_hp = last[i];
        }
        if let Some(used) = &self.used {
            seat.get_mut::<Instinct>().expect("a seat").used = used[i];
        }
        if let Some(last) = &self.last_used {
            seat.get_mut::<Instinct>().expect("a seat").last_round = last[i];
        }
        if let Some(k) = &self.slaughters {
            seat.get_mut::<Abilities>().expect("a seat").slaughter_used = k[i];
        }
        {
            let mut life = seat.get_mut::<Life>().expect("a seat");
            if let Some(lost) = &self.lost_last {
                life.lost_last = lost[i];
                life.damaged_last = lost[i];
            }
            if let Some(d) = &self.damaged_last {
                life.damaged_last = d[i];
            }
        }
        let first = self.round.unwrap_or(1);
        let st = &self.statuses;
        let mut ins = seat.get_mut::<Instinct>().expect("a seat");
        if let Some(t) = &self.last_target {
            ins.last_target = t[i];
        }
        if let Some(k) = &self.scarecrows {
            ins.scarecrows = k[i];
        }
        if let Some(m) = &self.marks {
            ins.marks = m[i].clone();
        }
        if let Some(r) = &self.radical {
            ins.radical = r[i];
        }
        if let Some(g) = &self.grudges {
            ins.grudges = g[i];
        }
        if let Some(o) = &self.omen_last {
            ins.omen_last = o[i];
        }
        if st.spared.contains(&s) {
            ins.spared_in = Some(first);
        }
        if st.standing.contains(&s) {
            ins.stand_until = Some(first);
        }
        if st.omen_capped.contains(&s) {
            ins.omen_cap_until = Some(first);
        }
        if st.guard_owed.contains(&s) {
            ins.guard_owed = true;
        }
        if st.bluff_bonus.contains(&s) {
            ins.bluff_bonus = true;
        }
    }

    /// 幸運's draws, as scripted (the first and those after it).
    fn script_luck(&self, world: &mut World, n: usize) {
        if self.luck.is_some() || self.luck_draws.is_some() {
            let queues = (0..n)
                .map(|i| {
                    let first = self.luck.as_ref().and_then(|l| l[i]);
                    let later = self.luck_draws.as_ref().map_or(&[][..], |l| &l[i][..]);
                    first.into_iter().chain(later.iter().copied()).collect()
                })
                .collect();
            world.insert_resource(ScriptedLuck(queues));
        }
    }

    /// 笨鳥先飛: the draw the pick would make (or the scripted one), and
    /// its shield.
    fn draw_early_birds(&self, world: &mut World, seats: &SeatEntities) {
        for (s, e) in seats.iter() {
            if seat_part::<Instinct>(world, s).id != Some(InstinctId::EarlyBird) {
                continue;
            }
            let given = self.early_bird.as_ref().and_then(|d| d[s.index()]);
            let drawn = given.unwrap_or_else(|| {
                let banned = world.resource::<Banned>().clone();
                let instincts: Vec<Instinct> = seats
                    .iter()
                    .map(|(o, _)| seat_part::<Instinct>(world, o).clone())
                    .collect();
                let held = super::setup::taken(
                    &world.resource::<Settings<WanningGame>>().0,
                    instincts.iter(),
                );
                let mut rng = world.resource_mut::<crate::table::TableRng>();
                super::setup::early_bird_draw(&banned, &held, &mut rng)
            });
            let mut seat = world.entity_mut(e);
            let mut ins = seat.get_mut::<Instinct>().expect("a seat");
            ins.id = Some(drawn);
            ins.early_bird = true;
            seat.get_mut::<Life>().expect("a seat").shields += 1;
        }
    }
}

/// What a seat's view may show, for `Sees`/`NotSees` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WanningFact {
    Level(SeatId, u8),
    Instinct(SeatId, InstinctId),
    Hp(SeatId, i32),
    Shields(SeatId, i32),
}

crate::check_enum! {
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub enum WanningCheck about WanningFact {
        Phase(WanningPhase),
        Round(u8),
        Level(SeatId, u8),
        /// The seat's true HP.
        Hp(SeatId, i32),
        /// The HP the table last heard for the seat.
        Announced(SeatId, i32),
        Shields(SeatId, i32),
        Dead(SeatId),
        Alive(SeatId),
        Instinct(SeatId, Option<InstinctId>),
        Banned(InstinctId),
        NotBanned(InstinctId),
        /// How many players the deal gave a level.
        LevelCount(u8, usize),
        /// Uses the seat's instinct has left.
        UsesLeft(SeatId, u8),
        /// An invalid state stopped the seat's instinct in the last round
        /// settled.
        InstinctStopped(SeatId),
        /// The seat has an instinct and nothing stopped it in the last round
        /// settled.
        InstinctWorked(SeatId),
        /// The seat's attacks were invalid in the last round settled.
        AttackInvalid(SeatId),
        /// 替身力量's scarecrows.
        Scarecrows(SeatId, u8),
        /// The seat's own settlement of the last round, step by step, as its
        /// screen shows it: each amount given must match.
        Settlement(SeatId, Breakdown),
        /// The seat's animal (its key in the data: "mammoth").
        Animal(SeatId, String),
        /// The level that won.
        Winner(u8),
    }
}

/// A seat's settlement, step by step (`view::Settled`); `None`: not checked.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Breakdown {
    /// HP when the settlement began.
    pub start_hp: Option<i32>,
    /// Ordinary damage that reached the seat, after max damage, before
    /// shields (「受到傷害」).
    pub damage: Option<i32>,
    /// Shields spent on it.
    pub soaked: Option<i32>,
    pub true_damage: Option<i32>,
    /// HP the locks gave back.
    pub lock: Option<i32>,
    /// HP the special skills changed (兇殘, 嗜殺, 飲鴆止渴, 替身力量).
    pub special: Option<i32>,
    pub special_shields: Option<i32>,
    /// HP when the settlement ended.
    pub end_hp: Option<i32>,
}

pub fn verify(world: &World, check: &WanningCheck) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let life = |s: SeatId| seat_part::<Life>(world, s);
    match check {
        WanningCheck::Phase(p) => {
            let now = phase(world);
            ok(now == *p, format!("phase is {now:?}, not {p:?}"))
        }
        WanningCheck::Round(n) => {
            let r = world.resource::<Round>().0;
            ok(r == *n, format!("round is {r}, not {n}"))
        }
        WanningCheck::Level(s, l) => {
            let have = seat_part::<Beast>(world, *s).level;
            ok(have == *l, format!("seat {s} is level {have}, not {l}"))
        }
        WanningCheck::Hp(s, hp) => {
            let have = life(*s).hp;
            ok(have == *hp, format!("seat {s} has {have} HP, not {hp}"))
        }
        WanningCheck::Announced(s, hp) => {
            let have = life(*s).announced;
            ok(
                have == *hp,
                format!("seat {s} was announced at {have} HP, not {hp}"),
            )
        }
        WanningCheck::Shields(s, k) => {
            let have = life(*s).shields;
            ok(have == *k, format!("seat {s} has {have} shields, not {k}"))
        }
        WanningCheck::Dead(s) => ok(life(*s).dead(), format!("seat {s} is alive")),
        WanningCheck::Alive(s) => ok(!life(*s).dead(), format!("seat {s} is dead")),
        WanningCheck::Instinct(s, i) => {
            let have = seat_part::<Instinct>(world, *s).id;
            ok(
                have == *i,
                format!("seat {s}'s instinct is {have:?}, not {i:?}"),
            )
        }
        WanningCheck::Banned(i) => ok(
            world.resource::<Banned>().0.contains(i),
            format!("{i:?} is not banned"),
        ),
        WanningCheck::NotBanned(i) => ok(
            !world.resource::<Banned>().0.contains(i),
            format!("{i:?} is banned"),
        ),
        WanningCheck::LevelCount(l, n) => {
            let seats = world.resource::<SeatEntities>();
            let have = seats
                .iter()
                .filter(|(s, _)| seat_part::<Beast>(world, *s).level == *l)
                .count();
            ok(have == *n, format!("{have} players are level {l}, not {n}"))
        }
        WanningCheck::UsesLeft(s, n) => verify_uses_left(world, *s, *n),
        WanningCheck::InstinctStopped(s) => {
            let stopped = super::settle::stopped(world, *s);
            ok(stopped, format!("seat {s}'s instinct was not stopped"))
        }
        WanningCheck::InstinctWorked(s) => {
            let has = seat_part::<Instinct>(world, *s).id.is_some();
            ok(has, format!("seat {s} has no instinct"))?;
            let stopped = super::settle::stopped(world, *s);
            ok(!stopped, format!("seat {s}'s instinct was stopped"))
        }
        WanningCheck::AttackInvalid(s) => ok(
            seat_part::<LastTally>(world, *s).0.attack_invalid,
            format!("seat {s}'s attacks were valid"),
        ),
        WanningCheck::Scarecrows(s, n) => {
            let have = seat_part::<Instinct>(world, *s).scarecrows;
            ok(
                have == *n,
                format!("seat {s} has {have} scarecrows, not {n}"),
            )
        }
        WanningCheck::Settlement(s, want) => verify_settlement(world, *s, want),
        WanningCheck::Animal(s, key) => {
            let have = &super::data::data().animals[seat_part::<Beast>(world, *s).animal].key;
            ok(
                have == key,
                format!("seat {s} is the {have}, not the {key}"),
            )
        }
        WanningCheck::Winner(l) => {
            let have = world.resource::<Outcome>().0.map(|(l, _)| l);
            ok(
                have == Some(*l),
                format!("the winner is {have:?}, not level {l}"),
            )
        }
        WanningCheck::Score(..)
        | WanningCheck::Said(_)
        | WanningCheck::NotSaid(_)
        | WanningCheck::Told(..)
        | WanningCheck::NotTold(..)
        | WanningCheck::SaidInOrder(_)
        | WanningCheck::Sees(..)
        | WanningCheck::NotSees(..) => {
            crate::verify_common_check!(
                world,
                check,
                WanningCheck,
                super::WanningGame,
                WanningView,
                result(world)
            )
        }
    }
}

/// `UsesLeft`: the uses the seat's instinct has left.
fn verify_uses_left(world: &World, s: SeatId, n: u8) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let i = seat_part::<Instinct>(world, s);
    let count = world.resource::<SeatEntities>().0.len();
    let settings = &world.resource::<Settings<WanningGame>>().0;
    match i.id.and_then(|id| super::moves::uses(id, count, settings)) {
        Some(u) => {
            let left = u.saturating_sub(i.used);
            ok(left == n, format!("seat {s} has {left} uses left, not {n}"))
        }
        None => Err(format!("seat {s}'s instinct has no use limit")),
    }
}

/// `Settlement`: the seat's last settlement, step by step, as its view
/// shows it (the steps the check names).
fn verify_settlement(world: &World, s: SeatId, want: &Breakdown) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let Some(have) =
        <super::settings::WanningGame as crate::table::Game>::view(world, Some(s)).settled
    else {
        return Err(format!("seat {s} has no settlement to show yet"));
    };
    let pairs = [
        ("start HP", want.start_hp, have.start_hp),
        ("damage", want.damage, have.damage),
        ("shields soaked", want.soaked, have.soaked),
        ("true damage", want.true_damage, have.true_damage),
        ("HP locked back", want.lock, have.lock),
        ("special skills' HP", want.special, have.special),
        (
            "special skills' shields",
            want.special_shields,
            have.special_shields,
        ),
        ("end HP", want.end_hp, have.end_hp),
    ];
    let wrong: Vec<String> = pairs
        .iter()
        .filter(|(_, w, h)| w.is_some_and(|w| w != *h))
        .map(|(what, w, h)| format!("{what} {h}, not {}", w.unwrap_or_default()))
        .collect();
    ok(
        wrong.is_empty(),
        format!("seat {s}'s settlement: {}", wrong.join("; ")),
    )
}

impl WanningView {
    /// How a fact would show in what a seat is sent (scenario `Sees`
    /// checks search the whole view and the notes for it).
    pub fn traces(fact: &super::scenario::WanningFact) -> Vec<crate::scenario::Trace> {
        use super::scenario::WanningFact as F;
        use crate::scenario::Trace;
        vec![match *fact {
            F::Level(s, l) => {
                Trace::of_seat(s, &["level"], l).words([format!("level {l}"), format!("{l}級")])
            }
            F::Instinct(s, i) => {
                let name = &data().instinct(i).name;
                Trace::of_seat(s, &["instinct"], i).words([name.en.clone(), name.zh.clone()])
            }
            F::Hp(s, hp) => Trace::of_seat(s, &["hp"], hp),
            F::Shields(s, k) => Trace::of_seat(s, &["shields"], k),
        }]
    }

    /// The living players other than the viewer.
    pub fn others_living(&self) -> Vec<SeatId> {
        self.seats
            .iter()
            .filter(|p| Some(p.seat) != self.me && !p.dead)
            .map(|p| p.seat)
            .collect()
    }
}
