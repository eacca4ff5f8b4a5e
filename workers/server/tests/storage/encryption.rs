//! Encryption at rest at the storage layer, on both backends: what one client writes for
//! an encrypted resource is ciphertext to a client without the configuration, plain text
//! to GET, LIST (and its filter), WATCH and DELETE of a client with it; a value that does
//! not decrypt is an error for that read, never garbage.

use kas_proto::{EncryptionConfig, EncryptionKey, EncryptionProvider, EncryptionRule};

use super::{backends, obj, ListOptions, ReadVersion, StorageError, WatchEvent};

fn rules(providers: Vec<EncryptionProvider>) -> Option<EncryptionConfig> {
    Some(EncryptionConfig {
        rules: vec![EncryptionRule {
            resources: vec!["secrets".into()],
            providers,
        }],
    })
}

fn cbc() -> EncryptionProvider {
    EncryptionProvider::AesCbc(vec![EncryptionKey {
        name: "key1".into(),
        secret: vec![1; 32],
    }])
}

fn transform_error(r: Result<impl std::fmt::Debug, StorageError>) -> String {
    match r {
        Err(StorageError::Transform(why)) => why,
        other => panic!("expected a transform error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_read_path_sees_plain_text_and_raw_storage_sees_ciphertext() {
    for backend in backends() {
        let b = backend.name();
        let enc = backend.storage_with("/registry", rules(vec![cbc()])).await;
        let raw = backend.storage("/registry").await;
        let prefix = enc.list_prefix("secrets", None);
        let mut watch = enc.watch(&prefix, 0).await.expect("watch");

        let key = enc.key("secrets", Some("default"), "a");
        enc.create(&key, obj(1), None).await.expect("create");
        let got = enc
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!((got.value, got.stale), (obj(1), false), "{b}");
        assert_eq!(
            transform_error(raw.get(&key, ReadVersion::Latest).await),
            "identity transformer tried to read encrypted data",
            "{b}: a client without the configuration refuses the ciphertext"
        );
        match watch.next().await.expect("event") {
            Some(WatchEvent::Added(o)) => assert_eq!(o.value, obj(1), "{b}"),
            other => panic!("{b}: {other:?}"),
        }
        let keep_one = |v: &[u8]| v == obj(1).as_slice();
        let page = enc
            .list(
                &prefix,
                ReadVersion::Latest,
                &ListOptions::default(),
                Some(&keep_one),
            )
            .await
            .expect("list");
        assert_eq!(page.items.len(), 1, "{b}: the filter saw plain text");

        // Other resources are stored as they are.
        let cm = enc.key("configmaps", Some("default"), "c");
        enc.create(&cm, obj(2), None).await.expect("create");
        let plain = raw.get(&cm, ReadVersion::Latest).await.expect("get");
        assert_eq!(plain.map(|o| o.value), Some(obj(2)), "{b}");

        // After a rotation the old value reads, marked stale.
        let rotated = backend
            .storage_with(
                "/registry",
                rules(vec![
                    EncryptionProvider::AesGcm(vec![EncryptionKey {
                        name: "key2".into(),
                        secret: vec![2; 16],
                    }]),
                    cbc(),
                ]),
            )
            .await;
        let old = rotated
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!((old.value, old.stale), (obj(1), true), "{b}");

        // A plain value where the list has no identity: that read fails, and so do the
        // list and the watch meeting it.
        let bad = enc.key("secrets", Some("default"), "plain");
        raw.create(&bad, obj(3), None).await.expect("create");
        assert_eq!(
            transform_error(enc.get(&bad, ReadVersion::Latest).await),
            "no matching prefix found",
            "{b}"
        );
        let why = transform_error(
            enc.list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
                .await,
        );
        assert_eq!(
            why,
            "unable to transform key \"/registry/secrets/default/plain\": no matching prefix found",
            "{b}"
        );
        assert!(
            transform_error(watch.next().await).contains("no matching prefix found"),
            "{b}"
        );
        // The good one still reads, and its delete hands back plain text.
        let gone = enc.delete(&key, None).await.expect("delete");
        assert_eq!(gone.value, obj(1), "{b}");
    }
}
