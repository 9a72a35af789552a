//! The one place a Wanning Beast Chess action is judged: what each phase
//! accepts, and a small check for each move. It reads the world and never
//! changes it. It never refuses on what the seat cannot know (another
//! seat's level, instinct or true HP): a condition that rests on a secret
//! is the settlement's to apply, silently (rules.md §3).

use bevy_ecs::prelude::*;

use super::data::{Form, InstinctId, data};
use super::outcome::phase;
use super::settings::{
    LastStandUses, SlaughterRest, TALK_BURST, TALK_WINDOW_MS, WanningGame, WanningSettings,
};
use super::state::*;
use crate::table::{Moves, SeatEntities, SeatId, Seated, Settings, TableClock};

/// The longest private message, in characters.
pub const SAY_CHARS: usize = 200;

/// Locked instincts (「鎖定」): no instinct-invalid reaches them.
pub fn locked(id: InstinctId) -> bool {
    matches!(
        id,
        InstinctId::Grudge | InstinctId::Spokesman | InstinctId::Omens
    )
}

/// Where an instinct stands on the invalid ladder, 「殺戮>制衡>幸運休>替身
/// 力量、趨吉避兇>其它本能（包括幸運攻等）」: 幸運 stands where its draw
/// puts it (休 on its own rung, 攻 and 守 at the bottom).
pub fn instinct_priority(id: InstinctId, luck: Option<LuckDraw>) -> Priority {
    match id {
        InstinctId::Balance => Priority::Balance,
        InstinctId::Luck if luck == Some(LuckDraw::Rest) => Priority::LuckRest,
        InstinctId::Stand | InstinctId::Omens => Priority::StandOmens,
        _ => Priority::Others,
    }
}

/// The kinds of move, one per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Ban,
    Pick,
    Peek,
    Orders,
    Foresee,
    Guard,
    Say,
}

impl crate::table::Moves for WanningAction {
    type Move = Move;

    fn kind(&self) -> Move {
        match self {
            WanningAction::Ban { .. } => Move::Ban,
            WanningAction::Pick { .. } => Move::Pick,
            WanningAction::Peek { .. } => Move::Peek,
            WanningAction::Orders(_) => Move::Orders,
            WanningAction::Foresee { .. } => Move::Foresee,
            WanningAction::Guard { .. } => Move::Guard,
            WanningAction::Say { .. } => Move::Say,
        }
    }
}

/// What each phase accepts. 預知 「可在任意時刻發動」 once instincts are
/// picked; talk from round 1's announcement on.
pub fn moves(phase: WanningPhase) -> &'static [Move] {
    match phase {
        WanningPhase::Idle | WanningPhase::GameOver => &[],
        WanningPhase::Ban => &[Move::Ban],
        WanningPhase::Pick => &[Move::Pick],
        WanningPhase::Peek => &[Move::Peek, Move::Foresee],
        WanningPhase::Orders => &[Move::Orders, Move::Guard, Move::Foresee, Move::Say],
    }
}

/// Why an action is refused. The narrator words it (`news::refusal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotNow,
    GameOver,
    UnknownSeat(SeatId),
    Dead,
    TooManyBans,
    BanTwice,
    ForesightUnbannable,
    BannedAlready,
    Picked,
    InstinctBanned,
    TakenInstinct,
    Peeked,
    NotYourself,
    TargetDead,
    OrdersGiven,
    NoTargetForSecond,
    NoSecondAttack,
    NotLevel4,
    SlaughterSpent,
    SlaughterResting,
    WisdomNotYours,
    WisdomSpent,
    WisdomTooEarly {
        from: u8,
    },
    /// 大智若愚's own round: 「第2/3/4回合後任意回合」.
    WiseFoolTooEarly {
        from: u8,
    },
    /// 大智若愚: 「且上一回合沒有使用智慧」.
    WiseFoolAfterWisdom,
    WisdomShape,
    NotYourInstinct,
    InstinctSpent,
    InstinctResting,
    SameTargetTwice,
    TargetTooLow,
    ConditionUnmet,
    MarkTwoPlayers,
    MarksFull,
    NoCurse,
    NameCurse,
    OmensEveryRound,
    GivesUpAction,
    BeastTarget,
    NoGuardOwed,
    BadLevel,
    TalkNotYet,
    SayLength,
    TalkRound {
        most: u16,
    },
    TalkGame {
        most: u16,
    },
    TalkFast,
}

