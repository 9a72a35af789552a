//! Gene Survival's "Learn to play" lesson (`lesson.ron`, issue 38) plays
//! through headless, and what it points the learner at names what each
//! step asks.

use super::{GeneAction, GeneCheck, GeneGame, map};
use crate::lesson::{LEARNER, Lesson, LessonRun, Teach};
use crate::table::{Game, SeatId, SeatName};

fn lesson() -> Lesson<GeneGame> {
    LessonRun::<GeneGame>::parse(super::lesson().expect("Gene has a lesson")).expect("it reads")
}

/// The lesson plays to its end, every check holding, and the learner takes
/// every kind of move it teaches, each by its own hand:
///
/// - 「每位玩家初始有10点基因……点数需全部用完」 and 「然后每位玩家秘密选择自己的
///   出生房间」 (rules.md §1): `Prepare`, with a panel other than the
///   default and a spawn room;
/// - 「不同楼层需要通过楼梯上下，不同楼栋，需要通过廊桥……」 (§2): a `Move` from
///   West 1F to East 2F, up the stairs and over the bridge;
/// - 「抽取道具卡后，将持有的道具卡数量调整至负重范围内，多出的道具卡将丢弃在该房间」
///   (§4, §6): a `Draw` that puts the learner over the carry, and the
///   `Discard` that chooses what to leave;
/// - 「可分享信息、制定策略并进行顺位卡和道具卡的交易」 (§5): an offer of a card
///   for the learner's order card, `Accept`ed in the free phase;
/// - 「随后，玩家需选择一个楼层投票」 and 「若已成为“毒气”楼层，不能重复被投」 (§5):
///   two `Vote`s;
/// - 「武力值最高的玩家生命值不变，其余玩家将扣除与该玩家武力值之差的等量生命值」
///   (§5): two room battles the learner loses, 5 HP each (checked);
/// - 「生命值为零时，可以以暗影的身份继续游戏」, 「暗影玩家，需立即上交所有道具卡，
///   该道具卡将会自动进入停尸间」 and 「暗影玩家下一轮将会从停尸间出发」 (§1, §7):
///   the learner becomes a shadow in the morgue with its cards there
///   (checked), then `Ready`, a shadow's `Move` and `EndTurn`, and drains
///   a living player (「每个存活玩家均会被每个暗影吸取1点生命值」, checked).
#[test]
fn the_gene_lesson_plays_through() {
    let (table, learnt) = LessonRun::play_through(lesson()).unwrap_or_else(|e| panic!("{e}"));
    let holds = |check: GeneCheck| GeneGame::verify(table.world(), &check).unwrap();
    // Three rounds played; the learner a shadow, the game going on.
    holds(GeneCheck::Round(4));
    holds(GeneCheck::Shadow(LEARNER, true));
    assert!(!table.is_over());

    let kind = |f: fn(&GeneAction) -> bool| learnt.iter().filter(|a| f(a)).count();
    assert_eq!(kind(|a| matches!(a, GeneAction::Prepare { .. })), 1);
    let default = super::Genes::balanced(super::numbers().gene_points);
    assert!(
        learnt
            .iter()
            .any(|a| matches!(a, GeneAction::Prepare { genes, .. } if *genes != default)),
        "the learner spends the gene points"
    );
    assert!(kind(|a| matches!(a, GeneAction::Ready)) >= 2);
    assert!(kind(|a| matches!(a, GeneAction::Move { .. })) >= 3);
    assert!(kind(|a| matches!(a, GeneAction::Draw { .. })) >= 1);
    assert!(kind(|a| matches!(a, GeneAction::Discard { .. })) >= 1);
    assert!(kind(|a| matches!(a, GeneAction::Offer { .. } | GeneAction::Accept { .. })) >= 1);
    assert!(kind(|a| matches!(a, GeneAction::Vote { .. })) >= 1);
    // A shadow's turn: the learner's last moves, a move and the turn's
    // end (the living end theirs by voting while a floor is open).
    assert!(matches!(
        learnt.as_slice(),
        [.., GeneAction::Move { .. }, GeneAction::EndTurn]
    ));

    // The first move crosses a floor and the bridge.
    let rooms: Vec<_> = learnt
        .iter()
        .filter_map(|a| match a {
            GeneAction::Prepare { spawn, .. } => Some(*spawn),
            GeneAction::Move { to } => Some(*to),
            _ => None,
        })
        .collect();
    let path = map().path(rooms[0], rooms[1], false).expect("a way there");
    let floors: std::collections::BTreeSet<_> = path.iter().map(|r| map().room(*r).floor).collect();
    let storeys: std::collections::BTreeSet<_> = floors.iter().map(|f| f.floor).collect();
    let wings: std::collections::BTreeSet<_> = floors.iter().map(|f| f.building).collect();
    assert!(storeys.len() > 1 && wings.len() > 1, "{path:?}");
}

