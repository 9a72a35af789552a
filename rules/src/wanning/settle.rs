//! The settlement (seed 「8.結算順序」): 「公布血量前進行血量結算，順序為
//! buff獲取->最大受到傷害->護盾->真實傷害->鎖血->特殊技能」, one system a
//! step, chained in `game.rs`, after the round's invalidations, actions
//! and instincts; then wisdom and the announcement. Every choice the seed
//! leaves open is in rules.md §5.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;

use super::data::{InstinctId, data};
use super::moves::{instinct_priority, locked};
use super::settings::WanningGame;
use super::setup::form_of;
use super::state::*;
use crate::table::{SeatEntities, SeatId, Settings};

type SeatParts = (
    &'static Beast,
    &'static mut Life,
    &'static mut Instinct,
    &'static mut Abilities,
    &'static Orders,
    &'static mut Tally,
);

/// What every step reads and writes.
#[derive(SystemParam)]
pub struct Step<'w, 's> {
    seats: Res<'w, SeatEntities>,
    round: Res<'w, Round>,
    players: Query<'w, 's, SeatParts>,
    news: MessageWriter<'w, WanningNews>,
    omens: ResMut<'w, OmenState>,
}

/// Ordinary damage or true damage.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hurt {
    Damage,
    True,
}

impl Step<'_, '_> {
    fn ids(&self) -> Vec<SeatId> {
        self.seats.iter().map(|(s, _)| s).collect()
    }

    fn level(&self, s: SeatId) -> u8 {
        self.players.get(self.seats.get(s)).expect("a seat").0.level
    }

    fn life(&self, s: SeatId) -> &Life {
        self.players.get(self.seats.get(s)).expect("a seat").1
    }

    fn plan(&self, s: SeatId) -> Option<&Plan> {
        let (_, life, _, _, orders, _) = self.players.get(self.seats.get(s)).expect("a seat");
        if life.dead() { None } else { orders.0.as_ref() }
    }

    fn instinct(&self, s: SeatId) -> &Instinct {
        self.players.get(self.seats.get(s)).expect("a seat").2
    }

    fn instinct_mut(&mut self, s: SeatId) -> Mut<'_, Instinct> {
        self.players.get_mut(self.seats.get(s)).expect("a seat").2
    }

    fn tally(&mut self, s: SeatId) -> Mut<'_, Tally> {
        self.players.get_mut(self.seats.get(s)).expect("a seat").5
    }

    fn tally_of(&self, s: SeatId) -> &Tally {
        self.players.get(self.seats.get(s)).expect("a seat").5
    }

    /// The instinct `s` used this round, if it has it and it is not made
    /// invalid by a higher priority (locked instincts cannot be).
    fn used_instinct(&self, s: SeatId) -> Option<&InstinctUse> {
        let use_ = self.plan(s)?.instinct.as_ref()?;
        self.works(s).then_some(use_)
    }

    /// Whether `s`'s instinct is not invalid this round.
    fn works(&self, s: SeatId) -> bool {
        let (_, _, instinct, _, _, tally) = self.players.get(self.seats.get(s)).expect("a seat");
        let Some(id) = instinct.id else { return false };
        // 仁慈: 「被攻擊者下回合無法使用本能」, an invalid of the bottom tier.
        let spared = (instinct.spared_in == Some(self.round.0)).then_some(Priority::Others as u8);
        let invalid = tally.instinct_invalid.max(spared);
        let rung = instinct_priority(id, instinct.luck) as u8;
        unstoppable(id) || invalid.is_none_or(|p| !stops(p, rung))
    }

    fn has(&self, s: SeatId, id: InstinctId) -> bool {
        self.instinct(s).id == Some(id)
    }

    /// `from` hurts `to` by `amount`: one damage instance, and a hit. 趨吉
    /// 避兇's 兇 wards `to` from its giver's level (「不會受到來自自己等級的
    /// 傷害及真實傷害」).
    fn hurt(&mut self, from: SeatId, to: SeatId, amount: i32, kind: Hurt) {
        let level = self.level(from);
        if amount <= 0 || self.omens.wards.contains(&(to, level)) {
            return;
        }
        let mut t = self.tally(to);
        match kind {
            Hurt::Damage => t.damage += amount,
            Hurt::True => t.true_damage += amount,
        }
        t.instances.push((amount, kind == Hurt::True));
        if from != to {
            t.hit_by.push(from);
        }
    }

    /// Tells a living seat of a change just made to its own HP or
    /// shields, and why (issue 71); nothing when nothing changed.
    fn changed(&mut self, s: SeatId, why: Why, hp: i32, shields: i32) {
        let life = self.life(s);
        if (hp, shields) == (0, 0) || life.dead() {
            return;
        }
        let change = Change::new(why, hp, shields, life);
        self.tally(s).lines.push(change);
        let round = self.round.0;
        self.news.write(WanningNews::Changed {
            seat: s,
            round,
            change,
        });
    }

    fn living(&self) -> Vec<SeatId> {
        self.ids()
            .into_iter()
            .filter(|s| !self.life(*s).dead())
            .collect()
    }
}

/// The round's targets, as the settlement began.
fn targets(plan: &Plan) -> Vec<SeatId> {
    let mut t: Vec<SeatId> = [plan.target, plan.second, plan.slaughter]
        .into_iter()
        .flatten()
        .collect();
    match &plan.instinct {
        Some(InstinctUse::Mark { a, b }) => t.extend([*a, *b]),
        Some(i) => t.extend(i.target()),
        None => {}
    }
    t
}

/// Whether an invalid state stopped the seat's instinct in the last round
/// settled (what the seat was told; scenario checks).
pub fn stopped(world: &World, s: SeatId) -> bool {
    let instinct = crate::table::seat_part::<Instinct>(world, s);
    let tally = &crate::table::seat_part::<LastTally>(world, s).0;
    let round = world.resource::<Round>().0.saturating_sub(1);
    let Some(id) = instinct.id else { return false };
    let spared = (instinct.spared_in == Some(round)).then_some(Priority::Others as u8);
    let invalid = tally.instinct_invalid.max(spared);
    // The draw of that round (the seat's own has been drawn again since).
    let rung = instinct_priority(id, tally.luck) as u8;
    !unstoppable(id) && invalid.is_some_and(|p| stops(p, rung))
}

