//! Socket activation: systemd (a `.socket` unit, or `systemd-socket-activate`) binds the
//! secure port and passes the listening socket; the supervisor then takes it instead of
//! binding. systemd keeps the socket across restarts of the whole service, so even a
//! stop and start (or a crash of the supervisor) refuses no connection, and a privileged
//! port needs no capability in the service.
//!
//! The protocol is `sd_listen_fds_with_names(3)`: `LISTEN_PID` names the process the fds
//! are for (another process's variables are ignored, as a child would see them),
//! `LISTEN_FDS` counts them from fd 3, `LISTEN_FDNAMES` names them colon-separated.

use std::net::{IpAddr, SocketAddr};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use nix::sys::socket::{getsockname, getsockopt, sockopt, SockType, SockaddrStorage};

use crate::sys;

/// The first passed fd (`SD_LISTEN_FDS_START`).
const FIRST_FD: RawFd = 3;
/// The name the unit gives the secure socket (`FileDescriptorName=secure`).
pub(crate) const SECURE_NAME: &str = "secure";
/// Passed fds past this count are refused as nonsense rather than walked.
const MAX_FDS: usize = 64;

/// Why the passed sockets cannot serve as the secure listener.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    #[error("socket activation: {var}={value:?} is not a valid count")]
    BadCount { var: &'static str, value: String },
    #[error(
        "socket activation: {count} sockets passed and none named {SECURE_NAME:?} \
         (set FileDescriptorName={SECURE_NAME} on the secure socket); names: {names:?}"
    )]
    NoSecure { count: usize, names: Vec<String> },
    #[error("socket activation: more than one socket is named {SECURE_NAME:?}")]
    TwoSecure,
    #[error("socket activation: fd {fd} ({name}): {what}")]
    Unusable {
        fd: RawFd,
        name: String,
        what: String,
    },
    #[error(
        "socket activation: the passed socket listens on {passed}, but the flags ask for \
         --bind-address={bind_address} --secure-port={port}; make them agree (the \
         serving certificate and the admin kubeconfig are made for the flags' address)"
    )]
    Mismatch {
        passed: SocketAddr,
        bind_address: IpAddr,
        port: u16,
    },
}

/// The secure listener systemd passed, with its port; `None` when this process was not
/// socket-activated (it then binds as usual). `wanted` is `--bind-address` and
/// `--secure-port` (port 0: whatever the socket has).
pub(crate) fn secure_listener(wanted: SocketAddr) -> Result<Option<(OwnedFd, u16)>, Error> {
    let var = |k: &str| std::env::var(k).ok();
    let Some(passed) = passed_fds(
        var("LISTEN_PID").as_deref(),
        var("LISTEN_FDS").as_deref(),
        var("LISTEN_FDNAMES").as_deref(),
        std::process::id(),
    )?
    else {
        return Ok(None);
    };
    let chosen = choose(&passed)?;
    // Take every passed fd: the chosen one is kept, the others closed (none may leak
    // into a worker, and none is ours to leave open).
    let mut secure = None;
    for (i, (fd, name)) in passed.iter().enumerate() {
        let owned = sys::take_passed(*fd).map_err(|e| Error::Unusable {
            fd: *fd,
            name: name.clone(),
            what: e.to_string(),
        })?;
        if i == chosen {
            secure = Some(owned);
        }
    }
    let Some(secure) = secure else {
        return Ok(None);
    };
    let (fd, name) = &passed[chosen];
    let addr = check_listening(&secure).map_err(|what| Error::Unusable {
        fd: *fd,
        name: name.clone(),
        what,
    })?;
    if !agrees(addr, wanted) {
        return Err(Error::Mismatch {
            passed: addr,
            bind_address: wanted.ip(),
            port: wanted.port(),
        });
    }
    Ok(Some((secure, addr.port())))
}

/// The fds and names the environment passes to process `pid`, or `None` when it passes
/// none to it.
fn passed_fds(
    listen_pid: Option<&str>,
    listen_fds: Option<&str>,
    names: Option<&str>,
    pid: u32,
) -> Result<Option<Vec<(RawFd, String)>>, Error> {
    let (Some(listen_pid), Some(listen_fds)) = (listen_pid, listen_fds) else {
        return Ok(None);
    };
    // Meant for another process (we are its child, or it exec'd something else first).
    if listen_pid.trim().parse::<u32>().ok() != Some(pid) {
        return Ok(None);
    }
    let count: usize = listen_fds
        .trim()
        .parse()
        .ok()
        .filter(|n| *n <= MAX_FDS)
        .ok_or_else(|| Error::BadCount {
            var: "LISTEN_FDS",
            value: listen_fds.to_owned(),
        })?;
    if count == 0 {
        return Ok(None);
    }
    let mut names: Vec<String> = names
        .map(|n| n.split(':').map(str::to_owned).collect())
        .unwrap_or_default();
    // Fewer names than fds (or none): the rest are unnamed, as sd_listen_fds_with_names
    // reports them.
    names.resize(count, "unknown".to_owned());
    Ok(Some(
        (0..count)
            .map(|i| FIRST_FD + i as RawFd)
            .zip(names)
            .collect(),
    ))
}

