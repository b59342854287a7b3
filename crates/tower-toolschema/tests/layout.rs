//! The crate's layout keeps HTTP out of the slots folder: where slots sit in a body and how they
//! are rewritten is plain bytes in, bytes out, so the CLI, the Python binding and the fuzz
//! targets use it without a request in sight.

use std::fs;
use std::path::{Path, PathBuf};

/// Crate names (and their paths) that belong to the HTTP side: none of them may be named in
/// `src/slots/`.
const HTTP_CRATES: &[&str] = &[
    "http::",
    "http_body",
    "hyper",
    "tower::",
    "tower_layer",
    "tower_service",
    "reqwest",
    "HeaderMap",
    "crate::request",
    "crate::body",
    "crate::future",
    "crate::layer",
    "crate::service",
    "crate::policy",
];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn slots_know_no_http() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/slots");
    let files = rust_files(&dir);
    assert!(
        files.iter().any(|f| f.ends_with("shapes.rs"))
            && files.iter().any(|f| f.ends_with("locate.rs")),
        "the slots folder holds the shape table and locate: {files:?}"
    );
    let mut found = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // Code only: the docs may say what the folder does not do.
        let code = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim_start().starts_with("//"));
        for (n, line) in code {
            for name in HTTP_CRATES {
                if line.contains(name) {
                    found.push(format!("{}:{}: {name}: {line}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "HTTP named in the slots folder:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_a_named_http_type() {
    // The scan above must be able to fail: a line as it would be written in a slots file.
    let line = "use http::{HeaderMap, Request};";
    assert!(HTTP_CRATES.iter().any(|name| line.contains(name)));
    let line = "use crate::future::concat;";
    assert!(HTTP_CRATES.iter().any(|name| line.contains(name)));
}
