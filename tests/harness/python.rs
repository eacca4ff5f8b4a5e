//! The official Python client (`kubernetes` from PyPI, the release for API 1.33) as a
//! third real client: a venv made once per machine under the target directory, shared by
//! every test binary (made beside it and renamed into place, so racing makers are safe).

use std::path::PathBuf;
use std::process::Command;

use super::Server;

const PACKAGE: &str = "kubernetes==33.1.0";

fn venv_dir() -> PathBuf {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    target.join("python-kubernetes-33.1.0")
}

fn usable(dir: &std::path::Path) -> bool {
    Command::new(dir.join("bin/python"))
        .args(["-c", "import kubernetes"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The venv's python, made if missing; `None` (a skip) when it cannot be made outside CI.
pub fn python() -> Option<PathBuf> {
    let dir = venv_dir();
    if !usable(&dir) {
        let staging = dir.with_extension(format!("making-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&staging);
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&staging)
            .status()
            .is_ok_and(|s| s.success())
            && Command::new(staging.join("bin/python"))
                .args([
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--disable-pip-version-check",
                    PACKAGE,
                ])
                .status()
                .is_ok_and(|s| s.success());
        if made {
            // Another maker may have won the race; its venv is as good.
            if std::fs::rename(&staging, &dir).is_err() {
                let _ = std::fs::remove_dir_all(&staging);
            }
        } else {
            let _ = std::fs::remove_dir_all(&staging);
        }
        if !usable(&dir) {
            assert!(
                std::env::var_os("CI").is_none(),
                "could not make a venv with {PACKAGE}; CI must have python3 and PyPI"
            );
            eprintln!("skipping: no venv with {PACKAGE}");
            return None;
        }
    }
    Some(dir.join("bin/python"))
}

/// Runs `script` with the Python client against `server` (its admin kubeconfig is the
/// first argument) and returns what it printed; panics with its stderr if it failed.
pub fn run(python: &std::path::Path, server: &Server, script: &str) -> String {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(server.kubeconfig())
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