fn seat_exists(world: &World, s: SeatId) -> Result<(), Refusal> {
    if s.index() < world.resource::<SeatEntities>().0.len() {
        Ok(())
    } else {
        Err(Refusal::UnknownSeat(s))
    }
}

/// A living player other than the mover.
fn other_living(world: &World, me: SeatId, s: SeatId) -> Result<(), Refusal> {
    seat_exists(world, s)?;
    if s == me {
        return Err(Refusal::NotYourself);
    }
    if Seated::new(world).get::<Life>(s).dead() {
        return Err(Refusal::TargetDead);
    }
    Ok(())
}

pub fn judge(world: &World, seat: SeatId, action: &WanningAction) -> Result<(), Refusal> {
    let phase = phase(world);
    if phase == WanningPhase::GameOver {
        return Err(Refusal::GameOver);
    }
    if !moves(phase).contains(&action.kind()) {
        return Err(Refusal::NotNow);
    }
    let at = Seated::new(world);
    if at.get::<Life>(seat).dead() {
        // The dead give no orders and do not talk; a 警惕 owner who died
        // last round still guesses (「死亡時可用」).
        let died = at.get::<Life>(seat).died;
        let round = world.resource::<Round>().0;
        if !(died == Some(round.saturating_sub(1)) && action.kind() == Move::Guard) {
            return Err(Refusal::Dead);
        }
    }
    match action {
        WanningAction::Ban { instincts } => ban(world, seat, instincts),
        WanningAction::Pick { instinct } => pick(world, seat, *instinct),
        WanningAction::Peek { target } => {
            if at.get::<Choices>(seat).peeked {
                return Err(Refusal::Peeked);
            }
            match target {
                Some(t) if *t == seat => Err(Refusal::NotYourself),
                Some(t) => seat_exists(world, *t),
                None => Ok(()),
            }
        }
        WanningAction::Orders(plan) => orders(world, seat, plan),
        WanningAction::Foresee { a, b } => {
            seat_exists(world, *a)?;
            seat_exists(world, *b)?;
            if at.get::<Instinct>(seat).id != Some(InstinctId::Foresight) {
                return Err(Refusal::NotYourInstinct);
            }
            if at.get::<Instinct>(seat).used >= foresights(at.seats.0.len()) {
                return Err(Refusal::InstinctSpent);
            }
            Ok(())
        }
        WanningAction::Guard { guess } => {
            if !at.get::<Instinct>(seat).guard_owed {
                return Err(Refusal::NoGuardOwed);
            }
            if let Some((t, level)) = guess {
                seat_exists(world, *t)?;
                if *t == seat {
                    return Err(Refusal::NotYourself);
                }
                if !(1..=4).contains(level) {
                    return Err(Refusal::BadLevel);
                }
                if at.get::<Instinct>(seat).last_target == Some(*t) {
                    return Err(Refusal::SameTargetTwice);
                }
            }
            Ok(())
        }
        WanningAction::Say { to, text } => {
            if !talk_open(world.resource::<Round>().0, phase) {
                return Err(Refusal::TalkNotYet);
            }
            seat_exists(world, *to)?;
            if *to == seat {
                return Err(Refusal::NotYourself);
            }
            if at.get::<Life>(*to).dead() {
                return Err(Refusal::TargetDead);
            }
            let n = text.chars().count();
            if n == 0 || n > SAY_CHARS || text.chars().any(char::is_control) {
                return Err(Refusal::SayLength);
            }
            talk_left(world, seat)
        }
    }
}

