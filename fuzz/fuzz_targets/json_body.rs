//! A create/update body as JSON, decoded by type as each `fieldValidation` would have it
//! (`Ignore`, `Warn`, `Strict`). Must hold: a refusal is a 4xx `Status`; Ignore and Warn
//! agree and Ignore warns of nothing; Strict accepts exactly what Warn accepts without
//! warnings, with the same object; the decoded object decodes again to itself under
//! Strict, without warnings (the canonical JSON has no unknown or duplicate fields).
#![no_main]

mod requests;

use kas_server::fuzzing::decode_body;
use kas_server::rest::FieldValidation;
use libfuzzer_sys::fuzz_target;

const JSON: &str = "application/json";

fuzz_target!(|data: &[u8]| {
    let resource = requests::resource_for(data);
    let decode = |mode| decode_body(&resource, JSON, data, mode);
    let (ignore, warn, strict) = (
        decode(FieldValidation::Ignore),
        decode(FieldValidation::Warn),
        decode(FieldValidation::Strict),
    );
    for r in [&ignore, &warn, &strict] {
        if let Err(s) = r {
            requests::assert_client_error(s, "json body");
        }
    }
    match (&ignore, &warn) {
        (Ok((a, wa)), Ok((b, _))) => {
            assert_eq!(a, b, "Ignore and Warn decode alike");
            assert!(wa.is_empty(), "Ignore warns of nothing: {wa:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a.message, b.message),
        _ => panic!("Ignore and Warn disagree: {ignore:?} / {warn:?}"),
    }
    match (&warn, &strict) {
        (Ok((a, w)), Ok((b, ws))) => {
            assert!(
                w.is_empty(),
                "Strict accepted what Warn warned about: {w:?}"
            );
            assert!(ws.is_empty());
            assert_eq!(a, b);
        }
        (Ok((_, w)), Err(_)) => assert!(!w.is_empty(), "Strict refused a clean body: {strict:?}"),
        (Err(_), Err(_)) => {}
        (Err(_), Ok(_)) => panic!("Strict accepted what Warn refused: {warn:?}"),
    }
    if let Ok((object, _)) = &ignore {
        if object.get("kind").and_then(|k| k.as_str()) != Some(resource.kind) {
            return; // another kind is refused later, undecoded
        }
        let again = serde_json::to_vec(object).expect("a Value serializes");
        match decode_body(&resource, JSON, &again, FieldValidation::Strict) {
            Ok((o, w)) => {
                assert_eq!(&o, object, "decode is stable");
                assert!(w.is_empty());
            }
            Err(s) => panic!("the decoded object does not decode again: {s:?}\n{object}"),
        }
    }
});
