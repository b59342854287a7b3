//! OpenAI, Anthropic, xAI, Bedrock and strict profiles: peers.md §3 cases and the §4 error
//! catalogue as regression tests; `strict_compatible: false` cases; profiles by name.
// Test names read `behaviour__provider_error_it_prevents`.
#![allow(non_snake_case)]

#[path = "../common/mod.rs"]
mod common;

mod anthropic;
mod every_profile;
mod openai;
mod strict;
mod xai;
