//! Wanning Beast Chess as a hosted table reads it: private talk kept by
//! its two players only, each seat's own settlement amounts (`settled`),
//! and the host seat's view (`host`). Each test quotes the seed clause it
//! checks (`wanning-beast-chess.txt`); every table is scripted
//! (`WanningSetup`), so each test is deterministic.

use foodweb_rules::table::{Game, SeatId, Table, TableConfig};
use foodweb_rules::wanning::state::{Change, TalkLine, Why};
use foodweb_rules::wanning::view::{Settled, host_seat_view};
use foodweb_rules::wanning::{
    InstinctId, InstinctUse, Plan, WanningAction, WanningGame, WanningPhase, WanningSettings,
    WanningSetup, WanningView,
};

fn scripted(seed: u64, players: usize, setup: WanningSetup) -> Table<WanningGame> {
    Table::with_setup(TableConfig::new(seed, players), Some(&setup)).unwrap()
}

/// Every living seat gives its orders: `plans` for the seats named there,
/// no action for the others. The last orders in settle the round.
fn round(table: &mut Table<WanningGame>, plans: &[(usize, Plan)]) {
    for seat in table.to_act() {
        let plan = plans
            .iter()
            .find(|(s, _)| *s == seat.index())
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        table
            .submit(seat, WanningAction::Orders(plan))
            .unwrap_or_else(|e| panic!("seat {seat}'s orders: {e}"));
    }
}

fn attack(target: usize) -> Plan {
    Plan {
        target: Some(SeatId(target as u8)),
        ..Plan::default()
    }
}

fn say(to: usize, text: &str) -> WanningAction {
    WanningAction::Say {
        to: SeatId(to as u8),
        text: text.into(),
    }
}

/// The spectator's view (`view(world, None)`).
fn spectator(table: &Table<WanningGame>) -> WanningView {
    WanningGame::view(table.world(), None)
}

/// The action is refused and the table is byte for byte as it was.
fn refused(table: &mut Table<WanningGame>, seat: usize, action: WanningAction) -> String {
    let before = table.snapshot().to_ron();
    let err = table
        .submit(SeatId(seat as u8), action.clone())
        .expect_err(&format!("seat {seat}'s {action:?} was accepted"));
    assert_eq!(
        table.snapshot().to_ron(),
        before,
        "the refused {action:?} changed the table"
    );
    err.reason.en
}

