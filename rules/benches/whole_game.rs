//! One whole game of each game, bots at every seat:
//! `cargo bench -p foodweb-rules --bench whole_game` (add `-- forest` for
//! one game).
//!
//! - Forest Showdown: 4 players, three 20-minute rounds, memory and random
//!   bots alternating.
//! - Gene Survival: 6 players, six rounds, survivor and random bots.
//! - Crueler World: 13 players, four rounds (six predation phases),
//!   survivor and random bots.
//! - Wanning Beast Chess: 10 players (bans, pick, peek, rounds to the
//!   end), random bots.

use criterion::{Criterion, criterion_group, criterion_main};
use foodweb_rules::bot::Bot;
use foodweb_rules::sim::play_one;
use foodweb_rules::table::{Game, TableConfig};
use foodweb_rules::{crueler, forest, gene, wanning};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Benches whole games of `G` at `seats` seats, the bots of `kinds` taking
/// the seats in turn, a new seed each game.
fn bench_game<G: Game>(
    c: &mut Criterion,
    name: &str,
    seats: usize,
    kinds: &[&str],
    bot: fn(&str) -> Option<Box<dyn Bot<G>>>,
) {
    let mut seed = 0u64;
    c.bench_function(name, |b| {
        b.iter(|| {
            seed += 1;
            let config = TableConfig::<G>::new(seed, seats);
            let mut lineup: Vec<_> = (0..seats)
                .map(|i| bot(kinds[i % kinds.len()]).expect("a kind the game has"))
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            play_one(config, &mut lineup, &mut rng).expect("the game ends")
        })
    });
}

fn whole_games(c: &mut Criterion) {
    bench_game(
        c,
        "forest: one 4-player game, memory vs random bots",
        4,
        &forest::bots::BOT_KINDS,
        forest::bots::bot,
    );
    bench_game(
        c,
        "gene: one 6-player game, survivor vs random bots",
        6,
        &gene::bots::BOT_KINDS,
        gene::bots::bot,
    );
    bench_game(
        c,
        "crueler: one 13-player game, survivor vs random bots",
        13,
        &crueler::bots::BOT_KINDS,
        crueler::bots::bot,
    );
    bench_game(
        c,
        "wanning: one 10-player game, random bots",
        10,
        &["random"],
        wanning::bots::bot,
    );
}

criterion_group!(benches, whole_games);
criterion_main!(benches);
