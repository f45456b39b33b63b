"""Instructions per agent step, counted by valgrind: the env and the engine compared without timing.

Wall and CPU times on a shared 2-core machine move by 25% or more with the load (see
``docs/env.md``); the number of machine instructions a run executes does not. This script plays
the same random legal games as ``benchmarks/env_speed.py``, with its own loops
(``raw_env(flatten=True)``, the mask read every step; with ``--modes fast`` the same env with
its speed options, ``copy_obs=False`` and ``legal_indices=True``; with ``--modes api`` the same
calls with ``env_speed.py``'s observer that encodes nothing, the AEC API's own cost; and the
engine alone applying random options), under ``valgrind
--tool=callgrind``, once with no counted game and once with ``--games`` games after the same
warm-up game, and reports the difference per agent step: instructions of the env, of the
engine, and their ratio (the target "env at 0.6x the engine" is about 0.6 here too, since
instructions and time go together for one interpreter on one machine). Valgrind runs the
interpreter about 50 times slower: ``--games 20`` takes a few minutes.

    python benchmarks/instructions.py                 # 20 games each
    python benchmarks/instructions.py --games 10 --modes env
    python benchmarks/instructions.py --modes env,fast,engine
    python benchmarks/instructions.py --modes fast,api,engine   # the encoding against its floor

Needs valgrind (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# The measured program: a warm-up game (card registry, caches), then ``games`` counted games of
# env_speed.py's own loops (``run``: the AEC loop; ``run_engine``: the engine alone).
_PROGRAM = r"""
import sys
sys.path.insert(0, sys.argv[3])
from env_speed import api_only, run, run_engine
from mtg_env.env import raw_env
mode, games = sys.argv[1], int(sys.argv[2])
if mode == "fast":  # the env's speed options: its own buffers, legal indices in info
    make = lambda: raw_env(flatten=True, copy_obs=False, legal_indices=True)
elif mode == "api":  # the same calls, an observer that encodes nothing
    make = api_only
else:
    make = lambda: raw_env(flatten=True)
(run if mode != "engine" else lambda m, n, s: run_engine(n, s))(make, 1, 10**6)
steps = 0
if games:
    res = run(make, games, 0) if mode != "engine" else run_engine(games, 0)
    steps = round(res[3] * games)
print("steps", steps)
"""


def count(mode: str, games: int) -> tuple[int, int]:
    """(agent steps, instructions) of one run under callgrind."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", _PROGRAM, mode, str(games),
                          str(Path(__file__).resolve().parent)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"})  # the same sets' order
    steps = int(re.search(r"^steps (\d+)", out.stdout, re.M).group(1))
    ir = int(re.search(r"Collected : (\d+)", out.stderr).group(1))
    return steps, ir


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="counted games per mode")
    ap.add_argument("--modes", default="env,engine",
                    help="comma-separated: env (raw_env flat), fast (its speed options: "
                         "copy_obs=False, legal_indices=True), api (the same calls, no "
                         "encoding), engine")
    ap.add_argument("--workers", type=int, default=2, help="valgrind runs at once")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (Debian: apt-get install valgrind)",
              file=sys.stderr)
        sys.exit(2)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or set(modes) - {"env", "fast", "api", "engine"} or args.games < 1:
        ap.error("--modes takes env, fast, api and/or engine; --games at least 1")
    jobs = [(m, n) for m in modes for n in (0, args.games)]
    with ThreadPoolExecutor(max(1, args.workers)) as ex:
        res = dict(zip(jobs, ex.map(lambda j: count(*j), jobs), strict=True))
    per_step = {}
    for m in modes:
        steps, ir = res[(m, args.games)]
        per_step[m] = (ir - res[(m, 0)][1]) / steps
        print(f"{m:<7} {args.games} games, {steps} agent steps: "
              f"{per_step[m] / 1000:.0f}k instructions per step")
    for m in ("env", "fast", "api"):
        if m in per_step and "engine" in per_step:
            print(f"{m} at {per_step['engine'] / per_step[m]:.2f}x the engine's speed "
                  "(instructions per step, engine / env)")


if __name__ == "__main__":
    main()
