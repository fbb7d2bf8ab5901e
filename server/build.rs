//! Embeds the repository's folders the binary carries (`static/`, and each game's
//! content: its folder `games/NAME/` with a `rules.md` gives its rules, house bots,
//! starter kits and local kit, `maps/NAME/` its maps; see `src/embedded.rs`), so the
//! program never reads the repository at run time, and the git revision the binary is built from
//! (`BOTTLEBATS_GIT_REVISION`, for `--version`, `/healthz` and `/metrics`).
//!
//! One walk of each folder here, rather than `include_dir` or `rust-embed`: a starter
//! kit tried out in place holds its build outputs (a Rust kit's `target/` weighs
//! hundreds of MiB), which `include_dir` cannot leave out, and `rust-embed`'s exclusion
//! patterns bring globset and a regex engine into the build for what `skipped` says.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A game's content: (the field of `embedded::GameFiles`, its folder from the
/// repository's root, `{}` the game's name).
const GAME_FOLDERS: &[(&str, &str)] = &[
    ("maps", "maps/{}"),
    ("house", "games/{}/bots/house"),
    ("starters", "games/{}/bots/starters"),
    ("kit", "games/{}/kit"),
    ("site", "games/{}/site"),
];

/// The platform's own source, embedded so that the site can serve it as an archive for
/// platforms its program does not run on: what building it needs (the workspace, the
/// folders the program embeds, the SQL's offline metadata) and its documents; never the
/// build output, the tests, CI or deployment files.
const SOURCE: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "languages.toml",
    "README.md",
    "ARCHITECTURE.md",
    ".cargo",
    ".sqlx",
    "games",
    "engine",
    "maps",
    "server",
    "templates",
    "migrations",
    "static",
    "docs",
];

/// Folders of the source left out of its archive, at any depth.
fn not_source(name: &str) -> bool {
    skipped(name) || name == "tests" || name == ".git"
}

/// The files of [`SOURCE`] under `root`, relative to it. Each file is watched by cargo,
/// and so is each folder that holds nothing left out (cargo scans a folder whole: the
/// build output or the tests would make every change rebuild), so that a new file is
/// seen too.
fn source_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for top in SOURCE {
        let path = root.join(top);
        if path.is_dir() {
            walk(&path, Path::new(top), not_source, &mut out);
            if watch_whole_folders(&path) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        } else if path.is_file() {
            out.push(PathBuf::from(top));
        }
    }
    out
}

/// Whether nothing under `dir` is left out of the source; if something is, watches the
/// subfolders of `dir` that hold nothing left out.
fn watch_whole_folders(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return true;
    };
    let (mut whole, mut clean) = (true, Vec::new());
    for e in entries.filter_map(Result::ok) {
        let path = e.path();
        if not_source(&e.file_name().to_string_lossy()) {
            whole = false;
        } else if path.is_dir() {
            if watch_whole_folders(&path) {
                clean.push(path);
            } else {
                whole = false;
            }
        }
    }
    if !whole {
        for c in clean {
            println!("cargo:rerun-if-changed={}", c.display());
        }
    }
    whole
}

/// What running a bot or a kit in place leaves behind, never embedded.
fn skipped(name: &str) -> bool {
    matches!(
        name,
        "target" | "node_modules" | "__pycache__" | "bot" | "game.log" | "game.json" | "logs"
    ) || name.ends_with(".class")
        || name.ends_with(".json.gz")
}

/// Files of a folder, relative to it, skipping [`skipped`] names.
fn files(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    walk(dir, rel, skipped, out);
}

/// Files of a folder, relative to it, skipping the names `skip` says.
fn walk(dir: &Path, rel: &Path, skip: fn(&str) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if skip(&name) {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            walk(&path, &rel.join(&name), skip, out);
        } else {
            out.push(rel.join(&name));
        }
    }
}

