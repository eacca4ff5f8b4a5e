//! CronJob schedules: five cron fields or a descriptor (`@hourly`, `@every 1h30m`), with
//! the error texts of the cron parser kube-apiserver uses.

struct Bounds {
    min: u32,
    max: u32,
    names: &'static [&'static str],
}

const MINUTE: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOUR: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTH: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
};

const DESCRIPTORS: &[&str] = &[
    "@yearly",
    "@annually",
    "@monthly",
    "@weekly",
    "@daily",
    "@midnight",
    "@hourly",
];

fn int(s: &str) -> Result<u32, String> {
    let n: i64 = s.parse().map_err(|_| {
        format!("failed to parse int from {s}: strconv.Atoi: parsing \"{s}\": invalid syntax")
    })?;
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {s}"));
    }
    u32::try_from(n).map_err(|_| {
        format!("failed to parse int from {s}: strconv.Atoi: parsing \"{s}\": value out of range")
    })
}

fn int_or_name(s: &str, b: &Bounds) -> Result<u32, String> {
    let lower = s.to_ascii_lowercase();
    match b.names.iter().position(|n| *n == lower) {
        Some(i) => Ok(i as u32 + if b.min == 1 { 1 } else { 0 }),
        None => int(s),
    }
}

fn range(expr: &str, b: &Bounds) -> Result<(), String> {
    let steps: Vec<&str> = expr.split('/').collect();
    let bounds: Vec<&str> = steps[0].split('-').collect();
    let (start, mut end) = if bounds[0] == "*" || bounds[0] == "?" {
        (b.min, b.max)
    } else {
        let start = int_or_name(bounds[0], b)?;
        match bounds.len() {
            1 => (start, start),
            2 => (start, int_or_name(bounds[1], b)?),
            _ => return Err(format!("too many hyphens: {expr}")),
        }
    };
    let step = match steps.len() {
        1 => 1,
        2 => {
            let step = int(steps[1])?;
            if bounds.len() == 1 {
                end = b.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < b.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            b.min
        ));
    }
    if end > b.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            b.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// A Go duration (`1h30m`, `90s`, `1.5h`), as `@every` takes it.
fn go_duration(s: &str) -> bool {
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    if rest == "0" {
        return true;
    }
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 || rest[..num_len].matches('.').count() > 1 || &rest[..num_len] == "." {
            return false;
        }
        rest = &rest[num_len..];
        let unit = ["ns", "us", "µs", "ms", "h", "m", "s"]
            .iter()
            .find(|u| rest.starts_with(**u));
        match unit {
            Some(u) => rest = &rest[u.len()..],
            None => return false,
        }
    }
    true
}

/// Checks a schedule; the error is the parser's message.
pub(crate) fn parse(schedule: &str) -> Result<(), String> {
    let mut spec = schedule.trim();
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        match spec.find(' ') {
            Some(i) => spec = spec[i..].trim(),
            None => return Err(format!("provided bad location {spec}: unknown time zone")),
        }
    }
    if let Some(every) = spec.strip_prefix("@every ") {
        return if go_duration(every.trim()) {
            Ok(())
        } else {
            Err(format!(
                "failed to parse duration {spec}: time: invalid duration {}",
                super::causes::quote(every.trim())
            ))
        };
    }
    if spec.starts_with('@') {
        return if DESCRIPTORS.contains(&spec) {
            Ok(())
        } else {
            Err(format!("unrecognized descriptor: {spec}"))
        };
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, b) in fields.iter().zip([&MINUTE, &HOUR, &DOM, &MONTH, &DOW]) {
        for part in field.split(',') {
            range(part, b)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        for ok in [
            "* * * * *",
            "*/5 0-23/2 1,15 JAN-jun mon-FRI",
            "0 0 ? * SUN",
            "@hourly",
            "@every 1h30m",
            "TZ=UTC 0 * * * *",
            "5/15 * * * *",
        ] {
            assert_eq!(parse(ok), Ok(()), "{ok}");
        }
        let bad = [
            ("", "empty spec string"),
            ("* * *", "expected exactly 5 fields, found 3: [* * *]"),
            ("60 * * * *", "end of range (60) above maximum (59): 60"),
            ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
            (
                "5-1 * * * *",
                "beginning of range (5) beyond end of range (1): 5-1",
            ),
            (
                "*/0 * * * *",
                "step of range should be a positive number: */0",
            ),
            ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
            ("*/1/2 * * * *", "too many slashes: */1/2"),
            (
                "x * * * *",
                "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax",
            ),
            ("@sometimes", "unrecognized descriptor: @sometimes"),
        ];
        for (spec, msg) in bad {
            assert_eq!(parse(spec), Err(msg.to_string()), "{spec}");
        }
        assert!(parse("@every soon").is_err());
        assert!(parse("* * * * 7").is_err());
    }
}
