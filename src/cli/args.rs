//! What the command line's values must be, and its one kind of error.

use foodweb_rules::GameId;

/// A number of seconds: finite, above zero, at most a day.
pub fn seconds_up_to_a_day(text: &str) -> Result<f64, String> {
    finite_in(text, 0.0, 86_400.0, "seconds above 0, at most 86400")
}

/// Updates a second: finite, 1 to 1000.
pub fn updates_per_second(text: &str) -> Result<f64, String> {
    finite_in(text, 0.0, 1000.0, "a rate from 1 to 1000 a second").and_then(|v| {
        if v < 1.0 {
            Err(format!(
                "expected a rate from 1 to 1000 a second, not {text}"
            ))
        } else {
            Ok(v)
        }
    })
}

/// `text` as a finite number in (lo, hi]; `what` names what is expected.
fn finite_in(text: &str, lo: f64, hi: f64, what: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number (expected {what})"))?;
    if !v.is_finite() || v <= lo || v > hi {
        return Err(format!("expected {what}, not {text}"));
    }
    Ok(v)
}

/// An error for the person at the terminal: one line, exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.replace('\n', " "))
    }
}

pub fn playable_game(key: &str) -> Result<GameId, CliError> {
    let game = GameId::from_key(key).ok_or_else(|| {
        CliError(format!(
            "unknown game '{key}' (games: forest, crueler, wanning, gene)"
        ))
    })?;
    if !game.playable() {
        return Err(CliError(format!(
            "{} ({game}) is not playable yet",
            game.title().en
        )));
    }
    Ok(game)
}
