//! Kubernetes' `ip` and `cidr` CEL libraries: `ip()`, `isIP()`, `cidr()`, `isCIDR()`,
//! `ip.isCanonical()` and the methods of addresses and prefixes.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;

use cel::common::types::{Type, STRING_TYPE};
use cel::common::value::{CowVal, Val};
use cel::objects::Opaque;
use cel::{DeclarationError, Env, ExecutionError, Value};

const IP_TYPE: &str = "net.IP";
const CIDR_TYPE: &str = "net.CIDR";

/// An address as the `ip` library takes it: no zone, no IPv4-mapped IPv6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ip(IpAddr);

/// A prefix: the address as written and the prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cidr {
    addr: IpAddr,
    len: u8,
}

impl Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        IP_TYPE
    }
}

impl Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        CIDR_TYPE
    }
}

fn parse_ip(s: &str) -> Result<IpAddr, String> {
    let addr: IpAddr = s
        .parse()
        .map_err(|_| format!("IP Address {s:?} parse error during conversion from string"))?;
    if let IpAddr::V6(v6) = addr {
        if v6.to_ipv4_mapped().is_some() {
            return Err(format!("IPv4-mapped IPv6 address {s:?} is not allowed"));
        }
    }
    Ok(addr)
}

fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let err = || format!("network address {s:?} parse error during conversion from string");
    let (addr, len) = s.split_once('/').ok_or_else(err)?;
    let addr = parse_ip(addr).map_err(|_| err())?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let len: u8 = match len.parse() {
        Ok(l) if l <= max && (len == "0" || !len.starts_with('0')) => l,
        _ => return Err(err()),
    };
    Ok(Cidr { addr, len })
}

fn bits(addr: IpAddr) -> (u128, u8) {
    match addr {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => (u128::from(v6), 128),
    }
}

impl Cidr {
    fn mask(&self, addr: IpAddr) -> Option<u128> {
        let (value, width) = bits(addr);
        if width != bits(self.addr).1 {
            return None;
        }
        let host = u32::from(width - self.len);
        Some(value.checked_shr(host).unwrap_or(0))
    }

    fn contains(&self, addr: IpAddr) -> bool {
        self.mask(addr).is_some() && self.mask(addr) == self.mask(self.addr)
    }

    fn masked(&self) -> Cidr {
        let (value, width) = bits(self.addr);
        let host = u32::from(width - self.len);
        let value = value
            .checked_shr(host)
            .and_then(|v| v.checked_shl(host))
            .unwrap_or(0);
        let addr = match self.addr {
            IpAddr::V4(_) => IpAddr::V4((value as u32).into()),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(value)),
        };
        Cidr {
            addr,
            len: self.len,
        }
    }
}

pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let ip = || Type::new_opaque_type(IP_TYPE);
    let cidr = || Type::new_opaque_type(CIDR_TYPE);
    env.add_type(ip())?;
    env.add_type(cidr())?;
    env.add_overload("ip", "string_to_ip", vec![STRING_TYPE], to_ip)?;
    env.add_overload("isIP", "is_ip_string", vec![STRING_TYPE], is_ip)?;
    env.add_overload("cidr", "string_to_cidr", vec![STRING_TYPE], to_cidr)?;
    env.add_overload("isCIDR", "is_cidr_string", vec![STRING_TYPE], is_cidr)?;
    env.add_overload(
        "ip.isCanonical",
        "ip_is_canonical",
        vec![STRING_TYPE],
        canonical,
    )?;
    env.add_overload("string", "ip_to_string", vec![ip()], ip_string)?;
    env.add_overload("string", "cidr_to_string", vec![cidr()], cidr_string)?;
    env.add_member_overload("family", "ip_family", ip(), vec![], family)?;
    for (name, f) in [
        (
            "isUnspecified",
            is_unspecified as cel::common::functions::Function,
        ),
        ("isLoopback", is_loopback),
        ("isLinkLocalMulticast", is_link_local_multicast),
        ("isLinkLocalUnicast", is_link_local_unicast),
        ("isGlobalUnicast", is_global_unicast),
    ] {
        env.add_member_overload(name, &format!("ip_{name}"), ip(), vec![], f)?;
    }
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip",
        cidr(),
        vec![ip()],
        contains_ip,
    )?;
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip_string",
        cidr(),
        vec![STRING_TYPE],
        contains_ip,
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr",
        cidr(),
        vec![cidr()],
        contains_cidr,
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr_string",
        cidr(),
        vec![STRING_TYPE],
        contains_cidr,
    )?;
    env.add_member_overload("ip", "cidr_ip", cidr(), vec![], cidr_ip)?;
    env.add_member_overload("masked", "cidr_masked", cidr(), vec![], masked)?;
    env.add_member_overload("prefixLength", "cidr_prefix_length", cidr(), vec![], prefix)?;
    Ok(())
}

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

fn value(args: &[CowVal<'_, '_>], i: usize) -> Result<Value, ExecutionError> {
    match args.get(i) {
        Some(a) => Value::try_from(a.as_ref()),
        None => Err(ExecutionError::invalid_argument_count(i + 1, args.len())),
    }
}

fn string(function: &str, args: &[CowVal<'_, '_>], i: usize) -> Result<String, ExecutionError> {
    match value(args, i)? {
        Value::String(s) => Ok(s.to_string()),
        _ => Err(ExecutionError::function_error(
            function,
            "expected a string",
        )),
    }
}

