//! The encodings' walk over the typed tree: each node is encoded where the profile says so,
//! and its [`Decoder`] node is built on the way (the decoder tree mirrors the encoded schema).

use super::{Encoding, Encodings, any_value, contains, enum_text, map, multiple, tuple};
use crate::decode::{Branch, Decoder};
use crate::report::Change;
use crate::rules::Rules;
use schema_core::{Keyword, Schema, Value, pointer};

/// Deeper than this, nodes are left to the engine (the parser keeps 64 levels).
const MAX_DEPTH: usize = 128;

/// What the encodings made: the decoder of the encoded schema and one change per encoding.
pub(crate) struct Encoded {
    pub(crate) decoder: Decoder,
    pub(crate) changes: Vec<Change>,
}

/// Encodes `schema` in place with the profile's [`Encodings`]; `None` when none is on.
/// The root of a shaped slot (a tool's parameters) keeps its shape, and so does a strict
/// profile's (whose engine makes a root of dropped keywords typeless after this pass); another
/// root is encoded as any node is.
pub(crate) fn run(schema: &mut Schema, rules: &Rules, slot: crate::Slot) -> Option<Encoded> {
    if !rules.encodings.any() {
        return None;
    }
    let mut on = rules.encodings;
    // A dialect that says `multipleOf` keeps it.
    on.multiples &= !rules.keywords.contains(Keyword::MultipleOf);
    // And one that says `propertyNames` keeps its names where it keeps its maps.
    on.named_maps &= !rules.keywords.contains(Keyword::PropertyNames);
    let mut w = Walk {
        on,
        // Arrays are reshaped where tuples are, where the dialect has no `contains` and does
        // not close every object (a strict profile would make `at` and `rest` nullable).
        contains: on.tuples && !rules.keywords.contains(Keyword::Contains) && !rules.strict,
        // Where the dialect keeps `additionalProperties` (Vertex), the objects the encodings
        // make are closed: no member but theirs decodes (strict profiles close every object).
        close: rules.additional_properties == crate::AdditionalProperties::Keep
            && rules.keywords.contains(Keyword::AdditionalProperties)
            && !rules.strict,
        changes: Vec::new(),
        nulls: rules.strict.then_some(rules.null_style),
    };
    let place = if rules.root_shaped(slot) || rules.strict {
        Place::Root
    } else {
        Place::Value
    };
    let mut defs = std::collections::BTreeMap::new();
    if rules.refs.keeps_local()
        && schema.has_refs()
        && let Some(map) = schema
            .as_object_mut()
            .and_then(|o| o.schema_map_mut(Keyword::Defs))
    {
        // Kept definitions are encoded where they stand: every reference sees the same form.
        let mut at = String::from("/$defs");
        for (name, def) in map.iter_mut() {
            defs.insert(name.clone(), w.child(def, &mut at, name, 0, Place::Value));
        }
    }
    let mut decoder = w.node(schema, &mut String::new(), 0, place);
    if !defs.is_empty() {
        decoder.defs = defs;
        crate::decode::link_root(&mut decoder);
    }
    Some(Encoded {
        decoder,
        changes: w.changes,
    })
}

/// Where a node stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The root: it keeps its shape (a tool's parameters are an object).
    Root,
    /// A value position (a property, the items, a position): any encoding.
    Value,
    /// A branch of a union, or the extra members of an object with properties: no any-value
    /// encoding (the union or the object already says what it takes).
    Inner,
    /// A part of its parent (an `allOf` member, `then`/`else`, a dependent schema): the
    /// engine merges it into the parent, so only its children are encoded and their
    /// decoders join the parent's.
    Part,
}

struct Walk {
    on: Encodings,
    /// Whether arrays that must contain an item hold it apart ([`contains`]).
    contains: bool,
    /// Whether the objects tuples and arrays become say `additionalProperties: false`.
    close: bool,
    changes: Vec<Change>,
    /// A strict profile's null style: its required any-value properties admit `null` too
    /// ([`any_value::admit_null`]).
    nulls: Option<crate::NullStyle>,
}

