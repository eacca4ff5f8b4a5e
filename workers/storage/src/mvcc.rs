//! The in-memory multi-version index: every key's versions since the last compaction,
//! reads at any retained revision, watch replay, compaction and recovery from the engine.
//!
//! Revisions follow etcd: the store starts at revision 1, every write request that changes
//! something takes the next main revision, and the changes inside one request get sub
//! revisions 0, 1, …. Entries above `committed_rev` are applied but not yet durable; reads
//! never see them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::time::Instant;

use bytes::Bytes;
use prost::Message;

use crate::engine::EngineOp;
use crate::error::{Error, EtcdError};
use crate::pb::etcdserverpb::{range_request, RangeRequest, RangeResponse};
use crate::pb::mvccpb::{event::EventType, Event, KeyValue};

const TAG_PUT: u8 = 0;
const TAG_TOMBSTONE: u8 = 1;

/// One version of a key: a value, or (`kv == None`) a tombstone ending a generation.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) main: i64,
    pub(crate) sub: i64,
    pub(crate) kv: Option<KeyValue>,
}

/// A key range as etcd reads `key` and `range_end`: one key, `[key, end)`, or every key
/// from `key` on when `range_end` is `"\0"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KeyRange {
    Single(Bytes),
    From(Bytes),
    Between(Bytes, Bytes),
    Empty,
}

impl KeyRange {
    pub(crate) fn new(key: &Bytes, range_end: &Bytes) -> Self {
        if range_end.is_empty() {
            KeyRange::Single(key.clone())
        } else if range_end.as_ref() == [0] {
            KeyRange::From(key.clone())
        } else if range_end <= key {
            KeyRange::Empty
        } else {
            KeyRange::Between(key.clone(), range_end.clone())
        }
    }

    pub(crate) fn contains(&self, k: &[u8]) -> bool {
        match self {
            KeyRange::Single(key) => key.as_ref() == k,
            KeyRange::From(start) => k >= start.as_ref(),
            KeyRange::Between(start, end) => k >= start.as_ref() && k < end.as_ref(),
            KeyRange::Empty => false,
        }
    }

    fn bounds(&self) -> (Bound<&[u8]>, Bound<&[u8]>) {
        match self {
            KeyRange::Single(key) => (Bound::Included(key.as_ref()), Bound::Included(key.as_ref())),
            KeyRange::From(start) => (Bound::Included(start.as_ref()), Bound::Unbounded),
            KeyRange::Between(start, end) => (
                Bound::Included(start.as_ref()),
                Bound::Excluded(end.as_ref()),
            ),
            // Never iterated: `iter_range` returns early.
            KeyRange::Empty => (Bound::Unbounded, Bound::Unbounded),
        }
    }
}

/// A lease: its granted TTL, when it expires, and the keys attached to it.
#[derive(Debug)]
pub(crate) struct Lease {
    pub(crate) ttl: i64,
    pub(crate) deadline: Instant,
    pub(crate) keys: BTreeSet<Bytes>,
}

/// Everything the store knows, guarded by one `RwLock` in `store::Shared`.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) index: BTreeMap<Bytes, Vec<Entry>>,
    /// Last applied revision (the writer's view, may be ahead of `committed_rev`).
    pub(crate) current_rev: i64,
    /// Last durable revision: what reads and watches see.
    pub(crate) committed_rev: i64,
    /// Revisions below this one are gone.
    pub(crate) compact_rev: i64,
    pub(crate) leases: HashMap<i64, Lease>,
    /// The alarms raised on this member (`AlarmType` values), as etcd's alarm store.
    pub(crate) alarms: BTreeSet<i32>,
}

/// The value of a key as of `rev` among its entries (sorted by revision).
pub(crate) fn visible_at(entries: &[Entry], rev: i64) -> Option<&KeyValue> {
    let idx = entries.partition_point(|e| e.main <= rev);
    idx.checked_sub(1).and_then(|i| entries[i].kv.as_ref())
}

/// Encodes a revision record for the engine.
pub(crate) fn encode_record(kv: &KeyValue, tombstone: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + kv.encoded_len());
    out.push(if tombstone { TAG_TOMBSTONE } else { TAG_PUT });
    // Encoding into a Vec cannot run out of space.
    kv.encode(&mut out).unwrap_or_default();
    out
}