/// 「第一回合公布血量後，任意兩名玩家可以自由交流」: whether players may talk
/// in `round`'s `phase` (the judge's rule, and what a seat's view shows).
pub fn talk_open(round: u8, phase: WanningPhase) -> bool {
    round > 0 && !(phase == WanningPhase::Orders && round < 2)
}

/// Refused past the table's bounds on a player's talk (issue 70): lines
/// this round, lines this game, and `TALK_BURST` within `TALK_WINDOW_MS`.
fn talk_left(world: &World, seat: SeatId) -> Result<(), Refusal> {
    let settings = &world.resource::<Settings<WanningGame>>().0;
    let round = world.resource::<Round>().0;
    let now = world.resource::<TableClock>().now_ms;
    let at = Seated::new(world);
    let mine: Vec<&TalkLine> = at
        .get::<Talk>(seat)
        .0
        .iter()
        .filter(|l| l.from == seat)
        .collect();
    let this_round = mine.iter().filter(|l| l.round == round).count();
    if this_round >= settings.talk_per_round as usize {
        return Err(Refusal::TalkRound {
            most: settings.talk_per_round,
        });
    }
    if mine.len() >= settings.talk_per_game as usize {
        return Err(Refusal::TalkGame {
            most: settings.talk_per_game,
        });
    }
    let lately = mine
        .iter()
        .filter(|l| now < l.at_ms + TALK_WINDOW_MS)
        .count();
    if lately >= TALK_BURST {
        return Err(Refusal::TalkFast);
    }
    Ok(())
}

/// Every move `seat` might make now (`Game::candidates`), over the pieces
/// a player uses; the judge picks. For each move the phase accepts: each
/// instinct banned alone, and no ban (the ban's two instincts are two
/// such pieces); each instinct picked; each seat peeked, and no peek; each
/// seat foreseen, with the seat itself as the other (「可以包括自己的」);
/// each seat guessed by 警惕 (at level 1), and no guess. Orders in their
/// plainest forms: none at all; each seat as the target, as the target
/// with the second attack on it too, as 殺戮's target; the seat's own
/// instinct on each seat (外交部發言人 on each pair), or with nothing
/// named where it names nobody (仁慈 with each target); a wisdom guess
/// and a 大智若愚 guess, each in one shape that fits the table (the
/// seat's own level in its place, the other levels 1, or as the deal
/// gives them; every form AT). 趨吉避兇's owner's orders all carry it:
/// 吉 without a curse and with level 1 cursed, or 兇 on each seat. Talk
/// not at all.
pub fn candidates(world: &World, seat: SeatId) -> Vec<WanningAction> {
    let seats: Vec<SeatId> = (0..world.resource::<SeatEntities>().0.len())
        .map(|i| SeatId(i as u8))
        .collect();
    let mut out = Vec::new();
    for kind in moves(phase(world)) {
        match kind {
            Move::Ban => {
                out.push(WanningAction::Ban { instincts: vec![] });
                out.extend(data().instincts.iter().map(|i| WanningAction::Ban {
                    instincts: vec![i.id],
                }));
            }
            Move::Pick => out.extend(
                data()
                    .instincts
                    .iter()
                    .map(|i| WanningAction::Pick { instinct: i.id }),
            ),
            Move::Peek => {
                out.push(WanningAction::Peek { target: None });
                out.extend(
                    seats
                        .iter()
                        .map(|&t| WanningAction::Peek { target: Some(t) }),
                );
            }
            Move::Foresee => {
                out.extend(seats.iter().map(|&a| WanningAction::Foresee { a, b: seat }));
            }
            Move::Guard => {
                out.push(WanningAction::Guard { guess: None });
                out.extend(seats.iter().map(|&t| WanningAction::Guard {
                    guess: Some((t, 1)),
                }));
            }
            Move::Orders => out.extend(
                plain_plans(world, seat, &seats)
                    .into_iter()
                    .map(WanningAction::Orders),
            ),
            Move::Say => {}
        }
    }
    out
}