/// Instincts no invalid state stops: the locked ones, and 預知, an action at
/// any time that 恐懼 and the invalid states do not touch (rules.md §4): its
/// owner is not told that it was invalid (issue 35, reading 7).
fn unstoppable(id: InstinctId) -> bool {
    locked(id) || id == InstinctId::Foresight
}

/// Whether an instinct-invalid of priority `p` stops an instinct of
/// priority `of`: 「本能無效只能對優先級小於它……的本能生效」; the bottom tier
/// (「其它本能」) stops the bottom tier too, or its invalidations (臥薪嘗膽,
/// 仁慈) would stop nothing (rules.md §5).
pub fn stops(p: u8, of: u8) -> bool {
    of < p || (p == Priority::Others as u8 && of == p)
}

/// Opens the tallies: every HP as the settlement begins, who named whom,
/// and 恐懼 (「一二級玩家第一回合本能無效」, a locked level ability).
pub fn open(mut step: Step) {
    let round = step.round.0;
    let named: Vec<(SeatId, SeatId)> = step
        .living()
        .into_iter()
        .flat_map(|s| {
            step.plan(s)
                .map(targets)
                .unwrap_or_default()
                .into_iter()
                .map(move |t| (s, t))
        })
        .collect();
    for s in step.ids() {
        let hp = step.life(s).hp;
        let level = step.level(s);
        let luck = step.instinct(s).luck;
        let mut t = step.tally(s);
        t.start_hp = hp;
        t.luck = luck;
        if round == 1 && level <= 2 {
            t.instinct_invalid = Some(Priority::Fear as u8);
        }
    }
    for (from, to) in named {
        step.tally(to).targeted_by.push(from);
    }
}

fn invalidate(t: &mut Tally, p: Priority) {
    t.instinct_invalid = Some(t.instinct_invalid.unwrap_or(0).max(p as u8));
}

/// 趨吉避兇（鎖定）: 「每回合必須發動，偶數回合觸發組合能力」: 吉 costs its
/// owner 1 true damage; 兇 wards a player from the owner's level this
/// round; on even rounds last round's choice and this one's combine
/// (rules.md §6): 兇+兇 「本回合只會受到一次傷害最高的傷害（包括真傷）」;
/// 吉+吉 「使自己等級的玩家最大扣除血量為1，持續兩回合」; mixed 「詛咒指定
/// 等級……使該等級下一回合所有攻擊造成的傷害-1，自身獲得一點護盾」. An owner
/// who gave no choice (the clock ran out) chose 吉.
fn omens(step: &mut Step) {
    let round = step.round.0;
    for s in step.living() {
        if !step.has(s, InstinctId::Omens) {
            continue;
        }
        let (ill, curse) = match step.plan(s).and_then(|p| p.instinct.clone()) {
            Some(InstinctUse::Omens { ill, curse }) => (ill, curse),
            _ => (None, None),
        };
        let level = step.level(s);
        match ill {
            Some(t) => step.omens.wards.push((t, level)),
            None => step.hurt(s, s, 1, Hurt::True),
        }
        let last = {
            let mut i = step.instinct_mut(s);
            i.omen_last.replace(ill.is_some())
        };
        if !round.is_multiple_of(2) {
            continue;
        }
        match (last, ill.is_some()) {
            (Some(true), true) => step.tally(s).only_highest = true,
            (Some(false), false) => {
                step.instinct_mut(s).omen_cap_until = Some(round + 1);
            }
            (Some(_), _) => {
                step.tally(s).shields_gained += 1;
                if let Some(l) = curse {
                    step.omens.curse_next.push(l);
                }
            }
            (None, _) => {}
        }
    }
}

/// The invalidations, highest priority first (「殺戮>制衡>幸運休>替身力量、
/// 趨吉避兇>其它本能」): 殺戮, then 制衡 (if its own owner's instinct still
/// works).
pub fn invalidations(mut step: Step, last_hits: Res<LastHits>) {
    let round = step.round.0;
    omens(&mut step);
    // 殺戮: 「使其本能無效一回合，並對其造成其上回合血量一半（向下取整）點真實
    // 傷害，同時自己本回合鎖血為當前血量-1」.
    for s in step.living() {
        let Some(target) = step.plan(s).and_then(|p| p.slaughter) else {
            continue;
        };
        let half = step.life(target).last_hp.max(0) / 2;
        let hp = step.life(s).hp;
        invalidate(&mut step.tally(target), Priority::Slaughter);
        step.hurt(s, target, half, Hurt::True);
        step.tally(s).locks.push(hp - 1);
        let mut a = step.players.get_mut(step.seats.get(s)).expect("a seat").3;
        a.slaughter_used += 1;
        a.slaughter_last = Some(round);
    }
    // 制衡: 「扣除自己一點血量，使全體其他等級動物的本能失效」.
    let balancers: Vec<SeatId> = step
        .living()
        .into_iter()
        .filter(|s| matches!(step.used_instinct(*s), Some(InstinctUse::Balance)))
        .collect();
    for s in balancers {
        step.hurt(s, s, 1, Hurt::True);
        let mine = step.level(s);
        for o in step.living() {
            if step.level(o) != mine {
                invalidate(&mut step.tally(o), Priority::Balance);
            }
        }
    }
    // 幸運休: 「選定一個目標，使其本能失效」.
    for s in step.living() {
        if let Some(InstinctUse::Luck { target }) = step.used_instinct(s).cloned()
            && step.instinct(s).luck == Some(LuckDraw::Rest)
        {
            invalidate(&mut step.tally(target), Priority::LuckRest);
        }
    }
    // 替身力量: 「獲得兩個稻草人，同時選擇一個目標，使其本能失效」.
    for s in step.living() {
        if let Some(InstinctUse::Stand { target }) = step.used_instinct(s).cloned() {
            invalidate(&mut step.tally(target), Priority::StandOmens);
            step.instinct_mut(s).scarecrows += 2;
        }
    }
    // The bottom tier: 臥薪嘗膽 (locked) first, so that it may stop a 磕CP
    // whatever the seat order; then 磕CP.
    for s in step.living() {
        // 「選定一個目標，使其本能無效，若其上回合對自己造成了傷害，則額外使其
        // 本回合攻擊無效。觸發偶數次時，額外造成1點真實傷害並使本回合最大扣除
        // 血量為0」 (the owner's: rules.md §6).
        let Some(InstinctUse::Grudge { target }) = step.used_instinct(s).cloned() else {
            continue;
        };
        let hurt_me = last_hits.0.contains(&(target, s));
        let even = {
            let mut i = step.instinct_mut(s);
            i.grudges += 1;
            i.grudges.is_multiple_of(2)
        };
        {
            let mut t = step.tally(target);
            invalidate(&mut t, Priority::Others);
            t.attack_invalid |= hurt_me;
        }
        if even {
            step.hurt(s, target, 1, Hurt::True);
            let hp = step.life(s).hp;
            step.tally(s).locks.push(hp);
        }
    }
    // 磕CP: 「若目標等級和你相等……否則使其本次攻擊無效」.
    for s in step.living() {
        if let Some(InstinctUse::Pair { target }) = step.used_instinct(s).cloned()
            && step.level(target) != step.level(s)
        {
            step.tally(target).attack_invalid = true;
        }
    }
}

