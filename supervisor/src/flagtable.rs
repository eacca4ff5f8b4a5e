//! kube-apiserver v1.33's flags that kube-apiserver-rs accepts but does not act on: one
//! line per flag, with its value type (so `--flag value`, `--flag=value` and the bool
//! forms parse as pflag parses them), its flag set in `--help`, and upstream's
//! deprecation message where upstream marks it deprecated. Using one prints a warning
//! naming it; it never fails the start. Flags this server implements live in
//! [`crate::options`].

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches};

use crate::options::{
    ADMISSION, API, AUDIT, AUTHN, AUTHZ, CLOUD, EGRESS, ETCD, FEATURES, GENERIC, LOGS, METRICS,
    MISC, SECURE, TRACES,
};

/// A flag's value syntax, as pflag reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `--flag`, `--flag=true|false` (Go's `strconv.ParseBool`); never `--flag false`.
    Bool,
    /// Go's `strconv.ParseInt`.
    Int,
    /// Go's `strconv.ParseFloat`.
    Float,
    /// Go's `time.ParseDuration`.
    Duration,
    /// Any text.
    Str,
    /// A comma-separated list; repeating the flag adds to it.
    List,
    /// Comma-separated `key=value` pairs; repeating the flag adds to them.
    Map,
}

/// One accepted, ignored flag.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ignored {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    pub(crate) heading: &'static str,
    /// pflag's `MarkDeprecated` message: the flag is hidden from `--help` and its use
    /// prints `Flag --<name> has been deprecated, <message>`.
    pub(crate) deprecated: Option<&'static str>,
    /// Listed in `--help` although deprecated (pflag hides deprecated flags unless the
    /// flag set un-hides them, as kube-apiserver does for a few).
    pub(crate) shown: bool,
}

const fn f(name: &'static str, kind: Kind, heading: &'static str) -> Ignored {
    Ignored {
        name,
        kind,
        heading,
        deprecated: None,
        shown: true,
    }
}

const fn dep(name: &'static str, kind: Kind, heading: &'static str, msg: &'static str) -> Ignored {
    Ignored {
        name,
        kind,
        heading,
        deprecated: Some(msg),
        shown: false,
    }
}

/// A deprecated flag that upstream still lists in `--help`.
const fn dep_shown(
    name: &'static str,
    kind: Kind,
    heading: &'static str,
    msg: &'static str,
) -> Ignored {
    Ignored {
        shown: true,
        ..dep(name, kind, heading, msg)
    }
}

use Kind::{Bool, Duration, Float, Int, List, Map, Str};

/// Every kube-apiserver v1.33 flag this server accepts without acting on it.
pub(crate) const IGNORED: &[Ignored] = &[
    // Generic flags
    f("aggregator-reject-forwarding-redirect", Bool, GENERIC),
    f("emulated-version", List, GENERIC),
    f("emulation-forward-compatible", Bool, GENERIC),
    dep_shown(
        "enable-logs-handler",
        Bool,
        GENERIC,
        "Log handler functionality is deprecated",
    ),
    f("goaway-chance", Float, GENERIC),
    f("shutdown-watch-termination-grace-period", Duration, GENERIC),
    f("storage-initialization-timeout", Duration, GENERIC),
    f("strict-transport-security-directives", List, GENERIC),
    // Etcd flags
    f("delete-collection-workers", Int, ETCD),
    f("enable-garbage-collector", Bool, ETCD),
    f("etcd-count-metric-poll-period", Duration, ETCD),
    f("etcd-db-metric-poll-interval", Duration, ETCD),
    f("etcd-healthcheck-timeout", Duration, ETCD),
    f("etcd-readycheck-timeout", Duration, ETCD),
    f("etcd-servers-overrides", List, ETCD),
    f("lease-reuse-duration-seconds", Int, ETCD),
    f("watch-cache", Bool, ETCD),
    f("watch-cache-sizes", List, ETCD),
    // Secure serving flags
    f("disable-http2-serving", Bool, SECURE),
    f("permit-address-sharing", Bool, SECURE),
    f("permit-port-sharing", Bool, SECURE),
    f("tls-sni-cert-key", List, SECURE),
    // Features flags
    f("contention-profiling", Bool, FEATURES),
    f("debug-socket-path", Str, FEATURES),
    f("profiling", Bool, FEATURES),
    // Authentication flags
    f("service-account-signing-endpoint", Str, AUTHN),
    // Authorization flags
    f("authorization-policy-file", Str, AUTHZ),
    // Cloud provider flags (hidden: deprecated upstream)
    dep(
        "cloud-config",
        Str,
        CLOUD,
        "will be removed in a future version",
    ),
    dep(
        "cloud-provider",
        Str,
        CLOUD,
        "will be removed in a future version",
    ),
    // API enablement flags
    f("runtime-config-emulation-forward-compatible", Bool, API),
    // Egress selector flags
    f("egress-selector-config-file", Str, EGRESS),
    // Metrics flags
    f("allow-metric-labels", Map, METRICS),
    f("allow-metric-labels-manifest", Str, METRICS),
    f("disabled-metrics", List, METRICS),
    f("show-hidden-metrics-for-version", Str, METRICS),
    // Logs flags
    f("log-flush-frequency", Duration, LOGS),
    f("log-json-info-buffer-size", Str, LOGS),
    f("log-json-split-stream", Bool, LOGS),
    f("log-text-info-buffer-size", Str, LOGS),
    f("log-text-split-stream", Bool, LOGS),
    f("vmodule", Str, LOGS),
    // Traces flags
    f("tracing-config-file", Str, TRACES),
    // Misc flags
    dep(
        "apiserver-count",
        Int,
        MISC,
        "apiserver-count is deprecated and will be removed in a future version.",
    ),
    f("coordinated-leadership-lease-duration", Duration, MISC),
    f("coordinated-leadership-renew-deadline", Duration, MISC),
    f("coordinated-leadership-retry-period", Duration, MISC),
    f("endpoint-reconciler-type", Str, MISC),
    f("kubernetes-service-node-port", Int, MISC),
    f("max-connection-bytes-per-sec", Int, MISC),
    f("peer-advertise-ip", Str, MISC),
    f("peer-advertise-port", Str, MISC),
    f("peer-ca-file", Str, MISC),
];

