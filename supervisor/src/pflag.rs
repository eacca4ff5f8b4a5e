//! kube-apiserver's command line as pflag and cobra read it: Go's value syntax for bool,
//! int, float and duration flags, flag names normalised as kube-apiserver's
//! `WordSepNormalizeFunc` does (`--secure_port` is `--secure-port`), and parse errors in
//! pflag's and cobra's words (`Error: unknown flag: --foo`, `invalid argument "x" for
//! "--secure-port" flag: strconv.ParseInt: parsing "x": invalid syntax`), which
//! kube-apiserver reports with exit status 1.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The exit status of a command line pflag or cobra refuses: kube-apiserver's
/// `cli.Run` returns 1 for every error.
pub(crate) const EXIT_PARSE: u8 = 1;

/// Go's `strconv.ParseBool`, as pflag's bool flags take it (`--flag`, `--flag=false`).
pub(crate) fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(false),
        _ => Err(format!("strconv.ParseBool: parsing {v:?}: invalid syntax")),
    }
}

/// Go's `strconv.ParseInt(v, 0, 64)`, as pflag's int flags take it: decimal, or `0x`,
/// `0o`, `0b` and leading-`0` octal, with an optional sign.
pub(crate) fn parse_int(v: &str) -> Result<i64, String> {
    parse_int_bits(v, 64)
}

/// `-v`: klog's level is an `int32`.
pub(crate) fn parse_level(v: &str) -> Result<u8, String> {
    let n = parse_int_bits(v, 32)?;
    // Levels above 255 mean "everything" here; negative levels are Go's too, and mean 0.
    Ok(n.clamp(0, i64::from(u8::MAX)) as u8)
}

fn parse_int_bits(v: &str, bits: u32) -> Result<i64, String> {
    let syntax = || format!("strconv.ParseInt: parsing {v:?}: invalid syntax");
    let range = || format!("strconv.ParseInt: parsing {v:?}: value out of range");
    let (neg, digits) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(b) = lower.strip_prefix("0x") {
        (16, b)
    } else if let Some(b) = lower.strip_prefix("0o") {
        (8, b)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (2, b)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return Err(syntax());
    }
    let magnitude = u128::from_str_radix(body, radix).map_err(|_| range())?;
    let limit = 1u128 << (bits - 1);
    if (neg && magnitude > limit) || (!neg && magnitude >= limit) {
        return Err(range());
    }
    let n = magnitude as i128;
    Ok((if neg { -n } else { n }) as i64)
}

/// Go's `strconv.ParseFloat(v, 64)`.
pub(crate) fn parse_float(v: &str) -> Result<f64, String> {
    let lower = v.trim_start_matches(['+', '-']).to_ascii_lowercase();
    let named = matches!(lower.as_str(), "inf" | "infinity" | "nan");
    if !named && !lower.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return Err(format!("strconv.ParseFloat: parsing {v:?}: invalid syntax"));
    }
    v.parse()
        .map_err(|_| format!("strconv.ParseFloat: parsing {v:?}: invalid syntax"))
}

/// Go's `time.ParseDuration` (negative durations included), as pflag's duration flags
/// take it.
pub(crate) fn parse_duration(v: &str) -> Result<String, String> {
    let magnitude = v.strip_prefix('-').unwrap_or(v);
    crate::godur::parse(magnitude)
        .map(|_| v.to_owned())
        .map_err(|e| {
            format!(
                "time: {}",
                e.replace(&format!("{magnitude:?}"), &format!("{v:?}"))
            )
        })
}

/// The command line with each flag's name normalised as kube-apiserver's
/// `WordSepNormalizeFunc` does: `_` in a name is `-`. Values are left alone, and so is
/// everything after a bare `--`.
pub(crate) fn normalize(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut flags_done = false;
    for arg in args {
        let Some(s) = arg.to_str().filter(|s| !flags_done && s.starts_with("--")) else {
            out.push(arg);
            continue;
        };
        if s == "--" {
            flags_done = true;
            out.push(arg);
            continue;
        }
        let (name, value) = match s.find('=') {
            Some(i) => s.split_at(i),
            None => (s, ""),
        };
        out.push(format!("--{}{value}", name[2..].replace('_', "-")).into());
    }
    out
}

