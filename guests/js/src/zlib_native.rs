//! `native.zlib`: deflate/gzip (flate2 on miniz_oxide) and brotli (the `brotli` crate)
//! for `node:zlib`. `native.zlib.create(kind, level)` gives a codec object,
//! `{ write(bytes), flush(), finish() }`, each returning the output produced so far as
//! an ArrayBuffer: the sync functions write everything then finish, the streams call
//! it chunk by chunk. A failure throws `{ zlibError, code, errno, message }` with
//! zlib's wording, which `js/zlib.js` turns into Node's Error.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use flate2::Compression;
use flate2::write::{
    DeflateDecoder, DeflateEncoder, GzEncoder, MultiGzDecoder, ZlibDecoder, ZlibEncoder,
};
use rquickjs::function::Opt;
use rquickjs::{ArrayBuffer, Ctx, Exception, Object, Result, TypedArray, Value};

use crate::natives::set_fn;
use crate::state::Shared;

/// A zlib-style failure: Node's `code`, `errno` and message.
struct ZError(&'static str, i32, &'static str);

const HEADER: ZError = ZError("Z_DATA_ERROR", -3, "incorrect header check");
const METHOD: ZError = ZError("Z_DATA_ERROR", -3, "unknown compression method");
const TRUNCATED: ZError = ZError("Z_BUF_ERROR", -5, "unexpected end of file");
const CORRUPT: ZError = ZError("Z_DATA_ERROR", -3, "invalid block type");
const BROTLI: ZError = ZError("ERR__ERROR_FORMAT_PADDING_1", -14, "Decompression failed");
const BROTLI_TRUNCATED: ZError = ZError("Z_BUF_ERROR", -5, "unexpected end of file");

enum Codec {
    Gzip(GzEncoder<Vec<u8>>),
    Deflate(ZlibEncoder<Vec<u8>>),
    DeflateRaw(DeflateEncoder<Vec<u8>>),
    Gunzip(MultiGzDecoder<Vec<u8>>),
    Inflate(ZlibDecoder<Vec<u8>>),
    InflateRaw(DeflateDecoder<Vec<u8>>),
    BrotliEncode(Option<Box<brotli::CompressorWriter<Vec<u8>>>>, Vec<u8>),
    BrotliDecode(Box<brotli::DecompressorWriter<Vec<u8>>>),
}

/// What a codec expects at the start of its input, checked before any data reaches
/// the decoder so that a wrong header gets zlib's message rather than miniz's.
#[derive(Clone, Copy, PartialEq)]
enum Header {
    None,
    Gzip,
    Zlib,
    /// `unzip`: gzip or zlib, decided by the first two bytes.
    Detect,
}

struct Stream {
    codec: Option<Codec>,
    header: Header,
    pending: Vec<u8>,
    failed: bool,
    finished: bool,
}

fn flate_err(e: io::Error) -> ZError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        TRUNCATED
    } else {
        CORRUPT
    }
}

impl Stream {
    fn new(kind: &str, level: i32, quality: u32) -> Option<Stream> {
        let level = if (0..=9).contains(&level) {
            Compression::new(level as u32)
        } else {
            Compression::default()
        };
        let v = Vec::new;
        let (codec, header) = match kind {
            "gzip" => (Some(Codec::Gzip(GzEncoder::new(v(), level))), Header::None),
            "deflate" => (
                Some(Codec::Deflate(ZlibEncoder::new(v(), level))),
                Header::None,
            ),
            "deflateRaw" => (
                Some(Codec::DeflateRaw(DeflateEncoder::new(v(), level))),
                Header::None,
            ),
            "gunzip" => (None, Header::Gzip),
            "inflate" => (None, Header::Zlib),
            "unzip" => (None, Header::Detect),
            "inflateRaw" => (
                Some(Codec::InflateRaw(DeflateDecoder::new(v()))),
                Header::None,
            ),
            "brotliCompress" => {
                let w = brotli::CompressorWriter::new(v(), 4096, quality.min(11), 22);
                (
                    Some(Codec::BrotliEncode(Some(Box::new(w)), Vec::new())),
                    Header::None,
                )
            }
            "brotliDecompress" => {
                let w = brotli::DecompressorWriter::new(v(), 4096);
                (Some(Codec::BrotliDecode(Box::new(w))), Header::None)
            }
            _ => return None,
        };
        Some(Stream {
            codec,
            header,
            pending: Vec::new(),
            failed: false,
            finished: false,
        })
    }

