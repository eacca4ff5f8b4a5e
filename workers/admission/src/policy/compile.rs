//! CEL of ValidatingAdmissionPolicies, compiled once per policy version: the shared
//! environment (the standard library with the strings, lists and math extensions), a
//! parse that never panics nor overflows a stack, and the light static check that stands
//! in for cel-go's checker (which the `cel` crate lacks): undeclared identifiers, unknown
//! or not-yet-declared `variables.<name>`, and the facts the cost bound needs (the
//! number of nodes and how deeply comprehensions nest).

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cel::common::ast::Expr;
use cel::{Env, Program};
use kas_cel::{children, depth};

/// The deepest expression tree accepted: the crate's evaluator recurses once per level
/// (as the CRD rules, which found ~50 levels fit a 2 MiB stack in a debug build).
const MAX_DEPTH: usize = 32;
/// The stack of the parsing thread (the crate's parser recurses deeply per level).
const PARSE_STACK_BYTES: usize = 64 << 20;
/// The most punctuation characters an expression may have (bounds the parser's depth).
const MAX_PUNCTUATION: usize = 10_000;

/// Identifiers every admission expression may use besides its own loop variables.
const BASE_NAMES: &[&str] = &[
    "object",
    "oldObject",
    "request",
    "namespaceObject",
    "variables",
    // Offered where the worker has an authorizer (`kas_cel::authz`).
    "authorizer",
    // Type names.
    "bool",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "dyn",
];

/// Kubernetes' CEL environment (the standard library, the strings, lists and math
/// extensions, the list functions, `quantity`, `ip` and `cidr`); `None` if the crate
/// refused a declaration.
pub(crate) fn env() -> Option<Arc<Env>> {
    kas_cel::library::env()
}

/// What the expressions of one policy may refer to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// Whether the policy has a `paramKind` (`params` is declared).
    pub params: bool,
    /// The names of the variables declared before this expression, in order.
    pub variables: &'a [String],
}

/// One compiled expression.
pub(crate) struct Compiled {
    /// The source, as written.
    pub source: String,
    /// The program, or why it does not compile (cel-go's `ERROR: <input>:l:c: ...`).
    pub program: Result<Program, String>,
    /// The indexes of the variables it reads.
    pub variables: Vec<usize>,
    /// Expression nodes (the cost bound's base).
    pub nodes: u64,
    /// How deeply comprehensions nest (the exponent of the input size in the bound).
    pub loops: u32,
    /// Authorization checks (`.check(verb)` calls), each costing a fixed amount.
    pub checks: u64,
    /// How deeply the loops around the checks nest.
    pub check_loops: u32,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("source", &self.source)
            .field("ok", &self.program.is_ok())
            .finish()
    }
}

/// Compiles `source` in `scope`.
pub(crate) fn compile(source: &str, scope: Scope<'_>) -> Compiled {
    let mut out = Compiled {
        source: source.to_owned(),
        program: Err(String::new()),
        variables: Vec::new(),
        nodes: 0,
        loops: 0,
        checks: 0,
        check_loops: 0,
    };
    let program = match parse(source) {
        Ok(p) => p,
        Err(e) => {
            out.program = Err(e);
            return out;
        }
    };
    match check(&program, scope) {
        Ok(facts) => {
            out.variables = facts.variables;
            out.nodes = facts.nodes;
            out.loops = facts.loops;
            out.checks = facts.checks;
            out.check_loops = facts.check_loops;
            out.program = Ok(program);
        }
        Err(e) => out.program = Err(e),
    }
    out
}

/// Whether `source` compiles in `scope` (the error as cel-go words it), for validation
/// of the policy objects.
pub(crate) fn check_source(source: &str, scope: Scope<'_>) -> Result<(), String> {
    compile(source, scope).program.map(|_| ())
}

/// Parses `source` on a thread with a large stack and refuses trees deeper than
/// [`MAX_DEPTH`]; never panics whatever the input.
fn parse(source: &str) -> Result<Program, String> {
    if source.chars().filter(char::is_ascii_punctuation).count() > MAX_PUNCTUATION {
        return Err(format!(
            "ERROR: <input>:1:1: expression too complex (more than {MAX_PUNCTUATION} operators)"
        ));
    }
    let Some(env) = env() else {
        return Err("ERROR: <input>:1:1: expression compiler initialization error".to_owned());
    };
    let owned = source.to_owned();
    let parsed = std::thread::Builder::new()
        .name("cel-parse".to_owned())
        .stack_size(PARSE_STACK_BYTES)
        .spawn(move || {
            catch_unwind(AssertUnwindSafe(|| {
                let program = env.compile(&owned).map_err(|e| indent(&e.to_string()))?;
                if depth(program.expression()) > MAX_DEPTH {
                    return Err(format!(
                        "ERROR: <input>:1:1: expression nested too deeply (more than \
                         {MAX_DEPTH} levels)"
                    ));
                }
                Ok(program)
            }))
        })
        .map_err(|e| format!("ERROR: <input>:1:1: parser unavailable: {e}"))?
        .join();
    match parsed {
        Ok(Ok(result)) => result,
        _ => Err("ERROR: <input>:1:1: could not parse the expression".to_owned()),
    }
}

/// The crate prints the snippet under an error as `| ...`; cel-go as ` | ...`.
fn indent(error: &str) -> String {
    let lines: Vec<String> = error
        .lines()
        .map(|l| match l.starts_with('|') {
            true => format!(" {l}"),
            false => l.to_owned(),
        })
        .collect();
    lines.join("\n")
}

