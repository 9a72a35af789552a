//! Crueler World's table state and its rules, as plain Rust over one
//! serializable resource: `game.rs` feeds it accepted actions and writes out
//! what it says. The rules document (`rules.md`) gives every clause.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::numbers::numbers;
use crate::table::{Rejection, Said, SeatId};
use crate::text::Bilingual;

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CruelerPhase {
    #[default]
    Idle,
    /// Between predation phases: life may be given or exchanged; everyone
    /// says when they are ready for the next phase.
    Interlude,
    /// The referee asks the players in turn whether they prey.
    Predation,
    /// Two players duel.
    Duel,
    GameOver,
}

/// The three beasts of the duel: each beats one and loses to one, as in
/// 斗兽棋 (the elephant tramples the tiger, the tiger eats the rat, the rat
/// creeps into the elephant's trunk).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Beast {
    Elephant,
    Tiger,
    Rat,
}

impl Beast {
    pub const ALL: [Beast; 3] = [Beast::Elephant, Beast::Tiger, Beast::Rat];

    pub fn beats(self, other: Beast) -> bool {
        matches!(
            (self, other),
            (Beast::Elephant, Beast::Tiger)
                | (Beast::Tiger, Beast::Rat)
                | (Beast::Rat, Beast::Elephant)
        )
    }

    pub fn name(self) -> Bilingual {
        match self {
            Beast::Elephant => Bilingual::new("Elephant", "象"),
            Beast::Tiger => Bilingual::new("Tiger", "虎"),
            Beast::Rat => Bilingual::new("Rat", "鼠"),
        }
    }
}

/// What "this round" means for who has preyed and who was preyed upon, in
/// rounds 3 and 4, which have two predation phases (a table setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StarveBy {
    /// The seed: 「all players who have not preyed this round」: a player who
    /// preyed, or was preyed upon, in the round's first phase does not
    /// starve in its second.
    #[default]
    Round,
    /// Each predation phase counts afresh.
    Phase,
}

/// How duels are fought (a table setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuelKind {
    /// Both choose a beast in secret; first to the needed wins.
    #[default]
    Beasts,
    /// The referee rolls a die for each; the higher wins (ties roll again).
    Dice,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerAction {
    /// Interlude: ready for the next predation phase.
    Ready,
    /// Predation, when asked: prey on `target`, handing over the predator
    /// card engraved with its number.
    Prey {
        target: SeatId,
    },
    /// Predation, when asked: do not prey.
    Pass,
    /// Duel: the beast for this throw.
    Choose {
        beast: Beast,
    },
    /// Interlude: offer `give` of my life points for `want` of theirs.
    OfferLife {
        to: SeatId,
        give: u32,
        want: u32,
    },
    Accept {
        from: SeatId,
    },
    Decline {
        from: SeatId,
    },
    Withdraw {
        to: SeatId,
    },
    /// An eliminated player gives one of their predator cards to a living
    /// player.
    GiveCard {
        to: SeatId,
        card: SeatId,
    },
}

/// A life-point trade offered in an interlude.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LifeOffer {
    pub from: SeatId,
    pub to: SeatId,
    pub give: u32,
    pub want: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    pub predator: SeatId,
    pub prey: SeatId,
    /// Throws won by the predator and by the prey.
    pub wins: [u8; 2],
    pub choice: [Option<Beast>; 2],
    /// Every throw so far (predator's beast, prey's beast).
    pub throws: Vec<(Beast, Beast)>,
}

/// What the table learned about a duel or a starvation (public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Duel {
        round: u8,
        n: i32,
        predator: SeatId,
        prey: SeatId,
        winner: SeatId,
    },
    /// A duel ended with a player out; the referee names neither side.
    Elimination {
        round: u8,
        n: i32,
    },
    Starved {
        round: u8,
        n: i32,
        seat: SeatId,
    },
    /// A starved player fell: named, since nobody eliminated them.
    StarvedOut {
        round: u8,
        n: i32,
        seat: SeatId,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The life-point tokens in the player's box, each marked with the
    /// player it came from (`None`: from the bank).
    pub tokens: Vec<Option<SeatId>>,
    pub alive: bool,
    /// Predator cards held, by the number engraved on each.
    pub cards: Vec<SeatId>,
    /// Preyed this round (this phase with `StarveBy::Phase`).
    pub preyed: bool,
    /// Was preyed upon this round (this phase with `StarveBy::Phase`).
    pub preyed_upon: bool,
    /// In the Nature Reserve this round.
    pub reserve: bool,
    /// The order of elimination (1 = first out).
    pub fell: Option<u8>,
    pub ready: bool,
    /// Life at the start of the current predation phase.
    pub phase_start_life: i32,
}

