//! The set-up (seed 「游戲流程」): the deal, the bans, the pick, the forms'
//! announcement and the peek; and the referee's defaults when a clock
//! runs out.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;
use rand::RngExt;
use rand::seq::SliceRandom;

use super::data::{ALL_INSTINCTS, Form, InstinctId, Kind, data};
use super::settings::{BanOdds, EarlyBirdForm, WanningGame, WanningSettings};
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId, Settings, TableRng};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<WanningAction>>;

/// Deals levels and animals, and sets every HP.
#[derive(SystemParam)]
pub struct Deal<'w, 's> {
    seats: Res<'w, SeatEntities>,
    rng: ResMut<'w, TableRng>,
    players: Query<'w, 's, (&'static mut Beast, &'static mut Life, &'static mut Instinct)>,
    news: MessageWriter<'w, WanningNews>,
    next: ResMut<'w, NextState<WanningPhase>>,
}

impl Deal<'_, '_> {
    /// 「每名玩家會被分配到一種動物，每種動物對應自己的等級」: the level table
    /// for the player count, shuffled; each level's animals dealt without
    /// repeating while they last, then again from the first (rules.md §1).
    /// 「人數為x時，初始血量（也是最大血量）為x-1」.
    ///
    /// A scripted table (`scripted`) may give the levels; it skips the
    /// bans and opens round 1, and its script sets the rest.
    pub fn deal(&mut self, levels_given: Option<&[u8]>, scripted: bool) {
        let n = self.seats.0.len();
        let d = data();
        let mut levels = d.levels_for(n);
        levels.shuffle(&mut self.rng.0);
        let mut pools: Vec<Vec<usize>> = (1..=4u8)
            .map(|l| {
                let mut a = d.animals_of(l);
                a.shuffle(&mut self.rng.0);
                a
            })
            .collect();
        let mut dealt = [0usize; 4];
        for (seat, e) in self.seats.iter() {
            let level = levels_given.map_or(levels[seat.index()], |l| l[seat.index()]);
            let pool = &mut pools[level as usize - 1];
            let animal = pool[dealt[level as usize - 1] % pool.len()];
            dealt[level as usize - 1] += 1;
            let (mut beast, mut life, mut instinct) = self.players.get_mut(e).expect("a seat");
            *beast = Beast { level, animal };
            let hp = n as i32 - 1;
            *life = Life {
                hp,
                last_hp: hp,
                announced: hp,
                shields: 0,
                died: None,
                known: hp,
                lost_last: 0,
                damaged_last: 0,
            };
            *instinct = Instinct::default();
            self.news.write(WanningNews::Dealt {
                seat,
                level,
                animal,
            });
        }
        if scripted {
            self.next.set(WanningPhase::Orders);
        } else {
            self.news.write(WanningNews::BansOpen);
            self.next.set(WanningPhase::Ban);
        }
    }
}

/// 「每位玩家可以選擇2個想禁用的本能」.
pub fn ban(mut acts: Acts, seats: Res<SeatEntities>, mut choices: Query<&mut Choices>) {
    for a in acts.read() {
        if let WanningAction::Ban { instincts } = &a.action {
            choices.get_mut(seats.get(a.seat)).expect("a seat").banned = Some(instincts.clone());
        }
    }
}

pub fn all_banned(choices: Query<&Choices>) -> bool {
    choices.iter().all(|c| c.banned.is_some())
}

/// The bans are drawn: an instinct named by x of the n players is banned
/// with probability x/n (or x/2n: a setting), one draw per instinct in
/// the seed's order; 預知 is never banned.
pub fn close_bans(
    seats: Res<SeatEntities>,
    choices: Query<&Choices>,
    settings: Res<Settings<WanningGame>>,
    mut rng: ResMut<TableRng>,
    mut banned: ResMut<Banned>,
    mut news: MessageWriter<WanningNews>,
    mut next: ResMut<NextState<WanningPhase>>,
) {
    let n = seats.0.len() as u32;
    let votes = |id: InstinctId| {
        seats
            .iter()
            .filter(|(_, e)| {
                choices
                    .get(*e)
                    .expect("a seat")
                    .banned
                    .as_ref()
                    .is_some_and(|b| b.contains(&id))
            })
            .count() as u32
    };
    let mut out = Vec::new();
    for id in ALL_INSTINCTS {
        let x = votes(id);
        if x == 0 || id == InstinctId::Foresight {
            continue;
        }
        let of = match settings.0.ban_odds {
            BanOdds::VotesPerPlayer => n,
            BanOdds::VotesPerVote => 2 * n,
        };
        if rng.0.random_range(0..of) < x {
            out.push(id);
        }
    }
    banned.0 = out.clone();
    news.write(WanningNews::Banned(out));
    news.write(WanningNews::PickOpen);
    next.set(WanningPhase::Pick);
}

/// The instincts a seat may pick now: those nobody banned, and, at a
/// table where two players may not share one, those nobody holds (if any
/// is left; 預知 is never banned).
pub fn pickable(banned: &Banned, taken: &[InstinctId]) -> Vec<InstinctId> {
    let free = |taken: &[InstinctId]| -> Vec<InstinctId> {
        ALL_INSTINCTS
            .into_iter()
            .filter(|i| !banned.0.contains(i) && !taken.contains(i))
            .collect()
    };
    let all = free(taken);
    if all.is_empty() { free(&[]) } else { all }
}

/// The instincts held, if the table does not let two players share one.
pub fn taken<'a>(
    settings: &WanningSettings,
    held: impl Iterator<Item = &'a Instinct>,
) -> Vec<InstinctId> {
    if settings.same_instinct {
        return vec![];
    }
    held.filter_map(|i| i.id).collect()
}

