"""The compiled engine (``python -m mtg_env.build_compiled``) plays the same games as the sources.

The games run on this checkout when its engine is compiled (``MTG_ENV_COMPILE=1 pip install -e
.``, as CI installs it); otherwise the package is copied to a temporary folder and compiled there
(about a minute on two cores). Then the same seeded games (every ordered pairing of the built-in decks, random and heuristic
play, copies and JSON reloads along the way) are played by the compiled modules and by the
sources (``MTG_ENV_PURE_PYTHON=1``) in child processes, and every option text, every log line,
the final JSON and the observation arrays are compared; and the same over decks holding every
card of the set. Skipped where mypyc or a C compiler is missing (the pure engine is then the
only one).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtg_env.build_compiled import _compiler

ROOT = Path(__file__).resolve().parents[2]

# Plays the games and prints one line per game: its hash (run in a child process).
_PLAY = r"""
import hashlib, random, sys
import numpy as np
from agents import make_agent
from mtg_env.encoding import Observer
from mtg_env.engine import compiled
from mtg_env.engine.deck import Deck, builtin_names
from mtg_env.engine.game import Game

print("compiled", compiled.COMPILED)
names = sorted(builtin_names())
heuristic = [make_agent("heuristic"), make_agent("heuristic")]
obs = Observer(flatten=True)
n = 0
for a in names:
    for b in names:
        n += 1
        g = Game.new([Deck.builtin(a), Deck.builtin(b)], seed=n)
        rng, h, k = random.Random(n), hashlib.sha256(), 0
        obs.reset()
        while g.decision is not None and k < 2000:
            acts = g.legal_actions()
            h.update(repr([x.text for x in acts]).encode())
            who = g.decision.player
            if k % 7 == 0:
                o, mask = obs.observe(g, who)
                h.update(o.tobytes() + mask.tobytes())
            g.apply(heuristic[who].act(g.view(who)) if n % 2 else rng.choice(acts))
            k += 1
            if k % 11 == 0:
                g = g.copy()
            if k % 37 == 0:
                g = Game.from_json(g.to_json())
        h.update("\n".join(g.log_for(None)).encode() + g.to_json().encode())
        print(a, b, k, h.hexdigest())
"""

# The same over decks that hold every card of the set (the every-card soak's batches), where
# the rare paths are: a card outside play as a trigger's source, text changes, copies, ...
_PLAY_EVERY_CARD = r"""
import hashlib, random
from agents import make_agent
from mtg_env.engine import compiled
from mtg_env.engine.game import Game
from tests.cards.test_every_card_soak import BATCHES, _deck

print("compiled", compiled.COMPILED)
heuristic = [make_agent("heuristic"), make_agent("heuristic")]
for i in range(len(BATCHES)):
    for seed in range(16):
        g = Game.new([_deck(i), _deck((i + 1) % len(BATCHES))], seed=1000 * i + seed, max_turns=40)
        rng, h, k = random.Random(seed), hashlib.sha256(), 0
        while g.decision is not None and k < 3000:
            acts = g.legal_actions()
            h.update(repr([x.text for x in acts]).encode())
            who = g.decision.player
            g.apply(heuristic[who].act(g.view(who)) if seed % 2 else rng.choice(acts))
            k += 1
            if k % 13 == 0:
                g = g.copy()
            if k % 41 == 0:
                g = Game.from_json(g.to_json())
        h.update("\n".join(g.log_for(None)).encode() + g.to_json().encode())
        print(i, seed, k, h.hexdigest())
"""


def _runs_compiled(tree: Path) -> bool:
    """Whether the engine of ``tree`` runs compiled (built and current), asked of a child
    process without ``MTG_ENV_PURE_PYTHON``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("MTG_ENV_PURE_PYTHON", None)
    out = subprocess.run([sys.executable, "-c", "from mtg_env.engine import compiled; "
                          "print(compiled.COMPILED)"], cwd=tree, env=env, capture_output=True,
                         text=True)
    return out.stdout.strip() == "True"


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if _runs_compiled(ROOT):
        return ROOT
    if importlib.util.find_spec("mypyc") is None or _compiler() is None:
        pytest.skip("mypyc or a C compiler is missing: no compiled engine to compare")
    tmp = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "mtg_env", tmp / "mtg_env",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    env = {**os.environ, "PYTHONPATH": str(tmp)}
    out = subprocess.run([sys.executable, "-m", "mtg_env.build_compiled"], cwd=tmp, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    return tmp


def _play(tree: Path, pure: bool, script: str = _PLAY) -> list[str]:
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}"}
    env.pop("MTG_ENV_PURE_PYTHON", None)
    if pure:
        env["MTG_ENV_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", script], cwd=tree, env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.splitlines()


def test_the_compiled_engine_plays_the_same_games_as_the_sources(compiled_copy: Path) -> None:
    compiled, pure = _play(compiled_copy, pure=False), _play(compiled_copy, pure=True)
    assert compiled[0] == "compiled True" and pure[0] == "compiled False"
    assert len(compiled) == len(pure) == 1 + 19 * 19
    differ = [(c, p) for c, p in zip(compiled[1:], pure[1:]) if c != p]
    assert not differ, f"{len(differ)} games differ, first: {differ[0]}"


def test_the_compiled_engine_plays_every_card_as_the_sources_do(compiled_copy: Path) -> None:
    compiled = _play(compiled_copy, False, _PLAY_EVERY_CARD)
    pure = _play(compiled_copy, True, _PLAY_EVERY_CARD)
    assert compiled[0] == "compiled True" and pure[0] == "compiled False"
    differ = [(c, p) for c, p in zip(compiled[1:], pure[1:]) if c != p]
    assert len(compiled) == len(pure) > 300 and not differ, differ[:1]


def test_a_source_edited_after_the_build_runs_as_source_with_a_warning(
        compiled_copy: Path, tmp_path: Path) -> None:
    # On a copy of the compiled tree: the build's manifest records each source's digest, so
    # changing a source's text (not its time) is what counts.
    shutil.copytree(compiled_copy / "mtg_env", tmp_path / "mtg_env",
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert _runs_compiled(tmp_path)
    rng = tmp_path / "mtg_env" / "engine" / "rng.py"
    rng.write_text(rng.read_text() + "\n# edited after the build\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("MTG_ENV_PURE_PYTHON", None)
    out = subprocess.run([sys.executable, "-c", "from mtg_env.engine import compiled, game; "
                          "print(compiled.COMPILED, game.__file__.endswith('.py'))"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["False", "True"]
    assert "rng changed after the engine was compiled" in out.stderr


def test_a_build_without_its_manifest_runs_the_sources(compiled_copy: Path, tmp_path: Path) -> None:
    shutil.copytree(compiled_copy / "mtg_env", tmp_path / "mtg_env",
                    ignore=shutil.ignore_patterns("__pycache__", "_compiled_sources.txt"))
    assert not _runs_compiled(tmp_path)