    /// Hold bytes until the header can be judged, then create the decoder.
    fn check_header(&mut self, data: &[u8]) -> std::result::Result<Option<Vec<u8>>, ZError> {
        self.pending.extend_from_slice(data);
        let p = &self.pending;
        let need = if self.header == Header::Gzip { 3 } else { 2 };
        if p.len() < need {
            return Ok(None);
        }
        let gzip = match self.header {
            Header::Gzip => true,
            Header::Detect => p[0] == 0x1f && p[1] == 0x8b,
            _ => false,
        };
        if gzip {
            if p[0] != 0x1f || p[1] != 0x8b {
                return Err(HEADER);
            }
            if p.len() >= 3 && p[2] != 8 {
                return Err(METHOD);
            }
            self.codec = Some(Codec::Gunzip(MultiGzDecoder::new(Vec::new())));
        } else {
            if (u16::from(p[0]) << 8 | u16::from(p[1])) % 31 != 0 {
                return Err(HEADER);
            }
            if p[0] & 0x0f != 8 {
                return Err(METHOD);
            }
            self.codec = Some(Codec::Inflate(ZlibDecoder::new(Vec::new())));
        }
        self.header = Header::None;
        Ok(Some(std::mem::take(&mut self.pending)))
    }

    fn write(&mut self, data: &[u8]) -> std::result::Result<(), ZError> {
        let owned;
        let data = if self.header != Header::None {
            match self.check_header(data)? {
                Some(all) => {
                    owned = all;
                    &owned[..]
                }
                None => return Ok(()),
            }
        } else {
            data
        };
        let Some(codec) = self.codec.as_mut() else {
            return Ok(());
        };
        match codec {
            Codec::Gzip(w) => w.write_all(data).map_err(flate_err),
            Codec::Deflate(w) => w.write_all(data).map_err(flate_err),
            Codec::DeflateRaw(w) => w.write_all(data).map_err(flate_err),
            Codec::Gunzip(w) => w.write_all(data).map_err(flate_err),
            Codec::Inflate(w) => w.write_all(data).map_err(flate_err),
            Codec::InflateRaw(w) => w.write_all(data).map_err(flate_err),
            Codec::BrotliEncode(w, _) => w
                .as_mut()
                .map_or(Ok(()), |w| w.write_all(data))
                .map_err(|_| BROTLI),
            Codec::BrotliDecode(w) => w.write_all(data).map_err(|_| BROTLI),
        }
    }

    fn flush(&mut self) -> std::result::Result<(), ZError> {
        let Some(codec) = self.codec.as_mut() else {
            return Ok(());
        };
        match codec {
            Codec::Gzip(w) => w.flush().map_err(flate_err),
            Codec::Deflate(w) => w.flush().map_err(flate_err),
            Codec::DeflateRaw(w) => w.flush().map_err(flate_err),
            Codec::BrotliEncode(Some(w), _) => w.flush().map_err(|_| BROTLI),
            _ => Ok(()),
        }
    }

    fn finish(&mut self) -> std::result::Result<(), ZError> {
        if self.header != Header::None {
            // Input ended inside the header (or there was none).
            return Err(TRUNCATED);
        }
        let Some(codec) = self.codec.as_mut() else {
            return Ok(());
        };
        match codec {
            Codec::Gzip(w) => w.try_finish().map_err(flate_err),
            Codec::Deflate(w) => w.try_finish().map_err(flate_err),
            Codec::DeflateRaw(w) => w.try_finish().map_err(flate_err),
            Codec::Gunzip(w) => w.try_finish().map_err(flate_err),
            Codec::Inflate(w) => w.try_finish().map_err(flate_err),
            Codec::InflateRaw(w) => w.try_finish().map_err(flate_err),
            Codec::BrotliEncode(w, out) => {
                if let Some(w) = w.take() {
                    out.extend_from_slice(&w.into_inner());
                }
                Ok(())
            }
            Codec::BrotliDecode(w) => w.close().map_err(|_| BROTLI_TRUNCATED),
        }
    }

