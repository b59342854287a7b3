//! Where the schema slots of a request body are: [`locate`], over the raw bytes.
//!
//! The body is scanned once by a validating byte scanner driven by the slot paths of the
//! [shape table](crate::shapes): every value that is not on a slot path (the conversation:
//! `messages`, `contents`, `input`) is skipped and never built into a tree. Values on a slot
//! path are descended into while they are read, and each slot is captured as a slice of the
//! body ([`RawText`], whose byte range in the body is known), with the tool name and `strict`
//! flag the table says name it. Cost: one scan of every byte of the body, so linear in its size;
//! no slot is scanned twice. A body that scanner is not sure of (invalid JSON, a duplicate or
//! escaped key on a slot path, nesting past 100 levels) is scanned again by serde_json, whose
//! answer and error message stand. Nesting depth is only recursed on along the table's slot
//! paths (at most eight levels); skipped values are scanned iteratively.
//!
//! ```
//! use tower_toolschema::locate::locate;
//! use tower_toolschema::shapes::{Api, SlotRole};
//!
//! // The google-genai Python SDK's spelling: camelCase lists, snake_case declaration fields.
//! let body = br#"{"contents": [], "tools": [{"functionDeclarations": [
//!     {"name": "get_weather", "parameters_json_schema": {"type": "object"}}]}]}"#;
//! let located = locate(body, Some(Api::Gemini)).unwrap();
//! let slot = &located.slots[0];
//! assert_eq!(slot.pointer, "/tools/0/functionDeclarations/0/parameters_json_schema");
//! assert_eq!(slot.spec.role, SlotRole::ToolParameters);
//! assert_eq!(slot.tool().as_deref(), Some("get_weather"));
//! assert_eq!(&body[slot.range(body).unwrap()], br#"{"type": "object"}"#);
//!
//! // `None`: the body is recognised by its shape.
//! assert_eq!(locate(body, None).unwrap().slots[0].api, Api::Gemini);
//! ```

mod fast;
mod scan;
mod trie;

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::DeserializeSeed;
use serde_json::value::RawValue;

use crate::shapes::{Api, Encoding, SlotSpec};
use scan::{NodeSeed, Scan};
use trie::{Node, compiled};

/// A JSON value's text, a slice of the body it was located in (validated JSON).
///
/// ```
/// let body = br#"{"messages":[],"tools":[{"name":"a","input_schema":{"type":"object"}}]}"#;
/// let located = tower_toolschema::locate::locate(body, None).unwrap();
/// assert_eq!(located.slots[0].raw.get(), r#"{"type":"object"}"#);
/// assert_eq!(located.slots[0].name.map(|n| n.get()), Some(r#""a""#));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawText<'a>(&'a str);

impl<'a> RawText<'a> {
    /// A slice of validated JSON, one value with no whitespace around it.
    pub(crate) fn new(text: &'a str) -> Self {
        RawText(text)
    }

    /// The value's JSON text.
    ///
    /// ```
    /// let body = br#"{"tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{}}}]}"#;
    /// let located = tower_toolschema::locate::locate(body, None).unwrap();
    /// assert_eq!(located.slots[0].strict.map(|s| s.get()), Some("true"));
    /// ```
    pub fn get(&self) -> &'a str {
        self.0
    }

    /// The value as a string, when it is one: borrowed when it has no escapes.
    pub(crate) fn string(&self) -> Option<Cow<'a, str>> {
        // Validated JSON: a string without a backslash is its text between the quotes.
        match self.0.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            Some(s) if !s.contains('\\') => Some(Cow::Borrowed(s)),
            _ => serde_json::from_str::<Cow<'a, str>>(self.0).ok(),
        }
    }
}

