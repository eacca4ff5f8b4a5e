//! The paths of one served version of a custom resource, shaped as the apiextensions
//! server shapes them: list (also across namespaces), create, deletecollection, read,
//! replace, patch and delete, plus `/status` and `/scale` when the CRD enables them. No
//! deprecated `/watch/` paths: custom resources are watched with `?watch=true`.

use super::{capitalize, group_camel, gv_prefix, tag, Body, Method, Operation, PathItem, Produces};
use crate::catalog;
use crate::params::{self, Param};

/// One served version of a custom resource, as the paths need it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CustomResource<'a> {
    pub(crate) group: &'a str,
    pub(crate) version: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) plural: &'a str,
    pub(crate) namespaced: bool,
    /// Whether `spec.versions[].subresources.status` is set.
    pub(crate) status: bool,
    /// Whether `spec.versions[].subresources.scale` is set.
    pub(crate) scale: bool,
    /// Definition names of the kind and of its list.
    pub(crate) definition: &'a str,
    pub(crate) list_definition: &'a str,
}

/// `a` or `an` before `noun`, as upstream's descriptions choose it (plurals get none).
fn article(noun: &str) -> &'static str {
    if noun.ends_with('s') && !noun.ends_with("ss") {
        return "";
    }
    match noun.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an ",
        _ => "a ",
    }
}

struct Ctx<'a> {
    r: &'a CustomResource<'a>,
    /// `ExampleComV1`.
    prefix: String,
    /// `Namespaced` or empty.
    scope: &'static str,
    tag: String,
}

impl Ctx<'_> {
    /// An operation of the kind's GVK (upstream puts it on every route, `/scale` too).
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
            gvk: Some((
                self.r.group.to_owned(),
                self.r.version.to_owned(),
                self.r.kind.to_owned(),
            )),
            tag: self.tag.clone(),
            params: Vec::new(),
            body: Body::None,
            responses: Vec::new(),
            produces: Produces::Object,
        }
    }

    fn list(&self, id: String) -> Operation {
        let mut op = self.op(
            Method::Get,
            id,
            format!("list objects of kind {}", self.r.kind),
            "list",
        );
        op.params = params::list();
        op.responses = vec![(200, Some(self.r.list_definition.to_owned()))];
        op.produces = Produces::List;
        op
    }

    /// GET, PUT and PATCH of the object (`sub` empty) or of a subresource, whose body is
    /// `definition`.
    fn read_write(&self, sub: &str, definition: &str) -> Vec<Operation> {
        let kind = self.r.kind;
        let (of, suffix) = if sub.is_empty() {
            (String::new(), String::new())
        } else {
            (format!("{sub} of "), capitalize(sub))
        };
        let id = |verb: &str| format!("{verb}{}{}{kind}{suffix}", self.prefix, self.scope);
        let mut read = self.op(
            Method::Get,
            id("read"),
            format!("read {of}the specified {kind}"),
            "get",
        );
        if sub.is_empty() {
            read.params = params::get();
        }
        read.responses = vec![(200, Some(definition.to_owned()))];
        let mut replace = self.op(
            Method::Put,
            id("replace"),
            format!("replace {of}the specified {kind}"),
            "put",
        );
        replace.params = params::write();
        replace.body = Body::Object {
            definition: definition.to_owned(),
            required: true,
        };
        replace.responses = vec![
            (200, Some(definition.to_owned())),
            (201, Some(definition.to_owned())),
        ];
        let mut patch = self.op(
            Method::Patch,
            id("patch"),
            format!("partially update {of}the specified {kind}"),
            "patch",
        );
        patch.params = params::patch();
        patch.body = Body::CustomPatch;
        patch.responses = vec![(200, Some(definition.to_owned()))];
        vec![read, replace, patch]
    }
}

