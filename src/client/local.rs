//! Local play: a table in this process, bots in the other seats, the clock
//! driven by real time. Screens reach it only through seat-scoped calls
//! (the seat's view, its feed, its actions), never the table's world.

use bevy::prelude::*;
use foodweb_rules::bot::Bot;
use foodweb_rules::forest::{ForestAction, ForestGame, ForestView};
use foodweb_rules::table::{Announcement, PrivateNote, Rejection, SeatId, Table, TableConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Screen;

/// Seconds a bot waits before it acts, so people can follow the table.
const BOT_PAUSE_SECS: f32 = 1.1;

pub struct LocalForest {
    table: Table<ForestGame>,
    me: SeatId,
    bots: Vec<Option<Box<dyn Bot<ForestGame>>>>,
    bot_rng: ChaCha8Rng,
    clock_ms: f64,
    bot_wait: f32,
}

impl LocalForest {
    pub fn new(
        config: TableConfig<ForestGame>,
        me: SeatId,
        bots: Vec<Option<Box<dyn Bot<ForestGame>>>>,
    ) -> Result<Self, Rejection> {
        let seed = config.seed;
        Ok(Self {
            table: Table::new(config)?,
            me,
            bots,
            bot_rng: ChaCha8Rng::seed_from_u64(seed ^ 0xb075),
            clock_ms: 0.0,
            bot_wait: BOT_PAUSE_SECS,
        })
    }

    pub fn view(&self) -> ForestView {
        self.table.view(self.me)
    }

    pub fn public_feed(&self) -> &[Announcement] {
        &self.table.announcements().public
    }

    pub fn my_notes(&self) -> Vec<PrivateNote> {
        self.table.announcements().notes_for(self.me)
    }

    pub fn submit(&mut self, action: ForestAction) -> Result<(), Rejection> {
        self.table.submit(self.me, action)
    }

    /// Moves the table on by `secs` of real time and lets one bot act.
    fn tick(&mut self, secs: f32) {
        if self.table.is_over() {
            return;
        }
        self.clock_ms += f64::from(secs) * 1000.0;
        self.table.advance_to(self.clock_ms as u64);
        self.bot_wait -= secs;
        if self.bot_wait > 0.0 {
            return;
        }
        let waiting = self.table.to_act();
        let Some(seat) = waiting.into_iter().find(|s| self.bots[s.index()].is_some()) else {
            return;
        };
        let view = self.table.view(seat);
        if let Some(bot) = self.bots[seat.index()].as_mut()
            && let Some(action) = bot.act(&view, &mut self.bot_rng)
            && let Err(e) = self.table.submit(seat, action)
        {
            warn!("bot at seat {seat} was refused: {e}");
        }
        self.bot_wait = BOT_PAUSE_SECS;
    }
}

fn drive(time: Res<Time<Real>>, local: Option<NonSendMut<LocalForest>>) {
    if let Some(mut local) = local {
        local.tick(time.delta_secs().min(0.25));
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, drive.run_if(in_state(Screen::Table)));
}
