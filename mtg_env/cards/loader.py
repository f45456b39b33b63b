"""Load card definitions: facts (cost, types, P/T, printed text) from ``data/facts.json`` and
rules from the YAML files in ``data/``, validated against :mod:`mtg_env.cards.schema`."""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
from importlib.metadata import version
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from mtg_env.engine import registry
from mtg_env.engine.abilities import ActivatedAbility, Cost, StaticAbility, TargetSpec, TriggeredAbility
from mtg_env.engine.ability_vocabulary import check_condition_spec, check_trigger_condition_spec
from mtg_env.engine.errors import CardDataError
from mtg_env.engine.filters import Site
from mtg_env.engine.mana_cost import ManaCost
from mtg_env.engine.model import BASIC_LAND_TYPES, CardDef
from mtg_env.engine.ops import Effect, compile_effect

from . import text_change
from .schema import FILE_SCHEMA

DATA_DIR = Path(__file__).resolve().parent / "data"


def load_facts() -> dict[str, dict]:
    """Every Tenth Edition card's printed facts, by name (tokens under ``"tokens"``)."""
    return json.loads((DATA_DIR / "facts.json").read_text())


def _pt(v: str | None) -> int | str | None:
    if v is None:
        return None
    return int(v) if v.lstrip("-").isdigit() else v


def _subtypes(facts: dict) -> frozenset[str]:
    """Every subtype a Tenth Edition card or token has (what a ``subtype`` filter may name)."""
    out = {st for f in facts.get("cards", facts).values() for st in (f.get("subtypes") or ())}
    out |= {st for f in facts.get("tokens", {}).values() for st in (f.get("subtypes") or ())}
    return frozenset(out)


_SUBTYPES: frozenset[str] | None = None


def known_subtypes() -> frozenset[str]:
    """The subtypes of every Tenth Edition card and token (read once from facts.json)."""
    global _SUBTYPES
    if _SUBTYPES is None:
        _SUBTYPES = _subtypes(load_facts())
    return _SUBTYPES


def _target(raw: Any, site: Site) -> TargetSpec:
    if isinstance(raw, str):
        return TargetSpec(raw, {}, raw.replace("_", " "), site=site)
    return TargetSpec(raw["kind"], raw.get("filters"),
                      raw.get("text", raw["kind"].replace("_", " ")), site=site,
                      distinct=raw.get("distinct", False), count=raw.get("count"),
                      divided=raw.get("divided", False))


def _targets(raw: list, site: Site, trigger: bool = False) -> tuple[TargetSpec, ...]:
    out = tuple(_target(t, site.at("targets").at(i)) for i, t in enumerate(raw or ()))
    for i, t in enumerate(out[:-1]):
        if t.count is not None:
            raise site.at("targets").at(i).error(
                "a target with a 'count' must be the ability's last target")
    if out and out[-1].count in ("X", "up_to_X") and not site.x:
        raise site.error("a target count of X needs an X in the cost")
    if out and out[-1].divided and out[-1].count != "up_to_X":
        raise site.at("targets").at(len(out) - 1).error(
            "a 'divided' target needs 'count: up_to_X' (any number of targets)")
    if out and out[-1].count == "up_to_event_amount" and not trigger:
        raise site.error("'up_to_event_amount' is only meaningful in a triggered ability")
    return out


def _check_divided(targets: tuple[TargetSpec, ...], effects: tuple[Effect, ...],
                   site: Site) -> None:
    """A ``divided`` target spec and a ``divided`` effect go together: exactly one effect
    divides its amount, among the targets of the (last, counted) divided spec."""
    divides = [e for e in effects if getattr(e.args, "divided", False)]
    spec = targets[-1] if targets else None
    if spec is not None and spec.divided:
        if len(divides) != 1 or divides[0].get("target") != len(targets) - 1:
            raise site.error("a 'divided' target needs exactly one effect with 'divided: true' "
                             f"and 'target: {len(targets) - 1}'")
    elif divides:
        raise site.error("an effect with 'divided: true' needs a 'divided' target spec")


def _effects(raw: list[dict], site: Site) -> tuple[Effect, ...]:
    """Check and compile each effect against its op's declared parameters; activated abilities
    an op grants (``animate``'s ``abilities``, 2007 CR 418.5 layer 5) are compiled here."""
    out = []
    for i, e in enumerate(raw or ()):
        esite = site.at("effects").at(i)
        eff = compile_effect(e, esite)
        granted = getattr(eff.args, "abilities", None)
        if granted and isinstance(granted[0], dict):
            asite = Site(esite.where, subtypes=site.subtypes).at("abilities")
            eff.args.abilities = tuple(_activated(j, ab, asite.at(j))
                                       for j, ab in enumerate(granted))
        out.append(eff)
    return tuple(out)


