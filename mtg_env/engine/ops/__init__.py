"""The effect ops cards are written in, each op declaring its parameters.

Where things live (docs/ARCHITECTURE.md): ``ops/`` is the effect vocabulary, and a rule topic's
procedures are its topic module's. An op module registers the ops card data names and holds what
only those ops need: reading their compiled arguments, the question an op asks on resolution
(a frame it pushes) and that question's continuation. The rules an op invokes (deal damage, move
a card between zones, pay mana, add a continuous effect) are functions of the topic
module, where every other caller finds them too. An op module shares its topic module's
name (``ops/damage.py`` calls :mod:`mtg_env.engine.damage`, ``ops/zones.py``
:mod:`mtg_env.engine.zones`, ``ops/stack.py``, ``ops/mana.py``, ``ops/turn_structure.py``,
``ops/layers.py`` likewise); the ops of a mechanism with no topic module of its own are named for
the mechanism (``library``, ``permanents``, ``payment``, ``chance``). The rest of the engine
reaches ops through this registry (:data:`OPS`), and imports from an op module only the
continuation of that op's own question (``payment.can_pay``, ``damage.shield_from_chosen_source``,
run by :mod:`mtg_env.engine.choices` once the player has answered).

An op is registered with :func:`op`, which names it and declares each parameter's kind
(:class:`Param`): ``amount``, ``ref`` (an object or player reference), ``players`` (a player
reference), ``filter`` (permanents or cards), ``bool``, ``int``, ``enum``, ``keywords``, ``text``,
``words`` (a list of words, optionally from a fixed set), ``choices`` (a list of
sub-mappings, each with declared parameters), ``effects`` (a list of effects run by the op,
such as the outcomes of a coin flip), ``abilities`` (activated abilities the op grants; checked
here as mappings, compiled by the card loader). That declaration is the
only definition of the op's card-data format: the loader checks and compiles an effect dict
against it once (:func:`compile_effect`) and the card JSON schema is assembled from it
(:func:`effect_schema`), so adding an op is one local change.

The engine dispatches through :data:`OPS` as ``OPS[name](game, stack_item, spec)``; the op body
gets ``(game, stack_item, args)`` where ``args`` holds the compiled parameters as attributes
(an amount or reference is a function of ``(game, stack_item)``). A dict built at run time
(a rules trigger's effect) is compiled when it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import MtgError
from ..filters import T_BOOL, T_INT, T_KEYWORD, Site, compile_filter, suggest_names
from ..references import compile_amount, compile_ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


class Param:
    """One declared parameter of an op: its kind, whether it is required, its default, and
    (for ``enum``) the allowed words, (for ``filter``) the context, (for ``choices``) the
    sub-parameters."""

    __slots__ = ("allow", "choices", "context", "default", "doc", "kind", "other", "required",
                 "sub")

    def __init__(self, kind: str, required: bool = False, default: Any = None, doc: str = "",
                 choices: tuple[str, ...] = (), context: str = "permanent",
                 sub: dict[str, Param] | None = None, other: bool = False,
                 allow: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.required = required
        self.default = default
        self.doc = doc
        self.choices = choices
        self.context = context
        self.sub = sub or {}
        self.other = other  # a ``filter`` may say ``other: true`` (the op excludes the source)
        self.allow = allow  # for a filter: the dynamic values the op binds (filters.DYNAMIC_NAMES)

    def compile(self, v: Any, site: Site, name: str) -> Any:
        """Check a value from card data and compile it."""
        k = self.kind
        if k == "amount":
            return compile_amount(v, site)
        if k == "ref":
            return compile_ref(v, site)
        if k == "players":
            return compile_ref(v, site, players=True)
        if k == "filter":
            return compile_filter(v, self.context, site, other=self.other and site.source,
                                  allow=self.allow)
        if k == "effects":
            if not isinstance(v, list):
                raise site.error(f"{name!r} must be a list of effects, not {v!r}")
            return tuple(compile_effect(e, site.at(i)) for i, e in enumerate(v))
        if k == "bool":
            T_BOOL.check(v, site, name)
            return v
        if k == "int":
            T_INT.check(v, site, name)
            if v < 0:
                raise site.error(f"{name!r} must not be negative, not {v}")
            return v
        if k == "enum":
            if v not in self.choices:
                raise site.error(f"{name!r} must be one of {list(self.choices)}, not {v!r}"
                                 + suggest_names(v, self.choices))
            return v
        if k == "keywords":
            if not isinstance(v, list) or not v:
                raise site.error(f"{name!r} must be a list of keywords, not {v!r}")
            for w in v:
                T_KEYWORD.check(w, site, name)
            return tuple(v)
        if k == "text":
            if not isinstance(v, str):
                raise site.error(f"{name!r} must be text, not {v!r}")
            return v
        if k == "words":
            if not isinstance(v, list) or not v or not all(isinstance(w, str) for w in v):
                raise site.error(f"{name!r} must be a list of words, not {v!r}")
            for w in v:
                if self.choices and w not in self.choices:
                    raise site.error(f"{name!r}: {w!r} is not one of {list(self.choices)}"
                                     + suggest_names(w, self.choices))
            return tuple(v)
        if k == "abilities":
            if not isinstance(v, list) or not v or not all(isinstance(x, dict) for x in v):
                raise site.error(f"{name!r} must be a non-empty list of activated abilities")
            return tuple(v)
        if k == "choices":
            if not isinstance(v, list):
                raise site.error(f"{name!r} must be a list, not {v!r}")
            return tuple(_compile_params(self.sub, e, site.at(i), f"{name} entry")
                         for i, e in enumerate(v))
        raise MtgError(f"engine error: parameter kind {k!r}")

    def schema(self) -> dict[str, Any]:
        """The JSON schema of this parameter's value (the load-time compile checks deeper)."""
        k = self.kind
        if k == "amount":
            return {"oneOf": [{"type": "integer"}, {"enum": ["X", "-X"]}, {"type": "object"}]}
        if k in ("ref", "players"):
            return {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"},
                              {"type": "object"}]}
        if k == "filter":
            return {"type": "object"}
        if k == "bool":
            return {"type": "boolean"}
        if k == "int":
            return {"type": "integer", "minimum": 0}
        if k == "enum":
            return {"type": "string", "enum": list(self.choices)}
        if k == "keywords":
            return {"type": "array", "items": {"type": "string"}}
        if k == "text":
            return {"type": "string"}
        if k == "words":
            return {"type": "array", "items": {"type": "string"}}
        if k == "effects":
            return {"type": "array", "items": {"type": "object", "required": ["op"]}}
        if k == "abilities":
            return {"type": "array", "items": {"type": "object", "required": ["cost"]}}
        return {"type": "array", "items": _object_schema(self.sub)}


