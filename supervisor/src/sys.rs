//! The one module with `unsafe`: handing inherited file descriptors to a worker across
//! `exec`, and taking them over on the worker's side.
//!
//! A worker is this same binary re-executed (never a bare `fork()` of this threaded
//! process). Between fork and exec the child runs only async-signal-safe system calls:
//! `dup2` to put the control socket at fd 3 and the listener at fd 4 (dup2 clears
//! close-on-exec on the copy, so exactly these two survive `exec`), and `prctl` so the
//! kernel kills the worker if the supervisor dies.

#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use kas_proto::{CONTROL_FD, LISTENER_FD};
use nix::fcntl::{fcntl, FcntlArg, FdFlag};

/// Lowest fd number for the parent-side copies handed to `dup2`, so that a source fd can
/// never be 3 or 4 itself (dup2 onto itself would keep close-on-exec set).
const HIGH_FD: RawFd = 10;

fn dup_high(fd: &OwnedFd) -> io::Result<OwnedFd> {
    let raw = fcntl(fd, FcntlArg::F_DUPFD_CLOEXEC(HIGH_FD))?;
    // SAFETY: F_DUPFD_CLOEXEC returned a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(raw) })
}

/// What a worker process is started with beyond its fds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Limits {
    /// Whether the worker starts under `SCHED_IDLE` (a reload's replacement) rather than
    /// as its parent is scheduled.
    pub(crate) idle: bool,
    /// `RLIMIT_DATA` in bytes (`--worker-memory-limit` without cgroup v2).
    pub(crate) memory: Option<u64>,
    /// The worker's cgroup's `cgroup.procs`, open for writing: the child moves itself in.
    pub(crate) cgroup_procs: Option<RawFd>,
}

/// Spawns `cmd` with `control` at fd 3 and, when given, `listener` at fd 4, under
/// `limits`.
pub(crate) fn spawn_with_fds(
    cmd: &mut tokio::process::Command,
    control: &OwnedFd,
    listener: Option<&OwnedFd>,
    limits: Limits,
) -> io::Result<tokio::process::Child> {
    let idle = limits.idle;
    let cgroup_procs = limits.cgroup_procs;
    let data_limit = limits.memory.map(|bytes| nix::libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    });
    let control = dup_high(control)?;
    let listener = listener.map(dup_high).transpose()?;
    let control_raw = control.as_raw_fd();
    let listener_raw = listener.as_ref().map(AsRawFd::as_raw_fd);
    let parent = nix::unistd::getpid().as_raw();
    // SAFETY: the closure runs in the child between fork and exec. It only calls write,
    // dup2, sched_setscheduler, setrlimit, prctl and getppid, which are async-signal-safe,
    // allocates nothing and touches no lock. The raw fds it names are kept open by
    // `control`, `listener` and the caller (the cgroup's) until `spawn` returns.
    unsafe {
        cmd.pre_exec(move || {
            // "0" moves the writing process: the worker runs inside its limits from its
            // first instruction.
            if let Some(fd) = cgroup_procs {
                if nix::libc::write(fd, b"0".as_ptr().cast(), 1) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if nix::libc::dup2(control_raw, CONTROL_FD) < 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some(l) = listener_raw {
                if nix::libc::dup2(l, LISTENER_FD) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if idle && nix::libc::sched_setscheduler(0, nix::libc::SCHED_IDLE, &IDLE_PARAM) < 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some(limit) = &data_limit {
                if nix::libc::setrlimit(nix::libc::RLIMIT_DATA, limit) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if nix::libc::prctl(nix::libc::PR_SET_PDEATHSIG, nix::libc::SIGKILL) < 0 {
                return Err(io::Error::last_os_error());
            }
            // The supervisor may have died between fork and prctl.
            if nix::libc::getppid() != parent {
                return Err(io::Error::other("supervisor exited during spawn"));
            }
            Ok(())
        });
    }
    let child = cmd.spawn();
    drop(control);
    drop(listener);
    child
}

/// Takes ownership of an fd this process inherited at `fd` (3 or 4), after checking it is
/// open, and marks it close-on-exec so it goes no further.
pub(crate) fn take_inherited(fd: RawFd) -> io::Result<OwnedFd> {
    if fd != CONTROL_FD && fd != LISTENER_FD {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "only fds 3 and 4 are inherited",
        ));
    }
    // Fds 3 and 4 are placed by the supervisor across exec for this process alone.
    take_passed(fd).map_err(|e| {
        io::Error::other(format!(
            "fd {fd} was not inherited ({e}); workers are started by the supervisor only"
        ))
    })
}

