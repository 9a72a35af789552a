//! What a Wanning Beast Chess table holds: the phases, the actions, each
//! seat's components, the game-wide resources and what the systems tell
//! the narrator. The rules document (`rules.md`) gives every clause and
//! every choice.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::data::{Form, InstinctId};
use crate::table::SeatId;

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WanningPhase {
    #[default]
    Idle,
    /// Everyone names up to two instincts to ban (「選擇2個想禁用的本能」).
    Ban,
    /// Everyone picks one instinct that was not banned, in secret.
    Pick,
    /// The forms' counts are announced; everyone may learn one player's
    /// instinct type.
    Peek,
    /// A round: every living player gives their orders (action, level
    /// ability, instinct); the last orders in settle the round. 警惕's
    /// owners give their guess about the last round now too.
    Orders,
    GameOver,
}

/// What a level-2-4 player's action hits, or a level-1 player senses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Plan {
    /// The attack (levels 2-4) or sensing (level 1) target; `None` gives
    /// up the action.
    pub target: Option<SeatId>,
    /// A second attack: 發怒, 垂死抗爭, or 野心's extra action.
    pub second: Option<SeatId>,
    /// 殺戮's target (level 4).
    pub slaughter: Option<SeatId>,
    /// A wisdom guess (智慧, levels 1-2).
    pub wisdom: Option<Guess>,
    /// The instinct used this round, with what it needs.
    pub instinct: Option<InstinctUse>,
}

/// A wisdom guess: every other player's level, and the form of some
/// players outside the guesser's level (「選定 n/2 下取整個除自己等級以外的
/// 動物，指出他們的本能形態」).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guess {
    /// A level for every seat, in seat order (the guesser's own is its own).
    pub levels: Vec<u8>,
    pub forms: Vec<(SeatId, Form)>,
}

/// An instinct used in a round's orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstinctUse {
    /// 強健: HP locked at half of last round's.
    Sturdy,
    /// 飲鴆止渴: drink the poisoned cup.
    Poison,
    /// 合縱連橫: give up the action; own HP locked; `target`'s damage at most
    /// 2/3/4 this round.
    Alliance { target: SeatId },
    /// 狐假虎威: 2 true damage and 2 shields to `target`.
    Bluff { target: SeatId },
    /// 制衡: lose 1 HP; every other level's instincts are invalid.
    Balance,
    /// 獸性: `target`'s damage is doubled; it may not be an action target.
    Beast { target: SeatId },
    /// 我是歌姬: give up the action; every wisdom this round fails; a shield.
    Diva,
    /// 獨立宣言: the table hears last round's HP; the owner learns the truth.
    Independence,
    /// 垂死抗爭: HP locked at last round's and a second attack, this round
    /// and the next.
    LastStand,
    /// 斷井頹垣, radical: true damage to `target` (2 if its HP is above the
    /// owner's, else 1).
    Ruins { target: SeatId },
    /// 幸運: the drawn action (attack, guard or rest) on `target`.
    Luck { target: SeatId },
    /// 臥薪嘗膽: `target`'s instinct invalid (and its attack, if it hurt
    /// the owner last round).
    Grudge { target: SeatId },
    /// 磕CP: give up the action; pair with `target`.
    Pair { target: SeatId },
    /// 茍且偷生: HP locked; a shield per player who named the owner last
    /// round.
    Survive,
    /// 替身力量: give up the action; two scarecrows; `target`'s instinct
    /// invalid.
    Stand { target: SeatId },
    /// 仁慈, with the attack: its target locked at 1 HP this round; next
    /// round its instinct and wisdom fail.
    Mercy,
    /// 外交部發言人, while alive: marks two players.
    Mark { a: SeatId, b: SeatId },
    /// 大智若愚: a level and a form for every seat (the owner's own entries
    /// are its own and not judged); all wrong wins.
    FoolWise { levels: Vec<u8>, forms: Vec<Form> },
    /// 趨吉避兇, every round: 吉 (`ill: None`: 1 true damage to oneself) or
    /// 兇 (`ill: Some(target)`: the target takes no damage from the owner's
    /// level this round); `curse`: the level an even round's mixed
    /// combination curses.
    Omens {
        ill: Option<SeatId>,
        curse: Option<u8>,
    },
}

