//! `native.crypto`: incremental hashes and HMACs for `node:crypto` and
//! `crypto.subtle.digest`. A hasher is a JS object whose methods close over the Rust
//! state, so it is freed with the object and each `update` hashes the caller's bytes
//! in place instead of collecting them into one buffer.

use std::cell::RefCell;
use std::rc::Rc;

use hmac::Hmac;
use hmac::digest::{FixedOutput, KeyInit, Update};
use rquickjs::{ArrayBuffer, Ctx, Exception, Object, Result, TypedArray, Value};

use crate::natives::set_fn;
use crate::state::Shared;

trait Hasher {
    fn feed(&mut self, data: &[u8]);
    fn finish(self: Box<Self>) -> Vec<u8>;
    fn duplicate(&self) -> Box<dyn Hasher>;
}

impl<T: Update + FixedOutput + Clone + 'static> Hasher for T {
    fn feed(&mut self, data: &[u8]) {
        Update::update(self, data);
    }
    fn finish(self: Box<Self>) -> Vec<u8> {
        (*self).finalize_fixed().to_vec()
    }
    fn duplicate(&self) -> Box<dyn Hasher> {
        Box::new(self.clone())
    }
}

/// The algorithms, by the lower-case names Node accepts (OpenSSL's aliases included).
fn new_hash(alg: &str) -> Option<Box<dyn Hasher>> {
    Some(match alg {
        "md5" => Box::new(md5::Md5::default()),
        "sha1" | "sha-1" => Box::new(sha1::Sha1::default()),
        "sha224" | "sha-224" => Box::new(sha2::Sha224::default()),
        "sha256" | "sha-256" => Box::new(sha2::Sha256::default()),
        "sha384" | "sha-384" => Box::new(sha2::Sha384::default()),
        "sha512" | "sha-512" => Box::new(sha2::Sha512::default()),
        "sha512-224" => Box::new(sha2::Sha512_224::default()),
        "sha512-256" => Box::new(sha2::Sha512_256::default()),
        _ => return None,
    })
}

fn hmac_of<D>(key: &[u8]) -> Box<dyn Hasher>
where
    D: hmac::EagerHash + 'static,
    Hmac<D>: KeyInit + Update + FixedOutput + Clone,
{
    // HMAC takes keys of any length, so this cannot fail.
    Box::new(<Hmac<D> as KeyInit>::new_from_slice(key).expect("HMAC accepts any key length"))
}

fn new_hmac(alg: &str, key: &[u8]) -> Option<Box<dyn Hasher>> {
    Some(match alg {
        "md5" => hmac_of::<md5::Md5>(key),
        "sha1" | "sha-1" => hmac_of::<sha1::Sha1>(key),
        "sha224" | "sha-224" => hmac_of::<sha2::Sha224>(key),
        "sha256" | "sha-256" => hmac_of::<sha2::Sha256>(key),
        "sha384" | "sha-384" => hmac_of::<sha2::Sha384>(key),
        "sha512" | "sha-512" => hmac_of::<sha2::Sha512>(key),
        "sha512-224" => hmac_of::<sha2::Sha512_224>(key),
        "sha512-256" => hmac_of::<sha2::Sha512_256>(key),
        _ => return None,
    })
}

/// Feed a string (UTF-8) or the bytes of a `Uint8Array` straight from its memory.
fn feed_value<'js>(ctx: &Ctx<'js>, hasher: &mut dyn Hasher, data: &Value<'js>) -> Result<()> {
    if let Some(s) = data.as_string() {
        hasher.feed(s.to_string()?.as_bytes());
        return Ok(());
    }
    if let Ok(array) = TypedArray::<u8>::from_value(data.clone()) {
        // SAFETY: no JS runs while the slice is borrowed.
        if let Some(bytes) = unsafe { array.as_bytes() } {
            hasher.feed(bytes);
        }
        return Ok(());
    }
    Err(Exception::throw_type(
        ctx,
        "expected a string or a Uint8Array",
    ))
}

type Slot = Rc<RefCell<Option<Box<dyn Hasher>>>>;

fn finalized(ctx: &Ctx<'_>) -> rquickjs::Error {
    Exception::throw_message(ctx, "Digest already called")
}

