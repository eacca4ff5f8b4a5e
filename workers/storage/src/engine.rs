//! The durable log in redb: every revision's record, the leases and a little metadata.
//!
//! The in-memory index (`mvcc`) answers every read; this file is written by the writer
//! thread, one redb transaction per group commit (redb's `Immediate` durability fsyncs
//! before `commit` returns), and read once at open to rebuild the index.

use std::path::{Path, PathBuf};

use redb::{ReadableDatabase, ReadableTable, TableDefinition};

use crate::error::Error;

/// `(main revision, sub revision)` → `tag byte + mvccpb.KeyValue` (tag 0 put, 1 tombstone).
const REVS: TableDefinition<(i64, i64), &[u8]> = TableDefinition::new("revs");
/// Lease id → granted TTL in seconds.
const LEASES: TableDefinition<i64, i64> = TableDefinition::new("leases");
/// Store metadata (`compact_rev`, `cluster_id`, `member_id`).
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

const META_COMPACT_REV: &str = "compact_rev";
const META_CLUSTER_ID: &str = "cluster_id";
const META_MEMBER_ID: &str = "member_id";

/// One change to the durable state, produced by `mvcc` while it applies a write.
#[derive(Debug)]
pub(crate) enum EngineOp {
    PutRev {
        main: i64,
        sub: i64,
        record: Vec<u8>,
    },
    DelRev {
        main: i64,
        sub: i64,
    },
    PutLease {
        id: i64,
        ttl: i64,
    },
    DelLease {
        id: i64,
    },
    CompactRev(i64),
}

/// What the engine holds besides the revisions, read at open.
#[derive(Debug)]
pub(crate) struct Meta {
    pub(crate) compact_rev: i64,
    pub(crate) cluster_id: u64,
    pub(crate) member_id: u64,
    pub(crate) leases: Vec<(i64, i64)>,
}

/// The open database.
pub(crate) struct Engine {
    db: redb::Database,
    path: PathBuf,
}

fn engine_err(e: impl Into<redb::Error>) -> Error {
    Error::Engine(e.into())
}

