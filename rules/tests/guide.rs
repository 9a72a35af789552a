//! The map stays true (issue 65): every repository path DEVELOPERS.md
//! names in backquotes exists. A path from the top of the repository
//! (`rules/src/table/`) must exist there; a shorter one (`screens/table.rs`,
//! `scene/pieces.rs`) must end some path of the repository. `<game>` and
//! `*` stand for any one name, `{en,zh}` for each of its choices.

use std::path::{Path, PathBuf};

/// The repository's folder (this crate is one below it).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the rules crate sits in the repository")
        .to_path_buf()
}

/// Folders that are not the repository's own text: git's, build outputs,
/// downloads.
const NOT_OURS: [&str; 4] = [".git", "target", "node_modules", "dist"];

/// Outputs of a build, named by the guide but absent from a fresh clone
/// (`.gitignore`).
const BUILT: [&str; 1] = ["wasm/dist"];

/// Endings of the files a guide names.
const FILE_KINDS: [&str; 17] = [
    "rs", "md", "sh", "ron", "ftl", "mjs", "js", "py", "toml", "html", "otf", "png", "ogg", "svg",
    "json", "yml", "lock",
];

/// Every file and folder of the repository, as paths from its top with
/// `/` between names; folders end in `/`.
fn repository_paths() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if NOT_OURS.contains(&name.as_str()) {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                out.push(format!("{path}/"));
                walk(&entry.path(), &format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), "", &mut out);
    out
}

/// The spans between single backquotes, outside fenced code blocks.
fn backquoted(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        spans.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
    }
    spans
}

/// Whether a backquoted span names a path of the repository (and not a
/// command, a type, a feature or a URL).
fn is_path(span: &str, top: &[String]) -> bool {
    if span.is_empty()
        || span.contains(char::is_whitespace)
        || span.starts_with(['/', '-', '.', '?', '~', '$'])
        || ["::", "(", "=", "http", "@", "&", ":", "'"]
            .iter()
            .any(|s| span.contains(s))
    {
        return top
            .iter()
            .any(|t| t.starts_with('.') && span.starts_with(t.as_str()));
    }
    let first = span.split('/').next().unwrap_or_default();
    let from_top = span.contains('/') && top.iter().any(|t| t.trim_end_matches('/') == first);
    let ext = span.rsplit_once('.').map(|(_, e)| e.trim_end_matches('/'));
    from_top || ext.is_some_and(|e| FILE_KINDS.contains(&e))
}

/// `a{b,c}d` as `abd` and `acd`.
fn expand_braces(pattern: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (pattern.find('{'), pattern.find('}')) else {
        return vec![pattern.to_string()];
    };
    if close < open {
        return vec![pattern.to_string()];
    }
    pattern[open + 1..close]
        .split(',')
        .flat_map(|choice| {
            expand_braces(&format!(
                "{}{choice}{}",
                &pattern[..open],
                &pattern[close + 1..]
            ))
        })
        .collect()
}

/// Whether one name matches one name of a pattern (`*` any run of
/// characters, `<...>` any name).
fn name_matches(pattern: &str, name: &str) -> bool {
    if pattern.starts_with('<') && pattern.ends_with('>') {
        return true;
    }
    let pattern = angle_to_star(pattern);
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let mut rest = name;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(after) = rest.strip_prefix(part) else {
                return false;
            };
            rest = after;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else {
                return false;
            };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

/// `screens/<game>_table.rs` as `screens/*_table.rs`.
fn angle_to_star(pattern: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in pattern.chars() {
        match c {
            '<' => {
                inside = true;
                out.push('*');
            }
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether `pattern` names an existing path: from the top when
/// `from_top`, else as the end of one.
fn exists(pattern: &str, from_top: bool, paths: &[String]) -> bool {
    let wanted: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    paths.iter().any(|path| {
        let names: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        if names.len() < wanted.len() || (from_top && names.len() != wanted.len()) {
            return false;
        }
        let tail = &names[names.len() - wanted.len()..];
        wanted.iter().zip(tail).all(|(w, n)| name_matches(w, n))
    })
}

/// The paths a guide names that are not in the repository.
fn missing(guide: &str) -> Vec<String> {
    let paths = repository_paths();
    let top: Vec<String> = paths
        .iter()
        .filter(|p| !p.trim_end_matches('/').contains('/'))
        .cloned()
        .collect();
    let text = std::fs::read_to_string(root().join(guide)).expect("the guide is readable");
    let mut missing = Vec::new();
    for span in backquoted(&text) {
        if !is_path(&span, &top) || BUILT.iter().any(|b| span.starts_with(b)) {
            continue;
        }
        let first = span.split('/').next().unwrap_or_default();
        let from_top = span.contains('/') && top.iter().any(|t| t.trim_end_matches('/') == first);
        if !expand_braces(&span)
            .iter()
            .all(|p| exists(p, from_top, &paths))
            && !missing.contains(&span)
        {
            missing.push(span);
        }
    }
    missing
}

#[test]
fn every_path_the_guide_names_exists() {
    for guide in ["DEVELOPERS.md", "README.md"] {
        let missing = missing(guide);
        assert!(
            missing.is_empty(),
            "{guide} names paths that are not in the repository: {missing:?}"
        );
    }
}

/// The test can fail: a made-up path is missing, a real one is found, in
/// each of the forms the guide uses.
#[test]
fn the_path_check_tells_real_from_made_up() {
    let paths = repository_paths();
    assert!(exists("rules/src/table", true, &paths));
    assert!(exists("screens/table.rs", false, &paths));
    assert!(exists("rules/i18n/en/*.ftl", true, &paths));
    assert!(exists("src/client/games/<game>/panels.rs", true, &paths));
    assert!(
        expand_braces("rules/i18n/{en,zh}/gene.ftl")
            .iter()
            .all(|p| exists(p, true, &paths))
    );
    assert!(!exists("rules/src/nowhere.rs", true, &paths));
    assert!(!exists("screens/forest_table.rs", false, &paths));
    assert!(!exists("table.rs", true, &paths));
}
