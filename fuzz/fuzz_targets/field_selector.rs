//! `fieldSelector` as a client sends it. Must hold: a refusal is a 400 `Status`; an
//! accepted selector matches objects without panicking, and written out as the
//! requirements an authorizer is given and parsed again it is the same selector.
#![no_main]

use kas_server::selectors::{field_selector_from_requirements, FieldSelector};
use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let selector = match FieldSelector::parse(text) {
        Ok(s) => s,
        Err(status) => {
            assert_eq!(status.reason, Reason::BadRequest, "{status:?}");
            return;
        }
    };
    let pod = json!({"metadata": {"name": "web-0", "namespace": "default"},
        "spec": {"nodeName": "n1", "restartPolicy": "Always"}, "status": {"phase": "Running"}});
    selector.matches(&pod);
    let _ = selector.check_fields(&["metadata.name", "metadata.namespace"], false);
    let requirements = selector.authorization_requirements();
    let written = field_selector_from_requirements(&requirements);
    match FieldSelector::parse(&written) {
        Ok(again) => assert_eq!(
            again.authorization_requirements(),
            requirements,
            "{text:?} written as {written:?}"
        ),
        Err(s) => panic!("{text:?} written as {written:?} does not parse: {s:?}"),
    }
});
