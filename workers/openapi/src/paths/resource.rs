//! The paths of one served resource: collection, item, subresource, all-namespaces and
//! watch paths with their operations.

use super::{capitalize, group_camel, gv_prefix, tag, Body, Method, Operation, PathItem, Produces};
use crate::catalog::{self, Kind};
use crate::params::{self, Param};
use crate::ApiResource;

/// How one subresource is served: its methods, and the kind (of the catalog) it carries.
struct Subresource {
    methods: &'static [Method],
    /// (group, version, kind) of the body, `None` for the parent's kind.
    kind: Option<(&'static str, &'static str, &'static str)>,
}

fn subresource(name: &str) -> Option<Subresource> {
    use Method::*;
    const READ_WRITE: &[Method] = &[Get, Put, Patch];
    let (methods, kind): (&'static [Method], _) = match name {
        "status" | "ephemeralcontainers" | "resize" | "approval" => (READ_WRITE, None),
        "scale" => (READ_WRITE, Some(("autoscaling", "v1", "Scale"))),
        "finalize" => (&[Put], None),
        "binding" => (&[Post], Some(("", "v1", "Binding"))),
        "eviction" => (&[Post], Some(("policy", "v1", "Eviction"))),
        "token" => (
            &[Post],
            Some(("authentication.k8s.io", "v1", "TokenRequest")),
        ),
        _ => return None,
    };
    Some(Subresource { methods, kind })
}

/// Everything an operation of one resource needs to know.
struct Ctx<'a> {
    resource: &'a ApiResource,
    kind: &'static Kind,
    /// `CoreV1`, `AppsV1`.
    prefix: String,
    /// `Namespaced` or empty.
    scope: &'static str,
    tag: String,
}

impl Ctx<'_> {
    fn gvk(&self) -> Option<(String, String, String)> {
        let k = self.kind;
        Some((k.group.to_owned(), k.version.to_owned(), k.kind.to_owned()))
    }

    fn op(
        &self,
        method: Method,
        id: String,
        description: String,
        action: &'static str,
    ) -> Operation {
        Operation {
            method,
            id,
            description,
            action: Some(action),
            gvk: self.gvk(),
            tag: self.tag.clone(),
            params: Vec::new(),
            body: Body::None,
            responses: Vec::new(),
            produces: Produces::Object,
        }
    }
}

/// The paths of one served resource; empty if the catalog does not know its kind.
pub(crate) fn for_resource(resource: &ApiResource) -> Vec<PathItem> {
    let Some(kind) = catalog::find(resource.group, resource.version, resource.kind) else {
        return Vec::new();
    };
    let ctx = Ctx {
        resource,
        kind,
        prefix: format!(
            "{}{}",
            group_camel(resource.group),
            capitalize(resource.version)
        ),
        scope: if resource.namespaced {
            "Namespaced"
        } else {
            ""
        },
        tag: tag(resource.group, Some(resource.version)),
    };
    let base = gv_prefix(resource.group, resource.version);
    let scoped = if resource.namespaced {
        format!("{base}/namespaces/{{namespace}}")
    } else {
        base.clone()
    };
    let collection = format!("{scoped}/{}", resource.plural);
    let item = format!("{collection}/{{name}}");
    let scope_params = || {
        if resource.namespaced {
            vec![params::namespace()]
        } else {
            Vec::new()
        }
    };
    let item_params = || {
        let mut p = vec![params::name(kind.kind)];
        p.extend(scope_params());
        p.push(params::pretty());
        p
    };
    let collection_params = || {
        let mut p = scope_params();
        p.push(params::pretty());
        p
    };

    let mut items = Vec::new();
    let collection_ops = collection_operations(&ctx);
    if !collection_ops.is_empty() {
        items.push(PathItem {
            path: collection,
            params: collection_params(),
            operations: collection_ops,
        });
    }
    let item_ops = item_operations(&ctx);
    if !item_ops.is_empty() {
        items.push(PathItem {
            path: item.clone(),
            params: item_params(),
            operations: item_ops,
        });
    }
    for name in resource.subresources {
        let Some(sub) = subresource(name) else {
            continue;
        };
        let ops = subresource_operations(&ctx, name, &sub);
        if !ops.is_empty() {
            items.push(PathItem {
                path: format!("{item}/{name}"),
                params: item_params(),
                operations: ops,
            });
        }
    }
    if resource.namespaced && resource.has_verb("list") {
        let mut op = list_operation(&ctx);
        op.id = format!("list{}{}ForAllNamespaces", ctx.prefix, kind.kind);
        items.push(PathItem {
            path: format!("{base}/{}", resource.plural),
            params: vec![params::pretty()],
            operations: vec![op],
        });
    }
    if resource.has_verb("watch") {
        items.extend(watch_paths(&ctx, &base));
    }
    items
}

