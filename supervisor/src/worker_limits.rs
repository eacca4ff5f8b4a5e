//! `--worker-memory-limit`: the most memory each worker may use, as
//! `role=quantity[,role=quantity…]` (`extensions=2Gi,kube-api=4Gi`). A worker over its
//! limit fails alone — its allocation is refused and it aborts — and is restarted like any
//! crashed worker while the others keep serving.
//!
//! Enforced with `RLIMIT_DATA` set between fork and exec: the kernel then refuses the
//! worker's heap and anonymous mappings past the limit. (cgroup v2 memory.max under a
//! delegated unit is not used yet: see the README.)

use std::collections::BTreeMap;

use kas_proto::WorkerRole;

/// Parses the flag's value; an empty value sets no limit.
pub(crate) fn parse(v: &str) -> Result<BTreeMap<WorkerRole, u64>, String> {
    let mut limits = BTreeMap::new();
    for item in v.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((role, quantity)) = item.split_once('=') else {
            return Err(format!("{item:?} is not role=quantity"));
        };
        let role: WorkerRole = role.trim().parse().map_err(|e| format!("{item:?}: {e}"))?;
        let bytes = kas_schema::quantity::Quantity::parse(quantity.trim())
            .map(|q| q.value())
            .filter(|b| *b > 0)
            .and_then(|b| u64::try_from(b).ok())
            .ok_or_else(|| format!("{item:?}: {quantity:?} is not a positive quantity of bytes"))?;
        if limits.insert(role, bytes).is_some() {
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
        let got = parse("extensions=2Gi, kube-api=512M").unwrap();
        assert_eq!(got[&WorkerRole::Extensions], 2 << 30);
        assert_eq!(got[&WorkerRole::KubeApi], 512_000_000);
        assert!(parse("").unwrap().is_empty());
        for bad in [
            "kube-api",
            "nobody=1Gi",
            "kube-api=lots",
            "kube-api=0",
            "kube-api=-1Gi",
            "kube-api=1Gi,kube-api=2Gi",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
