//! LIST: paginated range reads of a prefix, every page at one revision, filtered as the
//! caller asks, with `remainingItemCount` for unfiltered pages.

use etcd_client::{GetOptions, SortOrder, SortTarget};

use super::{
    continue_token, metrics, Filter, ListOptions, ListPage, ReadVersion, Storage, StorageError,
};

impl Storage {
    /// Lists the objects under `prefix` that `filter` accepts (all when `None`),
    /// paginated, every page at one revision.
    pub async fn list(
        &self,
        prefix: &str,
        version: ReadVersion,
        opts: &ListOptions,
        filter: Option<&Filter>,
    ) -> Result<ListPage, StorageError> {
        let range_end = prefix_end(prefix);
        let (mut start, mut revision) = match &opts.continue_token {
            Some(token) => {
                let (rel, rev) = continue_token::decode(token)?;
                (format!("{prefix}{rel}"), rev)
            }
            None => {
                let rev = match version {
                    ReadVersion::Exact(r) => r,
                    _ => 0,
                };
                (prefix.to_owned(), rev)
            }
        };
        let limit = opts.limit.max(0);
        let mut items = Vec::new();
        let kv = self.kv();
        let done = |items, revision| ListPage {
            items,
            revision,
            continue_token: None,
            remaining: None,
        };
        loop {
            let mut get = GetOptions::new()
                .with_range(range_end.clone())
                .with_sort(SortTarget::Key, SortOrder::Ascend);
            if revision > 0 {
                get = get.with_revision(revision);
            }
            if limit > 0 {
                // One more than needed tells whether another page follows.
                get = get.with_limit(limit - items.len() as i64 + 1);
            }
            let resp = metrics::timed("list", &self.kind, || {
                let (mut kv, start, get) = (kv.clone(), start.clone(), get.clone());
                async move { kv.get(start, Some(get)).await }
            })
            .await
            .map_err(|e| match e {
                StorageError::Compacted { .. } => StorageError::Compacted {
                    requested: revision,
                    compacted: 0,
                },
                other => other,
            })?;
            let header_rev = self.saw(resp.header());
            if revision == 0 {
                revision = header_rev;
                if let ReadVersion::NotOlderThan(min) = version {
                    if min > revision {
                        return Err(StorageError::TooLargeResourceVersion {
                            requested: min,
                            current: revision,
                        });
                    }
                }
            }
            let kvs = resp.kvs();
            let more = resp.more();
            let mut last_key = None;
            for kv in kvs {
                if limit > 0 && items.len() as i64 == limit {
                    // The look-ahead key: a next page exists.
                    let next = String::from_utf8_lossy(kv.key()).into_owned();
                    let rel = next.strip_prefix(prefix).unwrap_or(&next).to_owned();
                    let remaining = match filter {
                        Some(_) => None,
                        None => self.remaining(prefix, &next, revision).await,
                    };
                    return Ok(ListPage {
                        items,
                        revision,
                        continue_token: Some(continue_token::encode(&rel, revision)),
                        remaining,
                    });
                }
                last_key = Some(kv.key().to_vec());
                // Decrypted before the filter sees it; one value that does not read fails
                // the whole list, as upstream's LIST does.
                let item = self.read(kv).await.map_err(|e| {
                    StorageError::Transform(format!(
                        "unable to transform key {:?}: {e}",
                        String::from_utf8_lossy(kv.key())
                    ))
                })?;
                if filter.is_none_or(|keep| keep(&item.value)) {
                    items.push(item);
                }
            }
            if !more || limit == 0 {
                return Ok(done(items, revision));
            }
            // Filtered out too many: read on from just after the last key seen.
            match last_key {
                Some(mut k) => {
                    k.push(0);
                    start = String::from_utf8_lossy(&k).into_owned();
                }
                None => return Ok(done(items, revision)),
            }
        }
    }

    /// `remainingItemCount` of an unfiltered list: the keys from `from` on.
    async fn remaining(&self, prefix: &str, from: &str, revision: i64) -> Option<i64> {
        let kv = self.kv();
        let opts = GetOptions::new()
            .with_range(prefix_end(prefix))
            .with_revision(revision)
            .with_count_only();
        metrics::timed("listWithCount", &self.kind, || {
            let (mut kv, opts) = (kv.clone(), opts.clone());
            async move { kv.get(from.to_owned(), Some(opts)).await }
        })
        .await
        .ok()
        .map(|r| r.count())
    }
}

/// The end of the key range of everything under `prefix`.
pub(crate) fn prefix_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_ends() {
        assert_eq!(prefix_end("/registry/pods/"), b"/registry/pods0".to_vec());
        assert_eq!(prefix_end("a\u{7f}"), b"a\x80".to_vec());
    }
}
