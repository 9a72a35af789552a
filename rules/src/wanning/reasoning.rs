//! A Wanning Beast Chess bot that reasons from its own view only: it keeps
//! a notebook (announced HP from round to round, what its attacks did,
//! 預知's answers, sensing, peeks, the AT/PT announcement) and plays its
//! level: attackers aim at players they believe lower and finish the
//! wounded, level 4 slaughters and takes 野心's extra attack, level 1 and 2
//! call wisdom once with the level assignment its notes make likeliest, and
//! every seat picks and uses an instinct that suits its level.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::data::{Form, InstinctId, Kind, data};
use super::settings::WanningGame;
use super::state::*;
use super::view::WanningView;
use crate::bot::Bot;
use crate::table::SeatId;

/// What the bot has worked out so far.
#[derive(Clone, Default)]
pub struct ReasoningBot {
    /// The round last read, and every seat's HP as announced then.
    round: u8,
    hp: Vec<i32>,
    /// Belief that a seat is of a lower level than the bot (positive) or
    /// not (negative); ±100 when 預知 said so.
    lower: Vec<i32>,
    /// Who named whom, and whether the named one lost HP (from sensing).
    evidence: Vec<(SeatId, SeatId, bool)>,
    /// The bot's own attack targets of the round being played.
    attacked: Vec<SeatId>,
    /// Notes read so far.
    read: usize,
    /// An instinct to pick before those its level wants (the balance sim's
    /// `--prefer`, to measure one instinct's holders).
    prefer: Option<InstinctId>,
    /// Sensing answers waiting for the announcement that shows whether
    /// their target lost HP.
    pending: Vec<(SeatId, SeatId)>,
}

/// The instincts a level wants, best first.
fn wanted(level: u8) -> &'static [InstinctId] {
    match level {
        1 => &[InstinctId::Alliance, InstinctId::Sturdy, InstinctId::Poison],
        2 => &[
            InstinctId::Sturdy,
            InstinctId::Foresight,
            InstinctId::Poison,
        ],
        3 => &[InstinctId::Sturdy, InstinctId::Rage, InstinctId::Foresight],
        _ => &[
            InstinctId::Sturdy,
            InstinctId::Bloodlust,
            InstinctId::Foresight,
        ],
    }
}

impl ReasoningBot {
    /// A bot that picks `id` first when it is not banned.
    pub fn preferring(id: Option<InstinctId>) -> Self {
        Self {
            prefer: id,
            ..Self::default()
        }
    }

    /// Reads what changed in the view since the last call.
    fn read(&mut self, view: &WanningView) {
        let n = view.seats.len();
        let me = view.me.expect("a seated bot");
        if self.lower.len() != n {
            self.lower = vec![0; n];
            self.hp = view.seats.iter().map(|p| p.hp).collect();
        }
        if view.round != self.round {
            // The last round was settled: what did it show?
            let now: Vec<i32> = view.seats.iter().map(|p| p.hp).collect();
            for &t in &self.attacked {
                if now[t.index()] < self.hp[t.index()] {
                    self.lower[t.index()] = (self.lower[t.index()] + 2).min(99);
                } else {
                    self.lower[t.index()] = (self.lower[t.index()] - 3).max(-99);
                }
            }
            for (x, y) in std::mem::take(&mut self.pending) {
                self.evidence
                    .push((x, y, now[y.index()] < self.hp[y.index()]));
            }
            self.attacked.clear();
            self.hp = now;
            self.round = view.round;
        }
        for note in &view.learned[self.read..] {
            match *note {
                Learned::Foreseen { a, b, order } => {
                    let (other, other_vs_me) = if a == me {
                        (b, flip(order))
                    } else if b == me {
                        (a, order)
                    } else {
                        continue;
                    };
                    self.lower[other.index()] = match other_vs_me {
                        Compare::Lower => 100,
                        _ => -100,
                    };
                }
                Learned::Sensed {
                    target,
                    object: Some(o),
                    ..
                } if o != target => self.pending.push((target, o)),
                _ => {}
            }
        }
        self.read = view.learned.len();
    }

    /// Living others, the likeliest lower first, the weakest first among
    /// equals.
    fn targets(&self, view: &WanningView) -> Vec<SeatId> {
        let mut t = view.others_living();
        t.sort_by_key(|s| (-self.lower[s.index()], view.seats[s.index()].hp));
        t
    }