    /// Take the output produced so far.
    fn take(&mut self) -> Vec<u8> {
        let Some(codec) = self.codec.as_mut() else {
            return Vec::new();
        };
        let out = match codec {
            Codec::Gzip(w) => w.get_mut(),
            Codec::Deflate(w) => w.get_mut(),
            Codec::DeflateRaw(w) => w.get_mut(),
            Codec::Gunzip(w) => w.get_mut(),
            Codec::Inflate(w) => w.get_mut(),
            Codec::InflateRaw(w) => w.get_mut(),
            Codec::BrotliEncode(Some(w), out) => {
                out.append(w.get_mut());
                out
            }
            Codec::BrotliEncode(None, out) => out,
            Codec::BrotliDecode(w) => w.get_mut(),
        };
        std::mem::take(out)
    }
}

fn throw(ctx: &Ctx<'_>, err: ZError) -> rquickjs::Error {
    let thrown = (|| -> Result<Value<'_>> {
        let obj = Object::new(ctx.clone())?;
        obj.set("zlibError", true)?;
        obj.set("code", err.0)?;
        obj.set("errno", err.1)?;
        obj.set("message", err.2)?;
        Ok(obj.into_value())
    })();
    match thrown {
        Ok(value) => ctx.throw(value),
        Err(e) => e,
    }
}

type Shared2 = Rc<RefCell<Stream>>;

/// Run `step` on the stream and return its output; after a failure the stream is dead.
fn run<'js>(
    ctx: Ctx<'js>,
    s: &Shared2,
    step: impl FnOnce(&mut Stream) -> std::result::Result<(), ZError>,
) -> Result<ArrayBuffer<'js>> {
    let mut stream = s.borrow_mut();
    // flate2 may panic on a write after finish, so a finished stream is closed too.
    if stream.failed || stream.finished {
        return Err(Exception::throw_message(&ctx, "zlib binding closed"));
    }
    if let Err(e) = step(&mut stream) {
        stream.failed = true;
        return Err(throw(&ctx, e));
    }
    let out = stream.take();
    ArrayBuffer::new(ctx, out)
}

fn handle<'js>(ctx: &Ctx<'js>, stream: Stream) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    let s: Shared2 = Rc::new(RefCell::new(stream));
    let s1 = s.clone();
    set_fn(
        &obj,
        "write",
        move |ctx: Ctx<'js>, data: TypedArray<'js, u8>| {
            // SAFETY: the bytes are consumed before any JS runs again.
            let bytes = unsafe { data.as_bytes() }.unwrap_or_default();
            run(ctx, &s1, |st| st.write(bytes))
        },
    )?;
    let s2 = s.clone();
    set_fn(&obj, "flush", move |ctx: Ctx<'js>| {
        run(ctx, &s2, Stream::flush)
    })?;
    set_fn(&obj, "finish", move |ctx: Ctx<'js>| {
        let out = run(ctx, &s, Stream::finish);
        s.borrow_mut().finished = true;
        out
    })?;
    Ok(obj)
}

pub fn create<'js>(ctx: &Ctx<'js>, _state: &Shared) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    set_fn(
        &obj,
        "create",
        |ctx: Ctx<'js>, kind: String, level: Opt<i32>, quality: Opt<u32>| {
            let stream = Stream::new(&kind, level.0.unwrap_or(-1), quality.0.unwrap_or(11))
                .ok_or_else(|| Exception::throw_type(&ctx, &format!("unknown codec {kind}")))?;
            handle(&ctx, stream)
        },
    )?;
    set_fn(
        &obj,
        "crc32",
        |data: TypedArray<'js, u8>, value: Opt<f64>| -> f64 {
            // As f64: rquickjs would turn a u32 above i32::MAX into a negative int.
            let mut h = crc32fast::Hasher::new_with_initial(value.0.unwrap_or(0.0) as u32);
            // SAFETY: no JS runs while the slice is borrowed.
            h.update(unsafe { data.as_bytes() }.unwrap_or_default());
            f64::from(h.finalize())
        },
    )?;
    Ok(obj)
}