impl State {
    /// Rebuilds the state from the engine's records (called once, at open).
    pub(crate) fn recover(
        engine: &crate::engine::Engine,
        compact_rev: i64,
        leases: &[(i64, i64)],
    ) -> Result<State, Error> {
        let mut index: BTreeMap<Bytes, Vec<Entry>> = BTreeMap::new();
        let mut max_rev = 1;
        engine.for_each_rev(|main, sub, record| {
            let (tag, body) = record
                .split_first()
                .ok_or_else(|| Error::Corrupt(format!("empty record at revision {main}")))?;
            let mut kv = KeyValue::decode(body)
                .map_err(|e| Error::Corrupt(format!("record at revision {main}: {e}")))?;
            // Every version of a key shares one copy of it.
            if let Some((stored, _)) = index.get_key_value(&kv.key) {
                kv.key = stored.clone();
            }
            let key = kv.key.clone();
            let kv = match *tag {
                TAG_PUT => Some(kv),
                TAG_TOMBSTONE => None,
                t => return Err(Error::Corrupt(format!("tag {t} at revision {main}"))),
            };
            let entries = index.entry(key).or_default();
            if entries.len() < 4 {
                entries.reserve_exact(1);
            }
            entries.push(Entry { main, sub, kv });
            max_rev = max_rev.max(main);
            Ok(())
        })?;
        let now = Instant::now();
        let mut lease_map: HashMap<i64, Lease> = leases
            .iter()
            .map(|&(id, ttl)| {
                // Like etcd, deadlines are re-armed with the full TTL on restart.
                let deadline = now + std::time::Duration::from_secs(ttl.max(0).unsigned_abs());
                (
                    id,
                    Lease {
                        ttl,
                        deadline,
                        keys: BTreeSet::new(),
                    },
                )
            })
            .collect();
        for (key, entries) in &index {
            if let Some(kv) = entries.last().and_then(|e| e.kv.as_ref()) {
                if let Some(lease) = lease_map.get_mut(&kv.lease) {
                    lease.keys.insert(key.clone());
                }
            }
        }
        let current = max_rev.max(compact_rev);
        Ok(State {
            index,
            current_rev: current,
            committed_rev: current,
            compact_rev,
            leases: lease_map,
            alarms: BTreeSet::new(),
        })
    }

