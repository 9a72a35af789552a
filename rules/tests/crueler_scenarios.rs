//! Every Crueler World scenario in `rules/scenarios/crueler/` runs with no
//! failed step. Each file quotes the clause it checks in its `rule` field.

use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::scenario;

#[test]
fn every_crueler_scenario_holds() {
    // Where cargo runs the test from, not where it was compiled: a shared
    // target folder may hold a binary built in another clone.
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let dir = std::path::Path::new(&root).join("scenarios/crueler");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 9, "the crueler scenarios are missing");
    let mut failed = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (report, _) = scenario::run::<CruelerGame>(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!report.rule.is_empty(), "{} names no rule", file.display());
        if report.failures > 0 {
            failed.push(format!("{}:\n{}", file.display(), report.to_text()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
