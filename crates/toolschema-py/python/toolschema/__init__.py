"""toolschema: rewrite LLM tool JSON Schemas into the dialect each provider accepts.

Every call goes to the Rust engine (the ``toolschema`` workspace's provider-rules,
tower-toolschema and tool-calls crates); nothing is reimplemented in Python.

>>> import toolschema
>>> out = toolschema.sanitize({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}})
>>> out.schema
{'type': 'object', 'properties': {'n': {'type': 'integer', 'nullable': True}}}
>>> [c.rule for c in out.changes]
['type-list']
>>> toolschema.check(out.schema, provider="gemini")
[]
"""

from ._toolschema import (
    MAX_NESTING,
    BodySlot,
    CallError,
    Change,
    Profile,
    ProfileError,
    RestoredCall,
    RestoreReport,
    Sanitized,
    SanitizedBody,
    SchemaError,
    Violation,
    cache_clear,
    cache_info,
    check,
    decode,
    encode,
    explain_call,
    providers,
    restore,
    rules,
    sanitize,
    sanitize_body,
    sanitize_json,
    set_cache_capacity,
    validate_call,
)

__all__ = [
    "MAX_NESTING",
    "BodySlot",
    "CallError",
    "Change",
    "Profile",
    "ProfileError",
    "RestoredCall",
    "RestoreReport",
    "Sanitized",
    "SanitizedBody",
    "SchemaError",
    "Violation",
    "cache_clear",
    "cache_info",
    "check",
    "decode",
    "encode",
    "explain_call",
    "providers",
    "restore",
    "rules",
    "sanitize",
    "sanitize_body",
    "sanitize_json",
    "set_cache_capacity",
    "validate_call",
]
