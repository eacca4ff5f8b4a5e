//! What a resource is, as data: names, scope, storage path, verbs, subresources, the
//! strategy functions (defaulting, validation) and the printer columns. The generic
//! store serves any resource described this way; there is no module per resource.

use serde_json::{json, Value};

use super::callbacks::{
    no_defaults, no_prepare, no_validation, no_warnings, Conversion, Defaults, Prepare, Validate,
    Warnings,
};

/// The rule a resource's names follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRule {
    /// A DNS-1123 subdomain (most resources).
    Subdomain,
    /// A DNS-1123 label (namespaces).
    Label,
    /// A DNS-1035 label (services).
    Dns1035,
    /// Anything usable as a URL path segment (RBAC roles and bindings).
    PathSegment,
    /// An IP address in canonical form (IPAddresses).
    Ip,
}

/// Which verbs a resource serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbs {
    /// create, delete, deletecollection, get, list, patch, update, watch.
    All,
    /// All but deletecollection (namespaces: upstream's namespace storage deletes one
    /// namespace at a time, through its finalization).
    AllButCollectionDelete,
    /// Only create: the review APIs and bindings, whose objects are never stored.
    CreateOnly,
    /// Only get and list, of objects computed on each read (componentstatuses).
    ReadOnly,
}

impl Verbs {
    /// Whether the resource's objects are stored (the read and write verbs).
    pub fn stored(self) -> bool {
        matches!(self, Verbs::All | Verbs::AllButCollectionDelete)
    }

    /// The verbs as discovery lists them.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Verbs::All => &[
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch",
            ],
            Verbs::AllButCollectionDelete => &[
                "create", "delete", "get", "list", "patch", "update", "watch",
            ],
            Verbs::CreateOnly => &["create"],
            Verbs::ReadOnly => &["get", "list"],
        }
    }
}

/// Where the `scale` subresource finds replicas and the selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaleSpec {
    /// The selector is a LabelSelector object (apps/v1) rather than a plain map
    /// (ReplicationController).
    pub label_selector: bool,
}

/// One printer column: the Table column definition and how to compute its cell.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Header, e.g. `READY` is given as `Ready`.
    pub name: &'static str,
    /// OpenAPI type: string, integer, number, boolean, date.
    pub kind: &'static str,
    /// OpenAPI format: `name` for the name column, else usually empty.
    pub format: &'static str,
    /// 0 for the default columns, 1 for those shown only with `-o wide`.
    pub priority: u8,
    /// Column description.
    pub description: &'static str,
    /// The cell for an object.
    pub cell: fn(&Value) -> Value,
}

