//! Entry points for the fuzz targets (fuzz/), compiled only under `cfg(fuzzing)`: thin
//! wrappers of decoders that are not part of this crate's API.

pub use crate::rest::fuzzing::*;

/// A `continue` token decoded: (start key, revision), or the 400 `Status`.
pub fn decode_continue(token: &str) -> Result<(String, i64), crate::status::Status> {
    crate::storage::decode_continue(token)
}

/// A `continue` token resuming at `start` at `revision`.
pub fn encode_continue(start: &str, revision: i64) -> String {
    crate::storage::encode_continue(start, revision)
}