def _cost(raw: dict | None, site: Site) -> Cost:
    raw = raw or {}
    return Cost(mana=ManaCost.parse(raw.get("mana", "")), tap=raw.get("tap", False),
                sacrifice_self=raw.get("sacrifice_self", False), sacrifice=raw.get("sacrifice"),
                discard=raw.get("discard", 0), pay_life=raw.get("pay_life", 0),
                site=site.at("sacrifice"), discard_filter=raw.get("discard_filter"),
                sacrifice_all=raw.get("sacrifice_all"))


def _check_custom(name: str | None, where: str) -> None:
    from . import custom  # noqa: F401  (registers the escape hatches, whichever loader runs first)

    if name is not None and name not in registry.CUSTOM:
        raise CardDataError(f"{where}: custom function {name!r} is not registered "
                            "(see mtg_env/cards/custom.py)")


def _activated(index: int, raw: dict, site: Site) -> ActivatedAbility:
    """One activated ability from card data, checked and compiled (printed or granted)."""
    _check_custom(raw.get("custom"), site.where)
    targets = _targets(raw.get("targets", ()), site)
    if "condition" in raw:
        check_condition_spec(raw["condition"], site.at("condition"))
    esite = Site(site.where, x=raw.get("x", False), targets=tuple(t.kind for t in targets),
                 source=True, subtypes=site.subtypes)
    return ActivatedAbility(
        index, _cost(raw["cost"], site.at("cost")), targets,
        _effects(raw.get("effects", ()), esite), raw.get("sorcery_speed", False),
        raw.get("once_per_turn", False), _adds(raw, site),
        raw.get("amount", 1), raw.get("text", ""), x=raw.get("x", False),
        custom=raw.get("custom"), condition=raw.get("condition"),
        max_per_turn=raw.get("max_per_turn", 0))


def _adds(raw: dict, site: Site) -> tuple[str, ...] | None:
    """What a mana ability's ``add`` becomes: one entry per choice, each the mana symbols it
    adds together (``add_all``: one entry, ``"WUBRG"``; an empty list: ``("",)``, no mana of its
    own). None: not a mana ability."""
    if "add" not in raw:
        if "add_all" in raw:
            raise site.error("'add_all' needs 'add'")
        return None
    add = raw["add"]
    if not add:
        if "add_all" in raw or not raw.get("effects"):
            raise site.error("a mana ability adding no mana itself needs effects and no add_all")
        return ("",)
    return ("".join(add),) if raw.get("add_all") else tuple(add)


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
    card_site = Site(where, x="{X}" in (facts.get("mana_cost") or ""), source=False,
                     subtypes=known_subtypes())
    perm_site = Site(where, source=True, subtypes=card_site.subtypes)
    for i, raw in enumerate(entry.get("activated", ())):
        activated.append(_activated(len(activated), raw, perm_site.at("activated").at(i)))
    if "equip" in entry:
        activated.append(ActivatedAbility(
            len(activated), Cost(mana=ManaCost.parse(entry["equip"])),
            (TargetSpec("creature", {"controller": "you"}, "target creature you control"),),
            (compile_effect({"op": "attach", "target": 0},
                            Site(f"{where}/equip", targets=("creature",))),),
            sorcery_speed=True, text=f"Equip {entry['equip']}"))
    triggered: list[TriggeredAbility] = []
    zone_triggered: list[TriggeredAbility] = []
    for i, raw in enumerate(entry.get("triggered", ())):
        site = perm_site.at("triggered").at(i)
        _check_custom(raw.get("custom"), site.where)
        targets = _targets(raw.get("targets", ()), site, trigger=True)
        esite = Site(site.where, targets=tuple(t.kind for t in targets), event=raw["event"],
                     source=True, subtypes=site.subtypes)
        if "if" in raw:  # an intervening "if" clause (2007 CR 410.11)
            check_trigger_condition_spec(raw["if"], raw["event"], site.at("if"))
        zone = raw.get("zone", "in_play")
        # An ability working from the graveyard (2012 112.6) is kept apart: a permanent
        # never has it, and the game watches only the few cards that do.
        into = zone_triggered if zone == "graveyard" else triggered
        into.append(TriggeredAbility(
            len(into), raw["event"], raw.get("filters"), targets,
            _effects(raw.get("effects", ()), esite), raw.get("optional", False),
            raw.get("text", ""), custom=raw.get("custom"), condition=raw.get("if"),
            site=site.at("filters"), zone=zone))
    static = []
    for si, raw in enumerate(entry.get("static", ())):
        params = {k: v for k, v in raw.items() if k not in ("kind", "affects", "text")}
        if "abilities" in params:  # abilities the static ability grants (2007 CR 418.5 layer 5)
            gsite = perm_site.at("static").at(si).at("abilities")
            params["abilities"] = tuple(_activated(j, ab, gsite.at(j))
                                        for j, ab in enumerate(params["abilities"]))
        static.append(StaticAbility(raw["kind"], raw.get("affects", "self"), params,
                                    raw.get("text", ""), site=perm_site.at("static").at(si)))
    spell = entry.get("spell") or {}
    _check_custom(spell.get("custom"), where)
    spell_site = card_site.at("spell")
    spell_targets = _targets(spell.get("targets", ()), spell_site)
    spell_effects = _effects(spell.get("effects", ()), Site(
        spell_site.where, x=card_site.x, targets=tuple(t.kind for t in spell_targets),
        source=False, subtypes=card_site.subtypes))
    _check_divided(spell_targets, spell_effects, spell_site)
    modes = []
    for i, m in enumerate(entry.get("modes", ())):
        msite = card_site.at("modes").at(i)
        mtargets = _targets(m.get("targets", ()), msite)
        modes.append({"text": m.get("text", ""), "targets": mtargets,
                      "effects": _effects(m.get("effects", ()), Site(
                          msite.where, x=card_site.x, targets=tuple(t.kind for t in mtargets),
                          source=False, subtypes=card_site.subtypes))})
    add_cost = (_cost(entry["additional_cost"], card_site.at("additional_cost"))
                if "additional_cost" in entry else None)
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
        spell_targets=spell_targets,
        spell_effects=spell_effects,
        activated=tuple(activated),
        triggered=tuple(triggered),
        static=tuple(static),
        enchant=_target(entry["enchant"], perm_site.at("enchant")) if "enchant" in entry else None,
        is_token=bool(facts.get("token")),
        modes=tuple(modes),
        spell_custom=spell.get("custom"),
        additional_cost=add_cost,
        x_color=entry.get("x_color"),
        zone_triggered=tuple(zone_triggered),
    )
    if ("Instant" in types or "Sorcery" in types) and not (
            cdef.spell_effects or cdef.spell_custom or cdef.modes):
        raise CardDataError(f"{where}: an instant or sorcery needs spell effects")
    if "Aura" in subtypes and cdef.enchant is None:
        raise CardDataError(f"{where}: an Aura needs 'enchant'")
    return cdef


