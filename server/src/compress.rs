//! gzip as the database stores replays, stderr and logs, and as browsers take them.

use std::io::{Read, Write};

/// gzip at the default level.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = gz.write_all(bytes);
    gz.finish().unwrap_or_default()
}

/// The bytes of a gzip stream, or why it does not unpack.
pub fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn gunzip_undoes_gzip() {
        let text = b"forts and roads".repeat(100);
        assert_eq!(super::gunzip(&super::gzip(&text)).unwrap(), text);
        assert!(super::gunzip(b"not gzip").is_err());
    }
}
