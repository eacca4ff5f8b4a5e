//! The Service network flags: `--service-cluster-ip-range` (one CIDR per IP family) and
//! `--service-node-port-range`.

use ipnet::IpNet;

use super::Errors;

const SCIP: &str = "--service-cluster-ip-range";

pub(super) fn service_ranges(errs: &mut Errors, v: &str) -> Vec<IpNet> {
    let mut nets = Vec::new();
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() > 2 {
        errs.push(SCIP, "may contain at most two CIDRs (one per IP family)");
    }
    for part in parts {
        match part.parse::<IpNet>() {
            Ok(net) => {
                let host_bits = net.max_prefix_len() - net.prefix_len();
                match net {
                    IpNet::V4(_) if host_bits > 20 => errs.push(
                        SCIP,
                        format!(
                            "{part} is too large; for 32-bit addresses, the mask must be >= 12"
                        ),
                    ),
                    IpNet::V6(_) if net.prefix_len() < 108 => errs.push(
                        SCIP,
                        format!(
                            "{part} is too large; for 128-bit addresses, the mask must be >= 108"
                        ),
                    ),
                    _ if host_bits < 2 => errs.push(
                        SCIP,
                        format!("{part} is too small to hold any service address"),
                    ),
                    _ => nets.push(net.trunc()),
                }
            }
            Err(_) => errs.push(SCIP, format!("{part:?} is not a valid CIDR")),
        }
    }
    if nets.len() == 2 && nets[0].addr().is_ipv4() == nets[1].addr().is_ipv4() {
        errs.push(SCIP, "two CIDRs must be of different IP families");
    }
    nets
}

pub(super) fn node_port_range(errs: &mut Errors, v: &str) -> (u16, u16) {
    const FLAG: &str = "--service-node-port-range";
    let parsed = if let Some((a, b)) = v.split_once('-') {
        a.trim()
            .parse::<u16>()
            .ok()
            .zip(b.trim().parse::<u16>().ok())
    } else if let Some((a, n)) = v.split_once('+') {
        a.trim()
            .parse::<u16>()
            .ok()
            .zip(n.trim().parse::<u16>().ok())
            .and_then(|(a, n)| a.checked_add(n).map(|b| (a, b)))
    } else {
        v.trim().parse::<u16>().ok().map(|p| (p, p))
    };
    match parsed {
        Some((a, b)) if a <= b && a > 0 => (a, b),
        _ => {
            errs.push(
                FLAG,
                format!("{v:?} is not a valid port range (e.g. 30000-32767 or 30000+2767)"),
            );
            (30000, 32767)
        }
    }
}