impl Player {
    pub fn life(&self) -> i32 {
        self.tokens.len() as i32
    }
}

#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CruelerState {
    pub players: Vec<Player>,
    pub names: Vec<String>,
    pub duel_kind: DuelKind,
    pub wins_needed: u8,
    #[serde(default)]
    pub starve_by: StarveBy,
    /// 1-based round and predation phase within it.
    pub round: u8,
    pub phase_no: u8,
    /// The die's last throw.
    pub die: Option<u8>,
    /// Who is asked, in order, this pass.
    pub order: Vec<SeatId>,
    pub turn: usize,
    /// The second asking (starvation) is under way.
    pub second_ask: bool,
    pub duel: Option<Duel>,
    pub offers: Vec<LifeOffer>,
    pub history: Vec<Outcome>,
    pub fallen: u8,
    pub over: bool,
}

/// The most life one side of a trade may name.
pub const MAX_TRADE: u32 = 50;

fn no(en: impl Into<String>, zh: impl Into<String>) -> Rejection {
    Rejection::new(en, zh)
}

impl CruelerState {
    pub fn new(names: Vec<String>, start_life: i32, duel_kind: DuelKind, wins_needed: u8) -> Self {
        let seats = names.len();
        let players = (0..seats)
            .map(|i| {
                let me = SeatId(i as u8);
                Player {
                    tokens: vec![Some(me); start_life.max(0) as usize],
                    alive: true,
                    cards: (0..seats)
                        .map(|j| SeatId(j as u8))
                        .filter(|s| *s != me)
                        .collect(),
                    preyed: false,
                    preyed_upon: false,
                    reserve: false,
                    fell: None,
                    ready: false,
                    phase_start_life: start_life,
                }
            })
            .collect();
        Self {
            players,
            names,
            duel_kind,
            wins_needed,
            starve_by: StarveBy::Round,
            round: 1,
            phase_no: 1,
            die: None,
            order: Vec::new(),
            turn: 0,
            second_ask: false,
            duel: None,
            offers: Vec::new(),
            history: Vec::new(),
            fallen: 0,
            over: false,
        }
    }

    pub fn name(&self, seat: SeatId) -> String {
        format!(
            "{} ({})",
            self.names.get(seat.index()).map_or("?", String::as_str),
            seat
        )
    }

    pub fn player(&self, seat: SeatId) -> &Player {
        &self.players[seat.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = SeatId> + '_ {
        (0..self.players.len()).map(|i| SeatId(i as u8))
    }

    pub fn living(&self) -> Vec<SeatId> {
        self.seats().filter(|s| self.player(*s).alive).collect()
    }

    /// N of the current predation phase.
    pub fn n(&self) -> i32 {
        numbers().n(self.round, self.phase_no)
    }

    pub fn asked(&self) -> Option<SeatId> {
        self.order.get(self.turn).copied()
    }

    /// Seats the table waits on in `phase`.
    pub fn to_act(&self, phase: CruelerPhase) -> Vec<SeatId> {
        match phase {
            CruelerPhase::Interlude => self
                .seats()
                .filter(|&s| {
                    let p = self.player(s);
                    p.alive && (!p.ready || self.offers.iter().any(|o| o.to == s))
                })
                .collect(),
            CruelerPhase::Predation => self.asked().into_iter().collect(),
            CruelerPhase::Duel => match &self.duel {
                Some(d) => [d.predator, d.prey]
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| d.choice[*i].is_none())
                    .map(|(_, s)| s)
                    .collect(),
                None => Vec::new(),
            },
            CruelerPhase::Idle | CruelerPhase::GameOver => Vec::new(),
        }
    }

    /// Whom `seat` may prey on now, by the cards it holds.
    pub fn targets(&self, seat: SeatId) -> Vec<SeatId> {
        let me = self.player(seat);
        let reserve = numbers().reserve(self.round);
        let mut t: Vec<SeatId> = me
            .cards
            .iter()
            .copied()
            .filter(|&s| s != seat && self.player(s).alive && !(reserve && self.player(s).reserve))
            .collect();
        t.sort();
        t.dedup();
        t
    }

