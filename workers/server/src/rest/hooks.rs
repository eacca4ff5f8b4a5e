//! The resource-specific hooks around the generic store's verbs.

use std::future::Future;
use std::pin::Pin;

use http::Response;
use kas_proto::RequestContext;
use serde_json::Value;

use super::{RestStore, WriteOptions};
use crate::body::Body;
use crate::status::Status;

/// A boxed future, for the object-safe [`Hooks`].
pub type HookFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Resource-specific behaviour around the generic writes: allocation of service IPs and
/// ports, subresources that create something (`token`, `eviction`, `binding`), and the
/// review APIs whose objects are never stored.
pub trait Hooks: Send + Sync {
    /// Before a new object is stored (defaulted and validated).
    fn before_create<'a>(
        &'a self,
        _store: &'a RestStore,
        _obj: &'a mut Value,
        _opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async { Ok(()) })
    }

    /// A new object after mutating admission, before validation: what upstream's
    /// strategies fill in at PrepareForCreate from the request (a CSR's requester).
    fn prepare_create(&self, _store: &RestStore, _obj: &mut Value, _opts: &WriteOptions) {}

    /// An update (through `sub`, empty for the object itself) as it will be stored over
    /// `old`, before validation: what upstream's strategies do at PrepareForUpdate
    /// beyond taking the subresource's part (a CSR's condition timestamps).
    fn prepare_update(&self, _store: &RestStore, _sub: &str, _obj: &mut Value, _old: &Value) {}

    /// The rules of a write through subresource `sub` (`ephemeralcontainers`, `resize`)
    /// when they are not the resource's own; `None` keeps the resource's.
    fn validate_subresource(
        &self,
        _sub: &str,
        _obj: &Value,
        _old: &Value,
    ) -> Option<Vec<crate::status::StatusCause>> {
        None
    }

    /// Before an update is stored, given the stored object.
    fn before_update<'a>(
        &'a self,
        _store: &'a RestStore,
        _obj: &'a mut Value,
        _old: &'a Value,
        _opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async { Ok(()) })
    }

    /// After an object is gone from storage.
    fn after_delete<'a>(&'a self, _store: &'a RestStore, _obj: &'a Value) -> HookFuture<'a, ()> {
        Box::pin(async {})
    }

    /// After [`Hooks::before_create`] passed but the object was not stored (its name was
    /// taken, storage failed): what it took is given back. By default as for a delete.
    fn create_failed<'a>(&'a self, store: &'a RestStore, obj: &'a Value) -> HookFuture<'a, ()> {
        self.after_delete(store, obj)
    }

    /// A connect subresource (`log`, `exec`, `attach`, `portforward`, `proxy`) of
    /// `parent` (Null for `proxy`, whose name the hook parses and reads): the request as
    /// it came, answered (streamed) by the hook.
    fn connect<'a>(
        &'a self,
        _store: &'a RestStore,
        _ctx: &'a RequestContext,
        _sub: &'a str,
        _parent: Value,
        _req: http::Request<Body>,
    ) -> HookFuture<'a, Result<Response<Body>, Status>> {
        Box::pin(async { Err(Status::path_not_found()) })
    }

    /// The objects of a resource computed on each read (read-only verbs): all of them,
    /// or the one named (none when it does not exist).
    fn computed<'a>(
        &'a self,
        _store: &'a RestStore,
        _name: Option<&'a str>,
    ) -> HookFuture<'a, Result<Vec<Value>, Status>> {
        Box::pin(async { Err(Status::path_not_found()) })
    }

    /// POST to a subresource (`sub`, with the parent object) or, for create-only
    /// resources, to the collection (`sub` empty, parent Null).
    fn subresource_create<'a>(
        &'a self,
        _store: &'a RestStore,
        _ctx: &'a RequestContext,
        _sub: &'a str,
        _parent: Value,
        _body: Value,
        _opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<Value, Status>> {
        Box::pin(async { Err(Status::path_not_found()) })
    }
}
