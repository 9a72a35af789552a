//! What one seat of a Wanning Beast Chess table may know, and nothing
//! more: its own level, animal, instinct, shields and known HP; everyone's
//! HP as announced; who has given orders. Private answers (sensing,
//! 預知, peeks, wisdom's feedback) reach the seat as notes.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::data::{Form, InstinctId, Kind, data};
use super::moves::{foresights, resting, uses};
use super::outcome::{phase, result};
use super::settings::WanningGame;
use super::settings::WanningTimer;
use super::state::*;
use crate::table::{Deadlines, GameResult, SeatId, SeatName, Seated, Seats, Settings, TableClock};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPublic {
    pub seat: SeatId,
    pub name: SeatName,
    /// HP as the table last heard it.
    pub hp: i32,
    pub dead: bool,
    /// The seat has given its orders (or bans, pick, peek) for this step.
    pub done: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WanningView {
    pub me: Option<SeatId>,
    pub phase: WanningPhase,
    pub round: u8,
    pub round_cap: u8,
    pub seats: Vec<SeatPublic>,
    pub banned: Vec<InstinctId>,
    /// How AT picks compare with PT picks, once announced (the comparison
    /// only: 「公布……大小關係」).
    pub forms: Option<FormsPicked>,
    /// The viewer's own secrets.
    pub level: Option<u8>,
    pub animal: Option<usize>,
    pub instinct: Option<InstinctId>,
    pub instinct_form: Option<Form>,
    pub shields: i32,
    /// The viewer's HP as it knows it.
    pub hp: Option<i32>,
    /// The viewer's HP last round (what its instincts' conditions read).
    pub last_hp: Option<i32>,
    pub instinct_uses_left: Option<u8>,
    /// The round the viewer's instinct was last used in.
    pub instinct_last_round: Option<u8>,
    /// Whether the viewer's instinct rests this round (it was used last
    /// round and has 「一回合冷卻」, or the table's 強健 rest).
    pub instinct_resting: bool,
    pub instinct_last_target: Option<SeatId>,
    pub slaughters_left: u8,
    pub foresights_left: u8,
    pub wisdom_used: bool,
    pub orders: Option<Plan>,
    /// 幸運's draw this round.
    pub luck: Option<LuckDraw>,
    /// 斷井頹垣 is radical.
    pub radical: bool,
    /// 替身力量's scarecrows.
    pub scarecrows: u8,
    /// HP the viewer lost last round.
    pub lost_last: i32,
    /// Damage and true damage the viewer received last round, before
    /// shields (臥薪嘗膽's condition).
    pub damaged_last: i32,
    /// 警惕: the viewer may guess a level about last round now.
    pub guard_owed: bool,
    /// 警惕: the viewer gave this round's guess.
    pub guessed: bool,
    /// What the viewer learned in private, in order.
    pub learned: Vec<Learned>,
    /// 趨吉避兇: the viewer's last choice (true: 兇).
    pub omen_last: Option<bool>,
    /// 外交部發言人: the viewer's marks.
    pub marks: Vec<(SeatId, u8)>,
    /// The round the viewer last used wisdom in.
    pub wisdom_round: Option<u8>,
    pub to_act: bool,
    pub deadline_ms: Option<u64>,
    pub now_ms: u64,
    pub result: Option<GameResult>,
    pub winner: Option<u8>,
    /// The conversations the viewer is part of (「任意兩名玩家可以自由交流」).
    pub talk: Vec<TalkLine>,
    /// What the last settlement did to the viewer, step by step.
    pub settled: Option<Settled>,
    /// Everything, for the host seat only (`host_view`); `None` in every
    /// player's and spectator's view.
    pub host: Option<Box<HostView>>,
    /// The table revealed, once the game is over (`table::end_revealed`):
    /// every seat's animal, level and instinct; empty before the end and
    /// at a table that keeps its secrets.
    pub revealed: Vec<Revealed>,
    /// How the game was won, once it is over and revealed.
    pub won_by: Option<WinBy>,
}

/// One seat at the end, revealed to everyone (issue 71): 「獲勝」 is the
/// payoff of a hidden-role game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revealed {
    pub seat: SeatId,
    pub level: u8,
    pub animal: usize,
    pub instinct: Option<InstinctId>,
    /// 笨鳥先飛 drew the instinct.
    pub early_bird: bool,
    pub form: Option<Form>,
    pub kind: Option<Kind>,
    /// The true HP at the end (0 for the slain and the dead).
    pub hp: i32,
    /// The round it died in.
    pub died: Option<u8>,
}

