//! Card illustrations: one sprite per Forest species, rasterised from the
//! vector sources in `art/cards/forest/` by `tools/render-cards.sh`. They
//! load behind the loading screen's progress bar and are handed to egui; a
//! sprite that fails to load falls back to the card's glyph.

use bevy::asset::LoadState;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, egui};
use foodweb_rules::forest::{CardId, deck};
use iyes_progress::{Progress, ProgressReturningSystem};

use super::Screen;

/// Sprite path of a Forest card, inside `assets/`.
pub fn sprite_path(card: CardId) -> String {
    format!("cards/forest/{}.png", deck().card(card).key)
}

#[derive(Resource)]
struct CardSprites(Vec<Handle<Image>>);

/// Egui texture of each card's sprite, by card id; `None` if it failed.
#[derive(Clone, Default)]
pub struct CardTextures(pub Vec<Option<egui::TextureId>>);

const TEXTURES_ID: &str = "forest-card-art";

/// The texture of `card`, once the sprites are registered with egui.
pub fn texture(ctx: &egui::Context, card: CardId) -> Option<egui::TextureId> {
    ctx.data(|d| d.get_temp::<CardTextures>(egui::Id::new(TEXTURES_ID)))
        .and_then(|t| t.0.get(card.0 as usize).copied().flatten())
}

fn load_sprites(mut commands: Commands, server: Res<AssetServer>) {
    let handles = deck().ids().map(|c| server.load(sprite_path(c))).collect();
    commands.insert_resource(CardSprites(handles));
}

fn settled(server: &AssetServer, handle: &Handle<Image>) -> bool {
    server.is_loaded_with_dependencies(handle.id())
        || matches!(
            server.get_load_state(handle.id()),
            Some(LoadState::Failed(_))
        )
}

fn loading_progress(sprites: Option<Res<CardSprites>>, server: Res<AssetServer>) -> Progress {
    let Some(sprites) = sprites else {
        return Progress { done: 0, total: 1 };
    };
    Progress {
        done: sprites.0.iter().filter(|h| settled(&server, h)).count() as u32,
        total: sprites.0.len() as u32,
    }
}

/// Says once, after 20 s on the loading screen, what has not loaded yet
/// (the sprites, the UI font) and in what state: a stalled download is
/// otherwise a loading bar that never moves.
fn report_slow_loading(
    time: Res<Time<Real>>,
    sprites: Option<Res<CardSprites>>,
    server: Res<AssetServer>,
    mut reported: Local<bool>,
) {
    if *reported || time.elapsed_secs() < 20.0 {
        return;
    }
    *reported = true;
    let describe = |id: bevy::asset::UntypedAssetId, path: String| {
        format!("{path} ({:?})", server.get_load_state(id))
    };
    let mut waiting: Vec<String> = sprites
        .iter()
        .flat_map(|s| s.0.iter())
        .filter(|h| !settled(&server, h))
        .map(|h| {
            let path = h.path().map(|p| p.to_string()).unwrap_or_default();
            describe(h.id().untyped(), path)
        })
        .collect();
    let font = super::assets::UI_FONT;
    match server.get_handle::<Font>(font) {
        Some(h) if !server.is_loaded_with_dependencies(h.id()) => {
            waiting.push(describe(h.id().untyped(), font.into()));
        }
        None => waiting.push(format!("{font} (not asked for)")),
        _ => {}
    }
    warn!("still loading after 20 s: {}", waiting.join(", "));
}

fn register_with_egui(
    mut contexts: EguiContexts,
    sprites: Option<Res<CardSprites>>,
    server: Res<AssetServer>,
    mut done: Local<bool>,
) -> Result {
    let Some(sprites) = sprites else {
        return Ok(());
    };
    if *done {
        return Ok(());
    }
    let textures = sprites
        .0
        .iter()
        .map(|h| {
            server
                .is_loaded_with_dependencies(h.id())
                .then(|| contexts.add_image(EguiTextureHandle::Strong(h.clone())))
        })
        .collect();
    let ctx = contexts.ctx_mut()?;
    ctx.data_mut(|d| d.insert_temp(egui::Id::new(TEXTURES_ID), CardTextures(textures)));
    *done = true;
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sprites)
        .add_systems(
            Update,
            (
                loading_progress.track_progress::<Screen>(),
                report_slow_loading,
            )
                .run_if(in_state(Screen::Loading)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            register_with_egui.run_if(not(in_state(Screen::Loading))),
        );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 3: "Each species has its own illustration ... Keep vector
    /// sources in the repo and the rasterised sprites in assets/."
    #[test]
    fn every_forest_card_has_its_illustration() {
        let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
        for c in deck().ids() {
            let key = &deck().card(c).key;
            let sprite = format!("{root}/assets/{}", sprite_path(c));
            let source = format!("{root}/art/cards/forest/{key}.svg");
            assert!(
                std::path::Path::new(&sprite).is_file(),
                "no sprite {sprite}"
            );
            assert!(
                std::path::Path::new(&source).is_file(),
                "no vector source {source}"
            );
        }
    }
}
