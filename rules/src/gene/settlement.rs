//! The settlement (seed: 「结算」; rules.md §8), announced in the seed's
//! order, one system a step, chained in `game.rs`:
//! 1 surgery, 2 room battles, 3 gas vote, 4 upkeep, 5 rockets,
//! 6 state changes, 7 revivals, then the HP roll-call. HP changes step by
//! step: 「若在任意结算过程中，有玩家的生命值归零，则会公示成为暗影」, and
//! 「若任意轮次中只剩1名玩家存活，则该玩家直接获胜，游戏立即结束」: once one
//! player is left living, the later steps are not settled.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;

use super::map::{FloorId, ItemKind, RoomId, map};
use super::settle::{battle_losses, numbers};
use super::setup::RoundStart;
use super::state::*;
use crate::table::{SeatEntities, SeatId};

/// Each seat's changes in a step: its loss (negative: a heal) and why.
type Hits = Vec<Vec<(i32, GeneWhy)>>;

/// More than one player is living: the game is not yet decided.
pub fn undecided(vitals: Query<&Vitals>) -> bool {
    vitals.iter().filter(|v| !v.shadow).count() > 1
}

/// The settlement ended and the game goes on.
pub fn next_round_due(s: Res<Settling>) -> bool {
    s.next_round
}

/// A settlement is under way.
pub fn settling_any(s: Res<Settling>) -> bool {
    s.on
}

/// What every step touches.
#[derive(SystemParam)]
pub struct Step<'w, 's> {
    pub seats: Res<'w, SeatEntities>,
    pub calendar: Res<'w, Calendar>,
    pub vitals: Query<
        'w,
        's,
        (
            &'static mut Vitals,
            &'static mut Place,
            &'static mut Hand,
            &'static mut Told,
        ),
    >,
    pub piles: ResMut<'w, Piles>,
    pub settling: ResMut<'w, Settling>,
    pub news: MessageWriter<'w, GeneNews>,
}

impl Step<'_, '_> {
    /// Announces a settlement line (and keeps it for the report).
    fn line(&mut self, step: u8, fact: SettleFact) {
        let line = SettleLine {
            step,
            round: self.calendar.round,
            fact,
        };
        self.settling.lines.push(line.clone());
        self.news.write(GeneNews::Settled(line));
    }

    /// Applies one step's HP changes, each seat's in turn (a negative
    /// loss heals, up to the maximum), and tells each seat its own, why,
    /// with its HP before and after (issue 71); a player at 0 becomes a
    /// shadow at once, and their cards go to the morgue.
    fn hurt(&mut self, step: u8, hits: Hits) {
        for (i, theirs) in hits.into_iter().enumerate() {
            let seat = SeatId(i as u8);
            for (loss, why) in theirs {
                self.hit(seat, step, loss, why);
            }
        }
    }

    /// One change to one seat's HP, told to it.
    fn hit(&mut self, seat: SeatId, step: u8, loss: i32, why: GeneWhy) {
        let max = numbers().max_hp;
        let morgue = map().morgue();
        let (mut v, mut place, mut hand, mut told) =
            self.vitals.get_mut(self.seats.get(seat)).expect("a seat");
        if v.shadow {
            return;
        }
        let before = v.hp;
        v.hp = (v.hp - loss).min(max).max(0);
        let change = GeneChange {
            round: self.calendar.round,
            step,
            why,
            hp: v.hp - before,
            hp_after: v.hp,
        };
        told.0.push(change);
        let fell = v.hp == 0;
        if fell {
            v.shadow = true;
            v.drained = 0;
            place.0 = Some(morgue);
        }
        let cards = if fell {
            std::mem::take(&mut hand.cards)
        } else {
            Vec::new()
        };
        self.news.write(GeneNews::Changed { seat, change });
        if fell {
            self.piles.0.entry(morgue).or_default().extend(cards);
            self.settling.fallen.push(seat);
            self.line(step, SettleFact::Shadow(seat));
        }
    }

    /// No change yet for any seat.
    fn no_hits(&self) -> Hits {
        vec![Vec::new(); self.count()]
    }

    fn count(&self) -> usize {
        self.seats.0.len()
    }
}

/// Step 1: Whether a surgery took place (not who, not what).
/// (The settlement begins: each seat's lines of the last one go.)
pub fn surgery(mut step: Step, secrets: Res<Secrets>) {
    for (.., mut told) in &mut step.vitals {
        told.0.clear();
    }
    step.line(1, SettleFact::Surgery(secrets.surgery));
}

