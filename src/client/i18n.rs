//! The client's words, in Fluent files (`assets/i18n/*.ftl`), one bundle
//! per language. Rules text arrives already bilingual from the rules crate.

use bevy::prelude::*;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use foodweb_rules::table::SeatName;
use foodweb_rules::{Bilingual, Lang};
use unic_langid::langid;

use super::UserSettings;

pub const EN_FTL: &str = include_str!("../../assets/i18n/en.ftl");
pub const ZH_FTL: &str = include_str!("../../assets/i18n/zh.ftl");

#[derive(Resource)]
pub struct I18n {
    pub lang: Lang,
    en: FluentBundle<FluentResource>,
    zh: FluentBundle<FluentResource>,
}

fn bundle(text: &str, id: unic_langid::LanguageIdentifier) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(text.to_string())
        .unwrap_or_else(|(_, errors)| panic!("translation file does not parse: {errors:?}"));
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    bundle
        .add_resource(resource)
        .expect("translation keys are unique");
    bundle
}

impl Default for I18n {
    fn default() -> Self {
        Self {
            lang: Lang::Zh,
            en: bundle(EN_FTL, langid!("en")),
            zh: bundle(ZH_FTL, langid!("zh-CN")),
        }
    }
}

impl I18n {
    fn current(&self) -> &FluentBundle<FluentResource> {
        match self.lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// The text for `key`, or the key itself if a translation is missing.
    pub fn t(&self, key: &str) -> String {
        self.format(key, None)
    }

    /// The text for `key` with arguments.
    pub fn ta(&self, key: &str, args: &[(&str, FluentValue)]) -> String {
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            fa.set(*k, v.clone());
        }
        self.format(key, Some(&fa))
    }

    fn format(&self, key: &str, args: Option<&FluentArgs>) -> String {
        let bundle = self.current();
        let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_string();
        };
        let mut errors = vec![];
        bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }

    pub fn pick<'a>(&self, text: &'a Bilingual) -> &'a str {
        text.get(self.lang)
    }

    /// A seat's name in the reader's language (a bot's kind and number
    /// are worded here; a person's name is as they typed it).
    pub fn name(&self, name: &SeatName) -> String {
        name.get(self.lang)
    }

    /// A seat's number and name, "2 Ann"; a bot named by its kind and
    /// number as it is ("survivor bot 2", not "2 survivor bot 2").
    pub fn numbered(&self, seat: impl std::fmt::Display, name: &SeatName) -> String {
        if name.numbered() {
            self.name(name)
        } else {
            format!("{seat} {}", self.name(name))
        }
    }
}

