//! `--worker-memory-limit` and `--worker-cpu-limit`: the most memory and CPU each worker
//! may use, as `role=quantity[,role=quantity…]` (`extensions=2Gi,kube-api=4Gi`,
//! `extensions=500m`). A worker over its memory limit fails alone and is restarted like
//! any crashed worker while the others keep serving; one over its CPU limit is
//! throttled.
//!
//! Enforced with cgroup v2 under a delegated unit (`cgroup.rs`). Without one, memory
//! limits fall back to `RLIMIT_DATA` set between fork and exec: the kernel then refuses
//! the worker's heap and anonymous mappings past the limit, and the worker aborts. CPU
//! limits have no such fallback: asking for one without cgroup v2 is a start error.

use std::collections::BTreeMap;
use std::sync::Arc;

use kas_proto::WorkerRole;
use kas_schema::quantity::Quantity;

use crate::cgroup::Cgroups;

/// How the limits are applied.
#[derive(Debug, Clone, Default)]
pub(crate) enum Enforcement {
    #[default]
    Unlimited,
    /// Memory limits as `RLIMIT_DATA`, bytes per worker.
    Rlimit(BTreeMap<WorkerRole, u64>),
    Cgroups(Arc<Cgroups>),
}

impl Enforcement {
    /// Chooses how to apply the limits on this host, taking over the delegated cgroup
    /// when there is one; an error when CPU limits cannot be applied.
    pub(crate) fn choose(
        memory: BTreeMap<WorkerRole, u64>,
        cpu: BTreeMap<WorkerRole, u64>,
    ) -> Result<Enforcement, String> {
        if memory.is_empty() && cpu.is_empty() {
            return Ok(Enforcement::Unlimited);
        }
        match Cgroups::setup(memory.clone(), cpu.clone()) {
            Ok(c) => {
                tracing::info!("worker limits: cgroup v2 (memory.max, cpu.max)");
                Ok(Enforcement::Cgroups(Arc::new(c)))
            }
            Err(e) if cpu.is_empty() => {
                tracing::warn!(reason = %e, "worker memory limits fall back to RLIMIT_DATA: no delegated cgroup v2");
                Ok(Enforcement::Rlimit(memory))
            }
            Err(e) => Err(format!(
                "--worker-cpu-limit needs a cgroup v2 hierarchy delegated to this service: {e}"
            )),
        }
    }

    /// `RLIMIT_DATA` for `role`, when that is how memory is limited.
    pub(crate) fn rlimit(&self, role: WorkerRole) -> Option<u64> {
        match self {
            Enforcement::Rlimit(m) => m.get(&role).copied(),
            _ => None,
        }
    }

    pub(crate) fn cgroups(&self) -> Option<Arc<Cgroups>> {
        match self {
            Enforcement::Cgroups(c) => Some(c.clone()),
            _ => None,
        }
    }
}

/// What a flag's quantities mean.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Unit {
    Bytes,
    /// Thousandths of a CPU.
    MilliCpu,
}

/// Parses the flag's value; an empty value sets no limit.
pub(crate) fn parse(v: &str, unit: Unit) -> Result<BTreeMap<WorkerRole, u64>, String> {
    let mut limits = BTreeMap::new();
    for item in v.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((role, quantity)) = item.split_once('=') else {
            return Err(format!("{item:?} is not role=quantity"));
        };
        let role: WorkerRole = role.trim().parse().map_err(|e| format!("{item:?}: {e}"))?;
        let (value, what) = match unit {
            Unit::Bytes => (Quantity::value as fn(Quantity) -> i128, "bytes"),
            Unit::MilliCpu => (Quantity::milli_value as fn(Quantity) -> i128, "CPUs"),
        };
        let amount = Quantity::parse(quantity.trim())
            .map(value)
            .filter(|b| *b > 0)
            .and_then(|b| u64::try_from(b).ok())
            .ok_or_else(|| {
                format!("{item:?}: {quantity:?} is not a positive quantity of {what}")
            })?;
        if limits.insert(role, amount).is_some() {
            return Err(format!("{role} is given twice"));
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_quantities() {
        let got = parse("extensions=2Gi, kube-api=512M", Unit::Bytes).unwrap();
        assert_eq!(got[&WorkerRole::Extensions], 2 << 30);
        assert_eq!(got[&WorkerRole::KubeApi], 512_000_000);
        assert!(parse("", Unit::Bytes).unwrap().is_empty());
        let got = parse("extensions=500m,kube-api=2", Unit::MilliCpu).unwrap();
        assert_eq!(got[&WorkerRole::Extensions], 500);
        assert_eq!(got[&WorkerRole::KubeApi], 2000);
        for bad in [
            "kube-api",
            "nobody=1Gi",
            "kube-api=lots",
            "kube-api=0",
            "kube-api=-1Gi",
            "kube-api=1Gi,kube-api=2Gi",
        ] {
            assert!(parse(bad, Unit::Bytes).is_err(), "{bad}");
            assert!(parse(bad, Unit::MilliCpu).is_err(), "{bad}");
        }
    }
}
