//! The client's words, in Fluent files (`assets/i18n/*.ftl`), one bundle
//! per language. Rules text arrives already bilingual from the rules crate.

use bevy::prelude::*;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
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
}
