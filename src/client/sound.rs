//! The table heard as well as seen (issue 39): short sounds for the
//! moments that matter, each triggered by what the seat's own views say,
//! like the motion (`scene`): the deal, a card turned, a capture, a
//! challenge won or lost, a room battle, gas, the die, a duel's clash, a
//! death, a wisdom guess, your turn, the clock's last five seconds, the
//! game's end.
//!
//! [`heard`] is the whole rule: it compares the seat's view before and
//! after an update, through each game's [`Hear`], and nothing else: a
//! sound can only tell what the view shows, so no seat hears another's
//! secret (a view that did not change, as when another seat acts in
//! secret, sounds nothing; `games::<game>::sound`'s tests hold every game
//! to it over whole bot games).
//!
//! The sounds are Ogg Vorbis files in `assets/sounds/`, synthesised by
//! `tools/make-sounds.py` from `art/sounds/sounds.toml`; each game's are
//! loaded behind its progress bar, with its art. Playing them needs Bevy's
//! audio, which the browser build always has and the desktop build has
//! with the `audio` feature (ALSA's development package on Linux, README):
//! without it the cues are still worked out (and counted in the screen's
//! account), and nothing plays. The player's settings have a sound switch
//! and a volume, apart from the motion: "Motion: off" leaves the sound on.

use bevy::prelude::*;
use foodweb_netcode::any::HostGame;
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;
use foodweb_rules::table::SeatView;

use super::Screen;
#[cfg(any(feature = "audio", target_arch = "wasm32"))]
use super::UserSettings;
use super::net::SeatSide;
use super::reach::SoundCount;
use super::replay::Replaying;
use super::screens::table::Countdown;

/// A moment the table sounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cue {
    /// Cards dealt (a new game, a new round's hands).
    Deal,
    /// A card turned over for the table to see.
    Flip,
    /// One animal took another.
    Capture,
    /// A challenge was right.
    ChallengeWon,
    /// A challenge was wrong.
    ChallengeLost,
    /// A room battle in the settlement.
    Battle,
    /// A floor gassed.
    Gas,
    /// The die thrown.
    Die,
    /// A duel's throw, or a blow in the settlement.
    Clash,
    /// A player died (or became a shadow).
    Death,
    /// A wisdom guess made.
    Wisdom,
    /// The seat may act now (it could not a moment ago).
    YourTurn,
    /// One of the last five seconds of the seat's clock.
    Tick,
    /// The game's end, won (first place).
    Win,
    /// The game's end, not won.
    End,
}

#[cfg_attr(
    not(any(feature = "audio", target_arch = "wasm32")),
    allow(
        dead_code,
        reason = "played with Bevy's audio only (the tests read them too)"
    )
)]
impl Cue {
    /// Every cue (the tests hold each to its sound file).
    #[cfg(test)]
    pub const ALL: [Cue; 15] = [
        Cue::Deal,
        Cue::Flip,
        Cue::Capture,
        Cue::ChallengeWon,
        Cue::ChallengeLost,
        Cue::Battle,
        Cue::Gas,
        Cue::Die,
        Cue::Clash,
        Cue::Death,
        Cue::Wisdom,
        Cue::YourTurn,
        Cue::Tick,
        Cue::Win,
        Cue::End,
    ];

    /// Every game sounds these (what [`heard`] works out for all).
    pub const COMMON: [Cue; 5] = [Cue::Deal, Cue::YourTurn, Cue::Tick, Cue::Win, Cue::End];

    /// The sound's name in `art/sounds/sounds.toml` and its file under
    /// `assets/`.
    pub fn name(self) -> &'static str {
        match self {
            Cue::Deal => "deal",
            Cue::Flip => "flip",
            Cue::Capture => "capture",
            Cue::ChallengeWon => "challenge-won",
            Cue::ChallengeLost => "challenge-lost",
            Cue::Battle => "battle",
            Cue::Gas => "gas",
            Cue::Die => "die",
            Cue::Clash => "clash",
            Cue::Death => "death",
            Cue::Wisdom => "wisdom",
            Cue::YourTurn => "your-turn",
            Cue::Tick => "tick",
            Cue::Win => "win",
            Cue::End => "end",
        }
    }

    pub fn path(self) -> String {
        format!("sounds/{}.ogg", self.name())
    }
}