/// The games whose content is embedded: the folders of `games/` holding a `rules.md`
/// (`games/interface/` is none), in order of name.
fn game_names(repo: &Path) -> Vec<String> {
    let dir = repo.join("games");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join("rules.md").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The constant holding one folder of a game's content: `VINDINIUM_HOUSE`.
fn constant(game: &str, field: &str) -> String {
    format!(
        "{}_{}",
        game.to_uppercase().replace('-', "_"),
        field.to_uppercase()
    )
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
            if Path::new(&dir).join(&head).exists() {
                println!("cargo:rerun-if-changed={dir}/{head}");
            }
        }
        // Watched only when it exists: cargo takes a missing file as changed, and would
        // then build the crate again every time.
        if Path::new(&dir).join("packed-refs").exists() {
            println!("cargo:rerun-if-changed={dir}/packed-refs");
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into())
}

/// The folder to watch for a game's folder `root`: itself, or where it does not exist
/// (a game played on one board has no `maps/NAME/`) the nearest folder above it that
/// does, so that its creation is seen. Cargo takes a missing path as changed, and would
/// build the crate again every time.
fn watched(root: &Path) -> &Path {
    let mut dir = root;
    while !dir.exists() {
        match dir.parent() {
            Some(up) => dir = up,
            None => break,
        }
    }
    dir
}

/// An embedded folder's constant: its name, and whether it is public (a game's
/// folders are reached through `GAMES` only).
struct Constant<'a> {
    name: &'a str,
    public: bool,
}

/// The constant `c`: the files `list` of `root`, each watched when `watch`.
fn embed(code: &mut String, c: Constant, root: &Path, list: &[PathBuf], watch: bool) {
    let public = if c.public { "pub " } else { "" };
    let _ = writeln!(code, "{public}const {}: &[File] = &[", c.name);
    for f in list {
        let abs = root.join(f).canonicalize().expect("a file just listed");
        if watch {
            println!("cargo:rerun-if-changed={}", abs.display());
        }
        let path: Vec<_> = f.iter().map(|p| p.to_string_lossy()).collect();
        let _ = writeln!(
            code,
            "    File {{ path: {:?}, bytes: include_bytes!({:?}) }},",
            path.join("/"),
            abs.display().to_string()
        );
    }
    code.push_str("];\n");
}

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!(
        "cargo:rustc-env=BOTTLEBATS_GIT_REVISION={}",
        git_revision(Path::new(&manifest_dir))
    );
    // `sqlx::migrate!` embeds the migrations: a new file must rebuild the crate too.
    println!("cargo:rerun-if-changed=../migrations");
    let mut code = String::new();
    let repo = Path::new(&manifest_dir).join("..");
    let root = repo.join("static");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut list = Vec::new();
    files(&root, Path::new(""), &mut list);
    // Without the folder the program would silently carry nothing.
    assert!(!list.is_empty(), "no files to embed in {}", root.display());
    embed(
        &mut code,
        Constant {
            name: "STATIC",
            public: true,
        },
        &root,
        &list,
        false,
    );
    let games = game_names(&repo);
    assert!(
        !games.is_empty(),
        "no game in {}",
        repo.join("games").display()
    );
    for game in &games {
        for (field, folder) in GAME_FOLDERS {
            let root = repo.join(folder.replace("{}", game));
            println!("cargo:rerun-if-changed={}", watched(&root).display());
            let mut list = Vec::new();
            files(&root, Path::new(""), &mut list);
            let name = constant(game, field);
            embed(
                &mut code,
                Constant {
                    name: &name,
                    public: false,
                },
                &root,
                &list,
                false,
            );
        }
    }
    code.push_str("/// Every game's content, by its name, in order of name.\n");
    code.push_str("pub const GAMES: &[GameFiles] = &[\n");
    for game in &games {
        let rules = repo.join("games").join(game).join("rules.md");
        println!("cargo:rerun-if-changed={}", rules.display());
        let _ = writeln!(code, "    GameFiles {{");
        let _ = writeln!(code, "        name: {game:?},");
        for (field, _) in GAME_FOLDERS {
            let _ = writeln!(code, "        {field}: {},", constant(game, field));
        }
        let _ = writeln!(
            code,
            "        rules: include_str!({:?}),",
            rules
                .canonicalize()
                .expect("a game's rules.md")
                .display()
                .to_string()
        );
        code.push_str("    },\n");
    }
    code.push_str("];\n");
    embed(
        &mut code,
        Constant {
            name: "SOURCE",
            public: true,
        },
        &repo,
        &source_files(&repo),
        true,
    );
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