/// Every seat, revealed, into `into` (emptied when the table is not
/// revealed).
fn reveal_into(world: &World, at: &Seated, into: &mut Vec<Revealed>) {
    into.clear();
    if !crate::table::end_revealed::<WanningGame>(world) {
        return;
    }
    let rule = world.resource::<Settings<WanningGame>>().0.early_bird_form;
    into.extend(at.seats.iter().map(|(s, _)| {
        let (beast, life, instinct) =
            (at.get::<Beast>(s), at.get::<Life>(s), at.get::<Instinct>(s));
        Revealed {
            seat: s,
            level: beast.level,
            animal: beast.animal,
            instinct: instinct.id,
            early_bird: instinct.early_bird,
            form: super::setup::form_of(instinct, rule),
            kind: super::setup::kind_of(instinct),
            hp: life.hp.max(0),
            died: life.died,
        }
    }));
}

/// What one settlement did to one seat, in the seed's order
/// (「buff獲取->最大受到傷害->護盾->真實傷害->鎖血->特殊技能」): amounts
/// only. It never says where damage came from, nor that an attack was
/// invalid (「攻擊無效：…玩家將不會得知」): only the seat's own HP and
/// shields, which its owner holds anyway.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settled {
    pub round: u8,
    /// HP when the settlement began.
    pub start_hp: i32,
    /// Ordinary damage that reached the seat (after max damage).
    pub damage: i32,
    /// Shields that soaked it.
    pub soaked: i32,
    pub true_damage: i32,
    /// HP given back by locks.
    pub lock: i32,
    /// HP changed by the special skills.
    pub special: i32,
    /// Shields changed by the special skills.
    pub special_shields: i32,
    /// HP when the settlement ended (the true HP).
    pub end_hp: i32,
    /// Each change to the seat's HP and shields, one line each, in the
    /// order it was made (the lines it was told, `news::change_line`).
    pub lines: Vec<Change>,
}

impl Settled {
    fn of(round: u8, t: &Tally, end_hp: i32) -> Self {
        Self {
            round,
            start_hp: t.start_hp,
            damage: t.reached,
            soaked: t.soaked,
            true_damage: t.true_damage,
            lock: t.lock_gain,
            special: t.special_hp,
            special_shields: t.special_shields,
            end_hp: end_hp.max(0),
            lines: t.lines.clone(),
        }
    }
}

/// The last settlement the seat took part in: this round's once the game
/// is over, else the round before this one; `None` before round 1's
/// announcement, and for a seat that was already dead.
fn settled(world: &World, at: &Seated, s: SeatId) -> Option<Settled> {
    let round = world.resource::<Round>().0;
    let (tally, round) = if phase(world) == WanningPhase::GameOver {
        (at.get::<Tally>(s), round)
    } else {
        (&at.get::<LastTally>(s).0, round.checked_sub(1)?)
    };
    let life = at.get::<Life>(s);
    let alive_then = life.died.is_none_or(|d| d >= round);
    (round >= 1 && tally.start_hp > 0 && alive_then).then(|| Settled::of(round, tally, life.hp))
}

crate::seat_view!(WanningView);

