//! Every Wanning Beast Chess scenario in `rules/scenarios/wanning/` runs
//! with no failed step. Each file quotes the clause it checks in its
//! `rule` field.

use foodweb_rules::scenario;
use foodweb_rules::wanning::WanningGame;

#[test]
fn every_wanning_scenario_holds() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let dir = std::path::Path::new(&root).join("scenarios/wanning");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 4, "the wanning scenarios are missing");
    let mut failed = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (report, _) = scenario::run::<WanningGame>(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!report.rule.is_empty(), "{} names no rule", file.display());
        if report.failures > 0 {
            failed.push(format!("{}:\n{}", file.display(), report.to_text()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