    /// Whether both boxes can pay their side of a life trade and neither
    /// ends empty: each side gives from what its box holds, and only a
    /// trade that would leave a box with nothing is refused (rules.md §2).
    pub fn affordable(&self, o: &LifeOffer) -> bool {
        let (from, to) = (
            i64::from(self.player(o.from).life()),
            i64::from(self.player(o.to).life()),
        );
        let (give, want) = (i64::from(o.give), i64::from(o.want));
        give <= from && want <= to && from - give + want > 0 && to + give - want > 0
    }

    /// The one place a Crueler World action is judged.
    pub fn check(
        &self,
        phase: CruelerPhase,
        seat: SeatId,
        action: &CruelerAction,
    ) -> Result<(), Rejection> {
        let me = self.player(seat);
        let other = |s: SeatId| -> Result<&Player, Rejection> {
            if s == seat || s.index() >= self.players.len() {
                return Err(no(
                    "name another player at this table",
                    "请指定本桌的另一名玩家",
                ));
            }
            Ok(self.player(s))
        };
        match (phase, action) {
            (CruelerPhase::GameOver | CruelerPhase::Idle, _) => Err(Rejection::game_over()),
            (_, CruelerAction::GiveCard { to, card }) => {
                if me.alive {
                    return Err(no(
                        "only an eliminated player gives predator cards away",
                        "只有被淘汰的玩家才能转赠捕食卡",
                    ));
                }
                if phase == CruelerPhase::Duel {
                    return Err(no("not during a duel", "决斗进行中不能转赠"));
                }
                if !other(*to)?.alive {
                    return Err(no("give it to a living player", "只能转赠给存活的玩家"));
                }
                if !me.cards.contains(card) {
                    return Err(no("you hold no such predator card", "你没有这张捕食卡"));
                }
                if card == to || !self.player(*card).alive {
                    return Err(no(
                        "that card could prey on nobody: its number is the receiver's, or out",
                        "这张卡无法使用：号码是接收者本人或已出局的玩家",
                    ));
                }
                Ok(())
            }
            (_, _) if !me.alive => Err(no(
                "you are eliminated: you can only give your predator cards away",
                "你已被淘汰：只能转赠捕食卡",
            )),
            (CruelerPhase::Interlude, CruelerAction::Ready) => {
                if me.ready {
                    Err(no("you are ready already", "你已经准备好了"))
                } else {
                    Ok(())
                }
            }
            (CruelerPhase::Interlude, CruelerAction::OfferLife { to, give, want }) => {
                let them = other(*to)?;
                if !them.alive {
                    return Err(no("that player is eliminated", "对方已被淘汰"));
                }
                if *give == 0 && *want == 0 {
                    return Err(no("the offer trades nothing", "这笔交易什么也没有交换"));
                }
                if *want > MAX_TRADE || *give > MAX_TRADE {
                    return Err(no(
                        format!("at most {MAX_TRADE} life a side"),
                        format!("每方最多 {MAX_TRADE} 点生命"),
                    ));
                }
                let life = i64::from(me.life());
                if i64::from(*give) > life {
                    return Err(no(
                        format!("you hold only {life} life"),
                        format!("你只有 {life} 点生命"),
                    ));
                }
                if life - i64::from(*give) + i64::from(*want) <= 0 {
                    return Err(no(
                        "that would leave your box empty",
                        "这会让你的生命木盒清空",
                    ));
                }
                Ok(())
            }
            (CruelerPhase::Interlude, CruelerAction::Accept { from }) => {
                let Some(o) = self.offers.iter().find(|o| o.from == *from && o.to == seat) else {
                    return Err(no(
                        "that player has made you no offer",
                        "对方没有向你提出交易",
                    ));
                };
                if !self.affordable(o) {
                    return Err(no(
                        "that trade asks for more life than a box holds, or would leave one empty: ask for a new one",
                        "这笔交易超出了木盒中的生命，或会让一方木盒清空，请重新提出",
                    ));
                }
                Ok(())
            }
            (CruelerPhase::Interlude, CruelerAction::Decline { from }) => {
                if self.offers.iter().any(|o| o.from == *from && o.to == seat) {
                    Ok(())
                } else {
                    Err(no(
                        "that player has made you no offer",
                        "对方没有向你提出交易",
                    ))
                }
            }
            (CruelerPhase::Interlude, CruelerAction::Withdraw { to }) => {
                if self.offers.iter().any(|o| o.from == seat && o.to == *to) {
                    Ok(())
                } else {
                    Err(no(
                        "you have made that player no offer",
                        "你没有向对方提出交易",
                    ))
                }
            }
            (_, CruelerAction::OfferLife { .. } | CruelerAction::Accept { .. }) => Err(no(
                "life is given or exchanged only between predation phases",
                "生命值只能在捕食阶段之外赠送或交换",
            )),
            (CruelerPhase::Predation, CruelerAction::Prey { target }) => {
                if self.asked() != Some(seat) {
                    return Err(Rejection::not_your_turn());
                }
                let them = other(*target)?;
                if !them.alive {
                    return Err(no("that player is eliminated", "对方已被淘汰"));
                }
                if !me.cards.contains(target) {
                    return Err(no(
                        format!("you no longer hold the predator card for seat {target}"),
                        format!("你已经没有 {target} 号的捕食卡了"),
                    ));
                }
                if numbers().reserve(self.round) && them.reserve {
                    return Err(no(
                        "that player is in the Nature Reserve this round",
                        "对方本轮在自然保护区内，不能被捕食",
                    ));
                }
                Ok(())
            }
            (CruelerPhase::Predation, CruelerAction::Pass) => {
                if self.asked() == Some(seat) {
                    Ok(())
                } else {
                    Err(Rejection::not_your_turn())
                }
            }
            (CruelerPhase::Duel, CruelerAction::Choose { .. }) => {
                let Some(d) = &self.duel else {
                    return Err(no("no duel", "没有决斗"));
                };
                let side = [d.predator, d.prey].iter().position(|s| *s == seat);
                match side {
                    None => Err(no("you are not in this duel", "你不在这场决斗中")),
                    Some(i) if d.choice[i].is_some() => Err(no(
                        "you have chosen for this throw",
                        "你已经为这一回合做出选择",
                    )),
                    Some(_) if self.duel_kind == DuelKind::Dice => {
                        Err(no("dice duels need no choice", "掷骰决斗无需选择"))
                    }
                    Some(_) => Ok(()),
                }
            }
            _ => Err(no("not now", "现在不能这样做")),
        }
    }

