"""The heuristic against an earlier version of itself, on the agent evaluation protocol.

The heuristic is the yardstick of every agent number we report, so a change to it is measured
against the version before (the agents issue asks for it). This checks the heuristic of a git
ref out (``agents/heuristic/`` with the two modules it reads, ``agents/base.py`` and
``agents/evaluation.py``) into a temporary package, registers it as the agent
``heuristic@REF``, and runs :mod:`agent_strength` with the rest of the arguments:

    python benchmarks/heuristic_versions.py --base a393741 -- --games 4 --workers 2
    python benchmarks/heuristic_versions.py --base a393741 --agent trained -- --games 4
    python benchmarks/heuristic_versions.py --base a393741 --self -- --games 10 --seed 1

By default the current heuristic plays the row deck against the old one; ``--agent`` puts
another agent in the row seat against the old heuristic (``trained`` against the previous
yardstick), and ``--self`` plays the old heuristic against itself (the same deals' figures for
the old version, to set the per-deck numbers beside). The engine is this tree's: a ref whose
heuristic needs an older engine may not run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# What the heuristic package reads from ``agents`` besides itself (relative imports).
_FILES = ("agents/base.py", "agents/evaluation.py", "agents/heuristic")


def checkout_heuristic(ref: str, into: Path) -> str:
    """Extract ``ref``'s heuristic into the package ``into/heuristic_<sha>``; its module name."""
    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "archive", ref, *_FILES], cwd=ROOT, capture_output=True,
                             check=True).stdout
    pkg = into / f"heuristic_{sha}"
    pkg.mkdir()
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        for member in tar.getmembers():
            member.name = member.name.removeprefix("agents/")
            tar.extract(member, pkg, filter="data")
    (pkg / "__init__.py").write_text(f'"""The heuristic of {ref} ({sha})."""\n')
    return pkg.name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="git ref of the old heuristic")
    who = ap.add_mutually_exclusive_group()
    who.add_argument("--agent", default="heuristic",
                     help="the row agent against the old heuristic (default: the current heuristic)")
    who.add_argument("--self", action="store_true", help="the old heuristic against itself")
    ap.add_argument("bench_args", nargs="*", help="arguments for agent_strength.py (after --)")
    args = ap.parse_args(argv)
    import importlib

    import agent_strength

    import agents
    from mtg_env.agent_registry import register_agent_factory

    with tempfile.TemporaryDirectory() as tmp:
        module = checkout_heuristic(args.base, Path(tmp))
        sys.path.insert(0, tmp)
        old = importlib.import_module(f"{module}.heuristic").HeuristicAgent
        name = f"heuristic@{args.base}"

        class OldHeuristic(old):  # type: ignore[misc, valid-type]
            """The heuristic of the base ref, under its own name."""

        OldHeuristic.name = name
        agents.AGENTS[name] = OldHeuristic  # make_agent's table, and the game runner's registry
        register_agent_factory(name, lambda spec: OldHeuristic())
        agent = name if args.self else args.agent
        # Worker processes are forked (Linux), so they inherit the registration.
        return agent_strength.main(["--agent", agent, "--opponent", name, *args.bench_args])


if __name__ == "__main__":
    sys.exit(main())
