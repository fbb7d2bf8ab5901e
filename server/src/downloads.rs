//! What a contestant downloads to play locally: the `bottlebats` program this server
//! runs (with its SHA-256), each game's local kit (its shipped maps, its house bots and
//! a ready `config.json`), and the platform's source to build the program elsewhere.
//! Each is made once, on first request.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use crate::embedded::{files_in, subfolders, File, GameFiles, SOURCE};

/// The running program's bytes, their size and SHA-256 (hex), mapped and hashed once.
/// A download sends slices of the mapping, straight from the page cache: no copy, no
/// memory of its own and no thread, however slowly it is read.
pub struct Program {
    pub bytes: &'static [u8],
    pub size: u64,
    pub sha256: String,
}

/// The platform this program runs on, as the page names it ("Linux x86_64").
pub fn platform() -> String {
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "macOS",
        other => other,
    };
    format!("{os} {}", std::env::consts::ARCH)
}

/// The file of the program running: `/proc/self/exe` where there is one (it stays the
/// running binary even when an upgrade has replaced the file at its path), else the
/// path it was started from.
fn program_path() -> Result<PathBuf, String> {
    let proc = PathBuf::from("/proc/self/exe");
    if proc.exists() {
        return Ok(proc);
    }
    std::env::current_exe().map_err(|e| format!("cannot find itself: {e}"))
}

/// `file`'s first `len` bytes, mapped read-only for the rest of the process's life.
fn map_for_good(file: &std::fs::File, len: usize) -> std::io::Result<&'static [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: a private, read-only mapping of a file we hold open, never unmapped, so
    // the slice stays valid for the rest of the process. Its bytes could change only if
    // the running program's file were written in place, which the kernel refuses
    // (ETXTBSY) and which would break the running program's own code just the same.
    let at = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE,
            std::os::fd::AsRawFd::as_raw_fd(file),
            0,
        )
    };
    if at == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `len` readable bytes at `at`, mapped above and never unmapped.
    Ok(unsafe { std::slice::from_raw_parts(at.cast::<u8>(), len) })
}

/// This server's own program, mapped and hashed once (or why it cannot be).
pub fn program() -> Result<&'static Program, String> {
    static PROGRAM: OnceLock<Result<Program, String>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let path = program_path()?;
            let read = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
            let file = std::fs::File::open(&path).map_err(read)?;
            let size = file.metadata().map_err(read)?.len();
            let len = usize::try_from(size).map_err(|_| format!("{size} bytes is too big"))?;
            let bytes = map_for_good(&file, len).map_err(read)?;
            Ok(Program {
                sha256: hex::encode(Sha256::digest(bytes)),
                bytes,
                size,
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A game's local kit as a zip, made once per game: a folder `GAME-local/` with the
/// kit's own files (`games/GAME/kit/`: a README and a `config.json`), the game's
/// shipped maps under `maps/` and its house bots under `bots/`. `None` for a game of no
/// kit.
pub fn local_kit(game: &str) -> Option<Result<Arc<Vec<u8>>, String>> {
    type Made = Mutex<HashMap<&'static str, Arc<Vec<u8>>>>;
    static KITS: OnceLock<Made> = OnceLock::new();
    let files = crate::embedded::game(game).filter(|g| !g.kit.is_empty())?;
    let kits = KITS.get_or_init(Default::default);
    let mut kits = kits.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(kit) = kits.get(files.name) {
        return Some(Ok(kit.clone()));
    }
    let made = make_local_kit(files).map_err(|e| format!("cannot make the local kit: {e}"));
    if let Ok(kit) = &made {
        kits.insert(files.name, kit.clone());
    }
    Some(made)
}

/// The name of a game's local kit's zip and of its folder inside: `GAME-local`.
pub fn local_kit_name(game: &str) -> String {
    format!("{game}-local")
}

fn make_local_kit(files: &GameFiles) -> zip::result::ZipResult<Arc<Vec<u8>>> {
    let top = local_kit_name(files.name);
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    let mut add = |path: String, bytes: &[u8]| -> zip::result::ZipResult<()> {
        w.start_file(format!("{top}/{path}"), options)?;
        w.write_all(bytes)?;
        Ok(())
    };
    for f in files.kit {
        add(f.path.to_string(), f.bytes)?;
    }
    for map in files.maps.iter().filter(|f: &&File| !f.path.contains('/')) {
        add(format!("maps/{}", map.path), map.bytes)?;
    }
    for bot in subfolders(files.house) {
        for (path, file) in files_in(files.house, bot) {
            add(format!("bots/{bot}/{path}"), file.bytes)?;
        }
    }
    Ok(Arc::new(w.finish()?.into_inner()))
}

/// The platform's source as a `.tar.gz` (a folder `bottlebats-source/`), made once: to
/// build `bottlebats` where the site's program does not run (`cargo install --path
/// server`).
pub fn source_archive() -> Result<Arc<Vec<u8>>, String> {
    static ARCHIVE: OnceLock<Result<Arc<Vec<u8>>, String>> = OnceLock::new();
    ARCHIVE
        .get_or_init(|| {
            make_source_archive().map_err(|e| format!("cannot make the source archive: {e}"))
        })
        .clone()
}

fn make_source_archive() -> std::io::Result<Arc<Vec<u8>>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    for file in SOURCE {
        let mut header = tar::Header::new_gnu();
        header.set_size(file.bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_cksum();
        tar.append_data(
            &mut header,
            format!("bottlebats-source/{}", file.path),
            file.bytes,
        )?;
    }
    Ok(Arc::new(tar.into_inner()?.finish()?))
}
