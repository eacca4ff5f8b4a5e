//! Compiles the KMS v2 plugin API (workers/server/proto/kms_v2.proto) with `protox` (pure
//! Rust, no `protoc`). The client is always built; the server side, which only the test
//! plugin needs, is behind the `kms-plugin-server` feature.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile(["proto/kms_v2.proto"], ["proto"])?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .server_mod_attribute("v2", "#[cfg(feature = \"kms-plugin-server\")]")
        .bytes(".")
        .compile_fds(fds)?;
    Ok(())
}