# libyaml's parser when PyYAML was built with it (PyPI's wheels are): the same documents, about
# ten times faster than the pure-Python one, and the card files are read at every start.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def _file_validator() -> jsonschema.protocols.Validator:
    """One validator for every file: ``jsonschema.validate`` would check the (large, generated)
    schema itself again for each file, which cost most of the loading time. The schema's own
    validity is checked by a test."""
    return jsonschema.validators.validator_for(FILE_SCHEMA)(FILE_SCHEMA)


@functools.cache
def _schema_digest() -> bytes:
    """What a file's schema check depends on besides the file: the schema and the validator's
    version."""
    text = json.dumps(FILE_SCHEMA, sort_keys=True, default=str) + version("jsonschema")
    return hashlib.sha256(text.encode()).digest()


def file_digest(text: str) -> str:
    """The key of a card file's text in the cache of files that passed the schema check."""
    return hashlib.sha256(_schema_digest() + text.encode()).hexdigest()


def validation_cache_path() -> Path | None:
    """The file listing the digests of card files that passed the schema check, so an unchanged
    file isn't checked again at every start (the check is most of the loading time).
    ``$MTG_ENV_CACHE`` names its directory (empty or ``0``: no cache); the default is
    ``$XDG_CACHE_HOME/mtg_env`` or ``~/.cache/mtg_env``."""
    env = os.environ.get("MTG_ENV_CACHE")
    if env is not None:
        return None if env in ("", "0") else Path(env) / "validated_card_files.json"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "mtg_env" / "validated_card_files.json"


_CACHE_KEEP = 256  # digests kept: the current files of a few installs sharing one cache


def _read_validated(path: Path | None) -> list[str]:
    if path is None:
        return []
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return []  # none yet, unreadable or damaged: every file is checked
    return [d for d in data if isinstance(d, str)] if isinstance(data, list) else []


def _write_validated(path: Path | None, digests: list[str]) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(digests[:_CACHE_KEEP]))
        os.replace(tmp, path)  # atomic: processes starting together don't see half a file
    except OSError:
        pass  # a read-only home: the files are checked at every start, as without a cache


def yaml_problem(exc: yaml.YAMLError) -> str:
    """A YAML syntax error on one line, where it is: ``line 2, column 1: expected the node
    content, but found '<stream end>' (while parsing a flow node)``."""
    mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
    if mark is None or not problem:
        return " ".join(str(exc).split())
    context = getattr(exc, "context", None)
    return (f"line {mark.line + 1}, column {mark.column + 1}: {problem}"
            + (f" ({context})" if context else ""))