    /// The level assignment (others' levels, the bot's own fixed) that the
    /// evidence supports best: an attack that took HP went down the levels.
    fn likeliest_levels(&self, view: &WanningView) -> Vec<u8> {
        let n = view.seats.len();
        let me = view.me.expect("seated");
        let own = view.level.unwrap_or(1);
        let mut pool = data().levels_for(n);
        let at = pool
            .iter()
            .position(|l| *l == own)
            .expect("own level dealt");
        pool.remove(at);
        let others: Vec<usize> = (0..n).filter(|i| *i != me.index()).collect();
        let mut best = (i32::MIN, Vec::new());
        let mut perm = pool.clone();
        perm.sort();
        loop {
            let mut levels = vec![own; n];
            for (k, i) in others.iter().enumerate() {
                levels[*i] = perm[k];
            }
            let mut score = 0;
            for &(x, y, hurt) in &self.evidence {
                let down = levels[x.index()] > levels[y.index()];
                score += if hurt == down { 1 } else { -1 };
            }
            for (i, l) in levels.iter().enumerate() {
                let belief = self.lower[i];
                if i != me.index() && belief != 0 {
                    // 預知's answers are certain; the rest is a hint.
                    let w = if belief.abs() >= 100 { 10 } else { 1 };
                    score += if (*l < own) == (belief > 0) { w } else { -w };
                }
            }
            if score > best.0 {
                best = (score, levels);
            }
            if !next_permutation(&mut perm) {
                break;
            }
        }
        best.1
    }

    /// Calls wisdom (levels 1-2) once, when its notes are as full as they
    /// will be before the extra form is due.
    fn wisdom(&self, view: &WanningView) -> Option<Guess> {
        let n = view.seats.len();
        let me = view.me?;
        let level = view.level?;
        let open = match level {
            1 => true,
            2 => view.round >= data().wisdom_from_round(n),
            _ => false,
        };
        // As late as the notes grow and the bot is likely alive: small
        // tables before the extra form is due, large ones a round later.
        let due = view.round as usize + 1 >= n.div_ceil(2) + usize::from(n >= 8)
            || view.hp.is_some_and(|hp| hp <= 2)
            || level == 2;
        if !open || view.wisdom_used || !due {
            return None;
        }
        let levels = self.likeliest_levels(view);
        let count = n / 2 + usize::from(view.round as usize >= n.div_ceil(2));
        // The form each seat likeliest holds: from a peek's type, else the
        // form more players picked.
        let majority = match view.forms {
            Some(FormsPicked::MorePt) => Form::Pt,
            _ => Form::At,
        };
        let peeked = |s: SeatId| {
            view.learned.iter().find_map(|l| match *l {
                Learned::Peeked { target, kind } if target == s => Some(kind),
                _ => None,
            })
        };
        let mut named: Vec<(SeatId, Form)> = (0..n)
            .map(|i| SeatId(i as u8))
            .filter(|s| *s != me && levels[s.index()] != level)
            .map(|s| {
                let form = match peeked(s) {
                    Some(Kind::Information | Kind::Defence) => Form::At,
                    Some(Kind::Attack | Kind::AllRound) => Form::Pt,
                    _ => majority,
                };
                (s, form)
            })
            .collect();
        // Peeked seats first: their forms are the surest.
        named.sort_by_key(|(s, _)| peeked(*s).is_none());
        named.truncate(count);
        (named.len() == count).then_some(Guess {
            levels,
            forms: named,
        })
    }
}

fn flip(c: Compare) -> Compare {
    match c {
        Compare::Higher => Compare::Lower,
        Compare::Lower => Compare::Higher,
        Compare::Equal => Compare::Equal,
    }
}

/// The next arrangement of a sorted multiset, in lexicographic order.
fn next_permutation(v: &mut [u8]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len())
        .rev()
        .find(|&j| v[j] > v[i - 1])
        .expect("a larger one");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

