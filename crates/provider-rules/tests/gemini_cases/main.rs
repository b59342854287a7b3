//! Gemini family (`gemini`, `vertex`, `gemini-code-assist`, `gemini-jsonschema`): the cases of
//! peers.md §3 and the errors of providers.md §1.3 / peers.md §4, each as a regression test.
// Test names read `behaviour__provider_error_it_prevents`.
#![allow(non_snake_case)]

#[path = "../common/mod.rs"]
mod common;

mod arrays;
mod enums;
mod keywords;
mod properties;
mod refs;
mod types;
mod unions;

use provider_rules::Rules;

/// The Gemini API's profile, which most cases are about.
const G: &Rules = &Rules::GEMINI;

/// The Schema-proto profiles that refuse an empty `properties` (G13).
const PROTO: [&Rules; 3] = [&Rules::GEMINI, &Rules::GEMINI_CODE_ASSIST, &Rules::VERTEX];
