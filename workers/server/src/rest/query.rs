//! Query parameters as kube-apiserver's parameter conversion reads them.

use std::collections::HashMap;

use super::bad_request;
use crate::health::percent_decode;
use crate::status::Status;

/// Query parameters, percent-decoded; the first value of a repeated key counts, as
/// upstream's parameter conversion takes it.
#[derive(Debug, Default)]
pub struct Query(HashMap<String, String>);

impl Query {
    /// The parameters of a query string.
    pub fn parse(q: Option<&str>) -> Query {
        let mut m = HashMap::new();
        for kv in q.unwrap_or("").split('&').filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            m.entry(percent_decode(&k.replace('+', " ")))
                .or_insert_with(|| percent_decode(&v.replace('+', " ")));
        }
        Query(m)
    }

    /// A parameter's value, unless absent or empty.
    pub fn get(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// A boolean parameter as upstream converts one: present and neither `0` nor
    /// `false` (any case) is true, an empty value included.
    pub fn flag(&self, k: &str) -> bool {
        self.0.get(k).is_some_and(|v| query_true(v))
    }

    /// An optional boolean parameter (`force`): `None` when absent.
    pub fn opt_flag(&self, k: &str) -> Option<bool> {
        self.0.get(k).map(|v| query_true(v))
    }

    /// An integer parameter, refused as upstream's conversion refuses it (Go's
    /// `strconv.ParseInt` message, 400).
    pub fn int(&self, k: &str) -> Result<Option<i64>, Status> {
        let Some(v) = self.0.get(k) else {
            return Ok(None);
        };
        match v.parse::<i64>() {
            Ok(n) => Ok(Some(n)),
            Err(e) => {
                let why = match e.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                        "value out of range"
                    }
                    _ => "invalid syntax",
                };
                Err(bad_request(format!(
                    "strconv.ParseInt: parsing {}: {why}",
                    crate::status::go_quote(v)
                )))
            }
        }
    }
}

/// Upstream's reading of a boolean query value: all but `0` and `false` (any case).
fn query_true(v: &str) -> bool {
    !(v == "0" || v.eq_ignore_ascii_case("false"))
}