fn list_operation(ctx: &Ctx<'_>) -> Operation {
    let kind = ctx.kind.kind;
    let mut op = ctx.op(
        Method::Get,
        format!("list{}{}{kind}", ctx.prefix, ctx.scope),
        format!("list or watch objects of kind {kind}"),
        "list",
    );
    op.params = params::list();
    op.responses = vec![(200, ctx.kind.list_name())];
    op.produces = Produces::List;
    op
}

fn collection_operations(ctx: &Ctx<'_>) -> Vec<Operation> {
    let (r, kind, name) = (ctx.resource, ctx.kind.kind, (ctx.kind.name)().into_owned());
    let mut ops = Vec::new();
    if r.has_verb("list") && ctx.kind.list_kind.is_some() {
        ops.push(list_operation(ctx));
    }
    if r.has_verb("create") {
        let mut op = ctx.op(
            Method::Post,
            format!("create{}{}{kind}", ctx.prefix, ctx.scope),
            format!("create a {kind}"),
            "post",
        );
        op.params = params::write();
        op.body = Body::Object {
            definition: name.clone(),
            required: true,
        };
        op.responses = [200, 201, 202]
            .into_iter()
            .map(|c| (c, Some(name.clone())))
            .collect();
        ops.push(op);
    }
    if r.has_verb("deletecollection") {
        let mut op = ctx.op(
            Method::Delete,
            format!("delete{}Collection{}{kind}", ctx.prefix, ctx.scope),
            format!("delete collection of {kind}"),
            "deletecollection",
        );
        op.params = params::delete_collection();
        op.body = Body::Object {
            definition: catalog::DELETE_OPTIONS.to_owned(),
            required: false,
        };
        op.responses = vec![(200, Some(catalog::STATUS.to_owned()))];
        ops.push(op);
    }
    ops
}

fn item_operations(ctx: &Ctx<'_>) -> Vec<Operation> {
    let (r, kind, name) = (ctx.resource, ctx.kind.kind, (ctx.kind.name)().into_owned());
    let id = |verb: &str| format!("{verb}{}{}{kind}", ctx.prefix, ctx.scope);
    let mut ops = Vec::new();
    if r.has_verb("get") {
        let mut op = ctx.op(
            Method::Get,
            id("read"),
            format!("read the specified {kind}"),
            "get",
        );
        op.responses = vec![(200, Some(name.clone()))];
        ops.push(op);
    }
    if r.has_verb("update") {
        let mut op = ctx.op(
            Method::Put,
            id("replace"),
            format!("replace the specified {kind}"),
            "put",
        );
        op.params = params::write();
        op.body = Body::Object {
            definition: name.clone(),
            required: true,
        };
        op.responses = vec![(200, Some(name.clone())), (201, Some(name.clone()))];
        ops.push(op);
    }
    if r.has_verb("patch") {
        let mut op = ctx.op(
            Method::Patch,
            id("patch"),
            format!("partially update the specified {kind}"),
            "patch",
        );
        op.params = params::patch();
        op.body = Body::Patch;
        op.responses = vec![(200, Some(name.clone())), (201, Some(name.clone()))];
        ops.push(op);
    }
    if r.has_verb("delete") {
        let mut op = ctx.op(
            Method::Delete,
            id("delete"),
            format!("delete a {kind}"),
            "delete",
        );
        op.params = params::delete();
        op.body = Body::Object {
            definition: catalog::DELETE_OPTIONS.to_owned(),
            required: false,
        };
        op.responses = vec![
            (200, Some(catalog::STATUS.to_owned())),
            (202, Some(catalog::STATUS.to_owned())),
        ];
        ops.push(op);
    }
    ops
}

