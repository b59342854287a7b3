//! The way back through the layer, per API, JSON and stream: tools from the corpus with a long
//! name (over OpenAI's 64), a dotted one, two that share a name, and a strict tool whose
//! optional properties the model fills with `null`. The upstream answers with the names it
//! received; the client must see the tools' own names and no injected null, every other byte as
//! the upstream sent it, and a stream's events in order, text unbuffered.

#[path = "../common/mod.rs"]
mod common;

mod anthropic;
mod bedrock;
mod gemini;
mod openai_chat;
mod openai_responses;
mod support;
mod untouched;
#[cfg(feature = "validate")]
mod validator;
