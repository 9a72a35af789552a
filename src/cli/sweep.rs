//! `foodweb sim --sweep "SETTING: [a, b, c]"`: which setting, which values,
//! and one setting of a game's settings changed by name.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::CliError;

/// A sweep over one setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub key: String,
    /// Each value as written (RON for a setting; quotes taken off).
    pub values: Vec<String>,
}

impl Sweep {
    /// Reads `SETTING: [a, b, c]`.
    pub fn parse(text: &str) -> Result<Self, CliError> {
        let bad = |why: &str| {
            CliError(format!(
                "bad --sweep '{text}': {why} (write \"SETTING: [a, b, c]\")"
            ))
        };
        let (key, list) = text.split_once(':').ok_or_else(|| bad("no ':'"))?;
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad("the setting is a name of letters, digits and _"));
        }
        let list = list.trim();
        let inner = list
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .ok_or_else(|| bad("the values go in [ ]"))?;
        let values: Vec<String> = top_level(inner, ',')
            .map_err(|e| bad(&e))?
            .into_iter()
            .map(|v| unquote(v.trim()).to_string())
            .filter(|v| !v.is_empty())
            .collect();
        if values.len() < 2 {
            return Err(bad("a sweep compares at least two values"));
        }
        if values.len() > 32 {
            return Err(bad("at most 32 values"));
        }
        Ok(Self {
            key: key.to_string(),
            values,
        })
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = v.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

/// Splits `text` at `sep` where it is not inside brackets or quotes.
fn top_level(text: &str, sep: char) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("an unmatched '{c}'"));
                }
            }
            (None, c) if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if depth != 0 || quote.is_some() {
        return Err("an unclosed bracket or quote".into());
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// `settings` with its field `key` set to `value` (RON), by writing the
/// settings as RON, putting the value in place of the field's and reading
/// them back: so every field and every enum of every game's settings can
/// be swept, and a value of the wrong kind is refused by the settings'
/// own type.
pub fn set_field<S: Serialize + DeserializeOwned>(
    settings: &S,
    key: &str,
    value: &str,
) -> Result<S, CliError> {
    let text = ron::to_string(settings).expect("settings write as RON");
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .expect("settings are a struct");
    let fields: Vec<(&str, &str)> = top_level(inner, ',')
        .expect("RON the settings wrote")
        .into_iter()
        .filter(|f| !f.trim().is_empty())
        .map(|f| {
            let (k, v) = f.split_once(':').expect("a struct field");
            (k.trim(), v.trim())
        })
        .collect();
    if !fields.iter().any(|(k, _)| *k == key) {
        let names: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        return Err(CliError(format!(
            "no setting '{key}' (settings: {}; also players and bots, and timing for forest and crueler)",
            names.join(", ")
        )));
    }
    let rebuilt = fields
        .iter()
        .map(|(k, v)| format!("{k}:{}", if *k == key { value } else { v }))
        .collect::<Vec<_>>()
        .join(",");
    ron::from_str(&format!("({rebuilt})"))
        .map_err(|e| CliError(format!("{key}: '{value}' is not a value it takes: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::wanning::{LastStandUses, WanningSettings};

    #[test]
    fn a_sweep_reads_its_setting_and_values() {
        let s = Sweep::parse("round_cap: [8, 12, 20]").unwrap();
        assert_eq!(s.key, "round_cap");
        assert_eq!(s.values, ["8", "12", "20"]);
        let b = Sweep::parse("bots: [random, 'memory,random', \"a, b\"]").unwrap();
        assert_eq!(b.values, ["random", "memory,random", "a, b"]);
        for bad in [
            "round_cap [1,2]",
            "round_cap: 1, 2",
            ": [1,2]",
            "x: [1]",
            "x: [(1, 2]",
        ] {
            assert!(Sweep::parse(bad).is_err(), "{bad} was read");
        }
    }

    #[test]
    fn any_setting_is_set_by_name_and_checked_by_its_type() {
        let base = WanningSettings::default();
        let s = set_field(&base, "round_cap", "20").unwrap();
        assert_eq!(s.round_cap, 20);
        assert_eq!(
            WanningSettings {
                round_cap: base.round_cap,
                ..s.clone()
            },
            base
        );
        let e = set_field(&base, "last_stand", "Unlimited").unwrap();
        assert_ne!(e.last_stand, base.last_stand);
        assert!(matches!(e.last_stand, LastStandUses::Unlimited));
        let no = set_field(&base, "round_caps", "20").unwrap_err();
        assert!(no.0.contains("round_cap,"), "{}", no.0);
        assert!(set_field(&base, "round_cap", "true").is_err());
        assert!(set_field(&base, "round_cap", "300").is_err());
    }
}
