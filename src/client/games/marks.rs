//! What the screen marks as usable against what the judge accepts (issue
//! 38: "the marked pieces are exactly those the rules would accept ... not
//! a fixed hint per phase"). Each game's scene says which pieces it marks
//! for a view, with no choice made yet, by the names of the screen's
//! account (`reach::Target`); its test names the piece each legal action
//! uses first; [`marks_are_the_judges`] plays whole bot games and compares
//! the two for every seat at every step. It holds the screen's now line
//! to the judge too: a seat the judge would let act is always told what
//! it may do, and no line told to a seat that can do nothing is ever told
//! to one that can (nothing says "your turn" when it is not).

use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;

use foodweb_rules::bot::Bots;
use foodweb_rules::table::{Game, SeatId, Table, TableConfig};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a bot game of `G` for each table `config` gives and checks, for
/// every seat at every step, that `marked` (what its screen marks, from
/// its view) is the set of pieces `piece` names for the judge's legal
/// actions (`None`: an action taken with a panel's control, not a piece),
/// and that `now` (the screen's now line, no choice made) says something
/// whenever the judge would accept an action, and never says to a seat
/// that can act what it says to one that cannot. Returns how many
/// seat-steps it compared and how many marked a piece.
pub fn marks_and_now_are_the_judges<G: Game + Bots>(
    configs: impl IntoIterator<Item = TableConfig<G>>,
    bot: &str,
    marked: impl Fn(&G::View) -> BTreeSet<String>,
    piece: impl Fn(&G::View, &G::Action) -> Option<String>,
    now: impl Fn(&G::View) -> String,
) -> (usize, usize)
where
    G::Action: Debug,
{
    check(configs, bot, &marked, &piece, Some(&now))
}

#[allow(clippy::type_complexity)]
fn check<G: Game + Bots>(
    configs: impl IntoIterator<Item = TableConfig<G>>,
    bot: &str,
    marked: &dyn Fn(&G::View) -> BTreeSet<String>,
    piece: &dyn Fn(&G::View, &G::Action) -> Option<String>,
    now: Option<&dyn Fn(&G::View) -> String>,
) -> (usize, usize)
where
    G::Action: Debug,
{
    let (mut compared, mut marking) = (0, 0);
    // Each now line, and whether the seat it was told to could act.
    let mut lines: HashMap<String, (bool, String)> = HashMap::new();
    play_bot_games(configs, bot, |table: &Table<G>, seed, step| {
        let seats: Vec<SeatId> = table.config().seats.ids().collect();
        for &seat in &seats {
            let view = table.view(seat);
            let legal = table.legal(seat);
            // The table never waits on a seat that can do nothing.
            assert!(
                !legal.is_empty() || !table.to_act().contains(&seat),
                "seed {seed}, step {step}: the table waits on seat {seat}, which may do nothing"
            );
            let want: BTreeSet<String> = legal.iter().filter_map(|a| piece(&view, a)).collect();
            let got = marked(&view);
            assert_eq!(
                got, want,
                "seed {seed}, step {step}, seat {seat}: marked (left) and what the \
                 judge's legal actions use (right) differ; legal: {legal:?}"
            );
            let (Some(now), can) = (now, !legal.is_empty()) else {
                compared += 1;
                marking += usize::from(!got.is_empty());
                continue;
            };
            let line = now(&view);
            assert!(
                !can || !line.is_empty(),
                "seed {seed}, step {step}, seat {seat}: may act ({legal:?}) but no line says so"
            );
            let here = format!("seed {seed}, step {step}, seat {seat}");
            let (could, there) = lines.entry(line.clone()).or_insert((can, here.clone()));
            assert_eq!(
                *could,
                can,
                "\"{line}\" was told to a seat that {} act ({there}) and to one that {} ({here}; legal {legal:?})",
                if *could { "could" } else { "could not" },
                if can { "could" } else { "could not" },
            );
            compared += 1;
            marking += usize::from(!got.is_empty());
        }
    });
    (compared, marking)
}

/// Plays a bot game of `G` (bots of kind `bot` in every seat) for each
/// table `configs` gives, to its end, and hands `visit` the table before
/// every step (with the table's seed and the step's number). Each seat
/// acts after 2 to 15 s of table time; a table nobody acts at runs to its
/// next deadline.
pub fn play_bot_games<G: Game + Bots>(
    configs: impl IntoIterator<Item = TableConfig<G>>,
    bot: &str,
    mut visit: impl FnMut(&Table<G>, u64, usize),
) where
    G::Action: Debug,
{
    for config in configs {
        let seed = config.seed;
        let mut table = Table::new(config).expect("the table starts");
        let seats: Vec<SeatId> = table.config().seats.ids().collect();
        let mut bots: Vec<_> = seats
            .iter()
            .map(|_| G::bot(bot).expect("a bot of this kind"))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for step in 0..5_000 {
            visit(&table, seed, step);
            if table.is_over() {
                break;
            }
            let mut acted = false;
            for seat in table.to_act() {
                table.advance_by(rng.random_range(2_000..=15_000));
                if !table.to_act().contains(&seat) {
                    continue;
                }
                let view = table.view(seat);
                if let Some(action) = bots[seat.index()].act(&view, &mut rng) {
                    table
                        .submit(seat, action.clone())
                        .unwrap_or_else(|e| panic!("seat {seat} tried {action:?}: {e}"));
                    acted = true;
                    break;
                }
            }
            if !acted {
                let at = table
                    .next_deadline()
                    .expect("a table nobody acts at has a deadline");
                table.advance_to(at);
            }
        }
        assert!(table.is_over(), "seed {seed}: the game did not end");
    }
}