fn subresource_operations(ctx: &Ctx<'_>, sub_name: &str, sub: &Subresource) -> Vec<Operation> {
    let parent = ctx.kind.kind;
    let (body_kind, gvk) = match sub.kind {
        None => (ctx.kind, ctx.gvk()),
        Some((group, version, kind)) => match catalog::find(group, version, kind) {
            Some(k) => (
                k,
                Some((group.to_owned(), version.to_owned(), kind.to_owned())),
            ),
            None => return Vec::new(),
        },
    };
    let name = (body_kind.name)().into_owned();
    let suffix = capitalize(sub_name);
    let id = |verb: &str| format!("{verb}{}{}{parent}{suffix}", ctx.prefix, ctx.scope);
    let mut ops = Vec::new();
    for method in sub.methods {
        let (verb, action, description) = match method {
            Method::Get => (
                "read",
                "get",
                format!("read {sub_name} of the specified {parent}"),
            ),
            Method::Put => (
                "replace",
                "put",
                format!("replace {sub_name} of the specified {parent}"),
            ),
            Method::Patch => (
                "patch",
                "patch",
                format!("partially update {sub_name} of the specified {parent}"),
            ),
            Method::Post => ("create", "post", format!("create {sub_name} of a {parent}")),
            Method::Delete => continue,
        };
        let mut op = ctx.op(*method, id(verb), description, action);
        op.gvk = gvk.clone();
        match method {
            Method::Get => op.responses = vec![(200, Some(name.clone()))],
            Method::Put => {
                op.params = params::write();
                op.body = Body::Object {
                    definition: name.clone(),
                    required: true,
                };
                op.responses = vec![(200, Some(name.clone())), (201, Some(name.clone()))];
            }
            Method::Patch => {
                op.params = params::patch();
                op.body = Body::Patch;
                op.responses = vec![(200, Some(name.clone())), (201, Some(name.clone()))];
            }
            _ => {
                op.params = params::write();
                op.body = Body::Object {
                    definition: name.clone(),
                    required: true,
                };
                op.responses = [200, 201, 202]
                    .into_iter()
                    .map(|c| (c, Some(name.clone())))
                    .collect();
            }
        }
        ops.push(op);
    }
    ops
}

