//! What each table field takes from upstream's Go structs rather than from k8s-pb or
//! k8s-openapi: what Go writes for it at its zero value (`.zero(…)`), whether decoding
//! drops its zero (`.omits_zero()`), and the order the struct declares the fields in
//! (`go_order`).

use std::collections::BTreeMap;

use crate::go_types::{go_package, JsonField};
use crate::render::Gen;

impl Gen {
    /// The JSON fields of the Go struct of `def`, read once.
    pub(crate) fn go_fields(&mut self, def: &str) -> Result<&[JsonField], String> {
        if !self.go_fields.contains_key(def) {
            let (pkg, name) = go_package(def);
            let fields = self.go.json_fields(&pkg, &name);
            if let (Ok(fields), Some(known)) = (&fields, self.type_fields.get(def)) {
                // Fields Go always writes that the table lacks cannot be filled.
                for f in fields {
                    if matches!(f.zero, Ok(Some(_))) && !known.contains(&f.json) {
                        self.notes.push(format!(
                            "{def}: Go always writes {}, not in the table",
                            f.json
                        ));
                    }
                }
            }
            self.go_fields.insert(def.to_string(), fields);
        }
        match &self.go_fields[def] {
            Ok(f) => Ok(f),
            Err(e) => Err(e.clone()),
        }
    }

    /// `.zero(Z::…)` for field `json` of `def`, or for its embedded struct `inline` (a Go
    /// type name); empty if Go writes nothing for it. Unknowns become notes.
    pub(crate) fn zero_of(
        &mut self,
        def: &str,
        json: Option<&str>,
        inline: Option<&str>,
    ) -> String {
        self.object_fields += 1;
        let zero = match (json, inline) {
            (Some(json), _) => self.go_fields(def).and_then(|fields| {
                fields
                    .iter()
                    .find(|f| f.json == json)
                    .map(|f| f.zero.clone())
                    .unwrap_or_else(|| Err(format!("the Go struct has no JSON field {json}")))
            }),
            (None, Some(inner)) => {
                let (pkg, name) = go_package(def);
                self.go.embedded_zero(&pkg, &name, inner)
            }
            (None, None) => Err("an embedded field of unknown type".into()),
        };
        let omits_zero = json.is_some_and(|json| {
            self.go_fields(def)
                .is_ok_and(|fields| fields.iter().any(|f| f.json == json && f.omits_zero))
        });
        if omits_zero {
            self.omits_zero_fields += 1;
        }
        let omits = if omits_zero { ".omits_zero()" } else { "" };
        match zero {
            Ok(Some(z)) => {
                self.zero_fields += 1;
                format!(".zero({}){omits}", z.render())
            }
            Ok(None) => omits.to_string(),
            // The lists and embedded types only protobuf has are given `apiVersion` and
            // `kind`, which their Go structs (and so their JSON) may lack.
            Err(_) if matches!(json, Some("apiVersion" | "kind")) => String::new(),
            Err(e) => {
                let field = json.or(inline).unwrap_or_default();
                self.notes.push(format!("{def}.{field}: {e}; no zero"));
                String::new()
            }
        }
    }

    /// The indices of `lines` (the table's fields, in protobuf tag order) in the order
    /// upstream's Go struct declares them, which is the order its JSON has: embedded
    /// structs (inline fields) in their place; fields Go lacks last, by tag.
    pub(crate) fn go_order(
        &mut self,
        def: &str,
        lines: &[(u32, String, Option<String>)],
        inline_types: &BTreeMap<u32, String>,
    ) -> Vec<usize> {
        let (pkg, name) = go_package(def);
        let placed = self.go.json_order(&pkg, &name).unwrap_or_default();
        let rank = |(tag, _, json): &(u32, String, Option<String>)| {
            let at = match json {
                Some(j) => placed.iter().position(|p| &p.json == j),
                None => inline_types
                    .get(tag)
                    .and_then(|t| placed.iter().position(|p| p.embedded.as_ref() == Some(t))),
            };
            at.unwrap_or(usize::MAX)
        };
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|&i| rank(&lines[i]));
        assert!(lines.len() <= 256, "{def}: more fields than go_order holds");
        order
    }
}