/// What a seat may know ([`Game::view`](crate::table::Game::view)), written
/// over a view the caller already holds: the seats' names, the notebook and
/// the talk keep their room (a bot reads its seat's view at every move).
pub fn view_into(world: &World, me: Option<SeatId>, waiting: &[SeatId], view: &mut WanningView) {
    let at = Seated::new(world);
    let names = world.resource::<Seats>();
    let n = at.seats.0.len();
    let phase = phase(world);
    let to_act = waiting;
    let mut seats = std::mem::take(&mut view.seats);
    seats.truncate(n);
    for (i, (s, _)) in at.seats.iter().enumerate() {
        if i == seats.len() {
            seats.push(SeatPublic::default());
        }
        let life = at.get::<Life>(s);
        let public = &mut seats[i];
        public.seat = s;
        public.name.clone_from(&names.names[s.index()]);
        public.hp = life.announced.max(0);
        public.dead = life.dead();
        public.done = !to_act.contains(&s);
    }
    let mut revealed = std::mem::take(&mut view.revealed);
    reveal_into(world, &at, &mut revealed);
    let won_by = if revealed.is_empty() {
        None
    } else {
        world.resource::<Outcome>().0.map(|(_, by)| by)
    };
    let mut learned = std::mem::take(&mut view.learned);
    let mut talk = std::mem::take(&mut view.talk);
    match me {
        Some(m) => {
            learned.clone_from(&at.get::<Notebook>(m).0);
            talk.clone_from(&at.get::<Talk>(m).0);
        }
        None => {
            learned.clear();
            talk.clear();
        }
    }
    let mine = me.map(|m| {
        (
            at.get::<Beast>(m),
            at.get::<Life>(m),
            at.get::<Instinct>(m),
            at.get::<Abilities>(m),
            at.get::<Choices>(m),
            at.get::<Orders>(m),
        )
    });
    let instinct = mine.and_then(|m| m.2.id);
    let settings = &world.resource::<Settings<WanningGame>>().0;
    let round = world.resource::<Round>().0;
    *view = WanningView {
        me,
        phase,
        round,
        round_cap: settings.round_cap,
        seats,
        banned: world.resource::<Banned>().0.clone(),
        forms: world
            .resource::<FormCounts>()
            .0
            .map(|(at, pt)| FormsPicked::of(at, pt)),
        level: mine.map(|m| m.0.level),
        animal: mine.map(|m| m.0.animal),
        instinct,
        instinct_form: instinct.and_then(|i| data().instinct(i).form),
        shields: mine.map_or(0, |m| m.1.shields),
        hp: mine.map(|m| m.1.known),
        last_hp: mine.map(|m| m.1.last_hp),
        instinct_uses_left: mine.and_then(|m| {
            let id = m.2.id?;
            uses(id, n, settings).map(|u| u.saturating_sub(m.2.used))
        }),
        instinct_last_round: mine.and_then(|m| m.2.last_round),
        instinct_resting: mine.is_some_and(|m| resting(m.2, round, settings)),
        instinct_last_target: mine.and_then(|m| m.2.last_target),
        slaughters_left: mine.map_or(0, |m| {
            if m.0.level == 4 {
                data().slaughter_uses(n).saturating_sub(m.3.slaughter_used)
            } else {
                0
            }
        }),
        foresights_left: mine.map_or(0, |m| {
            if m.2.id == Some(InstinctId::Foresight) {
                foresights(n).saturating_sub(m.2.used)
            } else {
                0
            }
        }),
        wisdom_used: mine.is_some_and(|m| m.3.wisdom_used),
        orders: mine.and_then(|m| m.5.0.clone()),
        luck: mine.and_then(|m| m.2.luck),
        radical: mine.is_some_and(|m| m.2.radical),
        scarecrows: mine.map_or(0, |m| m.2.scarecrows),
        lost_last: mine.map_or(0, |m| m.1.lost_last),
        damaged_last: mine.map_or(0, |m| m.1.damaged_last),
        omen_last: mine.and_then(|m| m.2.omen_last),
        learned,
        guard_owed: mine.is_some_and(|m| m.2.guard_owed),
        guessed: mine.is_some_and(|m| m.2.guess.is_some()),
        marks: mine.map(|m| m.2.marks.clone()).unwrap_or_default(),
        wisdom_round: mine.and_then(|m| m.3.wisdom_round),
        to_act: me.is_some_and(|m| to_act.contains(&m)),
        deadline_ms: world
            .resource::<Deadlines<WanningTimer>>()
            .pending
            .iter()
            .map(|d| d.at_ms)
            .min(),
        now_ms: world.resource::<TableClock>().now_ms,
        result: result(world),
        winner: world.resource::<Outcome>().0.map(|(l, _)| l),
        talk,
        settled: me.and_then(|m| settled(world, &at, m)),
        host: None,
        revealed,
        won_by,
    };
}

