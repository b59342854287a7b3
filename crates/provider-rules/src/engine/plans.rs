//! The [`Plan`]s of the built-in profiles, made once per process: reading every rule's gate
//! costs about a thousand instructions, which a call on a small schema otherwise pays each
//! time. A built-in profile is recognised by its address (it is immutable, so the address
//! says the content), else by its content: a `const` profile (`&Rules::OPENAI_STRICT`) may
//! be another copy in each place it is used, and a clone of a built-in one is the same
//! profile ([`crate::PROFILES`] is a `static`, found by its address). Any other profile's
//! plan is made per call.

use super::Plan;
use super::unchanged::Proof;
use crate::PROFILES;
use crate::providers::BUILT_IN_PROVIDERS;
use crate::{Rules, Slot};
use std::borrow::Cow;
use std::sync::OnceLock;

/// One built-in profile's plans, by slot.
struct Plans {
    rules: &'static Rules,
    parameters: Plan,
    schema: Plan,
    /// The proofs that a schema needs no change ([`super::unchanged`]), by slot.
    proofs: [Proof; 2],
}

/// Every built-in profile reachable by [`crate::profile`] and [`crate::provider`], each
/// address once.
fn table() -> &'static [Plans] {
    static TABLE: OnceLock<Vec<Plans>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out: Vec<Plans> = Vec::new();
        let roles = BUILT_IN_PROVIDERS
            .iter()
            .flat_map(|p| [Some(p.native), p.json_schema, p.strict])
            .flatten();
        for rules in PROFILES.iter().copied().chain(roles) {
            if !out.iter().any(|p| std::ptr::eq(p.rules, rules)) {
                out.push(Plans {
                    rules,
                    parameters: Plan::new(rules, Slot::Parameters),
                    schema: Plan::new(rules, Slot::Schema),
                    proofs: [
                        Proof::new(rules, Slot::Parameters),
                        Proof::new(rules, Slot::Schema),
                    ],
                });
            }
        }
        out
    })
}

/// The plans made for `rules` where it is a built-in profile: found by its address, else by
/// its name and content (a copy, [`by_content`]).
#[inline]
fn built_in(rules: &Rules) -> Option<&'static Plans> {
    let table = table();
    match table.iter().find(|p| std::ptr::eq(p.rules, rules)) {
        Some(p) => Some(p),
        None => by_content(table, rules),
    }
}

/// The plans of the built-in profile `rules` is a copy of (out of line: the usual profile is
/// found by its address).
#[cold]
#[inline(never)]
fn by_content(table: &'static [Plans], rules: &Rules) -> Option<&'static Plans> {
    table
        .iter()
        .find(|p| p.rules.name == rules.name && *p.rules == *rules)
}

/// The plan for `rules` in `slot`: the one made for a built-in profile, or a new one.
pub(super) fn plan(rules: &Rules, slot: Slot) -> Cow<'static, Plan> {
    match built_in(rules) {
        Some(p) => Cow::Borrowed(match slot {
            Slot::Parameters => &p.parameters,
            Slot::Schema => &p.schema,
        }),
        None => Cow::Owned(Plan::new(rules, slot)),
    }
}

/// The proof that a schema needs no change for `rules` in `slot`: the one made for a
/// built-in profile, or a new one.
pub(super) fn proof(rules: &Rules, slot: Slot) -> Cow<'static, Proof> {
    match built_in(rules) {
        Some(p) => Cow::Borrowed(match slot {
            Slot::Parameters => &p.proofs[0],
            Slot::Schema => &p.proofs[1],
        }),
        None => Cow::Owned(Proof::new(rules, slot)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rule::Step;

    fn same(a: &Plan, b: &Plan) -> bool {
        let eq = |x: &[Step], y: &[Step]| {
            x.len() == y.len() && x.iter().zip(y).all(|(s, t)| std::ptr::fn_addr_eq(*s, *t))
        };
        eq(a.pre(), b.pre()) && eq(a.post(), b.post())
    }

    /// A profile found by name gets the plan made once, equal to the one made now.
    #[test]
    fn built_in_profiles_get_their_plan_made_once() {
        for name in crate::profile_names() {
            let rules = crate::profile(name).expect("built-in");
            for slot in [Slot::Parameters, Slot::Schema] {
                let plan = plan(rules, slot);
                assert!(matches!(plan, Cow::Borrowed(_)), "{name}");
                assert!(same(&plan, &Plan::new(rules, slot)), "{name}");
            }
        }
        let gemini = crate::provider("gemini").expect("built-in");
        assert!(matches!(
            plan(gemini.native, Slot::Schema),
            Cow::Borrowed(_)
        ));
    }

    /// A built-in profile reached by another address (a `const`'s copy, a clone) is found by
    /// its content: its plan and proof are the ones made once.
    #[test]
    fn a_copy_of_a_built_in_profile_gets_its_plan_made_once() {
        let copy = Rules::OPENAI_STRICT.clone();
        for slot in [Slot::Parameters, Slot::Schema] {
            assert!(matches!(plan(&copy, slot), Cow::Borrowed(_)));
            assert!(matches!(proof(&copy, slot), Cow::Borrowed(_)));
            assert!(same(&plan(&copy, slot), &Plan::new(&copy, slot)));
        }
        for rules in crate::PROFILES {
            assert!(matches!(plan(rules, Slot::Parameters), Cow::Borrowed(_)));
        }
        // The same content under another name is another profile.
        let mut renamed = Rules::OPENAI_STRICT.clone();
        renamed.name = "mine".into();
        assert!(matches!(plan(&renamed, Slot::Parameters), Cow::Owned(_)));
    }

    /// A profile that is not one of the built-in values (a copy changed, a custom one) gets
    /// its own plan, read from its own gates.
    #[test]
    fn other_profiles_get_their_own_plan() {
        let mut copy = crate::profile("openai").expect("built-in").clone();
        copy.unions = match copy.unions {
            crate::Unions::Keep => crate::Unions::Alone,
            crate::Unions::Alone => crate::Unions::Keep,
        };
        let plan = plan(&copy, Slot::Parameters);
        assert!(matches!(plan, Cow::Owned(_)));
        assert!(matches!(proof(&copy, Slot::Parameters), Cow::Owned(_)));
        assert!(same(&plan, &Plan::new(&copy, Slot::Parameters)));
        assert!(!same(&plan, &Plan::new(&Rules::OPENAI, Slot::Parameters)));
    }
}
