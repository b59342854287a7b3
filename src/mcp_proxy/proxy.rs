//! The loop: client lines from standard input, server events from the transport, each through
//! the [`Session`], answers written to standard output in the order they were decided.

use super::session::{Session, Step};
use super::transport::{Event, Upstream};
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

/// How long the server has to end after the client is gone, before it is killed.
const CLOSE_GRACE: Duration = Duration::from_secs(5);
/// How long client lines wait for a listing (the proxy's own, or the client's) before they go
/// on against the tools known so far.
const LIST_PATIENCE: Duration = Duration::from_secs(30);

/// Runs the proxy until the server ends (its exit status) or, for HTTP, the client does (0).
pub async fn run(
    mut session: Session,
    mut upstream: Upstream,
    mut events: mpsc::Receiver<Event>,
) -> u8 {
    let (out_tx, out_rx) = mpsc::channel::<String>(256);
    let writer = tokio::spawn(write_lines(out_rx));
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut client_open = true;
    let mut held: VecDeque<String> = VecDeque::new();
    // While a listing is answered, client lines wait (a call must meet the tools it names).
    let mut wait_deadline: Option<Instant> = None;
    let mut gave_up = false;
    let mut close_deadline: Option<Instant> = None;
    let far = || Instant::now() + Duration::from_secs(86_400);
    let mut buf = Vec::new();
    // The client is gone once its input ended and every line it sent has gone on.
    let mut client_gone = false;
    let mut idle: Option<std::pin::Pin<Box<dyn Future<Output = ()> + Send>>> = None;
    let code = loop {
        tokio::select! {
            // Server events first: an answer read before its task counted itself done is in
            // the channel by then, so `idle` below never overtakes it.
            biased;
            event = events.recv() => {
                let step = match event {
                    None => break 1,
                    Some(Event::Closed(code)) => break code,
                    Some(Event::Message(line)) => session.server_line(line),
                    Some(Event::Undelivered { ids, reason }) => session.undelivered(&ids, &reason),
                };
                apply(step, &mut upstream, &out_tx).await;
            }
            read = stdin.read_until(b'\n', &mut buf), if client_open => {
                match read {
                    Ok(0) | Err(_) => client_open = false,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_owned();
                        buf.clear();
                        if !line.trim().is_empty() {
                            held.push_back(line);
                        }
                    }
                }
            }
            () = sleep_until(wait_deadline.unwrap_or_else(far)), if wait_deadline.is_some() => {
                let mut step = Step::default();
                session.abandon_relist(&mut step, "no answer in time");
                apply(step, &mut upstream, &out_tx).await;
                gave_up = true;
            }
            () = async { if let Some(f) = idle.as_mut() { f.await } }, if idle.is_some() => {
                upstream.close().await;
                break 0;
            }
            () = sleep_until(close_deadline.unwrap_or_else(far)), if close_deadline.is_some() => {
                close_deadline = None;
                if idle.is_some() {
                    upstream.close().await;
                    break 0;
                }
                upstream.kill();
            }
        }
        let waiting = session.waiting() && !gave_up;
        wait_deadline = match (waiting, wait_deadline) {
            (true, None) => Some(Instant::now() + LIST_PATIENCE),
            (true, d) => d,
            (false, _) => None,
        };
        gave_up &= session.waiting();
        while !session.waiting() || gave_up {
            let Some(line) = held.pop_front() else { break };
            let step = session.client_line(line);
            apply(step, &mut upstream, &out_tx).await;
        }
        if !client_open && held.is_empty() && !client_gone {
            // Stdio: the server ends on EOF (killed if it does not in time). HTTP: the answers
            // still coming are read, then the session is ended.
            client_gone = true;
            close_deadline = Some(Instant::now() + CLOSE_GRACE);
            match upstream {
                Upstream::Stdio(_) => upstream.close().await,
                Upstream::Http(_) => idle = Some(upstream.idle()),
            }
        }
    };
    drop(out_tx);
    let _ = writer.await;
    code
}

async fn apply(step: Step, upstream: &mut Upstream, out: &mpsc::Sender<String>) {
    for note in step.notes {
        eprintln!("{note}");
    }
    if let Some(v) = step.protocol_version {
        upstream.set_protocol_version(v);
    }
    for line in step.to_client {
        let _ = out.send(line).await;
    }
    for msg in step.to_server {
        upstream.send(msg).await;
    }
}

async fn write_lines(mut rx: mpsc::Receiver<String>) {
    let mut stdout = tokio::io::stdout();
    while let Some(line) = rx.recv().await {
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if stdout.write_all(&bytes).await.is_err() || stdout.flush().await.is_err() {
            return;
        }
    }
}
