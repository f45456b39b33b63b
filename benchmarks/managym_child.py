"""The managym half of ``benchmarks/managym_speed.py``: random legal play in manabot's Rust engine.

Runs under the Python 3.12 interpreter that has manabot 0.2.0 installed (its ``managym`` extension
is built for CPython 3.12 only), never under the package's own interpreter, and imports nothing
from ``mtg_env``. It prints one JSON object on stdout; when ``managym`` cannot be imported it prints
one line on stderr and exits 2.

Two ways of playing, each for whole games until at least ``--steps`` steps (both seats' decisions,
``skip_trivial`` on, a uniformly random legal action each step):

- ``env``: ``managym.Env.step``, which hands back a structured ``Observation`` (Python objects for
  the cards, permanents and actions; no arrays). The agent picks an index below
  ``len(obs.action_space.actions)``.
- ``vector``: ``managym.VectorEnv(num_envs=1)`` with ``step_into_buffers``, which writes the encoded
  observation (manabot's training tensors) into numpy buffers every step and resets finished games
  itself: the path manabot's own rollouts take. The agent picks an index below the count of
  ``actions_valid``.

Decks: ``default`` is manabot's default match (``MatchHypers``: both seats play 12 Mountain,
12 Forest, 18 Llanowar Elves, 18 Gray Ogre); ``authored`` is the pair manabot trains on, the
``ur-lessons-vs-gw-allies`` content pack's ``ur_lessons`` against ``gw_allies``.

    .venv-managym/bin/python benchmarks/managym_child.py --steps 20000 --seed 0
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

DEFAULT_DECK = {"Mountain": 12, "Forest": 12, "Llanowar Elves": 18, "Gray Ogre": 18}
AUTHORED_PACK = "ur-lessons-vs-gw-allies"
AUTHORED_KEYS = ("ur_lessons", "gw_allies")
DECK_LABELS = {
    "default": "manabot's default decks (Mountain, Forest, Llanowar Elves, Gray Ogre; mirror)",
    "authored": f"manabot's authored pair ({AUTHORED_PACK}: {' vs '.join(AUTHORED_KEYS)})",
}
MODES = ("env", "vector")
DECKS = ("default", "authored")


def player_configs(managym: Any, decks: str) -> list[Any]:
    """The two seats' ``PlayerConfig`` for ``decks`` (``default`` or ``authored``)."""
    if decks == "default":
        return [managym.PlayerConfig(name, dict(DEFAULT_DECK)) for name in ("gaea", "urza")]
    return [managym.authored_deck_setup(AUTHORED_PACK, key) for key in AUTHORED_KEYS]


def play_env(managym: Any, decks: str, steps: int, seed: int) -> dict[str, Any]:
    """Whole games through ``Env.step`` until at least ``steps`` steps; counts and CPU/wall seconds."""
    env = managym.Env(seed=seed, skip_trivial=True)
    rng = random.Random(seed)
    n = games = truncated = 0
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    obs, _info = env.reset(player_configs(managym, decks))
    while True:
        obs, _reward, term, trunc, _info = env.step(rng.randrange(len(obs.action_space.actions)))
        n += 1
        if term or trunc:
            games += 1
            truncated += bool(trunc)
            if n >= steps:
                break
            obs, _info = env.reset(player_configs(managym, decks))
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return {"steps": n, "games": games, "truncated": truncated, "cpu_s": cpu, "wall_s": wall}


def encoded_shapes(managym: Any, decks: str) -> dict[str, tuple[tuple[int, ...], Any]]:
    """Shape and dtype of each of manabot's observation tensors (from one encoded reset)."""
    env = managym.Env(seed=0, skip_trivial=True)
    obs, _info = env.reset(player_configs(managym, decks))
    return {key: (arr.shape, arr.dtype) for key, arr in env.encode_observation(obs).items()}


def play_vector(managym: Any, decks: str, steps: int, seed: int) -> dict[str, Any]:
    """Whole games through ``VectorEnv(num_envs=1).step_into_buffers`` until at least ``steps``
    steps; counts and CPU/wall seconds."""
    import numpy as np

    buffers = {key: np.zeros((1, *shape), dtype=dtype)
               for key, (shape, dtype) in encoded_shapes(managym, decks).items()}
    buffers.update(rewards=np.zeros(1, dtype=np.float64), terminated=np.zeros(1, dtype=np.uint8),
                   truncated=np.zeros(1, dtype=np.uint8))
    env = managym.VectorEnv(num_envs=1, seed=seed, skip_trivial=True, opponent_policy="none")
    env.set_buffers(buffers)
    rng = random.Random(seed)
    valid = buffers["actions_valid"][0]
    term_buf, trunc_buf = buffers["terminated"], buffers["truncated"]
    count = np.count_nonzero
    n = games = truncated = 0
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    env.reset_all_into_buffers(player_configs(managym, decks))
    while True:
        env.step_into_buffers([rng.randrange(int(count(valid)))])
        n += 1
        if term_buf[0] or trunc_buf[0]:
            games += 1
            truncated += bool(trunc_buf[0])
            if n >= steps:
                break
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return {"steps": n, "games": games, "truncated": truncated, "cpu_s": cpu, "wall_s": wall}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The child's command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000, help="steps per measurement (whole games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decks", default="default,authored",
                    help=f"comma-separated, from {', '.join(DECKS)}")
    ap.add_argument("--modes", default="env,vector", help=f"comma-separated, from {', '.join(MODES)}")
    ap.add_argument("--warmup", type=int, default=500, help="untimed steps per measurement first")
    ap.add_argument("--check", action="store_true",
                    help="only import managym and print the versions")
    args = ap.parse_args(argv)
    for name, allowed in (("decks", DECKS), ("modes", MODES)):
        values = getattr(args, name).split(",")
        bad = [v for v in values if v not in allowed]
        if bad or not values:
            ap.error(f"--{name}: unknown {', '.join(bad)} (choose from {', '.join(allowed)})")
        setattr(args, name, values)
    return args


def main(argv: list[str] | None = None) -> int:
    """Measure and print one JSON object; 2 when managym is missing."""
    args = parse_args(argv)
    try:
        import managym
    except ImportError as exc:
        print(f"managym is not installed for {sys.executable} ({exc}); "
              "pip install --no-deps manabot==0.2.0 numpy pydantic in a Python 3.12 venv", file=sys.stderr)
        return 2
    from importlib.metadata import PackageNotFoundError, version

    try:
        manabot_version = version("manabot")
    except PackageNotFoundError:
        manabot_version = "unknown"
    out: dict[str, Any] = {"manabot": manabot_version, "python": platform.python_version(),
                           "deck_labels": DECK_LABELS, "results": []}
    if not args.check:
        play = {"env": play_env, "vector": play_vector}
        for decks in args.decks:
            for mode in args.modes:
                if args.warmup > 0:
                    play[mode](managym, decks, args.warmup, args.seed + 7919)
                row = play[mode](managym, decks, args.steps, args.seed)
                out["results"].append({"mode": mode, "decks": decks, **row})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
