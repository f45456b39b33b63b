"""Load card definitions: facts (cost, types, P/T, printed text) from ``data/facts.json`` and
rules from the YAML files in ``data/``, validated against :mod:`mtg_env.cards.schema`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from mtg_env.engine import effects as engine_effects
from mtg_env.engine import registry
from mtg_env.engine.errors import CardDataError
from mtg_env.engine.model import (
    BASIC_LAND_TYPES,
    ActivatedAbility,
    CardDef,
    Cost,
    ManaCost,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
)

from .schema import FILE_SCHEMA, OP_KEYS

DATA_DIR = Path(__file__).resolve().parent / "data"


def load_facts() -> dict[str, dict]:
    """Every Tenth Edition card's printed facts, by name (tokens under ``"tokens"``)."""
    return json.loads((DATA_DIR / "facts.json").read_text())


def _pt(v: str | None) -> int | str | None:
    if v is None:
        return None
    return int(v) if v.lstrip("-").isdigit() else v


def _target(raw: Any) -> TargetSpec:
    if isinstance(raw, str):
        return TargetSpec(raw, {}, raw.replace("_", " "))
    return TargetSpec(raw["kind"], raw.get("filters"), raw.get("text", raw["kind"].replace("_", " ")))


def _effects(raw: list[dict], where: str) -> tuple[dict, ...]:
    out = []
    for e in raw or ():
        name = e["op"]
        if name not in engine_effects.OPS or name not in OP_KEYS:
            raise CardDataError(f"{where}: unknown effect op {name!r}; known: {sorted(OP_KEYS)}")
        extra = set(e) - {"op"} - OP_KEYS[name]
        if extra:
            raise CardDataError(f"{where}: effect {name!r} has unknown key(s) {sorted(extra)}; "
                                f"allowed: {sorted(OP_KEYS[name])}")
        out.append(dict(e))
    return tuple(out)


def _cost(raw: dict | None) -> Cost:
    raw = raw or {}
    return Cost(mana=ManaCost.parse(raw.get("mana", "")), tap=raw.get("tap", False),
                sacrifice_self=raw.get("sacrifice_self", False), sacrifice=raw.get("sacrifice"),
                discard=raw.get("discard", 0), pay_life=raw.get("pay_life", 0))


def _check_custom(name: str | None, where: str) -> None:
    if name is not None and name not in registry.CUSTOM:
        raise CardDataError(f"{where}: custom function {name!r} is not registered "
                            "(see mtg_env/cards/custom.py)")


def _granted(raws: list[dict], where: str) -> tuple[ActivatedAbility, ...]:
    out = []
    for j, raw in enumerate(raws):
        w = f"{where} abilities[{j}]"
        _check_custom(raw.get("custom"), w)
        out.append(ActivatedAbility(
            j, _cost(raw["cost"]), tuple(_target(t) for t in raw.get("targets", ())),
            _effects(raw.get("effects", ()), w), raw.get("sorcery_speed", False),
            raw.get("once_per_turn", False), tuple(raw["add"]) if "add" in raw else None,
            raw.get("amount", 1), raw.get("text", ""), x=raw.get("x", False),
            custom=raw.get("custom"), condition=raw.get("condition"),
            max_per_turn=raw.get("max_per_turn", 0)))
    return tuple(out)


