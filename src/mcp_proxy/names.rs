//! The tool names the client sees and the ones the server knows: every listed name goes through
//! provider-rules' [`ToolNames`] (valid names unchanged, refused ones repaired, collisions given
//! a stable hash suffix), and the proxy's tool table maps the exposed name back on `tools/call`.
//!
//! The one place the proxy names tools: swap the mapper here when provider-rules grows another.

use provider_rules::{Rules, ToolNames};

/// Exposed name ⇄ the server's own name, stable for the life of the proxy.
#[derive(Debug, Clone)]
pub struct NameMap {
    rules: Rules,
    names: ToolNames,
}

impl NameMap {
    /// A map for the provider described by `rules`.
    pub fn new(rules: &Rules) -> NameMap {
        NameMap {
            rules: rules.clone(),
            names: ToolNames::new(rules),
        }
    }

    /// The exposed names of one listing's tools, in order. Names the provider accepts are mapped
    /// first, so a repaired name never takes a valid one's place.
    pub fn expose(&mut self, originals: &[&str]) -> Vec<String> {
        let mut out = vec![String::new(); originals.len()];
        for valid in [true, false] {
            for (i, name) in originals.iter().enumerate() {
                if self.rules.tool_names.accepts(name) == valid {
                    out[i] = self.names.map(name);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_names_are_repaired_and_map_back_valid_ones_stay() {
        let rules = Rules::OPENAI;
        let mut map = NameMap::new(&rules);
        let out = map.expose(&["get weather", "get_weather", "search"]);
        assert_eq!(out[1], "get_weather");
        assert_eq!(out[2], "search");
        assert_ne!(out[0], "get_weather");
        assert!(rules.tool_names.accepts(&out[0]));
        // Stable: listing again gives the same names.
        assert_eq!(map.expose(&["get weather"]), vec![out[0].clone()]);
    }
}
