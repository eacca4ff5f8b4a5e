//! The evaluation of a pod (or a pod template) against a level and version: the checks of
//! pod-security-admission v0.33 (Kubernetes 1.33) in upstream's order (baseline checks by
//! ID, then restricted ones, a restricted check replacing the baseline check it overrides),
//! each as of the policy version asked for, and the violations worded as upstream joins
//! them (`reason (detail), reason (detail)`).

use std::fmt;

use serde_json::Value;

use super::{baseline, restricted};

/// From this version on, restricted checks of Linux-only fields skip Windows pods.
pub(super) const WINDOWS_EXEMPT: u32 = 25;
/// The newest version any check changes at; later versions (and `latest`) evaluate as it.
const MAX_MINOR: u32 = 32;

/// A policy level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Level {
    /// Anything goes.
    Privileged,
    /// Known privilege escalations prevented.
    Baseline,
    /// Hardening best practices.
    Restricted,
}

impl Level {
    /// A level label's value; upstream's message when it is not one.
    pub(crate) fn parse(s: &str) -> Result<Level, &'static str> {
        match s {
            "privileged" => Ok(Level::Privileged),
            "baseline" => Ok(Level::Baseline),
            "restricted" => Ok(Level::Restricted),
            _ => Err("must be one of privileged, baseline, restricted"),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }
}

/// A policy version: `latest` or `v1.<minor>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Version {
    /// Always the newest checks.
    Latest,
    /// The checks as of Kubernetes 1.<minor>.
    Minor(u32),
}

impl Version {
    /// A version label's value; upstream's message when it is not one.
    pub(crate) fn parse(s: &str) -> Result<Version, &'static str> {
        const WHY: &str = "must be \"latest\" or \"v1.x\"";
        if s == "latest" {
            return Ok(Version::Latest);
        }
        let minor = s.strip_prefix("v1.").ok_or(WHY)?;
        let canonical = minor == "0" || (!minor.starts_with('0') && !minor.is_empty());
        if !canonical || !minor.bytes().all(|b| b.is_ascii_digit()) {
            return Err(WHY);
        }
        minor.parse().map(Version::Minor).map_err(|_| WHY)
    }

    fn minor(self) -> u32 {
        match self {
            Version::Latest => MAX_MINOR,
            Version::Minor(m) => m.min(MAX_MINOR),
        }
    }
}

/// A level at a version, printed `restricted:latest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct LevelVersion {
    /// The level.
    pub(crate) level: Level,
    /// The version.
    pub(crate) version: Version,
}

impl fmt::Display for LevelVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Version::Latest => write!(f, "{}:latest", self.level.as_str()),
            Version::Minor(m) => write!(f, "{}:v1.{m}", self.level.as_str()),
        }
    }
}

/// One check's finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    /// Short, always shown (`privileged`).
    pub(crate) reason: String,
    /// What exactly (`container "c" must not set securityContext.privileged=true`).
    pub(crate) detail: String,
}

impl Violation {
    pub(super) fn new(reason: impl Into<String>, detail: impl Into<String>) -> Violation {
        Violation {
            reason: reason.into(),
            detail: detail.into(),
        }
    }
}

/// The reasons alone, comma-joined (upstream's ForbiddenReason).
pub(crate) fn reasons(vs: &[Violation]) -> String {
    vs.iter()
        .map(|v| v.reason.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reasons with their details (upstream's ForbiddenDetail).
pub(crate) fn details(vs: &[Violation]) -> String {
    vs.iter()
        .map(|v| match v.detail.is_empty() {
            true => v.reason.clone(),
            false => format!("{} ({})", v.reason, v.detail),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

type CheckFn = fn(&Value, &Value, u32) -> Option<Violation>;

/// The baseline checks, by ID order.
const BASELINE: &[(&str, CheckFn)] = &[
    ("appArmorProfile", baseline::app_armor),
    ("capabilities_baseline", baseline::capabilities),
    ("hostNamespaces", baseline::host_namespaces),
    ("hostPathVolumes", baseline::host_path_volumes),
    ("hostPorts", baseline::host_ports),
    ("privileged", baseline::privileged),
    ("procMount", baseline::proc_mount),
    ("seLinuxOptions", baseline::se_linux),
    ("seccompProfile_baseline", baseline::seccomp),
    ("sysctls", baseline::sysctls),
    ("windowsHostProcess", baseline::windows_host_process),
];

/// The restricted checks, by ID order: the version they start at and the baseline check
/// they replace from then on.
const RESTRICTED: &[(&str, u32, Option<&str>, CheckFn)] = &[
    (
        "allowPrivilegeEscalation",
        8,
        None,
        restricted::allow_privilege_escalation,
    ),
    (
        "capabilities_restricted",
        22,
        Some("capabilities_baseline"),
        restricted::capabilities,
    ),
    (
        "restrictedVolumes",
        0,
        Some("hostPathVolumes"),
        restricted::volumes,
    ),
    ("runAsNonRoot", 0, None, restricted::run_as_non_root),
    ("runAsUser", 23, None, restricted::run_as_user),
    (
        "seccompProfile_restricted",
        19,
        Some("seccompProfile_baseline"),
        restricted::seccomp,
    ),
];

/// What `meta` and `spec` (a pod's or a template's) violate at `lv`, in upstream's order.
pub(crate) fn evaluate(lv: LevelVersion, meta: &Value, spec: &Value) -> Vec<Violation> {
    let minor = lv.version.minor();
    let restricted: Vec<&(&str, u32, Option<&str>, CheckFn)> = match lv.level {
        Level::Privileged => return Vec::new(),
        Level::Baseline => Vec::new(),
        Level::Restricted => RESTRICTED.iter().filter(|c| minor >= c.1).collect(),
    };
    let overridden = |id: &str| restricted.iter().any(|c| c.2 == Some(id));
    let mut out: Vec<Violation> = BASELINE
        .iter()
        .filter(|(id, _)| !overridden(id))
        .filter_map(|(_, check)| check(meta, spec, minor))
        .collect();
    out.extend(restricted.iter().filter_map(|c| (c.3)(meta, spec, minor)));
    out
}

/// Every container of a spec: init containers, containers, ephemeral containers.
pub(super) fn containers(spec: &Value) -> impl Iterator<Item = &Value> {
    ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(move |k| spec.get(k).and_then(Value::as_array).into_iter().flatten())
}

/// The value at `path`, unless absent or null.
pub(super) fn nonnull<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    v.pointer(path).filter(|v| !v.is_null())
}

/// A container's securityContext, unless absent or null.
pub(super) fn sc(c: &Value) -> Option<&Value> {
    nonnull(c, "/securityContext")
}

pub(super) fn name_of(v: &Value) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

pub(super) fn plural<'a>(one: &'a str, many: &'a str, n: usize) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `"a", "b"`.
pub(super) fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let inner: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    format!("\"{}\"", inner.join("\", \""))
}

/// `pod and containers "a", "b"`, or `None` when nothing is set wrongly.
pub(super) fn setters(pod: bool, containers: &[String]) -> Option<String> {
    let mut who = Vec::new();
    if pod {
        who.push("pod".to_owned());
    }
    if !containers.is_empty() {
        who.push(format!(
            "{} {}",
            plural("container", "containers", containers.len()),
            join_quote(containers)
        ));
    }
    (!who.is_empty()).then(|| who.join(" and "))
}