/// The plainest orders naming each seat in each part (`candidates`).
fn plain_plans(world: &World, seat: SeatId, seats: &[SeatId]) -> Vec<Plan> {
    let at = Seated::new(world);
    let id = at.get::<Instinct>(seat).id;
    // 趨吉避兇's owner must use it (「每回合必須發動」): every plan carries
    // 吉, with and without a curse.
    let bases: Vec<Option<InstinctUse>> = if id == Some(InstinctId::Omens) {
        [None, Some(1)]
            .map(|curse| Some(InstinctUse::Omens { ill: None, curse }))
            .to_vec()
    } else {
        vec![None]
    };
    let mut plans = Vec::new();
    for instinct in &bases {
        let plan = Plan {
            instinct: instinct.clone(),
            ..Plan::default()
        };
        plans.push(plan.clone());
        for &t in seats {
            plans.push(Plan {
                target: Some(t),
                ..plan.clone()
            });
            plans.push(Plan {
                target: Some(t),
                second: Some(t),
                ..plan.clone()
            });
            plans.push(Plan {
                slaughter: Some(t),
                ..plan.clone()
            });
        }
        plans.push(Plan {
            wisdom: Some(plain_wisdom(world, seat)),
            ..plan
        });
    }
    let with = |instinct: InstinctUse| Plan {
        instinct: Some(instinct),
        ..Plan::default()
    };
    let Some(id) = id else { return plans };
    match id {
        InstinctId::Sturdy => plans.push(with(InstinctUse::Sturdy)),
        InstinctId::Poison => plans.push(with(InstinctUse::Poison)),
        InstinctId::Balance => plans.push(with(InstinctUse::Balance)),
        InstinctId::Diva => plans.push(with(InstinctUse::Diva)),
        InstinctId::Independence => plans.push(with(InstinctUse::Independence)),
        InstinctId::LastStand => plans.push(with(InstinctUse::LastStand)),
        InstinctId::Survive => plans.push(with(InstinctUse::Survive)),
        InstinctId::Mercy => plans.extend(seats.iter().map(|&t| Plan {
            target: Some(t),
            ..with(InstinctUse::Mercy)
        })),
        InstinctId::Spokesman => {
            for &a in seats {
                plans.extend(seats.iter().map(|&b| with(InstinctUse::Mark { a, b })));
            }
        }
        InstinctId::FoolWise => plans.push(with(plain_fool_wise(world, seat))),
        InstinctId::Omens => {
            for curse in [None, Some(1)] {
                plans.extend(seats.iter().map(|&t| {
                    with(InstinctUse::Omens {
                        ill: Some(t),
                        curse,
                    })
                }));
            }
        }
        InstinctId::Alliance
        | InstinctId::Bluff
        | InstinctId::Beast
        | InstinctId::Ruins
        | InstinctId::Luck
        | InstinctId::Grudge
        | InstinctId::Pair
        | InstinctId::Stand => {
            plans.extend(seats.iter().map(|&target| {
                with(match id {
                    InstinctId::Alliance => InstinctUse::Alliance { target },
                    InstinctId::Bluff => InstinctUse::Bluff { target },
                    InstinctId::Beast => InstinctUse::Beast { target },
                    InstinctId::Ruins => InstinctUse::Ruins { target },
                    InstinctId::Luck => InstinctUse::Luck { target },
                    InstinctId::Grudge => InstinctUse::Grudge { target },
                    InstinctId::Pair => InstinctUse::Pair { target },
                    _ => InstinctUse::Stand { target },
                })
            }));
        }
        // Automatic, their own moves, or spent at the pick.
        InstinctId::Rage
        | InstinctId::Bloodlust
        | InstinctId::EarlyBird
        | InstinctId::Foresight
        | InstinctId::Vigilance => {}
    }
    plans
}

