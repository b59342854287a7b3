//! Which API a URL path is: the table's URL patterns, matched segment by segment.

use super::{ApiShape, SHAPES};

impl ApiShape {
    /// The first table entry one of whose patterns matches `path` (a URL path, no query).
    ///
    /// ```
    /// use tower_toolschema::shapes::{Api, ApiShape};
    /// let s = ApiShape::for_path("/model/anthropic.claude-sonnet-4/converse").unwrap();
    /// assert_eq!(s.api, Api::BedrockConverse);
    /// ```
    ///
    /// The patterns are split once per process; a call splits `path` once (on the stack) and
    /// compares segments, without allocating: O(patterns × segments).
    pub fn for_path(path: &str) -> Option<&'static ApiShape> {
        let path = path.split_once('?').map_or(path, |(p, _)| p);
        // A client sends every request to the same path or two: the last answer of this
        // thread is kept (the answer is a function of the path alone).
        thread_local! {
            static LAST: std::cell::RefCell<(String, Option<&'static ApiShape>)> =
                const { std::cell::RefCell::new((String::new(), None)) };
        }
        let known = LAST.with(|l| {
            let l = l.try_borrow().ok()?;
            (!l.0.is_empty() && l.0 == path).then_some(l.1)
        });
        if let Some(shape) = known {
            return shape;
        }
        let shape = Self::match_path(path);
        // Paths are short; an unusually long one is not kept.
        if path.len() <= 256 {
            LAST.with(|l| {
                if let Ok(mut l) = l.try_borrow_mut() {
                    l.0.clear();
                    l.0.push_str(path);
                    l.1 = shape;
                }
            });
        }
        shape
    }

    /// [`ApiShape::for_path`] of a path without its query, worked out.
    fn match_path(path: &str) -> Option<&'static ApiShape> {
        const MAX: usize = 16;
        let mut segs = [""; MAX];
        let mut n = 0;
        // The segments, last first: one pass over the bytes from the end.
        let mut end = path.len();
        for (i, b) in path.bytes().enumerate().rev().chain([(usize::MAX, b'/')]) {
            if b != b'/' {
                continue;
            }
            let start = i.wrapping_add(1);
            if start < end
                && let Some(seg) = path.get(start..end)
            {
                if n == MAX {
                    // An unusually deep path: the plain matcher.
                    return SHAPES
                        .iter()
                        .copied()
                        .find(|shape| shape.paths.iter().any(|p| path_matches(p, path)));
                }
                segs[n] = seg;
                n += 1;
            }
            end = i;
        }
        let segs = &segs[..n];
        let table = compiled_patterns();
        table
            .patterns
            .iter()
            .find(|p| {
                let len_ok = if p.anchored {
                    p.segs.len() == n
                } else {
                    p.segs.len() <= n
                };
                // The last segment first (it tells most patterns apart), then the rest.
                len_ok
                    && segs.first().is_none_or(|s| table.matches(&p.last, s))
                    && table
                        .segs
                        .get(p.segs.clone())
                        .is_some_and(|pat| pat.iter().zip(segs).all(|(p, s)| table.matches(p, s)))
            })
            .map(|p| p.shape)
    }
}

/// The table's URL patterns split into segments, in table order, laid out compactly (the
/// segments of every pattern one after the other, their text in one string) so a look-up
/// reads a few small blocks of memory, not one allocation per pattern.
struct CompiledPatterns {
    text: String,
    segs: Vec<Seg>,
    patterns: Vec<CompiledPattern>,
}

/// One URL pattern: its segments (last first) are `segs` of [`CompiledPatterns::segs`]; the
/// last one is also kept here, beside the pattern.
struct CompiledPattern {
    shape: &'static ApiShape,
    anchored: bool,
    last: Seg,
    segs: std::ops::Range<usize>,
}

/// One segment of a pattern: `*` (any), `*suffix`, or an exact name; its text (the suffix or
/// the name) is `text[start..start + len]`.
#[derive(Clone, Copy)]
struct Seg {
    start: u32,
    len: u32,
    kind: SegKind,
}

#[derive(Clone, Copy, PartialEq)]
enum SegKind {
    Any,
    Suffix,
    Exact,
}

impl CompiledPatterns {
    /// Whether `segment` matches `seg` (as [`segment_matches`] says of the pattern's text).
    fn matches(&self, seg: &Seg, segment: &str) -> bool {
        let (start, len) = (seg.start as usize, seg.len as usize);
        let text = || self.text.get(start..start + len).unwrap_or("");
        match seg.kind {
            SegKind::Any => true,
            SegKind::Suffix => segment.len() > len && segment.ends_with(text()),
            SegKind::Exact => segment.len() == len && segment == text(),
        }
    }
}

/// Every pattern of the table, in table order.
fn compiled_patterns() -> &'static CompiledPatterns {
    static PATTERNS: std::sync::OnceLock<CompiledPatterns> = std::sync::OnceLock::new();
    PATTERNS.get_or_init(|| {
        let mut table = CompiledPatterns {
            text: String::new(),
            segs: Vec::new(),
            patterns: Vec::new(),
        };
        for &shape in SHAPES.iter() {
            for p in shape.paths {
                let (anchored, rest) = match p.strip_prefix("**") {
                    Some(rest) => (false, rest),
                    None => (true, *p),
                };
                let first = table.segs.len();
                for seg in rest.rsplit('/').filter(|s| !s.is_empty()) {
                    let (kind, name) = match seg.strip_prefix('*') {
                        Some("") => (SegKind::Any, ""),
                        Some(suffix) => (SegKind::Suffix, suffix),
                        None => (SegKind::Exact, seg),
                    };
                    // The table's text is a few KB: its offsets fit.
                    table.segs.push(Seg {
                        start: u32::try_from(table.text.len()).unwrap_or(u32::MAX),
                        len: u32::try_from(name.len()).unwrap_or(u32::MAX),
                        kind,
                    });
                    table.text.push_str(name);
                }
                // A pattern of no segments (none in the table) matches from its first check.
                let last = table.segs.get(first).copied().unwrap_or(Seg {
                    start: 0,
                    len: 0,
                    kind: SegKind::Any,
                });
                table.patterns.push(CompiledPattern {
                    shape,
                    anchored,
                    last,
                    segs: first..table.segs.len(),
                });
            }
        }
        table
    })
}