impl InstinctUse {
    /// The instinct this use is of.
    pub fn instinct(&self) -> InstinctId {
        match self {
            InstinctUse::Sturdy => InstinctId::Sturdy,
            InstinctUse::Poison => InstinctId::Poison,
            InstinctUse::Alliance { .. } => InstinctId::Alliance,
            InstinctUse::Bluff { .. } => InstinctId::Bluff,
            InstinctUse::Balance => InstinctId::Balance,
            InstinctUse::Beast { .. } => InstinctId::Beast,
            InstinctUse::Diva => InstinctId::Diva,
            InstinctUse::Independence => InstinctId::Independence,
            InstinctUse::LastStand => InstinctId::LastStand,
            InstinctUse::Ruins { .. } => InstinctId::Ruins,
            InstinctUse::Luck { .. } => InstinctId::Luck,
            InstinctUse::Grudge { .. } => InstinctId::Grudge,
            InstinctUse::Pair { .. } => InstinctId::Pair,
            InstinctUse::Survive => InstinctId::Survive,
            InstinctUse::Stand { .. } => InstinctId::Stand,
            InstinctUse::Mercy => InstinctId::Mercy,
            InstinctUse::Mark { .. } => InstinctId::Spokesman,
            InstinctUse::FoolWise { .. } => InstinctId::FoolWise,
            InstinctUse::Omens { .. } => InstinctId::Omens,
        }
    }

    /// The seat the instinct names (for 吉兆凶兆 the ill omen's, if any).
    pub fn target(&self) -> Option<SeatId> {
        match self {
            InstinctUse::Alliance { target }
            | InstinctUse::Bluff { target }
            | InstinctUse::Beast { target }
            | InstinctUse::Ruins { target }
            | InstinctUse::Luck { target }
            | InstinctUse::Grudge { target }
            | InstinctUse::Pair { target }
            | InstinctUse::Stand { target } => Some(*target),
            InstinctUse::Mark { a, .. } => Some(*a),
            InstinctUse::Omens { ill, .. } => *ill,
            _ => None,
        }
    }
}

/// 幸運's three actions: 「攻……守……休」.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LuckDraw {
    Attack,
    Guard,
    Rest,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WanningAction {
    /// Ban phase: up to two instincts to ban (not 預知).
    Ban { instincts: Vec<InstinctId> },
    /// Pick phase: the seat's instinct.
    Pick { instinct: InstinctId },
    /// Peek phase: learn `target`'s instinct type, or not (`None`).
    Peek { target: Option<SeatId> },
    /// A round's orders.
    Orders(Plan),
    /// 預知, at any moment after the pick: how `a`'s and `b`'s levels
    /// compare.
    Foresee { a: SeatId, b: SeatId },
    /// 警惕's guess of `target`'s level after a round it lost HP in, given
    /// with the next round's orders (a newly dead owner too), or no guess.
    Guard { guess: Option<(SeatId, u8)> },
    /// Private talk with one living player (from round 1's announcement).
    Say { to: SeatId, text: String },
}

// ----- each seat's components ------------------------------------------------

/// The seat's animal and level (secret: 「玩家只能得知自己的等級」).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beast {
    pub level: u8,
    /// Index into the data's animals.
    pub animal: usize,
}

