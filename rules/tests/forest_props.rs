//! Property tests over random input (DEVELOPERS.md: "Bad input gets a clear
//! error and changes nothing"; seed: cards only ever change hands).

use foodweb_rules::forest::{CardId, ForestAction, ForestGame, deck};
use foodweb_rules::table::{SeatId, Table, TableConfig};
use proptest::prelude::*;

fn action(kind: u8, target: u8, a: u8, b: u8) -> ForestAction {
    match kind {
        0 => ForestAction::AskShowdown {
            target: SeatId(target),
        },
        1 => ForestAction::PlayCard { card: CardId(a) },
        _ => ForestAction::Challenge {
            target: SeatId(target),
            named: CardId(a),
            with: CardId(b),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever anyone sends, in or out of turn: a refusal leaves the table
    /// byte-identical with a reason in both languages, and the 41 cards
    /// stay in the players' hands.
    #[test]
    fn refusals_change_nothing_and_the_deck_stays_whole(
        seed in 0u64..10_000,
        players in 2usize..=8,
        moves in prop::collection::vec((0u8..9, 0u8..3, 0u8..9, 0u8..40, 0u8..40, 0u64..20_000), 1..80),
    ) {
        let mut full = deck().all_cards();
        full.sort();
        let mut t = Table::<ForestGame>::new(TableConfig::new(seed, players)).unwrap();
        for (seat, kind, target, a, b, wait) in moves {
            t.advance_by(wait);
            let before = t.snapshot().to_ron();
            if let Err(refusal) = t.submit(SeatId(seat), action(kind, target, a, b)) {
                prop_assert!(!refusal.reason.en.is_empty() && !refusal.reason.zh.is_empty());
                prop_assert_eq!(t.snapshot().to_ron(), before);
            }
            let mut all: Vec<CardId> = (0..players).flat_map(|s| t.view(SeatId(s as u8)).hand).collect();
            all.sort();
            prop_assert_eq!(&all, &full);
        }
    }
}
