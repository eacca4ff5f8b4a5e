//! The CEL expressions of JWT authenticators (`claimMappings`, `claimValidationRules`,
//! `userValidationRules`), as kube-apiserver's authentication CEL: `claims` (the token's
//! claims, a `map(string, dyn)`) or `user` (the mapped `kubernetes.UserInfo`) bound.
//! Reading a claim the token lacks (`claims.foo`) is an evaluation error, which refuses
//! the token; `has(claims.foo)` and `claims.?foo.orValue(…)` test for it.
//!
//! The CEL crate has no type checker: undeclared variables are found from the parse tree,
//! result types are checked when the expression runs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use cel::common::ast::{Expr, LiteralValue};
use cel::parser::Expression;
use cel::{Context, Env, Program, Value};
use kas_cel::{children, depth};
use serde_json::Value as Json;

/// The variable an expression sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// `claims`: claim mappings and claim validation rules.
    Claims,
    /// `user`: user validation rules.
    User,
}

impl Var {
    fn name(self) -> &'static str {
        match self {
            Var::Claims => "claims",
            Var::User => "user",
        }
    }
}

/// One compiled expression.
pub struct Compiled {
    source: String,
    program: Program,
    var: Var,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// The deepest expression tree accepted (the crate's evaluator recurses per level).
const MAX_DEPTH: usize = 32;
/// The parser recurses per level too: it runs on a thread with this stack.
const PARSE_STACK_BYTES: usize = 64 << 20;

fn env() -> Option<Arc<Env>> {
    static ENV: OnceLock<Option<Arc<Env>>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::stdlib();
        env.add_extension(cel::extensions::strings).ok()?;
        env.add_extension(cel::extensions::lists).ok()?;
        env.add_extension(cel::extensions::math).ok()?;
        Some(Arc::new(env))
    })
    .clone()
}

/// Compiles `source` for `var`; the error is upstream's detail (`compilation failed: …`).
pub fn compile(source: &str, var: Var) -> Result<Compiled, String> {
    let env = env().ok_or_else(|| "unexpected error loading CEL environment".to_owned())?;
    let owned = source.to_owned();
    let parsed = std::thread::Builder::new()
        .name("cel-parse".to_owned())
        .stack_size(PARSE_STACK_BYTES)
        .spawn(move || {
            catch_unwind(AssertUnwindSafe(|| {
                let program = env.compile(&owned).map_err(|e| e.to_string())?;
                if depth(program.expression()) > MAX_DEPTH {
                    return Err(format!(
                        "ERROR: <input>:1:1: expression nested too deeply (more than {MAX_DEPTH} levels)"
                    ));
                }
                Ok(program)
            }))
        })
        .map_err(|e| format!("compilation failed: parser unavailable: {e}"))?
        .join();
    let program = match parsed {
        Ok(Ok(Ok(p))) => p,
        Ok(Ok(Err(e))) => return Err(format!("compilation failed: {e}")),
        _ => return Err("compilation failed: could not parse the expression".to_owned()),
    };
    if let Some(name) = undeclared(program.expression(), var.name()) {
        return Err(format!(
            "compilation failed: ERROR: <input>:1:1: undeclared reference to '{name}' (in container '')"
        ));
    }
    Ok(Compiled {
        source: source.to_owned(),
        program,
        var,
    })
}

impl Compiled {
    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the expression reads `claims.<field>` (`claims.email`, `claims.?email`).
    pub fn selects_claim(&self, field: &str) -> bool {
        let mut stack = vec![self.program.expression()];
        while let Some(e) = stack.pop() {
            match &e.expr {
                Expr::Select(s) if s.field == field && is_ident(&s.operand, "claims") => {
                    return true
                }
                Expr::Call(c)
                    if c.func_name == "_?._"
                        && c.args.len() == 2
                        && is_ident(&c.args[0], "claims")
                        && matches!(&c.args[1].expr, Expr::Literal(LiteralValue::String(s)) if s.inner() == field) =>
                {
                    return true
                }
                _ => {}
            }
            stack.extend(children(e));
        }
        false
    }

    /// Evaluates with the variable bound to `input` (JSON); the error is upstream's
    /// (`expression '…' resulted in error: …`).
    pub fn eval(&self, input: &Json) -> Result<Value, String> {
        let Some(env) = env() else {
            return Err("unexpected error loading CEL environment".to_owned());
        };
        let mut ctx = Context::with_env(env);
        let value = cel::to_value(input).map_err(|e| e.to_string())?;
        ctx.add_variable_from_value(self.var.name(), value);
        catch_unwind(AssertUnwindSafe(|| self.program.execute(&ctx)))
            .unwrap_or_else(|_| {
                Err(cel::ExecutionError::function_error(
                    "eval",
                    "evaluation panicked",
                ))
            })
            .map_err(|e| {
                format!(
                    "expression '{}' resulted in error: {}",
                    self.source,
                    execution_error(&e)
                )
            })
    }
}

