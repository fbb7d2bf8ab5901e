//! Embeds the starter kits of `bots/starters/` in the binary, so the site can offer
//! them as zips without reading the repository at run time, and the git revision the
//! binary is built from (`BOTTLEBATS_GIT_REVISION`, for `--version`, `/healthz` and
//! `/metrics`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files of a kit, relative to it, skipping build outputs.
fn files(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if matches!(
            name.as_str(),
            "target" | "node_modules" | "__pycache__" | "bot" | "game.log" | "logs"
        ) || name.ends_with(".class")
            || name.ends_with(".json.gz")
        {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            files(&path, &rel.join(&name), out);
        } else {
            out.push(rel.join(&name));
        }
    }
}

/// The revision of the checkout: given by the environment (an image built from a copy
/// of the source without `.git`), else asked of git; "unknown" without either.
fn git_revision(manifest: &Path) -> String {
    println!("cargo:rerun-if-env-changed=BOTTLEBATS_GIT_REVISION");
    if let Ok(given) = std::env::var("BOTTLEBATS_GIT_REVISION") {
        if !given.trim().is_empty() {
            return given.trim().to_string();
        }
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(manifest)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // A new commit or checkout changes HEAD or the ref it names.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
        println!("cargo:rerun-if-changed={dir}/packed-refs");
    }
    git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into())
}

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!(
        "cargo:rustc-env=BOTTLEBATS_GIT_REVISION={}",
        git_revision(Path::new(&manifest_dir))
    );
    // Read when the script runs, not baked in when it was compiled: a build-script
    // binary compiled for one checkout may be run for another sharing the target folder.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../bots/starters");
    println!("cargo:rerun-if-changed={}", root.display());
    // `sqlx::migrate!` embeds the migrations: a new file must rebuild the crate too.
    println!("cargo:rerun-if-changed=../migrations");
    let mut code = String::from(
        "/// (path in the kit, contents)\npub type KitFile = (&'static str, &'static [u8]);\n\
         /// (language, its files)\npub const STARTERS: &[(&str, &[KitFile])] = &[\n",
    );
    // Without the folder the site would silently offer no kit at all.
    let mut kits: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("the starter kits at {}: {e}", root.display()))
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .collect();
    kits.sort_by_key(|e| e.file_name());
    for kit in kits {
        let lang = kit.file_name().to_string_lossy().into_owned();
        let mut list = Vec::new();
        files(&kit.path(), Path::new(""), &mut list);
        let _ = writeln!(code, "    ({lang:?}, &[");
        for f in list {
            let abs = kit.path().join(&f).canonicalize().expect("a starter file");
            let _ = writeln!(
                code,
                "        ({:?}, include_bytes!({:?})),",
                f.display().to_string(),
                abs.display().to_string()
            );
        }
        code.push_str("    ]),\n");
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("starters.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
