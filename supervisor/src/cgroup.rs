//! Per-worker cgroups (cgroup v2) for `--worker-memory-limit` and `--worker-cpu-limit`,
//! under the cgroup systemd delegates to the unit (`Delegate=` in the unit file).
//!
//! The supervisor moves itself into a leaf `supervisor/` of its cgroup (cgroup v2 lets a
//! cgroup hand controllers to its children only when it holds no process itself),
//! enables the memory and cpu controllers for the children, and starts each limited
//! worker in a cgroup of its own, `<role>-<generation>/`: during a reload the draining
//! worker and its replacement each keep their own limit. The child moves itself in
//! between fork and exec (it writes `0` to the cgroup's `cgroup.procs`, opened by the
//! parent), so it never runs a line of the worker unlimited. A worker over `memory.max`
//! is killed by the kernel — every process of its cgroup (`memory.oom.group`), without
//! swapping first (`memory.swap.max` 0) — and restarted like any crashed worker; the
//! supervisor reads `memory.events` to say why and removes the cgroup.
//!
//! Without a delegated cgroup v2 hierarchy memory limits fall back to `RLIMIT_DATA`
//! (`worker_limits.rs`); CPU limits have no such fallback and are a start error.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use kas_proto::WorkerRole;

/// Test-only: a directory to use as this process's own cgroup instead of the one
/// `/proc/self/cgroup` names (the tests run on hosts without a delegated hierarchy).
pub(crate) const DIR_ENV: &str = "KUBE_APISERVER_RS_CGROUP_DIR";
/// Where the unified (v2) hierarchy is mounted.
const ROOT: &str = "/sys/fs/cgroup";
/// The leaf the supervisor moves itself into.
const OWN_LEAF: &str = "supervisor";
/// cpu.max's period, in microseconds (the kernel's default).
const CPU_PERIOD_US: u64 = 100_000;

/// The limits and where they are applied.
#[derive(Debug)]
pub(crate) struct Cgroups {
    /// The cgroup delegated to us (the unit's).
    base: PathBuf,
    memory: BTreeMap<WorkerRole, u64>,
    /// Thousandths of a CPU.
    cpu: BTreeMap<WorkerRole, u64>,
}

/// The cgroup this process is in, and whether it is the leaf an earlier image of this
/// supervisor (before a binary upgrade) moved into.
fn own_cgroup() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(DIR_ENV) {
        return Ok(PathBuf::from(dir));
    }
    let root = Path::new(ROOT);
    if !root.join("cgroup.controllers").exists() {
        return Err(format!(
            "{ROOT} is not a cgroup v2 (unified) hierarchy; this host mounts cgroup v1"
        ));
    }
    let text = fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("reading /proc/self/cgroup: {e}"))?;
    let rel = text
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .ok_or("/proc/self/cgroup names no cgroup v2 path")?;
    Ok(root.join(rel.trim_start_matches('/')))
}

fn write(path: &Path, value: &str) -> Result<(), String> {
    fs::write(path, value).map_err(|e| format!("writing {value:?} to {}: {e}", path.display()))
}

