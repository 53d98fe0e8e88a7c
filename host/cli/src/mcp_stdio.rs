//! The stdio transport of `computer mcp`, in place of rmcp's: lines are
//! read by a task of their own, bounded at [`MAX_MESSAGE_BYTES`], and sorted
//! by [`classify`]: what rmcp can handle goes to it, and every line it would
//! drop unanswered gets a JSON-RPC error here. One lock over stdout keeps
//! those answers and rmcp's messages whole lines.
//!
//! The end of input (or a read error) is reported through `on_close` at
//! once: the server cancels the runs of a client that went away instead of
//! letting them go on to their timeouts.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc};

use crate::mcp_jsonrpc::{Incoming, MAX_MESSAGE_BYTES, classify, too_long};

type Output = Arc<Mutex<Box<dyn AsyncWrite + Send + Unpin>>>;

pub struct StdioTransport {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    output: Output,
}

/// The transport over this process's stdin and stdout.
pub fn stdio(on_close: impl FnOnce() + Send + 'static) -> StdioTransport {
    over(tokio::io::stdin(), tokio::io::stdout(), on_close)
}

/// The transport over any reader and writer (tests use in-memory pipes).
pub fn over(
    input: impl tokio::io::AsyncRead + Send + Unpin + 'static,
    output: impl AsyncWrite + Send + Unpin + 'static,
    on_close: impl FnOnce() + Send + 'static,
) -> StdioTransport {
    let output: Output = Arc::new(Mutex::new(Box::new(output)));
    let (tx, incoming) = mpsc::channel(16);
    let replies = output.clone();
    tokio::spawn(async move {
        read_lines(BufReader::new(input), tx, replies).await;
        on_close();
    });
    StdioTransport { incoming, output }
}

async fn write_line(output: &Output, mut line: Vec<u8>) -> std::io::Result<()> {
    line.push(b'\n');
    let mut out = output.lock().await;
    out.write_all(&line).await?;
    out.flush().await
}

/// Reads until the end of input, rmcp stops listening, or stdout breaks.
async fn read_lines(
    mut input: impl AsyncBufRead + Unpin,
    tx: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    output: Output,
) {
    let mut line = Vec::new();
    loop {
        line.clear();
        let incoming = match read_line(&mut input, &mut line).await {
            Ok(Line::End) => return,
            Ok(Line::TooLong) => Incoming::Reply(too_long()),
            Ok(Line::Read) => classify(&line),
            Err(e) => {
                tracing::error!("cannot read stdin: {e}");
                return;
            }
        };
        match incoming {
            Incoming::Message(msg) => {
                if tx.send(*msg).await.is_err() {
                    return;
                }
            }
            Incoming::Reply(reply) => {
                tracing::debug!("answered an unreadable message: {reply}");
                if write_line(&output, reply.into_bytes()).await.is_err() {
                    return;
                }
            }
            Incoming::Ignore => {}
        }
    }
}

enum Line {
    /// A whole line is in the buffer, without its newline (the last line
    /// may have none).
    Read,
    /// Longer than [`MAX_MESSAGE_BYTES`]: skipped to its end, not kept.
    TooLong,
    End,
}

async fn read_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Read,
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        let piece = &available[..newline.unwrap_or(available.len())];
        if !too_long && line.len() + piece.len() > MAX_MESSAGE_BYTES {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(piece);
        }
        input.consume(take);
        if newline.is_some() {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

impl Transport<RoleServer> for StdioTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = self.output.clone();
        async move {
            let line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            write_line(&output, line).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        self.output.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(input: &[u8]) -> Vec<Result<Vec<u8>, ()>> {
        let mut reader = BufReader::with_capacity(1024, input);
        let mut out = Vec::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_line(&mut reader, &mut line).await.unwrap() {
                Line::End => return out,
                Line::TooLong => out.push(Err(())),
                Line::Read => out.push(Ok(line.clone())),
            }
        }
    }

    #[tokio::test]
    async fn lines_over_the_cap_are_skipped_whole_and_reading_goes_on() {
        let mut input = b"a\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_MESSAGE_BYTES + 1));
        input.extend(b"\nb\n");
        input.extend(std::iter::repeat_n(b'y', MAX_MESSAGE_BYTES));
        input.extend(b"\nlast");
        let lines = lines_of(&input).await;
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], Ok(b"a".to_vec()));
        assert_eq!(lines[1], Err(()));
        assert_eq!(lines[2], Ok(b"b".to_vec()));
        assert_eq!(lines[3].as_ref().map(Vec::len), Ok(MAX_MESSAGE_BYTES));
        assert_eq!(lines[4], Ok(b"last".to_vec()));
    }
}
