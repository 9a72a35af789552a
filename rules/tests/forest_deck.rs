//! The Forest deck file against what the rules need of it (issue 3, "The
//! deck is data").

use foodweb_rules::forest::deck::{DECK_RON, Deck, DeckError, Role};
use foodweb_rules::forest::{ShowdownOutcome, deck, showdown_outcome};

#[test]
fn the_deck_file_satisfies_the_rules() {
    let d = Deck::from_ron(DECK_RON).expect("data/deck.ron is valid");
    // "there are 41 cards in the deck", "The two Death & Decay cards".
    assert_eq!(d.all_cards().len(), 41);
    let dd = d.death_decay();
    assert_eq!(d.all_cards().iter().filter(|&&c| c == dd).count(), 2);
    // Every role appears; every card is eaten by something.
    for role in Role::ALL {
        assert!(d.ids().any(|c| d.card(c).role == role), "{role:?}");
    }
    for c in d.ids() {
        assert!(
            d.ids().any(|e| d.eats(e, c)),
            "{} is eaten by nothing",
            d.card(c).key
        );
    }
    // "preying insects eat spiders, and spiders eat preying insects"
    let (spider, mantis) = (
        d.by_key("spider").unwrap(),
        d.by_key("praying_mantis").unwrap(),
    );
    assert!(d.eats(spider, mantis) && d.eats(mantis, spider));
    // Takers of Death & Decay are exactly the decomposers and scavengers;
    // Death & Decay eats everything else but itself.
    for c in d.ids() {
        let taker = d.card(c).role == Role::Decomposer;
        assert_eq!(d.takes_death_decay(c), taker, "{}", d.card(c).key);
        assert_eq!(d.eats(dd, c), !taker && c != dd, "{}", d.card(c).key);
    }
}

#[test]
fn showdown_outcomes_follow_the_seed() {
    let k = |s: &str| deck().by_key(s).unwrap();
    assert_eq!(
        showdown_outcome(k("deer"), k("grass")),
        ShowdownOutcome::AskerTakes
    );
    assert_eq!(
        showdown_outcome(k("grass"), k("deer")),
        ShowdownOutcome::TargetTakes
    );
    assert_eq!(
        showdown_outcome(k("spider"), k("praying_mantis")),
        ShowdownOutcome::StandOff
    );
    assert_eq!(
        showdown_outcome(k("oak"), k("pine")),
        ShowdownOutcome::StandOff
    );
    assert_eq!(
        showdown_outcome(k("death_decay"), k("mushroom")),
        ShowdownOutcome::StandOff
    );
    assert_eq!(
        showdown_outcome(k("mushroom"), k("death_decay")),
        ShowdownOutcome::StandOff
    );
    assert_eq!(
        showdown_outcome(k("death_decay"), k("bear")),
        ShowdownOutcome::AskerTakes
    );
    assert_eq!(
        showdown_outcome(k("death_decay"), k("death_decay")),
        ShowdownOutcome::StandOff
    );
}

fn refused(text: &str) -> DeckError {
    Deck::from_ron(text).expect_err("a bad deck is refused")
}

#[test]
fn bad_deck_files_are_refused_with_the_card_and_the_reason() {
    let card_err = |e: DeckError, card: &str, words: &str| match e {
        DeckError::Card { card: c, reason } => {
            assert_eq!(c, card);
            assert!(reason.contains(words), "{reason}");
        }
        other => panic!("expected a card error for {card}, got {other}"),
    };
    card_err(
        refused(&DECK_RON.replacen(
            "\"death_decay\", \"moss\"]",
            "\"death_decay\", \"unicorn\"]",
            1,
        )),
        "millipede",
        "unicorn",
    );
    card_err(
        refused(&DECK_RON.replacen("eats: [\"death_decay\"])", "eats: [])", 1)),
        "mushroom",
        "does not take Death & Decay",
    );
    card_err(
        refused(&DECK_RON.replacen(
            "role: Herbivore, eats: [\"grass\"",
            "role: Herbivore, eats: [\"death_decay\", \"grass\"",
            1,
        )),
        "deer",
        "not a decomposer",
    );
    card_err(
        refused(&DECK_RON.replacen("energy: 9", "energy: -9", 1)),
        "oak",
        "negative",
    );
    card_err(
        refused(&DECK_RON.replacen("copies: 2", "copies: 3", 1)),
        "death_decay",
        "copies",
    );
    card_err(
        refused(&DECK_RON.replacen("(id: \"pine\"", "(id: \"oak\"", 1)),
        "oak",
        "twice",
    );
    assert!(matches!(refused("(cards: [)"), DeckError::Parse(_)));
    assert!(matches!(
        refused(&DECK_RON.replacen("role: Decomposer", "role: Wizard", 1)),
        DeckError::Parse(_)
    ));
    let hawk_only_dd = DECK_RON.replacen(", \"hawk\"]", "]", 1);
    assert!(
        Deck::from_ron(&hawk_only_dd).is_ok(),
        "Death & Decay still eats the hawk"
    );
    let mut lines: Vec<&str> = DECK_RON.lines().collect();
    lines.retain(|l| !l.contains("(id: \"moss\""));
    let short = lines.join("\n");
    match refused(&short) {
        DeckError::Card { card, .. } => assert_eq!(card, "millipede"), // eats the missing moss
        other => panic!("{other}"),
    }
}

/// The rules document's food-web table is generated from the deck file.
#[test]
fn the_rules_document_shows_the_deck_as_it_is() {
    let doc = foodweb_rules::forest::RULES_MD;
    let table = foodweb_rules::forest::deck::web_table_markdown(deck());
    assert!(
        doc.contains(&table),
        "rules.md's food-web table is stale; it should read:\n{table}"
    );
}