/// What a resource is: everything the generic store needs to serve it.
#[derive(Debug, Clone, Copy)]
pub struct Resource {
    /// API group ("" for core).
    pub group: &'static str,
    /// API version.
    pub version: &'static str,
    /// Plural resource name, e.g. `configmaps`.
    pub plural: &'static str,
    /// Singular name.
    pub singular: &'static str,
    /// Kind, e.g. `ConfigMap`.
    pub kind: &'static str,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// The key path under the etcd prefix (upstream's registry path).
    pub key_path: &'static str,
    /// Short names for discovery.
    pub short_names: &'static [&'static str],
    /// Categories for discovery (e.g. `all`).
    pub categories: &'static [&'static str],
    /// The verbs served.
    pub verbs: Verbs,
    /// Subresources: `status`, `scale`, `token`, `binding`, `eviction`, `finalize`,
    /// `approval`, ...
    pub subresources: &'static [&'static str],
    /// Where `scale` reads and writes, for resources that have it.
    pub scale: Option<ScaleSpec>,
    /// Field selectors allowed besides `metadata.name` and `metadata.namespace`.
    pub extra_fields: &'static [&'static str],
    /// The OpenAPI definition of the kind (`io.k8s.api.core.v1.Pod`): typed decoding
    /// and strategic merge patch follow its schema. Empty for untyped objects.
    pub definition: &'static str,
    /// Whether `metadata.generation` is kept (1 on create, +1 on each spec change).
    pub generation: bool,
    /// Top-level fields a write of the object itself resets besides `status` (upstream's
    /// `GetResetFields`): nobody manages them through it.
    pub resets: &'static [&'static str],
    /// A finalizer the first delete adds, so the object waits for its controller (a
    /// CRD's `customresourcecleanup`, added by upstream's CRD REST `Delete`).
    pub delete_finalizer: Option<&'static str>,
    /// Graceful deletion (upstream's CheckGracefulDelete, pods only): the grace period a
    /// delete gets; with one above 0 the object is marked and kept until it runs out
    /// (its kubelet, or a delete with a shorter one, removes it).
    pub grace_period: Option<super::callbacks::GracePeriod>,
    /// Whether a PUT of a missing object creates it (upstream's `AllowCreateOnUpdate`).
    pub create_on_update: bool,
    /// Whether a PUT without a resourceVersion overwrites what is stored (upstream's
    /// `AllowUnconditionalUpdate`); when false it is a 422.
    pub unconditional_update: bool,
    /// The resource's defaulting.
    pub defaults: Defaults,
    /// The resource's own validation rules.
    pub validate: Validate,
    /// What its strategy clears before validation ([`Prepare`]).
    pub prepare: Prepare,
    /// What its strategy warns about once a write is valid ([`Warnings`]).
    pub warnings: Warnings,
    /// What names must look like.
    pub names: NameRule,
    /// For a version served from another version's storage with no conversion (custom
    /// resources): that version; objects are stored with its apiVersion and read back
    /// with this one. Empty when this version is the storage version.
    pub storage_version: &'static str,
    /// For a version stored in another version's shape (events.k8s.io/v1 Events in the
    /// core/v1 shape): the conversion to and from the stored object.
    pub conversion: Option<Conversion>,
    /// Printer columns after `Name` (upstream's for the common types); `Created At` /
    /// `Age` is added for resources with none.
    pub columns: &'static [Column],
    /// The order of a Table's rows, for the few printers upstream sorts (FlowSchemas by
    /// matching precedence); `None` keeps the list's order (by name).
    pub row_order: Option<RowOrder>,
    /// The release that deprecated this version of the kind (`1.19`): every request
    /// gets upstream's `Warning` saying so.
    pub deprecated_in: Option<&'static str>,
}

/// How a Table's rows are sorted.
pub type RowOrder = fn(&Value, &Value) -> std::cmp::Ordering;

impl Resource {
    /// A resource with upstream's usual shape: namespaced, all verbs, no subresources,
    /// key path = plural, no rules of its own.
    pub const fn new(
        group: &'static str,
        version: &'static str,
        plural: &'static str,
        singular: &'static str,
        kind: &'static str,
    ) -> Resource {
        Resource {
            group,
            version,
            plural,
            singular,
            kind,
            namespaced: true,
            key_path: plural,
            short_names: &[],
            categories: &[],
            verbs: Verbs::All,
            subresources: &[],
            scale: None,
            extra_fields: &[],
            definition: "",
            generation: false,
            resets: &[],
            delete_finalizer: None,
            grace_period: None,
            create_on_update: false,
            unconditional_update: true,
            defaults: no_defaults,
            validate: no_validation,
            prepare: no_prepare,
            warnings: no_warnings,
            columns: &[],
            row_order: None,
            names: NameRule::Subdomain,
            storage_version: "",
            conversion: None,
            deprecated_in: None,
        }
    }

    /// Deprecated since release `release` (e.g. `1.19`).
    pub const fn deprecated(mut self, release: &'static str) -> Resource {
        self.deprecated_in = Some(release);
        self
    }

    /// The deprecation warning upstream sends with every request for this resource.
    pub fn deprecation_warning(&self) -> Option<String> {
        self.deprecated_in.map(|release| {
            format!(
                "{} {} is deprecated in v{release}+",
                self.api_version(),
                self.kind
            )
        })
    }

    /// Stored in another version's shape, converted by `conversion`.
    pub const fn converted(mut self, conversion: Conversion) -> Resource {
        self.conversion = Some(conversion);
        self
    }

    /// Stored as `version` (no conversion but the apiVersion).
    pub const fn storage_version(mut self, version: &'static str) -> Resource {
        self.storage_version = version;
        self
    }

    /// Names follow `rule`.
    pub const fn names(mut self, rule: NameRule) -> Resource {
        self.names = rule;
        self
    }

    /// Cluster-scoped.
    pub const fn cluster(mut self) -> Resource {
        self.namespaced = false;
        self
    }

    /// Stored under a key path other than the plural.
    pub const fn key_path(mut self, path: &'static str) -> Resource {
        self.key_path = path;
        self
    }

