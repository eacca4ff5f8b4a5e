//! Finding a server's worker processes through `/proc` (the children of the supervisor
//! whose command line holds `__worker <role>`) and reading their memory use.

use std::fs;

/// The pid of `supervisor`'s child running `__worker <role>`, if there is one right now.
/// A worker that was killed but not yet reaped is a zombie with an empty command line,
/// so it is not found: only a running (or starting) worker is.
pub fn worker_pid(supervisor: u32, role: &str) -> Option<u32> {
    let entries = fs::read_dir("/proc").ok()?;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        // Processes come and go while we scan: any read error means "not this one".
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if parent_of(&stat) != Some(supervisor) {
            continue;
        }
        let Ok(cmdline) = fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if runs_worker(&cmdline, role) {
            return Some(pid);
        }
    }
    None
}

/// Every running worker of `supervisor`: (pid, role), by pid.
pub fn workers(supervisor: u32) -> Vec<(u32, String)> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if parent_of(&stat) != Some(supervisor) {
            continue;
        }
        let Ok(cmdline) = fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if let Some(role) = role_of(&cmdline) {
            found.push((pid, role));
        }
    }
    found.sort();
    found
}

/// Memory of one process from `/proc/<pid>/status`, KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Memory {
    /// Resident set now (`VmRSS`).
    pub rss_kib: u64,
    /// Highest resident set so far (`VmHWM`).
    pub hwm_kib: u64,
}

/// The memory of `pid`, if it is running.
pub fn memory(pid: u32) -> Option<Memory> {
    parse_memory(&fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// `VmRSS` and `VmHWM` from the text of `/proc/<pid>/status`.
fn parse_memory(status: &str) -> Option<Memory> {
    let field = |name: &str| {
        status.lines().find_map(|line| {
            let rest = line.strip_prefix(name)?.strip_prefix(':')?;
            rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
        })
    };
    Some(Memory {
        rss_kib: field("VmRSS")?,
        hwm_kib: field("VmHWM")?,
    })
}

/// The role after `__worker` in a NUL-separated command line.
fn role_of(cmdline: &[u8]) -> Option<String> {
    let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
    args.windows(2)
        .find(|w| w[0] == b"__worker" && !w[1].is_empty())
        .map(|w| String::from_utf8_lossy(w[1]).into_owned())
}

/// The parent pid from the text of `/proc/<pid>/stat`. The command name (field 2) is in
/// parentheses and may itself hold spaces and parentheses, so fields are counted from the
/// last `)`: state, then the parent pid.
fn parent_of(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Whether a NUL-separated command line has `__worker` directly followed by `role`.
fn runs_worker(cmdline: &[u8], role: &str) -> bool {
    let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
    args.windows(2)
        .any(|w| w[0] == b"__worker" && w[1] == role.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_parent_pid() {
        assert_eq!(
            parent_of("4242 (kube-apiserver) S 4000 4242 ..."),
            Some(4000)
        );
        assert_eq!(parent_of("17 (a) b (c)) R 1 17 17 0"), Some(1));
        assert_eq!(parent_of("garbage"), None);
    }

    #[test]
    fn matches_the_role_argument() {
        let cmd = b"/bin/kube-apiserver\0__worker\0kube-api\0";
        assert!(runs_worker(cmd, "kube-api"));
        assert!(!runs_worker(cmd, "aggregator"));
        assert!(!runs_worker(
            b"/bin/kube-apiserver\0--secure-port=1\0",
            "kube-api"
        ));
        assert!(!runs_worker(b"", "storage"));
    }

    #[test]
    fn reads_memory_and_roles() {
        let status = "Name:\tkube-apiserver\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\n";
        assert_eq!(
            parse_memory(status),
            Some(Memory {
                rss_kib: 10240,
                hwm_kib: 20480
            })
        );
        assert_eq!(parse_memory("VmRSS: lots\n"), None);
        assert_eq!(parse_memory(""), None);
        assert!(memory(std::process::id()).is_some_and(|m| m.rss_kib > 0));
        assert_eq!(
            role_of(b"/bin/kube-apiserver\0__worker\0storage\0").as_deref(),
            Some("storage")
        );
        assert_eq!(role_of(b"/bin/kube-apiserver\0__worker\0"), None);
        assert_eq!(role_of(b""), None);
        assert!(workers(0).iter().all(|(_, role)| !role.is_empty()));
    }

    #[test]
    fn finds_nothing_under_a_pid_with_no_children() {
        // Pid 0 is never anyone's parent as seen in /proc/<pid>/stat except the kernel
        // threads' roots, which have no `__worker` command line.
        assert_eq!(worker_pid(0, "storage"), None);
    }
}