fn follow_settings(settings: Res<UserSettings>, mut i18n: ResMut<I18n>) {
    if i18n.lang != settings.lang {
        i18n.lang = settings.lang;
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<I18n>()
        .add_systems(PreUpdate, follow_settings);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<String> {
        let mut keys: Vec<String> = text
            .lines()
            .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.trim().to_string()))
            .collect();
        keys.sort();
        keys
    }

    /// Chinese and English throughout: both files give every key.
    #[test]
    fn both_languages_have_every_key() {
        assert_eq!(keys(EN_FTL), keys(ZH_FTL));
        let mut i18n = I18n::default();
        for lang in [Lang::En, Lang::Zh] {
            i18n.lang = lang;
            for key in keys(EN_FTL) {
                assert_ne!(i18n.t(&key), key, "{key} missing in {lang:?}");
            }
        }
        i18n.lang = Lang::En;
        assert_eq!(i18n.ta("setup-seat", &[("n", 3.into())]), "Seat 3");
    }

    /// The repository's files of `dir` (under the workspace) ending in
    /// `ext`, read.
    fn files(dir: &str, ext: &str) -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let mut dirs = vec![root.join(dir)];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d)
                .expect("a folder of the repository")
                .flatten()
            {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.to_string_lossy().ends_with(ext) {
                    let text = std::fs::read_to_string(&p).expect("a text file");
                    out.push((p.display().to_string(), text));
                }
            }
        }
        assert!(!out.is_empty(), "no {ext} under {dir}");
        out
    }

    /// Every message of a Fluent file: its key and its value (continued
    /// lines joined), comments left out.
    fn messages(text: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            if line.starts_with(' ') {
                if let Some(last) = out.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(line.trim());
                }
            } else if let Some((k, v)) = line.split_once(" = ")
                && !line.starts_with('#')
            {
                out.push((k.to_string(), v.to_string()));
            }
        }
        out
    }

    /// The words a player reads on the screens: the client's and the rules'
    /// Fluent files, and the game data's names and texts (the `en:` and
    /// `zh:` strings of `rules/src/*/data/*.ron`).
    fn ui_texts() -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (path, text) in files("assets/i18n", ".ftl")
            .into_iter()
            .chain(files("rules/i18n", ".ftl"))
        {
            for (k, v) in messages(&text) {
                out.push((format!("{path}: {k}"), v));
            }
        }
        for (path, text) in files("rules/src", ".ron") {
            for tag in ["en: \"", "zh: \""] {
                let mut rest = text.as_str();
                while let Some(at) = rest.find(tag) {
                    rest = &rest[at + tag.len()..];
                    let end = rest.find('"').unwrap_or(rest.len());
                    out.push((path.clone(), rest[..end].to_string()));
                    rest = &rest[end..];
                }
            }
        }
        out
    }

    /// The project's words in `text`, as issue 37 names them: "seed"
    /// (种子, 種子), "RON", names of types in CamelCase or snake_case, and
    /// formulas like "2n/x".
    fn project_words(text: &str) -> Vec<String> {
        let mut found = Vec::new();
        for w in ["种子", "種子"] {
            if text.contains(w) {
                found.push(w.to_string());
            }
        }
        let tokens =
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/' || c == '$'));
        // A Fluent variable (`$round_cap`) is never shown.
        for t in tokens.filter(|t| !t.is_empty() && !t.starts_with('$')) {
            let lower = t.to_lowercase();
            let camel = t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && t.chars().skip(1).any(|c| c.is_ascii_lowercase())
                && t.chars().skip(1).any(|c| c.is_ascii_uppercase());
            let snake = t.contains('_') && t.chars().any(|c| c.is_ascii_lowercase());
            let formula = t.split('/').count() > 1
                && t.split('/').all(|p| !p.is_empty())
                && t.split('/').any(|p| {
                    let letters = p.trim_start_matches(|c: char| c.is_ascii_digit());
                    letters.len() == 1 && letters.chars().all(|c| c.is_ascii_lowercase())
                });
            let seed = lower.split('/').any(|w| w == "seed" || w == "seeds");
            if camel || snake || formula || seed || t == "RON" {
                found.push(t.to_string());
            }
        }
        found
    }

    /// Issue 37: the screens speak the players' language, not the
    /// project's. The test's own reading of project words first.
    #[test]
    fn no_screen_speaks_the_projects_words() {
        assert_eq!(
            project_words("the seed's 2n/x is more than 1"),
            ["seed", "2n/x"]
        );
        assert_eq!(
            project_words("VotesPerPlayer, round_cap, RON, 种子"),
            ["种子", "VotesPerPlayer", "round_cap", "RON"]
        );
        assert!(project_words("AT/PT · 2/3/4 damage · Death & Decay · HP 3").is_empty());
        let bad: Vec<String> = ui_texts()
            .into_iter()
            .filter_map(|(at, text)| {
                let words = project_words(&text);
                (!words.is_empty()).then(|| format!("{at}: {words:?} in {text:?}"))
            })
            .collect();
        assert!(
            bad.is_empty(),
            "project words on the screens:\n{}",
            bad.join("\n")
        );
    }

    /// Issue 37, "fonts keep up": every character of the texts the screens
    /// show (the Fluent files, the game data, the rules documents of the
    /// Rules window) is in the UI font built into the program, or in the
    /// emoji fonts beside it. A new character: `python3
    /// tools/subset-cjk-font.py`.
    #[test]
    fn the_ui_font_has_every_character_shown() {
        use skrifa::MetadataProvider;
        let fonts: Vec<skrifa::FontRef> = [
            crate::client::assets::UI_FONT_BYTES,
            include_bytes!("../../assets/fonts/NotoEmoji-Regular.ttf").as_slice(),
            include_bytes!("../../assets/fonts/emoji-icon-font.ttf").as_slice(),
        ]
        .into_iter()
        .map(|b| skrifa::FontRef::new(b).expect("a font"))
        .collect();
        let mut texts: Vec<String> = ui_texts().into_iter().map(|(_, t)| t).collect();
        texts.extend(files("rules/src", ".md").into_iter().map(|(_, t)| t));
        let mut missing = std::collections::BTreeSet::new();
        for c in texts.iter().flat_map(|t| t.chars()) {
            if c.is_whitespace()
                || c.is_control()
                || ('\u{fe00}'..='\u{fe0f}').contains(&c)
                || c == '\u{200d}'
            {
                continue;
            }
            if !fonts.iter().any(|f| f.charmap().map(c).is_some()) {
                missing.insert(c);
            }
        }
        assert!(
            missing.is_empty(),
            "not in the UI font (run python3 tools/subset-cjk-font.py): {missing:?}"
        );
    }
}
