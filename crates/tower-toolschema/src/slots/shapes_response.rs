//! The response side of the [shape table](crate::shapes): for each API (its
//! [`ApiShape::response`](crate::shapes::ApiShape::response)), where tool names sit in its
//! request bodies besides the declarations' slots (the conversation history, `tool_choice`,
//! Gemini's `allowedFunctionNames`), and where tool calls sit in its responses and stream
//! events. This file holds the types and the building blocks; the table's entries pick them.
//!
//! Paths are dotted from the body's root; `name[]` steps into every element of the array
//! `name`; `a|b` is either spelling of one member (Gemini's camel and snake case: each present
//! one is read). A [`NamePath`] ends at a name (a string), or with `[]` at a list of names. A
//! [`CallPath`] ends at a call object; its `name` and `args` paths are relative to it. `when`
//! keeps only the objects whose member has that string value (`"type": "tool_use"`).
//!
//! ```
//! use tower_toolschema::shapes::Api;
//! use tower_toolschema::shapes_response::{Stream, response_shape};
//!
//! let gemini = response_shape(Api::CodeAssist);
//! assert_eq!(gemini.response_prefix, "response.");
//! assert_eq!(gemini.stream, Stream::Chunks);
//! assert!(gemini.history.iter().any(|p| p.path.ends_with("allowedFunctionNames|allowed_function_names[]")));
//! // Bedrock's ConverseStream is a binary event stream: not read.
//! assert_eq!(response_shape(Api::BedrockConverse).stream, Stream::NotRead);
//! ```

use crate::shapes::Api;

/// Where names sit in a request body.
///
/// ```
/// use tower_toolschema::shapes::Api;
/// let history = Api::AnthropicMessages.shape().response.history;
/// assert!(history.iter().any(|p| p.path == "tool_choice.name" && p.when == Some(("type", "tool"))));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamePath {
    /// The path to the name (or, ending in `[]`, to each name of a list).
    pub path: &'static str,
    /// Only where the object holding the name has this member with this string value.
    pub when: Option<(&'static str, &'static str)>,
}

/// Where tool calls sit in a response body (or in one stream event), or earlier calls in a
/// request's history.
///
/// ```
/// use tower_toolschema::shapes::Api;
/// let call = &Api::OpenAiResponses.shape().response.calls[0];
/// assert_eq!((call.at, call.name, call.args), ("output[]", "name", "arguments"));
/// assert_eq!(call.when, Some(("type", "function_call")));
/// let earlier = &Api::AnthropicMessages.shape().response.history_calls[0];
/// assert_eq!((earlier.at, earlier.args), ("messages[].content[]", "input"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallPath {
    /// The path to each call object.
    pub at: &'static str,
    /// Only the call objects with this member and value.
    pub when: Option<(&'static str, &'static str)>,
    /// The call itself, relative to the call object: `""` when it is that object (OpenAI's
    /// `tool_calls[]` items, Anthropic's blocks), else the member holding it (Gemini's
    /// `functionCall|function_call`, Bedrock's `toolUse`, the legacy `function_call`). `name`
    /// and `args` start with it; the validator's findings point at it.
    pub call: &'static str,
    /// The call's name, relative to the call object.
    pub name: &'static str,
    /// The call's arguments, relative to the call object: JSON text (a string holding JSON,
    /// OpenAI's `arguments`) or a JSON value (Anthropic's `input`, Gemini's `args`).
    pub args: &'static str,
}

/// How an API streams its responses.
///
/// ```
/// use tower_toolschema::{shapes::Api, shapes_response::Stream};
/// assert_eq!(Api::AnthropicMessages.shape().response.stream, Stream::AnthropicBlocks);
/// assert_eq!(Api::OpenAiChat.shape().response.stream, Stream::ChatDeltas);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stream {
    /// OpenAI Chat Completions: `chat.completion.chunk` events with
    /// `choices[].delta.tool_calls[]` (`index`, the name in the first fragment, `arguments`
    /// text in fragments), ending with `data: [DONE]`.
    ChatDeltas,
    /// OpenAI Responses: `response.output_item.added` (the `function_call` item and its name),
    /// `response.function_call_arguments.delta` / `.done`, `response.output_item.done` and
    /// `response.completed` (whole items).
    ResponsesEvents,
    /// Anthropic Messages: `content_block_start` (a `tool_use` block and its name),
    /// `content_block_delta` with `input_json_delta.partial_json`, `content_block_stop`.
    AnthropicBlocks,
    /// Gemini `:streamGenerateContent?alt=sse`: every event is a whole response chunk whose
    /// calls are complete ([`ResponseShape::calls`] apply to each).
    Chunks,
    /// Not read (Bedrock's ConverseStream is AWS's binary event-stream framing, not SSE): a
    /// stream goes on untouched and the report says so.
    NotRead,
}