/// Each step points at the pieces and controls its move uses, by the
/// names the Gene screen gives them (`src/client/games/gene/scene.rs`
/// and `panels.rs`): `room:KEY`, `ballot:WING-FLOOR` (the wing's index),
/// `draw:KIND`, `card:KIND`, `accept:SEAT` (0-based, as every screen's
/// names) and the panels' buttons; and each `say` is one or two sentences
/// in both languages.
#[test]
fn each_step_points_at_what_its_move_uses() {
    let lower = |k: &super::ItemKind| format!("{k:?}").to_lowercase();
    for (n, step) in lesson().steps.iter().enumerate() {
        let Teach::Do { say, point, act } = step else {
            continue;
        };
        let has = |name: String| {
            assert!(
                point.iter().any(|p| crate::lesson::matches(p, &name)),
                "step {}: {act:?} should point at {name}: {point:?}",
                n + 1
            );
        };
        match act {
            GeneAction::Prepare { spawn, .. } => {
                has(format!("room:{}", map().room(*spawn).key));
                has("prepare".into());
            }
            GeneAction::Ready => has("ready".into()),
            GeneAction::Move { to } => has(format!("room:{}", map().room(*to).key)),
            GeneAction::Draw { kind } => has(format!("draw:{}", lower(kind))),
            GeneAction::Take { kind } => has(format!("take:{}", lower(kind))),
            GeneAction::Discard { kind } => has(format!("card:{}", lower(kind))),
            GeneAction::Vote { floor } => has(format!("ballot:{}-{}", floor.building, floor.floor)),
            GeneAction::Accept { from } => has(format!("accept:{}", from.0)),
            GeneAction::EndTurn => has("end-turn".into()),
            other => panic!("step {}: the test does not know {other:?}", n + 1),
        }
        for name in point {
            if let Some(key) = name.strip_prefix("room:") {
                assert!(map().by_key(key).is_some(), "step {}: {name}", n + 1);
            }
        }
        for text in [&say.en, &say.zh] {
            let sentences = text
                .chars()
                .filter(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？'))
                .count();
            assert!(
                (1..=2).contains(&sentences),
                "step {}: one or two sentences: {text}",
                n + 1
            );
        }
    }
}

/// At the first step the table takes only the step's move: the default
/// panel is refused with the step's words, and nothing changes.
#[test]
fn the_lesson_takes_only_the_step_asked() {
    let names = ["Ann", "Bot 2", "Bot 3", "Bot 4"]
        .map(SeatName::from)
        .to_vec();
    let (mut table, mut run) = LessonRun::start(lesson(), names).expect("starts");
    while let Some(step) = run.auto_step(&mut table) {
        step.expect("scripted steps are taken");
    }
    let before = table.snapshot().hash();
    let genes = super::Genes::balanced(super::numbers().gene_points);
    let spawn = map().by_key("w1-store").expect("a room");
    let refused = run
        .submit(&mut table, LEARNER, GeneAction::Prepare { genes, spawn })
        .expect_err("the step asks for another panel");
    assert!(refused.reason.en.contains("Storeroom"), "{refused}");
    assert_eq!(table.snapshot().hash(), before);
    // A bot's seat is the script's.
    let bot = run.submit(&mut table, SeatId(1), GeneAction::Ready);
    assert!(bot.is_err());
    assert_eq!(run.now().step, 1);
}
