//! The table core's promises (issue 2, "Done when"), checked on Forest
//! Showdown tables.

use foodweb_rules::forest::{ForestAction, ForestGame, ForestPhase, ForestSettings, deck};
use foodweb_rules::table::{SeatId, SnapshotError, Table, TableConfig, TableSnapshot};

fn table(seed: u64, players: usize) -> Table<ForestGame> {
    Table::new(TableConfig::new(seed, players)).expect("a valid table")
}

fn card(key: &str) -> foodweb_rules::forest::CardId {
    deck().by_key(key).unwrap()
}

/// Issue 2: "a rejected action leaves the snapshot byte-identical".
#[test]
fn a_rejected_action_leaves_the_snapshot_byte_identical() {
    let mut t = table(11, 4);
    let bad_moves = [
        (SeatId(1), ForestAction::AskShowdown { target: SeatId(2) }), // out of turn
        (SeatId(0), ForestAction::AskShowdown { target: SeatId(0) }), // oneself
        (SeatId(0), ForestAction::AskShowdown { target: SeatId(9) }), // no such seat
        (SeatId(7), ForestAction::AskShowdown { target: SeatId(1) }), // no such seat
        (SeatId(0), ForestAction::PlayCard { card: card("oak") }),    // no showdown
        (
            SeatId(0),
            ForestAction::Challenge {
                target: SeatId(1),
                named: card("grass"),
                with: card("deer"),
            },
        ), // the round opens with a showdown
    ];
    for (seat, action) in bad_moves {
        let before = t.snapshot().to_ron();
        let verdict = t.submit(seat, action.clone());
        assert!(verdict.is_err(), "{action:?} by {seat} should be refused");
        let reason = verdict.unwrap_err().reason;
        assert!(
            !reason.en.is_empty() && !reason.zh.is_empty(),
            "reasons come in both languages"
        );
        assert_eq!(
            t.snapshot().to_ron(),
            before,
            "{action:?} changed the table"
        );
    }
}

/// Issue 2: "two runs from the same seed and log give the same hash", and
/// replaying a table's log from its seed gives the same snapshot.
#[test]
fn the_same_seed_and_log_give_the_same_hash() {
    let config = TableConfig::<ForestGame>::new(5, 4);
    let mut bots: Vec<_> = (0..4)
        .map(|_| foodweb_rules::forest::bots::bot("memory").unwrap())
        .collect();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let (played, _) = foodweb_rules::sim::play_one(config.clone(), &mut bots, &mut rng).unwrap();
    assert!(played.is_over());
    let original = played.snapshot();
    let replay =
        Table::<ForestGame>::replay(config.clone(), None, &original.log, original.clock_ms)
            .unwrap();
    assert_eq!(replay.snapshot().hash(), original.hash());
    let again =
        Table::<ForestGame>::replay(config, None, &original.log, original.clock_ms).unwrap();
    assert_eq!(again.snapshot().to_ron(), original.to_ron());
    // A different seed deals differently.
    assert_ne!(table(6, 4).snapshot().hash(), table(5, 4).snapshot().hash());
}

/// Snapshot and restore: a restored table is the same table and plays on
/// the same way.
#[test]
fn a_restored_table_plays_on_identically() {
    let mut a = table(21, 3);
    a.submit(SeatId(0), ForestAction::AskShowdown { target: SeatId(1) })
        .unwrap();
    let text = a.snapshot().to_ron_pretty();
    let mut b = Table::<ForestGame>::restore(TableSnapshot::from_ron(&text).unwrap());
    assert_eq!(b.snapshot().hash(), a.snapshot().hash());
    assert_eq!(b.phase(), ForestPhase::Showdown);
    for t in [&mut a, &mut b] {
        let c0 = t.view(SeatId(0)).hand[0];
        let c1 = t.view(SeatId(1)).hand[0];
        t.submit(SeatId(0), ForestAction::PlayCard { card: c0 })
            .unwrap();
        t.submit(SeatId(1), ForestAction::PlayCard { card: c1 })
            .unwrap();
        t.advance_by(60_000);
    }
    assert_eq!(a.snapshot().hash(), b.snapshot().hash());
}

