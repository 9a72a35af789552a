//! A round's moves (seed 「每回合按照發動能力及本能，玩家行動，主持人公布
//! 血量的流程進行」): the round opens, every living player gives their
//! orders, and the settlement (`settle.rs`) runs when the last are in.
//! Then 警惕's guesses; 預知 and private talk at any time.

use bevy_ecs::prelude::*;

use rand::RngExt;

use super::data::InstinctId;
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId, TableClock, TableRng};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<WanningAction>>;

/// A round opens: its number, fresh orders and tallies; and what comes
/// before the round's orders: 斷井頹垣 turns radical 「若上回合有人死亡」;
/// 幸運 draws 「玩家會在行動前先獲知本能行動類型」 「上回合無人死亡」; 茍且偷生
/// 「每回合前可發動惡意感知，知曉上一回合有多少人對象包含自己」.
pub fn dawn(
    mut round: ResMut<Round>,
    mut players: Query<(
        &Life,
        &mut Instinct,
        &mut Orders,
        &mut Tally,
        &mut LastTally,
    )>,
    seats: Res<SeatEntities>,
    last: Res<LastTargets>,
    deaths: Res<DeathsLastRound>,
    mut rng: ResMut<TableRng>,
    mut sung: ResMut<Sung>,
    mut omens: ResMut<OmenState>,
    mut news: MessageWriter<WanningNews>,
    mut scripted: Option<ResMut<ScriptedLuck>>,
) {
    round.0 += 1;
    sung.0 = false;
    omens.wards.clear();
    omens.cursed = std::mem::take(&mut omens.curse_next);
    for (seat, e) in seats.iter() {
        let (life, mut instinct, mut orders, mut tally, mut settled) =
            players.get_mut(e).expect("a seat");
        orders.0 = None;
        settled.0 = std::mem::take(&mut *tally);
        instinct.luck = None;
        if life.dead() {
            continue;
        }
        match instinct.id {
            Some(InstinctId::Ruins) if deaths.0 > 0 && !instinct.radical => {
                instinct.radical = true;
                news.write(WanningNews::Radical(seat));
            }
            Some(InstinctId::Luck) if deaths.0 == 0 => {
                let given = scripted
                    .as_mut()
                    .and_then(|s| s.0.get_mut(seat.index()))
                    .and_then(|q| q.pop_front());
                let draw = given.unwrap_or_else(|| {
                    [LuckDraw::Attack, LuckDraw::Guard, LuckDraw::Rest][rng.0.random_range(0..3)]
                });
                instinct.luck = Some(draw);
                news.write(WanningNews::LuckDrawn { seat, draw });
            }
            Some(InstinctId::Survive) if round.0 >= 2 => {
                news.write(WanningNews::Malice {
                    seat,
                    count: malice(&last, seat),
                });
            }
            _ => {}
        }
    }
    news.write(WanningNews::RoundBegins(round.0));
}

/// How many players named `seat` as an object last round.
pub fn malice(last: &LastTargets, seat: SeatId) -> u8 {
    let mut from: Vec<SeatId> = last
        .0
        .iter()
        .filter(|(f, t)| *t == seat && *f != seat)
        .map(|(f, _)| *f)
        .collect();
    from.sort();
    from.dedup();
    from.len() as u8
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
/// 不會得到反饋」: the guess is kept for this round's settlement.
pub fn guard(mut acts: Acts, seats: Res<SeatEntities>, mut instincts: Query<&mut Instinct>) {
    for a in acts.read() {
        if let WanningAction::Guard { guess } = a.action {
            instincts.get_mut(seats.get(a.seat)).expect("a seat").guess = guess;
        }
    }
}

/// 預知: 「指定（可以包括自己的）兩名玩家，獲得他們的等級高低及相等關係」.
pub fn foresee(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    beasts: Query<&Beast>,
    mut players: Query<&mut Instinct>,
    mut news: MessageWriter<WanningNews>,
) {
    for a in acts.read() {
        let WanningAction::Foresee { a: x, b: y } = a.action else {
            continue;
        };
        let level = |s| beasts.get(seats.get(s)).expect("a seat").level;
        players.get_mut(seats.get(a.seat)).expect("a seat").used += 1;
        news.write(WanningNews::Foreseen {
            seat: a.seat,
            a: x,
            b: y,
            order: level(x).cmp(&level(y)),
        });
    }
}

/// Private talk: 「任意兩名玩家可以自由交流」 (the no-lying rule is the
/// players' to keep): the line is kept by both players, each in their
/// own `Talk`, and nowhere a third seat can read.
pub fn say(
    mut acts: Acts,
    round: Res<Round>,
    clock: Res<TableClock>,
    seats: Res<SeatEntities>,
    mut talks: Query<&mut Talk>,
    mut news: MessageWriter<WanningNews>,
) {
    for a in acts.read() {
        if let WanningAction::Say { to, text } = &a.action {
            let line = TalkLine {
                round: round.0,
                at_ms: clock.now_ms,
                from: a.seat,
                to: *to,
                text: text.clone(),
            };
            for s in [a.seat, *to] {
                talks
                    .get_mut(seats.get(s))
                    .expect("a seat")
                    .0
                    .push(line.clone());
            }
            news.write(WanningNews::Said {
                from: a.seat,
                to: *to,
                text: text.clone(),
            });
        }
    }
}