fn watch_paths(ctx: &Ctx<'_>, base: &str) -> Vec<PathItem> {
    let (r, kind) = (ctx.resource, ctx.kind.kind);
    let watch = |id: String, description: String, action: &'static str| {
        let mut op = ctx.op(Method::Get, id, description, action);
        op.responses = vec![(200, Some(catalog::WATCH_EVENT.to_owned()))];
        op.produces = Produces::Watch;
        op
    };
    let path_params = |extra: Vec<Param>| {
        let mut p = params::list();
        p.extend(extra);
        p.push(params::pretty());
        p.sort_by(|a, b| a.name.cmp(b.name));
        p
    };
    let list_description = format!(
        "watch individual changes to a list of {kind}. deprecated: use the 'watch' parameter with a list operation instead."
    );
    let item_description = format!(
        "watch changes to an object of kind {kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter."
    );
    let scoped = if r.namespaced {
        format!("{base}/watch/namespaces/{{namespace}}/{}", r.plural)
    } else {
        format!("{base}/watch/{}", r.plural)
    };
    let scope_params = || {
        if r.namespaced {
            vec![params::namespace()]
        } else {
            Vec::new()
        }
    };
    let mut items = Vec::new();
    if ctx.kind.list_kind.is_some() {
        items.push(PathItem {
            path: scoped.clone(),
            params: path_params(scope_params()),
            operations: vec![watch(
                format!("watch{}{}{kind}List", ctx.prefix, ctx.scope),
                list_description.clone(),
                "watchlist",
            )],
        });
    }
    let mut item_extra = scope_params();
    item_extra.push(params::name(kind));
    items.push(PathItem {
        path: format!("{scoped}/{{name}}"),
        params: path_params(item_extra),
        operations: vec![watch(
            format!("watch{}{}{kind}", ctx.prefix, ctx.scope),
            item_description,
            "watch",
        )],
    });
    if r.namespaced && ctx.kind.list_kind.is_some() {
        items.push(PathItem {
            path: format!("{base}/watch/{}", r.plural),
            params: path_params(Vec::new()),
            operations: vec![watch(
                format!("watch{}{kind}ListForAllNamespaces", ctx.prefix),
                list_description,
                "watchlist",
            )],
        });
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    const POD_VERBS: &[&str] = &[
        "create",
        "delete",
        "deletecollection",
        "get",
        "list",
        "patch",
        "update",
        "watch",
    ];

    fn pods() -> ApiResource {
        ApiResource {
            group: "",
            version: "v1",
            kind: "Pod",
            plural: "pods",
            namespaced: true,
            verbs: POD_VERBS,
            subresources: &["status", "binding", "eviction", "log", "exec"],
        }
    }

    fn find<'a>(items: &'a [PathItem], path: &str) -> &'a PathItem {
        items
            .iter()
            .find(|i| i.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
    }

    #[test]
    fn names_follow_upstream() {
        assert_eq!(group_camel(""), "Core");
        assert_eq!(
            group_camel("rbac.authorization.k8s.io"),
            "RbacAuthorization"
        );
        assert_eq!(
            group_camel("flowcontrol.apiserver.k8s.io"),
            "FlowcontrolApiserver"
        );
        assert_eq!(
            tag("rbac.authorization.k8s.io", Some("v1")),
            "rbacAuthorization_v1"
        );
        assert_eq!(tag("", Some("v1")), "core_v1");
        assert_eq!(gv_prefix("apps", "v1"), "/apis/apps/v1");
    }

    #[test]
    fn pod_paths() {
        let items = for_resource(&pods());
        let collection = find(&items, "/api/v1/namespaces/{namespace}/pods");
        let ids: Vec<_> = collection
            .operations
            .iter()
            .map(|o| o.id.as_str())
            .collect();
        assert_eq!(
            ids,
            [
                "listCoreV1NamespacedPod",
                "createCoreV1NamespacedPod",
                "deleteCoreV1CollectionNamespacedPod"
            ]
        );
        let item = find(&items, "/api/v1/namespaces/{namespace}/pods/{name}");
        let patch = item
            .operations
            .iter()
            .find(|o| o.method == Method::Patch)
            .unwrap();
        assert_eq!(patch.id, "patchCoreV1NamespacedPod");
        assert_eq!(patch.action, Some("patch"));
        assert!(patch.params.iter().any(|p| p.name == "fieldValidation"));
        assert_eq!(patch.body, Body::Patch);
        let status = find(&items, "/api/v1/namespaces/{namespace}/pods/{name}/status");
        assert_eq!(status.operations.len(), 3);
        assert_eq!(status.operations[0].id, "readCoreV1NamespacedPodStatus");
        let eviction = find(
            &items,
            "/api/v1/namespaces/{namespace}/pods/{name}/eviction",
        );
        assert_eq!(eviction.operations[0].gvk.as_ref().unwrap().0, "policy");
        assert!(!items
            .iter()
            .any(|i| i.path.ends_with("/log") || i.path.ends_with("/exec")));
        let all = find(&items, "/api/v1/pods");
        assert_eq!(all.operations[0].id, "listCoreV1PodForAllNamespaces");
        assert_eq!(
            find(&items, "/api/v1/watch/pods").operations[0].id,
            "watchCoreV1PodListForAllNamespaces"
        );
        assert_eq!(
            find(&items, "/api/v1/watch/namespaces/{namespace}/pods/{name}").operations[0].action,
            Some("watch")
        );
    }

    #[test]
    fn cluster_scoped_and_scale() {
        let ns = ApiResource {
            group: "",
            version: "v1",
            kind: "Namespace",
            plural: "namespaces",
            namespaced: false,
            verbs: &["get", "list", "watch"],
            subresources: &["finalize"],
        };
        let items = for_resource(&ns);
        assert!(find(&items, "/api/v1/namespaces")
            .params
            .iter()
            .all(|p| p.name != "namespace"));
        assert_eq!(
            find(&items, "/api/v1/namespaces/{name}/finalize").operations[0].id,
            "replaceCoreV1NamespaceFinalize"
        );
        assert_eq!(
            find(&items, "/api/v1/watch/namespaces").operations[0].id,
            "watchCoreV1NamespaceList"
        );
        let deploy = ApiResource {
            group: "apps",
            version: "v1",
            kind: "Deployment",
            plural: "deployments",
            namespaced: true,
            verbs: POD_VERBS,
            subresources: &["scale", "status"],
        };
        let items = for_resource(&deploy);
        let scale = find(
            &items,
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
        );
        assert_eq!(
            scale.operations[0].id,
            "readAppsV1NamespacedDeploymentScale"
        );
        assert_eq!(
            scale.operations[0].gvk,
            Some(("autoscaling".into(), "v1".into(), "Scale".into()))
        );
    }

    #[test]
    fn unknown_kind_has_no_paths() {
        let mut r = pods();
        r.kind = "Nope";
        assert!(for_resource(&r).is_empty());
        let mut r = pods();
        r.verbs = &[];
        r.subresources = &[];
        assert!(for_resource(&r).is_empty());
    }
}
