//! Every Forest Showdown scenario in `rules/scenarios/forest/` runs with no
//! failed step. Each file quotes the rule it checks in its `rule` field.

use foodweb_rules::forest::ForestGame;
use foodweb_rules::scenario;

#[test]
fn every_forest_scenario_holds() {
    // Where cargo runs the test from, not where it was compiled: a shared
    // target folder may hold a binary built in another clone.
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let dir = std::path::Path::new(&root).join("scenarios/forest");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 12, "the forest scenarios are missing");
    let mut failed = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (report, _) = scenario::run::<ForestGame>(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!report.rule.is_empty(), "{} names no rule", file.display());
        if report.failures > 0 {
            failed.push(format!("{}:\n{}", file.display(), report.to_text()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// A scenario whose script is wrong reports failed steps: the runner can fail.
#[test]
fn a_wrong_expectation_is_reported() {
    let text = r#"Scenario(game: "forest", seed: 1, players: 3,
        setup: Some((hands: [["deer"], ["grass"], ["oak"]], deal_rest: Some(false))),
        steps: [ Act(2, AskShowdown(target: 1)), Reject(1, AskShowdown(target: 2)), Check(Holds(1, "oak")) ])"#;
    let (report, _) = scenario::run::<ForestGame>(text).unwrap();
    assert_eq!(report.failures, 3, "{}", report.to_text());
}

#[test]
fn malformed_scenarios_are_refused_with_the_problem() {
    let unknown_card = r#"Scenario(game: "forest", seed: 1, players: 3, steps: [ Act(1, PlayCard(card: "unicorn")) ])"#;
    let err = scenario::run::<ForestGame>(unknown_card)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("unicorn"), "{err}");
    let err = scenario::scenario_game(r#"Scenario(game: "chess", seed: 1, players: 3, steps: [])"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown game 'chess'"), "{err}");
    let err = scenario::scenario_game("Scenario(game: ")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("scenario file is malformed"), "{err}");
    let too_many = r#"Scenario(game: "forest", seed: 1, players: 3,
        setup: Some((hands: [["oak", "oak"]])), steps: [])"#;
    let err = scenario::run::<ForestGame>(too_many)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("more Oak Tree than the deck has"), "{err}");
}

/// SCENARIOS.md: a `Reject` of an action the game's types cannot even hold
/// passes, reported as refused at load with the reason; such a step
/// anywhere else makes the loader refuse the file, naming the step.
#[test]
fn an_unrepresentable_action_is_refused_at_load() {
    let text = r#"Scenario(game: "forest", seed: 1, players: 3,
        steps: [ Wait(10), Reject(1, PlayCard(card: "unicorn")), Check(Round(1)) ])"#;
    let (report, _) = scenario::run::<ForestGame>(text).unwrap();
    assert_eq!(report.failures, 0, "{}", report.to_text());
    let step = &report.steps[1];
    assert_eq!(step.outcome, "rejected");
    let reason = &step.reason.as_ref().unwrap().en;
    assert!(
        reason.starts_with("refused at load, step 2") && reason.contains("unicorn"),
        "{reason}"
    );
    let elsewhere = text.replace("Reject(1, PlayCard", "Act(1, PlayCard");
    let err = scenario::run::<ForestGame>(&elsewhere)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("step 2") && err.contains("unicorn"), "{err}");
    let not_a_step = text.replace("Wait(10)", "Sleep(10)");
    let err = scenario::run::<ForestGame>(&not_a_step)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("step 1"), "{err}");
}
