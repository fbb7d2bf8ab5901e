//! Unpacking uploads safely: a single source file, a `.zip` or a `.tar.gz`. Every
//! entry is checked before anything is written: no `..`, no absolute paths, no
//! symlinks or devices, UTF-8 names only, and caps on the number of entries (folders
//! count like files: a folder costs an inode too) and on the bytes actually unpacked
//! (declared sizes can lie).

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

/// Caps on what an upload may unpack to.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub max_files: usize,
    pub max_bytes: u64,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            max_files: 2000,
            max_bytes: 64 * 1024 * 1024,
        }
    }
}

/// Why an upload cannot be used, in words for its owner.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ArchiveError {
    #[error("the file is empty")]
    Empty,
    #[error("the archive unpacks to more than {0} MiB")]
    TooBig(u64),
    #[error("the archive holds more than {0} files and folders")]
    TooManyFiles(usize),
    #[error("the archive entry `{0}` points outside its folder (absolute path or `..`)")]
    UnsafePath(String),
    #[error(
        "the archive entry `{0}` is a link or a special file; only files and folders are allowed"
    )]
    NotAFile(String),
    #[error("an archive entry name is not valid UTF-8")]
    NotUtf8,
    #[error("the archive is damaged or not what its name says: {0}")]
    Corrupt(String),
    #[error("`{0}` is not a usable file name (letters, digits, `.`, `-` and `_` only)")]
    BadFileName(String),
    #[error("`{0}` is not a readable {1}: it does not start as one does; make it again (for example `{2}`)")]
    NotAnArchive(String, &'static str, &'static str),
}

/// What an upload is, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Zip,
    TarGz,
    Single,
}

pub fn kind_of(bytes: &[u8]) -> Kind {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Kind::Zip
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        Kind::TarGz
    } else {
        Kind::Single
    }
}

/// A checked relative path of an entry, or why it is refused.
fn entry_path(name: &str) -> Result<Option<PathBuf>, ArchiveError> {
    if name.contains('\\') || name.chars().any(char::is_control) {
        return Err(ArchiveError::UnsafePath(name.to_string()));
    }
    let mut out = PathBuf::new();
    for c in Path::new(name).components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(ArchiveError::UnsafePath(name.to_string()))
            }
        }
    }
    Ok((!out.as_os_str().is_empty()).then_some(out))
}

/// Counts entries and bytes against the caps while writing.
struct Budget {
    caps: Caps,
    /// Every entry seen: files, folders and the archive's own records.
    entries: usize,
    /// Regular files written.
    files: usize,
    bytes: u64,
}

impl Budget {
    /// Counts one entry of any kind, before it is looked at: an archive of nothing but
    /// folders (or of empty names) stops at the cap as fast as one of files.
    fn entry(&mut self) -> Result<(), ArchiveError> {
        self.entries += 1;
        if self.entries > self.caps.max_files {
            return Err(ArchiveError::TooManyFiles(self.caps.max_files));
        }
        Ok(())
    }

    /// Copies at most what the budget allows; an entry that goes past it fails.
    fn copy(
        &mut self,
        from: &mut impl Read,
        to: &Path,
        executable: bool,
    ) -> Result<(), ArchiveError> {
        let io = |e: std::io::Error| ArchiveError::Corrupt(e.to_string());
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut file = std::fs::File::create(to).map_err(io)?;
        let room = self.caps.max_bytes - self.bytes;
        let copied = std::io::copy(&mut from.take(room + 1), &mut file).map_err(io)?;
        if copied > room {
            return Err(ArchiveError::TooBig(self.caps.max_bytes / (1024 * 1024)));
        }
        self.bytes += copied;
        file.flush().map_err(io)?;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(mode)).map_err(io)?;
        Ok(())
    }
}

