//! The check of an admission webhook's answer as `Webhooks::call` and the mutating
//! dispatcher run it once the body is in, for the fuzz targets (`--cfg fuzzing` only).

use kas_server::status::Status;
use serde_json::Value;

use super::review::{self, CallError};

/// The name of the webhook in messages.
const NAME: &str = "fuzz.example.com";

/// What becomes of `answer` (the webhook's decoded JSON object) to the review `uid` sent
/// as `version`: `Ok(changed)` when the request goes on (a mutating webhook's patch
/// applied to `obj`), else the `Status` the client gets when the webhook fails closed.
pub fn admission_answer(
    uid: &str,
    version: &str,
    mutating: bool,
    answer: &Value,
    obj: &mut Value,
) -> Result<bool, Status> {
    let checked = review::verify(uid, version, mutating, answer)
        .map_err(|why| CallError::Calling(why, 503).into_status(NAME))?;
    if !checked.allowed {
        return Err(
            CallError::Denied(review::denial(NAME, checked.result.as_ref())).into_status(NAME),
        );
    }
    match &checked.patch {
        Some(p) => super::mutating::apply_patch(NAME, obj, p),
        None => Ok(false),
    }
}