class Args:
    """The compiled parameters of one effect, as attributes (defaults filled in)."""

    if TYPE_CHECKING:
        # Each op has its own parameters (set by _compile_params): any name, any type.
        def __getattr__(self, name: str) -> Any: ...

    def __repr__(self) -> str:
        return f"Args({vars(self)!r})"


def _compile_params(params: dict[str, Param], raw: Any, site: Site, what: str) -> Args:
    if not isinstance(raw, dict):
        raise site.error(f"{what} must be a mapping, not {raw!r}")
    args = Args()
    for k in raw:
        if k != "op" and k not in params:
            raise site.error(f"{what} has unknown key {k!r}" + suggest_names(k, params)
                             + f" (allowed: {sorted(params)})")
    for name, p in params.items():
        if name in raw:
            v = p.compile(raw[name], site.at(name), name)
        elif p.required:
            raise site.error(f"{what} needs {name!r}")
        elif p.default is not None and p.kind in ("amount", "ref", "players", "filter"):
            v = p.compile(p.default, site.at(name), name)
        else:
            v = p.default
        setattr(args, name, v)
    return args


def _object_schema(params: dict[str, Param], op_name: str | None = None) -> dict[str, Any]:
    # Unknown keys are left to compile_effect, whose message has a did-you-mean.
    props = {k: p.schema() for k, p in params.items()}
    if op_name is not None:
        props["op"] = {"const": op_name}
    return {"type": "object", "properties": props,
            "required": sorted(k for k, p in params.items() if p.required)}


# An op's body: ``fn(game, stack_item, args)`` (see :func:`op`).
OpBody = Callable[["Game", "StackItem", Args], None]