/// Why a body could not be searched for slots.
///
/// ```
/// use tower_toolschema::locate::{LocateError, locate};
/// use tower_toolschema::shapes::Api;
///
/// let twice = br#"{"messages":[],"tools":[{"name":"a","input_schema":{},"input_schema":{}}]}"#;
/// assert!(matches!(locate(twice, Some(Api::AnthropicMessages)), Err(LocateError::Duplicate(_))));
/// assert!(matches!(locate(b"{\"tools\":", None), Err(LocateError::Invalid(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocateError {
    /// Not valid JSON (or truncated): serde_json's message.
    Invalid(String),
    /// A key on a slot path appears twice in one object (its JSON pointer): which one the
    /// upstream uses is unknown.
    Duplicate(String),
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::Invalid(e) => write!(f, "the body is not valid JSON: {e}"),
            LocateError::Duplicate(p) => write!(
                f,
                "duplicate key at {p}: refusing to guess which one the upstream reads"
            ),
        }
    }
}

impl std::error::Error for LocateError {}

/// A slot found in a body.
///
/// ```
/// use tower_toolschema::{locate::locate, shapes::Api};
///
/// let body = br#"{"messages":[],"tools":[{"name":"search","input_schema":{"type":"object"}}]}"#;
/// let located = locate(body, None).unwrap();
/// let found = &located.slots[0];
/// assert_eq!(found.api, Api::AnthropicMessages);
/// assert_eq!(found.pointer, "/tools/0/input_schema");
/// assert_eq!(found.raw.get(), r#"{"type":"object"}"#);
/// assert_eq!(found.spec.path, "tools[].input_schema");
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Found<'a> {
    /// The API whose table entry the slot is from.
    pub api: Api,
    /// The slot's table entry.
    pub spec: &'static SlotSpec,
    /// The slot's value, borrowed from the body.
    pub raw: RawText<'a>,
    /// RFC 6901 pointer of the slot in the body.
    pub pointer: String,
    /// The slot's name where the table says it sits ([`SlotSpec::name`]), raw.
    pub name: Option<RawText<'a>>,
    /// The slot's `strict` flag where the table says it sits ([`SlotSpec::strict`]), raw.
    pub strict: Option<RawText<'a>>,
    /// Path depths of the objects holding the name and the flag (set while scanning).
    depths: (Option<usize>, Option<usize>),
}

impl<'a> Found<'a> {
    /// The slot's byte range in `body` (the body it was located in).
    ///
    /// ```
    /// let body = br#"{"messages":[],"tools":[{"name":"a","input_schema":{"type":"object"}}]}"#;
    /// let located = tower_toolschema::locate::locate(body, None).unwrap();
    /// let range = located.slots[0].range(body).unwrap();
    /// assert_eq!(&body[range], br#"{"type":"object"}"#);
    /// ```
    pub fn range(&self, body: &[u8]) -> Option<Range<usize>> {
        range_of(body, self.raw.get())
    }

    /// The tool's (or response format's) name, when it is a string.
    ///
    /// ```
    /// let body = br#"{"messages":[],"tools":[{"type":"function","function":{"name":"get_time","parameters":{}}}]}"#;
    /// let located = tower_toolschema::locate::locate(body, None).unwrap();
    /// assert_eq!(located.slots[0].tool().as_deref(), Some("get_time"));
    /// ```
    pub fn tool(&self) -> Option<String> {
        self.name?.string().map(Cow::into_owned)
    }

    /// Whether the slot asks for strict mode (`"strict": true`).
    ///
    /// ```
    /// let body = br#"{"tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{}}}]}"#;
    /// let located = tower_toolschema::locate::locate(body, None).unwrap();
    /// assert!(located.slots[0].strict_requested());
    /// ```
    pub fn strict_requested(&self) -> bool {
        self.strict.is_some_and(|s| s.get() == "true")
    }

