//! One whole 13-player Crueler World game (four rounds, six predation
//! phases), survivor and random bots alternating:
//! `cargo bench -p foodweb-rules --bench crueler_game`.

use criterion::{Criterion, criterion_group, criterion_main};
use foodweb_rules::crueler::{CruelerGame, bots};
use foodweb_rules::sim::play_one;
use foodweb_rules::table::TableConfig;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn whole_game(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function(
        "crueler: one 13-player game, survivor vs random bots",
        |b| {
            b.iter(|| {
                seed += 1;
                let config = TableConfig::<CruelerGame>::new(seed, 13);
                let mut lineup: Vec<_> = (0..13)
                    .map(|i| bots::bot(bots::BOT_KINDS[i % 2]).unwrap())
                    .collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                play_one(config, &mut lineup, &mut rng).expect("the game ends")
            })
        },
    );
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
