//! The errors a strategic merge patch can fail with, worded as upstream words them, and
//! the HTTP status kube-apiserver answers each with.

/// Why a strategic merge patch could not be applied.
///
/// The `Display` text of every variant is upstream's error text (`k8s.io/apimachinery`
/// `mergepatch` and `strategicpatch`), maps and lists printed as Go's `%v` prints them
/// (`map[image:nginx]`, `[a b]`), because kubectl shows it to the user verbatim.
///
/// How this server turns these into a `Status`, exposed by [`PatchError::http_status`],
/// [`PatchError::status_reason`] and [`PatchError::status_message`]:
///
/// | variants | code | reason | message |
/// | --- | --- | --- | --- |
/// | `ListOfLists` | 422 | `Invalid` | `the server rejected our request due to an error in our request` (upstream drops the error text here) |
/// | `Schema` | 500 | `InternalError` | the error text |
/// | every other variant | 400 | `BadRequest` | the error text |
///
/// Upstream's patch handler (`interpretStrategicMergePatchError`) gives 400 only to its
/// named format errors and 422 to lists of lists; the rest (a missing merge key, mixed
/// element types, an unknown `$patch`, a value of the wrong JSON type ...) it returns
/// as plain Go errors, which become 500s with an empty reason. Every one of those is
/// caused by the patch body alone, so this server answers them 400 with upstream's text
/// (kubectl prints `Error from server (BadRequest): map: map[image:nginx] does not
/// contain declared merge key: name`): a 500 is kept for `Schema`, a fault of the
/// server's own type information.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// The patch body is JSON but not an object (`found`: `array`, `string`, `number`,
    /// `bool`); upstream fails decoding it into a Go map.
    #[error("json: cannot unmarshal {found} into Go value of type map[string]interface {{}}")]
    PatchNotObject { found: &'static str },
    /// The original object is not a JSON object.
    #[error("invalid JSON document")]
    BadJsonDocument,
    /// A `$deleteFromPrimitiveList` key without `/<field>`.
    #[error("invalid patch format of primitive list")]
    PrimitiveListFormat,
    /// `$retainKeys` is not a list, or the patch sets a field the list does not retain.
    #[error("invalid patch format of retainKeys")]
    RetainKeysFormat,
    /// A `$setElementOrder` key without `/<field>`.
    #[error("invalid patch format of setElementOrder list")]
    SetElementOrderFormat,
    /// A list whose elements are lists.
    #[error("lists of lists are not supported")]
    ListOfLists,
    /// An element of a merging list lacks the field's merge key.
    #[error("map: {map} does not contain declared merge key: {key}")]
    NoMergeKey {
        /// The element, as Go's `%v` prints it.
        map: String,
        /// The merge key (`name`, `containerPort`, ...).
        key: String,
    },
    /// A `$patch` directive other than `replace`/`delete` (maps) or
    /// `replace`/`delete`/`merge` (list elements).
    #[error("unknown patch type: {directive} in map: {map}")]
    UnknownPatchType {
        /// The directive value, as Go's `%s` prints it.
        directive: String,
        /// The map that carried it, as Go's `%v` prints it.
        map: String,
    },
    /// A value of one JSON type where the patch needs another (Go type names:
    /// `[]interface {}`, `map[string]interface {}`, `string`, ...).
    #[error("expected a {expected}, but received a {actual}")]
    BadArgType {
        /// The Go type needed.
        expected: &'static str,
        /// The Go type found.
        actual: String,
    },
    /// Any other failure caused by the patch; the text is upstream's.
    #[error("{0}")]
    Other(String),
    /// The schema's own patch metadata is unusable (an unknown `patchStrategy`): the
    /// server's fault, not the client's.
    #[error("{0}")]
    Schema(String),
}

impl PatchError {
    /// The HTTP status code this server answers this error with (see the table above).
    pub fn http_status(&self) -> u16 {
        match self {
            Self::ListOfLists => 422,
            Self::Schema(_) => 500,
            _ => 400,
        }
    }

    /// The `reason` of the `Status` this server answers with.
    pub fn status_reason(&self) -> &'static str {
        match self.http_status() {
            400 => "BadRequest",
            422 => "Invalid",
            _ => "InternalError",
        }
    }

    /// The `message` of the `Status` this server answers with.
    pub fn status_message(&self) -> String {
        match self.http_status() {
            422 => "the server rejected our request due to an error in our request".to_owned(),
            _ => self.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_patch_handler() {
        assert_eq!(PatchError::RetainKeysFormat.http_status(), 400);
        assert_eq!(PatchError::RetainKeysFormat.status_reason(), "BadRequest");
        assert_eq!(PatchError::ListOfLists.http_status(), 422);
        assert_eq!(
            PatchError::ListOfLists.status_message(),
            "the server rejected our request due to an error in our request"
        );
        let e = PatchError::NoMergeKey {
            map: "map[image:nginx]".into(),
            key: "name".into(),
        };
        assert_eq!(e.http_status(), 400);
        assert_eq!(e.status_reason(), "BadRequest");
        assert_eq!(
            e.status_message(),
            "map: map[image:nginx] does not contain declared merge key: name"
        );
        assert_eq!(
            PatchError::PatchNotObject { found: "array" }.to_string(),
            "json: cannot unmarshal array into Go value of type map[string]interface {}"
        );
        let e = PatchError::Schema("unexpected patch strategy: [sideways]".into());
        assert_eq!((e.http_status(), e.status_reason()), (500, "InternalError"));
    }

    /// Every error the patch alone can cause is a 4xx: the plain Go errors upstream lets
    /// through as 500s included (issue 21: mixed list element types answered 500).
    #[test]
    fn client_caused_errors_are_4xx() {
        let client = [
            PatchError::Other("list element types are not identical: [[a] [1]]".into()),
            PatchError::BadArgType {
                expected: "map[string]interface {}",
                actual: "string".into(),
            },
            PatchError::UnknownPatchType {
                directive: "foo".into(),
                map: "map[$patch:foo]".into(),
            },
            PatchError::NoMergeKey {
                map: "map[]".into(),
                key: "name".into(),
            },
        ];
        for e in client {
            assert_eq!((e.http_status(), e.status_reason()), (400, "BadRequest"));
            assert_eq!(e.status_message(), e.to_string());
        }
    }
}