/// 「第一回合公布血量後，任意兩名玩家可以自由交流」: talk opens at round 1's
/// announcement; a line between A and B is kept by A and B, and by no other
/// seat, nor the spectators; the host hears every line once. 「死亡的玩家從
/// 死亡回合後一回合開始將不能發動能力、本能、行動，並不能與其他玩家交流」: a
/// dead player's line is refused.
#[test]
fn private_talk_reaches_its_two_players_and_the_host_only() {
    // Before the deal's set-up is over, talk is not a move at all.
    let mut dealt = Table::<WanningGame>::new(TableConfig::new(3, 5)).unwrap();
    assert_eq!(dealt.phase(), WanningPhase::Ban);
    refused(&mut dealt, 1, say(2, "too soon"));

    // Ann (level 1, 1 HP) dies in round 1: Cy (level 2) attacks her.
    let mut table = scripted(
        4,
        5,
        WanningSetup {
            levels: Some(vec![1, 1, 2, 3, 4]),
            hp: Some(vec![1, 4, 4, 4, 4]),
            ..WanningSetup::default()
        },
    );
    assert_eq!(
        (table.phase(), spectator(&table).round),
        (WanningPhase::Orders, 1)
    );
    // Round 1's orders are open, its HP not yet announced: refused, and
    // nothing is kept anywhere.
    let why = refused(&mut table, 1, say(3, "before the announcement"));
    assert!(why.contains("after round 1"), "{why}");
    for s in 0..5 {
        assert!(table.view(SeatId(s)).talk.is_empty());
    }
    assert!(
        WanningGame::host_view(table.world())
            .host
            .unwrap()
            .talk
            .is_empty()
    );

    round(&mut table, &[(2, attack(0))]);
    let public = spectator(&table);
    assert_eq!(public.round, 2, "round 1 was settled and announced");
    assert!(public.seats[0].dead, "Ann died at round 1's announcement");

    // Bo (seat 1) and Di (seat 3) talk.
    table.submit(SeatId(1), say(3, "are you level 3?")).unwrap();
    table.submit(SeatId(3), say(1, "I am no liar")).unwrap();
    let lines = |v: &WanningView| -> Vec<(SeatId, SeatId, String)> {
        v.talk
            .iter()
            .map(|l| (l.from, l.to, l.text.clone()))
            .collect()
    };
    let both = vec![
        (SeatId(1), SeatId(3), "are you level 3?".to_string()),
        (SeatId(3), SeatId(1), "I am no liar".to_string()),
    ];
    assert_eq!(lines(&table.view(SeatId(1))), both, "Bo keeps both lines");
    assert_eq!(lines(&table.view(SeatId(3))), both, "Di keeps both lines");
    for other in [0, 2, 4] {
        let v = table.view(SeatId(other));
        assert!(v.talk.is_empty(), "seat {other} got the talk: {:?}", v.talk);
        let text = format!("{v:?}");
        assert!(!text.contains("are you level 3?") && !text.contains("no liar"));
        // Nor was the line told to a third seat as a note.
        for n in table.announcements().notes_for(SeatId(other)) {
            assert!(!format!("{n:?}").contains("no liar"), "seat {other}: {n:?}");
        }
    }
    let public = spectator(&table);
    assert!(public.talk.is_empty() && public.host.is_none());
    assert!(!format!("{public:?}").contains("no liar"));
    assert!(
        !format!("{:?}", table.announcements().public).contains("no liar"),
        "a private line was announced"
    );
    // The host hears each line once, in the order said.
    let host = WanningGame::host_view(table.world()).host.unwrap();
    let said: Vec<&TalkLine> = host.talk.iter().collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert_eq!(
        said.iter()
            .map(|l| (l.from, l.to, l.text.clone()))
            .collect::<Vec<_>>(),
        both
    );
    assert!(said.iter().all(|l| l.round == 2));

    // The dead do not talk, nor are they talked to.
    let why = refused(&mut table, 0, say(1, "avenge me"));
    assert!(why.contains("dead"), "{why}");
    let why = refused(&mut table, 1, say(0, "rest well"));
    assert!(why.contains("dead"), "{why}");
    assert_eq!(lines(&table.view(SeatId(1))), both);
    assert!(table.view(SeatId(0)).talk.is_empty());
    assert_eq!(
        WanningGame::host_view(table.world())
            .host
            .unwrap()
            .talk
            .len(),
        2
    );
}

