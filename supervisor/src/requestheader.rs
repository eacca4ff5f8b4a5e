//! `--requestheader-*`, checked: the front proxy CA is read and must hold certificates,
//! values may not be blank, and (as kube-apiserver warns) header lists without the
//! standard `X-Remote-*` ones break API aggregation.

use kas_proto::RequestHeaderConfig;

use crate::options::Options;
use crate::validate::FlagError;

/// Whether `names` holds `want`, ignoring case.
fn has(names: &[String], want: &str) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(want))
}

/// The header flags set without kube-apiserver's standard header, each a warning
/// (API aggregation will not work with them).
pub(crate) fn warnings(o: &Options) -> Vec<String> {
    let mut out = Vec::new();
    for (flag, values, standard) in [
        (
            "--requestheader-username-headers",
            &o.requestheader_username_headers,
            "X-Remote-User",
        ),
        (
            "--requestheader-group-headers",
            &o.requestheader_group_headers,
            "X-Remote-Group",
        ),
        (
            "--requestheader-extra-headers-prefix",
            &o.requestheader_extra_headers_prefix,
            "X-Remote-Extra-",
        ),
    ] {
        if !values.is_empty() && !has(values, standard) {
            out.push(format!("{flag} is set without specifying the standard {standard} header - API aggregation will not work"));
        }
    }
    out
}

/// The request-header configuration, or None without `--requestheader-client-ca-file`.
pub(crate) fn validate(o: &Options, errs: &mut Vec<FlagError>) -> Option<RequestHeaderConfig> {
    let lists: [(&'static str, &Vec<String>); 5] = [
        (
            "--requestheader-username-headers",
            &o.requestheader_username_headers,
        ),
        ("--requestheader-uid-headers", &o.requestheader_uid_headers),
        (
            "--requestheader-group-headers",
            &o.requestheader_group_headers,
        ),
        (
            "--requestheader-extra-headers-prefix",
            &o.requestheader_extra_headers_prefix,
        ),
        (
            "--requestheader-allowed-names",
            &o.requestheader_allowed_names,
        ),
    ];
    for (flag, values) in lists {
        if values.iter().any(|v| v.trim().is_empty()) {
            errs.push(FlagError {
                flag,
                message: format!("empty value in {:?}", flag.trim_start_matches('-')),
            });
        }
    }
    let path = o.requestheader_client_ca_file.as_ref()?;
    const FLAG: &str = "--requestheader-client-ca-file";
    let pem = match std::fs::read_to_string(path) {
        Ok(pem) => pem,
        Err(e) => {
            errs.push(FlagError {
                flag: FLAG,
                message: format!("cannot read {}: {e}", path.display()),
            });
            return None;
        }
    };
    if let Err(e) = kas_aggregator::tls::parse_cert_chain(pem.as_bytes()) {
        errs.push(FlagError {
            flag: FLAG,
            message: format!("{}: {e}", path.display()),
        });
        return None;
    }
    let trimmed = |v: &[String]| v.iter().map(|s| s.trim().to_owned()).collect::<Vec<_>>();
    Some(RequestHeaderConfig {
        client_ca_pem: pem,
        allowed_names: trimmed(&o.requestheader_allowed_names),
        username_headers: trimmed(&o.requestheader_username_headers),
        uid_headers: trimmed(&o.requestheader_uid_headers),
        group_headers: trimmed(&o.requestheader_group_headers),
        extra_headers_prefix: trimmed(&o.requestheader_extra_headers_prefix),
    })
}
