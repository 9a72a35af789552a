//! A round's moves (seed 「每回合按照發動能力及本能，玩家行動，主持人公布
//! 血量的流程進行」): the round opens, every living player gives their
//! orders, and the settlement (`settle.rs`) runs when the last are in.
//! Then 警惕's guesses; 預知 and private talk at any time.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::state::*;
use crate::table::{Accepted, SeatEntities};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<WanningAction>>;

/// A round opens: its number, fresh orders and tallies.
pub fn dawn(
    mut round: ResMut<Round>,
    mut players: Query<(&mut Orders, &mut Tally)>,
    mut sung: ResMut<Sung>,
    mut news: MessageWriter<WanningNews>,
) {
    round.0 += 1;
    sung.0 = false;
    for (mut orders, mut tally) in &mut players {
        orders.0 = None;
        *tally = Tally::default();
    }
    news.write(WanningNews::RoundBegins(round.0));
}

pub fn orders(mut acts: Acts, seats: Res<SeatEntities>, mut orders: Query<&mut Orders>) {
    for a in acts.read() {
        if let WanningAction::Orders(plan) = &a.action {
            orders.get_mut(seats.get(a.seat)).expect("a seat").0 = Some(plan.clone());
        }
    }
}

/// Every living player has given orders.
pub fn all_ordered(players: Query<(&Life, &Orders)>) -> bool {
    players.iter().all(|(l, o)| l.dead() || o.0.is_some())
}

/// 警惕: 「選定一名玩家，並猜測他的等級，若猜對，下一回合可以對該玩家造成x點
/// 真實傷害（x為你在回合內扣除的生命值，且最多為3），不可連續對同一人觸發，
/// 不會得到反饋」.
pub fn guard(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    beasts: Query<&Beast>,
    mut players: Query<(&mut Tally, &mut Instinct)>,
) {
    for a in acts.read() {
        let WanningAction::Guard { guess } = a.action else {
            continue;
        };
        let (mut tally, mut instinct) = players.get_mut(seats.get(a.seat)).expect("a seat");
        tally.guard_owed = false;
        if let Some((target, level)) = guess
            && beasts.get(seats.get(target)).expect("a seat").level == level
        {
            instinct.revenge = Some((target, tally.lost.min(3)));
        }
    }
}

pub fn all_guarded(tallies: Query<&Tally>) -> bool {
    tallies.iter().all(|t| !t.guard_owed)
}

pub fn close_vigil(mut next: ResMut<NextState<WanningPhase>>) {
    next.set(WanningPhase::Orders);
}

/// 預知: 「指定（可以包括自己的）兩名玩家，獲得他們的等級高低及相等關係」.
pub fn foresee(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    beasts: Query<&Beast>,
    mut players: Query<(&mut Choices, &mut Instinct)>,
    mut news: MessageWriter<WanningNews>,
) {
    for a in acts.read() {
        let WanningAction::Foresee { a: x, b: y } = a.action else {
            continue;
        };
        let level = |s| beasts.get(seats.get(s)).expect("a seat").level;
        let (mut choices, mut instinct) = players.get_mut(seats.get(a.seat)).expect("a seat");
        choices.foresights += 1;
        instinct.used += 1;
        news.write(WanningNews::Foreseen {
            seat: a.seat,
            a: x,
            b: y,
            order: level(x).cmp(&level(y)),
        });
    }
}

/// Private talk: 「任意兩名玩家可以自由交流」 (the no-lying rule is the
/// players' to keep).
pub fn say(mut acts: Acts, mut news: MessageWriter<WanningNews>) {
    for a in acts.read() {
        if let WanningAction::Say { to, text } = &a.action {
            news.write(WanningNews::Said {
                from: a.seat,
                to: *to,
                text: text.clone(),
            });
        }
    }
}
