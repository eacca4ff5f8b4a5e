//! Compiles the etcd v3 `.proto` files with `protox` (pure Rust), so no `protoc` is needed.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile(["proto/kv.proto", "proto/rpc.proto"], ["proto"])?;
    tonic_prost_build::configure()
        .build_client(false)
        .build_server(true)
        .bytes(".")
        .compile_fds(fds)?;
    Ok(())
}