/// Which passed fd is the secure listener: the one named `secure`, or the only one.
fn choose(passed: &[(RawFd, String)]) -> Result<usize, Error> {
    let mut named = passed
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| n == SECURE_NAME);
    match (named.next(), named.next()) {
        (Some(_), Some(_)) => Err(Error::TwoSecure),
        (Some((i, _)), None) => Ok(i),
        (None, _) if passed.len() == 1 => Ok(0),
        (None, _) => Err(Error::NoSecure {
            count: passed.len(),
            names: passed.iter().map(|(_, n)| n.clone()).collect(),
        }),
    }
}

/// The address of a listening TCP socket, or why `fd` is not one.
fn check_listening(fd: &OwnedFd) -> Result<SocketAddr, String> {
    let kind = getsockopt(fd, sockopt::SockType).map_err(|e| format!("not a socket ({e})"))?;
    if kind != SockType::Stream {
        return Err(format!("a {kind:?} socket, not a stream socket"));
    }
    if !getsockopt(fd, sockopt::AcceptConn).map_err(|e| e.to_string())? {
        return Err("not listening".into());
    }
    let local: SockaddrStorage = getsockname(fd.as_raw_fd()).map_err(|e| e.to_string())?;
    if let Some(v4) = local.as_sockaddr_in() {
        return Ok(SocketAddr::from((v4.ip(), v4.port())));
    }
    if let Some(v6) = local.as_sockaddr_in6() {
        return Ok(SocketAddr::from((v6.ip(), v6.port())));
    }
    Err("not a TCP socket (ListenStream= must be an IP address and port)".into())
}

/// Whether a socket on `passed` serves what the flags ask for: the same port (any for
/// port 0) and the same address, where "every address" matches in either family
/// (`ListenStream=6443` binds `[::]` for both families; the flag's default is 0.0.0.0).
fn agrees(passed: SocketAddr, wanted: SocketAddr) -> bool {
    let port = wanted.port() == 0 || wanted.port() == passed.port();
    let ip = passed.ip() == wanted.ip()
        || (passed.ip().is_unspecified() && wanted.ip().is_unspecified());
    port && ip
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fds(
        pid: &str,
        count: &str,
        names: Option<&str>,
    ) -> Result<Option<Vec<(i32, String)>>, Error> {
        passed_fds(Some(pid), Some(count), names, 42)
    }

    #[test]
    fn environment_for_another_process_or_none_is_not_activation() {
        assert!(passed_fds(None, None, None, 42).unwrap().is_none());
        assert!(fds("41", "1", None).unwrap().is_none());
        assert!(fds("x", "1", None).unwrap().is_none());
        assert!(fds("42", "0", None).unwrap().is_none());
    }

    #[test]
    fn counts_and_names_as_sd_listen_fds_with_names() {
        let got = fds("42", "2", Some("metrics:secure")).unwrap().unwrap();
        assert_eq!(got, vec![(3, "metrics".into()), (4, "secure".into())]);
        let unnamed = fds("42", "2", None).unwrap().unwrap();
        assert_eq!(unnamed[1], (4, "unknown".into()));
        assert!(matches!(fds("42", "-1", None), Err(Error::BadCount { .. })));
        assert!(matches!(fds("42", "65", None), Err(Error::BadCount { .. })));
    }

    #[test]
    fn the_secure_socket_is_named_or_alone() {
        let one = vec![(3, "kube-apiserver.socket".to_owned())];
        assert_eq!(choose(&one).unwrap(), 0);
        let named = vec![(3, "other".to_owned()), (4, "secure".to_owned())];
        assert_eq!(choose(&named).unwrap(), 1);
        let anonymous = vec![(3, "a".to_owned()), (4, "b".to_owned())];
        let e = choose(&anonymous).unwrap_err().to_string();
        assert!(e.contains("FileDescriptorName=secure"), "{e}");
        let two = vec![(3, "secure".to_owned()), (4, "secure".to_owned())];
        assert!(matches!(choose(&two), Err(Error::TwoSecure)));
    }

    #[test]
    fn flags_must_agree_with_the_passed_address() {
        let at = |s: &str| s.parse::<SocketAddr>().unwrap();
        assert!(agrees(at("127.0.0.1:6443"), at("127.0.0.1:6443")));
        assert!(agrees(at("127.0.0.1:6443"), at("127.0.0.1:0")));
        assert!(agrees(at("[::]:6443"), at("0.0.0.0:6443")));
        assert!(!agrees(at("127.0.0.1:6443"), at("0.0.0.0:6443")));
        assert!(!agrees(at("127.0.0.1:6443"), at("127.0.0.1:7443")));
        assert!(!agrees(at("[::1]:6443"), at("127.0.0.1:6443")));
    }
}