    /// The schema's JSON text: the slot's value, or for a slot that stores its schema as a
    /// JSON string ([`Encoding::JsonString`]) the string's content; `None` when such a slot
    /// holds something else than a string.
    ///
    /// ```
    /// let body = br#"{"outputConfig":{"textFormat":{"structure":{"jsonSchema":{"schema":"{\"type\":\"object\"}"}}}}}"#;
    /// let located = tower_toolschema::locate::locate(body, None).unwrap();
    /// assert_eq!(located.slots[0].schema().as_deref(), Some(r#"{"type":"object"}"#));
    /// ```
    pub fn schema(&self) -> Option<Cow<'a, str>> {
        match self.spec.encoding {
            Encoding::Json | Encoding::JsonObject => Some(Cow::Borrowed(self.raw.get())),
            Encoding::JsonString => serde_json::from_str::<Cow<'a, str>>(self.raw.get()).ok(),
        }
    }
}

/// Read as serde_json's borrowed [`RawValue`] is (the same validation), kept as its text.
impl<'de> serde::Deserialize<'de> for RawText<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'de RawValue as serde::Deserialize>::deserialize(d).map(|r| RawText(r.get()))
    }
}

/// What [`locate`] found.
///
/// ```
/// let body = br#"{"model":"claude-sonnet-4","messages":[],"tools":[{"name":"a","input_schema":{}},{"name":"b","input_schema":{}}]}"#;
/// let located = tower_toolschema::locate::locate(body, None).unwrap();
/// assert_eq!(located.model.as_deref(), Some("claude-sonnet-4"));
/// assert_eq!(located.slots.len(), 2);
/// ```
#[derive(Debug, Default, Clone)]
#[non_exhaustive]
pub struct Located<'a> {
    /// Every slot, in body order.
    pub slots: Vec<Found<'a>>,
    /// The body's top-level `model`, if a string.
    pub model: Option<Cow<'a, str>>,
    /// The names of tools declared with no parameters slot (an OpenAI function with no
    /// `parameters`, an Anthropic server tool), raw; collected by the layer only when it needs
    /// them (tool-call validation), empty from [`locate`].
    pub tools_without_schema: Vec<RawText<'a>>,
    /// The containers the fast scan read when asked to (`locate_hooked`), in body order.
    pub(crate) containers: Vec<Container>,
    /// The container the scan jumped over: its hook knew its bytes.
    pub(crate) hit: Option<Container>,
}

/// A container of a body: the first array on a slot path whose slots keep their names and
/// flags inside it (a tool list), what its scan found in it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Container {
    /// Its trie node, as an address (the API's trie and the path).
    pub(crate) node: usize,
    /// Its bytes in the body.
    pub(crate) span: Range<usize>,
    /// The indices of its slots in [`Located::slots`] and of its names in
    /// [`Located::tools_without_schema`].
    pub(crate) slots: Range<usize>,
    pub(crate) tools: Range<usize>,
}

/// Asked at a container: the trie node (as an address) and the body from the container's first
/// byte on; answers the length of the container it knows is there (the scan jumps over it).
pub(crate) type Hook<'h> = &'h mut dyn FnMut(usize, &[u8]) -> Option<usize>;

/// Byte range of a borrowed raw value inside `base`.
pub(crate) fn range_in(base: &[u8], raw: RawText<'_>) -> Option<Range<usize>> {
    range_of(base, raw.get())
}

/// Byte range of a slice of `base` inside it.
pub(crate) fn range_of(base: &[u8], text: &str) -> Option<Range<usize>> {
    let start = (text.as_ptr() as usize).checked_sub(base.as_ptr() as usize)?;
    let end = start.checked_add(text.len())?;
    (end <= base.len()).then_some(start..end)
}

/// Finds the slots of `api`'s shape in `body` (with `None`, of every shape of the table: the
/// body is recognised by its shape), each with its byte range, JSON pointer, name and `strict`
/// flag, and the body's `model`.
///
/// One pass over the body, O(n) in its length: a validating scanner reads every byte once.
/// Values on a slot path are descended into as they are read (the path trie is at most eight
/// levels deep, so recursion is bounded by the table, not by the body); every other value is
/// skipped, and a slot itself is captured as a slice of the body ([`RawText`]). No key or value
/// is allocated; each slot's pointer is. A body that scanner is not sure of is read again by
/// serde_json (see the [module docs](self)).
///
/// ```
/// use tower_toolschema::{locate::locate, shapes::Api};
/// // No tools: no slots (the conversation is skipped, never built into a tree).
/// let body = br#"{"messages":[{"role":"user","content":"hi"}]}"#;
/// assert!(locate(body, Some(Api::OpenAiChat)).unwrap().slots.is_empty());
/// ```
pub fn locate(body: &[u8], api: Option<Api>) -> Result<Located<'_>, LocateError> {
    locate_with(body, api, false)
}