/// A wisdom guess of the shape the table asks now: the seat's own level
/// in its place and 1 elsewhere; the forms of the first seats after it,
/// all AT.
fn plain_wisdom(world: &World, seat: SeatId) -> Guess {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let round = world.resource::<Round>().0;
    let own = at.get::<Beast>(seat).level;
    let forms = n / 2 + usize::from(round as usize >= n.div_ceil(2));
    Guess {
        levels: (0..n)
            .map(|i| if i == seat.index() { own } else { 1 })
            .collect(),
        forms: (1..n)
            .map(|k| SeatId(((seat.index() + k) % n) as u8))
            .take(forms)
            .map(|s| (s, Form::At))
            .collect(),
    }
}

/// A 大智若愚 guess that fits the deal: the levels dealt, the seat's own
/// in its place; every form AT.
fn plain_fool_wise(world: &World, seat: SeatId) -> InstinctUse {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let own = at.get::<Beast>(seat).level;
    let mut levels = data().levels_for(n);
    if let Some(k) = levels.iter().position(|l| *l == own) {
        levels.remove(k);
    }
    levels.insert(seat.index().min(levels.len()), own);
    InstinctUse::FoolWise {
        levels,
        forms: vec![Form::At; n],
    }
}

/// 預知's uses: 「每局觸發次數在人數達到4-5/6-8/9時為1/2/3」 (data).
pub fn foresights(players: usize) -> u8 {
    data().uses(InstinctId::Foresight, players).unwrap_or(0)
}

fn ban(world: &World, seat: SeatId, instincts: &[InstinctId]) -> Result<(), Refusal> {
    if Seated::new(world).get::<Choices>(seat).banned.is_some() {
        return Err(Refusal::BannedAlready);
    }
    if instincts.len() > 2 {
        return Err(Refusal::TooManyBans);
    }
    if instincts.len() == 2 && instincts[0] == instincts[1] {
        return Err(Refusal::BanTwice);
    }
    if instincts.contains(&InstinctId::Foresight) {
        return Err(Refusal::ForesightUnbannable);
    }
    Ok(())
}

fn pick(world: &World, seat: SeatId, id: InstinctId) -> Result<(), Refusal> {
    let at = Seated::new(world);
    if at.get::<Choices>(seat).picked {
        return Err(Refusal::Picked);
    }
    if world.resource::<Banned>().0.contains(&id) {
        return Err(Refusal::InstinctBanned);
    }
    if !world.resource::<Settings<WanningGame>>().0.same_instinct
        && at
            .seats
            .iter()
            .any(|(s, _)| s != seat && at.get::<Instinct>(s).id == Some(id))
    {
        return Err(Refusal::TakenInstinct);
    }
    Ok(())
}

/// How many uses an instinct has at `players` (`None`: no limit): the
/// seed's limits (data), and 垂死抗爭's once a game where the table keeps
/// that reading.
pub fn uses(id: InstinctId, players: usize, settings: &WanningSettings) -> Option<u8> {
    match id {
        InstinctId::LastStand if settings.last_stand == LastStandUses::Once => Some(1),
        _ => data().uses(id, players),
    }
}

/// Whether an instinct rests a round after each use: the seed's
/// 「一回合冷卻」 (data), and 強健's where the table keeps that house rule.
pub fn rests(id: InstinctId, settings: &WanningSettings) -> bool {
    data().instinct(id).rest || (id == InstinctId::Sturdy && settings.sturdy_rest)
}

/// Whether the seat's instinct rests in `round`: used in the round before,
/// and it rests after each use.
pub fn resting(instinct: &Instinct, round: u8, settings: &WanningSettings) -> bool {
    instinct.id.is_some_and(|id| rests(id, settings))
        && instinct.last_round.is_some_and(|r| r + 1 == round)
}