impl Bot<WanningGame> for ReasoningBot {
    fn kind(&self) -> &'static str {
        "reasoning"
    }

    fn act(&mut self, view: &WanningView, rng: &mut ChaCha8Rng) -> Option<WanningAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        self.read(view);
        let level = view.level.unwrap_or(1);
        match view.phase {
            WanningPhase::Ban => Some(WanningAction::Ban { instincts: vec![] }),
            WanningPhase::Pick => {
                let instinct = self
                    .prefer
                    .iter()
                    .chain(wanted(level))
                    .copied()
                    .find(|i| !view.banned.contains(i))
                    .unwrap_or(InstinctId::Foresight);
                Some(WanningAction::Pick { instinct })
            }
            WanningPhase::Peek => Some(WanningAction::Peek {
                target: view.others_living().choose(rng).copied(),
            }),
            WanningPhase::Orders => {
                // 預知 first: on the seat it is least sure of.
                if view.foresights_left > 0 && level >= 2 {
                    let unsure = view
                        .others_living()
                        .into_iter()
                        .filter(|s| self.lower[s.index()].abs() < 100)
                        .min_by_key(|s| self.lower[s.index()].abs());
                    if let Some(s) = unsure {
                        return Some(WanningAction::Foresee { a: me, b: s });
                    }
                }
                if view.guard_owed && !view.guessed {
                    let guess = self
                        .targets(view)
                        .into_iter()
                        .find(|s| Some(*s) != view.instinct_last_target)
                        .map(|s| {
                            (
                                s,
                                if self.lower[s.index()] > 0 {
                                    level.saturating_sub(1).max(1)
                                } else {
                                    level
                                },
                            )
                        });
                    return Some(WanningAction::Guard { guess });
                }
                Some(WanningAction::Orders(self.plan(view, rng)))
            }
            WanningPhase::Idle | WanningPhase::GameOver => None,
        }
    }
}

impl ReasoningBot {
    fn plan(&mut self, view: &WanningView, rng: &mut ChaCha8Rng) -> Plan {
        let n = view.seats.len();
        let level = view.level.unwrap_or(1);
        let targets = self.targets(view);
        let mut plan = Plan::default();
        if level == 1 {
            // Sense the seat it knows least about.
            plan.target = targets
                .iter()
                .copied()
                .min_by_key(|s| (self.lower[s.index()].abs(), rng.random_range(0..100)));
            plan.wisdom = self.wisdom(view);
        } else {
            let sure: Vec<SeatId> = targets
                .iter()
                .copied()
                .filter(|s| self.lower[s.index()] >= 0)
                .collect();
            let pool = if sure.is_empty() { &targets } else { &sure };
            plan.target = pool.first().copied();
            // A second attack where the rules give one (發怒; 野心's public
            // half: the settlement checks the rest).
            let max = n as i32 - 1;
            let rage = view.instinct == Some(InstinctId::Rage)
                && view.last_hp.is_some_and(|hp| hp * 2 <= max);
            let mine = view.me.map_or(0, |m| view.seats[m.index()].hp);
            let ambition = level == 4
                && view
                    .seats
                    .iter()
                    .any(|p| Some(p.seat) != view.me && p.hp > mine);
            if plan.target.is_some() && (rage || ambition) {
                plan.second = pool.get(1).or(pool.first()).copied();
            }
            if level == 4 && view.slaughters_left > 0 && view.round >= 2 {
                // The healthiest believed-lower player: half its HP.
                plan.slaughter = pool
                    .iter()
                    .copied()
                    .max_by_key(|s| view.seats[s.index()].hp);
            }
            if level == 2 {
                plan.wisdom = self.wisdom(view);
            }
            self.attacked = [plan.target, plan.second].into_iter().flatten().collect();
        }
        plan.instinct = self.instinct(view, &plan, rng);
        // 合縱連橫: the HP held where it is; the action given up; the cap on
        // the weakest other player (likeliest of the lowest levels).
        let rested = !view.instinct_resting;
        if view.instinct == Some(InstinctId::Alliance) && rested {
            let weakest = view
                .others_living()
                .into_iter()
                .min_by_key(|s| view.seats[s.index()].hp);
            if let Some(target) = weakest {
                plan.target = None;
                plan.second = None;
                plan.instinct = Some(InstinctUse::Alliance { target });
                self.attacked.clear();
            }
        }
        plan
    }

    fn instinct(
        &self,
        view: &WanningView,
        plan: &Plan,
        rng: &mut ChaCha8Rng,
    ) -> Option<InstinctUse> {
        let rested = !view.instinct_resting;
        let hp = view.hp.unwrap_or(0);
        match view.instinct? {
            InstinctId::Sturdy if rested => Some(InstinctUse::Sturdy),
            InstinctId::Poison if rested && hp <= 2 => Some(InstinctUse::Poison),
            InstinctId::Survive if view.instinct_uses_left != Some(0) && hp <= 2 => {
                Some(InstinctUse::Survive)
            }
            InstinctId::Omens => Some(InstinctUse::Omens {
                ill: None,
                curse: (view.round.is_multiple_of(2) && view.omen_last == Some(true))
                    .then(|| rng.random_range(1..=4)),
            }),
            // Anything else (a drawn or fallback instinct): as a random bot
            // would, when its own checks allow.
            _ => {
                let mut p = plan.clone();
                super::instinct_play::instinct_use(view, &mut p, &view.others_living(), rng)
                    .filter(|_| p.target == plan.target && p.second == plan.second)
            }
        }
    }
}