/// Issue 2: "a corrupt snapshot file is refused with a clear error".
#[test]
fn a_corrupt_snapshot_is_refused_with_a_clear_error() {
    let good = table(3, 3).snapshot().to_ron();
    let truncated = &good[..good.len() / 2];
    assert!(matches!(
        TableSnapshot::<ForestGame>::from_ron(truncated),
        Err(SnapshotError::Parse(_))
    ));
    assert!(matches!(
        TableSnapshot::<ForestGame>::from_ron("not ron at all"),
        Err(SnapshotError::Parse(_))
    ));
    let future = good.replacen("format:2", "format:99", 1);
    assert_eq!(
        TableSnapshot::<ForestGame>::from_ron(&future).err(),
        Some(SnapshotError::Format {
            found: 99,
            expected: 2
        })
    );
    assert!(matches!(
        Table::<ForestGame>::from_saved(&future),
        Err(SnapshotError::Format { found: 99, .. })
    ));
    let other_game = good.replacen("game:Forest", "game:Gene", 1);
    assert!(matches!(
        TableSnapshot::<ForestGame>::from_ron(&other_game),
        Err(SnapshotError::WrongGame { .. })
    ));
    let bad_card = good.replacen("\"oak\"", "\"unicorn\"", 1);
    let err = TableSnapshot::<ForestGame>::from_ron(&bad_card)
        .err()
        .unwrap();
    assert!(err.to_string().contains("unicorn"), "{err}");
    let error_text = TableSnapshot::<ForestGame>::from_ron(truncated)
        .err()
        .unwrap()
        .to_string();
    assert!(
        error_text.starts_with("not a readable table snapshot"),
        "{error_text}"
    );
}

/// Three seats at one timed Forest round: a turn 30 s, a showdown card
/// 20 s, each clock waiting `grace_secs` first.
fn turns_of_30_s(grace_secs: u32) -> Table<ForestGame> {
    let settings = ForestSettings {
        turn_secs: 30,
        showdown_secs: 20,
        grace_secs,
        ..ForestSettings::timed(1)
    };
    Table::new(TableConfig {
        seed: 4,
        seats: foodweb_rules::table::Seats::numbered(3),
        settings,
    })
    .expect("a valid table")
}

/// Issue 2: "a phase deadline fires its default action when the test clock
/// passes it" (rules document: turn time and showdown time).
#[test]
fn phase_deadlines_fire_their_defaults_when_the_clock_passes() {
    let mut t = turns_of_30_s(0);
    t.advance_to(29_999);
    assert_eq!(t.phase(), ForestPhase::Turn, "not yet");
    t.advance_to(30_000);
    assert_eq!(
        t.phase(),
        ForestPhase::Showdown,
        "the turn default asked for a showdown"
    );
    let sd = t.view(SeatId(0)).showdown.unwrap();
    assert_eq!((sd.asker, sd.target), (SeatId(0), SeatId(1)));
    // Neither side chooses: both get a random card when the showdown time passes.
    t.advance_to(49_999);
    assert_eq!(t.phase(), ForestPhase::Showdown);
    t.advance_to(50_000);
    assert_eq!(t.phase(), ForestPhase::Turn);
    assert_eq!(t.view(SeatId(0)).active, SeatId(1));
    let reveal = t
        .view(SeatId(2))
        .last_showdown
        .expect("the defaults were played and revealed");
    assert_eq!((reveal.asker, reveal.target), (SeatId(0), SeatId(1)));
    // A deadline that fires within a long clock jump fires at its own time,
    // so the next turn's deadline counts from 50 s, not from the jump.
    assert_eq!(t.view(SeatId(1)).my_deadline_ms, Some(80_000));
}

/// A table refuses a player count the game does not take, and bad settings.
#[test]
fn bad_table_configs_are_refused() {
    assert!(Table::<ForestGame>::new(TableConfig::new(1, 1)).is_err());
    assert!(Table::<ForestGame>::new(TableConfig::new(1, 9)).is_err());
    let mut config = TableConfig::<ForestGame>::new(1, 3);
    config.settings.rounds = 0;
    let err = Table::new(config).err().unwrap();
    assert!(err.reason.en.contains("rounds"), "{err}");
}

