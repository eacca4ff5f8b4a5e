//! The seat a request holds while it runs, the chain's limit stage: priority and
//! fairness's (classified, maybe queued: [`crate::apf`]) or, with it off,
//! max-in-flight's; refused, upstream's plain-text 429.

use http::header::{self, HeaderValue};
use http::{Response, StatusCode};
use kas_proto::{RequestInfo, UserInfo};
use kas_server::body::Body;
use kas_server::request_info;

use crate::front::Front;

/// What priority and fairness and max-in-flight tell a refused client.
const REFUSED: &str = "Too many requests, please try again later.";

/// What a running request holds, given back when its response is sent.
pub(crate) enum Held {
    Nothing,
    /// A max-in-flight seat.
    Permit(tokio::sync::OwnedSemaphorePermit),
    /// Priority and fairness's seat and classification.
    Ticket(Box<crate::apf::Ticket>),
}

/// The request's seat: from priority and fairness (which classifies and may queue it),
/// else from max-in-flight, which exempts `system:masters` and long-running requests.
/// Refused, the 429 to send (counted in the request metrics, as upstream counts dropped
/// requests).
pub(crate) async fn take(
    front: &Front,
    user: &UserInfo,
    info: &RequestInfo,
    query: Option<&str>,
) -> Result<Held, Response<Body>> {
    let long_running = request_info::is_long_running(info);
    if let Some(apf) = &front.apf {
        // Long-running requests other than watches are not limited.
        if long_running && info.verb != "watch" {
            return Ok(Held::Nothing);
        }
        return match apf.admit(user, info, query).await {
            Ok(ticket) => Ok(Held::Ticket(Box::new(ticket))),
            Err(refused) => {
                let mut resp = too_many_requests(REFUSED, HeaderValue::from(refused.retry_after));
                refused.mark(resp.headers_mut());
                resp.extensions_mut().insert(crate::metrics::Measure);
                Err(resp)
            }
        };
    }
    let privileged = user.groups.iter().any(|g| g == "system:masters");
    if long_running || privileged {
        return Ok(Held::Nothing);
    }
    let mutating = request_info::is_mutating(info);
    let seats = if mutating {
        front.mutating_limit.as_ref()
    } else {
        front.readonly_limit.as_ref()
    };
    let Some(seats) = seats else {
        return Ok(Held::Nothing);
    };
    let Some(permit) = seats.take() else {
        let mut resp = too_many_requests(REFUSED, HeaderValue::from_static("1"));
        resp.extensions_mut().insert(crate::metrics::Measure);
        return Err(resp);
    };
    crate::metrics::seats_taken(mutating, seats.in_use());
    Ok(Held::Permit(permit))
}

impl Held {
    /// `resp` holding the seat until it is sent; a watch holds its seat while it starts
    /// (until its response begins), as upstream's does until the watch is initialized,
    /// then only its place among the watches writes are estimated by.
    pub(crate) fn hold_through(self, mut resp: Response<Body>, watch: bool) -> Response<Body> {
        match self {
            Held::Nothing => resp,
            Held::Permit(permit) => resp.map(|b| kas_server::body::hold(b, permit)),
            Held::Ticket(ticket) => {
                ticket.mark(resp.headers_mut());
                if watch {
                    let counted = (*ticket).watch_started();
                    resp.map(|b| kas_server::body::hold(b, counted))
                } else {
                    resp.map(|b| kas_server::body::hold(b, ticket))
                }
            }
        }
    }
}

/// The 429 of priority and fairness and max-in-flight (`Retry-After` theirs) and of a
/// server shutting down (`Retry-After: 5`): kube-apiserver writes them all with Go's
/// `http.Error` (`server/filters/priority-and-fairness.go`, `maxinflight.go`,
/// `with_retry_after.go`).
pub(crate) fn too_many_requests(message: &str, retry_after: HeaderValue) -> Response<Body> {
    let mut resp = kas_server::status::go_http_error(StatusCode::TOO_MANY_REQUESTS, message);
    resp.headers_mut().insert(header::RETRY_AFTER, retry_after);
    resp
}