/// HP, as it is and as it was announced, and shields.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Life {
    pub hp: i32,
    /// Last round's HP (「上回合血量」): the HP after the last settlement,
    /// the start HP before the first.
    pub last_hp: i32,
    /// The HP the table last heard.
    pub announced: i32,
    pub shields: i32,
    /// The round the seat died in (at its announcement).
    pub died: Option<u8>,
    /// The HP the seat itself knows it has: the announced HP, or the true
    /// one after 獨立宣言.
    pub known: i32,
    /// HP lost in the last round (警惕's 「扣除的生命值」).
    pub lost_last: i32,
    /// Damage and true damage received in the last round, before shields
    /// (臥薪嘗膽's 「上回合受到傷害」: rules.md §3).
    #[serde(default)]
    pub damaged_last: i32,
}

impl Life {
    /// Dead from the round after the one it died in.
    pub fn dead(&self) -> bool {
        self.died.is_some()
    }
}

/// The seat's instinct and what it has spent.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instinct {
    pub id: Option<InstinctId>,
    /// Picked as 笨鳥先飛 and turned into `id`.
    pub early_bird: bool,
    /// Times used this game.
    pub used: u8,
    /// The last round it was used in (cooldowns, "not twice in a row").
    pub last_round: Option<u8>,
    /// Its last target ("not twice in a row at the same player").
    pub last_target: Option<SeatId>,
    /// 警惕: the seat lost HP last round and may guess now.
    pub guard_owed: bool,
    /// 警惕: this round's guess.
    pub guess: Option<(SeatId, u8)>,
    /// 狐假虎威's target died: the owner's next attack or sensing adds 1
    /// true damage.
    pub bluff_bonus: bool,
    /// 幸運: this round's draw.
    pub luck: Option<LuckDraw>,
    /// 替身力量's scarecrows.
    pub scarecrows: u8,
    /// 垂死抗爭: active up to and including this round.
    pub stand_until: Option<u8>,
    /// 斷井頹垣: switched for good to the radical state.
    pub radical: bool,
    /// 臥薪嘗膽: times triggered.
    pub grudges: u8,
    /// 仁慈 struck this seat: in this round its instinct and wisdom fail.
    pub spared_in: Option<u8>,
    /// 外交部發言人's marks: on whom, how many.
    pub marks: Vec<(SeatId, u8)>,
    /// 趨吉避兇: the last round's choice (true: 兇).
    pub omen_last: Option<bool>,
    /// 趨吉避兇's 吉+吉: the owner's level loses at most 1 HP a round, up
    /// to and including this round.
    pub omen_cap_until: Option<u8>,
}

/// The level abilities' uses.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abilities {
    pub slaughter_used: u8,
    pub slaughter_last: Option<u8>,
    pub wisdom_used: bool,
    /// The round wisdom was used in (大智若愚's condition).
    pub wisdom_round: Option<u8>,
}

/// The set-up's choices: bans, pick, peek.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choices {
    pub banned: Option<Vec<InstinctId>>,
    pub picked: bool,
    pub peeked: bool,
}

/// This round's orders, once given.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Orders(pub Option<Plan>);

/// Why a seat's own HP or shields changed (issue 71): each change is a
/// line told to the seat alone, with its amounts, in the seed's order
/// (「buff獲取->最大受到傷害->護盾->真實傷害->鎖血->特殊技能」). A line says
/// what the seat may know: never who hurt it, nor an invalid attack
/// (「攻擊無效：…玩家將不會得知」), nor whose lock held it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Why {
    /// 「buff獲取」: shields gained this round.
    Shielded,
    /// 「護盾」: shields spent on damage.
    Soaked,
    /// Ordinary damage past the shields.
    Damage,
    /// 「真實傷害」: shields do not stop it.
    TrueDamage,
    /// 「鎖血」: a lock (or 斷井頹垣's floor, 吉+吉's cap) held the HP up.
    Locked,
    /// 兇殘, the seat's own level 4's curse.
    Brutal,
    /// 嗜殺: 「將被攻擊者的狀態設置為死亡」.
    Slain,
    /// 飲鴆止渴: the round's damage would have killed it: HP locked at the
    /// round's start, and a shield.
    CupSaved,
    /// 飲鴆止渴's own 1 damage.
    CupDamage,
    /// 替身力量's scarecrows.
    Scarecrows,
    /// 野心: two or more died this round.
    Ambition,
    /// 強健: two shields once the forms are known.
    Sturdy,
}