/// The way back for one API.
///
/// ```
/// use tower_toolschema::shapes::Api;
/// let way_back = Api::CodeAssist.shape().response;
/// assert_eq!((way_back.request_prefix, way_back.response_prefix), ("request.", "response."));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseShape {
    /// Where the request's body sits under an envelope (Code Assist: `request.`), or `""`.
    pub request_prefix: &'static str,
    /// Where a response's body sits under an envelope (Code Assist: `response.`), or `""`.
    pub response_prefix: &'static str,
    /// The tools' declared names.
    pub declarations: &'static [NamePath],
    /// Names in the conversation history and the tool choice, besides the earlier calls'
    /// names (those are in [`history_calls`](ResponseShape::history_calls)).
    pub history: &'static [NamePath],
    /// The earlier tool calls in the conversation history (the assistant's turns): their
    /// names (renamed with the declarations) and arguments (encoded, with encodings on, so the
    /// model sees its earlier calls in the form the declarations now speak).
    pub history_calls: &'static [CallPath],
    /// The tool calls of a (non-streaming) response.
    pub calls: &'static [CallPath],
    /// The whole tool calls of a stream's events (Responses' `item` and the final
    /// `response.output[]`, Anthropic's `content_block`; Gemini's chunks are whole responses).
    pub event_calls: &'static [CallPath],
    /// How its stream is read.
    pub stream: Stream,
}

impl ResponseShape {
    /// Whether requests of this API may have their tool names renamed: the names come back in
    /// its responses, where they are mapped back (not for batches or cached contents, whose
    /// results arrive elsewhere).
    ///
    /// ```
    /// use tower_toolschema::shapes::Api;
    /// use tower_toolschema::shapes_response::response_shape;
    /// assert!(response_shape(Api::OpenAiChat).renames());
    /// assert!(!response_shape(Api::AnthropicBatches).renames());
    /// ```
    pub fn renames(&self) -> bool {
        !self.declarations.is_empty()
    }
}

/// One segment of a table path (the grammar of the module docs): `name`, `name[]` (every
/// element of the array `name`), `a|b` (each present spelling). The one reader of that
/// grammar, for the way back's raw walker and the validator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step<'p> {
    spellings: &'p str,
    /// Whether the step goes into every element of the array (`name[]`).
    pub(crate) every: bool,
}

impl<'p> Step<'p> {
    /// The step of one segment.
    pub(crate) fn parse(seg: &'p str) -> Self {
        match seg.strip_suffix("[]") {
            Some(spellings) => Step {
                spellings,
                every: true,
            },
            None => Step {
                spellings: seg,
                every: false,
            },
        }
    }

    /// The member's spellings, in table order (camel case first).
    pub(crate) fn keys(self) -> std::str::Split<'p, char> {
        self.spellings.split('|')
    }
}

/// The segments of a dotted table path (empty ones, as after a prefix's `.`, skipped).
pub(crate) fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('.').filter(|s| !s.is_empty())
}

const fn at(path: &'static str) -> NamePath {
    NamePath { path, when: None }
}

const fn at_when(path: &'static str, key: &'static str, value: &'static str) -> NamePath {
    NamePath {
        path,
        when: Some((key, value)),
    }
}

const CHAT_DECLARATIONS: &[NamePath] = &[at("tools[].function.name"), at("functions[].name")];
const CHAT_HISTORY: &[NamePath] = &[
    at_when("messages[].name", "role", "function"),
    // Ollama's native tool results.
    at("messages[].tool_name"),
    at("tool_choice.function.name"),
    at("function_call.name"),
];
const CHAT_HISTORY_CALLS: &[CallPath] = &[
    CallPath {
        at: "messages[].tool_calls[]",
        when: None,
        call: "",
        name: "function.name",
        args: "function.arguments",
    },
    CallPath {
        at: "messages[]",
        when: None,
        call: "function_call",
        name: "function_call.name",
        args: "function_call.arguments",
    },
];
const CHAT_CALLS: &[CallPath] = &[
    CallPath {
        at: "choices[].message.tool_calls[]",
        when: None,
        call: "",
        name: "function.name",
        args: "function.arguments",
    },
    CallPath {
        at: "choices[].message",
        when: None,
        call: "function_call",
        name: "function_call.name",
        args: "function_call.arguments",
    },
    // Ollama native and Cohere v2.
    CallPath {
        at: "message.tool_calls[]",
        when: None,
        call: "",
        name: "function.name",
        args: "function.arguments",
    },
    CallPath {
        at: "message",
        when: None,
        call: "function_call",
        name: "function_call.name",
        args: "function_call.arguments",
    },
];