/// The actions: 「攻擊」 for levels 2-4 and 「感應」 for level 1.
pub fn actions(mut step: Step) {
    let n = step.ids().len();
    for s in step.living() {
        let Some(plan) = step.plan(s).cloned() else {
            continue;
        };
        let Some(target) = plan.target else { continue };
        let level = step.level(s);
        // 狐假虎威: 「如果目標本回合死亡則使下一次攻擊/感應額外造成一點真實傷害」:
        // spent on the next attack or sensing, and dealt only by a sensing or
        // a valid attack (「攻擊無效：所有攻擊不會產生傷害及附加效果」).
        let bonus = std::mem::take(&mut step.instinct_mut(s).bluff_bonus);
        if bonus && (level == 1 || attack_lands(&step, s, target)) {
            step.hurt(s, target, 1, Hurt::True);
        }
        if level == 1 {
            // 斷井頹垣, dispirited: 「感應無法獲取目標的攻擊信息」.
            let dispirited = step.has(s, InstinctId::Ruins) && !step.instinct(s).radical;
            let named = object_of(&step, target, dispirited);
            step.news.write(WanningNews::Sensed {
                seat: s,
                target,
                named,
            });
            continue;
        }
        let mut hits = vec![target];
        if let Some(second) = plan.second {
            match second_attack(&step, s, n) {
                Some(Second::Ambition) => {
                    step.tally(s).ambition = true;
                    hits.push(second);
                }
                Some(Second::Instinct) => hits.push(second),
                None => {}
            }
        }
        for t in hits {
            attack(&mut step, s, t);
        }
    }
}

/// What sensing returns: 「獲得ta本回合的對象（攻擊對象/感應對象/本能行動
/// 對象），若有多個對象則優先返回攻擊對象」; then the sensing target, then a
/// level ability's target, then an instinct's (rules.md §3). 我是歌姬's
/// owner's object is itself.
fn object_of(step: &Step, s: SeatId, no_attacks: bool) -> Option<SeatId> {
    let plan = step.plan(s)?;
    if matches!(plan.instinct, Some(InstinctUse::Diva)) {
        return Some(s);
    }
    let attack = plan.target.filter(|_| !no_attacks && step.level(s) >= 2);
    let sensing = plan.target.filter(|_| step.level(s) == 1);
    attack
        .or(sensing)
        .or(plan.slaughter)
        .or_else(|| plan.instinct.as_ref().and_then(InstinctUse::target))
}

/// Where a second attack comes from.
enum Second {
    /// 發怒.
    Instinct,
    /// 野心's extra action.
    Ambition,
}

/// A second attack happens if the seat's instinct allows it now (發怒) or
/// 野心's condition holds: 「若4級玩家上回合血量不為全場血量最高，且除自己
/// 等級外存活玩家小於等於總玩家數的一半（向下取整）」 (last round's HP as
/// the table heard it).
fn second_attack(step: &Step, s: SeatId, n: usize) -> Option<Second> {
    // 發怒: 「自己上一回合血量小於等於最大血量的一半」.
    let max = n as i32 - 1;
    if step.has(s, InstinctId::Rage) && step.works(s) && step.life(s).last_hp * 2 <= max {
        return Some(Second::Instinct);
    }
    // 垂死抗爭: 「可額外進行一次和第一次效果完全相同的攻擊……持續兩回合」.
    let stand = step.instinct(s).stand_until;
    if step.has(s, InstinctId::LastStand)
        && step.works(s)
        && (stand.is_some_and(|r| r >= step.round.0)
            || matches!(
                step.plan(s).and_then(|p| p.instinct.as_ref()),
                Some(InstinctUse::LastStand)
            ))
    {
        return Some(Second::Instinct);
    }
    if step.level(s) != 4 {
        return None;
    }
    // 「上回合血量不為全場血量最高」: true HP, as everywhere (rules.md §3);
    // a seat tied for the highest is 全場血量最高: another must have more.
    let mine = step.life(s).last_hp;
    let not_highest = step
        .ids()
        .iter()
        .any(|o| *o != s && step.life(*o).last_hp > mine);
    let others = step
        .living()
        .into_iter()
        .filter(|o| step.level(*o) != 4)
        .count();
    (not_highest && others <= n / 2).then_some(Second::Ambition)
}