/// One line of a seat's own account: why, by how much, and what its HP
/// and shields were after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub why: Why,
    pub hp: i32,
    pub shields: i32,
    pub hp_after: i32,
    pub shields_after: i32,
}

impl Change {
    /// `why` changed the HP by `hp` and the shields by `shields`, leaving
    /// `life` as it is now.
    pub fn new(why: Why, hp: i32, shields: i32, life: &Life) -> Self {
        Self {
            why,
            hp,
            shields,
            hp_after: life.hp,
            shields_after: life.shields,
        }
    }
}

/// This round's tally: what the settlement reads and writes, step by step.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tally {
    /// 「本回合受到傷害」 (ordinary damage), before max damage and shields.
    pub damage: i32,
    /// 「本回合受到真實傷害」.
    pub true_damage: i32,
    /// Max damage states gained this round (the smallest applies).
    pub max_damage: Vec<i32>,
    /// HP locks gained this round (the highest applies: rules.md §2).
    pub locks: Vec<i32>,
    /// 「攻擊無效」: the seat's attacks do nothing (it is not told).
    pub attack_invalid: bool,
    /// 「本能無效」 at this priority (higher stops more; see `Priority`).
    pub instinct_invalid: Option<u8>,
    /// 獸性: the seat's damage is doubled.
    pub doubled: bool,
    /// Shields gained this round (buffs), added before damage.
    pub shields_gained: i32,
    /// Who named this seat as a target this round (attack, sense, ability
    /// or instinct).
    pub targeted_by: Vec<SeatId>,
    /// HP lost in the round (after everything).
    pub lost: i32,
    /// 嗜殺: the seat is set dead by an attack.
    pub slain: bool,
    /// 獨立宣言: the table hears last round's HP.
    pub independent: bool,
    /// HP when the round's settlement began.
    pub start_hp: i32,
    /// 野心 gave the seat its extra action this round.
    pub ambition: bool,
    /// Who hurt the seat this round (valid attacks, true damage).
    pub hit_by: Vec<SeatId>,
    /// Damage that got past shields, and true damage, this round.
    pub taken: i32,
    /// Each damage this round: amount, and whether it was true damage.
    pub instances: Vec<(i32, bool)>,
    /// 趨吉避兇's 兇+兇: only the highest single damage counts.
    pub only_highest: bool,
    // What the settlement did to the seat, step by step, for its own
    // screen (`view::Settled`): amounts only, never who or why.
    /// Ordinary damage after the max-damage step, before shields.
    pub reached: i32,
    /// Shields spent on it.
    pub soaked: i32,
    /// HP the lock step gave back (locks, 斷井頹垣's floor, 吉+吉).
    pub lock_gain: i32,
    /// HP changed by the special skills (兇殘, 嗜殺, 飲鴆止渴, 替身力量).
    pub special_hp: i32,
    /// Shields changed by the special skills.
    pub special_shields: i32,
    /// 兇殘's damage to the seat this round, before shields (the cup's
    /// condition counts it: 「本回合受到傷害」).
    pub brutal: i32,
    /// 飲鴆止渴's own 1 damage, before shields.
    #[serde(default)]
    pub cup_damage: i32,
    /// 幸運's draw this round, as the ladder reads it (幸運休 stands on its
    /// own rung).
    pub luck: Option<LuckDraw>,
    /// Each change to the seat's own HP and shields this round, in the
    /// order it was made and told (`Why`): its settlement's lines.
    pub lines: Vec<Change>,
}

/// How one level compares with another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compare {
    Higher,
    Lower,
    Equal,
}