/// Unpacks `bytes` (uploaded as `file_name`) into the empty folder `dest` and returns
/// the bot's root: `dest`, or the single folder the archive holds.
pub fn unpack(
    bytes: &[u8],
    file_name: &str,
    dest: &Path,
    caps: Caps,
) -> Result<PathBuf, ArchiveError> {
    if bytes.is_empty() {
        return Err(ArchiveError::Empty);
    }
    let mut budget = Budget {
        caps,
        entries: 0,
        files: 0,
        bytes: 0,
    };
    let lower = file_name.to_ascii_lowercase();
    let named = if lower.ends_with(".zip") {
        Some((Kind::Zip, "zip archive", "zip -r bot.zip mybot"))
    } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
        Some((Kind::TarGz, ".tar.gz archive", "tar czf bot.tar.gz mybot"))
    } else {
        None
    };
    if let Some((_, what, how)) = named.filter(|(k, ..)| *k != kind_of(bytes)) {
        return Err(ArchiveError::NotAnArchive(file_name.to_string(), what, how));
    }
    match kind_of(bytes) {
        Kind::Single => {
            let name = Path::new(file_name)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            let ok = !name.is_empty()
                && !name.starts_with('.')
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
            if !ok {
                return Err(ArchiveError::BadFileName(file_name.to_string()));
            }
            budget.entry()?;
            budget.files += 1;
            budget.copy(&mut &bytes[..], &dest.join(&name), false)?;
            return Ok(dest.to_path_buf());
        }
        Kind::Zip => unzip(bytes, dest, &mut budget)?,
        Kind::TarGz => untar(bytes, dest, &mut budget)?,
    }
    if budget.files == 0 {
        return Err(ArchiveError::Empty);
    }
    // A zipped folder: its contents are the bot.
    let entries: Vec<_> = std::fs::read_dir(dest)
        .map_err(|e| ArchiveError::Corrupt(e.to_string()))?
        .filter_map(Result::ok)
        .collect();
    if let [only] = &entries[..] {
        if only.path().is_dir() {
            return Ok(only.path());
        }
    }
    Ok(dest.to_path_buf())
}

fn unzip(bytes: &[u8], dest: &Path, budget: &mut Budget) -> Result<(), ArchiveError> {
    let corrupt = |e: zip::result::ZipError| ArchiveError::Corrupt(e.to_string());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(corrupt)?;
    if zip.len() > budget.caps.max_files {
        return Err(ArchiveError::TooManyFiles(budget.caps.max_files));
    }
    for i in 0..zip.len() {
        budget.entry()?;
        let mut entry = zip.by_index(i).map_err(corrupt)?;
        let name = std::str::from_utf8(entry.name_raw())
            .map_err(|_| ArchiveError::NotUtf8)?
            .to_string();
        let Some(rel) = entry_path(&name)? else {
            continue;
        };
        let mode = entry.unix_mode().unwrap_or(0);
        let kind = mode & 0o170000;
        if entry.is_dir() {
            std::fs::create_dir_all(dest.join(&rel))
                .map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
            continue;
        }
        if entry.is_symlink() || (kind != 0 && kind != 0o100000) {
            return Err(ArchiveError::NotAFile(name));
        }
        budget.files += 1;
        budget.copy(&mut entry, &dest.join(&rel), mode & 0o111 != 0)?;
    }
    Ok(())
}

fn untar(bytes: &[u8], dest: &Path, budget: &mut Budget) -> Result<(), ArchiveError> {
    let corrupt = |e: std::io::Error| ArchiveError::Corrupt(e.to_string());
    let gz = flate2::read::GzDecoder::new(bytes);
    let mut tar = tar::Archive::new(gz);
    for entry in tar.entries().map_err(corrupt)? {
        budget.entry()?;
        let mut entry = entry.map_err(corrupt)?;
        let name = std::str::from_utf8(&entry.path_bytes())
            .map_err(|_| ArchiveError::NotUtf8)?
            .to_string();
        let Some(rel) = entry_path(&name)? else {
            continue;
        };
        match entry.header().entry_type() {
            tar::EntryType::Directory => {
                std::fs::create_dir_all(dest.join(&rel)).map_err(corrupt)?;
            }
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                budget.files += 1;
                let mode = entry.header().mode().unwrap_or(0o644);
                budget.copy(&mut entry, &dest.join(&rel), mode & 0o111 != 0)?;
            }
            // Metadata records of pax and GNU tar, not files.
            tar::EntryType::XGlobalHeader
            | tar::EntryType::XHeader
            | tar::EntryType::GNULongName => {}
            _ => return Err(ArchiveError::NotAFile(name)),
        }
    }
    Ok(())
}
