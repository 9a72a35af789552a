//! One step of each game, beside the whole games of `whole_game.rs`: a
//! seat's move judged and carried out (`Table::submit`), the acting seat's
//! view, and who the table waits on, at a table in the middle of a game
//! played by bots:
//! `cargo bench -p foodweb-rules --bench one_step [-- forest]`.
//!
//! The table is the one a bot game had reached before its move number
//! `at` (the log played again from its seed), made afresh for every
//! measured move, which is not timed.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use foodweb_rules::bot::Bot;
use foodweb_rules::sim::play_quiet;
use foodweb_rules::table::{ActionLog, Game, LogEntry, SeatId, Table, TableConfig};
use foodweb_rules::{crueler, forest, gene, wanning};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A quiet bot game of `G`, and the table as it stood before its move
/// number `at`, with that move.
fn mid_game<G: Game>(
    seats: usize,
    at: usize,
    bot: &dyn Fn(usize) -> Box<dyn Bot<G>>,
) -> (impl Fn() -> Table<G>, SeatId, G::Action) {
    let config = TableConfig::<G>::new(40, seats);
    let mut bots: Vec<_> = (0..seats).map(bot).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let (played, _) = play_quiet(config.clone(), &mut bots, &mut rng).expect("the game ends");
    let acts: Vec<_> = played
        .log()
        .entries
        .iter()
        .filter(|e| matches!(e, LogEntry::Act { .. }))
        .cloned()
        .collect();
    let at = at.min(acts.len() - 1);
    let LogEntry::Act {
        at_ms,
        seat,
        action,
        ..
    } = acts[at].clone()
    else {
        unreachable!("only moves were kept")
    };
    let before = ActionLog {
        entries: acts[..at].to_vec(),
    };
    let make = move || {
        Table::<G>::replay(config.clone(), None, &before, at_ms).expect("the log plays again")
    };
    (make, seat, action)
}

fn bench_steps<G: Game>(
    c: &mut Criterion,
    name: &str,
    seats: usize,
    bot: &dyn Fn(usize) -> Box<dyn Bot<G>>,
) {
    let (make, seat, action) = mid_game::<G>(seats, 30, bot);
    c.bench_function(&format!("{name}: one move judged and carried out"), |b| {
        b.iter_batched(
            &make,
            |mut table| {
                table.submit(seat, action.clone()).expect("the bot's move");
                table
            },
            BatchSize::LargeInput,
        )
    });
    let table = make();
    c.bench_function(&format!("{name}: the acting seat's view"), |b| {
        b.iter(|| table.view(seat))
    });
    c.bench_function(&format!("{name}: who the table waits on"), |b| {
        b.iter(|| table.to_act())
    });
}

fn steps(c: &mut Criterion) {
    bench_steps::<forest::ForestGame>(c, "forest (4 seats)", 4, &|i| {
        forest::bots::bot(forest::bots::BOT_KINDS[i % 2]).unwrap()
    });
    bench_steps::<gene::GeneGame>(c, "gene (6 seats)", 6, &|i| {
        gene::bots::bot(gene::bots::BOT_KINDS[i % 2]).unwrap()
    });
    bench_steps::<crueler::CruelerGame>(c, "crueler (13 seats)", 13, &|i| {
        crueler::bots::bot(crueler::bots::BOT_KINDS[i % 2]).unwrap()
    });
    bench_steps::<wanning::WanningGame>(c, "wanning (7 seats)", 7, &|_| {
        wanning::bots::bot("random").unwrap()
    });
}

/// What the engine costs before any rule: one run of a schedule of `n`
/// systems that each read one resource and do nothing, every one under
/// an `in_state` condition (half of them true), on the single-threaded
/// executor a table uses. A step of a table runs the accepted move's
/// system, the settlement's systems and the phase changes: this is the
/// floor under it.
fn engine_floor(c: &mut Criterion) {
    use bevy_ecs::prelude::*;
    use bevy_ecs::schedule::SingleThreadedExecutor;
    use bevy_state::prelude::*;

    #[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    enum Phase {
        #[default]
        A,
        B,
    }
    #[derive(Resource, Default)]
    struct Counter(u64);
    fn read(counter: Res<Counter>) {
        std::hint::black_box(counter.0);
    }
    for n in [1, 4, 8, 16] {
        let mut world = World::new();
        world.insert_resource(State::new(Phase::A));
        world.init_resource::<Counter>();
        let mut schedule = Schedule::default();
        schedule.set_executor(SingleThreadedExecutor::new());
        for i in 0..n {
            let phase = if i % 2 == 0 { Phase::A } else { Phase::B };
            schedule.add_systems(read.run_if(in_state(phase)));
        }
        schedule.run(&mut world);
        c.bench_function(&format!("engine floor: {n} systems under in_state"), |b| {
            b.iter(|| schedule.run(&mut world))
        });
    }
}

criterion_group!(benches, steps, engine_floor);
criterion_main!(benches);