impl Cgroups {
    /// Takes over the delegated cgroup for these limits: the supervisor moves into its
    /// leaf and the controllers the limits need are enabled for the workers' cgroups.
    pub(crate) fn setup(
        memory: BTreeMap<WorkerRole, u64>,
        cpu: BTreeMap<WorkerRole, u64>,
    ) -> Result<Cgroups, String> {
        let mut base = own_cgroup()?;
        if base.file_name().is_some_and(|n| n == OWN_LEAF) {
            // Re-executed after a binary upgrade: the leaf is ours already.
            base.pop();
        }
        let mut wanted = Vec::new();
        if !memory.is_empty() {
            wanted.push("memory");
        }
        if !cpu.is_empty() {
            wanted.push("cpu");
        }
        let available = fs::read_to_string(base.join("cgroup.controllers"))
            .map_err(|e| format!("reading {}/cgroup.controllers: {e}", base.display()))?;
        if let Some(missing) = wanted
            .iter()
            .find(|c| !available.split_whitespace().any(|a| a == **c))
        {
            return Err(format!(
                "the {missing} controller is not delegated to {} (the unit needs Delegate=yes or Delegate={})",
                base.display(),
                wanted.join(" ")
            ));
        }
        // Controllers reach children only from a cgroup without processes: ours must
        // hold no one but us (a unit's cgroup does; a login shell's does not).
        let procs = fs::read_to_string(base.join("cgroup.procs")).unwrap_or_default();
        let me = std::process::id().to_string();
        if procs.split_whitespace().any(|p| p != me) {
            return Err(format!(
                "{} holds other processes than this server (run it as a service of its own)",
                base.display()
            ));
        }
        let leaf = base.join(OWN_LEAF);
        match fs::create_dir(&leaf) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("creating {}: {e}", leaf.display())),
        }
        write(&leaf.join("cgroup.procs"), &std::process::id().to_string())?;
        let enable: Vec<String> = wanted.iter().map(|c| format!("+{c}")).collect();
        write(&base.join("cgroup.subtree_control"), &enable.join(" ")).map_err(|e| {
            format!("{e} (another process may share this cgroup: run one server per unit)")
        })?;
        Ok(Cgroups { base, memory, cpu })
    }

    fn dir(&self, role: WorkerRole, generation: u64) -> PathBuf {
        self.base.join(format!("{role}-{generation}"))
    }

    /// Creates the cgroup of one worker process with its limits, and returns its
    /// `cgroup.procs` opened for the child to move itself in; `None` for a worker without
    /// limits (it stays beside the supervisor).
    pub(crate) fn prepare(
        &self,
        role: WorkerRole,
        generation: u64,
    ) -> Result<Option<OwnedFd>, String> {
        let memory = self.memory.get(&role);
        let cpu = self.cpu.get(&role);
        if memory.is_none() && cpu.is_none() {
            return Ok(None);
        }
        let dir = self.dir(role, generation);
        match fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("creating {}: {e}", dir.display())),
        }
        if let Some(bytes) = memory {
            write(&dir.join("memory.max"), &bytes.to_string())?;
            // Killed at the limit rather than slowed by swapping; the whole worker.
            if dir.join("memory.swap.max").exists() {
                write(&dir.join("memory.swap.max"), "0")?;
            }
            write(&dir.join("memory.oom.group"), "1")?;
        }
        if let Some(millis) = cpu {
            write(&dir.join("cpu.max"), &cpu_max(*millis))?;
        }
        let procs = dir.join("cgroup.procs");
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&procs)
            .map_err(|e| format!("opening {}: {e}", procs.display()))?;
        Ok(Some(file.into()))
    }

    /// A worker process ended: logs it when the kernel killed it for its memory limit,
    /// and its cgroup goes.
    pub(crate) fn exited_logged(&self, role: WorkerRole, generation: u64, pid: Option<u32>) {
        if let Some(why) = self.exited(role, generation) {
            tracing::error!(worker = %role, pid, reason = %why, "the kernel killed the worker");
        }
    }

    fn exited(&self, role: WorkerRole, generation: u64) -> Option<String> {
        let dir = self.dir(role, generation);
        if !dir.exists() {
            return None;
        }
        let events = fs::read_to_string(dir.join("memory.events")).unwrap_or_default();
        let oom = oom_kills(&events) > 0;
        if let Err(e) = fs::remove_dir(&dir) {
            tracing::debug!(dir = %dir.display(), error = %e, "cannot remove a worker's cgroup");
        }
        oom.then(|| {
            let limit = self.memory.get(&role).copied().unwrap_or_default();
            format!("over its memory limit ({limit} bytes, memory.max)")
        })
    }
}

/// `cpu.max` for thousandths of a CPU: the quota per period.
fn cpu_max(millis: u64) -> String {
    let quota = (millis * CPU_PERIOD_US / 1000).max(1000);
    format!("{quota} {CPU_PERIOD_US}")
}

/// The `oom_kill` count of a `memory.events` file.
fn oom_kills(events: &str) -> u64 {
    events
        .lines()
        .find_map(|l| l.strip_prefix("oom_kill "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_quota_per_period() {
        assert_eq!(cpu_max(500), "50000 100000");
        assert_eq!(cpu_max(2000), "200000 100000");
        // The kernel's smallest quota is 1 ms.
        assert_eq!(cpu_max(1), "1000 100000");
    }

    #[test]
    fn oom_kill_count() {
        let events = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 1\n";
        assert_eq!(oom_kills(events), 1);
        assert_eq!(oom_kills("oom 0\n"), 0);
        assert_eq!(oom_kills(""), 0);
    }
}