/// A parse error in kube-apiserver's words, with its exit status; `None` for `--help`,
/// which clap prints itself.
pub(crate) fn describe(e: &clap::Error, cmd: &clap::Command) -> Option<String> {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    // clap names an argument as `--secure-port <int>`; pflag as `--secure-port`, or
    // `-v, --v` when it has a shorthand.
    let flag_name = |shown: &str| {
        let long = shown
            .split([' ', '=', '['])
            .next()
            .unwrap_or(shown)
            .trim_start_matches('-');
        match cmd.get_arguments().find(|a| {
            a.get_long() == Some(long) || a.get_short().map(String::from) == Some(long.to_owned())
        }) {
            Some(a) => match (a.get_short(), a.get_long()) {
                (Some(s), Some(l)) => format!("-{s}, --{l}"),
                (None, Some(l)) => format!("--{l}"),
                (Some(s), None) => format!("-{s}"),
                (None, None) => format!("--{long}"),
            },
            None => format!("--{long}"),
        }
    };
    let message = match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => return None,
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_default();
            if let Some(long) = arg.strip_prefix("--") {
                let name = long.split('=').next().unwrap_or(long);
                format!("unknown flag: --{name}")
            } else if let Some(short) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
                let c = short.chars().next().unwrap_or('-');
                format!("unknown shorthand flag: '{c}' in -{short}")
            } else {
                format!("\"kube-apiserver\" does not take any arguments, got [{arg:?}]")
            }
        }
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_default();
            let value = context(ContextKind::InvalidValue);
            let name = flag_name(&arg);
            match (value, std::error::Error::source(e)) {
                (Some(value), Some(source)) => {
                    format!("invalid argument {value:?} for {name:?} flag: {source}")
                }
                (Some(value), None) if !value.is_empty() => {
                    format!("invalid argument {value:?} for {name:?} flag")
                }
                _ => format!("flag needs an argument: {name}"),
            }
        }
        ErrorKind::NoEquals => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_default();
            format!("flag needs an argument: {}", flag_name(&arg))
        }
        _ => e
            .to_string()
            .trim_start_matches("error: ")
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    };
    Some(format!("Error: {message}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_bools() {
        for t in ["1", "t", "T", "true", "TRUE", "True"] {
            assert_eq!(parse_bool(t), Ok(true), "{t}");
        }
        for f in ["0", "f", "F", "false", "FALSE", "False"] {
            assert_eq!(parse_bool(f), Ok(false), "{f}");
        }
        assert_eq!(
            parse_bool("yes"),
            Err("strconv.ParseBool: parsing \"yes\": invalid syntax".into())
        );
    }

    #[test]
    fn go_ints() {
        assert_eq!(parse_int("6443"), Ok(6443));
        assert_eq!(parse_int("-1"), Ok(-1));
        assert_eq!(parse_int("+7"), Ok(7));
        assert_eq!(parse_int("0x10"), Ok(16));
        assert_eq!(parse_int("010"), Ok(8));
        assert_eq!(parse_int("0b101"), Ok(5));
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(
            parse_int("abc"),
            Err("strconv.ParseInt: parsing \"abc\": invalid syntax".into())
        );
        assert_eq!(
            parse_int("08"),
            Err("strconv.ParseInt: parsing \"08\": invalid syntax".into())
        );
        assert_eq!(
            parse_int("99999999999999999999"),
            Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range".into())
        );
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert!(parse_level("2147483648").is_err());
        assert_eq!(parse_level("4"), Ok(4));
    }

    #[test]
    fn go_floats_and_durations() {
        assert_eq!(parse_float("0.001"), Ok(0.001));
        assert_eq!(parse_float(".5"), Ok(0.5));
        assert!(parse_float("1e3").is_ok());
        assert_eq!(
            parse_float("x"),
            Err("strconv.ParseFloat: parsing \"x\": invalid syntax".into())
        );
        assert_eq!(parse_duration("1m0s"), Ok("1m0s".into()));
        assert_eq!(parse_duration("-5s"), Ok("-5s".into()));
        assert_eq!(
            parse_duration("forever"),
            Err("time: invalid duration \"forever\"".into())
        );
        assert_eq!(
            parse_duration("-10"),
            Err("time: missing unit in duration \"-10\"".into())
        );
    }

    fn parse(args: &[&str]) -> Result<crate::options::Parsed, String> {
        crate::options::parse(std::iter::once("kube-apiserver").chain(args.iter().copied()))
            .map_err(|e| describe(&e, &crate::options::command()).unwrap_or_else(|| "help".into()))
    }

    #[test]
    fn both_value_forms_and_the_bool_forms() {
        for args in [
            &["--secure-port=7443", "--etcd-prefix=/x"][..],
            &["--secure-port", "7443", "--etcd-prefix", "/x"],
            &["--secure_port", "7443", "--etcd_prefix=/x"],
        ] {
            let o = parse(args).expect("parse").options;
            assert_eq!(
                (o.secure_port, o.etcd_prefix.as_str()),
                (7443, "/x"),
                "{args:?}"
            );
        }
        let o = parse(&["--allow-privileged", "--anonymous-auth=f"])
            .expect("parse")
            .options;
        assert!(o.allow_privileged && !o.anonymous_auth);
        let o = parse(&["--allow-privileged=false", "--anonymous-auth=TRUE"])
            .expect("parse")
            .options;
        assert!(!o.allow_privileged && o.anonymous_auth);
        // pflag never takes a bool's value from the next argument.
        assert_eq!(
            parse(&["--allow-privileged", "false"]).map(|_| ()),
            Err("Error: \"kube-apiserver\" does not take any arguments, got [\"false\"]".into())
        );
        // The last value of a repeated flag wins; a list flag adds to its list.
        let o = parse(&[
            "--secure-port=1",
            "--secure-port=2",
            "--service-account-issuer=https://a",
            "--service-account-issuer",
            "https://b",
            "--enable-admission-plugins=NodeRestriction",
            "--enable-admission-plugins=AlwaysPullImages,PodNodeSelector",
            "--cors-allowed-origins=a,b",
            "--cors-allowed-origins=c",
        ])
        .expect("parse")
        .options;
        assert_eq!(o.secure_port, 2);
        assert_eq!(o.service_account_issuer, ["https://a", "https://b"]);
        assert_eq!(
            o.enable_admission_plugins.as_deref(),
            Some(&["NodeRestriction", "AlwaysPullImages", "PodNodeSelector"].map(String::from)[..])
        );
        assert_eq!(o.cors_allowed_origins, ["a", "b", "c"]);
    }

    #[test]
    fn ignored_flags_parse_by_type_and_warn() {
        let parsed = parse(&[
            "--profiling",
            "--contention-profiling=false",
            "--cloud-provider=",
            "--delete-collection-workers",
            "3",
            "--goaway-chance=0.001",
            "--etcd-healthcheck-timeout",
            "-2s",
            "--apiserver-count=3",
            "--endpoint-reconciler-type=lease",
            "--oidc-required-claim=a=b",
            "--oidc-required-claim=c=d",
            "--feature-gates=A=true",
        ])
        .expect("parse");
        assert_eq!(
            parsed.warnings,
            [
                "Flag --goaway-chance has no effect in kube-apiserver-rs: accepted and ignored",
                "Flag --delete-collection-workers has no effect in kube-apiserver-rs: accepted and ignored",
                "Flag --etcd-healthcheck-timeout has no effect in kube-apiserver-rs: accepted and ignored",
                "Flag --contention-profiling has no effect in kube-apiserver-rs: accepted and ignored",
                "Flag --profiling has no effect in kube-apiserver-rs: accepted and ignored",
                "Flag --cloud-provider has been deprecated, will be removed in a future version",
                "Flag --apiserver-count has been deprecated, apiserver-count is deprecated and will be removed in a future version.",
                "Flag --endpoint-reconciler-type has no effect in kube-apiserver-rs: accepted and ignored",
            ]
        );
        assert!(parse(&[]).expect("parse").warnings.is_empty());
    }

    #[test]
    fn errors_in_cobras_and_pflags_words() {
        for (args, want) in [
            (&["--foo"][..], "Error: unknown flag: --foo"),
            (&["--foo=bar"], "Error: unknown flag: --foo"),
            (&["-x"], "Error: unknown shorthand flag: 'x' in -x"),
            (
                &["--secure-port=x"],
                "Error: invalid argument \"x\" for \"--secure-port\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
            ),
            (
                &["--profiling=maybe"],
                "Error: invalid argument \"maybe\" for \"--profiling\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
            (
                &["-v", "x"],
                "Error: invalid argument \"x\" for \"-v, --v\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
            ),
            (
                &["--audit-log-batch-max-wait=1x"],
                "Error: invalid argument \"1x\" for \"--audit-log-batch-max-wait\" flag: time: unknown unit \"x\" in duration \"1x\"",
            ),
            (&["--secure-port"], "Error: flag needs an argument: --secure-port"),
        ] {
            assert_eq!(parse(args).map(|_| ()), Err(want.to_owned()), "{args:?}");
        }
    }

    #[test]
    fn help_keeps_the_flag_sets_in_upstreams_order() {
        let help = crate::options::command().render_long_help().to_string();
        let mut at = 0;
        for set in [
            "Generic flags:",
            "Etcd flags:",
            "Secure serving flags:",
            "Auditing flags:",
            "Features flags:",
            "Authentication flags:",
            "Authorization flags:",
            "API enablement flags:",
            "Egress selector flags:",
            "Admission flags:",
            "Metrics flags:",
            "Logs flags:",
            "Traces flags:",
            "Misc flags:",
        ] {
            let found = help[at..]
                .find(set)
                .unwrap_or_else(|| panic!("{set} missing or out of order"));
            at += found;
        }
        // Deprecated flags are hidden as pflag hides them, except those upstream shows.
        assert!(!help.contains("--apiserver-count") && !help.contains("--cloud-provider"));
        assert!(help.contains("--admission-control ") && help.contains("--enable-logs-handler"));
    }

    #[test]
    fn names_are_normalised() {
        let args = normalize(
            [
                "kube-apiserver",
                "--secure_port=1",
                "--etcd_prefix",
                "/a_b",
                "--",
                "--x_y",
            ]
            .map(OsString::from),
        );
        assert_eq!(
            args,
            [
                "kube-apiserver",
                "--secure-port=1",
                "--etcd-prefix",
                "/a_b",
                "--",
                "--x_y"
            ]
            .map(OsString::from)
        );
    }
}