/// Issue 16: "Tables saved by the old format are restored by replaying
/// their seed and log, or refused with a clear message." A format-1
/// Crueler World snapshot held one `CruelerState` resource, which this
/// build no longer has: its game is played again to the same table.
#[test]
fn an_old_format_snapshot_is_replayed_from_its_seed_and_log() {
    use foodweb_rules::crueler::{CruelerGame, bots};
    let config = TableConfig::<CruelerGame>::new(9, 5);
    let mut lineup: Vec<_> = (0..5).map(|_| bots::bot("random").unwrap()).collect();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
    let (played, _) = foodweb_rules::sim::play_one(config, &mut lineup, &mut rng).unwrap();
    let now = played.snapshot();
    let text = now.to_ron();
    // The old layout: format 1, and a state this build cannot read.
    let state_at = text.find(",state:").expect("a state field");
    let old = format!(
        "{},state:(players:[],names:[],over:true))",
        &text[..state_at].replacen("format:2", "format:1", 1)
    );
    assert!(TableSnapshot::<CruelerGame>::from_ron(&old).is_err());
    let again = Table::<CruelerGame>::from_saved(&old).expect("replayed");
    assert_eq!(again.snapshot().hash(), now.hash());
    // A log the rules refuse on replay is refused with a clear message.
    let broken = old.replacen("Ready", "Pass", 1);
    let err = Table::<CruelerGame>::from_saved(&broken)
        .err()
        .expect("refused");
    assert!(err.to_string().contains("played again"), "{err}");
}

/// Issue 16: "words rendered only when someone reads them (no narration in
/// `sim`)". A quiet table plays exactly the game a narrated one plays (the
/// same log, the same world, the same result) and keeps no words; the
/// narrated one keeps them.
#[test]
fn a_quiet_table_plays_the_same_game_without_words() {
    use foodweb_rules::bot::Bot;
    use foodweb_rules::sim::{play_one, play_quiet};
    use foodweb_rules::table::Game;

    fn same_game<G: Game>(players: usize, lineup: impl Fn() -> Vec<Box<dyn Bot<G>>>)
    where
        G::State: PartialEq + std::fmt::Debug,
    {
        for seed in 0..4 {
            let config = TableConfig::<G>::new(seed, players);
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            let (loud, _) = play_one(config.clone(), &mut lineup(), &mut rng).unwrap();
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            let (quiet, _) = play_quiet(config, &mut lineup(), &mut rng).unwrap();
            let (a, b) = (loud.snapshot(), quiet.snapshot());
            assert_eq!(a.log, b.log, "{} seed {seed}: the same moves", G::ID);
            assert_eq!(a.state, b.state, "{} seed {seed}: the same world", G::ID);
            assert_eq!(loud.result(), quiet.result());
            assert!(!loud.announcements().public.is_empty());
            assert!(quiet.announcements().public.is_empty());
            assert!(quiet.announcements().private.is_empty());
        }
    }
    same_game::<ForestGame>(4, || {
        (0..4)
            .map(|_| foodweb_rules::forest::bots::bot("random").unwrap())
            .collect()
    });
    same_game::<foodweb_rules::crueler::CruelerGame>(5, || {
        (0..5)
            .map(|_| foodweb_rules::crueler::bots::bot("survivor").unwrap())
            .collect()
    });
    same_game::<foodweb_rules::gene::GeneGame>(4, || {
        (0..4)
            .map(|_| foodweb_rules::gene::bots::bot("random").unwrap())
            .collect()
    });
}

