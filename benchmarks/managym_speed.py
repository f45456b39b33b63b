"""Side-by-side speed against manabot's managym: random legal play per CPU second, interleaved.

Measures, in one run and in alternation (managym, our env, our engine, managym, ...), whole games of
uniformly random legal actions until at least ``--steps`` steps per configuration per round:

- managym (manabot 0.2.0's Rust engine), in a subprocess started with the Python 3.12 interpreter
  given by ``--managym-python`` (``benchmarks/managym_child.py``; its docstring describes the two
  ways it plays, ``Env.step`` and ``VectorEnv(num_envs=1).step_into_buffers``, and the two deck
  choices, manabot's default decks and its authored pair);
- our PettingZoo env, ``raw_env(flatten=True)``, through ``benchmarks/env_speed.py``'s ``run``
  (``last()`` every step, a random index from the mask, ``skip_trivial`` on, the theme decks);
- our bare engine, through ``env_speed.py``'s ``run_engine`` (``Game.apply`` of a random option,
  the same decks, ``skip_trivial`` on).

Steps are decisions put to an agent (both seats); decisions with one option are applied by the
engine itself on both sides. Rates divide by the CPU time of the process that stepped
(``time.process_time``: robust when other jobs share the cores); steps per wall second are shown
too. The tables give medians over rounds and the ratios ours / managym, each the median of the
rounds' own ratios (a round's measurements ran back to back, under the same load).

managym is not a dependency of the package: it needs its own Python 3.12 venv,

    "$(pyenv root)/versions/3.12.1/bin/python" -m venv .venv-managym
    .venv-managym/bin/pip install --no-deps manabot==0.2.0 numpy pydantic pydantic-core \\
        annotated-types typing-extensions typing-inspection
    python benchmarks/managym_speed.py --rounds 5 --steps 20000 --json managym_speed.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CHILD = HERE / "managym_child.py"
DEFAULT_MANAGYM_PYTHON = Path(".venv-managym") / "bin" / "python"
CREATE_COMMANDS = (
    '"$(pyenv root)/versions/3.12.1/bin/python" -m venv .venv-managym && '
    ".venv-managym/bin/pip install --no-deps manabot==0.2.0 numpy pydantic pydantic-core "
    "annotated-types typing-extensions typing-inspection"
)
OURS = ("raw_env(flatten=True)", "engine (Game.apply)")
MANAGYM_MODE_LABELS = {"env": "managym Env.step", "vector": "managym VectorEnv(1) into buffers"}
CHILD_TIMEOUT_S = 1800


class MissingManagym(Exception):
    """No usable managym interpreter; the message is the one line shown to the user."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--managym-python", type=Path, default=None,
                    help=f"Python 3.12 with manabot 0.2.0 installed (default: {DEFAULT_MANAGYM_PYTHON} "
                         "in the repository, if it exists)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (medians reported)")
    ap.add_argument("--steps", type=int, default=20000,
                    help="steps per configuration per round (whole games, so a little more)")
    ap.add_argument("--managym-decks", default="default,authored",
                    help="managym's decks, comma-separated: default (manabot's default match), "
                         "authored (its ur_lessons vs gw_allies)")
    ap.add_argument("--managym-modes", default="env,vector",
                    help="managym's ways to play, comma-separated: env (Env.step), "
                         "vector (VectorEnv(num_envs=1).step_into_buffers)")
    ap.add_argument("--json", type=Path, default=None, help="also write every round and the medians here")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.steps < 1:
        ap.error("--rounds and --steps must be positive")
    return args


def managym_python(given: Path | None) -> Path:
    """The interpreter to run managym with; :class:`MissingManagym` when there is none."""
    if given is None:
        path = ROOT / DEFAULT_MANAGYM_PYTHON
        if not path.is_file():
            raise MissingManagym(
                f"no managym interpreter: {path} does not exist; create it from the repository root with "
                f"`{CREATE_COMMANDS}`, or pass --managym-python PATH")
        return path
    if not given.is_file():
        raise MissingManagym(f"--managym-python {given} does not exist; create a managym venv with "
                             f"`{CREATE_COMMANDS}`")
    return given


