//! A view written over another one (`Table::view_into`, what a sim's bots
//! read at every move) is exactly the view made afresh: nothing of the
//! view it was written over is left in it (another seat's hand, cards or
//! notebook, another game's table), whichever view that was.

use foodweb_rules::bot::Bot;
use foodweb_rules::table::{Game, SeatId, Table, TableConfig};
use foodweb_rules::{crueler, forest, gene, wanning};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

type Bots<G> = dyn Fn(usize) -> Box<dyn Bot<G>>;

/// Plays a bot game from `seed` until it ends or `moves` moves were made,
/// calling `each` with the table and the seat about to move.
fn play<G: Game>(
    seed: u64,
    players: usize,
    bots: &Bots<G>,
    moves: usize,
    each: &mut dyn FnMut(&Table<G>, SeatId),
) -> Table<G> {
    let mut table = Table::<G>::new(TableConfig::new(seed, players)).unwrap();
    let mut bots: Vec<_> = (0..players).map(bots).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut made = 0;
    while !table.is_over() && made < moves {
        let Some(&seat) = table.waiting().first() else {
            let at = table
                .next_deadline()
                .expect("a table waiting on nobody has a clock");
            table.advance_to(at);
            continue;
        };
        // A moment of thought, as the sim's bots take: timed rounds end.
        table.advance_by(1_500);
        if !table.waiting().contains(&seat) {
            continue;
        }
        each(&table, seat);
        let view = table.view(seat);
        match bots[seat.index()].act(&view, &mut rng) {
            Some(action) => table.submit(seat, action).expect("a bot's move is legal"),
            None => table.advance_by(1_000),
        }
        made += 1;
    }
    table
}

/// At every move of a bot game, writes the moving seat's view over the
/// last view written (another seat's, mostly; at first a view of another
/// game well under way, so every field holds something) and compares it
/// with the seat's view made afresh.
fn same_as_fresh<G: Game>(players: usize, bots: &Bots<G>) {
    let donor = play::<G>(11, players, bots, 60, &mut |_, _| {});
    let mut carried = donor.view(SeatId(1));
    let mut compared = 0;
    let table = play::<G>(3, players, bots, usize::MAX, &mut |table, seat| {
        table.view_into(seat, &mut carried);
        assert_eq!(
            serde_json::to_value(&carried).unwrap(),
            serde_json::to_value(table.view(seat)).unwrap(),
            "seat {seat}'s view written over another differs from its fresh view"
        );
        compared += 1;
    });
    assert!(table.is_over(), "the game ended");
    assert!(compared > 2 * players, "views were compared at many moves");
}

#[test]
fn forest_views_written_over_others_are_fresh() {
    same_as_fresh::<forest::ForestGame>(4, &|_| forest::bots::bot("random").unwrap());
}

#[test]
fn crueler_views_written_over_others_are_fresh() {
    same_as_fresh::<crueler::CruelerGame>(7, &|_| crueler::bots::bot("random").unwrap());
}

#[test]
fn gene_views_written_over_others_are_fresh() {
    same_as_fresh::<gene::GeneGame>(5, &|_| gene::bots::bot("random").unwrap());
}

#[test]
fn wanning_views_written_over_others_are_fresh() {
    same_as_fresh::<wanning::WanningGame>(6, &|_| wanning::bots::bot("random").unwrap());
}
