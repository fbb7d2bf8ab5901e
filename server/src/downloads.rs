//! What a contestant downloads to play locally: the `bottlebats` program this server
//! runs (with its SHA-256), a local kit (the shipped maps, the house bots and a ready
//! `config.json`), and the platform's source to build the program elsewhere. Each is
//! made once, on first request.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

use crate::embedded::{files_in, subfolders, File, HOUSE_BOTS, MAPS, SOURCE, VINDINIUM_HOUSE_BOTS};

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

/// The `config.json` of the local kit: the strongest house bot against `greedy` on a
/// duel map, writing the classic log and a replay for the viewer.
const KIT_CONFIG: &str = r#"{
  "players": {
    "strong": "python3 bots/strong/bot.py",
    "greedy": "python3 bots/greedy/bot.py"
  },
  "mapfile": "maps/duel-2p.map",
  "logfile": "game.log",
  "replayfile": "game.json",
  "max_steps": 500
}
"#;

/// The local kit's README.
const KIT_README: &str = "# Bottle Bats: a local kit

Everything to play games on your own machine as the ladder plays them:

- `maps/`: the maps the ladder plays on;
- `bots/`: the house bots (Python 3): `idle`, `random`, `greedy` and `strong`;
- `config.json`: `strong` against `greedy` on `maps/duel-2p.map`.

Get the `bottlebats` program from the site's Getting started page (check it with
`sha256sum`, then `chmod +x bottlebats`), put it in this folder, and play:

```sh
./bottlebats play config.json --stderr-dir logs
```

It prints the winner, the turns played and a table per player, then each bot's problems
at their turns (commands ignored and why, timeouts, a removal). `game.json` opens in the
site's viewer (`/viewer`), `game.log` is the classic log and `logs/NAME.stderr` what
each bot wrote on stderr.

To play your bot, add it to `players` (`\"me\": \"python3 ../mybot/bot.py\"`); to play on
another map, change `mapfile`. `bottlebats play --help` tells the rest.
";

/// The local kit as a zip, made once: a folder `bottlebats-local/`.
pub fn local_kit() -> Result<Arc<Vec<u8>>, String> {
    static KIT: OnceLock<Result<Arc<Vec<u8>>, String>> = OnceLock::new();
    KIT.get_or_init(|| make_local_kit().map_err(|e| format!("cannot make the local kit: {e}")))
        .clone()
}

fn make_local_kit() -> zip::result::ZipResult<Arc<Vec<u8>>> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    let mut add = |path: String, bytes: &[u8]| -> zip::result::ZipResult<()> {
        w.start_file(format!("bottlebats-local/{path}"), options)?;
        w.write_all(bytes)?;
        Ok(())
    };
    add("README.md".into(), KIT_README.as_bytes())?;
    add("config.json".into(), KIT_CONFIG.as_bytes())?;
    for map in MAPS.iter().filter(|f: &&File| f.path.ends_with(".map")) {
        add(format!("maps/{}", map.path), map.bytes)?;
    }
    for bot in subfolders(HOUSE_BOTS) {
        for (path, file) in files_in(HOUSE_BOTS, bot) {
            add(format!("bots/{bot}/{path}"), file.bytes)?;
        }
    }
    Ok(Arc::new(w.finish()?.into_inner()))
}

/// The `config.json` of Vindinium's local kit: the four house heroes on m1, writing
/// the game's log and a replay for the viewer.
const VINDINIUM_CONFIG: &str = r#"{
  "game": "vindinium",
  "players": {
    "strong": "python3 bots/strong/bot.py",
    "miner": "python3 bots/miner/bot.py",
    "fighter": "python3 bots/fighter/bot.py",
    "random": "python3 bots/random/bot.py"
  },
  "mapfile": "maps/m1.txt",
  "max_turns": 1200,
  "logfile": "game.jsonl",
  "replayfile": "game.json"
}
"#;

/// Vindinium's local kit's README.
const VINDINIUM_README: &str = "# Vindinium: a local kit

Everything to play Vindinium games on your own machine as the ladder plays them:

- `maps/`: the six maps of the original server, `m1.txt` to `m6.txt` (one row a line,
  two characters a tile, `@1`..`@4` the heroes' start squares);
- `bots/`: the house heroes (Python 3): `random`, `miner`, `fighter` and `strong`;
- `config.json`: the four of them on `maps/m1.txt`, 1,200 moves.

Get the `bottlebats` program from the site's Getting started page, put it in this
folder, and play:

```sh
./bottlebats play config.json --stderr-dir logs
```

It prints the winner and a table of each hero's gold, mines and deaths, then each bot's
problems at their moves. `game.jsonl` is the game's log: the GAME object a bot reads at
every state, one a line, then the winner; `game.json` opens in the site's viewer.

Hero ids follow the order of `players`: to play your bot, replace one of them
(`\"me\": \"python3 ../mybot/bot.py\"`); `\"map_seed\": N` instead of `mapfile` plays on a
generated map. The rules are the site's `/docs/vindinium-rules.md`.
";

/// Vindinium's local kit as a zip, made once: a folder `vindinium-local/`.
pub fn vindinium_local_kit() -> Result<Arc<Vec<u8>>, String> {
    static KIT: OnceLock<Result<Arc<Vec<u8>>, String>> = OnceLock::new();
    KIT.get_or_init(|| make_vindinium_kit().map_err(|e| format!("cannot make the local kit: {e}")))
        .clone()
}

fn make_vindinium_kit() -> zip::result::ZipResult<Arc<Vec<u8>>> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    let mut add = |path: String, bytes: &[u8]| -> zip::result::ZipResult<()> {
        w.start_file(format!("vindinium-local/{path}"), options)?;
        w.write_all(bytes)?;
        Ok(())
    };
    add("README.md".into(), VINDINIUM_README.as_bytes())?;
    add("config.json".into(), VINDINIUM_CONFIG.as_bytes())?;
    for (name, text) in vindinium::ORIGINAL_MAPS {
        add(format!("maps/{name}.txt"), text.as_bytes())?;
    }
    for bot in subfolders(VINDINIUM_HOUSE_BOTS) {
        for (path, file) in files_in(VINDINIUM_HOUSE_BOTS, bot) {
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
