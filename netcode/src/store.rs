//! Tables on disk: one RON snapshot per table, replaced atomically (write a
//! temporary file, flush it to disk, rename it over the old one), and a
//! journal of the actions accepted since, a line each.
//!
//! When a journal line reaches the disk, against when anyone hears of its
//! action, is the operator's choice ([`JournalSync`]): flushed before the
//! answer (a power cut loses nothing), or written before the answer and
//! flushed by a thread of its own right after (a crash or kill of the
//! server still loses nothing; the answer does not wait for the disk).

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

/// When an accepted action's journal line is flushed to the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JournalSync {
    /// Written (to the operating system) before anyone hears of the
    /// action, so a crash or kill of the server loses nothing; flushed to
    /// the disk right after, by the store's own thread, so no answer
    /// waits for the disk. Only a power cut in those milliseconds can
    /// lose the last actions; the table then resumes from before them.
    #[default]
    AfterAnswer,
    /// Flushed to the disk before anyone hears of the action: not even a
    /// power cut loses it, and every answer waits for the disk's flush
    /// (on a virtual disk, a p99 of several milliseconds).
    BeforeAnswer,
}

pub struct TableStore {
    dir: PathBuf,
    sync: JournalSync,
    /// Flushes journals to the disk (`JournalSync::AfterAnswer` only),
    /// started with the first journal line.
    syncer: std::sync::OnceLock<Option<Syncer>>,
}

/// A thread that flushes written files to the disk, in the order they were
/// handed to it (a file handed again before its flush is flushed once).
struct Syncer {
    jobs: Option<std::sync::mpsc::Sender<(PathBuf, fs::File)>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Syncer {
    fn start() -> std::io::Result<Self> {
        let (jobs, queue) = std::sync::mpsc::channel::<(PathBuf, fs::File)>();
        let thread = std::thread::Builder::new()
            .name("foodweb-sync".into())
            .spawn(move || {
                while let Ok(first) = queue.recv() {
                    let mut batch = vec![first];
                    batch.extend(queue.try_iter());
                    // The newest handle of each path: one flush covers
                    // every line written through any of them.
                    let mut seen = std::collections::HashSet::new();
                    for (path, file) in batch.into_iter().rev() {
                        if seen.insert(path.clone())
                            && let Err(e) = file.sync_data()
                        {
                            eprintln!("foodweb: cannot flush {} to disk: {e}", path.display());
                        }
                    }
                }
            })?;
        Ok(Self {
            jobs: Some(jobs),
            thread: Some(thread),
        })
    }

    fn flush_later(&self, path: PathBuf, file: fs::File) {
        if let Some(jobs) = &self.jobs
            && let Err(std::sync::mpsc::SendError((_, file))) = jobs.send((path, file))
        {
            let _ = file.sync_data();
        }
    }
}

impl Drop for Syncer {
    /// Everything handed over is flushed before the store is gone (a clean
    /// exit, or a panic that unwinds).
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl TableStore {
    /// The store in `dir` (made if missing), journals flushed after the
    /// answer ([`JournalSync::AfterAnswer`]).
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, StoreError> {
        Self::open_with(dir, JournalSync::default())
    }

    pub fn open_with(dir: impl Into<PathBuf>, sync: JournalSync) -> Result<Self, StoreError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        Ok(Self {
            dir,
            sync,
            syncer: std::sync::OnceLock::new(),
        })
    }

    /// The syncing thread, if journals are flushed after the answer (and
    /// the thread could start: if not, they are flushed before it).
    fn syncer(&self) -> Option<&Syncer> {
        self.syncer
            .get_or_init(|| match self.sync {
                JournalSync::AfterAnswer => Syncer::start()
                    .inspect_err(|e| {
                        eprintln!("foodweb: no thread to flush journals ({e}): flushing each before its answer")
                    })
                    .ok(),
                JournalSync::BeforeAnswer => None,
            })
            .as_ref()
    }

    pub fn journal_sync(&self) -> JournalSync {
        self.sync
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

    /// Appends lines to `id`'s journal: written to the operating system
    /// before returning, and flushed to the disk before returning too
    /// (`BeforeAnswer`) or by the store's thread right after
    /// (`AfterAnswer`). A crash can cut only the last line short.
    pub fn append_journal(&self, id: &str, lines: &[String]) -> Result<(), StoreError> {
        let path = self.journal_path(id)?;
        // A new journal's name must reach the disk too: its folder is
        // flushed with it.
        let fresh = !path.exists();
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
        // A write cut short (a full disk) is taken back, so the journal
        // never holds half a line before lines written after it.
        let before = file.metadata().map_err(io(&path))?.len();
        if let Err(e) = file.write_all(text.as_bytes()) {
            let _ = file.set_len(before);
            return Err(io(&path)(e));
        }
        let dir = fresh.then(|| fs::File::open(&self.dir).ok()).flatten();
        match self.syncer() {
            Some(syncer) => {
                syncer.flush_later(path, file);
                if let Some(dir) = dir {
                    syncer.flush_later(self.dir.clone(), dir);
                }
                Ok(())
            }
            None => {
                file.sync_data().map_err(io(&path))?;
                if let Some(dir) = dir {
                    let _ = dir.sync_all();
                }
                Ok(())
            }
        }
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
