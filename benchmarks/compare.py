"""Compare the engine speed of two versions of the code in one run.

Checks ``--base`` (a git ref) out into a temporary directory, then runs
``benchmarks/engine_speed.py`` alternately in that tree and in this one (interleaved rounds, so
drift in the machine's speed hits both alike) and prints the median of each column per version
and the ratio new/base.

    python benchmarks/compare.py --base 243505b --rounds 5 -- --games 100 --runs 3 --pairs starter

``--compiled`` compares this tree's engine with itself compiled instead: the tree is copied to
a temporary directory and compiled there (``python -m mtg_env.build_compiled``), then the runs
alternate between its sources (``MTG_ENV_PURE_PYTHON=1``) and its compiled modules.

    python benchmarks/compare.py --compiled --rounds 5 -- --games 100 --runs 3 --pairs all
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("games/s", "dec/s", "dec/game", "copy µs", "json µs")


def run_once(tree: Path, bench_args: list[str], pure: bool = False) -> dict[str, list[float]]:
    """One engine_speed.py run in ``tree`` (its sources if ``pure``); the numbers of each
    pairing row, by column."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("MTG_ENV_PURE_PYTHON", None)
    if pure:
        env["MTG_ENV_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, str(tree / "benchmarks" / "engine_speed.py"), *bench_args],
                         cwd=tree, env=env, capture_output=True, text=True, check=True).stdout
    cols: dict[str, list[float]] = {c: [] for c in COLUMNS}
    for line in out.splitlines()[1:]:
        if line.startswith("median over pairings"):
            continue
        nums = line.split()[-5:]
        for c, v in zip(COLUMNS, nums):
            cols[c].append(float(v))
    return cols


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--base", help="git ref of the old version")
    what.add_argument("--compiled", action="store_true",
                      help="this tree's sources against the same tree compiled")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per version")
    ap.add_argument("bench_args", nargs="*", help="arguments for engine_speed.py (after --)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if args.compiled:
            for part in ("mtg_env", "benchmarks"):
                shutil.copytree(ROOT / part, base / part,
                                ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
            subprocess.run([sys.executable, "-m", "mtg_env.build_compiled"], cwd=base, check=True,
                           env={**os.environ, "PYTHONPATH": str(base)})
            # base: the copy's sources; new: the same copy compiled
            trees = (("base", base, True), ("new", base, False))
        else:
            archive = subprocess.run(["git", "archive", args.base], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            trees = (("base", base, False), ("new", ROOT, False))
        results: dict[str, dict[str, list[float]]] = {"base": {c: [] for c in COLUMNS},
                                                      "new": {c: [] for c in COLUMNS}}
        for r in range(args.rounds):
            for name, tree, pure in trees:
                cols = run_once(tree, args.bench_args, pure)
                for c in COLUMNS:
                    # One number per run: the median over the pairings of that run.
                    results[name][c].append(statistics.median(cols[c]))
            print(f"round {r + 1}/{args.rounds}: base {results['base']['dec/s'][-1]:.0f} dec/s, "
                  f"new {results['new']['dec/s'][-1]:.0f} dec/s", file=sys.stderr)
    print(f"{'':10}" + "".join(f"{c:>12}" for c in COLUMNS))
    med = {n: {c: statistics.median(v) for c, v in cols.items()} for n, cols in results.items()}
    for name in ("base", "new"):
        label = ("pure" if name == "base" else "compiled") if args.compiled else \
            (args.base if name == "base" else "HEAD")
        print(f"{name + ' ' + label:10.10}"
              + "".join(f"{med[name][c]:12.1f}" for c in COLUMNS))
    print(f"{'new/base':10}" + "".join(f"{med['new'][c] / med['base'][c]:12.3f}" for c in COLUMNS))


if __name__ == "__main__":
    main()