/// Takes ownership of an fd passed to this process across `exec` — by socket activation
/// (listed by `LISTEN_FDS`) or by this supervisor's previous image (a binary upgrade) —
/// after checking it is open, and marks it close-on-exec (a worker gets what it needs
/// only through [`spawn_with_fds`]).
pub(crate) fn take_passed(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 3 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "fds are passed from 3 on",
        ));
    }
    // Check it is open before owning it, so a bad LISTEN_FDS cannot make us close (or
    // later double-close) a descriptor we never had.
    // SAFETY: F_GETFD only reads the descriptor's flags; on a closed number it fails.
    if unsafe { nix::libc::fcntl(fd, nix::libc::F_GETFD) } < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::other(format!("not open ({e})")));
    }
    // SAFETY: the fd is open and was passed to this process (by its activator, with
    // `LISTEN_PID` our pid, or by our previous image, which named it in the handover);
    // nothing in this process opened it or claims it, and each passed fd is taken once,
    // at start-up.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    fcntl(&owned, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
    Ok(owned)
}

/// Clears close-on-exec on `fd` so that it survives this process's own `execve` (a binary
/// upgrade hands it to the new image by number).
pub(crate) fn keep_across_exec(fd: &OwnedFd) -> io::Result<()> {
    fcntl(fd, FcntlArg::F_SETFD(FdFlag::empty()))?;
    Ok(())
}

/// Sets close-on-exec on `fd` again (an `execve` that failed).
pub(crate) fn close_on_exec(fd: &OwnedFd) -> io::Result<()> {
    fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
    Ok(())
}

/// Waits for a child this process's previous image spawned (it has no `Child` handle for
/// it); blocking, so run it on a blocking thread.
pub(crate) fn wait_adopted(pid: u32) -> io::Result<std::process::ExitStatus> {
    use nix::sys::wait::{waitpid, WaitStatus};
    use std::os::unix::process::ExitStatusExt;
    loop {
        match waitpid(nix::unistd::Pid::from_raw(pid as i32), None) {
            Ok(WaitStatus::Exited(_, code)) => {
                return Ok(std::process::ExitStatus::from_raw((code & 0xff) << 8))
            }
            Ok(WaitStatus::Signaled(_, signal, _)) => {
                return Ok(std::process::ExitStatus::from_raw(signal as i32))
            }
            Ok(_) => continue,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// `SCHED_IDLE` and `SCHED_OTHER` take no static priority.
const IDLE_PARAM: nix::libc::sched_param = nix::libc::sched_param { sched_priority: 0 };

/// Schedules every thread of process `pid` as an ordinary process at niceness `nice`
/// (Linux schedules threads, not processes: a worker started under `SCHED_IDLE` spawned
/// its threads under it).
pub(crate) fn schedule_normally(pid: u32, nice: i32) -> io::Result<()> {
    for entry in std::fs::read_dir(format!("/proc/{pid}/task"))? {
        let Some(tid) = entry?
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<i32>().ok())
        else {
            continue;
        };
        // SAFETY: both calls only read their arguments (a pointer to a constant); a
        // thread that exited meanwhile makes them fail with ESRCH, which is ignored.
        unsafe {
            let _ = nix::libc::sched_setscheduler(tid, nix::libc::SCHED_OTHER, &IDLE_PARAM);
            let _ = nix::libc::setpriority(nix::libc::PRIO_PROCESS, tid as u32, nice);
        }
    }
    Ok(())
}
