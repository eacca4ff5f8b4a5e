//! kubectl against one test server, with a private discovery cache dir so no test sees
//! another's.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use super::Server;

/// kubectl against one server, with a private cache dir.
pub struct Kubectl {
    binary: String,
    kubeconfig: PathBuf,
    cache: tempfile::TempDir,
}

impl Kubectl {
    pub fn new(server: &Server) -> Kubectl {
        Kubectl::pinned(server, "kubectl")
    }

    /// kubectl 1.`minor`: the pinned binaries (`kubectl.1.27` … `kubectl.1.33`) sit
    /// beside the real binary the `kubectl` on PATH resolves to (the gcloud SDK's).
    pub fn minor(server: &Server, minor: u32) -> Kubectl {
        let path = std::env::var_os("PATH").expect("PATH");
        let on_path = std::env::split_paths(&path)
            .map(|d| d.join("kubectl"))
            .find(|p| p.is_file())
            .expect("kubectl on PATH");
        let real = std::fs::canonicalize(on_path).expect("resolve kubectl");
        let pinned = real.with_file_name(format!("kubectl.1.{minor}"));
        assert!(pinned.is_file(), "{} is missing", pinned.display());
        Kubectl::pinned(server, &pinned.to_string_lossy())
    }

    fn pinned(server: &Server, binary: &str) -> Kubectl {
        Kubectl {
            binary: binary.to_owned(),
            kubeconfig: server.kubeconfig(),
            cache: tempfile::tempdir().expect("cache dir"),
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.binary);
        c.arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(self.cache.path())
            .args(args);
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run kubectl")
    }

    pub fn run_stdin(&self, args: &[&str], input: &str) -> Output {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn kubectl");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
        child.wait_with_output().expect("kubectl output")
    }

    /// Starts kubectl with `args` (a `--watch`) and hands back its stdout line by line as
    /// they come; kill the child when done.
    pub fn watch_lines(
        &self,
        args: &[&str],
    ) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
        use std::io::{BufRead, BufReader};
        let mut child = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kubectl --watch");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        (child, rx)
    }

    /// Waits (up to 30 s) until CRD `name` is Established. A CRD read before its
    /// establishing controller has run has `status.conditions: null` (as kube-apiserver's
    /// has: the field is not omitempty), which `kubectl wait` reports as an error
    /// instead of waiting; that answer is asked again.
    pub fn wait_established(&self, name: &str) {
        let crd = format!("crd/{name}");
        let args = ["wait", "--for=condition=Established", "--timeout=30s", &crd];
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let out = self.run(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.success() {
                return;
            }
            assert!(
                stderr.contains(".status.conditions accessor error")
                    && std::time::Instant::now() < deadline,
                "kubectl {args:?} failed: {}{stderr}",
                String::from_utf8_lossy(&out.stdout)
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Runs and requires success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "kubectl {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn ok_stdin(&self, args: &[&str], input: &str) -> String {
        let out = self.run_stdin(args, input);
        assert!(
            out.status.success(),
            "kubectl {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// With `input` on stdin, runs and requires failure; returns stderr.
    pub fn fails_stdin(&self, args: &[&str], input: &str) -> String {
        let out = self.run_stdin(args, input);
        assert!(
            !out.status.success(),
            "kubectl {args:?} should fail: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// Runs and requires failure; returns stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            !out.status.success(),
            "kubectl {args:?} should fail: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}