    /// Iterates the keys of `range` with their entries.
    pub(crate) fn iter_range<'a>(
        &'a self,
        range: &'a KeyRange,
    ) -> impl Iterator<Item = (&'a Bytes, &'a Vec<Entry>)> + 'a {
        let iter = match range {
            KeyRange::Empty => None,
            _ => Some(self.index.range::<[u8], _>(range.bounds())),
        };
        iter.into_iter().flatten()
    }

    /// Checks a requested read revision (`<= 0` = `current`) against compaction and `current`.
    pub(crate) fn resolve_rev(&self, requested: i64, current: i64) -> Result<i64, EtcdError> {
        if requested <= 0 {
            return Ok(current);
        }
        if requested > current {
            return Err(EtcdError::FutureRev);
        }
        if requested < self.compact_rev {
            return Err(EtcdError::Compacted);
        }
        Ok(requested)
    }

    /// Answers a Range at revision `rev` (already resolved); the header is left to the caller.
    pub(crate) fn range(&self, req: &RangeRequest, rev: i64) -> RangeResponse {
        let range = KeyRange::new(&req.key, &req.range_end);
        let limit = usize::try_from(req.limit).unwrap_or(0);
        let filtered = req.min_mod_revision > 0
            || req.max_mod_revision > 0
            || req.min_create_revision > 0
            || req.max_create_revision > 0;
        let sort_order = range_request::SortOrder::try_from(req.sort_order)
            .unwrap_or(range_request::SortOrder::None);
        let sort_target = range_request::SortTarget::try_from(req.sort_target)
            .unwrap_or(range_request::SortTarget::Key);
        let key_order = sort_target == range_request::SortTarget::Key
            && sort_order != range_request::SortOrder::Descend;
        // Without filters or a custom sort, stop copying values once past the limit.
        let stop_after = if limit > 0 && !filtered && key_order {
            limit + 1
        } else {
            usize::MAX
        };
        let mut count: i64 = 0;
        let mut kvs = Vec::new();
        for (_, entries) in self.iter_range(&range) {
            let Some(kv) = visible_at(entries, rev) else {
                continue;
            };
            count += 1;
            if req.count_only || kvs.len() >= stop_after {
                continue;
            }
            if (req.min_mod_revision > 0 && kv.mod_revision < req.min_mod_revision)
                || (req.max_mod_revision > 0 && kv.mod_revision > req.max_mod_revision)
                || (req.min_create_revision > 0 && kv.create_revision < req.min_create_revision)
                || (req.max_create_revision > 0 && kv.create_revision > req.max_create_revision)
            {
                continue;
            }
            let mut kv = kv.clone();
            if req.keys_only {
                kv.value = Bytes::new();
            }
            kvs.push(kv);
        }
        if !key_order {
            sort_kvs(&mut kvs, sort_target, sort_order);
        }
        let more = limit > 0 && kvs.len() > limit;
        if more {
            kvs.truncate(limit);
        }
        RangeResponse {
            header: None,
            kvs,
            more,
            count,
        }
    }

    /// The events of keys in `range` with revisions in `from..=to`, in revision order,
    /// each with its previous value.
    pub(crate) fn events_between(&self, range: &KeyRange, from: i64, to: i64) -> Vec<Event> {
        let mut out: Vec<(i64, i64, Event)> = Vec::new();
        for (key, entries) in self.iter_range(range) {
            let start = entries.partition_point(|e| e.main < from);
            for i in start..entries.len() {
                let e = &entries[i];
                if e.main > to {
                    break;
                }
                let prev_kv = i.checked_sub(1).and_then(|p| entries[p].kv.clone());
                let event = match &e.kv {
                    Some(kv) => Event {
                        r#type: EventType::Put as i32,
                        kv: Some(kv.clone()),
                        prev_kv,
                    },
                    None => Event {
                        r#type: EventType::Delete as i32,
                        kv: Some(tombstone_kv(key.clone(), e.main)),
                        prev_kv,
                    },
                };
                out.push((e.main, e.sub, event));
            }
        }
        out.sort_by_key(|(main, sub, _)| (*main, *sub));
        out.into_iter().map(|(_, _, e)| e).collect()
    }

    /// Drops history below `rev`, keeping each key's value as of `rev` (etcd semantics).
    pub(crate) fn compact(&mut self, rev: i64, ops: &mut Vec<EngineOp>) -> Result<(), EtcdError> {
        if rev <= self.compact_rev {
            return Err(EtcdError::Compacted);
        }
        if rev > self.current_rev {
            return Err(EtcdError::FutureRev);
        }
        for entries in self.index.values_mut() {
            let idx = entries.partition_point(|e| e.main <= rev);
            let keep_from = match idx.checked_sub(1) {
                None => 0,
                Some(last) if entries[last].kv.is_some() => last,
                Some(_) => idx,
            };
            for e in entries.drain(..keep_from) {
                ops.push(EngineOp::DelRev {
                    main: e.main,
                    sub: e.sub,
                });
            }
            if entries.capacity() > 2 * entries.len() {
                entries.shrink_to_fit();
            }
        }
        self.index.retain(|_, entries| !entries.is_empty());
        self.compact_rev = rev;
        ops.push(EngineOp::CompactRev(rev));
        Ok(())
    }
}

/// The key-value a DELETE event carries: the key and the deleting revision.
pub(crate) fn tombstone_kv(key: Bytes, rev: i64) -> KeyValue {
    KeyValue {
        key,
        mod_revision: rev,
        ..KeyValue::default()
    }
}

fn sort_kvs(
    kvs: &mut [KeyValue],
    target: range_request::SortTarget,
    order: range_request::SortOrder,
) {
    use range_request::SortTarget as T;
    kvs.sort_by(|a, b| match target {
        T::Key => a.key.cmp(&b.key),
        T::Version => a.version.cmp(&b.version),
        T::Create => a.create_revision.cmp(&b.create_revision),
        T::Mod => a.mod_revision.cmp(&b.mod_revision),
        T::Value => a.value.cmp(&b.value),
    });
    if order == range_request::SortOrder::Descend {
        kvs.reverse();
    }
}