/// 「初始血量（也是最大血量）為x-1」.
fn max_hp(n: usize) -> i32 {
    n as i32 - 1
}

/// 狐假虎威's 「目標的血量>2」: the target's true HP at the round's start
/// (its 「上回合血量」: HP only falls between rounds, so the announced HP the
/// order was judged on is never below it).
fn bluff_holds(step: &Step, target: SeatId) -> bool {
    step.tally_of(target).start_hp > 2
}

/// Whether `s`'s attack on `t` is valid and can hurt: not made invalid
/// (磕CP, 臥薪嘗膽), not a dispirited 斷井頹垣's (「回合內攻擊無法造成傷害」),
/// and on a lower level (「若攻擊對象等級低於攻擊者……否則攻擊無效」).
fn attack_lands(step: &Step, s: SeatId, t: SeatId) -> bool {
    let dispirited = step.has(s, InstinctId::Ruins) && !step.instinct(s).radical;
    let invalid = step.tally_of(s).attack_invalid;
    !invalid && !dispirited && step.level(t) < step.level(s)
}

/// 「若攻擊對象等級低於攻擊者將會使被攻擊者受到一次一點傷害，否則攻擊無效。
/// 低等級動物……在被等級比自己高兩級或兩級以上的動物攻擊時此次傷害額外增加
/// 一點」. 嗜殺 rides on a valid attack.
fn attack(step: &mut Step, s: SeatId, t: SeatId) {
    if !attack_lands(step, s, t) {
        return;
    }
    let (mine, theirs) = (step.level(s), step.level(t));
    // 趨吉避兇's curse: 「使該等級下一回合所有攻擊造成的傷害-1」.
    let cursed = step.omens.cursed.contains(&mine);
    let damage = if mine - theirs >= 2 { 2 } else { 1 } - i32::from(cursed);
    if damage <= 0 {
        return;
    }
    // 嗜殺: 「自己的上一回合血量和等級都大於等於被攻擊者，且被攻擊者上回合血量
    // 小於等於3時自動發動」.
    let slay = step.has(s, InstinctId::Bloodlust)
        && step.works(s)
        && step.life(s).last_hp >= step.life(t).last_hp
        && step.life(t).last_hp <= 3;
    // 替身力量's scarecrows: 「被攻擊成功時增加1個稻草人」.
    if step.has(t, InstinctId::Stand) {
        step.instinct_mut(t).scarecrows += 1;
    }
    step.hurt(s, t, damage, Hurt::Damage);
    step.tally(t).slain |= slay && !step.omens.wards.contains(&(t, mine));
}

/// The instincts' effects this round (those that are not their own
/// settlement step), each if it works.
pub fn instincts(mut step: Step, last: Res<LastTargets>, mut sung: ResMut<Sung>) {
    let n = step.ids().len();
    let round = step.round.0;
    // 外交部發言人（鎖定）: 「條件：上回合死亡」: the round after its owner's
    // death, 「每層標記會使本回合受到1點傷害/增加一點護盾（同等級護盾，其他
    // 扣血）」 (rules.md §6: the one act of the dead).
    for s in step.ids() {
        let died = step.life(s).died;
        if !step.has(s, InstinctId::Spokesman) || died != Some(round - 1) {
            continue;
        }
        let marks = step.instinct(s).marks.clone();
        let mine = step.level(s);
        for (t, k) in marks {
            if step.life(t).dead() {
                continue;
            }
            if step.level(t) == mine {
                step.tally(t).shields_gained += k as i32;
            } else {
                step.hurt(s, t, k as i32, Hurt::Damage);
            }
        }
    }
    // 警惕: a right guess about last round deals what its owner lost then
    // (at most 3) as true damage now, with no feedback; a newly dead owner's
    // guess too (「死亡時可用」).
    for s in step.ids() {
        let (guess, owed) = {
            let mut i = step.instinct_mut(s);
            (i.guess.take(), std::mem::take(&mut i.guard_owed))
        };
        let Some((t, level)) = guess.filter(|_| owed) else {
            continue;
        };
        if step.level(t) == level && !step.life(t).dead() {
            let x = step.life(s).lost_last.min(3);
            step.hurt(s, t, x, Hurt::True);
            step.instinct_mut(s).last_target = Some(t);
        }
    }
    for s in step.living() {
        let Some(plan) = step.plan(s).cloned() else {
            continue;
        };
        let Some(use_) = plan.instinct else { continue };
        let worked = step.works(s);
        if let InstinctUse::Mark { a, b } = use_ {
            // 「每個人至多被同一人的外交部標記三次」 (judged).
            let mut i = step.instinct_mut(s);
            for t in [a, b] {
                match i.marks.iter_mut().find(|(m, _)| *m == t) {
                    Some((_, k)) => *k += 1,
                    None => i.marks.push((t, 1)),
                }
            }
        }
        {
            let mut i = step.instinct_mut(s);
            // 「本能無法發動，計入冷卻時長，不扣除使用次數」.
            i.last_round = Some(round);
            if worked {
                i.used += 1;
                i.last_target = use_.target();
            }
        }
        if !worked {
            continue;
        }
        let last_hp = step.life(s).last_hp;
        let hp = step.life(s).hp;
        match use_ {
            // 「發動本能時鎖血到上一回合自己血量一半（向下取整）」.
            InstinctUse::Sturdy => step.tally(s).locks.push(last_hp.max(0) / 2),
            // 「鎖血為當前血量……選定一個目標，使其在回合內……最大受到傷害為
            // 2/3/4」.
            InstinctUse::Alliance { target } => {
                step.tally(s).locks.push(hp);
                let cap = data().number(InstinctId::Alliance, n).unwrap_or(0);
                step.tally(target).max_damage.push(i32::from(cap));
            }
            // 「使目標受到2點真實傷害並使目標本回合獲得2點護盾」.
            // 「條件：目標的血量>2」, silently (the use still rests).
            InstinctUse::Bluff { target } if bluff_holds(&step, target) => {
                step.hurt(s, target, 2, Hurt::True);
                step.tally(target).shields_gained += 2;
            }
            InstinctUse::Bluff { .. } => {}
            // 垂死抗爭: 「鎖血為上一回合血量……持續兩回合」 (below).
            InstinctUse::LastStand => {
                step.instinct_mut(s).stand_until = Some(round + 1);
            }
            // 斷井頹垣, radical: 「若其血量高於自己，對其造成兩點真實傷害，否則
            // 造成一點真實傷害」.
            InstinctUse::Ruins { target } => {
                let x = if step.life(target).hp > hp { 2 } else { 1 };
                step.hurt(s, target, x, Hurt::True);
            }
            // 幸運: 「攻：……造成一點真實傷害 守：……增加一點護盾」 (休: with the
            // invalidations).
            InstinctUse::Luck { target } => match step.instinct(s).luck {
                Some(LuckDraw::Attack) => step.hurt(s, target, 1, Hurt::True),
                Some(LuckDraw::Guard) => step.tally(target).shields_gained += 1,
                Some(LuckDraw::Rest) | None => {}
            },
            // 茍且偷生: 「鎖血為當前血量，並獲得x點護盾（x為上一回合內對象包含
            // 你的人數）」.
            InstinctUse::Survive => {
                let x = super::round::malice(&last, s) as i32;
                let mut t = step.tally(s);
                t.locks.push(hp);
                t.shields_gained += x;
            }
            // 仁慈: 「將被攻擊者血量鎖血為1一回合，被攻擊者下回合無法使用本能，
            // 發動智慧必定失敗」.
            // 「條件：被攻擊目標上回合血量小于等于最大生命值1/2」, silently.
            InstinctUse::Mercy => {
                if let Some(target) = plan.target
                    && step.life(target).last_hp * 2 <= max_hp(n)
                {
                    step.tally(target).locks.push(1);
                    step.instinct_mut(target).spared_in = Some(round + 1);
                }
            }
            InstinctUse::Grudge { .. }
            | InstinctUse::Pair { .. }
            | InstinctUse::Stand { .. }
            | InstinctUse::Mark { .. }
            | InstinctUse::FoolWise { .. }
            | InstinctUse::Omens { .. } => {}
            // 「使其在回合內受到的所有傷害乘2」.
            InstinctUse::Beast { target } => step.tally(target).doubled = true,
            // 「全體成員在這一回合智慧……必定失敗……同時自己+1護盾」.
            InstinctUse::Diva => {
                sung.0 = true;
                step.tally(s).shields_gained += 1;
            }
            InstinctUse::Independence => step.tally(s).independent = true,
            // 制衡 was settled with the invalidations; 飲鴆止渴 is a special
            // skill.
            InstinctUse::Balance | InstinctUse::Poison => {}
        }
    }
}