impl Walk {
    fn change(&mut self, at: &str, rule: crate::RuleId, message: String, lossy: bool) {
        self.changes.push(Change {
            pointer: at.to_owned(),
            rule,
            message,
            lossy,
        });
    }

    fn child(
        &mut self,
        s: &mut Schema,
        at: &mut String,
        seg: &str,
        depth: usize,
        place: Place,
    ) -> Decoder {
        let len = at.len();
        pointer::push(at, seg);
        let d = self.node(s, at, depth + 1, place);
        at.truncate(len);
        d
    }

    fn node(&mut self, s: &mut Schema, at: &mut String, depth: usize, place: Place) -> Decoder {
        let mut d = Decoder::default();
        if depth > MAX_DEPTH {
            return d;
        }
        if place == Place::Value && self.on.any_value && any_value::rewrite(s) {
            self.change(
                at,
                any_value::RULE,
                "a node that accepts any value is a string of its JSON text".to_owned(),
                false,
            );
            d.encoding = Some(Encoding::Json);
            return d;
        }
        let Schema::Object(o) = s else {
            return d;
        };
        if let Some((_, name)) = o.reference().and_then(crate::Refs::local_name) {
            // Decoded by the definition's decoder (the root's `defs`).
            d.reference = Some(name);
            return d;
        }
        if !matches!(place, Place::Root | Place::Part) {
            if self.on.tuples && tuple::is_tuple(o) {
                return self.tuple(s, at, depth);
            }
            if place == Place::Value && self.contains && contains::is_contains(o) {
                return self.contains(s, at, depth);
            }
            if map::is_map(o, &self.on) {
                return self.map(s, at, depth);
            }
            if self.on.enum_text && enum_text::rewrite(s) {
                self.change(
                    at,
                    enum_text::RULE,
                    "numeric or boolean enum members are a string enum of their JSON texts"
                        .to_owned(),
                    false,
                );
                d.encoding = Some(Encoding::EnumText);
                return d;
            }
        }
        if place == Place::Value
            && self.on.multiples
            && let Some((of, per)) = multiple::rewrite(s)
        {
            self.change(
                at,
                multiple::RULE,
                "a multiple is its quotient, an integer".to_owned(),
                false,
            );
            d.encoding = Some(Encoding::Multiple { of, per });
            return d;
        }
        let Schema::Object(o) = s else {
            return d;
        };
        // An array that says nothing of its items takes any items (the engine would give it
        // `items: {}`): they are JSON text.
        if self.on.any_value
            && o.types()
                .is_some_and(|t| t.as_slice() == [schema_core::InstanceType::Array])
            && !o.contains(Keyword::Items)
            && !o.contains(Keyword::PrefixItems)
            && !o.contains(Keyword::Contains)
        {
            o.insert(Keyword::Items, Value::Schema(Box::new(Schema::Bool(true))));
        }
        let len = at.len();
        let required: Vec<String> = match self.nulls {
            Some(_) => o.required().map(<[String]>::to_vec).unwrap_or_default(),
            None => Vec::new(),
        };
        if let Some(props) = o.properties_mut() {
            pointer::push(at, "properties");
            for (name, child) in props.iter_mut() {
                let cd = self.child(child, at, name, depth, Place::Value);
                if let Some(style) = self.nulls
                    && cd.encoding == Some(Encoding::Json)
                    && required.contains(name)
                {
                    any_value::admit_null(child, style);
                }
                if !cd.is_identity() {
                    d.properties.insert(name.clone(), cd);
                }
            }
            at.truncate(len);
        }
        match o.get_mut(Keyword::Items) {
            Some(Value::Schema(c)) => {
                let cd = self.child(c, at, "items", depth, Place::Value);
                d.items = (!cd.is_identity()).then(|| Box::new(cd));
            }
            Some(Value::Schemas(list)) => {
                pointer::push(at, "items");
                d.prefix_items = self.list(list, at, depth);
                at.truncate(len);
            }
            _ => {}
        }
        if let Some(list) = o.schemas_mut(Keyword::PrefixItems) {
            pointer::push(at, "prefixItems");
            d.prefix_items = self.list(list, at, depth);
            at.truncate(len);
        }
        let tuple_items = matches!(o.get(Keyword::Items), Some(Value::Schemas(_)));
        if let (true, Some(Value::Schema(c))) = (tuple_items, o.get_mut(Keyword::AdditionalItems)) {
            let cd = self.child(c, at, "additionalItems", depth, Place::Value);
            d.items = (!cd.is_identity()).then(|| Box::new(cd));
        }
        if let Some(Value::Schema(c)) = o.get_mut(Keyword::AdditionalProperties) {
            let cd = self.child(c, at, "additionalProperties", depth, Place::Inner);
            d.additional_properties = (!cd.is_identity()).then(|| Box::new(cd));
        }
        // Parts of this node: the engine merges them in, their decoders join this one's.
        crate::engine::merge::hold_parts(o);
        if let Some(list) = o.schemas_mut(Keyword::AllOf) {
            pointer::push(at, "allOf");
            for (i, part) in list.iter_mut().enumerate() {
                let pd = self.child(part, at, &i.to_string(), depth, Place::Part);
                join(&mut d, pd);
            }
            at.truncate(len);
        }
        for kw in [Keyword::Then, Keyword::Else] {
            if let Some(Value::Schema(part)) = o.get_mut(kw) {
                let pd = self.child(part, at, kw.as_str(), depth, Place::Part);
                join(&mut d, pd);
            }
        }
        if let Some(map) = o.schema_map_mut(Keyword::DependentSchemas) {
            pointer::push(at, "dependentSchemas");
            for (name, part) in map.iter_mut() {
                let pd = self.child(part, at, name, depth, Place::Part);
                join(&mut d, pd);
            }
            at.truncate(len);
        }
        for kw in [Keyword::AnyOf, Keyword::OneOf] {
            let Some(list) = o.schemas_mut(kw) else {
                continue;
            };
            pointer::push(at, kw.as_str());
            let mut branches = Vec::with_capacity(list.len());
            for (i, b) in list.iter_mut().enumerate() {
                let from_types = types_of(b);
                let bd = self.child(b, at, &i.to_string(), depth, Place::Inner);
                let types = types_of(b);
                branches.push(Branch {
                    from_types: if from_types == types {
                        Vec::new()
                    } else {
                        from_types
                    },
                    types,
                    decoder: bd,
                });
            }
            at.truncate(len);
            share_same_type_branches(&mut branches);
            if branches.iter().any(|b| !b.decoder.is_identity()) {
                d.any_of = branches;
            }
            break;
        }
        d
    }

