//! Reading a replay file: its format, its game, its order, its secrecy
//! (a seat's replay holds only that seat's views and notes), and that a
//! table's record, when it carries one, gives exactly its steps, which
//! plays the record again with the game's rules (`games`).

use serde::Deserialize;

use crate::games::replay;
use crate::replay::{REPLAY_FORMAT, Replay, ReplayError, Viewer};

impl Replay {
    /// Reads a replay file, and checks it: its format, its game, its
    /// order, that a seat's replay holds only that seat's views and notes
    /// and no record, and that a record gives exactly the steps.
    pub fn from_ron(text: &str) -> Result<Self, ReplayError> {
        #[derive(Deserialize)]
        struct Head {
            format: u32,
        }
        let head: Head = ron::from_str(text).map_err(|e| ReplayError::Parse(e.to_string()))?;
        if head.format != REPLAY_FORMAT {
            return Err(ReplayError::Format(head.format));
        }
        let replay: Self = ron::from_str(text).map_err(|e| ReplayError::Parse(e.to_string()))?;
        replay.check()?;
        Ok(replay)
    }

    fn check(&self) -> Result<(), ReplayError> {
        if self.steps.is_empty() {
            return Err(ReplayError::Empty);
        }
        for (i, step) in self.steps.iter().enumerate() {
            if step.view.game() != self.game {
                return Err(ReplayError::OtherGame(i));
            }
            if i > 0 && step.revision <= self.steps[i - 1].revision {
                return Err(ReplayError::Order(i));
            }
            if let Viewer::Seat(seat) = self.viewer
                && (step.view.viewer() != Some(seat) || !step.seats.is_empty())
            {
                return Err(ReplayError::OtherSeat(i));
            }
        }
        match (self.viewer, &self.record) {
            (Viewer::Seat(seat), record) => {
                if record.is_some() {
                    return Err(ReplayError::RecordInSeatReplay);
                }
                if let Some(i) = self.notes.iter().position(|n| n.seat != seat) {
                    return Err(ReplayError::OtherNote(i));
                }
            }
            (Viewer::Everything, Some(record)) => {
                let rebuilt = replay(self.game, record, Viewer::Everything)?;
                if rebuilt.steps != self.steps {
                    return Err(ReplayError::RecordMismatch);
                }
            }
            (Viewer::Everything, None) => {}
        }
        Ok(())
    }
}