/// 垂死抗爭's lock, for the two rounds it lasts: 「鎖血為上一回合血量」.
pub fn last_stand(mut step: Step) {
    let round = step.round.0;
    for s in step.living() {
        let until = step.instinct(s).stand_until;
        if step.has(s, InstinctId::LastStand) && step.works(s) && until.is_some_and(|r| r >= round)
        {
            let last = step.life(s).last_hp;
            step.tally(s).locks.push(last);
        }
    }
}

/// 「buff獲取」: shields gained this round; 獸性's doubling (of damage and
/// true damage alike: 「所有傷害」).
pub fn buffs(mut step: Step) {
    for s in step.ids() {
        let gained = step.tally_of(s).shields_gained;
        step.players
            .get_mut(step.seats.get(s))
            .expect("a seat")
            .1
            .shields += gained;
        step.changed(s, Why::Shielded, 0, gained);
        let mut t = step.tally(s);
        if t.doubled {
            t.damage *= 2;
            t.true_damage *= 2;
            for i in &mut t.instances {
                i.0 *= 2;
            }
        }
        // 趨吉避兇's 兇+兇: one damage, the highest.
        if t.only_highest
            && let Some(&(top, true_)) = t.instances.iter().max()
        {
            t.damage = if true_ { 0 } else { top };
            t.true_damage = if true_ { top } else { 0 };
        }
    }
    // 磕CP, same level: 「你和目標在回合內受到傷害均為你和目標中受傷更少的人
    // 受到的傷害」.
    for s in step.living() {
        if let Some(InstinctUse::Pair { target }) = step.used_instinct(s).cloned()
            && step.level(target) == step.level(s)
        {
            let least = step.tally_of(s).damage.min(step.tally_of(target).damage);
            step.tally(s).damage = least;
            step.tally(target).damage = least;
        }
    }
}

/// 「最大受到傷害」: 「本回合受到傷害=min(本回合受到傷害，最大受到傷害)。若有
/// 多個此狀態，則最大受到傷害最小的狀態生效」.
pub fn max_damage(mut step: Step) {
    for s in step.ids() {
        let mut t = step.tally(s);
        t.damage = capped(t.damage, &t.max_damage);
        t.reached = t.damage;
    }
}

/// 「受到傷害」 (rules.md §3): the damage that reached the seat this round,
/// after the buffs and max damage and before shields, with its true damage
/// and 兇殘's (the cup's own 1 comes after, and is added where it counts).
pub fn received(t: &Tally) -> i32 {
    t.reached + t.true_damage + t.brutal
}

/// A round's damage under its max-damage states: the smallest holds.
pub fn capped(damage: i32, caps: &[i32]) -> i32 {
    caps.iter().fold(damage, |d, cap| d.min(*cap))
}

/// 「護盾」: 「擁有護盾的玩家會自動消耗一個護盾抵擋一點傷害」 (ordinary
/// damage only: true damage 「不會被護盾……影響」).
pub fn shields(mut step: Step) {
    for s in step.ids() {
        let (_, mut life, _, _, _, mut t) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        let absorbed = life.shields.min(t.damage).max(0);
        life.shields -= absorbed;
        t.damage -= absorbed;
        t.soaked = absorbed;
        step.changed(s, Why::Soaked, 0, -absorbed);
    }
}