/// The paths of `r`.
pub(crate) fn for_custom_resource(r: &CustomResource<'_>) -> Vec<PathItem> {
    let ctx = Ctx {
        r,
        prefix: format!("{}{}", group_camel(r.group), capitalize(r.version)),
        scope: if r.namespaced { "Namespaced" } else { "" },
        tag: tag(r.group, Some(r.version)),
    };
    let (kind, definition) = (r.kind, r.definition);
    let base = gv_prefix(r.group, r.version);
    let scope_params = || {
        if r.namespaced {
            vec![params::namespace()]
        } else {
            Vec::new()
        }
    };
    let item_params = || {
        let mut p: Vec<Param> = vec![params::name(kind)];
        p.extend(scope_params());
        p.push(params::pretty());
        p
    };
    let mut items = Vec::new();
    let collection = if r.namespaced {
        items.push(PathItem {
            path: format!("{base}/{}", r.plural),
            params: vec![params::pretty()],
            operations: vec![ctx.list(format!("list{}{kind}ForAllNamespaces", ctx.prefix))],
        });
        format!("{base}/namespaces/{{namespace}}/{}", r.plural)
    } else {
        format!("{base}/{}", r.plural)
    };

    let mut create = ctx.op(
        Method::Post,
        format!("create{}{}{kind}", ctx.prefix, ctx.scope),
        format!("create {}{kind}", article(kind)),
        "post",
    );
    create.params = params::write();
    create.body = Body::Object {
        definition: definition.to_owned(),
        required: true,
    };
    create.responses = [200, 201, 202]
        .into_iter()
        .map(|code| (code, Some(definition.to_owned())))
        .collect();
    let mut delete_collection = ctx.op(
        Method::Delete,
        format!("delete{}Collection{}{kind}", ctx.prefix, ctx.scope),
        format!("delete collection of {kind}"),
        "deletecollection",
    );
    delete_collection.params = params::list();
    delete_collection.responses = vec![(200, Some(catalog::STATUS.to_owned()))];
    let mut collection_params = scope_params();
    collection_params.push(params::pretty());
    items.push(PathItem {
        path: collection.clone(),
        params: collection_params,
        operations: vec![
            ctx.list(format!("list{}{}{kind}", ctx.prefix, ctx.scope)),
            create,
            delete_collection,
        ],
    });

    let item = format!("{collection}/{{name}}");
    let mut item_ops = ctx.read_write("", definition);
    let mut delete = ctx.op(
        Method::Delete,
        format!("delete{}{}{kind}", ctx.prefix, ctx.scope),
        format!("delete {}{kind}", article(kind)),
        "delete",
    );
    delete.params = params::delete();
    delete.body = Body::Object {
        definition: catalog::DELETE_OPTIONS.to_owned(),
        required: false,
    };
    delete.responses = vec![
        (200, Some(catalog::STATUS.to_owned())),
        (202, Some(catalog::STATUS.to_owned())),
    ];
    item_ops.insert(2, delete);
    items.push(PathItem {
        path: item.clone(),
        params: item_params(),
        operations: item_ops,
    });
    if r.status {
        items.push(PathItem {
            path: format!("{item}/status"),
            params: item_params(),
            operations: ctx.read_write("status", definition),
        });
    }
    if r.scale {
        items.push(PathItem {
            path: format!("{item}/scale"),
            params: item_params(),
            operations: ctx.read_write("scale", SCALE),
        });
    }
    items
}

/// Definition of `autoscaling/v1` `Scale`, the body of `/scale`.
const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

#[cfg(test)]
mod tests {
    use super::*;

    fn widget(namespaced: bool) -> CustomResource<'static> {
        CustomResource {
            group: "example.com",
            version: "v1",
            kind: "Widget",
            plural: "widgets",
            namespaced,
            status: true,
            scale: true,
            definition: "com.example.v1.Widget",
            list_definition: "com.example.v1.WidgetList",
        }
    }

    fn find<'a>(items: &'a [PathItem], path: &str) -> &'a PathItem {
        items
            .iter()
            .find(|i| i.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
    }

    #[test]
    fn namespaced_paths_follow_upstream() {
        let items = for_custom_resource(&widget(true));
        let paths: Vec<_> = items.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/apis/example.com/v1/widgets",
                "/apis/example.com/v1/namespaces/{namespace}/widgets",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status",
                "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale",
            ]
        );
        let ids = |path: &str| -> Vec<String> {
            find(&items, path)
                .operations
                .iter()
                .map(|o| o.id.clone())
                .collect()
        };
        assert_eq!(
            ids("/apis/example.com/v1/widgets"),
            ["listExampleComV1WidgetForAllNamespaces"]
        );
        assert_eq!(
            ids("/apis/example.com/v1/namespaces/{namespace}/widgets"),
            [
                "listExampleComV1NamespacedWidget",
                "createExampleComV1NamespacedWidget",
                "deleteExampleComV1CollectionNamespacedWidget"
            ]
        );
        assert_eq!(
            ids("/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"),
            [
                "readExampleComV1NamespacedWidget",
                "replaceExampleComV1NamespacedWidget",
                "deleteExampleComV1NamespacedWidget",
                "patchExampleComV1NamespacedWidget"
            ]
        );
        let scale = find(
            &items,
            "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale",
        );
        assert_eq!(
            scale.operations[0].id,
            "readExampleComV1NamespacedWidgetScale"
        );
        assert_eq!(
            scale.operations[0].description,
            "read scale of the specified Widget"
        );
        assert_eq!(
            scale.operations[0].responses,
            [(200, Some(SCALE.to_owned()))]
        );
        let patch = &scale.operations[2];
        assert_eq!(patch.body, Body::CustomPatch);
        assert!(patch.params.iter().any(|p| p.name == "fieldValidation"));
        assert_eq!(
            patch.gvk,
            Some(("example.com".into(), "v1".into(), "Widget".into()))
        );
        assert_eq!(patch.tag, "exampleCom_v1");
    }

    #[test]
    fn cluster_scoped_without_subresources() {
        let mut r = widget(false);
        r.status = false;
        r.scale = false;
        r.kind = "Ingot";
        let items = for_custom_resource(&r);
        let paths: Vec<_> = items.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/apis/example.com/v1/widgets",
                "/apis/example.com/v1/widgets/{name}"
            ]
        );
        let create = &items[0].operations[1];
        assert_eq!(create.id, "createExampleComV1Ingot");
        assert_eq!(create.description, "create an Ingot");
        assert!(items[0].params.iter().all(|p| p.name != "namespace"));
        assert_eq!(article("Glass"), "a ");
        assert_eq!(article("Things"), "");
        assert_eq!(article(""), "a ");
    }
}
