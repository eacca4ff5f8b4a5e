//! The param objects of a binding (upstream's CollectParams): none without `paramKind`
//! or `paramRef`; else the object `paramRef.name`, or the objects `paramRef.selector`
//! selects, in `paramRef.namespace` (the request's namespace when not given, for a
//! namespaced kind); none found is refused when `parameterNotFoundAction` is Deny.
//! Params are read from this worker's watch caches, so any kind this worker serves can
//! be a param kind; a kind it does not serve is "not known".

use kas_server::rest::RestStore;
use serde_json::Value;

use super::model::ParamRef;

/// The stores params may come from.
#[derive(Clone, Default)]
pub(crate) struct ParamStores(Vec<RestStore>);

impl ParamStores {
    pub(crate) fn new(stores: Vec<RestStore>) -> ParamStores {
        ParamStores(stores)
    }

    /// The store of `kind` in `api_version`.
    fn find(&self, api_version: &str, kind: &str) -> Option<&RestStore> {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        self.0.iter().find(|s| {
            let r = s.resource();
            r.group == group && r.version == version && r.kind == kind
        })
    }

    /// The params for a request in `namespace`: `vec![Null]` when the policy or binding
    /// names none; `Err` is a configuration error (the failure policy decides).
    pub(crate) async fn collect(
        &self,
        kind: Option<&(String, String)>,
        param_ref: Option<&ParamRef>,
        namespace: &str,
    ) -> Result<Vec<Value>, String> {
        let (Some((api_version, kind)), Some(param_ref)) = (kind, param_ref) else {
            return Ok(vec![Value::Null]);
        };
        let Some(store) = self.find(api_version, kind) else {
            return Err(format!(
                "paramKind kind `&ParamKind{{APIVersion:{api_version},Kind:{kind},}}` not known"
            ));
        };
        let ns = match (store.resource().namespaced, param_ref.namespace.as_str()) {
            (false, "") => "",
            (false, _) => {
                return Err(
                    "paramRef.namespace must not be provided for a cluster-scoped `paramKind`"
                        .to_owned(),
                )
            }
            (true, "") if namespace.is_empty() => {
                return Err(
                    "cannot use namespaced paramRef in policy binding that matches \
                            cluster-scoped resources"
                        .to_owned(),
                )
            }
            (true, "") => namespace,
            (true, given) => given,
        };
        let params = match (param_ref.name.as_str(), &param_ref.selector) {
            ("", None) => return Err("one of name or selector must be provided".to_owned()),
            (_, Some(_)) if !param_ref.name.is_empty() => {
                return Err("paramRef.name and paramRef.selector are mutually exclusive".to_owned())
            }
            (name, None) => store
                .read_cached(ns, name)
                .await
                .map_err(|e| e.message)?
                .into_iter()
                .collect(),
            (_, Some(selector)) => {
                let selector = selector.as_ref().map_err(Clone::clone)?;
                let mut all = store.list_cached(ns).await.map_err(|e| e.message)?;
                all.retain(|o| selector.matches(o));
                all
            }
        };
        if params.is_empty() && param_ref.deny_when_missing {
            return Err(
                "no params found for policy binding with `Deny` parameterNotFoundAction".to_owned(),
            );
        }
        Ok(params)
    }
}