/// [`locate`]; with `tool_names`, also the names of the tools declared without a parameters
/// slot (objects that declare a tool, with a `name` and no parameters schema under them).
pub(crate) fn locate_with(
    body: &[u8],
    api: Option<Api>,
    tool_names: bool,
) -> Result<Located<'_>, LocateError> {
    locate_hooked(body, api, tool_names, None)
}

/// [`locate_with`]; with `hook`, the fast scan records the containers it reads and asks `hook`
/// at each whether it knows it (then jumps over it: [`Located::hit`]).
pub(crate) fn locate_hooked<'a>(
    body: &'a [u8],
    api: Option<Api>,
    tool_names: bool,
    hook: Option<Hook<'_>>,
) -> Result<Located<'a>, LocateError> {
    let c = compiled();
    let root = match api {
        Some(api) => c.per_api.get(api as usize).unwrap_or(&c.union),
        None => &c.union,
    };
    let Node::Object(_) = root else {
        return Ok(Located::default());
    };
    if let Some(found) = fast::locate(body, root, tool_names, hook) {
        return Ok(found);
    }
    locate_serde(body, root, tool_names)
}

/// The scan with serde_json's scanner (its errors are the ones reported).
fn locate_serde<'a>(
    body: &'a [u8],
    root: &Node,
    tool_names: bool,
) -> Result<Located<'a>, LocateError> {
    let mut scan = Scan {
        out: Located::default(),
        path: Vec::new(),
        duplicate: None,
        tool_names,
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let seed = NodeSeed {
        node: root,
        scan: &mut scan,
        root: true,
    };
    if let Err(e) = seed.deserialize(&mut de) {
        return Err(match scan.duplicate.take() {
            Some(p) => LocateError::Duplicate(p),
            None => LocateError::Invalid(e.to_string()),
        });
    }
    de.end().map_err(|e| LocateError::Invalid(e.to_string()))?;
    Ok(scan.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(body: &str, api: Api) -> Vec<(String, String)> {
        let located = locate(body.as_bytes(), Some(api)).unwrap();
        located
            .slots
            .iter()
            .map(|f| {
                let r = range_of(body.as_bytes(), f.raw.get()).unwrap();
                (f.pointer.clone(), body[r].to_owned())
            })
            .collect()
    }

    #[test]
    fn finds_openai_chat_slots_and_skips_history() {
        let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"x","parameters":{"a":1}}],
            "tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{"type":"object"}}},
                     {"type":"function","function":{"name":"g","parameters": {"type":"string"} }}],
            "response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}"#;
        let found = find(body, Api::OpenAiChat);
        assert_eq!(
            found,
            vec![
                (
                    "/tools/0/function/parameters".into(),
                    r#"{"type":"object"}"#.into()
                ),
                (
                    "/tools/1/function/parameters".into(),
                    r#"{"type":"string"}"#.into()
                ),
                (
                    "/response_format/json_schema/schema".into(),
                    r#"{"type":"object"}"#.into()
                ),
            ]
        );
        let located = locate(body.as_bytes(), Some(Api::OpenAiChat)).unwrap();
        assert_eq!(located.model.as_deref(), Some("gpt-4o"));
        assert_eq!(located.slots[0].strict.map(|s| s.get()), Some("true"));
        assert_eq!(located.slots[1].strict.map(|s| s.get()), None);
        assert_eq!(located.slots[1].name.map(|s| s.get()), Some("\"g\""));
    }

    #[test]
    fn tool_names_read_with_and_without_escapes() {
        for (name, want) in [
            (r#""plain""#, Some("plain")),
            (r#""a\u0062\"c""#, Some("ab\"c")),
            (r#""""#, Some("")),
            ("1", None),
        ] {
            let body = format!(r#"{{"tools":[{{"name":{name},"input_schema":{{}}}}]}}"#);
            let located = locate(body.as_bytes(), Some(Api::AnthropicMessages)).unwrap();
            assert_eq!(located.slots[0].tool().as_deref(), want, "{name}");
        }
    }

    #[test]
    fn escaped_keys_are_matched_and_duplicates_refused() {
        let body = r#"{"tool\u0073":[{"input_schema":{}}]}"#;
        assert_eq!(find(body, Api::AnthropicMessages).len(), 1);
        let dup = r#"{"tools":[],"tools":[{"input_schema":{}}]}"#;
        assert!(matches!(
            locate(dup.as_bytes(), Some(Api::AnthropicMessages)),
            Err(LocateError::Duplicate(_))
        ));
        let dup = r#"{"tools":[{"input_schema":{},"input_schema":{}}]}"#;
        assert!(
            matches!(locate(dup.as_bytes(), Some(Api::AnthropicMessages)), Err(LocateError::Duplicate(p)) if p == "/tools/0/input_schema")
        );
    }

    #[test]
    fn invalid_and_odd_bodies() {
        for bad in ["", "{", r#"{"tools":[}"#, r#"{"a":1} x"#, "\u{0}"] {
            assert!(
                matches!(locate(bad.as_bytes(), None), Err(LocateError::Invalid(_))),
                "{bad:?}"
            );
        }
        for odd in [
            "[]",
            "1",
            "null",
            r#"{"tools":null}"#,
            r#"{"tools":{"a":1}}"#,
            r#"{"tools":[1,"x",null]}"#,
        ] {
            assert!(
                locate(odd.as_bytes(), None).unwrap().slots.is_empty(),
                "{odd}"
            );
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 1_000_000;
        let mut body = String::from(r#"{"messages":"#);
        body.push_str(&"[".repeat(depth));
        body.push_str(&"]".repeat(depth));
        body.push_str(r#","tools":[{"input_schema":{"type":"object"}}]}"#);
        let located = locate(body.as_bytes(), Some(Api::AnthropicMessages));
        // Either skipped as too deep or scanned iteratively: never a stack overflow.
        if let Ok(l) = located {
            assert_eq!(l.slots.len(), 1);
        }
        let mut deep_slot = String::from(r#"{"tools":"#);
        deep_slot.push_str(&"[".repeat(depth));
        deep_slot.push_str(&"]".repeat(depth));
        deep_slot.push('}');
        let _ = locate(deep_slot.as_bytes(), None);
    }

    #[test]
    fn a_body_recognised_by_its_shape_is_named_after_the_common_api() {
        let cases = [
            (
                r#"{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{}}}]}"#,
                Api::OpenAiChat,
            ),
            (
                r#"{"model":"m","messages":[],"tools":[{"name":"f","input_schema":{}}]}"#,
                Api::AnthropicMessages,
            ),
            (
                r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":{}}]}]}"#,
                Api::Gemini,
            ),
        ];
        for (body, api) in cases {
            let located = locate(body.as_bytes(), None).unwrap();
            assert_eq!(located.slots.len(), 1, "{body}");
            assert_eq!(located.slots[0].api, api, "{body}");
        }
        // Ollama and Cohere bodies have the OpenAI Chat shape: their tools are named after it;
        // Cohere's `response_format.json_schema` does not displace OpenAI's `.schema` under it.
        let ollama = r#"{"model":"llama3.1","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{}}}],"format":{"type":"object"}}"#;
        let located = locate(ollama.as_bytes(), None).unwrap();
        let apis: Vec<_> = located
            .slots
            .iter()
            .map(|f| (f.api, f.pointer.as_str()))
            .collect();
        assert_eq!(
            apis,
            [
                (Api::OpenAiChat, "/tools/0/function/parameters"),
                (Api::OllamaChat, "/format")
            ]
        );
        let chat = r#"{"model":"m","messages":[],"response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{}}}}"#;
        let located = locate(chat.as_bytes(), None).unwrap();
        assert_eq!(located.slots.len(), 1);
        assert_eq!(located.slots[0].api, Api::OpenAiChat);
        assert_eq!(
            located.slots[0].pointer,
            "/response_format/json_schema/schema"
        );
    }

    #[test]
    fn tools_declared_without_a_schema_are_named_when_asked() {
        let body = r#"{"tools":[{"type":"function","function":{"name":"now"}},
            {"type":"function","function":{"name":"f","parameters":{}}}],
            "response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{}}}}"#;
        let names = |want| {
            locate_with(body.as_bytes(), Some(Api::OpenAiChat), want)
                .unwrap()
                .tools_without_schema
                .iter()
                .map(|n| n.get().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(true), ["\"now\""]);
        assert!(names(false).is_empty());
        let body = r#"{"tools":[{"type":"web_search_20250305","name":"web_search"},{"name":"g","input_schema":{}}]}"#;
        let located = locate_with(body.as_bytes(), Some(Api::AnthropicMessages), true).unwrap();
        assert_eq!(located.tools_without_schema.len(), 1);
        assert_eq!(located.tools_without_schema[0].get(), "\"web_search\"");
    }

    #[test]
    fn ollama_format_is_a_slot_only_when_an_object() {
        let body = r#"{"model":"llama3.1","messages":[],"format":"json"}"#;
        assert!(find(body, Api::OllamaChat).is_empty());
        let body = r#"{"model":"llama3.1","messages":[],"format": {"type":"object"}}"#;
        assert_eq!(
            find(body, Api::OllamaChat),
            [("/format".to_owned(), r#"{"type":"object"}"#.to_owned())]
        );
    }

    #[test]
    fn cohere_response_format_json_schema_is_the_schema() {
        let body = r#"{"model":"command-a","messages":[],"response_format":{"type":"json_object","json_schema":{"type":"object"}}}"#;
        assert_eq!(
            find(body, Api::CohereChat),
            [(
                "/response_format/json_schema".to_owned(),
                r#"{"type":"object"}"#.to_owned()
            )]
        );
    }

    #[test]
    fn responses_input_items_carry_tools() {
        let body = r#"{"model":"gpt-5","input":[{"role":"user","content":"x"},
            {"type":"additional_tools","tools":[{"type":"function","name":"a","parameters":{"type":"object"}},
              {"type":"namespace","name":"ns","tools":[{"type":"function","name":"b","strict":true,"parameters":{"type":"string"}}]}]},
            {"type":"tool_search_output","tools":[{"type":"function","name":"c","parameters":{},"output_schema":{}}]}],
            "tools":[{"type":"function","name":"d","parameters":{}}]}"#;
        let located = locate(body.as_bytes(), Some(Api::OpenAiResponses)).unwrap();
        let got: Vec<_> = located
            .slots
            .iter()
            .map(|f| (f.pointer.as_str(), f.name.map(|n| n.get())))
            .collect();
        assert_eq!(
            got,
            [
                ("/input/1/tools/0/parameters", Some("\"a\"")),
                ("/input/1/tools/1/tools/0/parameters", Some("\"b\"")),
                ("/input/2/tools/0/parameters", Some("\"c\"")),
                ("/input/2/tools/0/output_schema", Some("\"c\"")),
                ("/tools/0/parameters", Some("\"d\"")),
            ]
        );
        assert_eq!(located.slots[1].strict.map(|s| s.get()), Some("true"));
        // Recognised by its shape, too.
        assert_eq!(locate(body.as_bytes(), None).unwrap().slots.len(), 5);
    }
}
