//! Every Gene Survival scenario in `rules/scenarios/gene/` runs with no
//! failed step. Each file quotes the clause it checks in its `rule` field.

use foodweb_rules::gene::GeneGame;
use foodweb_rules::scenario;

#[test]
fn every_gene_scenario_holds() {
    // Where cargo runs the test from, not where it was compiled: a shared
    // target folder may hold a binary built in another clone.
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let dir = std::path::Path::new(&root).join("scenarios/gene");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the gene scenarios are missing");
    let mut failed = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (report, _) =
            scenario::run::<GeneGame>(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!report.rule.is_empty(), "{} names no rule", file.display());
        if report.failures > 0 {
            failed.push(format!("{}:\n{}", file.display(), report.to_text()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// A scenario whose script is wrong reports its failed steps, and a room
/// the map does not have is refused by name.
#[test]
fn a_wrong_gene_script_is_reported_and_a_bad_room_refused() {
    let text = r#"Scenario(game: "gene", seed: 1, players: 4,
        setup: Some((players: [
            (genes: (strength: 4, speed: 3, carry: 3), room: "e1-lobby"),
            (genes: (strength: 4, speed: 3, carry: 3), room: "e2-ward"),
            (genes: (strength: 4, speed: 3, carry: 3), room: "w1-garage"),
            (genes: (strength: 4, speed: 3, carry: 3), room: "w3-gym"),
        ], order: Some([1, 2, 3, 4]))),
        steps: [ Act(2, Move(to: "e1-stairs")), Reject(1, Ready), Check(Hp(1, 3)) ])"#;
    let (report, _) = scenario::run::<GeneGame>(text).unwrap();
    assert_eq!(report.failures, 3, "{}", report.to_text());
    let bad = text.replace("w3-gym", "w9-nowhere");
    let err = scenario::run::<GeneGame>(&bad).err().unwrap().to_string();
    assert!(err.contains("the map has no room 'w9-nowhere'"), "{err}");
}