/// 笨鳥先飛's draw: 「獲得除此本能外的任意一個隨機本能」, one that was not
/// banned (nor held, at a table where two may not share one).
pub fn early_bird_draw(banned: &Banned, held: &[InstinctId], rng: &mut TableRng) -> InstinctId {
    let others: Vec<InstinctId> = pickable(banned, held)
        .into_iter()
        .filter(|i| *i != InstinctId::EarlyBird)
        .collect();
    others[rng.0.random_range(0..others.len())]
}

/// 「每位玩家可以選擇一個未被禁用的本能」. 笨鳥先飛 at once becomes a random
/// other instinct that was not banned, and gives a shield.
pub fn pick(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    banned: Res<Banned>,
    settings: Res<Settings<WanningGame>>,
    mut rng: ResMut<TableRng>,
    mut players: Query<(&mut Instinct, &mut Choices, &mut Life)>,
    mut news: MessageWriter<WanningNews>,
) {
    for a in acts.read() {
        let WanningAction::Pick { instinct: id } = a.action else {
            continue;
        };
        let held = taken(&settings.0, players.iter().map(|p| p.0));
        let (mut instinct, mut choices, mut life) =
            players.get_mut(seats.get(a.seat)).expect("a seat");
        choices.picked = true;
        let (id, early_bird) = if id == InstinctId::EarlyBird {
            life.shields += 1;
            (early_bird_draw(&banned, &held, &mut rng), true)
        } else {
            (id, false)
        };
        instinct.id = Some(id);
        instinct.early_bird = early_bird;
        news.write(WanningNews::Picked {
            seat: a.seat,
            instinct: id,
            early_bird,
        });
    }
}

pub fn all_picked(choices: Query<&Choices>) -> bool {
    choices.iter().all(|c| c.picked)
}

/// The form an instinct counts as (笨鳥先飛's: the drawn instinct's, or
/// none, as the table's setting says).
pub fn form_of(instinct: &Instinct, early_bird: EarlyBirdForm) -> Option<Form> {
    if instinct.early_bird && early_bird == EarlyBirdForm::Neither {
        return None;
    }
    instinct.id.and_then(|i| data().instinct(i).form)
}

/// The type a peek tells (笨鳥先飛's: the drawn instinct's).
pub fn kind_of(instinct: &Instinct) -> Option<Kind> {
    instinct.id.map(|i| data().instinct(i).kind)
}