    /// Applies an accepted action; returns the next phase if it changes.
    pub fn apply(
        &mut self,
        seat: SeatId,
        action: &CruelerAction,
        rng: &mut ChaCha8Rng,
        said: &mut Vec<Said>,
    ) -> Option<CruelerPhase> {
        match action {
            CruelerAction::Ready => {
                self.players[seat.index()].ready = true;
                self.maybe_begin(rng, said)
            }
            CruelerAction::OfferLife { to, give, want } => {
                self.offers.retain(|o| !(o.from == seat && o.to == *to));
                self.offers.push(LifeOffer {
                    from: seat,
                    to: *to,
                    give: *give,
                    want: *want,
                });
                said.push(Said::To(
                    *to,
                    Bilingual::new(
                        format!(
                            "{} offers you {give} life for {want} of yours.",
                            self.name(seat)
                        ),
                        format!(
                            "{}提出：给你 {give} 点生命，换你 {want} 点。",
                            self.name(seat)
                        ),
                    ),
                ));
                None
            }
            CruelerAction::Accept { from } => {
                let at = self
                    .offers
                    .iter()
                    .position(|o| o.from == *from && o.to == seat)
                    .expect("judged");
                let o = self.offers.remove(at);
                let moved = self.take_tokens(o.from, o.give as i32);
                self.players[o.to.index()].tokens.extend(moved);
                let moved = self.take_tokens(o.to, o.want as i32);
                self.players[o.from.index()].tokens.extend(moved);
                // Offers the trade leaves unaffordable lapse.
                let lapsed: Vec<LifeOffer> = self
                    .offers
                    .iter()
                    .filter(|x| !self.affordable(x))
                    .cloned()
                    .collect();
                self.offers.retain(|x| !lapsed.contains(x));
                for x in lapsed {
                    said.push(Said::To(
                        x.from,
                        Bilingual::new(
                            format!(
                                "Your offer to {} lapsed: life changed hands.",
                                self.name(x.to)
                            ),
                            format!("你向{}的提议已失效：生命值已变动。", self.name(x.to)),
                        ),
                    ));
                }
                for (a, b) in [(o.from, o.to), (o.to, o.from)] {
                    said.push(Said::To(
                        a,
                        Bilingual::new(
                            format!(
                                "Life trade with {} done: {} given, {} received.",
                                self.name(b),
                                if a == o.from { o.give } else { o.want },
                                if a == o.from { o.want } else { o.give }
                            ),
                            format!(
                                "与{}的生命交易完成：给出 {} 点，收到 {} 点。",
                                self.name(b),
                                if a == o.from { o.give } else { o.want },
                                if a == o.from { o.want } else { o.give }
                            ),
                        ),
                    ));
                }
                self.maybe_begin(rng, said)
            }
            CruelerAction::Decline { from } => {
                self.offers.retain(|o| !(o.from == *from && o.to == seat));
                said.push(Said::To(
                    *from,
                    Bilingual::new(
                        format!("{} turned down your offer.", self.name(seat)),
                        format!("{}拒绝了你的提议。", self.name(seat)),
                    ),
                ));
                self.maybe_begin(rng, said)
            }
            CruelerAction::Withdraw { to } => {
                self.offers.retain(|o| !(o.from == seat && o.to == *to));
                self.maybe_begin(rng, said)
            }
            CruelerAction::GiveCard { to, card } => {
                let cards = &mut self.players[seat.index()].cards;
                let at = cards.iter().position(|c| c == card).expect("judged");
                cards.remove(at);
                self.players[to.index()].cards.push(*card);
                said.push(Said::All(Bilingual::new(
                    format!(
                        "{} gave a predator card to {}.",
                        self.name(seat),
                        self.name(*to)
                    ),
                    format!("{}把一张捕食卡送给了{}。", self.name(seat), self.name(*to)),
                )));
                said.push(Said::To(
                    *to,
                    Bilingual::new(
                        format!("You received the predator card for seat {card}."),
                        format!("你收到了 {card} 号的捕食卡。"),
                    ),
                ));
                None
            }
            CruelerAction::Pass => {
                let n = self.n();
                if self.second_ask && !self.player(seat).preyed_upon {
                    // "if that player refuses and that player has not been
                    // preyed upon by any other player, that player is starved"
                    let lost = self.take_tokens(seat, n);
                    drop(lost);
                    let out = self.player(seat).life() <= 0;
                    if out {
                        self.eliminate(seat);
                        self.history.push(Outcome::StarvedOut {
                            round: self.round,
                            n,
                            seat,
                        });
                        said.push(Said::All(Bilingual::new(
                            format!("{} starved and is out.", self.name(seat)),
                            format!("{}饿死出局。", self.name(seat)),
                        )));
                        if self.living().len() <= 1 {
                            self.finish(said);
                            return Some(CruelerPhase::GameOver);
                        }
                    } else {
                        self.history.push(Outcome::Starved {
                            round: self.round,
                            n,
                            seat,
                        });
                        said.push(Said::All(Bilingual::new(
                            format!("{} starved: -{n}.", self.name(seat)),
                            format!("{}挨饿：生命 -{n}。", self.name(seat)),
                        )));
                    }
                } else {
                    said.push(Said::To(
                        seat,
                        Bilingual::new("You do not prey.", "你选择不捕食。"),
                    ));
                }
                self.advance(rng, said)
            }
            CruelerAction::Prey { target } => {
                let p = &mut self.players[seat.index()];
                let at = p.cards.iter().position(|c| c == target).expect("judged");
                p.cards.remove(at);
                p.preyed = true;
                self.players[target.index()].preyed_upon = true;
                // The asking is private: the room learns that a duel began,
                // and who fought only from its result (rules.md §9).
                said.push(Said::All(Bilingual::new(
                    "A predator card is handed in: a duel begins.",
                    "有人交出捕食卡：决斗开始。",
                )));
                said.push(Said::To(
                    *target,
                    Bilingual::new(
                        format!("{} preys on you: duel!", self.name(seat)),
                        format!("{}捕食你：决斗！", self.name(seat)),
                    ),
                ));
                self.duel = Some(Duel {
                    predator: seat,
                    prey: *target,
                    wins: [0, 0],
                    choice: [None, None],
                    throws: Vec::new(),
                });
                if self.duel_kind == DuelKind::Dice {
                    return self.roll_duel(rng, said);
                }
                Some(CruelerPhase::Duel)
            }
            CruelerAction::Choose { beast } => {
                let d = self.duel.as_mut().expect("judged");
                let side = if d.predator == seat { 0 } else { 1 };
                d.choice[side] = Some(*beast);
                let (Some(a), Some(b)) = (d.choice[0], d.choice[1]) else {
                    return None;
                };
                d.choice = [None, None];
                d.throws.push((a, b));
                let (pred, prey) = (d.predator, d.prey);
                let result = if a.beats(b) {
                    d.wins[0] += 1;
                    Bilingual::new("the predator wins the throw", "捕食者赢下这一回合")
                } else if b.beats(a) {
                    d.wins[1] += 1;
                    Bilingual::new("the prey wins the throw", "猎物赢下这一回合")
                } else {
                    Bilingual::new("a tie: choose again", "平局：重新选择")
                };
                let wins = d.wins;
                for s in [pred, prey] {
                    said.push(Said::To(
                        s,
                        Bilingual::new(
                            format!(
                                "{} against {}: {} ({}-{}).",
                                a.name().en,
                                b.name().en,
                                result.en,
                                wins[0],
                                wins[1]
                            ),
                            format!(
                                "{}对{}：{}（{}-{}）。",
                                a.name().zh,
                                b.name().zh,
                                result.zh,
                                wins[0],
                                wins[1]
                            ),
                        ),
                    ));
                }
                if wins[0] >= self.wins_needed {
                    return Some(self.settle_duel(pred, prey, rng, said));
                }
                if wins[1] >= self.wins_needed {
                    return Some(self.settle_duel(prey, pred, rng, said));
                }
                None
            }
        }
    }

