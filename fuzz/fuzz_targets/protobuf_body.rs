//! A body in Kubernetes protobuf (`k8s\0` + runtime.Unknown holding any built-in kind).
//! Must hold: a refusal is a 4xx `Status` (the server's decoder and the schema's agree on
//! what they refuse); an accepted body encodes again, and that encoding decodes to the
//! same object (decode → encode → decode is stable).
#![no_main]

mod requests;

use kas_server::fuzzing::decode_body;
use kas_server::rest::FieldValidation;
use libfuzzer_sys::fuzz_target;

const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

fuzz_target!(|data: &[u8]| {
    let decoded = kas_schema::decode_protobuf(data);
    let resource = match &decoded {
        Ok(v) => requests::resource_for(&serde_json::to_vec(v).expect("a Value serializes")),
        Err(_) => requests::resource_for(b""),
    };
    let served = decode_body(&resource, PROTOBUF, data, FieldValidation::Warn);
    match (&decoded, &served) {
        (Err(_), Ok(_)) => panic!("served what the schema refuses: {served:?}"),
        (_, Err(s)) => requests::assert_client_error(s, "protobuf body"),
        (Ok(_), Ok(_)) => {}
    }
    let Ok(object) = decoded else { return };
    let bytes = match kas_schema::encode_protobuf(&object) {
        Ok(b) => b,
        Err(e) => panic!("a decoded object does not encode: {e}\n{object}"),
    };
    match kas_schema::decode_protobuf(&bytes) {
        Ok(again) => assert_eq!(again, object, "decode → encode → decode"),
        Err(e) => panic!("the encoding does not decode: {e}\n{object}"),
    }
});
