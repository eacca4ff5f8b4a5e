//! Engine measurement behind the choice of redb (see ../README.md): durable sequential puts,
//! group-committed puts and a 1,000-key range, on redb and on SQLite. Usage:
//! `CARGO_TARGET_DIR=/tmp/enginebench cargo run --release -- <scratch dir>` from this
//! directory (a standalone package, not a workspace member).
use redb::ReadableDatabase;
use std::time::Instant;
const T: redb::TableDefinition<[u8; 16], &[u8]> = redb::TableDefinition::new("kv");
fn key(i: u64) -> [u8; 16] {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&i.to_be_bytes());
    k
}
fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or("/tmp/enginebench/data".into());
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let val = vec![7u8; 1024];
    let n_seq = 500u64;
    let batch = 32u64;
    let n_batches = 100u64;
    // redb
    {
        let db = redb::Database::create(format!("{dir}/r.redb")).unwrap();
        let t = Instant::now();
        for i in 0..n_seq {
            let tx = db.begin_write().unwrap();
            {
                let mut tb = tx.open_table(T).unwrap();
                tb.insert(key(i), val.as_slice()).unwrap();
            }
            tx.commit().unwrap();
        }
        let e = t.elapsed();
        println!(
            "redb seq durable puts/s: {:.0}",
            n_seq as f64 / e.as_secs_f64()
        );
        let t = Instant::now();
        for b in 0..n_batches {
            let tx = db.begin_write().unwrap();
            {
                let mut tb = tx.open_table(T).unwrap();
                for j in 0..batch {
                    tb.insert(key(10_000 + b * batch + j), val.as_slice())
                        .unwrap();
                }
            }
            tx.commit().unwrap();
        }
        let e = t.elapsed();
        println!(
            "redb group commit ({batch}/commit) puts/s: {:.0}",
            (n_batches * batch) as f64 / e.as_secs_f64()
        );
        let t = Instant::now();
        let mut tot = 0;
        for _ in 0..100 {
            let tx = db.begin_read().unwrap();
            let tb = tx.open_table(T).unwrap();
            for r in tb.range(key(10_000)..key(11_000)).unwrap() {
                let (_k, v) = r.unwrap();
                tot += v.value().len();
            }
        }
        let e = t.elapsed();
        println!(
            "redb range 1000 keys: {:.1} us ({tot})",
            e.as_secs_f64() * 1e6 / 100.0
        );
    }
    {
        let c = rusqlite::Connection::open(format!("{dir}/s.db")).unwrap();
        c.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID;").unwrap();
        let t = Instant::now();
        for i in 0..n_seq {
            let tx = c.unchecked_transaction().unwrap();
            tx.execute("INSERT INTO kv VALUES(?1,?2)", (key(i).to_vec(), &val))
                .unwrap();
            tx.commit().unwrap();
        }
        let e = t.elapsed();
        println!(
            "sqlite seq durable puts/s: {:.0}",
            n_seq as f64 / e.as_secs_f64()
        );
        let t = Instant::now();
        for b in 0..n_batches {
            let tx = c.unchecked_transaction().unwrap();
            {
                let mut st = tx.prepare("INSERT INTO kv VALUES(?1,?2)").unwrap();
                for j in 0..batch {
                    st.execute((key(10_000 + b * batch + j).to_vec(), &val))
                        .unwrap();
                }
            }
            tx.commit().unwrap();
        }
        let e = t.elapsed();
        println!(
            "sqlite group commit ({batch}/commit) puts/s: {:.0}",
            (n_batches * batch) as f64 / e.as_secs_f64()
        );
        let t = Instant::now();
        let mut tot = 0;
        for _ in 0..100 {
            let mut st = c
                .prepare("SELECT v FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k")
                .unwrap();
            let mut rows = st
                .query((key(10_000).to_vec(), key(11_000).to_vec()))
                .unwrap();
            while let Some(r) = rows.next().unwrap() {
                let v: Vec<u8> = r.get(0).unwrap();
                tot += v.len();
            }
        }
        let e = t.elapsed();
        println!(
            "sqlite range 1000 keys: {:.1} us ({tot})",
            e.as_secs_f64() * 1e6 / 100.0
        );
    }
}