fn orders(world: &World, seat: SeatId, plan: &Plan) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let round = world.resource::<Round>().0;
    if at.get::<Orders>(seat).0.is_some() {
        return Err(Refusal::OrdersGiven);
    }
    let level = at.get::<Beast>(seat).level;
    let life = at.get::<Life>(seat);
    for t in [plan.target, plan.second, plan.slaughter]
        .into_iter()
        .flatten()
    {
        other_living(world, seat, t)?;
    }
    if plan.second.is_some() {
        if plan.target.is_none() {
            return Err(Refusal::NoTargetForSecond);
        }
        // 發怒: 「自己上一回合血量小於等於最大血量的一半」 (the seat knows its
        // own HP); 野心 (level 4): 「上回合血量不為全場血量最高」 on true HP
        // (tied for the highest is the highest: another must have more),
        // refused only when the seat can know it fails: HP never rises
        // between rounds, so no one's true HP is above what the table heard,
        // and a seat whose own HP is at least every other announced HP is
        // the highest. The rest is the settlement's, silently.
        let max = n as i32 - 1;
        let mine = at.get::<Instinct>(seat);
        let rage = mine.id == Some(InstinctId::Rage) && life.last_hp * 2 <= max;
        // 垂死抗爭, this round or the one after it was used.
        let stand = mine.id == Some(InstinctId::LastStand)
            && (mine.stand_until.is_some_and(|r| r >= round)
                || matches!(plan.instinct, Some(InstinctUse::LastStand)));
        let ambition = level == 4
            && at
                .seats
                .iter()
                .any(|(s, _)| s != seat && at.get::<Life>(s).announced > life.known);
        if !(rage || stand || ambition) {
            return Err(Refusal::NoSecondAttack);
        }
    }
    if plan.slaughter.is_some() {
        if level != 4 {
            return Err(Refusal::NotLevel4);
        }
        let a = at.get::<Abilities>(seat);
        if a.slaughter_used >= data().slaughter_uses(n) {
            return Err(Refusal::SlaughterSpent);
        }
        let rest = match world.resource::<Settings<WanningGame>>().0.slaughter_rest {
            SlaughterRest::NotFirstRound => round == 1,
            SlaughterRest::NotTwiceInARow => a.slaughter_last == Some(round.saturating_sub(1)),
        };
        if rest {
            return Err(Refusal::SlaughterResting);
        }
    }
    if let Some(g) = &plan.wisdom {
        wisdom(world, seat, g)?;
    }
    if let Some(i) = &plan.instinct {
        instinct(world, seat, plan, i)?;
    }
    // 趨吉避兇: 「鎖定，每回合必須發動」.
    if at.get::<Instinct>(seat).id == Some(InstinctId::Omens)
        && !matches!(plan.instinct, Some(InstinctUse::Omens { .. }))
    {
        return Err(Refusal::OmensEveryRound);
    }
    Ok(())
}

/// 智慧: 「判斷其他所有玩家的等級，並且選定n/2下取整個除自己等級以外的動物，
/// 指出他們的本能形態。在n/2上取整回合及以後智慧則需額外指出一名玩家的本能
/// 形態」; level 2 from round 2/3/4 at 4-5/6-8/9-10 players; once each.
fn wisdom(world: &World, seat: SeatId, g: &Guess) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let round = world.resource::<Round>().0;
    let level = at.get::<Beast>(seat).level;
    if level > 2 {
        return Err(Refusal::WisdomNotYours);
    }
    if at.get::<Abilities>(seat).wisdom_used {
        return Err(Refusal::WisdomSpent);
    }
    let from = data().wisdom_from_round(n);
    if level == 2 && round < from {
        return Err(Refusal::WisdomTooEarly { from });
    }
    let forms = n / 2 + usize::from(round as usize >= n.div_ceil(2));
    let mut named: Vec<SeatId> = g.forms.iter().map(|(s, _)| *s).collect();
    named.sort();
    named.dedup();
    let shape = g.levels.len() == n
        && g.levels.iter().all(|l| (1..=4).contains(l))
        && g.levels[seat.index()] == level
        && g.forms.len() == forms
        && named.len() == forms
        && named.iter().all(|s| s.index() < n && *s != seat);
    if !shape {
        return Err(Refusal::WisdomShape);
    }
    Ok(())
}