/// A reused table (`Table::reset`, what `foodweb sim` does between games)
/// plays exactly the game a new table plays: the same snapshot, hash for
/// hash, whatever game it played before.
#[test]
fn a_reset_table_plays_as_a_new_one() {
    use foodweb_rules::bot::Bot;
    use foodweb_rules::table::Game;

    fn same<G: Game>(players: usize, lineup: impl Fn() -> Vec<Box<dyn Bot<G>>>) {
        let play = |table: Table<G>, seed: u64| {
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            foodweb_rules::sim::play_table(table, &mut lineup(), &mut rng)
                .unwrap()
                .0
        };
        let first = Table::quiet(TableConfig::<G>::new(11, players)).unwrap();
        let mut reused = play(first, 11);
        for seed in [12, 13] {
            reused.reset(TableConfig::<G>::new(seed, players)).unwrap();
            reused = play(reused, seed);
            let fresh = play(
                Table::quiet(TableConfig::<G>::new(seed, players)).unwrap(),
                seed,
            );
            assert_eq!(
                reused.snapshot().hash(),
                fresh.snapshot().hash(),
                "{} seed {seed}",
                G::ID
            );
        }
        // Other seats or rules need a table of their own.
        assert!(
            reused
                .reset(TableConfig::<G>::new(14, players + 1))
                .is_err()
        );
    }
    same::<ForestGame>(4, || {
        (0..4)
            .map(|_| foodweb_rules::forest::bots::bot("random").unwrap())
            .collect()
    });
    same::<foodweb_rules::crueler::CruelerGame>(5, || {
        (0..5)
            .map(|_| foodweb_rules::crueler::bots::bot("survivor").unwrap())
            .collect()
    });
    same::<foodweb_rules::gene::GeneGame>(4, || {
        (0..4)
            .map(|_| foodweb_rules::gene::bots::bot("random").unwrap())
            .collect()
    });
}

/// How much later the first clock of a new table of game `G` falls with
/// a grace of 7 s than with none.
fn grace_gap<G: foodweb_rules::table::Game>(players: usize) -> u64 {
    use foodweb_rules::table::GameSettings;
    let first = |grace_secs| {
        let mut config = TableConfig::<G>::new(3, players);
        *config.settings.grace_secs_mut() = grace_secs;
        Table::<G>::new(config)
            .expect("a valid table")
            .next_deadline()
            .expect("the first phase has a clock")
    };
    first(7) - first(0)
}

/// Issue 69, each game's rules.md ("grace_secs"): "each clock of a move
/// starts to run down that many seconds after its phase begins, so every
/// device has shown what just happened before anyone's time goes". In all
/// four games the first clock falls exactly the grace later.
#[test]
fn every_games_clock_waits_the_tables_grace() {
    use foodweb_rules::crueler::CruelerGame;
    use foodweb_rules::gene::GeneGame;
    use foodweb_rules::wanning::WanningGame;
    let gaps = [
        grace_gap::<ForestGame>(4),
        grace_gap::<WanningGame>(5),
        grace_gap::<GeneGame>(4),
        grace_gap::<CruelerGame>(6),
    ];
    assert_eq!(gaps, [7_000; 4], "Forest, Wanning, Gene, Crueler");
}

/// Issue 69: the grace is a setting recorded with the table, so a table
/// played again from its record sets the same deadlines; Forest's round
/// time is the seed's ("Play 3 or 4 rounds of 20 minutes each") and waits
/// no grace; a table saved before the setting has none.
#[test]
fn the_grace_is_recorded_with_the_table() {
    let mut t = turns_of_30_s(4);
    let round_ends = t.view(SeatId(0)).round_ends_ms;
    assert_eq!(round_ends, Some(20 * 60 * 1000), "the round's own time");
    t.advance_to(33_999);
    assert_eq!(t.phase(), ForestPhase::Turn, "30 s and the grace: not yet");
    t.advance_to(34_000);
    assert_eq!(t.phase(), ForestPhase::Showdown, "the turn's default");
    assert_eq!(t.next_deadline(), Some(34_000 + 4_000 + 20_000));
    let again = Table::<ForestGame>::replay(t.config().clone(), None, t.log(), t.now_ms())
        .expect("the log plays again");
    assert_eq!(again.next_deadline(), t.next_deadline());
    let saved = t.snapshot().to_ron();
    assert!(saved.contains("grace_secs:4"), "in the record: {saved}");
    let old = saved
        .replace("grace_secs:4,", "")
        .replace(",grace_secs:4", "");
    assert!(!old.contains("grace_secs"));
    let restored = Table::<ForestGame>::from_saved(&old).expect("an old record reads");
    assert_eq!(restored.config().settings.grace_secs, 0);
    use foodweb_rules::table::GameSettings;
    assert!(
        ForestSettings {
            grace_secs: 30,
            ..Default::default()
        }
        .check()
        .is_ok()
    );
    let refused = ForestSettings {
        grace_secs: 31,
        ..Default::default()
    }
    .check();
    assert!(refused.unwrap_err().to_string().contains("0 to 30 s"));
}