def build_card(name: str, facts: dict, entry: dict, where: str = "") -> CardDef:
    """Build one :class:`CardDef` from its facts and its (validated) YAML entry."""
    where = f"{where}: {name}" if where else name
    printed = facts.get("text") or ""
    if " ".join(entry["text"].split()) != " ".join(printed.split()):
        raise CardDataError(f"{where}: 'text' differs from the printed 2007 text in facts.json:\n"
                            f"  yaml:    {entry['text']!r}\n  printed: {printed!r}")
    types = frozenset(facts.get("types") or ())
    subtypes = tuple(facts.get("subtypes") or ())
    activated: list[ActivatedAbility] = []
    if "Land" in types:
        for st in subtypes:  # 2007 CR 212.6d: basic land types have intrinsic mana abilities
            if st in BASIC_LAND_TYPES:
                activated.append(ActivatedAbility(len(activated), Cost(tap=True),
                                                  mana=(BASIC_LAND_TYPES[st],),
                                                  text=f"{{T}}: Add {{{BASIC_LAND_TYPES[st]}}}."))
    for i, raw in enumerate(entry.get("activated", ())):
        w = f"{where} activated[{i}]"
        _check_custom(raw.get("custom"), w)
        activated.append(ActivatedAbility(
            len(activated), _cost(raw["cost"]), tuple(_target(t) for t in raw.get("targets", ())),
            _effects(raw.get("effects", ()), w), raw.get("sorcery_speed", False),
            raw.get("once_per_turn", False), tuple(raw["add"]) if "add" in raw else None,
            raw.get("amount", 1), raw.get("text", ""), x=raw.get("x", False),
            custom=raw.get("custom"), condition=raw.get("condition"),
            max_per_turn=raw.get("max_per_turn", 0)))
    if "equip" in entry:
        activated.append(ActivatedAbility(
            len(activated), Cost(mana=ManaCost.parse(entry["equip"])),
            (TargetSpec("creature", {"controller": "you"}, "target creature you control"),),
            ({"op": "attach", "target": 0},), sorcery_speed=True,
            text=f"Equip {entry['equip']}"))
    triggered = []
    for i, raw in enumerate(entry.get("triggered", ())):
        w = f"{where} triggered[{i}]"
        _check_custom(raw.get("custom"), w)
        triggered.append(TriggeredAbility(
            i, raw["event"], raw.get("filters"), tuple(_target(t) for t in raw.get("targets", ())),
            _effects(raw.get("effects", ()), w), raw.get("optional", False),
            raw.get("text", ""), custom=raw.get("custom")))
    static = []
    for si, raw in enumerate(entry.get("static", ())):
        params = {k: v for k, v in raw.items() if k not in ("kind", "affects", "text")}
        if "abilities" in params:  # abilities the static ability grants (2007 CR 418.5 layer 5)
            params["abilities"] = _granted(params["abilities"], f"{where} static[{si}]")
        static.append(StaticAbility(raw["kind"], raw.get("affects", "self"), params,
                                    raw.get("text", "")))
    spell = entry.get("spell") or {}
    _check_custom(spell.get("custom"), where)
    modes = tuple({"text": m.get("text", ""),
                   "targets": tuple(_target(t) for t in m.get("targets", ())),
                   "effects": _effects(m.get("effects", ()), f"{where} mode")}
                  for m in entry.get("modes", ()))
    add_cost = _cost(entry["additional_cost"]) if "additional_cost" in entry else None
    cdef = CardDef(
        name=name,
        cost=ManaCost.parse(facts.get("mana_cost") or ""),
        colors=frozenset(facts.get("colors") or ()),
        types=types,
        supertypes=frozenset(facts.get("supertypes") or ()),
        subtypes=subtypes,
        power=_pt(facts.get("power")),
        toughness=_pt(facts.get("toughness")),
        text=printed,
        rarity=facts.get("rarity") or "",
        keywords=frozenset(entry.get("keywords", ())),
        spell_targets=tuple(_target(t) for t in spell.get("targets", ())),
        spell_effects=_effects(spell.get("effects", ()), where),
        activated=tuple(activated),
        triggered=tuple(triggered),
        static=tuple(static),
        enchant=_target(entry["enchant"]) if "enchant" in entry else None,
        is_token=bool(facts.get("token")),
        modes=modes,
        spell_custom=spell.get("custom"),
        additional_cost=add_cost,
        x_color=entry.get("x_color"),
    )
    if ("Instant" in types or "Sorcery" in types) and not (
            cdef.spell_effects or cdef.spell_custom or cdef.modes):
        raise CardDataError(f"{where}: an instant or sorcery needs spell effects")
    if "Aura" in subtypes and cdef.enchant is None:
        raise CardDataError(f"{where}: an Aura needs 'enchant'")
    return cdef


def load_file(path: Path, facts: dict[str, dict]) -> list[CardDef]:
    """Validate and build every card of one YAML file."""
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise CardDataError(f"{path.name}: not valid YAML: {exc}") from exc
    try:
        jsonschema.validate(data, FILE_SCHEMA)
    except jsonschema.ValidationError as exc:
        loc = "/".join(str(p) for p in exc.absolute_path)
        raise CardDataError(f"{path.name}: {loc}: {exc.message}") from exc
    out = []
    for name, entry in data.items():
        if name not in facts:
            raise CardDataError(f"{path.name}: {name!r} is not a Tenth Edition card")
        out.append(build_card(name, facts[name], entry, path.name))
    return out


def load_all() -> None:
    """Fill the engine registry: implemented cards from YAML, every other 10E name as known
    but unimplemented."""
    from . import custom  # noqa: F401  (registers the Python escape hatches)

    allfacts = load_facts()
    facts = allfacts["cards"]
    for path in sorted(DATA_DIR.glob("*.yaml")):
        for cdef in load_file(path, facts):
            registry.register(cdef)
    for name in facts:
        registry.register_unimplemented(name)
    for tname, tf in allfacts["tokens"].items():
        kws = frozenset(k.lower().replace(" ", "_") for k in (tf.get("text") or "").split(", ") if k)
        registry.register(CardDef(
            name=tname, cost=ManaCost(), colors=frozenset(tf.get("colors") or ()),
            types=frozenset(tf.get("types") or ()), subtypes=tuple(tf.get("subtypes") or ()),
            power=_pt(tf.get("power")), toughness=_pt(tf.get("toughness")),
            text=tf.get("text") or "", keywords=kws, is_token=True))