/// Step 2: Battles, brawls, shadows meeting the living (room names only).
pub fn room_battles(mut step: Step, mut others: Query<(&Panel, &Doings, &mut Battles)>) {
    let round = step.calendar.round;
    let mut rooms: BTreeMap<RoomId, Vec<SeatId>> = BTreeMap::new();
    for (seat, e) in step.seats.iter() {
        if let Some(r) = step.vitals.get(e).expect("a seat").1.0 {
            rooms.entry(r).or_default().push(seat);
        }
    }
    let mut hits = step.no_hits();
    let mut events = Vec::new();
    for (room, here) in &rooms {
        let shadow = |s: &SeatId| {
            step.vitals
                .get(step.seats.get(*s))
                .expect("a seat")
                .0
                .shadow
        };
        let (shadows, living): (Vec<SeatId>, Vec<SeatId>) = here.iter().partition(|s| shadow(s));
        if living.len() >= 2 {
            let strengths: Vec<i32> = living
                .iter()
                .map(|s| {
                    let e = step.seats.get(*s);
                    let (panel, doings, _) = others.get(e).expect("a seat");
                    strength(panel, step.vitals.get(e).expect("a seat").0, doings)
                })
                .collect();
            let strongest = strengths.iter().copied().max().unwrap_or(0);
            let brawl = living.len() > 2;
            for (k, l) in battle_losses(&strengths).into_iter().enumerate() {
                let why = GeneWhy::Battle {
                    room: *room,
                    brawl,
                    strongest,
                    yours: strengths[k],
                };
                hits[living[k].index()].push((l, why));
                others
                    .get_mut(step.seats.get(living[k]))
                    .expect("a seat")
                    .2
                    .0
                    .push((round, *room, l));
            }
            events.push(if brawl {
                SettleFact::Brawl(*room)
            } else {
                SettleFact::Battle(*room)
            });
        }
        if !living.is_empty() && !shadows.is_empty() {
            let shadows_here = shadows.len() as i32;
            for l in &living {
                let why = GeneWhy::Drained {
                    room: *room,
                    shadows: shadows_here,
                };
                hits[l.index()].push((shadows_here, why));
            }
            for sh in &shadows {
                step.vitals
                    .get_mut(step.seats.get(*sh))
                    .expect("a seat")
                    .0
                    .drained += living.len() as i32;
            }
            events.push(SettleFact::ShadowMet(*room));
        }
    }
    if events.is_empty() {
        step.line(2, SettleFact::NoBattles);
    }
    for fact in events {
        step.line(2, fact);
    }
    step.hurt(2, hits);
}

/// Step 3: The new gas floor(s): most votes; every floor tied at the top.
/// Then the gas hurts the living on gassed floors (not the immune).
pub fn gas_vote(mut step: Step, mut gassed: ResMut<Gassed>, doings: Query<&Doings>) {
    let mut votes: BTreeMap<FloorId, u32> = BTreeMap::new();
    for (_, e) in step.seats.iter() {
        if let Some(f) = doings.get(e).expect("a seat").vote {
            *votes.entry(f).or_default() += 1;
        }
    }
    if let Some(&top) = votes.values().max() {
        for (f, v) in &votes {
            if *v == top && !gassed.0.contains(f) {
                gassed.0.push(*f);
                step.line(3, SettleFact::Gassed(*f));
            }
        }
    }
    let gas = numbers().gas(step.calendar.round);
    let mut hits = step.no_hits();
    for (seat, e) in step.seats.iter() {
        let (v, place, ..) = step.vitals.get(e).expect("a seat");
        let floor = place.0.map(|r| map().room(r).floor);
        if let Some(floor) = floor.filter(|f| gassed.0.contains(f))
            && !v.shadow
            && !v.immune
        {
            hits[seat.index()].push((gas, GeneWhy::Gas { floor }));
        }
    }
    step.hurt(3, hits);
}

/// Step 4: Upkeep from round 2: one water and one food.
pub fn upkeep(mut step: Step) {
    let n = numbers();
    let round = step.calendar.round;
    let mut hits = step.no_hits();
    for (seat, e) in step.seats.clone().iter() {
        let (v, _, mut hand, _) = step.vitals.get_mut(e).expect("a seat");
        if v.shadow || v.immune || round < n.upkeep_from_round {
            continue;
        }
        let water = take(&mut hand.cards, ItemKind::Water);
        let food = take(&mut hand.cards, ItemKind::Food);
        let why = GeneWhy::Upkeep { water, food };
        hits[seat.index()].push((n.upkeep_loss(round, water, food), why));
    }
    step.hurt(4, hits);
}