/// The settlement's amounts reach the seat they happened to, and no other:
/// 「若攻擊對象等級低於攻擊者將會使被攻擊者受到一次一點傷害」 and 「擁有護盾的
/// 玩家會自動消耗一個護盾抵擋一點傷害」: Bo (level 2, one shield) attacked by
/// Cy (level 3) is dealt 1 damage, soaks it, and keeps his HP; Ann (level 1)
/// attacked by Di (level 4) takes 2 (「被等級比自己高兩級或兩級以上的動物攻擊時
/// 此次傷害額外增加一點」) and has no shield.
#[test]
fn each_seat_is_told_its_own_settlement_amounts_only() {
    let mut table = scripted(
        2,
        4,
        WanningSetup {
            levels: Some(vec![1, 2, 3, 4]),
            hp: Some(vec![3, 3, 3, 3]),
            shields: Some(vec![0, 1, 0, 0]),
            ..WanningSetup::default()
        },
    );
    // Nothing settled before round 1's announcement.
    for s in 0..4 {
        assert_eq!(table.view(SeatId(s)).settled, None);
    }
    round(&mut table, &[(2, attack(1)), (3, attack(0))]);
    assert_eq!(spectator(&table).round, 2);

    let bo = table.view(SeatId(1));
    assert_eq!(
        bo.settled,
        Some(Settled {
            round: 1,
            start_hp: 3,
            damage: 1,
            soaked: 1,
            end_hp: 3,
            // Issue 71: the one change, as a line of its own.
            lines: vec![Change {
                why: Why::Soaked,
                hp: 0,
                shields: -1,
                hp_after: 3,
                shields_after: 0,
            }],
            ..Settled::default()
        }),
        "Bo's shield soaked Cy's attack"
    );
    assert_eq!((bo.hp, bo.shields), (Some(3), 0));
    let ann = table.view(SeatId(0)).settled.unwrap();
    assert_eq!((ann.damage, ann.soaked, ann.end_hp), (2, 0, 1));
    for (s, end_hp) in [(2, 3), (3, 3)] {
        assert_eq!(
            table.view(SeatId(s)).settled,
            Some(Settled {
                round: 1,
                start_hp: 3,
                end_hp,
                ..Settled::default()
            }),
            "seat {s} was not hurt"
        );
    }
    // A spectator has no settlement of its own.
    assert_eq!(spectator(&table).settled, None);
    // The host sees each seat's, the same as the seat itself.
    let host = WanningGame::host_view(table.world()).host.unwrap();
    for s in 0..4 {
        assert_eq!(host.seats[s].settled, table.view(SeatId(s as u8)).settled);
    }

    // No view but Bo's depends on Bo's amounts: at a table where Bo's
    // settlement (and his HP and shields) went otherwise, every other
    // seat's view and the spectator's are the same.
    let mut snap = table.snapshot();
    let bo_state = &mut snap.state.seats[1];
    bo_state.last_tally.0.reached = 7;
    bo_state.last_tally.0.soaked = 4;
    bo_state.last_tally.0.true_damage = 2;
    bo_state.last_tally.0.lock_gain = 1;
    bo_state.last_tally.0.special_hp = -3;
    bo_state.last_tally.0.start_hp = 9;
    bo_state.life.hp = 1;
    bo_state.life.shields = 5;
    let other = Table::restore(snap);
    assert_ne!(
        other.view(SeatId(1)).settled,
        bo.settled,
        "the change shows"
    );
    for s in [0, 2, 3] {
        assert_eq!(
            other.view(SeatId(s)),
            table.view(SeatId(s)),
            "seat {s}'s view shows Bo's settlement"
        );
    }
    assert_eq!(spectator(&other), spectator(&table));
}

/// 「主持人則可以感受游戲全過程的魅力」 while 「玩家只能得知自己的等級」: the
/// host seat's view (`Game::host_view`) has every seat's level and true HP;
/// no player's view and no spectator's has `host`. With 獨立宣言 (「這回合
/// 公布自身血量時會公布發動前一回合自身被公布血量」) the table hears Cy's old
/// HP while the host sees the true one.
#[test]
fn the_host_view_has_every_level_and_true_hp_and_no_player_gets_it() {
    let mut table = scripted(
        14,
        4,
        WanningSetup {
            levels: Some(vec![1, 2, 3, 4]),
            instincts: Some(vec![None, None, Some(InstinctId::Independence), None]),
            ..WanningSetup::default()
        },
    );
    let independence = Plan {
        instinct: Some(InstinctUse::Independence),
        ..Plan::default()
    };
    // Di (level 4) attacks Cy (level 3): 1 damage, Cy's true HP is 2.
    round(&mut table, &[(2, independence), (3, attack(2))]);

    let seat_view = host_seat_view(table.world());
    assert_eq!(seat_view, WanningGame::host_view(table.world()));
    let host = seat_view
        .host
        .as_ref()
        .expect("the host seat's view has `host`");
    let levels: Vec<u8> = host.seats.iter().map(|s| s.level).collect();
    assert_eq!(levels, vec![1, 2, 3, 4]);
    let hp: Vec<i32> = host.seats.iter().map(|s| s.hp).collect();
    assert_eq!(hp, vec![3, 3, 2, 3], "the host sees the true HP");
    assert_eq!(host.seats[2].announced, 3, "the table heard last round's");
    assert_eq!(host.seats[2].instinct, Some(InstinctId::Independence));
    // Beside `host`, the host seat's view is the public one.
    let mut public_part = seat_view.clone();
    public_part.host = None;
    assert_eq!(public_part, spectator(&table));

    // Only Cy learns her true HP; the others see the announced 3.
    assert_eq!(table.view(SeatId(2)).hp, Some(2));
    for s in 0..4u8 {
        let v = table.view(SeatId(s));
        assert!(v.host.is_none(), "seat {s}'s view carries the host's");
        assert_eq!(v.seats[2].hp, 3);
        assert_eq!(v.level, Some(s + 1), "seat {s} knows its own level");
    }
    assert!(spectator(&table).host.is_none());
    assert!(spectator(&table).level.is_none());
}

