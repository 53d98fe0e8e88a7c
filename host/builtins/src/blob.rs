//! Reading the files `build.rs` packed: `u32 path length, path, u64 size,
//! bytes`, little-endian. Each file's bytes are a slice of the embedded
//! blob, not a copy.

use computer_runtime::Bytes;

pub(crate) fn unpack(blob: &'static [u8]) -> Result<Vec<(String, Bytes)>, String> {
    let mut out = Vec::new();
    let mut rest = blob;
    while !rest.is_empty() {
        let (len, after) = take::<4>(rest)?;
        let (path, after) = split(after, u32::from_le_bytes(len) as usize)?;
        let path = std::str::from_utf8(path).map_err(|e| format!("a path is not UTF-8: {e}"))?;
        let (size, after) = take::<8>(after)?;
        let size = usize::try_from(u64::from_le_bytes(size)).map_err(|e| e.to_string())?;
        let (data, after) = split(after, size)?;
        out.push((path.to_owned(), Bytes::from_static(data)));
        rest = after;
    }
    Ok(out)
}

fn take<const N: usize>(b: &'static [u8]) -> Result<([u8; N], &'static [u8]), String> {
    let (head, rest) = split(b, N)?;
    Ok((head.try_into().expect("N bytes"), rest))
}

fn split(b: &'static [u8], n: usize) -> Result<(&'static [u8], &'static [u8]), String> {
    if b.len() < n {
        return Err(format!("cut short: {n} bytes wanted, {} left", b.len()));
    }
    Ok(b.split_at(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_build_rs_writes() {
        static BLOB: &[u8] = b"\x03\x00\x00\x00a/b\x02\x00\x00\x00\x00\x00\x00\x00hi\x01\x00\x00\x00c\x00\x00\x00\x00\x00\x00\x00\x00";
        let files = unpack(BLOB).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].0, "a/b");
        assert_eq!(&files[0].1[..], b"hi");
        assert_eq!(files[1].0, "c");
        assert!(files[1].1.is_empty());
        assert!(unpack(&BLOB[..9]).unwrap_err().contains("cut short"));
    }
}
