//! The secure listener: bound once by the supervisor, kept for its whole life, and handed
//! to every incarnation of the aggregator (the embedded store's socket is bound and kept
//! the same way, with `kas_storage::bind_socket`).

use std::net::SocketAddr;
use std::os::fd::OwnedFd;

use nix::sys::socket::{
    bind, listen, setsockopt, socket, sockopt, AddressFamily, Backlog, SockFlag, SockType,
    SockaddrStorage,
};

/// Listen backlog: connections that arrive while the aggregator restarts wait here.
const BACKLOG: i32 = 4096;

/// Binds and listens on `addr` (port 0 picks a free port); returns the socket and the
/// port actually bound.
pub(crate) fn bind_secure(addr: SocketAddr) -> std::io::Result<(OwnedFd, u16)> {
    let family = if addr.is_ipv4() {
        AddressFamily::Inet
    } else {
        AddressFamily::Inet6
    };
    let fd = socket(family, SockType::Stream, SockFlag::SOCK_CLOEXEC, None)?;
    setsockopt(&fd, sockopt::ReuseAddr, &true)?;
    if addr.is_ipv6() && addr.ip().is_unspecified() {
        setsockopt(&fd, sockopt::Ipv6V6Only, &false)?;
    }
    let sockaddr = SockaddrStorage::from(addr);
    bind(std::os::fd::AsRawFd::as_raw_fd(&fd), &sockaddr)?;
    listen(&fd, Backlog::new(BACKLOG).map_err(std::io::Error::from)?)?;
    let std_listener = std::net::TcpListener::from(fd);
    let port = std_listener.local_addr()?.port();
    Ok((OwnedFd::from(std_listener), port))
}

/// The port `listener` is bound to.
pub(crate) fn port_of(listener: &OwnedFd) -> std::io::Result<u16> {
    let local: SockaddrStorage =
        nix::sys::socket::getsockname(std::os::fd::AsRawFd::as_raw_fd(listener))?;
    local
        .as_sockaddr_in()
        .map(|a| a.port())
        .or_else(|| local.as_sockaddr_in6().map(|a| a.port()))
        .ok_or_else(|| std::io::Error::other("not a TCP socket"))
}