/// The flag sets of `--help`, in kube-apiserver's order (then this server's own).
pub(crate) const HEADING_ORDER: &[&str] = &[
    GENERIC,
    ETCD,
    SECURE,
    AUDIT,
    FEATURES,
    AUTHN,
    AUTHZ,
    CLOUD,
    API,
    EGRESS,
    ADMISSION,
    METRICS,
    LOGS,
    TRACES,
    MISC,
    crate::options::STATE,
    crate::options::GLOBAL,
];

/// The entries of [`IGNORED`] that `implemented` (the flags this server acts on) does
/// not define: a flag that gets implemented stops being ignored without editing the table.
fn unimplemented(implemented: &clap::Command) -> impl Iterator<Item = &'static Ignored> + '_ {
    IGNORED.iter().filter(move |flag| {
        !implemented
            .get_arguments()
            .any(|a| a.get_long() == Some(flag.name))
    })
}

/// The clap arguments for the ignored flags `implemented` does not define.
pub(crate) fn args(implemented: &clap::Command) -> impl Iterator<Item = Arg> + '_ {
    unimplemented(implemented).map(|flag| {
        let arg = Arg::new(flag.name)
            .long(flag.name)
            .help_heading(flag.heading)
            .hide(!flag.shown)
            .help("Accepted for compatibility with kube-apiserver; no effect in kube-apiserver-rs.")
            // Repeating a flag is allowed, as pflag allows it.
            .action(ArgAction::Append);
        match flag.kind {
            Bool => arg
                .value_name("bool")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("true")
                .value_parser(crate::pflag::parse_bool),
            Int => arg
                .value_name("int")
                .allow_negative_numbers(true)
                .value_parser(crate::pflag::parse_int),
            Float => arg
                .value_name("float")
                .allow_negative_numbers(true)
                .value_parser(crate::pflag::parse_float),
            Duration => arg
                .value_name("duration")
                .allow_hyphen_values(true)
                .value_parser(crate::pflag::parse_duration),
            Str => arg.value_name("string").allow_hyphen_values(true),
            List => arg.value_name("strings").allow_hyphen_values(true),
            Map => arg.value_name("mapStringString").allow_hyphen_values(true),
        }
    })
}

/// One warning line per ignored flag on the command line: pflag's own line for a flag
/// upstream deprecates, else one saying it has no effect here.
pub(crate) fn warnings(implemented: &clap::Command, matches: &ArgMatches) -> Vec<String> {
    unimplemented(implemented)
        .filter(|flag| matches.value_source(flag.name) == Some(ValueSource::CommandLine))
        .map(|flag| match flag.deprecated {
            Some(msg) => format!("Flag --{} has been deprecated, {msg}", flag.name),
            None => format!(
                "Flag --{} has no effect in kube-apiserver-rs: accepted and ignored",
                flag.name
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_flag_and_known_headings() {
        let mut names: Vec<_> = IGNORED.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a flag is listed twice");
        for flag in IGNORED {
            assert!(
                HEADING_ORDER.contains(&flag.heading),
                "{}: unknown heading {}",
                flag.name,
                flag.heading
            );
        }
    }
}