fn instinct(world: &World, seat: SeatId, plan: &Plan, i: &InstinctUse) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let round = world.resource::<Round>().0;
    let mine = at.get::<Instinct>(seat);
    let needed = i.instinct();
    if mine.id != Some(needed) {
        return Err(Refusal::NotYourInstinct);
    }
    let settings = &world.resource::<Settings<WanningGame>>().0;
    if uses(needed, n, settings).is_some_and(|u| mine.used >= u) {
        return Err(Refusal::InstinctSpent);
    }
    if resting(mine, round, settings) {
        return Err(Refusal::InstinctResting);
    }
    match (i, i.target()) {
        // 幸運守 may shield the owner itself.
        (InstinctUse::Luck { .. }, Some(t)) if t == seat && mine.luck == Some(LuckDraw::Guard) => {}
        (_, Some(t)) => other_living(world, seat, t)?,
        (_, None) => {}
    }
    let life = at.get::<Life>(seat);
    match i {
        // 「放棄攻擊/感應」, 「放棄行動」.
        InstinctUse::Alliance { .. }
        | InstinctUse::Diva
        | InstinctUse::Pair { .. }
        | InstinctUse::Stand { .. }
            if plan.target.is_some() || plan.second.is_some() =>
        {
            Err(Refusal::GivesUpAction)
        }
        // 「不可連續對同一人發動」 / 「不可連續對同一人使用」.
        InstinctUse::Pair { target } | InstinctUse::Stand { target }
            if mine.last_target == Some(*target) =>
        {
            Err(Refusal::SameTargetTwice)
        }
        // 垂死抗爭: 「剩餘血量小於等於3」.
        InstinctUse::LastStand if life.known > 3 => Err(Refusal::ConditionUnmet),
        // 斷井頹垣: the radical state's action only.
        InstinctUse::Ruins { .. } if !mine.radical => Err(Refusal::ConditionUnmet),
        // 幸運: 「上回合無人死亡」, drawn at the round's start.
        InstinctUse::Luck { .. } if mine.luck.is_none() => Err(Refusal::ConditionUnmet),
        // 臥薪嘗膽: 「上回合受到傷害」, before shields (rules.md §3).
        InstinctUse::Grudge { .. } if life.damaged_last == 0 => Err(Refusal::ConditionUnmet),
        // 外交部發言人: 「每回合標記兩個人，每個人至多被同一人的外交部標記
        // 三次」.
        InstinctUse::Mark { a, b } => {
            other_living(world, seat, *b)?;
            if a == b {
                return Err(Refusal::MarkTwoPlayers);
            }
            let full = |t: &SeatId| mine.marks.iter().any(|(m, k)| m == t && *k >= 3);
            if full(a) || full(b) {
                return Err(Refusal::MarksFull);
            }
            Ok(())
        }
        // 大智若愚: 「當人數為4-5/6-8/9時可在第2/3/4回合後任意回合且上一回合
        // 沒有使用智慧……等級數目必須和分配角色時等級數目符合」.
        InstinctUse::FoolWise { levels, forms } => wisdom_guess(world, seat, levels, forms),
        // 趨吉避兇: a curse only with an even round's 吉+兇 or 兇+吉.
        InstinctUse::Omens { curse, .. } => omens(world, seat, i, *curse),
        // 仁慈: 「被攻擊目標上回合血量小於等於最大生命值1/2」 on the target's
        // true HP, which the seat cannot know (a target that used 獨立宣言
        // may be lower than announced): the settlement applies it, silently.
        // 「被攻擊目標」: the Mercy player attacks (levels 2-4).
        InstinctUse::Mercy => match plan.target {
            None => Err(Refusal::ConditionUnmet),
            Some(_) if at.get::<Beast>(seat).level < 2 => Err(Refusal::ConditionUnmet),
            Some(_) => Ok(()),
        },
        // 狐假虎威: 「目標的血量>2……不可對同一目標連續發動」 on true HP:
        // refused when the announced HP is 2 or less (the true HP is never
        // above it), else the settlement checks it, silently.
        InstinctUse::Bluff { target } => {
            if mine.last_target == Some(*target) {
                return Err(Refusal::SameTargetTwice);
            }
            if at.get::<Life>(*target).announced <= 2 {
                return Err(Refusal::TargetTooLow);
            }
            Ok(())
        }
        // 獸性: 「不可指定其為行動目標」.
        InstinctUse::Beast { target }
            if plan.target == Some(*target) || plan.second == Some(*target) =>
        {
            Err(Refusal::BeastTarget)
        }
        _ => Ok(()),
    }
}

