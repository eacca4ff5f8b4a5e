//! A bound on the flow nesting of a YAML body, checked before the YAML decoder sees it.
//! libyaml's scanner (under serde_yaml_ng) re-examines every open flow level (`[`, `{`)
//! on each token, so a body of nested brackets costs time quadratic in its depth: 18,000
//! levels (90 KB) kept a worker's thread busy for seconds — long enough to miss its
//! heartbeats and be taken out of service — before the decoder's recursion limit refused
//! the document. kube-apiserver's YAML library bounds the same scanner for the same reason
//! (CVE-2019-11254). A document nested deeper than the decoder accepts anyway is refused
//! here in one linear pass, with the decoder's message.
//!
//! The pass is a coarse YAML tokenizer: it follows flow collections, quoted scalars,
//! comments and block scalars, which is all that can hide or show a bracket. Where it is
//! unsure it counts a bracket rather than skipping one, so a document cannot hide nesting
//! from it; a real document refused wrongly would need more than 127 unclosed brackets.

/// The deepest flow nesting serde_yaml_ng decodes inside a document's top-level block
/// mapping (its recursion limit is 128 levels, that mapping included): past it, this
/// refuses at the same bracket, with the same words.
const MAX_DEPTH: usize = 127;

/// Where a flow collection opens past [`MAX_DEPTH`] (line and column, from 1), if one does.
pub(super) fn too_deep(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let (mut line, mut line_start) = (1usize, 0usize);
    // Block context: whether the next character begins a node (after indentation,
    // `- `, `? `, `: `, an anchor or a tag), where `[`, `{` and quotes mean what they say.
    let mut node_start = true;
    // Flow context: the last character that was not a space.
    let mut prev = b'[';
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let after_space = i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r');
        match c {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                node_start = depth == 0 || node_start;
            }
            b' ' | b'\t' | b'\r' => {}
            b'#' if after_space => {
                i = end_of_line(bytes, i);
                continue;
            }
            b'"' | b'\'' if starts_token(depth, node_start, prev) => {
                i = end_of_quoted(bytes, i, &mut line, &mut line_start);
                node_start = false;
                prev = c;
                continue;
            }
            b'[' | b'{' if depth > 0 || node_start => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some((line, i - line_start + 1));
                }
            }
            b']' | b'}' if depth > 0 => depth -= 1,
            b'|' | b'>' if depth == 0 && node_start => {
                i = end_of_block_scalar(bytes, i, line_start, &mut line, &mut line_start);
                continue;
            }
            b'&' | b'!' | b'*' if depth == 0 && node_start => {
                // An anchor, tag or alias: the node (if any) starts after it.
                while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'\n') {
                    i += 1;
                }
                continue;
            }
            b'-' | b'?' | b':'
                if depth == 0
                    && bytes
                        .get(i + 1)
                        .is_none_or(|n| matches!(n, b' ' | b'\t' | b'\n' | b'\r')) =>
            {
                node_start = true;
            }
            _ if depth == 0 => node_start = false,
            _ => {}
        }
        if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            prev = c;
        }
        i += 1;
    }
    None
}

/// Whether a quote at this point opens a quoted scalar (in a plain scalar it is a character).
fn starts_token(depth: usize, node_start: bool, prev: u8) -> bool {
    if depth == 0 {
        node_start
    } else {
        matches!(prev, b'[' | b'{' | b',' | b':' | b'?')
    }
}

fn end_of_line(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |p| i + p)
}

/// The index after the quoted scalar opening at `i` (lines counted on the way).
fn end_of_quoted(bytes: &[u8], i: usize, line: &mut usize, line_start: &mut usize) -> usize {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' if quote == b'"' => j += 1,
            b'\'' if quote == b'\'' && bytes.get(j + 1) == Some(&b'\'') => j += 1,
            b'\n' => {
                *line += 1;
                *line_start = j + 1;
            }
            q if q == quote => return j + 1,
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}

/// The index of the first line after the block scalar (`|` or `>`) at `i`: its content
/// is every following line indented deeper than the line of its indicator, or blank.
fn end_of_block_scalar(
    bytes: &[u8],
    i: usize,
    indicator_line_start: usize,
    line: &mut usize,
    line_start: &mut usize,
) -> usize {
    let indent = |from: usize| bytes[from..].iter().take_while(|b| **b == b' ').count();
    let parent = indent(indicator_line_start);
    let mut j = end_of_line(bytes, i);
    while j < bytes.len() {
        // `j` is at a newline: look at the next line.
        let next = j + 1;
        let width = indent(next);
        let blank = matches!(bytes.get(next + width), None | Some(b'\n' | b'\r'));
        if !blank && width <= parent {
            break;
        }
        *line += 1;
        *line_start = next;
        j = end_of_line(bytes, next);
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("data: {}{}\n", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn documents_within_the_limit_pass() {
        for doc in [
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {x: y}}\ndata:\n  k: v\n",
            "a: [1, [2, [3]], {b: [c]}]\n",
            "- [a]\n- {b: c}\n",
            &nested(MAX_DEPTH),
            // Brackets inside scalars, comments and block scalars are text.
            "a: \"[[[[\"\nb: '{{{{'\nc: x[y\n# [[[[[\n",
            "s: |\n  [[[[[[\n  {{{{\nt: >\n    [[[\n",
        ] {
            assert_eq!(too_deep(doc.as_bytes()), None, "{doc}");
        }
        let many = format!("s: |\n{}\n", "  [[[[[[[[[[\n".repeat(100));
        assert_eq!(too_deep(many.as_bytes()), None);
        let quoted = format!("s: \"{}\"\n", "[".repeat(1000));
        assert_eq!(too_deep(quoted.as_bytes()), None);
    }

    #[test]
    fn deeper_documents_are_refused_where_they_pass_the_limit() {
        assert_eq!(too_deep(nested(MAX_DEPTH + 1).as_bytes()), Some((1, 134)));
        assert!(too_deep(nested(20_000).as_bytes()).is_some());
        let maps = format!("data: {}{}\n", "{a: ".repeat(500), "}".repeat(500));
        assert!(too_deep(maps.as_bytes()).is_some());
        // Nesting behind an anchor, a tag, a sequence entry or a quote inside a plain
        // scalar is still nesting.
        for prefix in ["a: &x ", "a: !!seq ", "- ", "a: [x\"", "? "] {
            let doc = format!("{prefix}{}\n", "[".repeat(300));
            assert!(too_deep(doc.as_bytes()).is_some(), "{prefix}");
        }
    }

    /// Through the body decoder: a 400 with the decoder's words, without the scanner's
    /// quadratic walk (which took seconds for this body in a debug build).
    #[test]
    fn a_deep_yaml_body_is_a_400() {
        let body = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: {}{}\n",
            "{a: ".repeat(18_000),
            "}".repeat(18_000)
        );
        let started = std::time::Instant::now();
        let status = super::super::decode::json_bytes_of("application/yaml", body.as_bytes())
            .expect_err("refused");
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert_eq!(status.code(), http::StatusCode::BAD_REQUEST);
        assert_eq!(
            status.message,
            "error converting YAML to JSON: yaml: recursion limit exceeded at line 5 column 515"
        );
    }
}