/// Matches one URL pattern (see [`ApiShape`]) against a path: segments are compared from the
/// end, without allocating. O(segments).
fn path_matches(pattern: &str, path: &str) -> bool {
    let path = path.strip_suffix('/').unwrap_or(path);
    let (anchored, pattern) = match pattern.strip_prefix("**") {
        Some(rest) => (false, rest),
        None => (true, pattern),
    };
    let mut pat = pattern.rsplit('/').filter(|s| !s.is_empty());
    let mut segs = path.rsplit('/').filter(|s| !s.is_empty());
    loop {
        match (pat.next(), segs.next()) {
            (None, None) => return true,
            (None, Some(_)) => return !anchored,
            (Some(_), None) => return false,
            (Some(p), Some(s)) => {
                if !segment_matches(p, s) {
                    return false;
                }
            }
        }
    }
}

fn segment_matches(pattern: &str, segment: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    if let Some(suffix) = pattern.strip_prefix('*') {
        return segment.len() > suffix.len() && segment.ends_with(suffix);
    }
    pattern == segment
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Api;

    #[test]
    fn paths_identify_apis() {
        let cases = [
            ("/v1/chat/completions", Api::OpenAiChat),
            ("//v1//chat/completions/", Api::OpenAiChat),
            ("v1/chat/completions?x=/y", Api::OpenAiChat),
            ("/openai/deployments/gpt4/chat/completions", Api::OpenAiChat),
            ("/api/v1/chat/completions", Api::OpenAiChat),
            ("/chat/completions", Api::OpenAiChat),
            ("/api/chat", Api::OllamaChat),
            ("/v2/chat", Api::CohereChat),
            ("/cohere/v2/chat", Api::CohereChat),
            ("/v1/responses", Api::OpenAiResponses),
            ("/v1/responses/input_tokens", Api::OpenAiResponses),
            ("/v1/messages", Api::AnthropicMessages),
            ("/v1/messages/count_tokens", Api::AnthropicMessages),
            ("/v1/messages/batches", Api::AnthropicBatches),
            ("/v1beta/models/gemini-2.5-pro:generateContent", Api::Gemini),
            (
                "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
                Api::Gemini,
            ),
            ("/v1beta/tunedModels/x:generateContent", Api::Gemini),
            (
                "/v1beta/models/gemini-2.5-pro:countTokens",
                Api::GeminiCountTokens,
            ),
            ("/v1beta/cachedContents", Api::GeminiCachedContents),
            ("/v1beta/openai/chat/completions", Api::GeminiOpenAiCompat),
            ("/v1internal:generateContent", Api::CodeAssist),
            ("/v1internal:streamGenerateContent", Api::CodeAssist),
            (
                "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent",
                Api::VertexGemini,
            ),
            (
                "/v1/projects/p/locations/l/endpoints/123:generateContent",
                Api::VertexGemini,
            ),
            (
                "/v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4:rawPredict",
                Api::VertexAnthropic,
            ),
            (
                "/v1/projects/p/locations/l/endpoints/openapi/chat/completions",
                Api::VertexOpenAiCompat,
            ),
            (
                "/model/anthropic.claude-3-haiku/converse-stream",
                Api::BedrockConverse,
            ),
            ("/model/anthropic.claude-3-haiku/invoke", Api::BedrockInvoke),
        ];
        let plain = |path: &str| {
            let path = path.split('?').next().unwrap_or(path);
            SHAPES
                .iter()
                .copied()
                .find(|shape| shape.paths.iter().any(|p| path_matches(p, path)))
                .map(|s| s.api)
        };
        for (path, api) in cases {
            // Twice: the second answer is the thread's kept one.
            assert_eq!(ApiShape::for_path(path).map(|s| s.api), Some(api), "{path}");
            assert_eq!(ApiShape::for_path(path).map(|s| s.api), Some(api), "{path}");
            assert_eq!(
                ApiShape::match_path(path.split('?').next().unwrap()).map(|s| s.api),
                Some(api),
                "{path}"
            );
            assert_eq!(plain(path), Some(api), "{path}");
        }
        let deep = format!("{}/v1/chat/completions/", "/a".repeat(40));
        assert_eq!(
            ApiShape::for_path(&deep).map(|s| s.api),
            Some(Api::OpenAiChat)
        );
        for path in [
            "/",
            "",
            "/v1/embeddings",
            "/v1/models",
            "/v1/chat",
            "/v2/chat/x",
            "/:generateContent",
            "/health",
        ] {
            assert!(ApiShape::for_path(path).is_none(), "{path}");
            assert!(ApiShape::for_path(path).is_none(), "{path}");
            // A known path's answer is not another path's.
            assert!(ApiShape::for_path("/v1/messages").is_some());
        }
    }
}
