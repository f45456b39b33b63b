"""Property-based tests (hypothesis) of :meth:`Game.from_json`: JSON game states taken from real
games of several deck pairings are mutated (keys deleted, values of another type, ids swapped,
integers out of range, lists and text truncated). Each mutated state either raises
:class:`StateError` at load or loads and then plays on to the end with random legal actions
without any exception that is not an :class:`MtgError`.

Example counts are bounded so the test takes seconds; ``MTG_FUZZ_EXAMPLES=5000`` runs a long,
randomized session.
"""

from __future__ import annotations

import json
import os
import random
from functools import cache
from typing import Any

import pytest

from mtg_env import Game, MtgError
from mtg_env.engine.errors import StateError

PAIRINGS = [("starter_green", "starter_red"), ("starter_white", "starter_blue_black"),
            ("arcaniss_guile", "evincars_tyranny"), ("kamahls_temper", "molimos_might"),
            ("cho_mannos_resolve", "starter_green")]
PLAY_ON_LIMIT = 3000  # actions after loading; a mutated turn cap may be huge


@cache
def base_states() -> tuple[str, ...]:
    """JSON states at varied decisions of seeded random games (frames, stack, effects, combat)."""
    out: list[str] = []
    for gi, pair in enumerate(PAIRINGS):
        for seed in range(2):
            g = Game.new(list(pair), seed=100 * gi + seed, max_turns=30)
            rng = random.Random(seed)
            kinds: dict[str, int] = {}
            while not g.is_over:
                d = g.decision
                key = f"{d.kind.value}/{len(g.frames)}/{len(g.stack) > 0}"
                if kinds.get(key, 0) < 2 and rng.random() < 0.5:
                    kinds[key] = kinds.get(key, 0) + 1
                    out.append(g.to_json())
                opts = [o for o in d.options if o.verb != "mana"] or d.options
                g.apply(rng.choice(opts))
    return tuple(out)


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _ints(obj: Any) -> list[int]:
    if isinstance(obj, bool):
        return []
    if isinstance(obj, int):
        return [obj]
    if isinstance(obj, dict):
        return [i for v in obj.values() for i in _ints(v)]
    if isinstance(obj, list):
        return [i for v in obj for i in _ints(v)]
    return []


OTHER_VALUES: list[Any] = [None, True, False, 0, 1, -1, 2, 3, 10**9, -(10**9), 10**30, 1.5, float("inf"),
                           "", "x", "Forest", "pass", "precombat_main", [], [1], [[1, "p"]], {}, {"k": 1},
                           {"$ability": ["Forest", "activated", 0]}, {"$ability": "x"}]


def mutate(text: str, rng: random.Random, n: int) -> str:
    """``n`` random mutations of a JSON state (the last may truncate the text itself)."""
    d = json.loads(text)
    for _ in range(n):
        op = rng.choice(["delete", "retype", "swap_id", "out_of_range", "truncate_list", "dup_list",
                         "truncate_text"])
        if op == "truncate_text":
            s = json.dumps(d)
            return s[: rng.randrange(len(s))]
        paths = [p for p in _paths(d) if p]
        path = rng.choice(paths)
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        value = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = rng.choice(OTHER_VALUES)
        elif op == "swap_id":
            ints = _ints(d)
            if isinstance(value, int) and not isinstance(value, bool) and ints:
                parent[key] = rng.choice(ints)
            else:
                parent[key] = rng.choice(ints or [0])
        elif op == "out_of_range":
            parent[key] = rng.choice([-1, -2, 2, 3, 7, 99, 10**6, 2**63])
        elif op == "truncate_list" and isinstance(value, list | dict) and value:
            if isinstance(value, list):
                del value[rng.randrange(len(value)):]
            else:
                del value[rng.choice(list(value))]
        elif op == "dup_list" and isinstance(value, list) and value:
            value.append(json.loads(json.dumps(rng.choice(value))))
    return json.dumps(d)


def load_and_play(text: str, seed: int) -> str:
    """Load a (mutated) state and play it to the end: ``"rejected"``, ``"played"`` or raise."""
    try:
        g = Game.from_json(text)
    except StateError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg, msg
        return "rejected"
    rng = random.Random(seed)
    for _ in range(PLAY_ON_LIMIT):
        if g.is_over:
            break
        opts = g.decision.options
        if rng.random() < 0.9:
            opts = [o for o in opts if o.verb != "mana"] or opts
        g.apply(rng.choice(opts))
    return "played"


hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the [dev] extra")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LONG = int(os.environ.get("MTG_FUZZ_EXAMPLES", "0"))


@settings(max_examples=_LONG or 150, deadline=None, derandomize=not _LONG, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.integers(min_value=0, max_value=10**6), st.integers(1, 3))
def test_mutated_states_load_and_play_or_raise_state_error(which: int, seed: int, n: int) -> None:
    states = base_states()
    text = mutate(states[which % len(states)], random.Random(seed), n)
    try:
        outcome = load_and_play(text, seed)
    except MtgError:
        outcome = "project error in play"
    hypothesis.event(outcome)