/// Issue 35: 「A `NotSees(viewer, fact)` about another seat's secret ... cannot
/// fail: `WanningView::shows` answers false by construction because a view
/// has no field for it. Make `Sees`/`NotSees` search everything the viewer is
/// sent (the serialized view and what it was told)」. The search finds a
/// secret the day a view field or a note carries it: here a view doctored to
/// carry Bo's level, and a note naming Bo's instinct.
#[test]
fn not_sees_finds_a_secret_in_a_doctored_view_or_note() {
    use foodweb_rules::Bilingual;
    use foodweb_rules::scenario::sight;
    use foodweb_rules::table::{Announcements, PrivateNote, Seats};
    use foodweb_rules::wanning::WanningFact;
    let table = scripted(
        35,
        4,
        WanningSetup {
            levels: Some(vec![1, 2, 3, 4]),
            instincts: Some(vec![None, Some(InstinctId::Sturdy), None, None]),
            ..WanningSetup::default()
        },
    );
    let (ann, bo) = (SeatId(0), SeatId(1));
    let world = table.world();
    let level = &WanningView::traces(&WanningFact::Level(bo, 2))[0];
    let instinct = &WanningView::traces(&WanningFact::Instinct(bo, InstinctId::Sturdy))[0];
    let mut view = serde_json::to_value(WanningGame::view(world, Some(ann))).unwrap();
    assert_eq!(
        sight(world, ann, &view, level),
        None,
        "Ann is not shown Bo's level"
    );
    assert_eq!(sight(world, ann, &view, instinct), None);
    // Bo's own view shows both: the search reads the viewer's fields too.
    let bos = serde_json::to_value(WanningGame::view(world, Some(bo))).unwrap();
    assert!(sight(world, bo, &bos, level).is_some());
    assert!(sight(world, bo, &bos, instinct).is_some());
    // A doctored view: Bo's public entry carries the level.
    view["seats"][1]["level"] = 2.into();
    assert_eq!(
        sight(world, ann, &view, level).as_deref(),
        Some("view.seats[1].level")
    );
    // A doctored note: the referee tells Ann Bo's instinct.
    let mut told = bevy_ecs::world::World::new();
    let names = world.resource::<Seats>().clone();
    let bo_name = names.words(bo).en;
    told.insert_resource(names);
    told.insert_resource(Announcements {
        public: vec![],
        private: vec![PrivateNote {
            at_ms: 0,
            seat: ann,
            text: Bilingual::new(
                format!("{bo_name} holds Sturdy"),
                format!("{bo_name}持有強健"),
            ),
            amounts: vec![],
        }],
    });
    let clean = serde_json::to_value(WanningGame::view(world, Some(ann))).unwrap();
    assert!(
        sight(&told, ann, &clean, instinct).is_some_and(|at| at.contains("note")),
        "the note is found"
    );
    // Said to another seat, it is not Ann's.
    assert_eq!(sight(&told, SeatId(2), &clean, instinct), None);
}