/// 「真實傷害」: the HP falls by the damage left and the true damage.
pub fn true_damage(mut step: Step) {
    for s in step.ids() {
        let (_, mut life, _, _, _, mut t) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        let (damage, true_damage) = (t.damage, t.true_damage);
        t.taken = damage + true_damage;
        if life.dead() {
            continue;
        }
        life.hp -= damage;
        step.changed(s, Why::Damage, -damage, 0);
        step.players
            .get_mut(step.seats.get(s))
            .expect("a seat")
            .1
            .hp -= true_damage;
        step.changed(s, Why::TrueDamage, -true_damage, 0);
    }
}

/// 「鎖血」: 「玩家血量=max(鎖血血量，玩家血量)」; with several locks, the
/// highest holds.
pub fn hp_lock(mut step: Step) {
    let before: Vec<i32> = step.ids().iter().map(|s| step.life(*s).hp).collect();
    for s in step.ids() {
        let (_, mut life, instinct, _, _, t) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        if life.dead() {
            continue;
        }
        if let Some(&lock) = t.locks.iter().max() {
            life.hp = life.hp.max(lock);
        }
        // 斷井頹垣, dispirited: 「每回合自身至多扣除2點血量」, a cap on the
        // round's loss (not a max-damage state: it holds true damage too).
        if instinct.id == Some(InstinctId::Ruins) && !instinct.radical {
            life.hp = life.hp.max(t.start_hp - 2);
        }
    }
    // 趨吉避兇's 吉+吉: 「使自己等級的玩家最大扣除血量為1，持續兩回合」.
    let round = step.round.0;
    let capped: Vec<u8> = step
        .ids()
        .into_iter()
        .filter(|s| {
            let i = step.instinct(*s);
            i.id == Some(InstinctId::Omens)
                && i.omen_cap_until.is_some_and(|r| r >= round)
                && !step.life(*s).dead()
        })
        .map(|s| step.level(s))
        .collect();
    for s in step.living() {
        if capped.contains(&step.level(s)) {
            let start = step.tally_of(s).start_hp;
            let mut life = step.players.get_mut(step.seats.get(s)).expect("a seat").1;
            life.hp = life.hp.max(start - 1);
        }
    }
    for (s, hp) in step.ids().into_iter().zip(before) {
        let gain = step.life(s).hp - hp;
        step.tally(s).lock_gain = gain;
        step.changed(s, Why::Locked, gain, 0);
    }
}

/// 「特殊技能」: 兇殘 first (it counts the others' losses, so it comes when
/// they are known: rules.md §5), then 「嗜殺->飲鴆止渴->替身力量」.
pub fn special(mut step: Step) {
    let before: Vec<(i32, i32)> = step
        .ids()
        .iter()
        .map(|s| (step.life(*s).hp, step.life(*s).shields))
        .collect();
    special_skills(&mut step);
    for (s, (hp, shields)) in step.ids().into_iter().zip(before) {
        let (now_hp, now_shields) = (step.life(s).hp, step.life(s).shields);
        let mut t = step.tally(s);
        t.special_hp = now_hp - hp;
        t.special_shields = now_shields - shields;
    }
}

fn special_skills(step: &mut Step) {
    let round = step.round.0;
    let n = step.ids().len();
    // 兇殘 (level 4, locked): 「第二回合及之後的回合，4級動物將在公布血量前受到
    // 傷害」: none if every other-level player lost HP; 2 if at most
    // 1/2/3 did; 1 otherwise. A shield stops it as any damage.
    if round >= 2 {
        for s in step.living() {
            if step.level(s) != 4 {
                continue;
            }
            let others: Vec<SeatId> = step
                .ids()
                .into_iter()
                .filter(|o| {
                    step.level(*o) != 4 && step.tally_of(*o).start_hp > 0 && !step.life(*o).dead()
                })
                .collect();
            let lost = others
                .iter()
                .filter(|o| step.life(**o).hp < step.tally_of(**o).start_hp)
                .count();
            let damage = if lost == others.len() {
                0
            } else if lost <= data().brutal_threshold(n) as usize {
                2
            } else {
                1
            };
            let (_, mut life, _, _, _, mut t) =
                step.players.get_mut(step.seats.get(s)).expect("a seat");
            let absorbed = life.shields.min(damage);
            life.shields -= absorbed;
            life.hp -= damage - absorbed;
            t.brutal = damage;
            step.changed(s, Why::Brutal, absorbed - damage, -absorbed);
        }
    }
    // 嗜殺: 「將被攻擊者的狀態設置為死亡，公布血量時顯示血量為0」.
    for s in step.ids() {
        if step.tally_of(s).slain {
            let before = step.life(s).hp;
            step.players
                .get_mut(step.seats.get(s))
                .expect("a seat")
                .1
                .hp = 0;
            step.changed(s, Why::Slain, -before, 0);
        }
    }
    // 飲鴆止渴: 「若自己在本回合受到傷害及真實傷害大於等於當前血量，則鎖血為當前
    // 血量，並增加一個護盾，否則使自己受到一點傷害」 (current HP: as the round
    // began; 「受到傷害」: the damage that reached the seat after max damage,
    // before shields (rules.md §3), 兇殘's included, as it is settled before
    // the cup).
    for s in step.living() {
        if !matches!(step.used_instinct(s), Some(InstinctUse::Poison)) || step.tally_of(s).slain {
            continue;
        }
        let received = received(step.tally_of(s));
        let start = step.tally_of(s).start_hp;
        let (_, mut life, _, _, _, mut t) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        let before = (life.hp, life.shields);
        let why = if received >= start {
            life.hp = start;
            life.shields += 1;
            Why::CupSaved
        } else {
            t.cup_damage = 1;
            if life.shields > 0 {
                life.shields -= 1;
            } else {
                life.hp -= 1;
            }
            Why::CupDamage
        };
        let (hp, shields) = (life.hp - before.0, life.shields - before.1);
        step.changed(s, why, hp, shields);
    }
    // 替身力量: 「死亡時，若擁有5個以上的稻草人，消耗6個稻草人，回復本回合受到
    // 的一半傷害點生命值（向下取整且最小為1）」 (5個以上 read as "more than
    // five": six are spent).
    for s in step.living() {
        // The slain stay dead: 嗜殺 「將被攻擊者的狀態設置為死亡」.
        if !step.has(s, InstinctId::Stand) || step.life(s).hp > 0 || step.tally_of(s).slain {
            continue;
        }
        // 「本回合受到的一半傷害」: received, before shields (rules.md §3).
        let taken = received(step.tally_of(s));
        let (_, mut life, mut instinct, _, _, _) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        if instinct.scarecrows >= 6 {
            instinct.scarecrows -= 6;
            let healed = (taken / 2).max(1);
            life.hp += healed;
            step.changed(s, Why::Scarecrows, healed, 0);
        }
    }
}