    /// Short names.
    pub const fn short(mut self, names: &'static [&'static str]) -> Resource {
        self.short_names = names;
        self
    }

    /// Categories.
    pub const fn categories(mut self, c: &'static [&'static str]) -> Resource {
        self.categories = c;
        self
    }

    /// Subresources.
    pub const fn subresources(mut self, s: &'static [&'static str]) -> Resource {
        self.subresources = s;
        self
    }

    /// The scale subresource.
    pub const fn scale(mut self, label_selector: bool) -> Resource {
        self.scale = Some(ScaleSpec { label_selector });
        self
    }

    /// Only create.
    pub const fn create_only(mut self) -> Resource {
        self.verbs = Verbs::CreateOnly;
        self
    }

    /// A PUT of a missing object creates it.
    pub const fn create_on_update(mut self) -> Resource {
        self.create_on_update = true;
        self
    }

    /// A PUT must name the resourceVersion it replaces.
    pub const fn conditional_updates(mut self) -> Resource {
        self.unconditional_update = false;
        self
    }

    /// Every verb but deletecollection.
    pub const fn no_collection_delete(mut self) -> Resource {
        self.verbs = Verbs::AllButCollectionDelete;
        self
    }

    /// Only get and list, of objects the hooks compute.
    pub const fn read_only(mut self) -> Resource {
        self.verbs = Verbs::ReadOnly;
        self
    }

    /// Extra field selectors.
    pub const fn fields(mut self, f: &'static [&'static str]) -> Resource {
        self.extra_fields = f;
        self
    }

    /// The OpenAPI definition.
    pub const fn definition(mut self, d: &'static str) -> Resource {
        self.definition = d;
        self
    }

    /// Top-level fields writes of the object itself reset, besides `status`.
    pub const fn resets(mut self, fields: &'static [&'static str]) -> Resource {
        self.resets = fields;
        self
    }

    /// The finalizer the first delete adds.
    pub const fn delete_finalizer(mut self, finalizer: &'static str) -> Resource {
        self.delete_finalizer = Some(finalizer);
        self
    }

    /// Graceful deletion, with the period `grace` decides.
    pub const fn graceful(mut self, grace: super::callbacks::GracePeriod) -> Resource {
        self.grace_period = Some(grace);
        self
    }

    /// Keeps metadata.generation.
    pub const fn generation(mut self) -> Resource {
        self.generation = true;
        self
    }

    /// The strategy: defaulting and validation.
    pub const fn strategy(mut self, defaults: Defaults, validate: Validate) -> Resource {
        self.defaults = defaults;
        self.validate = validate;
        self
    }

    /// What the strategy clears before validation ([`Prepare`]).
    pub const fn prepare(mut self, prepare: Prepare) -> Resource {
        self.prepare = prepare;
        self
    }

    /// What the strategy warns about valid writes.
    pub const fn warnings(mut self, warnings: Warnings) -> Resource {
        self.warnings = warnings;
        self
    }

    /// Printer columns.
    pub const fn columns(mut self, c: &'static [Column]) -> Resource {
        self.columns = c;
        self
    }

    /// The order of Table rows.
    pub const fn row_order(mut self, order: RowOrder) -> Resource {
        self.row_order = Some(order);
        self
    }

    /// `v1` or `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_owned()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Whether the resource has this subresource.
    pub fn has_subresource(&self, name: &str) -> bool {
        self.subresources.contains(&name)
    }

    /// Whether status is written only through the `status` subresource.
    pub fn status_split(&self) -> bool {
        self.has_subresource("status")
    }

    /// The group/version objects are stored in (events.k8s.io/v1 Events in core v1, an
    /// HPA v1 in autoscaling/v2, a CRD's storage version).
    pub fn storage_api_version(&self) -> String {
        match (&self.conversion, self.storage_version) {
            (Some(c), _) => c.storage_api_version.to_owned(),
            (None, "") => self.api_version(),
            (None, v) if self.group.is_empty() => v.to_owned(),
            (None, v) => format!("{}/{v}", self.group),
        }
    }

    /// Upstream's `storageVersionHash` for discovery: the first 8 bytes of the SHA-256 of
    /// the storage `group/version/kind`, base64; none for resources never stored (the
    /// create-only review APIs, the computed componentstatuses).
    pub fn storage_version_hash(&self) -> Option<String> {
        use base64::Engine;
        if !self.verbs.stored() {
            return None;
        }
        let gv = self.storage_api_version();
        let gvk = match gv.split_once('/') {
            Some((g, v)) => format!("{g}/{v}/{}", self.kind),
            None => format!("/{gv}/{}", self.kind),
        };
        let digest = ring::digest::digest(&ring::digest::SHA256, gvk.as_bytes());
        Some(base64::engine::general_purpose::STANDARD.encode(&digest.as_ref()[..8]))
    }

    /// The entries of this resource and its subresources in an APIResourceList.
    pub fn discovery(&self) -> Vec<Value> {
        let mut main = json!({
            "name": self.plural,
            "singularName": self.singular,
            "namespaced": self.namespaced,
            "kind": self.kind,
            "verbs": self.verbs.names(),
        });
        if !self.short_names.is_empty() {
            main["shortNames"] = json!(self.short_names);
        }
        if !self.categories.is_empty() {
            main["categories"] = json!(self.categories);
        }
        if let Some(hash) = self.storage_version_hash() {
            main["storageVersionHash"] = json!(hash);
        }
        let mut out = vec![main];
        for sub in self.subresources {
            let (kind, verbs, group, version): (&str, &[&str], Option<&str>, Option<&str>) =
                subresource_shape(self, sub);
            let mut entry = json!({
                "name": format!("{}/{sub}", self.plural),
                "singularName": "",
                "namespaced": self.namespaced,
                "kind": kind,
                "verbs": verbs,
            });
            if let Some(g) = group {
                entry["group"] = json!(g);
            }
            if let Some(v) = version {
                entry["version"] = json!(v);
            }
            out.push(entry);
        }
        out
    }

    /// The aggregated-discovery (apidiscovery.k8s.io/v2) entry of this resource.
    pub fn aggregated_discovery(&self) -> Value {
        let mut entry = json!({
            "resource": self.plural,
            "responseKind": {"group": self.group, "version": self.version, "kind": self.kind},
            "scope": if self.namespaced { "Namespaced" } else { "Cluster" },
            "singularResource": self.singular,
            "verbs": self.verbs.names(),
        });
        if !self.short_names.is_empty() {
            entry["shortNames"] = json!(self.short_names);
        }
        if !self.categories.is_empty() {
            entry["categories"] = json!(self.categories);
        }
        let subs: Vec<Value> = self
            .subresources
            .iter()
            .map(|sub| {
                let (kind, verbs, group, version) = subresource_shape(self, sub);
                json!({
                    "subresource": sub,
                    "responseKind": {
                        "group": group.unwrap_or(self.group),
                        "version": version.unwrap_or(self.version),
                        "kind": kind,
                    },
                    "verbs": verbs,
                })
            })
            .collect();
        if !subs.is_empty() {
            entry["subresources"] = json!(subs);
        }
        entry
    }
}