/// Issue 70: 「任意兩名玩家可以自由交流」 is a conversation, not a stream: a
/// player's lines are bounded per round and per game (the table's
/// settings) and to 10 in 10 seconds (a line to each other player at
/// once). A refused line changes nothing; the next round opens the round's
/// bound again; the game's bound holds across rounds.
#[test]
fn talk_is_bounded_per_round_per_game_and_in_bursts() {
    let mut config = TableConfig::<WanningGame>::new(4, 5);
    config.settings = WanningSettings {
        talk_per_round: 12,
        talk_per_game: 15,
        ..WanningSettings::default()
    };
    let setup = WanningSetup {
        levels: Some(vec![1, 1, 2, 3, 4]),
        hp: Some(vec![4, 4, 4, 4, 4]),
        ..WanningSetup::default()
    };
    let settings = config.settings.clone();
    let mut table = Table::with_setup(config, Some(&setup)).unwrap();
    // What the seat is shown it may still say is what the judge takes:
    // nothing before talk opens after round 1's announcement.
    let left = |table: &Table<WanningGame>| table.view(SeatId(1)).talk_left(&settings);
    assert_eq!(spectator(&table).round, 1);
    assert_eq!(left(&table), None);
    let why = refused(&mut table, 1, say(2, "too soon"));
    assert!(
        why.contains("talk opens after round 1's announcement"),
        "{why}"
    );
    round(&mut table, &[]);
    assert_eq!(spectator(&table).round, 2);
    // Ten lines at once (two to each of the others) are taken; the 11th
    // within ten seconds is not.
    for n in 0..10 {
        let to = [0, 2, 3, 4][n % 4];
        table
            .submit(SeatId(1), say(to, &format!("line {n}")))
            .unwrap();
    }
    let why = refused(&mut table, 1, say(2, "eleven"));
    assert!(why.contains("at most 10 lines in 10 seconds"), "{why}");
    // Another player is not held back by Bo's lines.
    table.submit(SeatId(2), say(1, "slow down")).unwrap();
    table.advance_by(10_000);
    table.submit(SeatId(1), say(2, "eleven")).unwrap();
    assert_eq!(
        left(&table),
        Some((1, 4)),
        "one more this round, four in the game"
    );
    table.submit(SeatId(1), say(2, "twelve")).unwrap();
    assert_eq!(left(&table), Some((0, 3)));
    let why = refused(&mut table, 1, say(2, "thirteen"));
    assert!(why.contains("said 12 lines this round"), "{why}");
    let zh = table
        .submit(SeatId(1), say(2, "thirteen"))
        .unwrap_err()
        .reason
        .zh;
    assert!(zh.contains("12"), "{zh}");
    round(&mut table, &[]);
    assert_eq!(spectator(&table).round, 3);
    // A new round: the round's bound opens, the game's does not.
    assert_eq!(left(&table), Some((3, 3)));
    for n in 0..3 {
        table
            .submit(SeatId(1), say(3, &format!("round 3, {n}")))
            .unwrap();
    }
    assert_eq!(left(&table), Some((0, 0)));
    let why = refused(&mut table, 1, say(3, "sixteen"));
    assert!(why.contains("said 15 lines this game"), "{why}");
    let mine = table.view(SeatId(1)).talk;
    assert_eq!(
        mine.iter()
            .filter(|l: &&TalkLine| l.from == SeatId(1))
            .count(),
        15
    );
}

/// The bounds are settings a table may choose within reason: none of them
/// off, none past what a person types.
#[test]
fn talk_bounds_are_settings_within_reason() {
    use foodweb_rules::table::GameSettings;
    for (round, game) in [(0, 200), (40, 0), (201, 200), (40, 1001)] {
        let s = WanningSettings {
            talk_per_round: round,
            talk_per_game: game,
            ..WanningSettings::default()
        };
        let why = s.check().unwrap_err().reason.en;
        assert!(why.contains("1 to 200 lines a round"), "{why}");
    }
    // A table saved before the bounds reads the most allowed.
    let old: WanningSettings = ron::from_str("(round_cap: 12)").unwrap();
    assert_eq!((old.talk_per_round, old.talk_per_game), (200, 1000));
    assert_eq!(
        (
            WanningSettings::default().talk_per_round,
            WanningSettings::default().talk_per_game
        ),
        (40, 200)
    );
}