impl From<std::cmp::Ordering> for Compare {
    fn from(o: std::cmp::Ordering) -> Self {
        match o {
            std::cmp::Ordering::Greater => Compare::Higher,
            std::cmp::Ordering::Less => Compare::Lower,
            std::cmp::Ordering::Equal => Compare::Equal,
        }
    }
}

/// Something a seat learned in private, kept for its view (what its
/// notes told it: a bot's notebook reads these, a screen lists them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Learned {
    /// Sensing in `round`: `target`'s object was `object`.
    Sensed {
        round: u8,
        target: SeatId,
        object: Option<SeatId>,
    },
    /// 預知: `a`'s level compared with `b`'s.
    Foreseen {
        a: SeatId,
        b: SeatId,
        order: Compare,
    },
    /// A peek: `target`'s instinct type.
    Peeked {
        target: SeatId,
        kind: super::data::Kind,
    },
    /// A wisdom guess in `round` was right or not.
    Wisdom { round: u8, right: bool },
}

/// What the seat learned in private, in order.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notebook(pub Vec<Learned>);

/// One line of private talk (「任意兩名玩家可以自由交流」): kept by both
/// of its players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TalkLine {
    /// The round it was said in (after that round's announcement).
    pub round: u8,
    /// Table time it was said at.
    pub at_ms: u64,
    pub from: SeatId,
    pub to: SeatId,
    pub text: String,
}

/// The conversations the seat is part of, in order.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Talk(pub Vec<TalkLine>);

/// The last round's tally, as it was settled (what scenario checks of
/// statuses read once the next round has opened).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTally(pub Tally);

/// The instinct-invalid ladder: 「殺戮>制衡>幸運休>替身力量、趨吉避兇>其它本能」.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Priority {
    Others = 1,
    StandOmens = 2,
    LuckRest = 3,
    Balance = 4,
    Slaughter = 5,
    /// 恐懼 is a locked level ability: it invalidates every instinct of its
    /// own seat, whatever its priority (rules.md §4).
    Fear = 6,
}

// ----- game-wide resources ---------------------------------------------------

/// 幸運's draws a scenario fixed for the first round it opens, by seat
/// (`WanningSetup::luck`); each is used once.
#[derive(Resource, Clone, Debug, Default)]
pub struct ScriptedLuck(pub Vec<std::collections::VecDeque<LuckDraw>>);

/// The round under way (0 before the first).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round(pub u8);

/// The instincts banned, in the seed's order.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Banned(pub Vec<InstinctId>);

/// How the game ended: the winning level, and why.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome(pub Option<(u8, WinBy)>);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinBy {
    /// Only this level has living players.
    LastLevel,
    /// A wisdom guess was right (「觸發獲勝效果」).
    Wisdom(SeatId),
    /// 大智若愚: every guess wrong (「必勝效果」).
    FoolWise(SeatId),
    /// Everyone died in one settlement, or the round cap was reached: the
    /// level with the most HP left (rules.md §7).
    Cap,
}

/// Last round's targets, for 茍且偷生 and 臥薪嘗膽: who named whom.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTargets(pub Vec<(SeatId, SeatId)>);

/// 趨吉避兇's wards and curses.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OmenState {
    /// This round: (target, level): the target takes nothing from that level.
    pub wards: Vec<(SeatId, u8)>,
    /// This round's cursed level: its attacks do 1 less.
    pub cursed: Vec<u8>,
    /// Next round's.
    pub curse_next: Vec<u8>,
}

/// Who hurt whom last round (臥薪嘗膽).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastHits(pub Vec<(SeatId, SeatId)>);

/// Whether anyone died at last round's announcement (幸運, 斷井頹垣).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathsLastRound(pub u8);

/// What the forms' announcement says: which form was picked more often.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FormsPicked {
    MoreAt,
    MorePt,
    Equal,
}