#[cfg(test)]
impl State {
    /// A fresh store's state, without an engine.
    pub(crate) fn empty() -> State {
        State {
            index: BTreeMap::new(),
            current_rev: 1,
            committed_rev: 1,
            compact_rev: 0,
            leases: HashMap::new(),
            alarms: BTreeSet::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Bytes {
        Bytes::copy_from_slice(s.as_bytes())
    }

    #[test]
    fn key_ranges_follow_etcd() {
        assert_eq!(KeyRange::new(&b("a"), &b("")), KeyRange::Single(b("a")));
        assert_eq!(KeyRange::new(&b("a"), &b("\0")), KeyRange::From(b("a")));
        assert_eq!(KeyRange::new(&b("b"), &b("a")), KeyRange::Empty);
        let r = KeyRange::new(&b("/a/"), &b("/a0"));
        assert!(r.contains(b"/a/x") && !r.contains(b"/a0") && !r.contains(b"/a"));
    }

    fn entry(main: i64, value: Option<&str>) -> Entry {
        Entry {
            main,
            sub: 0,
            kv: value.map(|v| KeyValue {
                key: b("k"),
                mod_revision: main,
                value: b(v),
                ..KeyValue::default()
            }),
        }
    }

    #[test]
    fn visibility_and_compaction_keep_the_value_as_of_the_compaction() {
        let mut st = State::empty();
        st.index.insert(
            b("k"),
            vec![
                entry(2, Some("a")),
                entry(3, None),
                entry(4, Some("b")),
                entry(6, Some("c")),
            ],
        );
        st.index
            .insert(b("gone"), vec![entry(2, Some("x")), entry(5, None)]);
        st.current_rev = 6;
        let e = &st.index[&b("k")];
        assert!(visible_at(e, 1).is_none());
        assert_eq!(visible_at(e, 2).map(|kv| kv.value.clone()), Some(b("a")));
        assert!(visible_at(e, 3).is_none());
        assert_eq!(visible_at(e, 5).map(|kv| kv.value.clone()), Some(b("b")));

        let mut ops = Vec::new();
        st.compact(5, &mut ops).unwrap();
        let kept: Vec<i64> = st.index[&b("k")].iter().map(|e| e.main).collect();
        assert_eq!(kept, vec![4, 6]);
        assert!(
            !st.index.contains_key(&b("gone")),
            "deleted key dropped entirely"
        );
        assert_eq!(
            ops.len(),
            5,
            "four revisions deleted and the compaction recorded"
        );
        assert_eq!(st.resolve_rev(4, 6), Err(EtcdError::Compacted));
        assert_eq!(st.resolve_rev(5, 6), Ok(5));
        assert_eq!(st.resolve_rev(7, 6), Err(EtcdError::FutureRev));
        assert_eq!(st.compact(5, &mut ops), Err(EtcdError::Compacted));
        assert_eq!(st.compact(9, &mut ops), Err(EtcdError::FutureRev));
    }

    #[test]
    fn replayed_events_are_in_revision_order_with_previous_values() {
        let mut st = State::empty();
        st.index
            .insert(b("a"), vec![entry(2, Some("1")), entry(5, None)]);
        st.index
            .insert(b("b"), vec![entry(3, Some("2")), entry(4, Some("3"))]);
        let evs = st.events_between(&KeyRange::From(b("a")), 3, 5);
        let revs: Vec<i64> = evs
            .iter()
            .map(|e| e.kv.as_ref().unwrap().mod_revision)
            .collect();
        assert_eq!(revs, vec![3, 4, 5]);
        assert_eq!(evs[2].r#type, EventType::Delete as i32);
        assert_eq!(evs[2].prev_kv.as_ref().unwrap().value, b("1"));
        assert_eq!(evs[1].prev_kv.as_ref().unwrap().value, b("2"));
        assert!(evs[0].prev_kv.is_none());
    }
}