class OpDef:
    """A registered op: its name, body, declared parameters and docstring."""

    __slots__ = ("doc", "fn", "name", "params")

    def __init__(self, name: str, fn: OpBody, params: dict[str, Param]) -> None:
        self.name = name
        self.fn = fn
        self.params = params
        self.doc = (fn.__doc__ or "").strip().split("\n\n")[0]


OpFn = Callable[["Game", "StackItem", dict[str, Any]], None]
# The registry the engine dispatches through: op name -> run(game, stack_item, effect dict).
OPS: dict[str, OpFn] = {}
OP_DEFS: dict[str, OpDef] = {}


class Effect(dict[str, Any]):
    """An effect from card data: the dict as written (read by agents and shown in logs) plus its
    parameters compiled at load (``args``)."""

    __slots__ = ("args",)
    args: Args


def op(name: str, **params: Param) -> Callable[[OpBody], OpBody]:
    """Register an op body ``fn(game, stack_item, args)`` under ``name`` with its parameters."""

    def deco(fn: OpBody) -> OpBody:
        odef = OpDef(name, fn, params)
        OP_DEFS[name] = odef

        def run(g: Game, item: StackItem, spec: dict[str, Any]) -> None:
            fn(g, item, effect_args(spec))

        OPS[name] = run
        return fn

    return deco


def effect_args(spec: dict[str, Any]) -> Args:
    """The compiled parameters of an effect: those of card data (an :class:`Effect`), or compiled
    now from plain data (the effects a rules or delayed trigger carries, after a JSON load)."""
    if isinstance(spec, Effect):
        return spec.args
    name = spec["op"]
    return _compile_params(OP_DEFS[name].params, spec, Site(source=True, event=""),
                           f"effect {name!r}")


def compile_effect(raw: Any, site: Site) -> Effect:
    """Check one effect dict against its op's declared parameters and compile it."""
    if not isinstance(raw, dict) or "op" not in raw:
        raise site.error(f"an effect must be a mapping with 'op', not {raw!r}")
    name = raw["op"]
    odef = OP_DEFS.get(name)
    if odef is None:
        raise site.error(f"unknown effect op {name!r}" + suggest_names(name, OP_DEFS)
                         + f" (known: {sorted(OP_DEFS)})")
    eff = Effect(raw)
    eff.args = _compile_params(odef.params, raw, site, f"effect {name!r}")
    return eff


def run_effects(g: Game, item: StackItem, effects: tuple[Effect, ...]) -> None:
    """Run effects nested in an op (a coin flip's outcome) in order. They must not ask a player
    anything: a question would be answered only after the later effects had run."""
    for spec in effects:
        n = len(g.frames)
        OPS[spec["op"]](g, item, spec)
        if len(g.frames) != n and spec is not effects[-1]:
            raise MtgError(f"engine error: nested effect {spec['op']!r} asks a question "
                           "before other effects")


def effect_schema() -> dict[str, Any]:
    """The JSON schema of an effect, assembled from the op declarations."""
    return {"type": "object", "required": ["op"],
            "properties": {"op": {"type": "string", "enum": sorted(OP_DEFS)}},
            "allOf": [{"if": {"properties": {"op": {"const": n}}},
                       "then": _object_schema(d.params, n)} for n, d in sorted(OP_DEFS.items())]}



def amount(**kw: Any) -> Param:
    return Param("amount", **kw)


def ref(**kw: Any) -> Param:
    return Param("ref", **kw)


def players(**kw: Any) -> Param:
    return Param("players", **kw)


def flag(doc: str = "") -> Param:
    return Param("bool", default=False, doc=doc)


def until() -> Param:
    return Param("enum", default="eot", choices=("eot", "forever"),
                 doc="when the effect ends: end of turn, or never")


from . import (  # noqa: E402  (the op modules register themselves with the machinery above)
    chance,
    damage,
    layers,
    library,
    mana,
    payment,
    permanents,
    stack,
    turn_structure,
    zones,
)

__all__ = ["OPS", "OP_DEFS", "Effect", "Param", "chance", "compile_effect", "damage", "effect_schema",
           "layers", "library", "mana", "op", "payment", "permanents", "stack", "turn_structure",
           "zones"]
