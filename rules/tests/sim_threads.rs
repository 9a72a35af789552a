//! Issue 40: `foodweb sim` plays on every core, and the number of threads
//! changes nothing but the time: the same games, counted the same way.

use foodweb_rules::bot::Bot;
use foodweb_rules::sim::{self, SimReport};
use foodweb_rules::table::{Game, SeatId};
use foodweb_rules::{crueler, forest, wanning};

/// The report as JSON without what depends on the machine.
fn results(r: &SimReport) -> String {
    let mut v = serde_json::to_value(r).unwrap();
    let o = v.as_object_mut().unwrap();
    for k in ["elapsed_secs", "games_per_sec", "threads"] {
        assert!(o.remove(k).is_some(), "the report has {k}");
    }
    v.to_string()
}

fn same_on_1_and_4<G: Game>(
    games: usize,
    players: usize,
    settings: G::Settings,
    lineup: &sim::Lineup<G>,
    watch: &(dyn Fn(&foodweb_rules::table::Table<G>) -> String + Sync),
) {
    let run = |threads| {
        sim::simulate_watching::<G, String>(
            games,
            players,
            7,
            threads,
            settings.clone(),
            lineup,
            watch,
        )
        .unwrap()
    };
    let (one, seen_one) = run(1);
    let (four, seen_four) = run(4);
    assert_eq!(one.threads, 1);
    assert_eq!(four.threads, 4);
    assert_eq!(one.games, games);
    assert_eq!(results(&one), results(&four), "{}", G::ID.key());
    // What each finished table showed, in game order.
    assert_eq!(seen_one.len(), games);
    assert_eq!(seen_one, seen_four);
}

#[test]
fn forest_gives_the_same_results_on_one_thread_and_four() {
    let lineup = |g: usize, seat: SeatId| -> Box<dyn Bot<forest::ForestGame>> {
        forest::bots::bot(forest::bots::BOT_KINDS[(seat.index() + g) % 2]).unwrap()
    };
    same_on_1_and_4::<forest::ForestGame>(24, 4, forest::ForestSettings::quick(), &lineup, &|t| {
        format!("{:?} at {}", t.result(), t.now_ms())
    });
}

#[test]
fn crueler_gives_the_same_results_on_one_thread_and_four() {
    let lineup = |g: usize, seat: SeatId| -> Box<dyn Bot<crueler::CruelerGame>> {
        crueler::bots::bot(crueler::bots::BOT_KINDS[(seat.index() + g) % 2]).unwrap()
    };
    same_on_1_and_4::<crueler::CruelerGame>(16, 9, Default::default(), &lineup, &|t| {
        format!("{:?}", t.result())
    });
}

#[test]
fn wanning_gives_the_same_results_on_one_thread_and_four() {
    let lineup = |_: usize, _: SeatId| -> Box<dyn Bot<wanning::WanningGame>> {
        Box::new(wanning::bots::LevelBot::new(std::array::from_fn(|_| "reasoning".into())).unwrap())
    };
    same_on_1_and_4::<wanning::WanningGame>(16, 7, Default::default(), &lineup, &|t| {
        format!("{:?}", wanning::host_view(t.world()).winner)
    });
}

/// A game that fails is reported by its number, whichever thread played it.
#[test]
fn the_first_game_that_fails_is_the_one_reported() {
    struct Idle;
    impl Bot<forest::ForestGame> for Idle {
        fn kind(&self) -> &'static str {
            "idle"
        }
        fn act(
            &mut self,
            view: &forest::ForestView,
            _: &mut rand_chacha::ChaCha8Rng,
        ) -> Option<forest::ForestAction> {
            // Names a seat that does not exist: the table refuses it.
            view.to_act
                .then_some(forest::ForestAction::AskShowdown { target: SeatId(9) })
        }
    }
    let lineup = |_: usize, _: SeatId| -> Box<dyn Bot<forest::ForestGame>> { Box::new(Idle) };
    for threads in [1, 4] {
        let e = sim::simulate_watching::<forest::ForestGame, ()>(
            8,
            4,
            100,
            threads,
            forest::ForestSettings::quick(),
            &lineup,
            &|_| (),
        )
        .unwrap_err();
        assert!(e.starts_with("game 0 (seed 100)"), "{threads} threads: {e}");
    }
}
