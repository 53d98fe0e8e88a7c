//! `computer mcp` over raw pipes, for what a well-behaved client never
//! sends (and for hanging up mid-call).

use super::*;

pub struct Raw {
    pub child: tokio::process::Child,
    pub stdin: Option<tokio::process::ChildStdin>,
    pub lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Raw {
    /// The server, initialized.
    pub async fn start(ws: &Ws, args: &[&str], envs: &[(&str, &str)]) -> Raw {
        let mut cmd = mcp_command(ws, args);
        cmd.envs(envs.iter().copied());
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut raw = Raw {
            child,
            stdin,
            lines,
        };
        raw.send(r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#).await;
        let init = raw.next().await;
        assert_eq!(init["id"], "init", "{init}");
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    pub async fn send(&mut self, msg: &str) {
        self.send_bytes(msg.as_bytes()).await;
    }

    /// The next message from the server.
    pub async fn next(&mut self) -> Value {
        let line = self.next_text().await;
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// The next message from the server, as the line it wrote.
    pub async fn next_text(&mut self) -> String {
        tokio::time::timeout(Duration::from_secs(60), self.lines.next_line())
            .await
            .expect("an answer within a minute")
            .unwrap()
            .expect("stdout is open")
    }

    /// Starts `tools/call exec` of `command` as request `id`.
    pub async fn start_exec(&mut self, id: u64, command: &str) {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "exec", "arguments": {"command": command, "timeoutMs": 300000}}});
        self.send(&call.to_string()).await;
    }

    /// Closes stdin and waits for the server to exit.
    pub async fn hang_up(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        tokio::time::timeout(Duration::from_secs(60), self.child.wait())
            .await
            .expect("the server exits within a minute of the end of its input")
            .unwrap()
    }
}
