//! The supervisor's side of a worker's control channel: the version handshake and the
//! configuration, then a writer and a reader that turn frames into loop events, and the
//! handover of the channel (whole) for a binary upgrade's re-exec.

use std::os::fd::OwnedFd;
use std::time::Duration;

use kas_proto::{
    read_frame, write_frame, FromSupervisor, FromWorker, WorkerConfig, WorkerRole, PROTOCOL_VERSION,
};
use tokio::net::UnixStream;
use tokio::sync::mpsc;

use super::Event;

/// How long a worker may take to say hello.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Handshake, configuration, then a writer and a reader on one worker's control socket.
pub(super) async fn control_task(
    stream: UnixStream,
    role: WorkerRole,
    generation: u64,
    config: WorkerConfig,
    events: mpsc::UnboundedSender<Event>,
) -> Result<(), kas_proto::Error> {
    let (mut rd, mut wr) = stream.into_split();
    write_frame(
        &mut wr,
        &FromSupervisor::Hello {
            version: PROTOCOL_VERSION,
        },
    )
    .await?;
    let hello = tokio::time::timeout(HANDSHAKE_TIMEOUT, read_frame::<_, FromWorker>(&mut rd))
        .await
        .map_err(|_| kas_proto::Error::Malformed("worker did not say hello in time".into()))??;
    match hello {
        FromWorker::Hello {
            version, role: r, ..
        } if version == PROTOCOL_VERSION && r == role => {}
        other => {
            return Err(kas_proto::Error::Malformed(format!(
                "bad hello from {role}: {other:?}"
            )))
        }
    }
    write_frame(&mut wr, &FromSupervisor::Config(Box::new(config))).await?;
    channel(rd, wr, role, generation, events).await
}

/// The control channel of a worker the previous image of this supervisor handed over:
/// `Resume` first, then as any other.
pub(super) async fn resumed_control_task(
    stream: UnixStream,
    role: WorkerRole,
    generation: u64,
    events: mpsc::UnboundedSender<Event>,
) -> Result<(), kas_proto::Error> {
    let (rd, mut wr) = stream.into_split();
    write_frame(&mut wr, &FromSupervisor::Resume).await?;
    channel(rd, wr, role, generation, events).await
}

/// A writer and a reader on a connected control channel. After a handover (our
/// `Handover` written last, the worker's `HandoverReady` read last, both at frame
/// boundaries) the socket is given back whole as [`Event::HandedOver`].
async fn channel(
    mut rd: tokio::net::unix::OwnedReadHalf,
    mut wr: tokio::net::unix::OwnedWriteHalf,
    role: WorkerRole,
    generation: u64,
    events: mpsc::UnboundedSender<Event>,
) -> Result<(), kas_proto::Error> {
    let (tx, mut rx) = mpsc::unbounded_channel::<FromSupervisor>();
    let _ = events.send(Event::Connected {
        role,
        generation,
        tx,
    });
    let (give_back, given_back) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        while let Some(msg) = rx.recv().await {
            if write_frame(&mut wr, &msg).await.is_err() {
                break;
            }
            if matches!(msg, FromSupervisor::Handover) {
                let _ = give_back.send(wr);
                return;
            }
        }
    });
    loop {
        match read_frame::<_, FromWorker>(&mut rd).await {
            Ok(FromWorker::HandoverReady) => {
                let wr = given_back
                    .await
                    .map_err(|_| kas_proto::Error::Malformed("handover without Handover".into()))?;
                let stream = rd
                    .reunite(wr)
                    .map_err(|e| kas_proto::Error::Malformed(e.to_string()))?;
                let fd: OwnedFd = stream.into_std()?.into();
                let _ = events.send(Event::HandedOver {
                    role,
                    generation,
                    fd,
                });
                return Ok(());
            }
            Ok(msg) => {
                let _ = events.send(Event::Message {
                    role,
                    generation,
                    msg,
                });
            }
            Err(kas_proto::Error::Closed) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}
