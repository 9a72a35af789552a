//! One whole 10-player Wanning Beast Chess game (bans, pick, peek, rounds
//! to the end), random bots at every seat:
//! `cargo bench -p foodweb-rules --bench wanning_game`.

use criterion::{Criterion, criterion_group, criterion_main};
use foodweb_rules::sim::play_one;
use foodweb_rules::table::TableConfig;
use foodweb_rules::wanning::{WanningGame, bots};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn whole_game(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("wanning: one 10-player game, random bots", |b| {
        b.iter(|| {
            seed += 1;
            let config = TableConfig::<WanningGame>::new(seed, 10);
            let mut lineup: Vec<_> = (0..10).map(|_| bots::bot("random").unwrap()).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            play_one(config, &mut lineup, &mut rng).expect("the game ends")
        })
    });
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