/// `{ update(data), digest() -> ArrayBuffer, copy() -> hasher }` around `hasher`.
fn handle<'js>(ctx: &Ctx<'js>, hasher: Box<dyn Hasher>) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    let slot: Slot = Rc::new(RefCell::new(Some(hasher)));
    let s = slot.clone();
    set_fn(&obj, "update", move |ctx: Ctx<'js>, data: Value<'js>| {
        let mut guard = s.borrow_mut();
        let hasher = guard.as_mut().ok_or_else(|| finalized(&ctx))?;
        feed_value(&ctx, hasher.as_mut(), &data)
    })?;
    let s = slot.clone();
    set_fn(&obj, "digest", move |ctx: Ctx<'js>| {
        let hasher = s.borrow_mut().take().ok_or_else(|| finalized(&ctx))?;
        ArrayBuffer::new(ctx, hasher.finish())
    })?;
    set_fn(&obj, "copy", move |ctx: Ctx<'js>| {
        let copy = slot
            .borrow()
            .as_ref()
            .map(|h| h.duplicate())
            .ok_or_else(|| finalized(&ctx))?;
        handle(&ctx, copy)
    })?;
    Ok(obj)
}

fn unsupported(ctx: &Ctx<'_>) -> rquickjs::Error {
    Exception::throw_message(ctx, "Digest method not supported")
}

pub fn create<'js>(ctx: &Ctx<'js>, _state: &Shared) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    set_fn(&obj, "hash", |ctx: Ctx<'js>, alg: String| {
        let hasher = new_hash(&alg.to_ascii_lowercase()).ok_or_else(|| unsupported(&ctx))?;
        handle(&ctx, hasher)
    })?;
    set_fn(
        &obj,
        "hmac",
        |ctx: Ctx<'js>, alg: String, key: TypedArray<'js, u8>| {
            // SAFETY: the key is copied into the HMAC state before any JS runs.
            let key_bytes = unsafe { key.as_bytes() }.unwrap_or_default();
            let hasher =
                new_hmac(&alg.to_ascii_lowercase(), key_bytes).ok_or_else(|| unsupported(&ctx))?;
            handle(&ctx, hasher)
        },
    )?;
    set_fn(&obj, "pbkdf2", pbkdf2)?;
    set_fn(&obj, "scrypt", scrypt)?;
    Ok(obj)
}

/// PBKDF2 (RFC 8018) over HMAC-`alg`; `keylen` and `iterations` are checked in JS.
fn pbkdf2<'js>(
    ctx: Ctx<'js>,
    alg: String,
    password: TypedArray<'js, u8>,
    salt: TypedArray<'js, u8>,
    iterations: u32,
    keylen: u32,
) -> Result<ArrayBuffer<'js>> {
    // SAFETY: both are copied (into the HMAC key and a Vec) before any JS runs.
    let key = unsafe { password.as_bytes() }.unwrap_or_default();
    let salt = unsafe { salt.as_bytes() }.unwrap_or_default().to_vec();
    let base = new_hmac(&alg.to_ascii_lowercase(), key).ok_or_else(|| unsupported(&ctx))?;
    let mut out = Vec::with_capacity(keylen as usize);
    let mut block: u32 = 1;
    while out.len() < keylen as usize {
        let mut h = base.duplicate();
        h.feed(&salt);
        h.feed(&block.to_be_bytes());
        let mut u = h.finish();
        let mut t = u.clone();
        for _ in 1..iterations {
            let mut h = base.duplicate();
            h.feed(&u);
            u = h.finish();
            t.iter_mut().zip(&u).for_each(|(a, b)| *a ^= b);
        }
        let take = (keylen as usize - out.len()).min(t.len());
        out.extend_from_slice(&t[..take]);
        block += 1;
    }
    ArrayBuffer::new(ctx, out)
}

/// scrypt (RFC 7914) by the `scrypt` crate; `log_n` is log2(N). Parameters it rejects
/// throw "Invalid scrypt params" (Node's message); memory is checked in JS.
fn scrypt<'js>(
    ctx: Ctx<'js>,
    password: TypedArray<'js, u8>,
    salt: TypedArray<'js, u8>,
    log_n: u8,
    r: u32,
    p: u32,
    keylen: u32,
) -> Result<ArrayBuffer<'js>> {
    let invalid = || Exception::throw_range(&ctx, "Invalid scrypt params");
    // The crate's `len` only bounds its PHC strings: the output's length is `out`'s.
    let params = scrypt::Params::new(log_n, r, p, 32).map_err(|_| invalid())?;
    let mut out = vec![0u8; keylen as usize];
    if out.is_empty() {
        return ArrayBuffer::new(ctx.clone(), out);
    }
    // SAFETY: no JS runs while the slices are borrowed.
    let (pw, salt) = unsafe {
        (
            password.as_bytes().unwrap_or_default(),
            salt.as_bytes().unwrap_or_default(),
        )
    };
    scrypt::scrypt(pw, salt, &params, &mut out).map_err(|_| invalid())?;
    ArrayBuffer::new(ctx.clone(), out)
}
