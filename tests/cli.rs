//! The command line (issue 2): `sim` and `scenario` work headless; an
//! unknown game, a bad flag or a malformed scenario gives a one-line error
//! naming the problem and a non-zero exit, never a panic.

use std::process::Command;

fn foodweb(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_foodweb"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn one_line_error(args: &[&str], words: &str) {
    let (code, _, err) = foodweb(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(
        err.trim().lines().count(),
        1,
        "{args:?} printed more than one line: {err}"
    );
    assert!(err.contains(words), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_commands_fail_with_one_line() {
    one_line_error(&["sim", "chess"], "unknown game 'chess'");
    // A replay file that is missing, or is not a replay: a clear error,
    // and no window opens.
    one_line_error(&["replay", "/nonexistent/replay.ron"], "cannot read");
    let junk = std::env::temp_dir().join(format!("foodweb-junk-{}.ron", std::process::id()));
    std::fs::write(&junk, "(format: 1, game: Chess)").unwrap();
    one_line_error(
        &["replay", junk.to_str().unwrap()],
        "is not a replay Foodweb opens",
    );
    let _ = std::fs::remove_file(&junk);
    one_line_error(&["bench-hall", "--game", "chess"], "unknown game 'chess'");
    one_line_error(
        &["sim", "wanning", "--bots", "wizard"],
        "unknown wanning bot 'wizard'",
    );
    one_line_error(&["sim", "wanning", "--players", "11"], "not 11");
    one_line_error(
        &["sim", "wanning", "--bots", "5=reasoning"],
        "LEVEL=KIND for levels 1 to 4",
    );
    one_line_error(
        &["sim", "wanning", "--timing", "(round_cap: 0)"],
        "round cap",
    );
    one_line_error(
        &["sim", "crueler", "--timing", "swords"],
        "unknown crueler duel 'swords'",
    );
    one_line_error(&["sim", "crueler", "--players", "14"], "not 14");
    one_line_error(
        &["sim", "gene", "--bots", "wizard"],
        "unknown gene bot 'wizard'",
    );
    one_line_error(&["sim", "gene", "--players", "3"], "not 3");
    one_line_error(
        &["sim", "wanning", "--prefer", "Telepathy"],
        "unknown instinct 'Telepathy'",
    );
    one_line_error(&["sim", "forest", "--prefer", "LastStand"], "for wanning");
    one_line_error(&["sim", "forest", "--bogus"], "--bogus");
    one_line_error(&["sim", "forest", "--games", "many"], "many");
    one_line_error(&["sim", "forest", "--players", "12"], "not 12");
    // Issue 40: a bad sweep or thread count is refused before any game.
    one_line_error(&["sim", "forest", "--sweep", "round_secs 600"], "no ':'");
    one_line_error(
        &["sim", "forest", "--sweep", "round_sec: [600, 900]"],
        "no setting 'round_sec'",
    );
    one_line_error(
        &["sim", "forest", "--sweep", "round_secs: [600, x]"],
        "'x' is not a value it takes",
    );
    one_line_error(
        &["sim", "wanning", "--sweep", "round_cap: [12, 0]"],
        "round_cap",
    );
    one_line_error(&["sim", "gene", "--sweep", "players: [4, 3]"], "not 3");
    one_line_error(&["sim", "forest", "--threads", "0"], "--threads");
    one_line_error(&["sim", "forest", "--bots", "wizard"], "wizard");
    one_line_error(&["scenario", "/no/such/file.ron"], "cannot read");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        r#"Scenario(game: "forest", seed: 1, players: 3, steps: [Act(1, Dance)])"#,
    )
    .unwrap();
    one_line_error(&["scenario", bad.to_str().unwrap()], "Dance");
    std::fs::write(&bad, "Scenario(game: \"forest\",\n seed: ").unwrap();
    one_line_error(&["scenario", bad.to_str().unwrap()], "malformed");
}

#[test]
fn sim_reports_as_json() {
    let (code, out, err) = foodweb(&[
        "sim",
        "forest",
        "--games",
        "3",
        "--players",
        "4",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(report["games"], 3);
    assert_eq!(report["players"], 4);
    assert!(report["games_per_sec"].as_f64().unwrap() > 0.0);
    assert!(report["mean_actions"].as_f64().unwrap() > 0.0);
    assert_eq!(report["seats"].as_array().unwrap().len(), 4);
    assert_eq!(report["bots"].as_array().unwrap().len(), 2);
}

/// Issue 35: 「`foodweb sim wanning` at 4, 7 and 10 players stays
/// deterministic」: the same seed plays the same games, whatever the clock;
/// the report also names each instinct's holders.
#[test]
fn wanning_sim_is_deterministic_at_4_7_and_10_players() {
    for players in ["4", "7", "10"] {
        let run = || {
            let (code, out, err) = foodweb(&[
                "sim",
                "wanning",
                "--games",
                "30",
                "--players",
                players,
                "--bots",
                "reasoning",
                "--seed",
                "35",
                "--json",
            ]);
            assert_eq!(code, 0, "{err}");
            let mut r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            let o = r.as_object_mut().unwrap();
            // What depends on the machine: the time taken and the threads.
            for k in [
                "elapsed_secs",
                "games_per_sec",
                "cpu_secs",
                "games_per_cpu_sec",
                "threads",
            ] {
                o.remove(k);
            }
            r
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "{players} players");
        let held: u64 = a["instincts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["holders"].as_u64().unwrap())
            .sum();
        let n: u64 = players.parse().unwrap();
        assert_eq!(
            held,
            30 * n,
            "every seat holds an instinct at the reasoning table"
        );
    }
}

#[test]
fn scenario_prints_steps_views_and_hash() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let file = format!("{root}/rules/scenarios/forest/04-challenge-illegal-and-mutual.ron");
    let (code, out, err) = foodweb(&["scenario", &file]);
    assert_eq!(code, 0, "{err}");
    for part in [
        "steps:",
        "rejected",
        "White-tailed Deer does not eat Red Fox",
        "announcements:",
        "public state:",
        "seat 3 view:",
        "snapshot hash:",
    ] {
        assert!(out.contains(part), "missing {part}:\n{out}");
    }
    let (code, out, _) = foodweb(&["scenario", &file, "--json"]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["failures"], 0);
    assert_eq!(report["hash"].as_str().unwrap().len(), 64);
}

/// Issue 15, item 6: "Every bad value gets a one-line error naming it and a
/// non-zero exit, never a backtrace." None of these reaches a socket.
#[test]
fn bad_server_and_client_values_fail_with_one_line() {
    for hz in ["0", "NaN", "-5", "1e-300", "inf"] {
        one_line_error(&["serve", &format!("--hz={hz}")], "--hz");
    }
    one_line_error(&["serve", "--bind", "999.1.1.1"], "--bind");
    one_line_error(&["serve", "--max-tables", "0"], "--max-tables");
    one_line_error(&["serve", "--journal-sync", "never"], "--journal-sync");
    one_line_error(&["bench-hall", "--tables", "100000000"], "--tables");
    one_line_error(&["bench-hall", "--seconds", "inf"], "--seconds");
    one_line_error(&["bench-hall", "--seconds", "NaN"], "--seconds");
    let client = |extra: &[&str]| {
        let mut args = vec!["client", "--server", "127.0.0.1:9"];
        args.extend(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let cases: [(&[&str], &str); 7] = [
        (&["--timeout-secs", "NaN"], "--timeout-secs"),
        (&["--timeout-secs", "inf"], "--timeout-secs"),
        (&["--record", "/no/such/folder/r.jsonl"], "--record"),
        (&["--play", "nobot"], "--play 'nobot'"),
        (&["--create", "forest", "--seats", "0"], "--seats 0"),
        (&["--create", "forest", "--round-secs", "0"], "--round-secs"),
        (&["--name", "abcdefghijklmnopqrstuvwxyz0123"], "--name"),
    ];
    for (extra, words) in cases {
        let args = client(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        one_line_error(&args, words);
    }
}
