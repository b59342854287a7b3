//! A stdio MCP server: a child process, newline-delimited JSON-RPC on its stdin and stdout; its
//! standard error is the proxy's (the client shows it as the server's log).

use super::Event;
use crate::mcp_proxy::session::Outgoing;
use std::process::{ExitStatus, Stdio as Pipe};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, Command};
use tokio::sync::{mpsc, oneshot};

/// The child and the way to its input.
pub struct Stdio {
    stdin: Option<ChildStdin>,
    kill: Option<oneshot::Sender<()>>,
}

impl Stdio {
    /// Starts `program args…`; its output arrives on `events`, and [`Event::Closed`] with its
    /// exit status once it closed its output and exited.
    pub fn spawn(
        program: &str,
        args: &[String],
        events: mpsc::Sender<Event>,
    ) -> std::io::Result<Stdio> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Pipe::piped())
            .stdout(Pipe::piped())
            .stderr(Pipe::inherit())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (kill_tx, mut kill_rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let mut killed = false;
            if let Some(out) = stdout {
                let mut lines = BufReader::new(out).lines();
                loop {
                    tokio::select! {
                        line = lines.next_line() => match line {
                            Ok(Some(l)) if l.trim().is_empty() => {}
                            Ok(Some(l)) => {
                                if events.send(Event::Message(l)).await.is_err() {
                                    break;
                                }
                            }
                            Ok(None) | Err(_) => break,
                        },
                        _ = &mut kill_rx => {
                            let _ = child.start_kill();
                            killed = true;
                            break;
                        }
                    }
                }
            }
            let status = if killed {
                child.wait().await
            } else {
                tokio::select! {
                    s = child.wait() => s,
                    _ = &mut kill_rx => {
                        let _ = child.start_kill();
                        child.wait().await
                    }
                }
            };
            let code = status.map(exit_code).unwrap_or(1);
            let _ = events.send(Event::Closed(code)).await;
        });
        Ok(Stdio {
            stdin,
            kill: Some(kill_tx),
        })
    }

    /// Writes one line to the child (a child that stopped reading is reported by its exit).
    pub async fn send(&mut self, out: Outgoing) {
        let Some(stdin) = self.stdin.as_mut() else {
            return;
        };
        let mut line = out.line.into_bytes();
        line.push(b'\n');
        if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
            self.stdin = None;
        }
    }

    /// Closes the child's input (an MCP server ends on EOF).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Kills the child.
    pub fn kill(&mut self) {
        if let Some(k) = self.kill.take() {
            let _ = k.send(());
        }
    }
}

/// The exit status as a process exit code (a signal `n` as `128 + n`, as shells do).
pub fn exit_code(status: ExitStatus) -> u8 {
    if let Some(c) = status.code() {
        return u8::try_from(c & 0xff).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return u8::try_from((128 + sig) & 0xff).unwrap_or(1);
        }
    }
    1
}