/// Step 5: The rooms the rocket launcher hit: every living player there.
pub fn rockets(mut step: Step, mut secrets: ResMut<Secrets>) {
    let mut hits = step.no_hits();
    for r in std::mem::take(&mut secrets.rockets) {
        step.line(5, SettleFact::Rocket(r));
        for (seat, e) in step.seats.iter() {
            let (v, place, ..) = step.vitals.get(e).expect("a seat");
            if !v.shadow && place.0 == Some(r) {
                hits[seat.index()].push((3, GeneWhy::Rocket { room: r }));
            }
        }
    }
    step.hurt(5, hits);
}

/// Step 6: Whether anyone changed their own state with medicine, alcohol
/// or adrenaline: 「是否有玩家……改变自身状态」 (whether, not who).
pub fn state_changes(mut step: Step, doings: Query<&Doings>) {
    let mut hits = step.no_hits();
    let mut changed = false;
    for (seat, e) in step.seats.iter() {
        let d = doings.get(e).expect("a seat");
        if d.state_change != 0 || d.extra_strength != 0 || d.extra_speed != 0 {
            changed = true;
            if d.state_change != 0 && !step.vitals.get(e).expect("a seat").0.shadow {
                hits[seat.index()].push((-d.state_change, GeneWhy::OwnState));
            }
        }
    }
    step.line(6, SettleFact::StateChanged(changed));
    step.hurt(6, hits);
}

/// Step 7: Shadows that drained enough revive, with their old panel.
pub fn revivals(mut step: Step) {
    let n = numbers();
    for (seat, e) in step.seats.clone().iter() {
        let fell_now = step.settling.fallen.contains(&seat);
        let round = step.calendar.round;
        let (mut v, _, _, mut told) = step.vitals.get_mut(e).expect("a seat");
        v.immune = false;
        if v.shadow && !fell_now && v.drained >= n.revive_after_drained {
            v.shadow = false;
            v.hp = n.revive_hp;
            v.drained = 0;
            v.immune = true;
            let change = GeneChange {
                round,
                step: 7,
                why: GeneWhy::Revived,
                hp: n.revive_hp,
                hp_after: n.revive_hp,
            };
            told.0.push(change);
            step.news.write(GeneNews::Changed { seat, change });
            step.line(7, SettleFact::Revived(seat));
        }
    }
}

/// The end of a settlement, after its last step or the step that decided
/// the game: every HP is announced, and the game ends or the living
/// remember this round's HP (rules.md §8).
pub fn end_settlement(
    mut step: Step,
    mut report: ResMut<Report>,
    mut next: ResMut<NextState<GenePhase>>,
) {
    let round = step.calendar.round;
    let living: Vec<SeatId> = step
        .seats
        .iter()
        .filter(|(_, e)| !step.vitals.get(*e).expect("a seat").0.shadow)
        .map(|(s, _)| s)
        .collect();
    let decided = living.len() <= 1;
    if decided && let Some(&last) = living.first() {
        step.line(8, SettleFact::LastLiving(last));
    }
    // Every player's HP is public after the settlement.
    let mut hps = Vec::new();
    for (seat, e) in step.seats.clone().iter() {
        let (mut v, ..) = step.vitals.get_mut(e).expect("a seat");
        v.public_hp = v.hp;
        hps.push((seat, v.hp));
    }
    step.line(8, SettleFact::Hps(hps));
    report.0 = std::mem::take(&mut step.settling.lines);
    step.settling.on = false;
    if round >= numbers().rounds || decided {
        if round >= numbers().rounds {
            // Gold bars become HP.
            for (seat, e) in step.seats.clone().iter() {
                let (mut v, _, hand, mut told) = step.vitals.get_mut(e).expect("a seat");
                let bars = hand.cards.iter().filter(|k| **k == ItemKind::Gold).count() as i32;
                if !v.shadow && bars > 0 {
                    v.hp += bars;
                    let change = GeneChange {
                        round,
                        step: 8,
                        why: GeneWhy::Gold { bars },
                        hp: bars,
                        hp_after: v.hp,
                    };
                    told.0.push(change);
                    step.news.write(GeneNews::Changed { seat, change });
                }
            }
        }
        step.news.write(GeneNews::GameOver);
        next.set(GenePhase::GameOver);
    } else {
        // 「根据各自生前一轮的生命值进行排名」: a shadow keeps the HP of the
        // last round it ended alive.
        for (_, e) in step.seats.clone().iter() {
            let (mut v, ..) = step.vitals.get_mut(e).expect("a seat");
            if !v.shadow {
                v.last_round_hp = v.hp;
            }
        }
        step.settling.next_round = true;
    }
}

/// The settlement is over and the game goes on: the next round.
pub fn next_round(mut settling: ResMut<Settling>, mut start: RoundStart) {
    if std::mem::take(&mut settling.next_round) {
        start.begin(None);
    }
}