/// 智慧 (levels 1-2): right if every level and every named form is right
/// and the named players are indeed of other levels; 「若與一級同時成功則一級
/// 獲勝效果優先」; 我是歌姬 makes every guess fail.
pub fn wisdom(
    mut step: Step,
    sung: Res<Sung>,
    settings: Res<Settings<WanningGame>>,
    mut outcome: ResMut<Outcome>,
) {
    let rule = settings.0.early_bird_form;
    let mut right: Vec<(u8, SeatId)> = Vec::new();
    for s in step.living() {
        let Some(guess) = step.plan(s).and_then(|p| p.wisdom.clone()) else {
            continue;
        };
        let mine = step.level(s);
        {
            let mut a = step.players.get_mut(step.seats.get(s)).expect("a seat").3;
            a.wisdom_used = true;
            a.wisdom_round = Some(step.round.0);
        }
        let levels_right = step
            .ids()
            .iter()
            .all(|o| guess.levels.get(o.index()) == Some(&step.level(*o)));
        let forms_right = guess.forms.iter().all(|(o, f)| {
            let (beast, _, instinct, _, _, _) =
                step.players.get(step.seats.get(*o)).expect("a seat");
            beast.level != mine && form_of(instinct, rule) == Some(*f)
        });
        // 仁慈: the spared 「發動智慧必定失敗」.
        let spared = step.instinct(s).spared_in == Some(step.round.0);
        let ok = levels_right && forms_right && !sung.0 && !spared;
        step.news.write(WanningNews::Wisdom { seat: s, right: ok });
        if ok {
            right.push((mine, s));
        }
    }
    if outcome.0.is_none()
        && let Some(&(level, s)) = right.iter().min()
    {
        outcome.0 = Some((level, WinBy::Wisdom(s)));
    }
    // 大智若愚: 「猜測全場動物的等級和本能形態……若全部猜錯則獲得必勝效果」:
    // every other seat's level and form wrong (after any wisdom win).
    for s in step.living() {
        let Some(InstinctUse::FoolWise { levels, forms }) = step.used_instinct(s).cloned() else {
            continue;
        };
        let spared = step.instinct(s).spared_in == Some(step.round.0);
        let all_wrong = step.ids().into_iter().filter(|o| *o != s).all(|o| {
            let instinct = step.instinct(o);
            levels[o.index()] != step.level(o) && Some(forms[o.index()]) != form_of(instinct, rule)
        });
        let won = all_wrong && !sung.0 && !spared;
        step.players
            .get_mut(step.seats.get(s))
            .expect("a seat")
            .3
            .wisdom_round = Some(step.round.0);
        step.news.write(WanningNews::FoolWise { seat: s, won });
        if won && outcome.0.is_none() {
            outcome.0 = Some((step.level(s), WinBy::FoolWise(s)));
        }
    }
}

/// The announcement: 「實際血量小於等於0的玩家將死亡」; every HP as the table
/// hears it (獨立宣言: last round's); then the game ends, 警惕's owners
/// guess, or the next round begins.
pub fn announce(
    mut step: Step,
    settings: Res<Settings<WanningGame>>,
    mut outcome: ResMut<Outcome>,
    mut last: ResMut<LastTargets>,
    mut hits: ResMut<LastHits>,
    mut deaths: ResMut<DeathsLastRound>,
    mut next: ResMut<NextState<WanningPhase>>,
) {
    let round = step.round.0;
    let mut named = Vec::new();
    for s in step.ids() {
        if let Some(plan) = step.plan(s) {
            named.extend(targets(plan).into_iter().map(|t| (s, t)));
        }
    }
    let dead = record_hp(&mut step, round);
    tell_invalid(&mut step, round);
    announce_hp(&mut step, round, &dead);
    last.0 = named;
    hits.0 = after_deaths(&mut step, &dead);
    deaths.0 = dead.len() as u8;
    if outcome.0.is_none() {
        outcome.0 = victory(&step, &dead, round, settings.0.round_cap);
    }
    if let Some((level, by)) = outcome.0 {
        step.news.write(WanningNews::GameOver { level, by });
        next.set(WanningPhase::GameOver);
    } else {
        next.set(WanningPhase::Orders);
    }
}

/// Each living seat's HP at the end of the round: who died, what it lost
/// and took, what it is told (a 獨立宣言 seat learns its true HP), and
/// whether 警惕 owes it a guess. Returns the seats that died.
fn record_hp(step: &mut Step, round: u8) -> Vec<SeatId> {
    let mut dead = Vec::new();
    for s in step.ids() {
        let guard = step.has(s, InstinctId::Vigilance) && step.works(s);
        let (_, mut life, mut instinct, _, _, mut t) =
            step.players.get_mut(step.seats.get(s)).expect("a seat");
        if life.dead() {
            continue;
        }
        t.lost = (t.start_hp - life.hp).max(0);
        if life.hp <= 0 {
            life.died = Some(round);
            dead.push(s);
        }
        if t.independent && life.hp > 0 {
            // The table hears last round's announcement; the seat learns
            // the truth (「自身將會在公布血量後得知自己的真實血量」).
            life.known = life.hp;
            step.news.write(WanningNews::TrueHp {
                seat: s,
                hp: life.hp,
            });
        } else {
            life.announced = life.hp;
            life.known = life.hp;
        }
        life.last_hp = life.hp;
        life.lost_last = t.lost;
        life.damaged_last = received(&t) + t.cup_damage;
        // 警惕: 「回合結束後，自己回合內被扣除至少一點血量（死亡時可用）」:
        // the guess comes with the next round's orders (rules.md §6).
        instinct.guard_owed = guard && t.lost > 0;
    }
    dead
}

