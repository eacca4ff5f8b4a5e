//! One request to a resource: the store's entry point [`RestStore::handle`] (query,
//! negotiation, `pretty`, audit annotations) and the dispatch of method, subresource and
//! verb to the read, write, patch, delete and connect code.

use http::{Method, Request, Response, StatusCode};
use kas_proto::RequestContext;
use serde_json::Value;

use super::{
    decode, dry_run_in, json_response, scale_fields, with_audit_annotations, with_warnings, Query,
    Render, RestStore, Verbs, WriteOptions, CONNECT_SUBRESOURCES,
};
use crate::body::Body;
use crate::encode;
use crate::negotiate::Media;
use crate::status::{Reason, Status};

impl RestStore {
    /// Serves one request already routed to this resource. It takes the store (cheap to
    /// clone) and the context by value, so the future borrows nothing from its caller.
    pub async fn handle(self, ctx: RequestContext, req: Request<Body>) -> Response<Body> {
        let query = Query::parse(req.uri().query());
        let watch = ctx.info.verb == "watch";
        let user_agent = req
            .headers()
            .get(http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let pretty = encode::pretty(req.uri().query(), user_agent);
        let gzip = crate::compress::accepts_gzip(req.headers());
        let protobuf = self.encodes_protobuf();
        let (render, media) = match Render::negotiate(req.headers(), &query, watch, protobuf) {
            Ok(chosen) => chosen,
            Err(status) => return status.into_response(),
        };
        let recorder = crate::admission::Recorder::default();
        if let Some(w) = self.resource.deprecation_warning() {
            recorder.warn(w);
        }
        let resp = match self
            .dispatch(&ctx, req, query, render, media, &recorder)
            .await
        {
            Ok(resp) => resp,
            Err(status) => status.into_response(),
        };
        let resp = match (render, ctx.info.verb.as_str()) {
            (Render::Object, _) => resp,
            (_, "create" | "update" | "patch") => self.rendered(resp, render).await,
            _ => resp,
        };
        let resp = with_warnings(resp, &recorder.take_warnings());
        let resp = with_audit_annotations(resp, &recorder);
        if watch {
            return resp;
        }
        let resp = match media {
            crate::negotiate::Media::Json if pretty => encode::indent(resp).await,
            _ => encode::encode(resp, media).await,
        };
        // Connect subresources (logs, exec, proxy, …) answer with their own bodies.
        let connect = CONNECT_SUBRESOURCES.contains(&ctx.info.subresource.as_str());
        crate::compress::compress(resp, gzip && !connect).await
    }

    /// Whether responses can be protobuf: built-in types only, as upstream (custom
    /// resources have no protobuf serializer).
    fn encodes_protobuf(&self) -> bool {
        !self.resource.definition.is_empty() && kas_schema::encodes_protobuf()
    }

    async fn dispatch(
        &self,
        ctx: &RequestContext,
        req: Request<Body>,
        query: Query,
        render: Render,
        media: Media,
        recorder: &crate::admission::Recorder,
    ) -> Result<Response<Body>, Status> {
        let info = &ctx.info;
        let (ns, name) = (info.namespace.clone(), info.name.clone());
        let (ns, name) = (ns.as_str(), name.as_str());
        let method = req.method().clone();
        let verb = info.verb.clone();
        let sub = info.subresource.clone();
        if !sub.is_empty() && !self.resource.has_subresource(&sub) {
            return Err(Status::path_not_found());
        }
        if self.resource.verbs == Verbs::ReadOnly {
            return match (sub.as_str(), verb.as_str()) {
                ("", "get") => self.computed_get(name, render).await,
                ("", "list") => self.computed_list(&query, render).await,
                _ => Err(self.computed_refusal(&verb, &method)),
            };
        }
        if CONNECT_SUBRESOURCES.contains(&sub.as_str()) {
            let Some(hooks) = self.hooks.clone() else {
                return Err(Status::path_not_found());
            };
            // Connecters refuse dry runs (upstream's ConnectResource); log is a getter.
            if sub != "log" && query.get("dryRun").is_some() {
                return Err(Status::new(Reason::BadRequest, "dryRun is not supported"));
            }
            // A proxy's name may carry a scheme and port (`https:web:8443`): the hook
            // reads the object it names.
            let parent = match sub.as_str() {
                "proxy" => Value::Null,
                _ => self.read_object(ns, name).await?,
            };
            return hooks.connect(self, ctx, &sub, parent, req).await;
        }
        if self.resource.verbs == Verbs::CreateOnly && verb != "create" {
            return Err(Status::new(
                Reason::MethodNotAllowed,
                format!("{method} is not supported on {}", self.resource.plural),
            ));
        }
        // Parsed now, refused only by the verbs that write.
        let write_opts = WriteOptions::from_query(ctx, &query, req.headers(), recorder);
        let opts = move || write_opts;
        match (sub.as_str(), method, verb.as_str()) {
            ("", _, "get") => self.get(ns, name, &query, render).await,
            ("", _, "list") => self.list(ns, &query, render).await,
            ("", _, "watch") => self.watch(ns, name, &query, render, media).await,
            ("status" | "ephemeralcontainers" | "resize", Method::GET, "get") => {
                self.get(ns, name, &query, render).await
            }
            ("scale", Method::GET, "get") => self.get_scale(ns, name).await,
            ("", Method::POST, "create") => {
                let opts = opts()?;
                let body = decode::object(&self.resource, req, opts.validation).await?;
                let body = self.pruned(body, &opts)?;
                self.create(ctx, ns, body, &opts).await
            }
            (
                "" | "status" | "finalize" | "approval" | "ephemeralcontainers" | "resize",
                Method::PUT,
                "update",
            ) => {
                let opts = opts()?;
                let body = decode::object(&self.resource, req, opts.validation).await?;
                let body = self.pruned(body, &opts)?;
                self.update(ns, name, &sub, body, &opts).await
            }
            ("scale", Method::PUT, "update") => {
                let opts = opts()?;
                let body = decode::untyped(req).await?;
                let write = scale_fields::ScaleWrite::Update(body.object);
                self.update_scale(ns, name, write, &opts).await
            }
            (
                "" | "status" | "scale" | "approval" | "ephemeralcontainers" | "resize",
                Method::PATCH,
                "patch",
            ) => {
                let opts = opts()?;
                let patch = decode::patch(req).await?;
                self.patch(ns, name, &sub, patch, &opts).await
            }
            ("", Method::DELETE, "delete") => {
                let mut opts = opts()?;
                let body = decode::delete_options(req).await?;
                opts.dry_run |= dry_run_in(body.as_ref());
                self.delete(ns, name, body, &opts, &query).await
            }
            ("", Method::DELETE, "deletecollection")
                if self.resource.verbs == Verbs::AllButCollectionDelete =>
            {
                // No route for it upstream: go-restful's generic 405.
                Err(Status::new(
                    Reason::MethodNotAllowed,
                    "the server does not allow this method on the requested resource",
                ))
            }
            ("", Method::DELETE, "deletecollection") => {
                let mut opts = opts()?;
                let body = decode::delete_options(req).await?;
                opts.dry_run |= dry_run_in(body.as_ref());
                self.delete_collection(ns, &query, body, &opts).await
            }
            (sub, Method::POST, "create") if !sub.is_empty() => {
                let Some(hooks) = self.hooks.clone() else {
                    return Err(Status::path_not_found());
                };
                let opts = opts()?;
                let mut body = decode::untyped(req).await?.object;
                let parent = self.read_object(ns, name).await?;
                self.admit_subresource_create(sub, ns, name, &mut body, &opts)
                    .await?;
                let out = hooks
                    .subresource_create(self, ctx, sub, parent, body, &opts)
                    .await?;
                Ok(json_response(StatusCode::CREATED, &out))
            }
            (_, method, _) => Err(Status::new(
                Reason::MethodNotAllowed,
                format!("{method} is not supported on {}", self.resource.plural),
            )),
        }
    }
}
