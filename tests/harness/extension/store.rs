//! The extension server's objects: Flunders and Fischers in memory under one resource
//! version counter, with the history of changes for watches that start from a resource
//! version, label and field selectors, and the names, uids and timestamps a server
//! assigns.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::broadcast;

/// The kinds served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Flunder,
    Fischer,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Flunder, Kind::Fischer];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Flunder => "Flunder",
            Kind::Fischer => "Fischer",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Kind::Flunder => "flunders",
            Kind::Fischer => "fischers",
        }
    }

    pub fn singular(self) -> &'static str {
        match self {
            Kind::Flunder => "flunder",
            Kind::Fischer => "fischer",
        }
    }

    pub fn namespaced(self) -> bool {
        self == Kind::Flunder
    }

    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            Kind::Flunder => &["fl"],
            Kind::Fischer => &["fi"],
        }
    }

    pub fn categories(self) -> &'static [&'static str] {
        &["wardle"]
    }

    pub fn from_plural(p: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.plural() == p)
    }
}

/// The verbs every kind serves.
pub const VERBS: &[&str] = &[
    "create", "delete", "get", "list", "patch", "update", "watch",
];

/// One change, kept for watches that start from a resource version.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub(crate) rv: u64,
    pub(crate) kind: Kind,
    pub(crate) ty: &'static str,
    pub(crate) object: Value,
}

#[derive(Default)]
pub(crate) struct Inner {
    pub(crate) rv: u64,
    pub(crate) objects: BTreeMap<(Kind, String, String), Value>,
    history: Vec<Event>,
}

/// The objects of both kinds.
pub(crate) struct Store {
    pub(crate) inner: Mutex<Inner>,
    events: broadcast::Sender<Event>,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            inner: Mutex::default(),
            events: broadcast::channel(1024).0,
        }
    }
}

pub(crate) fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil date from days, proleptic
/// Gregorian, as Howard Hinnant's algorithm does it).
pub(crate) fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn random_u64() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

pub(crate) fn new_uid() -> String {
    let (a, b) = (random_u64(), random_u64());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | (b >> 48 & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// Five characters from Kubernetes' name-suffix alphabet.
pub(crate) fn name_suffix() -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut n = random_u64();
    (0..5)
        .map(|_| {
            let c = ALPHABET[(n % ALPHABET.len() as u64) as usize] as char;
            n /= ALPHABET.len() as u64;
            c
        })
        .collect()
}

pub(crate) fn meta_str<'a>(obj: &'a Value, field: &str) -> &'a str {
    obj["metadata"][field].as_str().unwrap_or("")
}

/// A `key=value,key!=value,key,!key` label selector; `None` when it cannot be parsed.
pub(crate) fn label_match(selector: &str, labels: &Value) -> Option<bool> {
    let mut ok = true;
    for req in selector.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        let get = |k: &str| labels.get(k.trim()).and_then(Value::as_str);
        let holds = if let Some((k, v)) = req.split_once("!=") {
            get(k) != Some(v.trim())
        } else if let Some((k, v)) = req.split_once("==").or_else(|| req.split_once('=')) {
            get(k) == Some(v.trim())
        } else if let Some(k) = req.strip_prefix('!') {
            get(k).is_none()
        } else if req.contains(|c: char| " ()".contains(c)) {
            return None;
        } else {
            get(req).is_some()
        };
        ok &= holds;
    }
    Some(ok)
}

/// `metadata.name` and `metadata.namespace` field selectors.
pub(crate) fn field_match(selector: &str, obj: &Value) -> Option<bool> {
    let mut ok = true;
    for req in selector.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        let (k, v, eq) = if let Some((k, v)) = req.split_once("!=") {
            (k, v, false)
        } else {
            let (k, v) = req.split_once("==").or_else(|| req.split_once('='))?;
            (k, v, true)
        };
        let actual = match k.trim() {
            "metadata.name" => meta_str(obj, "name"),
            "metadata.namespace" => meta_str(obj, "namespace"),
            _ => return None,
        };
        ok &= (actual == v.trim()) == eq;
    }
    Some(ok)
}

/// What a list or watch selects.
pub(crate) struct Filter {
    pub(crate) kind: Kind,
    pub(crate) namespace: Option<String>,
    pub(crate) labels: String,
    pub(crate) fields: String,
}

impl Filter {
    pub(crate) fn matches(&self, kind: Kind, obj: &Value) -> bool {
        kind == self.kind
            && self
                .namespace
                .as_deref()
                .is_none_or(|ns| meta_str(obj, "namespace") == ns)
            && label_match(&self.labels, &obj["metadata"]["labels"]).unwrap_or(false)
            && field_match(&self.fields, obj).unwrap_or(false)
    }
}

impl Store {
    /// The objects of `plural`, in key order.
    pub(crate) fn objects(&self, plural: &str) -> Vec<Value> {
        let Some(kind) = Kind::from_plural(plural) else {
            return Vec::new();
        };
        let inner = self.inner.lock().expect("store");
        inner
            .objects
            .iter()
            .filter(|((k, _, _), _)| *k == kind)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// The current resource version and the objects `filter` selects.
    pub(crate) fn list(&self, filter: &Filter) -> (u64, Vec<Value>) {
        let inner = self.inner.lock().expect("store");
        let items = inner
            .objects
            .iter()
            .filter(|((k, _, _), v)| filter.matches(*k, v))
            .map(|(_, v)| v.clone())
            .collect();
        (inner.rv, items)
    }

    /// Starts a watch: the events to send first (ADDED for what exists without `from`, the
    /// history after `from` with it) and the live feed, taken under one lock so nothing
    /// falls between them.
    pub(crate) fn watch(
        &self,
        filter: &Filter,
        from: Option<u64>,
    ) -> (Vec<Event>, broadcast::Receiver<Event>) {
        let inner = self.inner.lock().expect("store");
        let first = match from {
            None => inner
                .objects
                .iter()
                .filter(|((k, _, _), v)| filter.matches(*k, v))
                .map(|((k, _, _), v)| Event {
                    rv: inner.rv,
                    kind: *k,
                    ty: "ADDED",
                    object: v.clone(),
                })
                .collect(),
            Some(rv) => inner
                .history
                .iter()
                .filter(|e| e.rv > rv && filter.matches(e.kind, &e.object))
                .cloned()
                .collect(),
        };
        (first, self.events.subscribe())
    }

    pub(crate) fn record(&self, inner: &mut Inner, kind: Kind, ty: &'static str, object: Value) {
        let event = Event {
            rv: inner.rv,
            kind,
            ty,
            object,
        };
        inner.history.push(event.clone());
        let _ = self.events.send(event);
    }
}
