//! LIST `continue` tokens in kube-apiserver's format: unpadded URL-safe base64 of
//! `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>"}`, so every page
//! of one list is read at the same revision.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::StorageError;

const VERSION: &str = "meta.k8s.io/v1";

#[derive(Serialize, Deserialize)]
struct Token {
    v: String,
    rv: i64,
    start: String,
}

/// Encodes a token that resumes at `start` (relative to the listed prefix) at `revision`.
pub(crate) fn encode(start: &str, revision: i64) -> String {
    let token = Token {
        v: VERSION.to_owned(),
        rv: revision,
        start: start.to_owned(),
    };
    // A struct of strings and an integer always serializes.
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&token).unwrap_or_default())
}

/// Decodes a token into (start key relative to the prefix, revision).
pub(crate) fn decode(token: &str) -> Result<(String, i64), StorageError> {
    let bad = |why: &str| StorageError::InvalidContinue(why.to_owned());
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim_end_matches('='))
        .map_err(|_| bad("not base64"))?;
    let t: Token = serde_json::from_slice(&bytes).map_err(|_| bad("not a continue token"))?;
    if t.v != VERSION {
        return Err(bad(
            "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        ));
    }
    if t.rv <= 0 {
        return Err(bad(
            "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        ));
    }
    if t.start.is_empty() || t.start.starts_with('/') || t.start.split('/').any(|p| p == "..") {
        return Err(bad("path traversal attempt"));
    }
    Ok((t.start, t.rv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejects() {
        let t = encode("default/b\u{0}", 42);
        assert_eq!(decode(&t), Ok(("default/b\u{0}".to_owned(), 42)));
        assert!(decode("!!").is_err());
        assert!(decode(&URL_SAFE_NO_PAD.encode(br#"{"v":"x","rv":1,"start":"a"}"#)).is_err());
        assert!(decode(
            &URL_SAFE_NO_PAD.encode(br#"{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}"#)
        )
        .is_err());
        assert!(
            decode(&URL_SAFE_NO_PAD.encode(br#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#))
                .is_err()
        );
    }
}