/// The last seconds of a clock that tick.
pub const TICK_SECONDS: u64 = 5;

/// What a game's views say for sound: the game's own moments (the common
/// ones come from its views' `SeatView`: whose view, to act, the result).
pub trait Hear: HostGame<View: PartialEq + Send + Sync> {
    /// The game's own moments, beyond [`Cue::COMMON`].
    #[cfg_attr(
        not(any(feature = "audio", target_arch = "wasm32")),
        allow(
            dead_code,
            reason = "played with Bevy's audio only (the tests read them too)"
        )
    )]
    const CUES: &'static [Cue];
    /// The game's own moments between two views of one seat, in order.
    fn cues(before: &Self::View, after: &Self::View, out: &mut Vec<Cue>);
    /// The view is of a game just dealt (so a table opened at its start
    /// hears the deal, and one joined later does not).
    fn fresh(view: &Self::View) -> bool;
    /// The clock the seat is shown ticking: the view's time and the
    /// deadline (table time, ms).
    fn clock(view: &Self::View) -> (u64, Option<u64>);
}

/// What one seat hears when its view goes from `before` to `after` (no
/// clock ticks: [`ticks`]). `before` is `None` for the first view of a
/// table: only a fresh deal sounds then.
pub fn heard<G: Hear>(before: Option<&G::View>, after: &G::View) -> Vec<Cue> {
    let mut out = Vec::new();
    let Some(before) = before else {
        if G::fresh(after) {
            out.push(Cue::Deal);
        }
        return out;
    };
    if before == after {
        return out;
    }
    G::cues(before, after, &mut out);
    if before.result().is_none()
        && let Some(result) = after.result()
    {
        let won = after
            .me()
            .is_some_and(|s| result.places.get(s.index()) == Some(&1));
        out.push(if won { Cue::Win } else { Cue::End });
    } else if !before.to_act() && after.to_act() {
        out.push(Cue::YourTurn);
    }
    out.dedup();
    out
}

/// The whole seconds left on a clock at `left_ms` that tick: 1 to
/// [`TICK_SECONDS`] (the second it is in, counted down), else `None`.
pub fn tick_second(left_ms: Option<u64>) -> Option<u64> {
    let left = left_ms?;
    let second = left.div_ceil(1000);
    (1..=TICK_SECONDS).contains(&second).then_some(second)
}

/// A cue to play this frame.
#[derive(Message, Clone, Copy, Debug)]
pub struct Heard(pub Cue);

/// What the seat's table last sounded from (per game).
struct Ear<G: Hear> {
    revision: u64,
    view: Option<G::View>,
    /// The table's clock, as the top bar counts it.
    clock: Countdown,
    second: Option<u64>,
}

impl<G: Hear> Default for Ear<G> {
    fn default() -> Self {
        Self {
            revision: u64::MAX,
            view: None,
            clock: Countdown::default(),
            second: None,
        }
    }
}

/// Listens to the seat's views of a `G` table: each new view's cues, and
/// the clock's last seconds while the seat may act.
#[allow(clippy::too_many_arguments)]
fn listen<G: Hear>(
    mut ear: Local<Ear<G>>,
    model: Res<ClientModel>,
    replay: Option<Res<Replaying>>,
    time: Res<Time<Real>>,
    mut out: MessageWriter<Heard>,
    mut count: ResMut<SoundCount>,
    alarm: Res<crate::client::wake::Alarm>,
) {
    let Some(view) = model.view_of::<G>() else {
        *ear = Ear::default();
        return;
    };
    // A replay's views jump about: it is watched quietly.
    if replay.is_some_and(|r| r.on) {
        ear.view = Some(view.clone());
        ear.revision = model.revision;
        return;
    }
    let mut cues = Vec::new();
    let now = time.elapsed_secs_f64();
    if ear.revision != model.revision {
        cues = heard::<G>(ear.view.as_ref(), view);
        ear.revision = model.revision;
        ear.view = Some(view.clone());
    }
    // The table's clock, as the top bar's (`screens::table::Countdown`).
    let paused = model.lobby.as_ref().is_some_and(|l| l.paused);
    let (view_now, deadline) = G::clock(view);
    let table_now = ear.clock.table_now_ms(&model, now, view_now, paused);
    let left = deadline.map(|d| d.saturating_sub(table_now));
    let second = view.to_act().then(|| tick_second(left)).flatten();
    if second.is_some() && second != ear.second {
        cues.push(Cue::Tick);
    }
    // The next tick is heard on time however still the screen is.
    if let Some(left) = left.filter(|l| view.to_act() && *l <= (TICK_SECONDS + 1) * 1000) {
        alarm.after(crate::client::widgets::next_second(left));
    }
    ear.second = second;
    for cue in cues {
        count.heard += 1;
        out.write(Heard(cue));
    }
}