impl Engine {
    /// Opens (or creates) `store.redb` in `dir` and makes sure every table exists; redb
    /// caches at most `cache_bytes` of the file's pages.
    pub(crate) fn open(dir: &Path, cache_bytes: usize) -> Result<(Engine, Meta), Error> {
        std::fs::create_dir_all(dir).map_err(|source| Error::CreateDataDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join("store.redb");
        let db = redb::Builder::new()
            .set_cache_size(cache_bytes)
            .create(&path)
            .map_err(|e| Error::OpenEngine {
                path: path.clone(),
                source: e.into(),
            })?;
        let tx = db.begin_write().map_err(engine_err)?;
        let meta = {
            tx.open_table(REVS).map_err(engine_err)?;
            let leases_t = tx.open_table(LEASES).map_err(engine_err)?;
            let mut meta_t = tx.open_table(META).map_err(engine_err)?;
            let mut get_or_init = |name: &str| -> Result<u64, Error> {
                if let Some(v) = meta_t.get(name).map_err(engine_err)? {
                    return Ok(v.value());
                }
                // Ids are random and non-zero, like etcd's.
                let id = rand::random::<u64>() | 1;
                meta_t.insert(name, id).map_err(engine_err)?;
                Ok(id)
            };
            let cluster_id = get_or_init(META_CLUSTER_ID)?;
            let member_id = get_or_init(META_MEMBER_ID)?;
            let compact_rev = meta_t
                .get(META_COMPACT_REV)
                .map_err(engine_err)?
                .map(|v| v.value())
                .unwrap_or(0);
            let mut leases = Vec::new();
            for row in leases_t.iter().map_err(engine_err)? {
                let (id, ttl) = row.map_err(engine_err)?;
                leases.push((id.value(), ttl.value()));
            }
            Meta {
                compact_rev: i64::try_from(compact_rev)
                    .map_err(|_| Error::Corrupt(format!("compact revision {compact_rev}")))?,
                cluster_id,
                member_id,
                leases,
            }
        };
        tx.commit().map_err(engine_err)?;
        Ok((Engine { db, path }, meta))
    }

    /// Calls `f` with every stored revision record, in revision order.
    pub(crate) fn for_each_rev(
        &self,
        mut f: impl FnMut(i64, i64, &[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let tx = self.db.begin_read().map_err(engine_err)?;
        let table = tx.open_table(REVS).map_err(engine_err)?;
        for row in table.iter().map_err(engine_err)? {
            let (k, v) = row.map_err(engine_err)?;
            let (main, sub) = k.value();
            f(main, sub, v.value())?;
        }
        Ok(())
    }

    /// Applies `ops` in one transaction and returns once it is durable.
    pub(crate) fn commit(&self, ops: &[EngineOp]) -> Result<(), redb::Error> {
        let mut tx = self.db.begin_write()?;
        tx.set_durability(redb::Durability::Immediate)?;
        {
            let mut revs = tx.open_table(REVS)?;
            let mut leases = tx.open_table(LEASES)?;
            let mut meta = tx.open_table(META)?;
            for op in ops {
                match op {
                    EngineOp::PutRev { main, sub, record } => {
                        revs.insert((*main, *sub), record.as_slice())?;
                    }
                    EngineOp::DelRev { main, sub } => {
                        revs.remove((*main, *sub))?;
                    }
                    EngineOp::PutLease { id, ttl } => {
                        leases.insert(*id, *ttl)?;
                    }
                    EngineOp::DelLease { id } => {
                        leases.remove(*id)?;
                    }
                    EngineOp::CompactRev(rev) => {
                        meta.insert(META_COMPACT_REV, u64::try_from(*rev).unwrap_or(0))?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Rewrites the file without its free pages and gives the space back to the file
    /// system (etcd's defragmentation). No transaction may be open: only the writer,
    /// between commits, calls it.
    pub(crate) fn defragment(&mut self) -> Result<(), redb::Error> {
        self.db.compact()?;
        Ok(())
    }

    /// A consistent view of everything committed, for a snapshot; writes go on meanwhile.
    pub(crate) fn begin_snapshot(&self) -> Result<redb::ReadTransaction, redb::Error> {
        Ok(self.db.begin_read()?)
    }

    /// Writes what `view` sees into a new database file at `path`: a `store.redb` a
    /// store opens as it opens its own (the snapshot's format).
    pub(crate) fn write_snapshot(view: &redb::ReadTransaction, path: &Path) -> Result<(), Error> {
        let db = redb::Builder::new()
            .set_cache_size(4 * 1024 * 1024)
            .create(path)
            .map_err(engine_err)?;
        let tx = db.begin_write().map_err(engine_err)?;
        copy_table(view, &tx, REVS)?;
        copy_table(view, &tx, LEASES)?;
        copy_table(view, &tx, META)?;
        tx.commit().map_err(engine_err)?;
        Ok(())
    }

    /// Size of the database file in bytes (0 if it cannot be read).
    pub(crate) fn file_size(path: &Path) -> i64 {
        std::fs::metadata(path)
            .map(|m| i64::try_from(m.len()).unwrap_or(i64::MAX))
            .unwrap_or(0)
    }

    /// Path of the database file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Copies every row of `table` as `view` sees it into `tx`.
fn copy_table<K: redb::Key + 'static, V: redb::Value + 'static>(
    view: &redb::ReadTransaction,
    tx: &redb::WriteTransaction,
    table: TableDefinition<K, V>,
) -> Result<(), Error> {
    let mut to = tx.open_table(table).map_err(engine_err)?;
    let from = view.open_table(table).map_err(engine_err)?;
    for row in from.iter().map_err(engine_err)? {
        let (k, v) = row.map_err(engine_err)?;
        to.insert(k.value(), v.value()).map_err(engine_err)?;
    }
    Ok(())
}
