//! `--token-auth-file`: kube-apiserver's static token file, CSV records
//! `token,user,uid[,"group1,group2"]` (extra columns ignored), read once at start as
//! upstream's tokenfile authenticator reads it: fewer than three columns is an error
//! naming the file, an empty token is skipped, a repeated token keeps the last record.

use std::path::Path;

use kas_proto::UserInfo;

/// The tokens of the file at `path`, or what is wrong with it.
pub(crate) fn load(path: &Path) -> Result<Vec<(String, UserInfo)>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut tokens: Vec<(String, UserInfo)> = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        if record.len() < 3 {
            // Upstream's words, and the line, which upstream does not give.
            let line = record.position().map_or(n as u64 + 1, |p| p.line());
            return Err(format!(
                "token file '{}' must have at least 3 columns (token, user name, user uid), found {} (line {line})",
                path.display(),
                record.len()
            ));
        }
        if record[0].is_empty() {
            tracing::warn!(file = %path.display(), record = n + 1, "empty token in the token file");
            continue;
        }
        let user = UserInfo {
            name: record[1].to_owned(),
            uid: record[2].to_owned(),
            groups: record
                .get(3)
                .map(|g| g.split(',').map(str::to_owned).collect())
                .unwrap_or_default(),
            ..Default::default()
        };
        if let Some(i) = tokens.iter().position(|(t, _)| *t == record[0]) {
            tracing::warn!(file = %path.display(), record = n + 1, "duplicate token in the token file");
            tokens.remove(i);
        }
        tokens.push((record[0].to_owned(), user));
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().expect("temp");
        std::fs::write(f.path(), text).expect("write");
        f
    }

    #[test]
    fn reads_upstreams_format() {
        let f = file("t1,alice,1,\"devs,ops\"\nt2,bob,2\n,nobody,3\nt1,carol,4\n");
        let tokens = load(f.path()).expect("tokens");
        let names: Vec<(&str, &str, Vec<String>)> = tokens
            .iter()
            .map(|(t, u)| (t.as_str(), u.name.as_str(), u.groups.clone()))
            .collect();
        assert_eq!(names, vec![("t2", "bob", vec![]), ("t1", "carol", vec![])]);
        let f = file("t1,alice,1,\"devs,ops\"\n");
        assert_eq!(load(f.path()).expect("tokens")[0].1.groups, ["devs", "ops"]);
    }

    #[test]
    fn too_few_columns_name_the_file() {
        let f = file("t0,bob,7\nt1,alice\n");
        let err = load(f.path()).expect_err("two columns");
        assert_eq!(
            err,
            format!(
                "token file '{}' must have at least 3 columns (token, user name, user uid), found 2 (line 2)",
                f.path().display()
            )
        );
        assert!(load(Path::new("/nonexistent/tokens.csv")).is_err());
    }
}
