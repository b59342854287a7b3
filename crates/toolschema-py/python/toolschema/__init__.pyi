"""Type stubs of the toolschema package (the native module `toolschema._toolschema`)."""

from typing import Any, Iterator, Literal, Optional, Union

JsonValue = Any
SchemaInput = Union[dict[str, Any], list[Any], bool, str, bytes, bytearray]
ArgumentsInput = Union[dict[str, Any], list[Any], str, bytes, bytearray]
BodyInput = Union[bytes, bytearray, str, dict[str, Any]]
Provider = Union[str, "Profile", None]
Slot = Literal["parameters", "schema"]

MAX_NESTING: int
"""How deep the containers of a Python value may nest before it is refused (a cycle reaches it)."""

class SchemaError(ValueError):
    """The input is not a schema the engine can read.

    >>> import toolschema
    >>> try:
    ...     toolschema.sanitize({"enum": [float("nan")]})
    ... except toolschema.SchemaError as e:
    ...     print(e.pointer, e.reason)
    /enum/0 NaN is not a JSON number
    """

    pointer: str
    """Where, as a JSON pointer ("" is the root)."""
    reason: str
    """What is wrong."""

class ProfileError(ValueError):
    """An unknown provider name, or profile text that is not a valid profile."""

class Change:
    """One change the engine made; unpacks as ``pointer, rule, message, lossy``."""

    @property
    def pointer(self) -> str:
        """Where, as a JSON pointer into the output schema."""
    @property
    def rule(self) -> str:
        """The rule that made the change (``type-list``, ``ref-inline``, ...)."""
    @property
    def message(self) -> str:
        """What was done, in words."""
    @property
    def lossy(self) -> bool:
        """Whether the schema now accepts something the original rejected (or says less)."""
    def __iter__(self) -> Iterator[Union[str, bool]]: ...

