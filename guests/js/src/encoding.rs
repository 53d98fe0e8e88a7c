//! Byte <-> string conversions behind `Buffer`, `TextEncoder`/`TextDecoder` and
//! `atob`/`btoa`: utf8, hex, base64, base64url, latin1 (binary), ascii, utf16le.
//! Done natively because these loops are slow in an interpreter.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Hex,
    Base64,
    Base64Url,
    Latin1,
    Ascii,
    Utf16Le,
}

impl Encoding {
    /// Node's encoding names, case-insensitively; `None` for an unknown one.
    pub fn parse(name: &str) -> Option<Encoding> {
        Some(match name.to_ascii_lowercase().as_str() {
            "utf8" | "utf-8" => Encoding::Utf8,
            "hex" => Encoding::Hex,
            "base64" => Encoding::Base64,
            "base64url" => Encoding::Base64Url,
            "latin1" | "binary" => Encoding::Latin1,
            "ascii" => Encoding::Ascii,
            "utf16le" | "utf-16le" | "ucs2" | "ucs-2" => Encoding::Utf16Le,
            _ => return None,
        })
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encode a JS string (given as UTF-16 code units, so lone surrogates survive to here)
/// into bytes.
pub fn encode(units: &[u16], enc: Encoding) -> Vec<u8> {
    match enc {
        Encoding::Utf8 => String::from_utf16_lossy(units).into_bytes(),
        Encoding::Latin1 | Encoding::Ascii => units.iter().map(|&u| u as u8).collect(),
        Encoding::Utf16Le => units.iter().flat_map(|u| u.to_le_bytes()).collect(),
        Encoding::Hex => {
            let mut out = Vec::with_capacity(units.len() / 2);
            for pair in units.chunks_exact(2) {
                match (hex_val(pair[0]), hex_val(pair[1])) {
                    (Some(h), Some(l)) => out.push(h << 4 | l),
                    // Node stops at the first invalid pair.
                    _ => break,
                }
            }
            out
        }
        Encoding::Base64 | Encoding::Base64Url => base64_decode(units),
    }
}

pub fn decode(bytes: &[u8], enc: Encoding) -> String {
    match enc {
        Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Encoding::Latin1 => bytes.iter().map(|&b| b as char).collect(),
        Encoding::Ascii => bytes.iter().map(|&b| (b & 0x7f) as char).collect(),
        Encoding::Utf16Le => {
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        Encoding::Hex => {
            const DIGITS: &[u8; 16] = b"0123456789abcdef";
            let mut out = String::with_capacity(bytes.len() * 2);
            for &b in bytes {
                out.push(DIGITS[(b >> 4) as usize] as char);
                out.push(DIGITS[(b & 15) as usize] as char);
            }
            out
        }
        Encoding::Base64 => base64_encode(bytes, B64, true),
        Encoding::Base64Url => base64_encode(bytes, B64URL, false),
    }
}

fn hex_val(u: u16) -> Option<u8> {
    match u {
        0x30..=0x39 => Some((u - 0x30) as u8),
        0x41..=0x46 => Some((u - 0x41 + 10) as u8),
        0x61..=0x66 => Some((u - 0x61 + 10) as u8),
        _ => None,
    }
}

fn base64_encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn b64_val(u: u16) -> Option<u32> {
    Some(match u {
        0x41..=0x5a => u - 0x41,
        0x61..=0x7a => u - 0x61 + 26,
        0x30..=0x39 => u - 0x30 + 52,
        0x2b | 0x2d => 62, // '+' and '-'
        0x2f | 0x5f => 63, // '/' and '_'
        _ => return None,
    } as u32)
}

/// Lenient like Node: accepts both alphabets, skips whitespace and other junk, stops at `=`.
pub fn base64_decode(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &u in units {
        if u == 0x3d {
            break;
        }
        let Some(v) = b64_val(u) else { continue };
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// Strict check used by `atob`, which must throw on malformed input.
pub fn is_valid_base64(units: &[u16]) -> bool {
    let data: Vec<u16> = units
        .iter()
        .copied()
        .filter(|&u| !matches!(u, 0x20 | 0x09 | 0x0a | 0x0c | 0x0d))
        .collect();
    let trimmed = data.iter().rposition(|&u| u != 0x3d).map_or(0, |i| i + 1);
    let pads = data.len() - trimmed;
    if pads > 2 || (pads > 0 && !data.len().is_multiple_of(4)) || trimmed % 4 == 1 {
        return false;
    }
    data[..trimmed]
        .iter()
        .all(|&u| matches!(u, 0x41..=0x5a | 0x61..=0x7a | 0x30..=0x39 | 0x2b | 0x2f))
}

/// [`encode`] for a string that is already UTF-8 on the Rust side.
pub fn encode_str(text: &str, enc: Encoding) -> Vec<u8> {
    match enc {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        _ => encode(&text.encode_utf16().collect::<Vec<u16>>(), enc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn round_trips() {
        for s in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            let b64 = decode(s.as_bytes(), Encoding::Base64);
            assert_eq!(encode(&u(&b64), Encoding::Base64), s.as_bytes());
            let hex = decode(s.as_bytes(), Encoding::Hex);
            assert_eq!(encode(&u(&hex), Encoding::Hex), s.as_bytes());
        }
        assert_eq!(decode(b"foobar", Encoding::Base64), "Zm9vYmFy");
        assert_eq!(decode(b"fo", Encoding::Base64Url), "Zm8");
        assert!(is_valid_base64(&u("Zm8=")));
        assert!(!is_valid_base64(&u("Zm8=x")));
    }
}