    /// A clock ran out (rules.md §11): the referee does what the waiting
    /// players did not. The asked player passes; a duelist who has not
    /// chosen gets a beast drawn at random; in the interlude unanswered
    /// offers lapse and everyone is ready. Returns the next phase if it
    /// changes.
    pub fn time_out(
        &mut self,
        phase: CruelerPhase,
        rng: &mut ChaCha8Rng,
        said: &mut Vec<Said>,
    ) -> Option<CruelerPhase> {
        match phase {
            CruelerPhase::Interlude => {
                said.push(Said::All(Bilingual::new(
                    "Time is up for the interlude: unanswered offers lapse.",
                    "间歇时间到：未答复的提议失效。",
                )));
                for o in std::mem::take(&mut self.offers) {
                    for s in [o.from, o.to] {
                        said.push(Said::To(
                            s,
                            Bilingual::new(
                                "Time is up: the life offer between you lapsed.",
                                "时间到：你们之间的生命提议已失效。",
                            ),
                        ));
                    }
                }
                for p in self.players.iter_mut().filter(|p| p.alive) {
                    p.ready = true;
                }
                self.maybe_begin(rng, said)
            }
            CruelerPhase::Predation => {
                let seat = self.asked()?;
                said.push(Said::To(
                    seat,
                    Bilingual::new("Time is up: you do not prey.", "时间到：视为不捕食。"),
                ));
                self.apply(seat, &CruelerAction::Pass, rng, said)
            }
            CruelerPhase::Duel => {
                let d = self.duel.clone()?;
                let mut next = None;
                for (side, seat) in [d.predator, d.prey].into_iter().enumerate() {
                    if d.choice[side].is_some() {
                        continue;
                    }
                    let beast = Beast::ALL[rng.random_range(0..Beast::ALL.len())];
                    said.push(Said::To(
                        seat,
                        Bilingual::new(
                            format!("Time is up: the referee draws {} for you.", beast.name().en),
                            format!("时间到：裁判为你抽出{}。", beast.name().zh),
                        ),
                    ));
                    if let Some(p) = self.apply(seat, &CruelerAction::Choose { beast }, rng, said) {
                        next = Some(p);
                    }
                }
                next
            }
            CruelerPhase::Idle | CruelerPhase::GameOver => None,
        }
    }

