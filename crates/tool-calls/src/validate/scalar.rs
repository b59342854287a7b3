//! String and number keywords: lengths, `pattern`, `format`, bounds, `multipleOf`.

use super::*;

impl<'s> Validator<'s> {
    pub(super) fn string(
        &mut self,
        map: &'s Map<String, Value>,
        s: &str,
        inst: &Value,
        pointer: &str,
        out: &mut Findings,
    ) {
        let needs_len = map.contains_key("minLength") || map.contains_key("maxLength");
        let len = if needs_len {
            s.chars().count() as u64
        } else {
            0
        };
        if let Some(min) = count_limit(map, "minLength").filter(|m| len < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooShort { min },
            });
        }
        if let Some(max) = count_limit(map, "maxLength").filter(|m| len > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooLong { max },
            });
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            let kind = match self.matches(pattern, s) {
                Some(true) => None,
                Some(false) => Some(ProblemKind::PatternMismatch {
                    pattern: pattern.to_owned(),
                }),
                // Never taken as matched.
                None => Some(ProblemKind::PatternNotChecked {
                    pattern: pattern.to_owned(),
                }),
            };
            if let Some(kind) = kind {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind,
                });
            }
        }
        if let Some(format) = map.get("format").and_then(Value::as_str)
            && crate::format::check(format, s) == Some(false)
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::InvalidFormat {
                    format: format.to_owned(),
                },
            });
        }
    }

    pub(super) fn number(
        &mut self,
        map: &'s Map<String, Value>,
        n: &Number,
        inst: &Value,
        pointer: &str,
        out: &mut Findings,
    ) {
        let x = number_f64(n);
        let mut push = |kind| {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind,
            })
        };
        let draft4_min_excl = map.get("exclusiveMinimum") == Some(&Value::Bool(true));
        let draft4_max_excl = map.get("exclusiveMaximum") == Some(&Value::Bool(true));
        if let Some(Value::Number(limit)) = map.get("minimum") {
            let l = number_f64(limit);
            if x < l || (draft4_min_excl && x <= l) {
                push(ProblemKind::BelowMinimum {
                    limit: limit.clone(),
                    exclusive: draft4_min_excl,
                });
            }
        }
        if let Some(Value::Number(limit)) = map.get("maximum") {
            let l = number_f64(limit);
            if x > l || (draft4_max_excl && x >= l) {
                push(ProblemKind::AboveMaximum {
                    limit: limit.clone(),
                    exclusive: draft4_max_excl,
                });
            }
        }
        if let Some(Value::Number(limit)) = map.get("exclusiveMinimum")
            && x <= number_f64(limit)
        {
            push(ProblemKind::BelowMinimum {
                limit: limit.clone(),
                exclusive: true,
            });
        }
        if let Some(Value::Number(limit)) = map.get("exclusiveMaximum")
            && x >= number_f64(limit)
        {
            push(ProblemKind::AboveMaximum {
                limit: limit.clone(),
                exclusive: true,
            });
        }
        if let Some(Value::Number(divisor)) = map.get("multipleOf")
            && !is_multiple(n, divisor)
        {
            push(ProblemKind::NotMultipleOf {
                divisor: divisor.clone(),
            });
        }
    }
}