fn ip_arg(function: &str, args: &[CowVal<'_, '_>], i: usize) -> Result<IpAddr, ExecutionError> {
    match value(args, i)? {
        Value::Opaque(o) => match o.downcast_ref::<Ip>() {
            Some(ip) => Ok(ip.0),
            None => Err(ExecutionError::function_error(function, "expected an IP")),
        },
        Value::String(s) => parse_ip(&s).map_err(|e| ExecutionError::function_error(function, e)),
        _ => Err(ExecutionError::function_error(function, "expected an IP")),
    }
}

fn cidr_arg(function: &str, args: &[CowVal<'_, '_>], i: usize) -> Result<Cidr, ExecutionError> {
    match value(args, i)? {
        Value::Opaque(o) => match o.downcast_ref::<Cidr>() {
            Some(c) => Ok(*c),
            None => Err(ExecutionError::function_error(function, "expected a CIDR")),
        },
        Value::String(s) => parse_cidr(&s).map_err(|e| ExecutionError::function_error(function, e)),
        _ => Err(ExecutionError::function_error(function, "expected a CIDR")),
    }
}

fn ret<'b, 'v>(value: Value) -> Ret<'b, 'v> {
    let boxed: Box<dyn Val> = value.try_into()?;
    Ok(CowVal::from(boxed))
}

fn to_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let addr = ip_arg("ip", &args, 0)?;
    ret(Value::Opaque(Arc::new(Ip(addr))))
}

fn is_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(parse_ip(&string("isIP", &args, 0)?).is_ok()))
}

fn to_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let cidr = cidr_arg("cidr", &args, 0)?;
    ret(Value::Opaque(Arc::new(cidr)))
}

fn is_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(
        parse_cidr(&string("isCIDR", &args, 0)?).is_ok(),
    ))
}

/// `ip.isCanonical(s)`: whether `s` is written the way the address prints.
fn canonical<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = string("ip.isCanonical", &args, 0)?;
    let addr = parse_ip(&s).map_err(|e| ExecutionError::function_error("ip.isCanonical", e))?;
    ret(Value::Bool(addr.to_string() == s))
}

fn ip_string<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::from(ip_arg("string", &args, 0)?.to_string()))
}

fn cidr_string<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_arg("string", &args, 0)?;
    ret(Value::from(format!("{}/{}", c.addr, c.len)))
}

fn family<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let addr = ip_arg("family", &args, 0)?;
    ret(Value::Int(if addr.is_ipv4() { 4 } else { 6 }))
}

fn is_unspecified<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(
        ip_arg("isUnspecified", &args, 0)?.is_unspecified(),
    ))
}

fn is_loopback<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(ip_arg("isLoopback", &args, 0)?.is_loopback()))
}

fn is_link_local_multicast<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let yes = match ip_arg("isLinkLocalMulticast", &args, 0)? {
        IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
        IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
    };
    ret(Value::Bool(yes))
}

fn is_link_local_unicast<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let yes = match ip_arg("isLinkLocalUnicast", &args, 0)? {
        IpAddr::V4(v4) => v4.is_link_local(),
        IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
    };
    ret(Value::Bool(yes))
}

/// Go's `IsGlobalUnicast`: not unspecified, loopback, multicast, link-local or the
/// IPv4 broadcast address (private addresses count as global).
fn is_global_unicast<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let yes = match ip_arg("isGlobalUnicast", &args, 0)? {
        IpAddr::V4(v4) => {
            !(v4.is_unspecified()
                || v4.is_loopback()
                || v4.is_multicast()
                || v4.is_link_local()
                || v4.is_broadcast())
        }
        IpAddr::V6(v6) => {
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || v6.segments()[0] & 0xffc0 == 0xfe80)
        }
    };
    ret(Value::Bool(yes))
}

fn contains_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_arg("containsIP", &args, 0)?;
    let addr = ip_arg("containsIP", &args, 1)?;
    ret(Value::Bool(c.contains(addr)))
}

fn contains_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let outer = cidr_arg("containsCIDR", &args, 0)?;
    let inner = cidr_arg("containsCIDR", &args, 1)?;
    ret(Value::Bool(
        inner.len >= outer.len && outer.contains(inner.addr),
    ))
}

fn cidr_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_arg("ip", &args, 0)?;
    ret(Value::Opaque(Arc::new(Ip(c.addr))))
}

fn masked<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_arg("masked", &args, 0)?;
    ret(Value::Opaque(Arc::new(c.masked())))
}

fn prefix<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Int(i64::from(
        cidr_arg("prefixLength", &args, 0)?.len,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_addresses_and_prefixes() {
        assert!(parse_ip("10.0.0.1").is_ok());
        assert!(parse_ip("fe80::1").is_ok());
        assert!(parse_ip("::ffff:1.2.3.4").is_err());
        assert!(parse_ip("1.2.3").is_err());
        assert!(parse_cidr("10.0.0.0/8").is_ok());
        assert!(parse_cidr("10.0.0.0/33").is_err());
        assert!(parse_cidr("10.0.0.0/08").is_err());
        assert!(parse_cidr("10.0.0.0").is_err());
        assert!(parse_cidr("::/0").is_ok());
    }

    #[test]
    fn containment_and_masking() {
        let c = parse_cidr("192.168.1.7/24").expect("valid");
        assert!(c.contains("192.168.1.200".parse().expect("ip")));
        assert!(!c.contains("192.168.2.1".parse().expect("ip")));
        assert!(!c.contains("::1".parse().expect("ip")));
        assert_eq!(c.masked(), parse_cidr("192.168.1.0/24").expect("valid"));
        let all = parse_cidr("0.0.0.0/0").expect("valid");
        assert!(all.contains("8.8.8.8".parse().expect("ip")));
        assert_eq!(all.masked(), all);
    }
}