/// One seat as the host sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostSeat {
    pub seat: SeatId,
    pub name: SeatName,
    pub level: u8,
    pub animal: usize,
    pub instinct: Option<InstinctId>,
    pub early_bird: bool,
    pub hp: i32,
    pub announced: i32,
    pub shields: i32,
    pub dead: bool,
    pub orders: Option<Plan>,
    pub settled: Option<Settled>,
}

/// What the host (主持人) sees: everything, for a human host seat that
/// plays nothing (「主持人則可以感受游戲全過程的魅力」). Never sent to a
/// player's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostView {
    pub phase: WanningPhase,
    pub round: u8,
    pub banned: Vec<InstinctId>,
    /// AT and PT picks.
    pub forms: Option<(u8, u8)>,
    pub seats: Vec<HostSeat>,
    pub winner: Option<u8>,
    /// How the game was won.
    pub won_by: Option<WinBy>,
    /// Every conversation, each line once, in order.
    pub talk: Vec<TalkLine>,
}

/// The host seat's view: the public table, with `host` filled.
pub fn host_seat_view(world: &World) -> WanningView {
    let mut v = <WanningGame as crate::table::Game>::view(world, None);
    v.host = Some(Box::new(host_view(world)));
    v
}

pub fn host_view(world: &World) -> HostView {
    let at = Seated::new(world);
    let names = world.resource::<Seats>();
    HostView {
        phase: phase(world),
        round: world.resource::<Round>().0,
        banned: world.resource::<Banned>().0.clone(),
        forms: world.resource::<FormCounts>().0,
        seats: at
            .seats
            .iter()
            .map(|(s, _)| {
                let (beast, life, instinct) =
                    (at.get::<Beast>(s), at.get::<Life>(s), at.get::<Instinct>(s));
                HostSeat {
                    seat: s,
                    name: names.names[s.index()].clone(),
                    level: beast.level,
                    animal: beast.animal,
                    instinct: instinct.id,
                    early_bird: instinct.early_bird,
                    hp: life.hp,
                    announced: life.announced,
                    shields: life.shields,
                    dead: life.dead(),
                    orders: at.get::<Orders>(s).0.clone(),
                    settled: settled(world, &at, s),
                }
            })
            .collect(),
        talk: {
            // Each line once (its sender's copy), in the order said.
            let mut all: Vec<TalkLine> = at
                .seats
                .iter()
                .flat_map(|(s, _)| {
                    at.get::<Talk>(s)
                        .0
                        .iter()
                        .filter(move |l| l.from == s)
                        .cloned()
                })
                .collect();
            all.sort_by_key(|l| l.at_ms);
            all
        },
        winner: world.resource::<Outcome>().0.map(|(l, _)| l),
        won_by: world.resource::<Outcome>().0.map(|(_, by)| by),
    }
}

impl WanningView {
    /// Lines this seat may still say (issue 70): this round, and in the
    /// game, under the table's `settings`, counted from its own lines as
    /// the judge counts them (`moves.rs talk_left`). The burst bound
    /// (`TALK_BURST` in `TALK_WINDOW_MS`) is not counted: it opens again
    /// by itself within seconds. `None` for a view with no seat, or
    /// before talk opens (`moves::talk_open`).
    pub fn talk_left(&self, settings: &super::WanningSettings) -> Option<(u16, u16)> {
        let me = self.me?;
        if !super::moves::talk_open(self.round, self.phase) {
            return None;
        }
        let mine: Vec<&TalkLine> = self.talk.iter().filter(|l| l.from == me).collect();
        let this_round = mine.iter().filter(|l| l.round == self.round).count();
        let left =
            |most: u16, said: usize| most.saturating_sub(u16::try_from(said).unwrap_or(u16::MAX));
        let game = left(settings.talk_per_game, mine.len());
        Some((left(settings.talk_per_round, this_round).min(game), game))
    }
}
