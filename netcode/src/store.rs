//! Tables on disk: one RON snapshot per table, replaced atomically (write a
//! temporary file, flush it to disk, rename it over the old one).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use foodweb_rules::table::{Game, SnapshotError, TableSnapshot};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("table id '{0}' may use only letters, digits, '-' and '_'")]
    BadId(String),
    #[error("no saved table '{0}'")]
    Missing(String),
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("saved table {path} is refused: {source}")]
    Corrupt {
        path: PathBuf,
        source: SnapshotError,
    },
    #[error("saved table {path} is refused: {reason}")]
    Unreadable { path: PathBuf, reason: String },
}

pub struct TableStore {
    dir: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl TableStore {
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, StoreError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        Ok(Self { dir })
    }

    fn path(&self, id: &str) -> Result<PathBuf, StoreError> {
        let ok = !id.is_empty()
            && id.len() <= 64
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(StoreError::BadId(id.to_string()));
        }
        Ok(self.dir.join(format!("{id}.table.ron")))
    }

    /// Saves a table. Either the old file or the new one is on disk at every
    /// moment; never a part of either.
    pub fn save<G: Game>(&self, id: &str, snapshot: &TableSnapshot<G>) -> Result<(), StoreError> {
        self.save_text(id, &snapshot.to_ron())
    }

    pub fn load<G: Game>(&self, id: &str) -> Result<TableSnapshot<G>, StoreError> {
        let (path, text) = self.read(id)?;
        TableSnapshot::from_ron(&text).map_err(|source| StoreError::Corrupt { path, source })
    }

    /// Saves any text under `id`, atomically (as [`TableStore::save`]).
    pub fn save_text(&self, id: &str, text: &str) -> Result<(), StoreError> {
        let path = self.path(id)?;
        let tmp = path.with_extension("ron.tmp");
        {
            // Written and synced, and closed before the rename.
            let mut file = fs::File::create(&tmp).map_err(io(&tmp))?;
            file.write_all(text.as_bytes()).map_err(io(&tmp))?;
            file.sync_all().map_err(io(&tmp))?;
        }
        fs::rename(&tmp, &path).map_err(io(&path))?;
        if let Ok(dir) = fs::File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// The saved text under `id` and the file it came from.
    pub fn read(&self, id: &str) -> Result<(PathBuf, String), StoreError> {
        let path = self.path(id)?;
        match fs::read_to_string(&path) {
            Ok(text) => Ok((path, text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(StoreError::Missing(id.to_string()))
            }
            Err(e) => Err(io(&path)(e)),
        }
    }

    fn journal_path(&self, id: &str) -> Result<PathBuf, StoreError> {
        Ok(self.path(id)?.with_extension("").with_extension("journal"))
    }

    /// Appends lines to `id`'s journal and flushes them to disk before
    /// returning. A crash can cut only the last line short.
    pub fn append_journal(&self, id: &str, lines: &[String]) -> Result<(), StoreError> {
        let path = self.journal_path(id)?;
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        let mut text = String::new();
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        file.write_all(text.as_bytes()).map_err(io(&path))?;
        file.sync_data().map_err(io(&path))
    }

    /// The journal's lines; empty when there is none.
    pub fn read_journal(&self, id: &str) -> Result<(PathBuf, Vec<String>), StoreError> {
        let path = self.journal_path(id)?;
        match fs::read_to_string(&path) {
            Ok(text) => Ok((path, text.lines().map(str::to_string).collect())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((path, Vec::new())),
            Err(e) => Err(io(&path)(e)),
        }
    }

    /// Empties `id`'s journal (after a snapshot took in what it held).
    pub fn clear_journal(&self, id: &str) -> Result<(), StoreError> {
        let path = self.journal_path(id)?;
        match fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io(&path)(e)),
        }
    }

    /// Deletes `id`'s record and journal (a table abandoned before it
    /// started). Missing files are no error.
    pub fn remove(&self, id: &str) -> Result<(), StoreError> {
        self.clear_journal(id)?;
        let path = self.path(id)?;
        match fs::remove_file(&path) {
            Ok(()) => {
                if let Ok(dir) = fs::File::open(&self.dir) {
                    let _ = dir.sync_all();
                }
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io(&path)(e)),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Ids of the saved tables, sorted.
    pub fn list(&self) -> Result<Vec<String>, StoreError> {
        let mut ids: Vec<String> = fs::read_dir(&self.dir)
            .map_err(io(&self.dir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".table.ron"))
                    .map(str::to_string)
            })
            .collect();
        ids.sort();
        Ok(ids)
    }
}
