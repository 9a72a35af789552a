//! One whole 6-player Gene Survival game (six rounds), survivor and random
//! bots alternating: `cargo bench -p foodweb-rules --bench gene_game`.

use criterion::{Criterion, criterion_group, criterion_main};
use foodweb_rules::gene::{GeneGame, bots};
use foodweb_rules::sim::play_one;
use foodweb_rules::table::TableConfig;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn whole_game(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("gene: one 6-player game, survivor vs random bots", |b| {
        b.iter(|| {
            seed += 1;
            let config = TableConfig::<GeneGame>::new(seed, 6);
            let mut lineup: Vec<_> = (0..6)
                .map(|i| bots::bot(bots::BOT_KINDS[i % 2]).unwrap())
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            play_one(config, &mut lineup, &mut rng).expect("the game ends")
        })
    });
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
