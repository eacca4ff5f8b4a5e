//! Maintenance.Snapshot's stream: a consistent copy of the store written beside it, then
//! sent in etcd's chunks and followed, as etcd's, by the sha256 of what came before
//! (etcdctl refuses a snapshot without it; `--restore-snapshot` checks it).

use std::io::Read;
use std::path::Path;

use tokio::sync::mpsc;
use tonic::Status;

use crate::engine::Engine;
use crate::error::Error;
use crate::pb::etcdserverpb::{ResponseHeader, SnapshotResponse};
use crate::service::ETCD_VERSION;

/// etcd's snapshot chunk size.
const CHUNK: usize = 32 * 1024;
/// The checksum's length after the database bytes.
const SHA256_LEN: u64 = 32;

/// Writes what `view` sees to `path`, then sends the file through `tx` and removes it.
/// Blocks; a client that goes away ends it early.
pub(crate) fn stream(
    view: &redb::ReadTransaction,
    path: &Path,
    header: ResponseHeader,
    tx: &mpsc::Sender<Result<SnapshotResponse, Status>>,
) -> Result<(), Error> {
    let written = Engine::write_snapshot(view, path);
    let opened = written.and_then(|()| {
        std::fs::File::open(path).map_err(|source| Error::Snapshot {
            path: path.to_path_buf(),
            source,
        })
    });
    // Open or not, the file goes now: an open one is read to its end all the same.
    let _ = std::fs::remove_file(path);
    let mut file = opened?;
    let io = |source| Error::Snapshot {
        path: path.to_path_buf(),
        source,
    };
    let size = file.metadata().map_err(io)?.len();
    let mut remaining = size + SHA256_LEN;
    let mut hash = ring::digest::Context::new(&ring::digest::SHA256);
    let mut buf = vec![0u8; CHUNK];
    let chunk = |blob: &[u8], remaining: u64| SnapshotResponse {
        header: Some(header),
        remaining_bytes: remaining,
        blob: blob.to_vec().into(),
        version: ETCD_VERSION.to_owned(),
    };
    let mut sent = 0;
    while sent < size {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            // The file is unlinked and ours alone: it cannot shrink.
            return Err(io(std::io::ErrorKind::UnexpectedEof.into()));
        }
        sent += n as u64;
        remaining -= n as u64;
        hash.update(&buf[..n]);
        if tx.blocking_send(Ok(chunk(&buf[..n], remaining))).is_err() {
            return Ok(());
        }
    }
    let _ = tx.blocking_send(Ok(chunk(hash.finish().as_ref(), 0)));
    Ok(())
}

/// Restores the snapshot file `snapshot` (as `etcdctl snapshot save` wrote it) as the store
/// of `store_dir`, which must not hold one yet: the database bytes are checked against
/// the sha256 after them and written to `store_dir/store.redb`. Blocks.
pub fn restore(snapshot: &Path, store_dir: &Path) -> Result<(), Error> {
    let target = store_dir.join("store.redb");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Snapshot { path, source }
    };
    let invalid = |why: &str| Error::Snapshot {
        path: snapshot.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_owned()),
    };
    if target.exists() {
        return Err(Error::Snapshot {
            path: target,
            source: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "a store is already there: restore into a fresh data dir",
            ),
        });
    }
    let mut file = std::fs::File::open(snapshot).map_err(io(snapshot))?;
    let size = file.metadata().map_err(io(snapshot))?.len();
    // etcd's test for a snapshot's checksum: it ends the file, past a whole 512-byte block.
    if size < SHA256_LEN || size % 512 != SHA256_LEN {
        return Err(invalid("not a snapshot: no sha256 checksum at its end"));
    }
    std::fs::create_dir_all(store_dir).map_err(io(store_dir))?;
    let partial = store_dir.join(".store.redb.restoring");
    let mut out = std::fs::File::create(&partial).map_err(io(&partial))?;
    let mut hash = ring::digest::Context::new(&ring::digest::SHA256);
    let mut left = size - SHA256_LEN;
    let mut buf = vec![0u8; CHUNK];
    while left > 0 {
        let want = usize::try_from(left.min(CHUNK as u64)).unwrap_or(CHUNK);
        file.read_exact(&mut buf[..want]).map_err(io(snapshot))?;
        hash.update(&buf[..want]);
        std::io::Write::write_all(&mut out, &buf[..want]).map_err(io(&partial))?;
        left -= want as u64;
    }
    let mut sum = [0u8; SHA256_LEN as usize];
    file.read_exact(&mut sum).map_err(io(snapshot))?;
    if hash.finish().as_ref() != sum {
        let _ = std::fs::remove_file(&partial);
        return Err(invalid("sha256 checksum mismatch: the snapshot is damaged"));
    }
    out.sync_all().map_err(io(&partial))?;
    std::fs::rename(&partial, &target).map_err(io(&target))?;
    Ok(())
}
