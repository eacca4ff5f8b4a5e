//! A [`PatchSchema`] built from a small JSON description, for tests: Pod-, Deployment-
//! and Service-like shapes with the markers the real types carry, plus a `Widget` type
//! with one field per patch behaviour.

use std::rc::Rc;

use serde_json::Value;

use crate::{PatchError, PatchMeta, PatchSchema};

/// Types by name; each type maps field names to a description:
/// `{"type": T}` (object), `{"map": T}` (map of T), `{"list": T}` (list of T), with
/// optional `"strategy"` and `"key"` markers. `string` stands for any primitive.
const TYPES: &str = r#"{
  "Pod": {"metadata": {"type": "ObjectMeta"}, "spec": {"type": "PodSpec"}},
  "ObjectMeta": {
    "labels": {"map": "string"}, "annotations": {"map": "string"},
    "finalizers": {"list": "string", "strategy": "merge"},
    "ownerReferences": {"list": "OwnerReference", "strategy": "merge", "key": "uid"}
  },
  "OwnerReference": {},
  "PodSpec": {
    "containers": {"list": "Container", "strategy": "merge", "key": "name"},
    "initContainers": {"list": "Container", "strategy": "merge", "key": "name"},
    "volumes": {"list": "Volume", "strategy": "merge,retainKeys", "key": "name"},
    "tolerations": {"list": "Toleration"},
    "hostAliases": {"list": "HostAlias", "strategy": "merge", "key": "ip"},
    "nodeSelector": {"map": "string"},
    "affinity": {"type": "Affinity"}
  },
  "Affinity": {"nodeAffinity": {"type": "Opaque"}},
  "Opaque": {},
  "HostAlias": {"hostnames": {"list": "string"}},
  "Toleration": {},
  "Container": {
    "ports": {"list": "ContainerPort", "strategy": "merge", "key": "containerPort"},
    "env": {"list": "EnvVar", "strategy": "merge", "key": "name"},
    "volumeMounts": {"list": "VolumeMount", "strategy": "merge", "key": "mountPath"},
    "resources": {"type": "ResourceRequirements"},
    "args": {"list": "string"}, "command": {"list": "string"}
  },
  "ContainerPort": {}, "EnvVar": {"valueFrom": {"type": "Opaque"}}, "VolumeMount": {},
  "ResourceRequirements": {"limits": {"map": "string"}, "requests": {"map": "string"}},
  "Volume": {"configMap": {"type": "Opaque"}, "emptyDir": {"type": "Opaque"}, "secret": {"type": "Opaque"}},
  "Deployment": {"metadata": {"type": "ObjectMeta"}, "spec": {"type": "DeploymentSpec"}},
  "DeploymentSpec": {
    "strategy": {"type": "DeploymentStrategy", "strategy": "retainKeys"},
    "template": {"type": "PodTemplateSpec"}, "selector": {"type": "Opaque"}
  },
  "DeploymentStrategy": {"rollingUpdate": {"type": "Opaque"}},
  "PodTemplateSpec": {"metadata": {"type": "ObjectMeta"}, "spec": {"type": "PodSpec"}},
  "Service": {"metadata": {"type": "ObjectMeta"}, "spec": {"type": "ServiceSpec"}},
  "ServiceSpec": {
    "ports": {"list": "ServicePort", "strategy": "merge", "key": "port"},
    "selector": {"map": "string"}
  },
  "ServicePort": {},
  "Widget": {
    "parts": {"list": "Widget", "strategy": "merge", "key": "name"},
    "tags": {"list": "string", "strategy": "merge"},
    "sizes": {"list": "string"},
    "items": {"list": "Widget"},
    "options": {"type": "Widget", "strategy": "retainKeys"},
    "fixed": {"type": "Widget", "strategy": "replace"},
    "child": {"type": "Widget"},
    "byName": {"map": "Widget"},
    "keyless": {"list": "Widget", "strategy": "merge"},
    "odd": {"list": "Widget", "strategy": "merge,replace"}
  }
}"#;

#[derive(Clone)]
enum Node {
    /// The root of a named type, or a map's value type.
    Type(String),
    /// A field, by its description.
    Field(Value),
}

/// A position in the described schema.
#[derive(Clone)]
pub(crate) struct TestSchema {
    types: Rc<Value>,
    node: Node,
}

impl TestSchema {
    /// The schema rooted at type `name`.
    pub(crate) fn root(name: &str) -> Self {
        let types = serde_json::from_str(TYPES).unwrap_or_default();
        Self {
            types: Rc::new(types),
            node: Node::Type(name.to_owned()),
        }
    }

    fn at(&self, node: Node) -> Self {
        Self {
            types: Rc::clone(&self.types),
            node,
        }
    }

    fn of_type(&self, name: Option<&Value>) -> Option<Self> {
        match name.and_then(Value::as_str) {
            None | Some("string") => None,
            Some(t) => Some(self.at(Node::Type(t.to_owned()))),
        }
    }
}

impl PatchSchema for TestSchema {
    fn field(&self, name: &str) -> Option<Self> {
        match &self.node {
            Node::Type(t) => self
                .types
                .get(t)?
                .get(name)
                .map(|d| self.at(Node::Field(d.clone()))),
            Node::Field(d) => {
                if let Some(t) = self.of_type(d.get("type")) {
                    t.field(name)
                } else {
                    self.of_type(d.get("map"))
                }
            }
        }
    }

    fn element(&self) -> Option<Self> {
        match &self.node {
            Node::Field(d) => self.of_type(d.get("list")),
            Node::Type(_) => None,
        }
    }

    fn patch_meta(&self) -> Result<PatchMeta, PatchError> {
        match &self.node {
            Node::Field(d) => PatchMeta::parse(
                d.get("strategy").and_then(Value::as_str),
                d.get("key").and_then(Value::as_str),
            ),
            Node::Type(_) => Ok(PatchMeta::default()),
        }
    }
}