/// cel-go's words for the errors claims expressions meet most.
fn execution_error(e: &cel::ExecutionError) -> String {
    match e {
        cel::ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        other => other.to_string(),
    }
}

/// A string result (username, uid), else upstream's error.
pub fn as_string(v: &Value, what: &str) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.to_string()),
        _ => Err(format!("{what} claim expression must return a string")),
    }
}

/// A string or list of strings (groups, extra values): `""`, `[]` and null are absent,
/// empty strings in a list are dropped.
pub fn as_string_list(v: &Value) -> Result<Vec<String>, String> {
    const WRONG: &str = "expression must return a string or a list of strings";
    match v {
        Value::String(s) if s.is_empty() => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.to_string()]),
        Value::Null => Ok(Vec::new()),
        Value::List(items) => {
            let mut out = Vec::new();
            for item in items.iter() {
                match item {
                    Value::String(s) if s.is_empty() => {}
                    Value::String(s) => out.push(s.to_string()),
                    _ => return Err(WRONG.to_owned()),
                }
            }
            Ok(out)
        }
        _ => Err(WRONG.to_owned()),
    }
}

fn is_ident(e: &Expression, name: &str) -> bool {
    matches!(&e.expr, Expr::Ident(n) if n == name)
}

/// The first identifier that is neither `var`, a comprehension's variable, nor a
/// function or type name CEL knows.
fn undeclared(expr: &Expression, var: &str) -> Option<String> {
    let mut bound: Vec<&str> = vec![var];
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if let Expr::Comprehension(c) = &e.expr {
            bound.push(&c.iter_var);
            bound.extend(c.iter_var2.as_deref());
            bound.push(&c.accu_var);
        }
        stack.extend(children(e));
    }
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if let Expr::Ident(name) = &e.expr {
            let known_type = matches!(
                name.as_str(),
                "int"
                    | "uint"
                    | "double"
                    | "bool"
                    | "string"
                    | "bytes"
                    | "list"
                    | "map"
                    | "null_type"
                    | "type"
                    | "dyn"
            );
            if !known_type && !bound.contains(&name.as_str()) {
                return Some(name.clone());
            }
        }
        stack.extend(children(e));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claims_expressions_as_upstream() {
        let claims = json!({"sub": "u1", "email": "j@example.com", "groups": ["a", "", "b"],
            "n": 3, "nested": {"x": "y"}});
        let user = compile("'oidc:' + claims.sub", Var::Claims).expect("compile");
        assert_eq!(
            as_string(&user.eval(&claims).expect("eval"), "username"),
            Ok("oidc:u1".to_owned())
        );
        let groups = compile("claims.groups", Var::Claims).expect("compile");
        assert_eq!(
            as_string_list(&groups.eval(&claims).expect("eval")),
            Ok(vec!["a".to_owned(), "b".to_owned()])
        );
        let missing = compile("claims.missing", Var::Claims).expect("compile");
        let err = missing.eval(&claims).expect_err("missing claim");
        assert!(
            err.starts_with("expression 'claims.missing' resulted in error:"),
            "{err}"
        );
        let has =
            compile("has(claims.missing) ? claims.missing : 'none'", Var::Claims).expect("compile");
        assert_eq!(has.eval(&claims).ok(), Some(Value::from("none")));
        let optional = compile("claims.?missing.orValue('dflt')", Var::Claims).expect("compile");
        assert_eq!(optional.eval(&claims).ok(), Some(Value::from("dflt")));
        let map = compile("claims.groups.map(g, 'x:' + g)", Var::Claims).expect("compile");
        assert!(map.eval(&claims).is_ok());
        assert_eq!(
            as_string(
                &compile("claims.n", Var::Claims)
                    .unwrap()
                    .eval(&claims)
                    .unwrap(),
                "uid"
            ),
            Err("uid claim expression must return a string".to_owned())
        );
        assert!(as_string_list(&Value::Int(1)).is_err());
        assert!(user.selects_claim("sub"));
        assert!(!user.selects_claim("email"));
        assert!(compile("claims.?email.orValue('')", Var::Claims)
            .unwrap()
            .selects_claim("email"));
    }

    #[test]
    fn compile_errors() {
        let e = compile("claims.sub +", Var::Claims).expect_err("syntax");
        assert!(e.starts_with("compilation failed: "), "{e}");
        let e = compile("user.username == other", Var::User).expect_err("undeclared");
        assert!(e.contains("undeclared reference to 'other'"), "{e}");
        let e = compile("claims.sub == 'x'", Var::User).expect_err("claims in user rule");
        assert!(e.contains("undeclared reference to 'claims'"), "{e}");
        assert!(compile("user.groups.all(g, g != 'x')", Var::User).is_ok());
        assert!(compile("string(claims.n) == '3'", Var::Claims).is_ok());
    }
}