/// The sounds of a game: [`Cue::COMMON`] and its own, loaded with its art
/// behind its progress bar (and kept while the program runs).
#[cfg(any(feature = "audio", target_arch = "wasm32"))]
#[derive(Resource)]
pub struct GameSounds<G: Hear> {
    _handles: Vec<Handle<bevy::audio::AudioSource>>,
    game: std::marker::PhantomData<G>,
}

#[cfg(any(feature = "audio", target_arch = "wasm32"))]
impl<G: Hear> GameSounds<G> {
    fn cues() -> impl Iterator<Item = Cue> {
        Cue::COMMON.into_iter().chain(G::CUES.iter().copied())
    }
}

#[cfg(any(feature = "audio", target_arch = "wasm32"))]
impl<G: Hear> bevy_asset_loader::asset_collection::AssetCollection for GameSounds<G> {
    fn create(world: &mut World) -> Self {
        let server = world.resource::<AssetServer>();
        Self {
            _handles: Self::cues().map(|c| server.load(c.path())).collect(),
            game: std::marker::PhantomData,
        }
    }

    fn load(world: &mut World) -> Vec<UntypedHandle> {
        let server = world.resource::<AssetServer>();
        Self::cues()
            .map(|c| server.load::<bevy::audio::AudioSource>(c.path()).untyped())
            .collect()
    }
}

/// Plays this frame's cues (each once), at the player's volume.
#[cfg(any(feature = "audio", target_arch = "wasm32"))]
fn play(
    mut heard: MessageReader<Heard>,
    settings: Res<UserSettings>,
    server: Res<AssetServer>,
    mut count: ResMut<SoundCount>,
    mut commands: Commands,
) {
    let mut cues: Vec<Cue> = heard.read().map(|h| h.0).collect();
    if !settings.sound || settings.volume == 0 {
        return;
    }
    cues.sort();
    cues.dedup();
    let volume = bevy::audio::Volume::Linear(f32::from(settings.volume.min(100)) / 100.0);
    for cue in cues {
        count.played += 1;
        commands.spawn((
            AudioPlayer::<bevy::audio::AudioSource>::new(server.load(cue.path())),
            PlaybackSettings::DESPAWN.with_volume(volume),
            DespawnOnExit(Screen::Table),
        ));
    }
}

/// Without Bevy's audio, the cues are read and let go.
#[cfg(not(any(feature = "audio", target_arch = "wasm32")))]
fn play(mut heard: MessageReader<Heard>) {
    for Heard(cue) in heard.read() {
        debug!(
            "sound {} (this build has no audio: the `audio` feature)",
            cue.name()
        );
    }
}

/// Registers a game's sounds: its listener at its tables, and its sounds
/// loaded with its art (`assets::game_art`).
pub fn game_sounds<G: Hear>(app: &mut App, game: GameId) {
    app.add_systems(
        Update,
        listen::<G>.run_if(in_state(Screen::Table)).before(play),
    );
    #[cfg(any(feature = "audio", target_arch = "wasm32"))]
    {
        use bevy_asset_loader::prelude::*;
        app.configure_loading_state(
            LoadingStateConfig::new(super::assets::ArtLoad::Game(game))
                .load_collection::<GameSounds<G>>(),
        );
    }
    #[cfg(not(any(feature = "audio", target_arch = "wasm32")))]
    let _ = game;
}

pub fn plugin(app: &mut App) {
    app.add_message::<Heard>()
        .init_resource::<SoundCount>()
        .add_systems(Update, play);
}

#[cfg(test)]
pub mod tests {
    use std::collections::BTreeSet;

    use foodweb_rules::table::{Table, TableConfig};

    use crate::client::games::marks::play_bot_games;

