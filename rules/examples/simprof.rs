//! Plays whole games of one game on one thread, for a profiler:
//! `cargo run --release -p foodweb-rules --example simprof -- forest 3000`.

use foodweb_rules::bot::Bot;
use foodweb_rules::sim;
use foodweb_rules::table::{Game, SeatId};
use foodweb_rules::{crueler, forest, gene, wanning};

fn run<G: Game>(games: usize, players: usize, settings: G::Settings, lineup: &sim::Lineup<G>) {
    let started = std::time::Instant::now();
    let (r, _) =
        sim::simulate_watching::<G, ()>(games, players, 1, 1, settings, lineup, &|_| ()).unwrap();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{}: {games} games in {secs:.2} s, {:.0} games/s, {:.1} actions/game",
        G::ID.key(),
        games as f64 / secs,
        r.mean_actions
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("forest", String::as_str);
    let games = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(2000);
    match game {
        "forest" => {
            run::<forest::ForestGame>(games, 4, Default::default(), &|_, _| -> Box<dyn Bot<_>> {
                forest::bots::bot("random").unwrap()
            })
        }
        "gene" => run::<gene::GeneGame>(
            games,
            6,
            Default::default(),
            &|g, s: SeatId| -> Box<dyn Bot<_>> {
                gene::bots::bot(gene::bots::BOT_KINDS[(s.index() + g) % 2]).unwrap()
            },
        ),
        "crueler" => run::<crueler::CruelerGame>(games, 13, Default::default(), &|g,
                                                                                  s: SeatId|
         -> Box<
            dyn Bot<_>,
        > {
            crueler::bots::bot(crueler::bots::BOT_KINDS[(s.index() + g) % 2]).unwrap()
        }),
        _ => {
            run::<wanning::WanningGame>(games, 7, Default::default(), &|_, _| -> Box<dyn Bot<_>> {
                wanning::bots::bot("random").unwrap()
            })
        }
    }
}
