//! Shared by the integration tests and the bench: the corpus schemas as raw text.
#![allow(dead_code)]

use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus folder of the repository (`tests/corpus`).
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// One schema of the corpus, as the raw text it has in its file.
pub struct CorpusSchema {
    /// `file#pointer-ish origin`, for messages.
    pub origin: String,
    /// The schema's JSON text exactly as in the file (whitespace included).
    pub text: String,
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

type Object = BTreeMap<String, Box<RawValue>>;

/// Every MCP `inputSchema`/`outputSchema`.
pub fn mcp() -> Vec<CorpusSchema> {
    let mut files = Vec::new();
    json_files(&Path::new(CORPUS).join("mcp"), &mut files);
    assert!(!files.is_empty(), "no MCP corpus under {CORPUS}");
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let top: Object = serde_json::from_str(&text).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let tools: Vec<Object> = serde_json::from_str(top["tools"].get()).unwrap();
        for (i, tool) in tools.iter().enumerate() {
            for slot in ["inputSchema", "outputSchema"] {
                if let Some(raw) = tool.get(slot) {
                    out.push(CorpusSchema {
                        origin: format!("mcp/{name}#/tools/{i}/{slot}"),
                        text: raw.get().to_owned(),
                    });
                }
            }
        }
    }
    out
}

/// Every JSON-Schema-Test-Suite `schema`.
pub fn jsts() -> Vec<CorpusSchema> {
    let mut files = Vec::new();
    json_files(&Path::new(CORPUS).join("jsts"), &mut files);
    assert!(!files.is_empty(), "no jsts corpus under {CORPUS}");
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = f
            .strip_prefix(Path::new(CORPUS))
            .unwrap_or(&f)
            .display()
            .to_string();
        let groups: Vec<Object> = serde_json::from_str(&text).unwrap();
        for (i, group) in groups.iter().enumerate() {
            if let Some(raw) = group.get("schema") {
                out.push(CorpusSchema {
                    origin: format!("{rel}#/{i}/schema"),
                    text: raw.get().to_owned(),
                });
            }
        }
    }
    out
}

/// The whole corpus: MCP then jsts.
pub fn all() -> Vec<CorpusSchema> {
    let mut v = mcp();
    v.extend(jsts());
    v
}

/// Splits minified JSON into tokens: strings, numbers, literals and punctuation.
pub fn tokens(t: &str) -> Vec<&str> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        match b[i] {
            b'"' => {
                i += 1;
                while b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'{' | b'}' | b'[' | b']' | b':' | b',' => i += 1,
            _ => {
                while i < b.len() && !matches!(b[i], b'{' | b'}' | b'[' | b']' | b':' | b',') {
                    i += 1;
                }
            }
        }
        out.push(&t[start..i]);
    }
    out
}

/// Same tokens in the same order; number tokens compared as doubles.
pub fn same_tokens(a: &str, b: &str) -> bool {
    let (ta, tb) = (tokens(a), tokens(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(p), Ok(q)) if p == q)
        })
}