/// 大智若愚's guess: 「當人數為4-5/6-8/9時可在第2/3/4回合後任意回合且上一回合
/// 沒有使用智慧……等級數目必須和分配角色時等級數目符合」.
fn wisdom_guess(world: &World, seat: SeatId, levels: &[u8], forms: &[Form]) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let n = at.seats.0.len();
    let round = world.resource::<Round>().0;
    let from = data().wisdom_from_round(n);
    if round <= from {
        return Err(Refusal::WiseFoolTooEarly { from: from + 1 });
    }
    if at.get::<Abilities>(seat).wisdom_round == Some(round - 1) {
        return Err(Refusal::WiseFoolAfterWisdom);
    }
    let own = at.get::<Beast>(seat).level;
    let mut counts = [0usize; 4];
    for l in levels {
        if let Some(c) = counts.get_mut((*l as usize).wrapping_sub(1)) {
            *c += 1;
        }
    }
    let dealt: Vec<usize> = (1..=4).map(|l| data().count_of(n, l)).collect();
    if levels.len() != n
        || forms.len() != n
        || levels.get(seat.index()) != Some(&own)
        || counts.to_vec() != dealt
    {
        return Err(Refusal::WisdomShape);
    }
    Ok(())
}

/// 趨吉避兇: a curse only with an even round's 吉+兇 or 兇+吉.
fn omens(world: &World, seat: SeatId, i: &InstinctUse, curse: Option<u8>) -> Result<(), Refusal> {
    let round = world.resource::<Round>().0;
    let mine = Seated::new(world).get::<Instinct>(seat);
    let mixed = round.is_multiple_of(2)
        && mine
            .omen_last
            .is_some_and(|last| last != matches!(i, InstinctUse::Omens { ill: Some(_), .. }));
    match curse {
        Some(_) if !mixed => Err(Refusal::NoCurse),
        Some(l) if !(1..=4).contains(&l) => Err(Refusal::BadLevel),
        None if mixed => Err(Refusal::NameCurse),
        _ => Ok(()),
    }
}

/// Seats the table waits on.
pub fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
    let at = Seated::new(world);
    let phase = phase(world);
    crate::table::refill(
        into,
        at.seats.iter().map(|(s, _)| s).filter(|&s| match phase {
            WanningPhase::Ban => at.get::<Choices>(s).banned.is_none(),
            WanningPhase::Pick => !at.get::<Choices>(s).picked,
            WanningPhase::Peek => !at.get::<Choices>(s).peeked,
            WanningPhase::Orders => !at.get::<Life>(s).dead() && at.get::<Orders>(s).0.is_none(),
            WanningPhase::Idle | WanningPhase::GameOver => false,
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wanning::data::PLAYERS;

    #[test]
    fn the_seeds_counts() {
        assert_eq!(foresights(5), 1);
        assert_eq!(foresights(8), 2);
        assert_eq!(foresights(10), 3);
        let s = WanningSettings::default();
        assert_eq!(uses(InstinctId::Beast, 7, &s), Some(2));
        assert_eq!(uses(InstinctId::Beast, 8, &s), Some(3));
        for n in PLAYERS {
            assert!(uses(InstinctId::Independence, n, &s).is_some());
        }
    }
}
