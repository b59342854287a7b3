//! Object keywords: `properties`, `required` (with the sent key that probably meant a
//! missing field), `additionalProperties`, `patternProperties`, `propertyNames`, counts and
//! dependencies.

use super::*;

impl<'s> Validator<'s> {
    pub(super) fn object(
        &mut self,
        map: &'s Map<String, Value>,
        obj: &Map<String, Value>,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let props = map.get("properties").and_then(Value::as_object);
        let patterns: Vec<(&'s str, &'s Value)> = map
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default();
        let declared = |this: &mut Self, key: &str| -> Vec<&'s Value> {
            patterns
                .iter()
                .filter(|(p, _)| this.matches(p, key) == Some(true))
                .map(|(_, s)| *s)
                .collect()
        };
        let mut claimed: Vec<String> = Vec::new();
        if let Some(required) = map.get("required").and_then(Value::as_array) {
            let mut unclaimed: Vec<&str> = Vec::new();
            for k in obj.keys() {
                if !props.is_some_and(|p| p.contains_key(k)) && declared(self, k).is_empty() {
                    unclaimed.push(k.as_str());
                }
            }
            for name in required.iter().filter_map(Value::as_str) {
                if obj.contains_key(name) {
                    continue;
                }
                let alias = probable_alias(name, &unclaimed);
                if let Some(a) = alias {
                    unclaimed.retain(|k| *k != a);
                    claimed.push(a.to_owned());
                }
                let expected = props
                    .and_then(|p| p.get(name))
                    .and_then(|s| self.expected_types(s, depth))
                    .unwrap_or_default();
                out.problems.push(Problem {
                    pointer: with_segment(pointer, name),
                    sent: alias.and_then(|a| obj.get(a)).cloned(),
                    kind: ProblemKind::Missing {
                        expected,
                        alias_sent: alias.map(str::to_owned),
                        required_by: None,
                    },
                });
            }
        }
        for (key, value) in obj {
            let child = with_segment(pointer, key);
            let mut matched = false;
            if let Some(sub) = props.and_then(|p| p.get(key)) {
                matched = true;
                self.check(sub, value, &child, depth + 1, out);
            }
            for sub in declared(self, key) {
                matched = true;
                self.check(sub, value, &child, depth + 1, out);
            }
            if matched {
                continue;
            }
            match map.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    if claimed.iter().any(|c| c == key) {
                        continue;
                    }
                    let names: Vec<&str> = props
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    out.problems.push(Problem {
                        pointer: child,
                        sent: Some(value.clone()),
                        kind: ProblemKind::UnknownField {
                            allowed: closest_first(key, names.iter().copied())
                                .into_iter()
                                .map(str::to_owned)
                                .collect(),
                            suggestion: probable_field(key, &names).map(str::to_owned),
                        },
                    });
                }
                Some(sub @ Value::Object(_)) => self.check(sub, value, &child, depth + 1, out),
                _ => {}
            }
        }
        if let Some(names_schema) = map.get("propertyNames") {
            for key in obj.keys() {
                let mut inner = Findings::default();
                self.check(
                    names_schema,
                    &Value::String(key.clone()),
                    "",
                    depth + 1,
                    &mut inner,
                );
                if let Some(first) = inner.problems.first() {
                    let text = first.to_string();
                    let reason = text
                        .strip_prefix("input ")
                        .map_or(text.clone(), |rest| format!("it {rest}"));
                    out.problems.push(Problem {
                        pointer: with_segment(pointer, key),
                        sent: None,
                        kind: ProblemKind::InvalidFieldName { reason },
                    });
                }
            }
        }
        let count = obj.len() as u64;
        if let Some(min) = count_limit(map, "minProperties").filter(|m| count < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooFewFields { min },
            });
        }
        if let Some(max) = count_limit(map, "maxProperties").filter(|m| count > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooManyFields { max },
            });
        }
        let dependent_required = |by: &str, names: &'s Value, out: &mut Findings| {
            for name in names
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !obj.contains_key(name) {
                    out.problems.push(Problem {
                        pointer: with_segment(pointer, name),
                        sent: None,
                        kind: ProblemKind::Missing {
                            expected: Vec::new(),
                            alias_sent: None,
                            required_by: Some(by.to_owned()),
                        },
                    });
                }
            }
        };
        for (by, names) in map
            .get("dependentRequired")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                dependent_required(by, names, out);
            }
        }
        for (by, dep) in map
            .get("dependencies")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                if dep.is_array() {
                    dependent_required(by, dep, out);
                } else {
                    self.check(dep, inst, pointer, depth + 1, out);
                }
            }
        }
        for (by, dep) in map
            .get("dependentSchemas")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                self.check(dep, inst, pointer, depth + 1, out);
            }
        }
    }
}