def run_child(python: Path, child_args: list[str]) -> dict[str, Any]:
    """Run ``managym_child.py`` under ``python``; its JSON, or :class:`MissingManagym`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["RUST_BACKTRACE"] = "0"
    res = subprocess.run([str(python), str(CHILD), *child_args], capture_output=True, text=True,
                         timeout=CHILD_TIMEOUT_S, env=env)
    if res.returncode == 2:
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        raise MissingManagym(lines[-1] if lines else f"{python} could not run managym")
    if res.returncode != 0:
        raise RuntimeError(f"{CHILD.name} failed ({res.returncode}):\n{res.stderr}")
    return json.loads(res.stdout)


def load_env_speed() -> ModuleType:
    """``benchmarks/env_speed.py`` as a module (the benchmarks folder is not a package)."""
    spec = importlib.util.spec_from_file_location("env_speed", HERE / "env_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure_ours(play: Callable[[int, int], tuple[float, float, float, float, float]], steps: int,
                 seed: int, steps_per_game: float) -> dict[str, Any]:
    """Whole games through ``play(games, seed)`` (``env_speed.run``'s or ``run_engine``'s
    signature and rates) until at least ``steps`` steps; counts and CPU/wall seconds. Each call's
    seconds are its games over its rates, so the env's construction stays outside, as in
    ``env_speed.py``."""
    n = games = 0
    cpu = wall = 0.0
    while n < steps:
        k = max(1, math.ceil((steps - n) / steps_per_game))
        games_s, _steps_s, _us, per_game, cpu_games_s = play(k, seed + games)
        wall += k / games_s
        cpu += k / cpu_games_s
        n += round(per_game * k)
        games += k
        steps_per_game = n / games
    return {"steps": n, "games": games, "cpu_s": cpu, "wall_s": wall}


def rates(row: dict[str, Any]) -> dict[str, float]:
    """Steps and games per CPU second, steps per wall second, steps per game."""
    return {"steps_cpu": row["steps"] / row["cpu_s"], "steps_wall": row["steps"] / row["wall_s"],
            "games_cpu": row["games"] / row["cpu_s"], "steps_game": row["steps"] / row["games"]}


def summarize(rounds: list[dict[str, dict[str, Any]]]) -> tuple[dict[str, dict[str, float]],
                                                                  list[dict[str, Any]]]:
    """Medians over rounds of each configuration's rates, and ours / managym for every pair of an
    our configuration (``OURS``) and a managym one: medians of the per-round ratios."""
    names = list(rounds[0])
    med = {name: {key: statistics.median(rates(r[name])[key] for r in rounds)
                  for key in ("steps_cpu", "steps_wall", "games_cpu", "steps_game")}
           for name in names}
    ratios = []
    for ours in (n for n in names if n in OURS):
        for theirs in (n for n in names if n not in OURS):
            per_round = [(rates(r[ours]), rates(r[theirs])) for r in rounds]
            ratios.append({"ours": ours, "managym": theirs,
                           "steps": statistics.median(a["steps_cpu"] / b["steps_cpu"] for a, b in per_round),
                           "games": statistics.median(a["games_cpu"] / b["games_cpu"] for a, b in per_round)})
    return med, ratios


def markdown(med: dict[str, dict[str, float]], ratios: list[dict[str, Any]]) -> str:
    """The two Markdown tables: rates per configuration, and ours / managym."""
    lines = ["| Configuration | steps / CPU s | steps / wall s | games / CPU s | steps / game |",
             "|---|---:|---:|---:|---:|"]
    for name, m in med.items():
        lines.append(f"| {name} | {m['steps_cpu']:,.0f} | {m['steps_wall']:,.0f} | "
                     f"{m['games_cpu']:,.1f} | {m['steps_game']:,.1f} |")
    lines += ["", "| Ours | managym | steps / CPU s, ours ÷ managym | games / CPU s, ours ÷ managym |",
              "|---|---|---:|---:|"]
    for r in ratios:
        lines.append(f"| {r['ours']} | {r['managym']} | {r['steps']:.2f}x | {r['games']:.2f}x |")
    return "\n".join(lines)


def git_commit() -> str:
    """The commit of the checkout that holds ``mtg_env``, with ``-dirty`` when the package's files
    differ from it; ``unknown`` outside git."""
    import mtg_env

    pkg = Path(mtg_env.__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=pkg, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=pkg, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    """Run the interleaved rounds and print the tables; 2 when managym is missing."""
    args = parse_args(argv)
    child_args = ["--steps", str(args.steps), "--decks", args.managym_decks, "--modes", args.managym_modes]
    try:
        python = managym_python(args.managym_python)
        versions = run_child(python, [*child_args, "--check"])
    except MissingManagym as exc:
        print(f"managym_speed.py: {exc}", file=sys.stderr)
        return 2

    from mtg_env.env import raw_env

    env_speed = load_env_speed()
    env_speed.run(lambda: raw_env(flatten=True), 3, 0)  # load the card registry, warm the caches

    def env_play(games: int, seed: int) -> tuple[float, float, float, float, float]:
        return env_speed.run(lambda: raw_env(flatten=True), games, seed)

    ours: dict[str, Callable[[int, int], tuple[float, float, float, float, float]]] = {
        OURS[0]: env_play, OURS[1]: env_speed.run_engine}
    per_game = {name: play(5, 99)[3] for name, play in ours.items()}  # also the warm-up
    started = time.strftime("%Y-%m-%d %H:%M")
    print(f"manabot {versions['manabot']} (Python {versions['python']}, {python}) against mtg_env "
          f"{git_commit()} (Python {platform.python_version()}); {args.rounds} rounds, "
          f"at least {args.steps} steps per configuration per round; {started}", flush=True)
    rounds: list[dict[str, dict[str, Any]]] = []
    for r in range(args.rounds):
        seed = 100_000 * (r + 1)
        row: dict[str, dict[str, Any]] = {}
        for res in run_child(python, [*child_args, "--seed", str(seed)])["results"]:
            row[f"{MANAGYM_MODE_LABELS[res['mode']]}, {res['decks']} decks"] = res
        for name, play in ours.items():
            row[name] = measure_ours(play, args.steps, seed, per_game[name])
        rounds.append(row)
        print(f"round {r + 1}: " + ", ".join(f"{name} {rates(m)['steps_cpu']:,.0f}"
                                              for name, m in row.items()) + " steps / CPU s", flush=True)
    med, ratios = summarize(rounds)
    print()
    print(markdown(med, ratios))
    print()
    for key, label in versions["deck_labels"].items():
        print(f"managym {key} decks: {label}")
    print("ours: the env's theme decks, a random pairing each game")
    if args.json:
        args.json.write_text(json.dumps({
            "started": started, "commit": git_commit(), "python": platform.python_version(),
            "managym": {"manabot": versions["manabot"], "python": versions["python"],
                        "interpreter": str(python), "deck_labels": versions["deck_labels"]},
            "args": {"rounds": args.rounds, "steps": args.steps, "managym_decks": args.managym_decks,
                     "managym_modes": args.managym_modes},
            "rounds": rounds, "medians": med, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