    /// A dice duel: the referee rolls for both until one is higher.
    fn roll_duel(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> Option<CruelerPhase> {
        let d = self.duel.clone().expect("a duel");
        loop {
            let (a, b) = (rng.random_range(1..=6u8), rng.random_range(1..=6u8));
            for s in [d.predator, d.prey] {
                said.push(Said::To(
                    s,
                    Bilingual::new(
                        format!("Dice: predator {a}, prey {b}."),
                        format!("掷骰：捕食者 {a}，猎物 {b}。"),
                    ),
                ));
            }
            if a != b {
                let (w, l) = if a > b {
                    (d.predator, d.prey)
                } else {
                    (d.prey, d.predator)
                };
                return Some(self.settle_duel(w, l, rng, said));
            }
        }
    }

    /// Winner +N, loser -N (own tokens first, then others'); an
    /// elimination earns the winner the bonus and names nobody.
    fn settle_duel(
        &mut self,
        winner: SeatId,
        loser: SeatId,
        rng: &mut ChaCha8Rng,
        said: &mut Vec<Said>,
    ) -> CruelerPhase {
        let d = self.duel.take().expect("a duel");
        let n = self.n();
        let taken = self.take_tokens(loser, n);
        let short = n as usize - taken.len();
        let w = &mut self.players[winner.index()];
        w.tokens.extend(taken);
        w.tokens.extend(std::iter::repeat_n(None, short));
        if numbers().reserve(self.round) && self.player(loser).life() > 0 {
            self.players[loser.index()].reserve = true;
        }
        if self.player(loser).life() <= 0 {
            self.eliminate(loser);
            let bonus = numbers().elimination_bonus;
            self.players[winner.index()]
                .tokens
                .extend(std::iter::repeat_n(None, bonus as usize));
            self.history.push(Outcome::Elimination {
                round: self.round,
                n,
            });
            said.push(Said::All(Bilingual::new(
                "A duel ended: a player is eliminated. (The referee names neither side.)",
                "决斗结束：有一名玩家被淘汰。（裁判不公布双方身份。）",
            )));
            said.push(Said::To(
                winner,
                Bilingual::new(
                    format!("You eliminated your opponent: +{n} and +{bonus}."),
                    format!("你淘汰了对手：+{n}，另得 +{bonus}。"),
                ),
            ));
            said.push(Said::To(
                loser,
                Bilingual::new("You are eliminated.", "你被淘汰了。"),
            ));
        } else {
            self.history.push(Outcome::Duel {
                round: self.round,
                n,
                predator: d.predator,
                prey: d.prey,
                winner,
            });
            said.push(Said::All(Bilingual::new(
                format!(
                    "{} preyed on {}: {} won (+{n} / -{n}).",
                    self.name(d.predator),
                    self.name(d.prey),
                    self.name(winner)
                ),
                format!(
                    "{}捕食{}：{}获胜（+{n} / -{n}）。",
                    self.name(d.predator),
                    self.name(d.prey),
                    self.name(winner)
                ),
            )));
            if numbers().reserve(self.round) {
                said.push(Said::All(Bilingual::new(
                    format!(
                        "{} enters the Nature Reserve for this round.",
                        self.name(loser)
                    ),
                    format!("{}本轮进入自然保护区。", self.name(loser)),
                )));
            }
        }
        if self.living().len() <= 1 {
            self.finish(said);
            return CruelerPhase::GameOver;
        }
        self.advance(rng, said).unwrap_or(CruelerPhase::Predation)
    }

    /// Takes up to `n` tokens from a box: the player's own first, then the
    /// others' ("preferentially deducting the losing side's original life
    /// points").
    fn take_tokens(&mut self, seat: SeatId, n: i32) -> Vec<Option<SeatId>> {
        let tokens = &mut self.players[seat.index()].tokens;
        let mut taken = Vec::new();
        while (taken.len() as i32) < n && !tokens.is_empty() {
            let at = tokens
                .iter()
                .position(|t| *t == Some(seat))
                .unwrap_or(tokens.len() - 1);
            taken.push(tokens.remove(at));
        }
        taken
    }

    fn eliminate(&mut self, seat: SeatId) {
        self.fallen += 1;
        let p = &mut self.players[seat.index()];
        p.alive = false;
        p.fell = Some(self.fallen);
        // "loses the Life Point Wooden Box"
        p.tokens.clear();
        self.offers.retain(|o| o.from != seat && o.to != seat);
    }

    /// The interlude ends when every living player is ready and no offer
    /// waits for an answer.
    fn maybe_begin(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> Option<CruelerPhase> {
        if self.to_act(CruelerPhase::Interlude).is_empty() {
            Some(self.begin_predation(rng, said))
        } else {
            None
        }
    }

    /// Rolls the die and starts a predation phase.
    fn begin_predation(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> CruelerPhase {
        let faces = numbers().die_faces;
        // Numbers with no living player are thrown again.
        let first = loop {
            let roll = rng.random_range(1..=faces);
            let seat = SeatId(roll - 1);
            if seat.index() < self.players.len() && self.player(seat).alive {
                break seat;
            }
        };
        self.start_predation_at(first, said)
    }

    /// Starts a predation phase with `first` asked first.
    pub(crate) fn start_predation_at(
        &mut self,
        first: SeatId,
        said: &mut Vec<Said>,
    ) -> CruelerPhase {
        self.offers.clear();
        self.die = Some(first.0 + 1);
        let n = self.n();
        said.push(Said::All(Bilingual::new(
            format!(
                "Round {}, predation phase {} (N = {n}). The boxes go to the referee. The die shows {}: {} is asked first.",
                self.round,
                self.phase_no,
                first,
                self.name(first)
            ),
            format!(
                "第 {} 轮第 {} 次捕食阶段（N = {n}）。生命木盒交由裁判保管。骰子掷出 {}：从{}开始询问。",
                self.round,
                self.phase_no,
                first,
                self.name(first)
            ),
        )));
        let seats = self.players.len();
        self.order = (0..seats)
            .map(|k| SeatId(((first.index() + k) % seats) as u8))
            .filter(|s| self.player(*s).alive)
            .collect();
        self.turn = 0;
        self.second_ask = false;
        let afresh = self.phase_no == 1 || self.starve_by == StarveBy::Phase;
        for p in &mut self.players {
            if afresh {
                p.preyed = false;
                p.preyed_upon = false;
            }
            p.ready = false;
            p.phase_start_life = p.tokens.len() as i32;
        }
        CruelerPhase::Predation
    }

    /// The next player to ask; after the last, the second asking; after
    /// that, the phase ends.
    fn advance(&mut self, rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> Option<CruelerPhase> {
        loop {
            self.turn += 1;
            match self.asked() {
                Some(s) if self.player(s).alive && !(self.second_ask && self.player(s).preyed) => {
                    return Some(CruelerPhase::Predation);
                }
                Some(_) => continue,
                None => {}
            }
            if !self.second_ask {
                self.second_ask = true;
                self.turn = 0;
                self.order
                    .retain(|s| self.players[s.index()].alive && !self.players[s.index()].preyed);
                said.push(Said::All(Bilingual::new(
                    "Everyone has been asked. Those who have not preyed are asked once more: refusing, unless preyed upon, means starving.",
                    "所有人都已被询问。未捕食的玩家将被再次询问：拒绝且未被捕食者将挨饿。",
                )));
                if self.asked().is_some_and(|s| self.player(s).alive) {
                    return Some(CruelerPhase::Predation);
                }
                continue;
            }
            return Some(self.end_phase(rng, said));
        }
    }

    fn end_phase(&mut self, _rng: &mut ChaCha8Rng, said: &mut Vec<Said>) -> CruelerPhase {
        let nums = numbers();
        said.push(Said::All(Bilingual::new(
            "The predation phase is over; the boxes are returned.",
            "本次捕食阶段结束，生命木盒归还。",
        )));
        if self.phase_no < nums.phases_in(self.round) {
            self.phase_no += 1;
        } else if (self.round as usize) < nums.rounds.len() {
            self.round += 1;
            self.phase_no = 1;
            for p in &mut self.players {
                p.reserve = false;
            }
            if nums.reserve(self.round) {
                said.push(Said::All(Bilingual::new(
                    format!("Round {} begins.", self.round),
                    format!("第 {} 轮开始。", self.round),
                )));
            } else {
                said.push(Said::All(Bilingual::new(
                    format!("Round {} begins: the Nature Reserve is gone.", self.round),
                    format!("第 {} 轮开始：自然保护区消失。", self.round),
                )));
            }
        } else {
            self.finish(said);
            return CruelerPhase::GameOver;
        }
        self.order.clear();
        self.turn = 0;
        CruelerPhase::Interlude
    }

    fn finish(&mut self, said: &mut Vec<Said>) {
        self.over = true;
        self.duel = None;
        let lives: Vec<String> = self
            .seats()
            .map(|s| {
                let p = self.player(s);
                if p.alive {
                    format!("{} {}", self.name(s), p.life())
                } else {
                    format!("{} out", self.name(s))
                }
            })
            .collect();
        said.push(Said::All(Bilingual::new(
            format!("The game is over. Boxes opened: {}", lives.join(" · ")),
            format!(
                "游戏结束。开盒：{}",
                lives.join(" · ").replace(" out", " 出局")
            ),
        )));
    }

    /// Final places (1 = first): the living by life, then the eliminated,
    /// the last to fall first. Level players share a place.
    pub fn places(&self) -> Vec<u8> {
        let key = |p: &Player| {
            (
                p.alive,
                if p.alive { p.life() } else { 0 },
                p.fell.unwrap_or(0),
            )
        };
        self.players
            .iter()
            .map(|p| 1 + self.players.iter().filter(|o| key(o) > key(p)).count() as u8)
            .collect()
    }
}
