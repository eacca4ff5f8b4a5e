//! Name checks of apimachinery's `util/validation` (DNS labels and subdomains) with its
//! exact messages, as CRD names, groups and versions use them.

const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn max_len(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn label_chars(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.ends_with('-')
}

/// Why `s` is not a DNS-1035 label (empty when it is one).
pub(crate) fn dns1035_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len(63));
    }
    let ok = s.bytes().next().is_some_and(|b| b.is_ascii_lowercase()) && label_chars(s);
    if !ok {
        out.push(DNS1035_MSG.to_string());
    }
    out
}

/// Why `s` is not a lowercase RFC 1123 subdomain (empty when it is one).
pub(crate) fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len(253));
    }
    let ok = s.split('.').all(|l| {
        l.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && label_chars(l)
    });
    if !ok {
        out.push(DNS1123_SUBDOMAIN_MSG.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert!(dns1035_label("foos").is_empty());
        assert_eq!(dns1035_label("1foo"), vec![DNS1035_MSG.to_string()]);
        assert_eq!(dns1035_label("Foo").len(), 1);
        assert_eq!(dns1035_label(""), vec![DNS1035_MSG.to_string()]);
        assert_eq!(
            dns1035_label(&"a".repeat(64))[0],
            "must be no more than 63 characters"
        );
        assert!(dns1123_subdomain("example.com").is_empty());
        assert!(dns1123_subdomain("1a.b-c").is_empty());
        assert_eq!(dns1123_subdomain("a..b").len(), 1);
        assert_eq!(dns1123_subdomain("-a").len(), 1);
    }
}