/// 「本能無效：回合內獲得此狀態，玩家將可以得知」: told when it did stop the
/// seat's instinct (not a locked one, not an equal rung's).
fn tell_invalid(step: &mut Step, round: u8) {
    for s in step.ids() {
        let has = step.instinct(s).id.is_some();
        if has
            && step.tally_of(s).start_hp > 0
            && !step.works(s)
            && step.life(s).died.is_none_or(|r| r == round)
        {
            step.news.write(WanningNews::InstinctInvalid(s));
        }
    }
}

/// The round's HP announcement: what each seat was announced at (a slain
/// seat at 0), and who died.
fn announce_hp(step: &mut Step, round: u8, dead: &[SeatId]) {
    let hps = step
        .ids()
        .iter()
        .map(|s| step.life(*s).announced.max(0))
        .collect();
    let slain: Vec<SeatId> = step
        .ids()
        .into_iter()
        .filter(|s| step.tally_of(*s).slain)
        .collect();
    let hps = {
        let mut h: Vec<i32> = hps;
        for s in slain {
            h[s.index()] = 0;
        }
        h
    };
    step.news.write(WanningNews::Announced {
        round,
        hps,
        dead: dead.to_vec(),
    });
}

/// What the deaths give: 狐假虎威's bonus, 替身力量's scarecrows, 野心's
/// shield. Returns who hit whom this round.
fn after_deaths(step: &mut Step, dead: &[SeatId]) -> Vec<(SeatId, SeatId)> {
    for s in step.ids() {
        if let Some(InstinctUse::Bluff { target }) = step.used_instinct(s).cloned()
            && bluff_holds(step, target)
            && dead.contains(&target)
        {
            step.instinct_mut(s).bluff_bonus = true;
        }
    }
    let hits = step
        .ids()
        .into_iter()
        .flat_map(|s| {
            step.tally_of(s)
                .hit_by
                .iter()
                .map(move |f| (*f, s))
                .collect::<Vec<_>>()
        })
        .collect();
    // 替身力量: 「其他玩家死亡時獲得一個稻草人」.
    for s in step.living() {
        let others = dead.iter().filter(|d| **d != s).count() as u8;
        if step.has(s, InstinctId::Stand) {
            step.instinct_mut(s).scarecrows += others;
        }
    }
    // 野心: 「此回合死亡人數大於等於2時獲得一個護盾」.
    if dead.len() >= 2 {
        for s in step.ids() {
            if step.tally_of(s).ambition && !step.life(s).dead() {
                step.players
                    .get_mut(step.seats.get(s))
                    .expect("a seat")
                    .1
                    .shields += 1;
                step.changed(s, Why::Ambition, 0, 1);
            }
        }
    }
    hits
}

/// Victory (rules.md §7), when no wisdom guess has won: the last level
/// standing, else the cap.
fn victory(step: &Step, dead: &[SeatId], round: u8, cap: u8) -> Option<(u8, WinBy)> {
    let living = step.living();
    let mut levels: Vec<u8> = living.iter().map(|s| step.level(*s)).collect();
    levels.sort();
    levels.dedup();
    match levels.as_slice() {
        [only] => Some((*only, WinBy::LastLevel)),
        [] => Some((
            best_level(step, dead, |s| step.tally_of(s).start_hp),
            WinBy::Cap,
        )),
        _ if round >= cap => Some((best_level(step, &living, |s| step.life(s).hp), WinBy::Cap)),
        _ => None,
    }
}

/// The level the cap (or a settlement nobody survived) gives the game to
/// (rules.md §7): the most of `among`, then the most HP by `hp`, then the
/// lower level.
fn best_level(step: &Step, among: &[SeatId], hp: impl Fn(SeatId) -> i32) -> u8 {
    (1..=4u8)
        .max_by_key(|l| {
            let mine: Vec<SeatId> = among
                .iter()
                .copied()
                .filter(|s| step.level(*s) == *l)
                .collect();
            (
                mine.len(),
                mine.iter().map(|s| hp(*s)).sum::<i32>(),
                std::cmp::Reverse(*l),
            )
        })
        .expect("four levels")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2.3: 「本回合受到傷害=min(本回合受到傷害，最大受到傷害)。若有多個此狀態，
    /// 則最大受到傷害最小的狀態生效」.
    #[test]
    fn the_smallest_max_damage_holds() {
        assert_eq!(capped(5, &[]), 5);
        assert_eq!(capped(5, &[4, 2, 3]), 2);
        assert_eq!(capped(1, &[4, 2]), 1);
    }

    /// 2.9: an invalid stops only lower rungs, and the bottom rung stops the
    /// bottom rung (rules.md §5).
    #[test]
    fn the_ladder() {
        let (others, stand, luck, balance, slaughter) = (
            Priority::Others as u8,
            Priority::StandOmens as u8,
            Priority::LuckRest as u8,
            Priority::Balance as u8,
            Priority::Slaughter as u8,
        );
        assert!(stops(slaughter, balance));
        assert!(stops(balance, luck));
        assert!(stops(luck, stand));
        assert!(stops(stand, others));
        assert!(!stops(balance, slaughter));
        assert!(!stops(balance, balance));
        assert!(!stops(stand, stand));
        assert!(stops(others, others));
        assert!(!stops(others, stand));
    }
}