/// 「將公布兩種本能形態本能被選擇人次的大小關係」: the counts' comparison
/// is announced (the narrator says which is more, not the counts).
/// 「遊戲開始時增加兩個護盾」 (強健) happens now too.
pub fn close_picks(
    instincts: Query<&Instinct>,
    settings: Res<Settings<WanningGame>>,
    mut counts: ResMut<FormCounts>,
    mut lives: Query<(&Instinct, &mut Life)>,
    seats: Res<SeatEntities>,
    mut news: MessageWriter<WanningNews>,
    mut next: ResMut<NextState<WanningPhase>>,
) {
    let (mut at, mut pt) = (0, 0);
    for i in &instincts {
        match form_of(i, settings.0.early_bird_form) {
            Some(Form::At) => at += 1,
            Some(Form::Pt) => pt += 1,
            None => {}
        }
    }
    for (seat, e) in seats.iter() {
        let (i, mut life) = lives.get_mut(e).expect("a seat");
        if i.id == Some(InstinctId::Sturdy) {
            life.shields += 2;
            let change = Change::new(Why::Sturdy, 0, 2, &life);
            news.write(WanningNews::Changed {
                seat,
                round: 0,
                change,
            });
        }
    }
    counts.0 = Some((at, pt));
    news.write(WanningNews::Forms { at, pt });
    next.set(WanningPhase::Peek);
}

/// 「每名玩家可以選擇一個目標，獲得ta的本能類型」.
pub fn peek(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut choices: Query<&mut Choices>,
    instincts: Query<&Instinct>,
    mut news: MessageWriter<WanningNews>,
) {
    for a in acts.read() {
        let WanningAction::Peek { target } = a.action else {
            continue;
        };
        choices.get_mut(seats.get(a.seat)).expect("a seat").peeked = true;
        if let Some(t) = target
            && let Some(kind) = kind_of(instincts.get(seats.get(t)).expect("a seat"))
        {
            news.write(WanningNews::Peeked {
                seat: a.seat,
                target: t,
                kind,
            });
        }
    }
}

pub fn all_peeked(choices: Query<&Choices>) -> bool {
    choices.iter().all(|c| c.peeked)
}

pub fn close_peeks(mut next: ResMut<NextState<WanningPhase>>) {
    next.set(WanningPhase::Orders);
}

/// The referee's defaults when a clock runs out (rules.md §8): no bans;
/// a random instinct; no peek; no orders (no action, no ability, no
/// instinct); no guess. They go to the same systems as players' moves.
#[derive(SystemParam)]
pub struct Defaults<'w, 's> {
    seats: Res<'w, SeatEntities>,
    players: Query<'w, 's, (&'static Choices, &'static Life, &'static Orders)>,
    instincts: Query<'w, 's, &'static Instinct>,
    settings: Res<'w, Settings<WanningGame>>,
    banned: Res<'w, Banned>,
    rng: ResMut<'w, TableRng>,
    acts: MessageWriter<'w, Accepted<WanningAction>>,
}

impl Defaults<'_, '_> {
    pub fn give(&mut self, phase: WanningPhase) {
        let seats: Vec<(SeatId, Entity)> = self.seats.iter().collect();
        for (seat, e) in seats {
            let (choices, life, orders) = self.players.get(e).expect("a seat");
            let action = match phase {
                WanningPhase::Ban if choices.banned.is_none() => {
                    WanningAction::Ban { instincts: vec![] }
                }
                WanningPhase::Pick if !choices.picked => {
                    let held = taken(&self.settings.0, self.instincts.iter());
                    let all = pickable(&self.banned, &held);
                    WanningAction::Pick {
                        instinct: all[self.rng.0.random_range(0..all.len())],
                    }
                }
                WanningPhase::Peek if !choices.peeked => WanningAction::Peek { target: None },
                WanningPhase::Orders if !life.dead() && orders.0.is_none() => {
                    WanningAction::Orders(Plan::default())
                }
                _ => continue,
            };
            self.acts.write(Accepted { seat, action });
        }
    }
}
