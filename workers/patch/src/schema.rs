//! What the patch needs to know about a type: per field, the schema below it and its
//! `+patchStrategy` / `+patchMergeKey` markers.

use crate::PatchError;

/// How a field's value is patched, from its `+patchStrategy` marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PatchStrategy {
    /// No marker (or one upstream does not act on): objects merge key by key, lists are
    /// replaced whole.
    #[default]
    Default,
    /// `merge`: lists merge (elements by merge key, primitives as a set).
    Merge,
    /// `replace`: the patch value replaces the original whole, objects too.
    Replace,
}

/// The patch markers of one field.
///
/// Only `+patchStrategy` and `+patchMergeKey` matter: upstream's strategic merge patch
/// for built-in types reads the Go struct tags, so a list marked only `+listType=map`
/// (and no `patchStrategy`) is replaced, not merged, exactly as kube-apiserver does.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PatchMeta {
    /// The strategy for the field's value.
    pub strategy: PatchStrategy,
    /// `retainKeys` was among the strategies (the `$retainKeys` directive is honoured
    /// whatever this says; it is here for completeness).
    pub retain_keys: bool,
    /// The `+patchMergeKey` (e.g. `name`, `containerPort`, `ip`).
    pub merge_key: Option<String>,
}

impl PatchMeta {
    /// Builds the markers from the tag texts as the Go types carry them:
    /// `patch_strategy` is `merge`, `replace`, `retainKeys` or two of them joined by a
    /// comma (`merge,retainKeys`). More than two, or two without `retainKeys`, is an error
    /// worded as upstream's (`unexpected patch strategy: [a b c]`).
    pub fn parse(
        patch_strategy: Option<&str>,
        merge_key: Option<&str>,
    ) -> Result<Self, PatchError> {
        let strategies: Vec<&str> = match patch_strategy {
            None | Some("") => Vec::new(),
            Some(s) => s.split(',').collect(),
        };
        let unexpected = || {
            PatchError::Schema(format!(
                "unexpected patch strategy: [{}]",
                strategies.join(" ")
            ))
        };
        let (retain_keys, other) = match strategies.as_slice() {
            [] => (false, ""),
            ["retainKeys"] => (true, ""),
            [one] => (false, *one),
            ["retainKeys", other] | [other, "retainKeys"] => (true, *other),
            _ => return Err(unexpected()),
        };
        let strategy = match other {
            "merge" => PatchStrategy::Merge,
            "replace" => PatchStrategy::Replace,
            _ => PatchStrategy::Default,
        };
        let merge_key = merge_key.filter(|k| !k.is_empty()).map(str::to_owned);
        Ok(Self {
            strategy,
            retain_keys,
            merge_key,
        })
    }
}

/// A position in a type's schema: the root type, a field of a struct, the values of a map
/// field, or the elements of a list field.
///
/// Implementations are cheap handles (a reference into a static table, an index, ...).
/// A lookup that answers `None` means "not known": below it the patch works like a JSON
/// merge patch (objects merge key by key, `null` deletes, lists are replaced), with the
/// `$patch` directive still honoured on objects.
///
/// Over a table of types and fields (such as `kas-schema`'s `TypeDef`/`FieldDef`), a
/// position is a type or a field:
///
/// ```ignore
/// #[derive(Clone, Copy)]
/// enum Pos { Type(&'static TypeDef), Field(&'static FieldDef) }
///
/// impl PatchSchema for Pos {
///     fn field(&self, name: &str) -> Option<Self> {
///         match *self {
///             Pos::Type(t) => t.field(name).map(Pos::Field),
///             Pos::Field(f) => match f.kind {
///                 FieldKind::Single(Elem::Message(t)) => t.field(name).map(Pos::Field),
///                 FieldKind::Map(Elem::Message(t)) => Some(Pos::Type(t)),
///                 _ => None,
///             },
///         }
///     }
///     fn element(&self) -> Option<Self> {
///         match *self {
///             Pos::Field(FieldDef { kind: FieldKind::List(Elem::Message(t)), .. }) => Some(Pos::Type(t)),
///             _ => None,
///         }
///     }
///     fn patch_meta(&self) -> Result<PatchMeta, PatchError> {
///         match *self {
///             Pos::Field(f) => PatchMeta::parse(f.patch_strategy, f.patch_merge_key),
///             Pos::Type(_) => Ok(PatchMeta::default()),
///         }
///     }
/// }
/// ```
pub trait PatchSchema: Sized {
    /// The schema of the value stored under `name` in an object this position describes:
    /// for a struct, its field `name` (by JSON name); for a map-typed field (`labels`,
    /// `data`, `resources.limits`, ...), the schema of its values, whatever `name` is.
    fn field(&self, name: &str) -> Option<Self>;

    /// For a list-typed field: the schema of its elements.
    fn element(&self) -> Option<Self>;

    /// The markers of this position when it is a field (elements and map values have
    /// none: return the default).
    fn patch_meta(&self) -> Result<PatchMeta, PatchError>;
}

/// The schema that knows nothing: every object merges key by key and every list is
/// replaced, which is how upstream treats unstructured objects (kube-apiserver refuses
/// strategic merge patch for custom resources outright; that is the caller's check).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoSchema;

impl PatchSchema for NoSchema {
    fn field(&self, _name: &str) -> Option<Self> {
        None
    }

    fn element(&self) -> Option<Self> {
        None
    }

    fn patch_meta(&self) -> Result<PatchMeta, PatchError> {
        Ok(PatchMeta::default())
    }
}

/// The markers of an optional schema position (none when unknown).
pub(crate) fn meta_of<S: PatchSchema>(schema: Option<&S>) -> Result<PatchMeta, PatchError> {
    schema.map_or_else(|| Ok(PatchMeta::default()), PatchSchema::patch_meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tags() {
        let m = PatchMeta::parse(Some("merge"), Some("name")).unwrap();
        assert_eq!(m.strategy, PatchStrategy::Merge);
        assert_eq!(m.merge_key.as_deref(), Some("name"));
        assert!(!m.retain_keys);
        let m = PatchMeta::parse(Some("merge,retainKeys"), Some("name")).unwrap();
        assert_eq!((m.strategy, m.retain_keys), (PatchStrategy::Merge, true));
        let m = PatchMeta::parse(Some("retainKeys"), None).unwrap();
        assert_eq!((m.strategy, m.retain_keys), (PatchStrategy::Default, true));
        let m = PatchMeta::parse(Some("replace"), Some("")).unwrap();
        assert_eq!((m.strategy, m.merge_key), (PatchStrategy::Replace, None));
        assert_eq!(PatchMeta::parse(None, None).unwrap(), PatchMeta::default());
        assert_eq!(
            PatchMeta::parse(Some("merge,replace"), None)
                .unwrap_err()
                .to_string(),
            "unexpected patch strategy: [merge replace]"
        );
        assert!(PatchMeta::parse(Some("a,b,retainKeys"), None).is_err());
    }
}