const RESPONSES_DECLARATIONS: &[NamePath] = &[
    at_when("tools[].name", "type", "function"),
    at_when("tools[].tools[].name", "type", "function"),
];
const RESPONSES_HISTORY: &[NamePath] = &[
    at_when("tool_choice.name", "type", "function"),
    at_when("tool_choice.tools[].name", "type", "function"),
];
const RESPONSES_HISTORY_CALLS: &[CallPath] = &[CallPath {
    at: "input[]",
    when: Some(("type", "function_call")),
    call: "",
    name: "name",
    args: "arguments",
}];
const RESPONSES_CALLS: &[CallPath] = &[CallPath {
    at: "output[]",
    when: Some(("type", "function_call")),
    call: "",
    name: "name",
    args: "arguments",
}];

const ANTHROPIC_DECLARATIONS: &[NamePath] = &[at("tools[].name")];
const ANTHROPIC_HISTORY: &[NamePath] = &[at_when("tool_choice.name", "type", "tool")];
const ANTHROPIC_HISTORY_CALLS: &[CallPath] = &[CallPath {
    at: "messages[].content[]",
    when: Some(("type", "tool_use")),
    call: "",
    name: "name",
    args: "input",
}];
const ANTHROPIC_CALLS: &[CallPath] = &[CallPath {
    at: "content[]",
    when: Some(("type", "tool_use")),
    call: "",
    name: "name",
    args: "input",
}];

// Protobuf's JSON reader takes either spelling of every field (`lowerCamel` or the proto's
// `snake_case`), so any mix occurs: `a|b` reads each segment in both.
const GEMINI_DECLARATIONS: &[NamePath] = &[at(
    "tools[].functionDeclarations|function_declarations[].name",
)];
const GEMINI_HISTORY: &[NamePath] = &[
    at("contents[].parts[].functionResponse|function_response.name"),
    at(
        "toolConfig|tool_config.functionCallingConfig|function_calling_config.allowedFunctionNames|allowed_function_names[]",
    ),
];
const GEMINI_HISTORY_CALLS: &[CallPath] = &[CallPath {
    at: "contents[].parts[]",
    when: None,
    call: "functionCall|function_call",
    name: "functionCall|function_call.name",
    args: "functionCall|function_call.args",
}];
const GEMINI_CALLS: &[CallPath] = &[CallPath {
    at: "candidates[].content.parts[]",
    when: None,
    call: "functionCall|function_call",
    name: "functionCall|function_call.name",
    args: "functionCall|function_call.args",
}];

const RESPONSES_EVENT_CALLS: &[CallPath] = &[
    CallPath {
        at: "item",
        when: Some(("type", "function_call")),
        call: "",
        name: "name",
        args: "arguments",
    },
    CallPath {
        at: "response.output[]",
        when: Some(("type", "function_call")),
        call: "",
        name: "name",
        args: "arguments",
    },
];
const ANTHROPIC_EVENT_CALLS: &[CallPath] = &[CallPath {
    at: "content_block",
    when: Some(("type", "tool_use")),
    call: "",
    name: "name",
    args: "input",
}];

const BEDROCK_DECLARATIONS: &[NamePath] = &[at("toolConfig.tools[].toolSpec.name")];
const BEDROCK_HISTORY: &[NamePath] = &[at("toolConfig.toolChoice.tool.name")];
const BEDROCK_HISTORY_CALLS: &[CallPath] = &[CallPath {
    at: "messages[].content[]",
    when: None,
    call: "toolUse",
    name: "toolUse.name",
    args: "toolUse.input",
}];
const BEDROCK_CALLS: &[CallPath] = &[CallPath {
    at: "output.message.content[]",
    when: None,
    call: "toolUse",
    name: "toolUse.name",
    args: "toolUse.input",
}];