class Violation:
    """Something the provider would reject."""

    @property
    def pointer(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def provider_error(self) -> Optional[str]:
        """The provider's own error text for it, where known."""

class Sanitized:
    """What :func:`sanitize` returns.

    >>> import toolschema
    >>> out = toolschema.sanitize({"type": "object", "properties": {"a": {"type": "array"}}}, provider="openai")
    >>> out.schema
    {'type': 'object', 'properties': {'a': {'type': 'array', 'items': {}}}}
    >>> out.changed, out.lossy, out.strict_compatible
    (True, False, True)
    """

    @property
    def schema(self) -> Any:
        """The rewritten schema as Python values (the very input object when nothing changed),
        built on first read straight from the engine's tree: equal to ``json.loads(out.json)``,
        keys in the same order."""
    @property
    def json(self) -> str:
        """The rewritten schema as compact JSON text, written on first read (the input text
        when nothing changed: the very ``str`` object when it came as one)."""
    @property
    def changes(self) -> list[Change]:
        """Every change, in order; empty when the schema was already acceptable."""
    @property
    def changed(self) -> bool: ...
    @property
    def lossy(self) -> bool:
        """Whether a change lost meaning (the lost constraints are also in ``description``)."""
    @property
    def strict_compatible(self) -> bool:
        """For strict profiles: whether the result can go in strict mode without changing what it accepts."""
    @property
    def unfixable(self) -> list[Violation]:
        """What the provider will still reject and sanitizing cannot fix (property keys to rename)."""
    @property
    def profile(self) -> str:
        """The profile applied."""
    @property
    def decodes(self) -> bool:
        """Whether :meth:`decode` can change anything (the rewrite made the model send strict nulls)."""
    def encode(self, value: ArgumentsInput) -> Any:
        """A ``value`` in the tool's own terms as the rewritten schema expects it (see
        :func:`encode`): with ``sanitize(..., encode=True)``, maps as key/value entries, any
        values as JSON text, ...; the very object given when nothing changes.

        >>> import toolschema
        >>> tool = {"type": "object", "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["env"]}
        >>> out = toolschema.sanitize(tool, provider="openai-strict", encode=True)
        >>> out.strict_compatible, out.schema["properties"]["env"]["type"]
        (True, 'array')
        >>> out.encode({"env": {"A": "1"}})
        {'env': [{'key': 'A', 'value': '1'}]}
        >>> out.decode('{"env":[{"key":"A","value":"1"}]}')
        '{"env":{"A":"1"}}'
        """
    def decode(self, arguments: ArgumentsInput) -> Any:
        """A tool call's ``arguments`` as the original schema allows them (see :func:`decode`);
        sanitize once, decode every call.

        >>> import toolschema
        >>> tool = {"type": "object", "properties": {"q": {"type": "string"}, "cursor": {"type": "string"}}, "required": ["q"]}
        >>> out = toolschema.sanitize(tool, provider="openai-strict")
        >>> out.decodes, out.schema["required"]
        (True, ['q', 'cursor'])
        >>> out.decode({"q": "rust", "cursor": None})
        {'q': 'rust'}
        >>> out.decode('{"q": "rust", "cursor": null}')
        '{"q": "rust"}'
        """

class Profile:
    """A profile: a built-in, or a custom one from TOML / JSON text.

    >>> import toolschema
    >>> p = toolschema.Profile.from_toml('extends = "openai"\\nname = "mine"\\nhints = false')
    >>> p.name
    'mine'
    >>> toolschema.sanitize({"type": "object"}, provider=p).profile
    'mine'
    """

    @staticmethod
    def builtin(name: str) -> Profile: ...
    @staticmethod
    def from_toml(text: str) -> Profile:
        """``extends = "gemini"`` plus the fields to override, or a whole profile."""
    @staticmethod
    def from_json(text: str) -> Profile: ...
    @property
    def name(self) -> str: ...
    def to_toml(self) -> str: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

class BodySlot:
    """One schema slot of a request body."""

    @property
    def pointer(self) -> str:
        """JSON pointer of the slot in the body (``/tools/3/function/parameters``)."""
    @property
    def tool(self) -> Optional[str]: ...
    @property
    def profile(self) -> str: ...
    @property
    def changes(self) -> list[Change]: ...
    @property
    def strict_downgraded(self) -> bool:
        """The tool asked for strict mode and was sent with ``strict: false``."""
    @property
    def tool_name_problem(self) -> Optional[str]: ...
    @property
    def error(self) -> Optional[str]:
        """Why the slot could not be sanitized (it went on untouched)."""
    @property
    def cached(self) -> bool:
        """The result came from the slot cache: an earlier call (same provider) had the same schema."""

class SanitizedBody:
    """What :func:`sanitize_body` returns."""

    @property
    def body(self) -> Union[bytes, str, dict[str, Any]]:
        """The body to send, of the type given (the very input object when nothing changed)."""
    @property
    def changed(self) -> bool: ...
    @property
    def api(self) -> Optional[str]:
        """The API shape it was read as (``openai-chat``, ``gemini``, ``anthropic-messages``, ...)."""
    @property
    def slots(self) -> list[BodySlot]: ...

class RestoredCall:
    """One tool call of a restored response."""

    @property
    def sent(self) -> str:
        """The name the provider sent."""
    @property
    def tool(self) -> str:
        """The tool's own name (``sent`` when it was not renamed)."""
    @property
    def renamed(self) -> bool:
        """Whether the name was mapped back."""
    @property
    def decoded(self) -> bool:
        """Whether the arguments were decoded (strict nulls removed)."""
    @property
    def error(self) -> Optional[str]:
        """Why the arguments could not be decoded (they went on as they came)."""

class RestoreReport:
    """What :func:`restore` did (the CLI's ``renamed:`` and ``call`` lines)."""

    @property
    def api(self) -> str:
        """The request's API (``openai-chat``, ``gemini``, ``anthropic-messages``, ...)."""
    @property
    def stream(self) -> bool:
        """Whether the response was read as an SSE capture."""
    @property
    def changed(self) -> bool:
        """Whether the response's bytes changed."""
    @property
    def renamed(self) -> list[tuple[str, str]]:
        """``(original, sent)`` for every tool name the request had renamed."""
    @property
    def calls(self) -> list[RestoredCall]:
        """The response's tool calls, in order."""

class CallError:
    """One problem with a tool call's arguments."""

    @property
    def pointer(self) -> str:
        """JSON pointer into the arguments ("" is the arguments themselves)."""
    @property
    def message(self) -> str:
        """What is wrong and what is expected, for the model."""
    @property
    def kind(self) -> str:
        """``missing``, ``wrong_type``, ``not_in_enum``, ... (snake_case)."""
    @property
    def sent(self) -> JsonValue:
        """The value sent there (``None`` when nothing was)."""
    @property
    def example(self) -> str:
        """A worked example of the whole expected arguments (JSON text)."""

def sanitize(schema: SchemaInput, provider: Provider = "gemini", slot: Slot = "parameters", *, encode: bool = False) -> Sanitized:
    """Rewrites ``schema`` (a dict or JSON text) into what ``provider`` accepts.

    Idempotent and deterministic; property names and their order are kept; for every profile
    ``check(sanitize(x).schema)`` is empty. ``provider`` is a profile name, a provider name as
    ``toolschema sanitize --provider`` takes it (``deepseek``, ``azure-openai``: the
    provider's native profile), or a :class:`Profile`. ``encode=True`` turns the profile's
    lossless encodings on (``toolschema sanitize --encode``: maps as key/value entries, any
    values as JSON text, numeric enums as strings, tuples as objects); only for a caller that
    decodes the model's values with :meth:`Sanitized.decode`. A dict is read straight into
    the engine's tree (no JSON text in between); the result is the one its JSON text gives.

    >>> import toolschema
    >>> toolschema.sanitize({"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2, 3]}}}).schema
    {'type': 'object', 'properties': {'n': {'type': 'integer', 'minimum': 1, 'maximum': 3, 'description': 'Allowed values: 1, 2, 3.'}}}
    """

def sanitize_json(text: Union[str, bytes, bytearray], provider: Provider = "gemini", slot: Slot = "parameters", *, encode: bool = False) -> str:
    """JSON text in, JSON text out; the input ``str`` itself when nothing changes.

    >>> import toolschema
    >>> toolschema.sanitize_json('{"type":"object","properties":{"t":{"type":["string","null"]}}}')
    '{"type":"object","properties":{"t":{"type":"string","nullable":true}}}'
    """

def cache_info() -> dict[str, int]:
    """The result cache's figures: ``entries``, ``capacity``, ``bytes`` (input text held; a
    ``dict`` counts about the size of its JSON text), ``hits``, ``misses``.

    ``sanitize`` and ``sanitize_json`` keep the engine's answers for recent inputs (per
    process, at most ``capacity`` entries and 32 MiB of input text, the oldest dropped first):
    agent frameworks send the same tool schemas on every request. Text (``str``, ``bytes``) is
    found by its hash and compared whole; a ``dict`` by identity, then checked against a
    snapshot of its contents taken when it was sanitized (keys in order, the very same
    values), so a dict changed in place since is sanitized again. The cache holds a reference
    to each dict it keeps. Every ``.schema`` read is still a dict no one else holds: a new one,
    or the last one handed out once its caller let go of it unchanged (or the input itself
    when nothing changed).

    >>> import toolschema
    >>> toolschema.cache_clear()
    >>> schema = {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}
    >>> first = toolschema.sanitize(schema).schema
    >>> again = toolschema.sanitize(schema).schema
    >>> first == again and first is not again
    True
    >>> info = toolschema.cache_info()
    >>> (info["entries"], info["hits"], info["misses"])
    (1, 1, 1)
    """

def cache_clear() -> None:
    """Empties the result cache and zeroes its counters (see :func:`cache_info`).

    >>> import toolschema
    >>> toolschema.cache_clear()
    >>> toolschema.cache_info()["entries"]
    0
    """

def set_cache_capacity(entries: int) -> int:
    """Sets how many results the cache keeps (0 turns it off: every call runs the engine);
    returns the previous capacity (1024 by default).

    >>> import toolschema
    >>> previous = toolschema.set_cache_capacity(0)
    >>> toolschema.sanitize({"type": ["string", "null"]}).changed
    True
    >>> toolschema.cache_info()["entries"]
    0
    >>> toolschema.set_cache_capacity(previous)
    0
    """

def check(schema: SchemaInput, provider: Provider = "gemini", slot: Slot = "parameters") -> list[Violation]:
    """What ``provider`` would reject in ``schema`` (empty: it would accept it).

    >>> import toolschema
    >>> [(v.pointer, v.rule) for v in toolschema.check({"type": "object", "properties": {"t": {"type": ["string", "null"]}}})]
    [('/properties/t', 'type-list')]
    """

def providers() -> list[str]:
    """The names of the built-in profiles.

    >>> import toolschema
    >>> "openai-strict" in toolschema.providers()
    True
    """

def rules(name: Union[str, Profile], format: Literal["dict", "toml", "json"] = "dict") -> Any:
    """A profile's fields: a dict, or TOML / JSON text loadable with :class:`Profile`.

    >>> import toolschema
    >>> toolschema.rules("gemini")["name"]
    'gemini'
    """

def sanitize_body(
    body: BodyInput,
    provider: Provider = None,
    api: Optional[str] = None,
) -> SanitizedBody:
    """Sanitizes the schema slots of a whole request body, as the CLI and the tower layer do:
    only the slots change, every other byte is kept. ``provider=None`` picks the profiles from
    the body's shape and model; ``api`` names the shape (``openai-chat``, ``gemini``, ...).

    >>> import toolschema
    >>> out = toolschema.sanitize_body(b'{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"array"}}}}}]}')
    >>> out.api, out.changed, out.slots[0].profile
    ('openai-chat', True, 'openai')
    """

def restore(
    request: BodyInput,
    response: BodyInput,
    provider: Provider = None,
    api: Optional[str] = None,
) -> tuple[bytes, RestoreReport]:
    """The provider's ``response`` (a JSON body or an SSE capture) as the client of the layer
    sees it, for the ``request`` body as the client wrote it: tool names the request had to
    rename are mapped back, and the strict nulls the strict rewrite made the model send are
    removed from the arguments; every other byte is kept. What ``toolschema restore --provider
    P --request REQUEST RESPONSE`` prints. ``provider=None`` picks the profiles from the
    request's shape and model; ``api`` names the request's shape. The response comes back as
    ``bytes`` (the very object given when it is ``bytes`` and nothing changed).

    >>> import json, toolschema
    >>> request = {"model": "gpt-4o", "messages": [], "tools": [{"type": "function", "function": {
    ...     "name": "fs.read", "strict": True, "parameters": {"type": "object",
    ...     "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]}}}]}
    >>> response = {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",
    ...     "function": {"name": "fs_read", "arguments": '{"path":"a.txt","limit":null}'}}]}}]}
    >>> body, report = toolschema.restore(request, json.dumps(response), provider="openai")
    >>> json.loads(body)["choices"][0]["message"]["tool_calls"][0]["function"]
    {'name': 'fs.read', 'arguments': '{"path":"a.txt"}'}
    >>> report.renamed, [(c.tool, c.decoded) for c in report.calls]
    ([('fs.read', 'fs_read')], [('fs.read', True)])
    """

def decode(schema: SchemaInput, arguments: ArgumentsInput, provider: Provider, *, encode: bool = False) -> Any:
    """A tool call's ``arguments`` (a dict, or JSON text) as the tool's own ``schema`` allows
    them, after the schema was sent sanitized for ``provider``: a property the strict rewrite
    made required and nullable, that the original neither required nor let be ``null``, loses
    the ``null`` the model filled in; with ``encode=True`` (the schema was sent with
    ``sanitize(..., encode=True)``; what ``toolschema decode`` does), the encodings are undone
    too. The result is of the type given (text keeps every other byte), and is the very object
    given when nothing changes. The decoder is the one ``sanitize(schema, provider)`` builds;
    to decode many calls, keep that result and call :meth:`Sanitized.decode`.

    >>> import toolschema
    >>> tool = {"type": "object", "properties": {"q": {"type": "string"}, "cursor": {"type": "string"}}, "required": ["q"]}
    >>> toolschema.decode(tool, {"q": "rust", "cursor": None}, provider="openai-strict")
    {'q': 'rust'}
    >>> args = {"q": "rust", "cursor": "c2"}
    >>> toolschema.decode(tool, args, provider="openai-strict") is args
    True
    """

def encode(schema: SchemaInput, value: ArgumentsInput, provider: Provider) -> Any:
    """A ``value`` in the tool's own terms (a dict, or JSON text) as the tool's ``schema``
    sanitized for ``provider`` with its encodings (``sanitize(..., encode=True)``) expects it:
    what ``toolschema encode --provider P --schema SCHEMA VALUE`` prints. For the earlier calls
    of a conversation's history (the model then sees them in the form the declaration speaks)
    and for tests: ``decode(schema, encode(schema, x, p), p, encode=True) == x``. The result is
    of the type given; the very object given when nothing changes.

    >>> import toolschema
    >>> tool = {"type": "object", "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}, "level": {"enum": [1, 2]}}, "required": ["env"]}
    >>> toolschema.encode(tool, {"env": {"A": "1"}, "level": 2}, provider="gemini")
    {'env': [{'key': 'A', 'value': '1'}], 'level': '2'}
    >>> toolschema.decode(tool, {"env": [{"key": "A", "value": "1"}], "level": "2"}, provider="gemini", encode=True)
    {'env': {'A': '1'}, 'level': 2}
    """

def validate_call(schema: SchemaInput, arguments: Any) -> list[CallError]:
    """Every problem with a tool call's ``arguments`` under the tool's original ``schema``.

    >>> import toolschema
    >>> [e.message for e in toolschema.validate_call({"properties": {"q": {"type": "string"}}, "required": ["q"]}, {"Q": "x"})]
    ['"q" is missing — you sent "Q"; the field is "q"']
    """

def explain_call(schema: SchemaInput, arguments: Any) -> Optional[str]:
    """The whole model-facing message for an invalid call (``None``: valid)."""
