//! The layer a route applies: `auto` per request, or the profile its configuration fixes.

use tower_toolschema::encoding::EncodingSanitizer;
use tower_toolschema::{Profile, Profiles, ToolSchemaLayer};

use super::errors::ServeError;

/// Makes a provider's profile set.
type MakeSet = fn() -> Profiles;

/// Profile names that stand for a provider's whole set (its strict and `*JsonSchema` profiles
/// with it); any other built-in name applies that one profile to every slot.
const SETS: &[(&str, MakeSet)] = &[
    ("gemini", Profiles::gemini),
    ("gemini-code-assist", Profiles::gemini_code_assist),
    ("vertex", Profiles::vertex),
    ("openai", Profiles::openai),
    ("anthropic", Profiles::anthropic),
    ("xai", Profiles::xai),
    ("bedrock", Profiles::bedrock),
    ("portable", Profiles::portable),
];

fn profiles(name: &str) -> Option<Profiles> {
    match SETS.iter().find(|(n, _)| *n == name) {
        Some((_, make)) => Some(make()),
        None => Profile::builtin(name).map(Profiles::single),
    }
}

/// The name, if it is a built-in profile; an error listing the valid names otherwise.
pub(crate) fn check_name(name: &str) -> Result<String, ServeError> {
    match profiles(name) {
        Some(_) => Ok(name.to_owned()),
        None => Err(ServeError::Config(format!(
            "unknown profile {name:?}; valid profiles: {}",
            provider_rules::profile_names()
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The layer for a route: `auto`, or the fixed profile; `limit` bytes inspected at most;
/// `encode`: the profiles' encodings on (the layer decodes the responses).
pub(crate) fn layer(profile: Option<&str>, limit: usize, encode: bool) -> ToolSchemaLayer {
    let layer = match profile.and_then(profiles) {
        Some(p) => ToolSchemaLayer::fixed(p),
        None => ToolSchemaLayer::auto(),
    };
    let layer = layer.limit(limit);
    if encode {
        layer.sanitizer(EncodingSanitizer)
    } else {
        layer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_toolschema::Target;

    #[test]
    fn provider_names_take_their_whole_set() {
        let l = layer(Some("openai"), 1, false);
        assert_eq!(l.config().target(), &Target::Fixed(Profiles::openai()));
        let l = layer(Some("openai-strict"), 1, true);
        let Target::Fixed(p) = l.config().target() else {
            panic!("fixed expected")
        };
        assert_eq!(p.native.name(), "openai-strict");
        assert_eq!(layer(None, 1, false).config().target(), &Target::Auto);
        assert!(check_name("nope").is_err());
    }
}