struct Facts {
    variables: Vec<usize>,
    nodes: u64,
    loops: u32,
    checks: u64,
    check_loops: u32,
}

/// cel-go's message for an expression node, with the source line and a caret.
pub(crate) fn locate(program: &Program, id: u64, message: &str) -> String {
    let info = program.source_info();
    let source = info.source.as_str();
    let start = info
        .offset_for(id)
        .map_or(0, |(start, _)| start as usize)
        .min(source.len());
    let before = source.get(..start).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).unwrap_or("").chars().count() + 1;
    let text = source.lines().nth(line - 1).unwrap_or("");
    format!(
        "ERROR: <input>:{line}:{col}: {message}\n | {text}\n | {:.>col$}",
        "^"
    )
}

/// The static check: every identifier declared, every `variables.<name>` declared
/// before; the variables read, the node count and the nesting of loops.
fn check(program: &Program, scope: Scope<'_>) -> Result<Facts, String> {
    let root = program.expression();
    // Loop variables anywhere in the expression count as declared (an approximation of
    // their scopes, which only lets through what cel-go would refuse).
    let mut declared: HashSet<&str> = BASE_NAMES.iter().copied().collect();
    if scope.params {
        declared.insert("params");
    }
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if let Expr::Comprehension(c) = &e.expr {
            declared.insert(&c.iter_var);
            declared.insert(&c.accu_var);
            if let Some(v) = &c.iter_var2 {
                declared.insert(v);
            }
        }
        stack.extend(children(e));
    }
    let mut facts = Facts {
        variables: Vec::new(),
        nodes: 0,
        loops: 0,
        checks: 0,
        check_loops: 0,
    };
    let mut stack = vec![(root, 0u32)];
    while let Some((e, loops)) = stack.pop() {
        facts.nodes += 1;
        facts.loops = facts.loops.max(loops);
        match &e.expr {
            Expr::Ident(name) if !declared.contains(name.as_str()) => {
                return Err(locate(
                    program,
                    e.id,
                    &format!("undeclared reference to '{name}' (in container '')"),
                ));
            }
            Expr::Select(s) if matches!(&s.operand.expr, Expr::Ident(n) if n == "variables") => {
                match scope.variables.iter().position(|v| *v == s.field) {
                    Some(i) => {
                        if !facts.variables.contains(&i) {
                            facts.variables.push(i);
                        }
                    }
                    None => {
                        return Err(locate(
                            program,
                            e.id,
                            &format!("undefined field '{}'", s.field),
                        ))
                    }
                }
                continue;
            }
            Expr::Call(call) if call.func_name == "check" && call.target.is_some() => {
                facts.checks += 1;
                facts.check_loops = facts.check_loops.max(loops);
            }
            Expr::Comprehension(c) => {
                stack.push((&c.iter_range, loops));
                stack.push((&c.accu_init, loops));
                stack.push((&c.loop_cond, loops + 1));
                stack.push((&c.loop_step, loops + 1));
                stack.push((&c.result, loops));
                continue;
            }
            _ => {}
        }
        stack.extend(children(e).into_iter().map(|c| (c, loops)));
    }
    facts.variables.sort_unstable();
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope<'a>(params: bool, variables: &'a [String]) -> Scope<'a> {
        Scope { params, variables }
    }

    #[test]
    fn compiles_and_checks() {
        let vars = vec!["a".to_owned(), "b".to_owned()];
        let c = compile("object.spec.replicas <= variables.b", scope(false, &vars));
        assert!(c.program.is_ok(), "{c:?}");
        assert_eq!(c.variables, [1]);
        assert_eq!(c.loops, 0);

        let err = compile("object.spec.replicas <= params.max", scope(false, &vars))
            .program
            .err()
            .unwrap_or_default();
        assert_eq!(
            err,
            "ERROR: <input>:1:25: undeclared reference to 'params' (in container '')\n \
             | object.spec.replicas <= params.max\n | ........................^"
        );
        assert!(check_source("params.max > 1", scope(true, &vars)).is_ok());
        let err = check_source("variables.c", scope(false, &vars)).unwrap_or_err();
        assert!(err.contains("undefined field 'c'"), "{err}");
        let err = check_source("object.spec ==", scope(false, &vars)).unwrap_or_err();
        assert!(err.starts_with("ERROR: <input>:1:"), "{err}");

        let c = compile(
            "object.spec.containers.all(c, c.ports.all(p, p.containerPort > 80))",
            scope(false, &[]),
        );
        assert!(c.program.is_ok(), "{:?}", c.program.err());
        assert_eq!(c.loops, 2);
        assert!(c.nodes > 5);
        assert_eq!(c.checks, 0);

        let c = compile(
            "authorizer.group('').resource('pods').check('get').allowed() && \
             object.spec.containers.all(c, authorizer.path('/x').check('get').allowed())",
            scope(false, &[]),
        );
        assert_eq!((c.checks, c.check_loops), (2, 1));

        let deep = format!("{}1{}", "(".repeat(200), ")".repeat(200));
        assert!(check_source(&deep, scope(false, &[])).is_err());
        let nested = (0..40).fold("1".to_owned(), |acc, _| format!("[{acc}]"));
        let err = check_source(&nested, scope(false, &[])).unwrap_or_err();
        assert!(err.contains("nested too deeply"), "{err}");
    }

    trait UnwrapErr {
        fn unwrap_or_err(self) -> String;
    }

    impl UnwrapErr for Result<(), String> {
        fn unwrap_or_err(self) -> String {
            self.err().unwrap_or_default()
        }
    }
}
