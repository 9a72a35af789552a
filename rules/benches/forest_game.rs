//! One whole 4-player Forest Showdown game (three 20-minute rounds), bots
//! at every seat: `cargo bench -p foodweb-rules`.

use criterion::{Criterion, criterion_group, criterion_main};
use foodweb_rules::forest::{ForestGame, bots};
use foodweb_rules::sim::play_one;
use foodweb_rules::table::TableConfig;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn whole_game(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("forest: one 4-player game, memory vs random bots", |b| {
        b.iter(|| {
            seed += 1;
            let config = TableConfig::<ForestGame>::new(seed, 4);
            let mut lineup: Vec<_> = (0..4)
                .map(|i| bots::bot(bots::BOT_KINDS[i % 2]).unwrap())
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            play_one(config, &mut lineup, &mut rng).expect("the game ends")
        })
    });
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
