//! Loading screen work: the asset collections, loaded with a progress bar
//! (bevy_asset_loader with iyes_progress).

use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use iyes_progress::ProgressPlugin;

use super::Screen;

#[derive(AssetCollection, Resource)]
pub struct UiAssets {
    /// Noto Sans CJK SC, cut down by `tools/subset-cjk-font.py`.
    #[asset(path = "fonts/FoodwebCJK.otf")]
    pub cjk_font: Handle<Font>,
}

/// The assets folder: beside the executable's crate when run with cargo,
/// or `FOODWEB_ASSETS` when set.
pub fn asset_dir() -> String {
    // A browser fetches them beside the page.
    if cfg!(target_arch = "wasm32") {
        return "assets".into();
    }
    if let Ok(dir) = std::env::var("FOODWEB_ASSETS") {
        return dir;
    }
    let manifest_assets = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
    if std::path::Path::new(manifest_assets).is_dir() {
        manifest_assets.to_string()
    } else {
        "assets".to_string()
    }
}

pub fn plugin(app: &mut App) {
    app.add_plugins(
        ProgressPlugin::<Screen>::new().with_state_transition(Screen::Loading, Screen::Title),
    )
    .add_loading_state(LoadingState::new(Screen::Loading).load_collection::<UiAssets>());
}
