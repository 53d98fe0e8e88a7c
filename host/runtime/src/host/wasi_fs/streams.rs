//! `read-via-stream`, `write-via-stream` and `append-via-stream`: streams
//! that share the descriptor's open file (and its write buffer).

use bytes::Bytes;
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError, StreamResult};

use super::errors::stream_error;
use super::file::{MAX_READ, SharedFile, lock};

pub(crate) struct FileReader {
    pub file: SharedFile,
    pub pos: u64,
}

impl InputStream for FileReader {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let len = (size as u64).min(MAX_READ);
        let data = lock(&self.file)
            .read_at(self.pos, len)
            .map_err(stream_error)?;
        if data.is_empty() && len > 0 {
            return Err(StreamError::Closed);
        }
        self.pos += data.len() as u64;
        Ok(Bytes::from(data))
    }
}

#[async_trait::async_trait]
impl Pollable for FileReader {
    async fn ready(&mut self) {}
}

/// Writes at a position that moves, or at the end (`pos: None`).
pub(crate) struct FileWriter {
    pub file: SharedFile,
    pub pos: Option<u64>,
}

impl OutputStream for FileWriter {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        let mut f = lock(&self.file);
        match &mut self.pos {
            Some(pos) => {
                let n = f.write_at(*pos, &bytes).map_err(stream_error)?;
                *pos += n;
            }
            None => {
                f.append(&bytes).map_err(stream_error)?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(MAX_READ as usize)
    }
}

#[async_trait::async_trait]
impl Pollable for FileWriter {
    async fn ready(&mut self) {}
}
