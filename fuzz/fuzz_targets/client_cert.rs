//! A client certificate chain as authentication sees it: the client CA and the
//! request-header (front proxy) CA verify the chain, then the user is read from the
//! leaf's subject (CN the name, O the groups). Input is DER: the leaf alone, and the
//! leaf after a real client certificate (a fuzzed intermediate). Only the one
//! certificate the fixture CA signed authenticates (as alice, or as the allowed front
//! proxy); anything else is refused with a reason (a 401), never a panic.
#![no_main]

use std::sync::OnceLock;

use kas_aggregator::fuzzing::{user_from_cert, Certs};
use libfuzzer_sys::fuzz_target;

const ALICE: &[u8] = include_bytes!("../seeds/client_cert/alice.der");

fn certs() -> &'static Certs {
    static CERTS: OnceLock<Certs> = OnceLock::new();
    CERTS.get_or_init(|| {
        Certs::new(
            include_str!("../fixtures/client-ca.pem"),
            Some((
                include_str!("../fixtures/proxy-ca.pem"),
                vec!["front-proxy-client".into()],
            )),
        )
        .expect("the fixture CAs")
    })
}

fuzz_target!(|data: &[u8]| {
    // The subject as read after verification: any DER, never a panic.
    if let Some(user) = user_from_cert(data) {
        assert!(user.groups.iter().any(|g| g == "system:authenticated"));
    }
    for chain in [&[data][..], &[data, ALICE][..], &[ALICE, data][..]] {
        let Some((user, front_proxy)) = certs().peer(chain) else {
            panic!("a non-empty chain got no verdict");
        };
        match user {
            Ok(user) => {
                assert_eq!(
                    user.name, "alice",
                    "a certificate the CA never signed: {user:?}"
                );
                assert_eq!(chain[0], ALICE);
            }
            Err(why) => {
                // The fixture itself must authenticate, or the target tests nothing.
                assert!(
                    chain != [ALICE],
                    "the CA's own certificate was refused: {why}"
                );
                assert!(!why.is_empty());
            }
        }
        match front_proxy {
            Some(Ok(())) => {
                let user = user_from_cert(chain[0]).expect("a verified front proxy has a CN");
                assert_eq!(user.name, "front-proxy-client");
            }
            Some(Err(why)) => assert!(!why.is_empty()),
            None => panic!("a request-header CA is configured"),
        }
    }
});