# What an enum-checked key's value is called in an error ("unknown effect op 'destory'").
_ENUM_NAMES = {"op": "effect op", "event": "trigger event", "keywords": "keyword",
               "targets": "target kind", "enchant": "target kind", "zone": "zone",
               "count": "target count", "add": "mana symbol", "x_color": "X color"}


def _close(word: str, choices: list[str]) -> str:
    """``; did you mean 'x' or 'y'?`` for a misspelt ``word`` (a case slip first), or ``""``."""
    lower = [c for c in choices if c.lower() == word.lower() and c != word]
    close = lower + [c for c in difflib.get_close_matches(word, choices, n=2, cutoff=0.6)
                     if c not in lower]
    return f"; did you mean {' or '.join(repr(c) for c in close[:2])}?" if close else ""


def schema_message(exc: jsonschema.ValidationError) -> str:
    """The schema check's message, with a "did you mean" for a misspelt name: a value out of a
    list (an effect op, trigger event, keyword, target or static ability kind) reads like the
    compiler's ``unknown effect op 'destory'; did you mean 'destroy'? (known: [...])``, an
    unknown key like ``unknown key 'tagets'; did you mean 'targets'? (allowed: [...])``."""
    keys = [p for p in exc.absolute_path if isinstance(p, str)]
    if exc.validator == "enum" and isinstance(exc.instance, str) and keys:
        known = [str(v) for v in exc.validator_value]
        what = _ENUM_NAMES.get(keys[-1], keys[-1])
        if keys[-1] == "kind":
            what = ("target kind" if len(keys) > 1 and keys[-2] in ("targets", "enchant")
                    else "static ability kind" if len(keys) > 1 and keys[-2] == "static"
                    else "kind")
        return f"unknown {what} {exc.instance!r}{_close(exc.instance, known)} (known: {known})"
    if (exc.validator == "additionalProperties" and exc.validator_value is False
            and isinstance(exc.instance, dict)):
        allowed = sorted(exc.schema.get("properties", {}))
        extra = [k for k in exc.instance if k not in allowed]
        if len(extra) == 1 and isinstance(extra[0], str):
            return f"unknown key {extra[0]!r}{_close(extra[0], allowed)} (allowed: {allowed})"
    return exc.message


def load_file(path: Path, facts: dict[str, dict],
              validated: set[str] | None = None) -> list[CardDef]:
    """Validate and build every card of one YAML file. A file whose digest
    (:func:`file_digest`) is in ``validated`` passed the schema check before and isn't checked
    again; one that passes now has its digest added."""
    text = path.read_text()
    try:
        data = yaml.load(text, Loader=_YAML_LOADER) or {}
    except yaml.YAMLError as exc:
        raise CardDataError(f"{path.name}: not valid YAML: {yaml_problem(exc)}") from exc
    digest = file_digest(text) if validated is not None else ""
    if validated is None or digest not in validated:
        exc = jsonschema.exceptions.best_match(_file_validator().iter_errors(data))
        if exc is not None:
            loc = "/".join(str(p) for p in exc.absolute_path)
            raise CardDataError(f"{path.name}: {loc}: {schema_message(exc)}")
        if validated is not None:
            validated.add(digest)
    out = []
    for name, entry in data.items():
        if name not in facts:
            raise CardDataError(f"{path.name}: {name!r} is not a Tenth Edition card")
        out.append(build_card(name, facts[name], entry, path.name))
        text_change.RAW[name] = (facts[name], entry, path.name)
    return out


def load_all() -> None:
    """Fill the engine registry: implemented cards from YAML, every other 10E name as known
    but unimplemented."""
    from . import custom  # noqa: F401  (registers the Python escape hatches)

    registry.register_text_changer(text_change.text_changed_card)

    allfacts = load_facts()
    facts = allfacts["cards"]
    cache = validation_cache_path()
    known = _read_validated(cache)
    before = set(known)
    validated = set(before)
    for path in sorted(DATA_DIR.glob("*.yaml")):
        for cdef in load_file(path, facts, validated):
            registry.register(cdef)
    if validated != before:  # newest first, so the oldest are dropped past _CACHE_KEEP
        _write_validated(cache, sorted(validated - before) + known)
    for name in facts:
        registry.register_unimplemented(name)
    for tname, tf in allfacts["tokens"].items():
        kws = frozenset(k.lower().replace(" ", "_") for k in (tf.get("text") or "").split(", ") if k)
        registry.register(CardDef(
            name=tname, cost=ManaCost(), colors=frozenset(tf.get("colors") or ()),
            types=frozenset(tf.get("types") or ()), subtypes=tuple(tf.get("subtypes") or ()),
            power=_pt(tf.get("power")), toughness=_pt(tf.get("toughness")),
            text=tf.get("text") or "", keywords=kws, is_token=True))