    fn list(&mut self, list: &mut [Schema], at: &mut String, depth: usize) -> Vec<Decoder> {
        let ds: Vec<Decoder> = list
            .iter_mut()
            .enumerate()
            .map(|(i, p)| self.child(p, at, &i.to_string(), depth, Place::Value))
            .collect();
        if ds.iter().all(Decoder::is_identity) {
            Vec::new()
        } else {
            ds
        }
    }

    fn tuple(&mut self, s: &mut Schema, at: &mut String, depth: usize) -> Decoder {
        let Some(o) = s.as_object_mut() else {
            return Decoder::default();
        };
        let mut rest = tuple::take_rest(o);
        tuple::cut_at_false(o, &mut rest);
        let len = at.len();
        let (key, kw) = if o.contains(Keyword::PrefixItems) {
            ("prefixItems", Keyword::PrefixItems)
        } else {
            ("items", Keyword::Items)
        };
        pointer::push(at, key);
        let items = match o.schemas_mut(kw) {
            Some(list) => self.list(list, at, depth),
            None => Vec::new(),
        };
        at.truncate(len);
        let rest_decoder = rest
            .as_mut()
            .map(|r| Box::new(self.child(r, at, "items", depth, Place::Value)));
        let names = tuple::rewrite(s, rest);
        self.closed(s);
        self.change(
            at,
            tuple::RULE,
            format!(
                "a tuple of {} positions is an object with one property per position",
                names.len()
            ),
            false,
        );
        Decoder {
            encoding: Some(Encoding::Tuple {
                names,
                items,
                rest: rest_decoder,
            }),
            ..Decoder::default()
        }
    }

