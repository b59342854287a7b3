//! Reading a large file whole: into an anonymous map that asks the kernel for transparent huge
//! pages (Linux), so the buffer is faulted in 2 MiB at a time instead of 4 KiB (a 20 MB body
//! takes ~10 page faults, not ~5,000; each 4 KiB fault cost about a microsecond, a tenth of
//! `sanitize --api`'s time). No file is mapped: the bytes are read into memory of our own, so
//! a file changed meanwhile cannot change them. Elsewhere, or if the map is refused, a plain
//! read.

use bytes::Bytes;
use std::fs::File;
use std::io::Read;

/// From this size on a file is read into huge pages (below, the 4 KiB faults cost little).
pub const LARGE: u64 = 4 << 20;

/// The whole of `file`, whose size was `len` when asked: read into huge pages when `len` is
/// at least [`LARGE`] (Linux), else as [`Read::read_to_end`] reads it.
pub fn read_all(mut file: File, len: u64) -> std::io::Result<Bytes> {
    #[cfg(target_os = "linux")]
    if len >= LARGE
        && let Ok(len) = usize::try_from(len)
        && let Ok(mut map) = memmap2::MmapOptions::new().len(len).map_anon()
    {
        // Only advice: without huge pages the read works as well, one fault per 4 KiB.
        let _ = map.advise(memmap2::Advice::HugePage);
        let n = fill(&mut file, &mut map)?;
        let mut more = Vec::new();
        if n == len {
            // The file grew after its size was read: the rest, as it comes.
            file.read_to_end(&mut more)?;
        }
        let head = Bytes::from_owner(map).slice(..n);
        return Ok(if more.is_empty() {
            head
        } else {
            Bytes::from([&head[..], &more].concat())
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(Bytes::from(bytes))
}

/// Reads into `buf` until it is full or the reader ends; how many bytes were read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A file holding `bytes` (removed when dropped), opened for reading.
    struct Temp(std::path::PathBuf);

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn file_of(name: &str, bytes: &[u8]) -> (Temp, File) {
        let path = std::env::temp_dir().join(format!(
            "toolschema-read-large-{}-{name}",
            std::process::id()
        ));
        std::fs::File::create(&path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
        let read = File::open(&path).unwrap();
        (Temp(path), read)
    }

    #[test]
    fn a_large_file_is_read_whole_and_exact() {
        let bytes: Vec<u8> = (0..LARGE as usize + 12_345)
            .map(|i| (i % 251) as u8)
            .collect();
        let (_keep, f) = file_of("whole", &bytes);
        assert_eq!(read_all(f, bytes.len() as u64).unwrap(), bytes);
    }

    #[test]
    fn a_size_that_changed_since_it_was_asked_still_reads_the_file() {
        let bytes: Vec<u8> = (0..LARGE as usize + 7).map(|i| (i % 13) as u8).collect();
        // The file is longer than it was said to be: the rest is read too.
        let (_keep, f) = file_of("longer", &bytes);
        assert_eq!(read_all(f, LARGE).unwrap(), bytes);
        // Shorter: only what is there.
        let (_keep, f) = file_of("shorter", &bytes[..100]);
        assert_eq!(read_all(f, LARGE).unwrap(), bytes[..100]);
        // A small file, read as usual.
        let (_keep, f) = file_of("small", b"{}");
        assert_eq!(read_all(f, 2).unwrap(), &b"{}"[..]);
    }
}