impl FormsPicked {
    pub fn of(at: u8, pt: u8) -> Self {
        match at.cmp(&pt) {
            std::cmp::Ordering::Greater => Self::MoreAt,
            std::cmp::Ordering::Less => Self::MorePt,
            std::cmp::Ordering::Equal => Self::Equal,
        }
    }
}

/// The forms' announcement after the pick: AT and PT picks.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormCounts(pub Option<(u8, u8)>);

/// Every wisdom this round fails (我是歌姬).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sung(pub bool);

// ----- news --------------------------------------------------------------------

/// What happened, for the narrator.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum WanningNews {
    /// The seat was dealt its animal (private).
    Dealt {
        seat: SeatId,
        level: u8,
        animal: usize,
    },
    BansOpen,
    /// The bans, announced.
    Banned(Vec<InstinctId>),
    PickOpen,
    /// The seat's instinct (private); `early_bird` if 笨鳥先飛 drew it.
    Picked {
        seat: SeatId,
        instinct: InstinctId,
        early_bird: bool,
    },
    /// Which form was picked more often.
    Forms {
        at: u8,
        pt: u8,
    },
    /// A peek's answer (private).
    Peeked {
        seat: SeatId,
        target: SeatId,
        kind: super::data::Kind,
    },
    /// A round begins.
    RoundBegins(u8),
    /// Sensing's answer (private): whom `target` named, or nobody.
    Sensed {
        seat: SeatId,
        target: SeatId,
        named: Option<SeatId>,
    },
    /// 預知's answer (private).
    Foreseen {
        seat: SeatId,
        a: SeatId,
        b: SeatId,
        order: std::cmp::Ordering,
    },
    /// The seat's instinct was invalid this round (it is told).
    InstinctInvalid(SeatId),
    /// 幸運's draw this round (private).
    LuckDrawn {
        seat: SeatId,
        draw: LuckDraw,
    },
    /// 茍且偷生's malice sense (private): how many named the seat last round.
    Malice {
        seat: SeatId,
        count: u8,
    },
    /// 斷井頹垣 turned radical (private).
    Radical(SeatId),
    /// A change to the seat's own HP or shields, and why (private; issue
    /// 71). `round` 0: before the first round.
    Changed {
        seat: SeatId,
        round: u8,
        change: Change,
    },
    /// 大智若愚's feedback (private).
    FoolWise {
        seat: SeatId,
        won: bool,
    },
    /// A wisdom guess: right or not (private feedback).
    Wisdom {
        seat: SeatId,
        right: bool,
    },
    /// The announcement: every seat's HP as the table hears it.
    Announced {
        round: u8,
        hps: Vec<i32>,
        dead: Vec<SeatId>,
    },
    /// 獨立宣言's owner learns its true HP (private).
    TrueHp {
        seat: SeatId,
        hp: i32,
    },
    /// Private talk.
    Said {
        from: SeatId,
        to: SeatId,
        text: String,
    },
    GameOver {
        level: u8,
        by: WinBy,
    },
}

crate::game_state! {
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatState {
        pub beast: Beast,
        pub life: Life,
        pub instinct: Instinct,
        pub abilities: Abilities,
        pub choices: Choices,
        pub orders: Orders,
        pub tally: Tally,
        pub last_tally: LastTally,
        pub notebook: Notebook,
        #[serde(default)]
        pub talk: Talk,
    }

    /// Everything of the game's own world a snapshot holds.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct WanningState {
        pub seats: Vec<SeatState>,
        pub round: Round,
        pub banned: Banned,
        pub outcome: Outcome,
        pub last_targets: LastTargets,
        pub deaths_last_round: DeathsLastRound,
        pub sung: Sung,
        pub forms: FormCounts,
        pub last_hits: LastHits,
        pub omens: OmenState,
    }
}

crate::resource_parts!(
    Round,
    Banned,
    Outcome,
    LastTargets,
    DeathsLastRound,
    Sung,
    FormCounts,
    LastHits,
    OmenState
);