    /// Closes the object an encoding made, where the walk says so ([`Walk::close`]).
    fn closed(&self, s: &mut Schema) {
        if let (true, Some(o)) = (self.close, s.as_object_mut()) {
            o.insert(
                Keyword::AdditionalProperties,
                Value::Schema(Box::new(Schema::Bool(false))),
            );
        }
    }

    fn contains(&mut self, s: &mut Schema, at: &mut String, depth: usize) -> Decoder {
        let Some((test, mut matched, mut item)) = contains::take(s) else {
            return Decoder::default();
        };
        let md = self.child(&mut matched, at, "contains", depth, Place::Value);
        let id = self.child(&mut item, at, "items", depth, Place::Value);
        contains::rewrite(s, matched, item);
        self.closed(s);
        self.change(
            at,
            contains::RULE,
            "an array that must contain an item is an object holding it apart".to_owned(),
            false,
        );
        Decoder {
            encoding: Some(Encoding::Contains {
                test,
                matched: Box::new(md),
                items: Box::new(id),
            }),
            ..Decoder::default()
        }
    }

    fn map(&mut self, s: &mut Schema, at: &mut String, depth: usize) -> Decoder {
        let Some(o) = s.as_object_mut() else {
            return Decoder::default();
        };
        let mut value = match o.remove(Keyword::AdditionalProperties) {
            Some(Value::Schema(v)) => *v,
            _ => Schema::Bool(true),
        };
        let value_decoder = self.child(&mut value, at, "additionalProperties", depth, Place::Value);
        let lost = map::rewrite(s, value);
        let (message, lossy) = if lost.is_empty() {
            ("a map is an array of key/value entries".to_owned(), false)
        } else {
            (
                format!(
                    "a map is an array of key/value entries; not carried over: {}",
                    lost.join(", ")
                ),
                true,
            )
        };
        self.change(at, map::RULE, message, lossy);
        Decoder {
            encoding: Some(Encoding::Map {
                value: Box::new(value_decoder),
            }),
            ..Decoder::default()
        }
    }
}

/// The decoder tells a union's branches apart by JSON type only, and takes the first that
/// admits the value's: a later branch of a type an earlier one has (two object branches with
/// different members) joins its decoder into that earlier one, so a value of either decodes.
fn share_same_type_branches(branches: &mut [Branch]) {
    fn number(t: &str) -> &str {
        if t == "integer" { "number" } else { t }
    }
    let overlap = |a: &[String], b: &[String]| {
        a.is_empty() || b.is_empty() || a.iter().any(|x| b.iter().any(|y| number(x) == number(y)))
    };
    for i in 1..branches.len() {
        if branches[i].decoder.is_identity() {
            continue;
        }
        let Some(j) = (0..i).find(|&j| overlap(&branches[j].types, &branches[i].types)) else {
            continue;
        };
        let later = branches[i].decoder.clone();
        join(&mut branches[j].decoder, later);
    }
}

/// Adds what `part` decodes to `d` (where `d` has nothing for it yet).
fn join(d: &mut Decoder, part: Decoder) {
    for (name, pd) in part.properties {
        d.properties.entry(name).or_insert(pd);
    }
    if d.items.is_none() {
        d.items = part.items;
    }
    if d.prefix_items.is_empty() {
        d.prefix_items = part.prefix_items;
    }
    if d.additional_properties.is_none() {
        d.additional_properties = part.additional_properties;
    }
    if d.any_of.is_empty() {
        d.any_of = part.any_of;
    }
}

fn types_of(s: &Schema) -> Vec<String> {
    s.as_object()
        .and_then(|o| o.types())
        .map(|t| t.as_slice().iter().map(|t| t.as_str().to_owned()).collect())
        .unwrap_or_default()
}