/// A subresource's kind, verbs and, when it differs from its parent's, group and version.
fn subresource_shape(
    r: &Resource,
    sub: &str,
) -> (
    &'static str,
    &'static [&'static str],
    Option<&'static str>,
    Option<&'static str>,
) {
    match sub {
        "status" => (r.kind, &["get", "patch", "update"], None, None),
        "scale" => (
            "Scale",
            &["get", "patch", "update"],
            Some("autoscaling"),
            Some("v1"),
        ),
        "token" => (
            "TokenRequest",
            &["create"],
            Some("authentication.k8s.io"),
            Some("v1"),
        ),
        "eviction" => ("Eviction", &["create"], Some("policy"), Some("v1")),
        "binding" => ("Binding", &["create"], None, None),
        "finalize" => (r.kind, &["update"], None, None),
        "approval" => (r.kind, &["get", "patch", "update"], None, None),
        "ephemeralcontainers" | "resize" => (r.kind, &["get", "patch", "update"], None, None),
        "log" => ("Pod", &["get"], None, None),
        "exec" => ("PodExecOptions", &["create", "get"], None, None),
        "attach" => ("PodAttachOptions", &["create", "get"], None, None),
        "portforward" => ("PodPortForwardOptions", &["create", "get"], None, None),
        "proxy" => (
            match r.kind {
                "Node" => "NodeProxyOptions",
                "Service" => "ServiceProxyOptions",
                _ => "PodProxyOptions",
            },
            &["create", "delete", "get", "patch", "update"],
            None,
            None,
        ),
        _ => (r.kind, &["get"], None, None),
    }
}