    use super::*;

    /// Plays a bot game of `G` for each table `config` gives, every seat
    /// hearing its own views after every step, and returns the cues heard.
    /// It checks, for every seat at every step, that a view that did not
    /// change (another seat acting in secret, the clock alone moving)
    /// sounds nothing, and that what a seat hears is what its views say
    /// (nothing but `heard` of them: [`Hear`] sees no world).
    pub fn hear_whole_games<G: Hear>(
        configs: impl IntoIterator<Item = TableConfig<G>>,
        bot: &str,
    ) -> BTreeSet<Cue> {
        let mut all = BTreeSet::new();
        let mut last: Vec<Option<G::View>> = Vec::new();
        play_bot_games(configs, bot, |table: &Table<G>, seed, step| {
            if step == 0 {
                last.clear();
            }
            for seat in table.config().seats.ids() {
                let view = table.view(seat);
                if last.len() <= seat.index() {
                    last.resize(seat.index() + 1, None);
                }
                let before = last[seat.index()].as_ref();
                let cues = heard::<G>(before, &view);
                // The same view but for the time: nothing to hear.
                if before.is_some_and(|b| same_but_time::<G>(b, &view)) {
                    assert!(
                        cues.is_empty(),
                        "seed {seed}, step {step}, seat {seat}: heard {cues:?} from a view that did not change"
                    );
                }
                all.extend(cues);
                last[seat.index()] = Some(view);
            }
        });
        all
    }

    /// Every moment `G` lists (but the clock's ticks, which [`listen`]
    /// works out from the running clock: `the_last_five_seconds_tick`)
    /// sounds for some seat in whole bot games of `configs`, and nothing
    /// else does; and a seat's view that did not change sounds nothing.
    pub fn every_moment_sounds<G: Hear>(
        configs: impl IntoIterator<Item = TableConfig<G>>,
        bot: &str,
    ) {
        let heard = hear_whole_games::<G>(configs, bot);
        let listed: Vec<Cue> = Cue::COMMON.iter().chain(G::CUES).copied().collect();
        for cue in &listed {
            if *cue != Cue::Tick {
                assert!(
                    heard.contains(cue),
                    "{:?}: no {cue:?} in the games: {heard:?}",
                    G::ID
                );
            }
        }
        for cue in &heard {
            assert!(
                listed.contains(cue),
                "{:?} sounded {cue:?}, which it does not list",
                G::ID
            );
        }
    }

    /// Whether `after` is `before` but for the clock's fields.
    fn same_but_time<G: Hear>(before: &G::View, after: &G::View) -> bool {
        // The views' time fields differ with every step; a game's view
        // with only them changed serialises the same once they are blanked.
        let blank = |v: &G::View| {
            let mut value = serde_json::to_value(v).expect("a view serialises");
            if let Some(map) = value.as_object_mut() {
                for key in ["now_ms", "deadline_ms", "my_deadline_ms", "round_ends_ms"] {
                    map.remove(key);
                }
            }
            value
        };
        blank(before) == blank(after)
    }

    /// Every sound a game may make has its file, an Ogg stream, and its
    /// parameters in art/sounds/sounds.toml.
    #[test]
    fn every_cue_has_its_sound() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let spec = std::fs::read_to_string(root.join("art/sounds/sounds.toml")).unwrap();
        for cue in Cue::ALL {
            let file = root.join("assets").join(cue.path());
            let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert!(
                bytes.starts_with(b"OggS"),
                "{} is not an Ogg stream",
                file.display()
            );
            assert!(
                bytes.windows(7).any(|w| w == b"\x01vorbis"),
                "{} is not Vorbis",
                file.display()
            );
            assert!(
                spec.contains(&format!("\n[{}]\n", cue.name())),
                "art/sounds/sounds.toml has no [{}]",
                cue.name()
            );
        }
    }

    #[test]
    fn the_last_five_seconds_tick() {
        assert_eq!(tick_second(None), None);
        assert_eq!(tick_second(Some(5_001)), None);
        assert_eq!(tick_second(Some(5_000)), Some(5));
        assert_eq!(tick_second(Some(4_200)), Some(5));
        assert_eq!(tick_second(Some(1)), Some(1));
        assert_eq!(tick_second(Some(0)), None);
    }
}