const fn shape(
    declarations: &'static [NamePath],
    history: &'static [NamePath],
    history_calls: &'static [CallPath],
    calls: &'static [CallPath],
    stream: Stream,
) -> ResponseShape {
    let event_calls = match stream {
        Stream::ResponsesEvents => RESPONSES_EVENT_CALLS,
        Stream::AnthropicBlocks => ANTHROPIC_EVENT_CALLS,
        Stream::Chunks => calls,
        Stream::ChatDeltas | Stream::NotRead => &[],
    };
    ResponseShape {
        request_prefix: "",
        response_prefix: "",
        declarations,
        history,
        history_calls,
        calls,
        event_calls,
        stream,
    }
}

/// OpenAI Chat Completions and its copies (gateways, Ollama native, Cohere v2).
pub(crate) const CHAT: ResponseShape = shape(
    CHAT_DECLARATIONS,
    CHAT_HISTORY,
    CHAT_HISTORY_CALLS,
    CHAT_CALLS,
    Stream::ChatDeltas,
);

/// OpenAI Responses.
pub(crate) const RESPONSES: ResponseShape = shape(
    RESPONSES_DECLARATIONS,
    RESPONSES_HISTORY,
    RESPONSES_HISTORY_CALLS,
    RESPONSES_CALLS,
    Stream::ResponsesEvents,
);

/// Anthropic Messages and its copies (Vertex rawPredict, Bedrock InvokeModel).
pub(crate) const ANTHROPIC: ResponseShape = shape(
    ANTHROPIC_DECLARATIONS,
    ANTHROPIC_HISTORY,
    ANTHROPIC_HISTORY_CALLS,
    ANTHROPIC_CALLS,
    Stream::AnthropicBlocks,
);

/// Gemini `generateContent` and Vertex's.
pub(crate) const GEMINI: ResponseShape = shape(
    GEMINI_DECLARATIONS,
    GEMINI_HISTORY,
    GEMINI_HISTORY_CALLS,
    GEMINI_CALLS,
    Stream::Chunks,
);

/// Code Assist: the Gemini body under `request.`, the response under `response.`.
pub(crate) const CODE_ASSIST: ResponseShape = ResponseShape {
    request_prefix: "request.",
    response_prefix: "response.",
    ..GEMINI
};

/// Bedrock Converse (its stream is not read).
pub(crate) const BEDROCK_CONVERSE: ResponseShape = shape(
    BEDROCK_DECLARATIONS,
    BEDROCK_HISTORY,
    BEDROCK_HISTORY_CALLS,
    BEDROCK_CALLS,
    Stream::NotRead,
);

/// An API whose responses are not read (no tool calls come back in them: batches, token
/// counts, cached contents).
pub(crate) const NOT_READ: ResponseShape = shape(&[], &[], &[], &[], Stream::NotRead);

/// The response side of `api`'s entry in the [shape table](crate::shapes):
/// `&api.shape().response`.
///
/// ```
/// use tower_toolschema::{shapes::Api, shapes_response::response_shape};
/// assert!(std::ptr::eq(response_shape(Api::Gemini), &Api::Gemini.shape().response));
/// ```
pub fn response_shape(api: Api) -> &'static ResponseShape {
    &api.shape().response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_read_arrays_and_spellings() {
        let steps: Vec<(Vec<&str>, bool)> = segments("response.parts[].functionCall|function_call")
            .map(Step::parse)
            .map(|s| (s.keys().collect(), s.every))
            .collect();
        assert_eq!(
            steps,
            [
                (vec!["response"], false),
                (vec!["parts"], true),
                (vec!["functionCall", "function_call"], false)
            ]
        );
    }

    #[test]
    fn paths_are_well_formed() {
        for api in Api::ALL {
            let r = response_shape(api);
            for p in r.declarations.iter().chain(r.history) {
                assert!(!p.path.is_empty() && !p.path.starts_with('.'), "{}", p.path);
            }
            for c in r.calls.iter().chain(r.event_calls).chain(r.history_calls) {
                assert!(!c.name.is_empty() && !c.args.is_empty());
                // `name` and `args` are under `call` (the validator reads them from it).
                for p in [c.name, c.args] {
                    let under = c.call.is_empty()
                        || p.strip_prefix(c.call).is_some_and(|r| r.starts_with('.'));
                    assert!(under, "{p} is not under {}", c.call);
                }
            }
        }
    }
}
