//! Whole games of Forest Showdown played by bots: they end, they keep the
//! deck whole, and no seat's view shows another seat's secret.

use foodweb_rules::forest::{ForestGame, ForestSettings, ForestWhy, bots, deck};
use foodweb_rules::sim::{play_one, simulate};
use foodweb_rules::table::{SeatId, TableConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Seed: "Deal out all the cards" and cards only ever change hands: at any
/// time the hands hold the 41 cards. Rules document §8: a seat's view holds
/// its own hand, and of the others only counts and the public record.
#[test]
fn bot_games_end_keep_the_deck_whole_and_keep_hands_secret() {
    for seed in 0..6u64 {
        let players = 2 + (seed as usize % 5);
        let mut config = TableConfig::<ForestGame>::new(seed, players);
        config.settings = ForestSettings::quick();
        // The end keeps the hands as they were: what this checks is what
        // a seat may know while the game is played.
        config.settings.reveal_at_end = false;
        let mut lineup: Vec<_> = (0..players)
            .map(|i| bots::bot(bots::BOT_KINDS[i % 2]).unwrap())
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (table, record) = play_one(config, &mut lineup, &mut rng).unwrap();
        let result = table.result().unwrap();
        assert_eq!(result.scores, record.scores);
        let mut all: Vec<_> = (0..players)
            .flat_map(|s| table.view(SeatId(s as u8)).hand)
            .collect();
        all.sort();
        let mut full = deck().all_cards();
        full.sort();
        assert_eq!(all, full, "the hands hold exactly the deck");
        for s in 0..players {
            let me = SeatId(s as u8);
            let view = table.view(me);
            let text = ron::to_string(&view).unwrap();
            for other in (0..players).map(|o| SeatId(o as u8)).filter(|&o| o != me) {
                let public = &view.seats[other.index()];
                let their_hand = table.view(other).hand;
                assert_eq!(public.hand_size, their_hand.len());
                for k in &public.known {
                    assert!(their_hand.contains(k), "the record is always true");
                }
            }
            // Every card the view names is the viewer's own, in the public
            // record, or in the last public reveal.
            let mut allowed: Vec<_> = view.hand.clone();
            allowed.extend(view.seats.iter().flat_map(|p| p.known.iter().copied()));
            if let Some(r) = &view.last_showdown {
                allowed.extend([r.asker_card, r.target_card]);
            }
            if let Some(r) = &view.last_challenge {
                allowed.extend([r.named, r.with]);
            }
            // The seat's own lines name the cards of the showdowns and
            // challenges it was in, each laid face up before the table.
            for c in &view.mine {
                match c.why {
                    ForestWhy::Showdown { mine, theirs, .. } => allowed.extend([mine, theirs]),
                    ForestWhy::Challenge { named, with, .. } => allowed.extend([named, with]),
                    ForestWhy::Dealt { .. } => {}
                }
            }
            assert!(
                view.revealed.is_empty(),
                "the end revealed with the setting off"
            );
            for c in deck().ids() {
                let key = format!("\"{}\"", deck().card(c).key);
                if text.contains(&key) {
                    assert!(
                        allowed.contains(&c),
                        "seat {me}'s view names {key}, which it may not know"
                    );
                }
            }
            let notes = table.announcements().notes_for(me);
            assert!(notes.iter().all(|n| n.seat == me));
        }
    }
}

/// Issue 3: the remembering bot beats random. A small run here (the 1,000
/// game figure is in the closing note, from `foodweb sim`).
#[test]
fn the_remembering_bot_beats_random() {
    let lineup =
        |g: usize, seat: SeatId| bots::bot(bots::BOT_KINDS[(seat.index() + g) % 2]).unwrap();
    let report = simulate::<ForestGame>(40, 4, 1, ForestSettings::quick(), &lineup).unwrap();
    let rate = |kind: &str| {
        report
            .bots
            .iter()
            .find(|b| b.kind == kind)
            .unwrap()
            .win_rate
    };
    assert!(
        rate("memory") > rate("random") * 1.5,
        "memory {} vs random {}",
        rate("memory"),
        rate("random")
    );
}

/// Issue 71: "The end reveals the table (a setting, on by default): …
/// Forest each player's energy by card". Until the end no view reveals
/// anything; at the end every view holds every seat's counted hand of each
/// round, and each adds up, card by card, to that round's score less the
/// short-hand bonus (the seed's 「Energy point scores are printed in the top
/// right corner of each card」; rules.md §7).
#[test]
fn the_end_reveals_every_hand_card_by_card() {
    let mut hands = 0;
    for seed in 0..4u64 {
        let players = 2 + (seed as usize % 5);
        let mut config = TableConfig::<ForestGame>::new(seed, players);
        config.settings = ForestSettings::quick();
        config.settings.rounds = 2;
        let bonus = config.settings.short_hand_bonus;
        let mut lineup: Vec<_> = (0..players)
            .map(|i| bots::bot(bots::BOT_KINDS[i % 2]).unwrap())
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut table = foodweb_rules::table::Table::<ForestGame>::new(config).unwrap();
        assert!(
            table.view(SeatId(0)).revealed.is_empty(),
            "nothing before the end"
        );
        foodweb_rules::sim::play_on(&mut table, &mut lineup, &mut rng).unwrap();
        let counts = deck().all_cards().len();
        for s in 0..players {
            let view = table.view(SeatId(s as u8));
            assert_eq!(view.revealed.len(), players);
            let mut last_round: Vec<_> = Vec::new();
            for (r, seat) in view.revealed.iter().zip(&view.seats) {
                assert_eq!(r.seat, seat.seat);
                assert_eq!(r.hands.len(), 2, "a hand for each round");
                for (hand, score) in r.hands.iter().zip(&seat.round_scores) {
                    let short = score - deck().energy(hand);
                    assert!(
                        short == 0 || short == bonus,
                        "seat {}: {score} from {hand:?}",
                        r.seat
                    );
                    hands += 1;
                }
                last_round.extend(r.hands[1].iter().copied());
            }
            last_round.sort();
            assert_eq!(
                last_round.len(),
                counts,
                "the last round's hands hold the deck"
            );
        }
        // Each seat's own last hand is the one its view held.
        for s in 0..players {
            let me = SeatId(s as u8);
            assert_eq!(table.view(me).revealed[s].hands[1], table.view(me).hand);
        }
    }
    println!("revealed: {hands} hands");
}
