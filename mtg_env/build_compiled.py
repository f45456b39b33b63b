"""Compile the engine with mypyc, in place; or remove the compiled modules.

    python -m mtg_env.build_compiled            # build (needs mypy and a C compiler)
    python -m mtg_env.build_compiled --clean    # back to the pure-Python engine
    python -m mtg_env.build_compiled --status   # what is built and what runs

The modules of :data:`mtg_env.engine.compiled_modules.COMPILED_MODULES` become extension modules beside
their sources (about a minute on two cores), which Python then imports in their place: the
same games, faster (``docs/ARCHITECTURE.md``, "The compiled engine").
``MTG_ENV_PURE_PYTHON=1`` runs the sources anyway, and a source edited after the build is run as
a source until the next build (``mtg_env/engine/compiled.py``). mypyc comes with mypy (the
``[dev]`` extra has it).
``MTG_ENV_COMPILE=1 pip install -e .`` builds the same modules at install (``setup.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from mtg_env.engine.compiled import ENGINE_DIR, extension_files, write_manifest
from mtg_env.engine.compiled_modules import GROUP_NAME, MANIFEST, source_paths

_ROOT = ENGINE_DIR.parent.parent  # the folder holding the mtg_env package

# Run in a child process, in _ROOT: mypyc turns the sources into C, setuptools compiles that
# and puts each extension module beside its source (build_ext --inplace).
_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

tmp, group, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
setup(name="mtg_env_compiled",
      script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp, "--build-lib", tmp + "/lib"],
      ext_modules=mypycify(paths, opt_level="3", target_dir=tmp, group_name=group))
"""


class BuildError(RuntimeError):
    """The compiled modules can't be built here (no mypyc, no C compiler, or the build failed)."""


def _compiler() -> str | None:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def build(verbose: bool = False) -> list[Path]:
    """Compile the engine modules in place; the extension modules written."""
    if importlib.util.find_spec("mypyc") is None:
        raise BuildError("mypyc is not installed: pip install mypy (or the [dev] extra)")
    if _compiler() is None:
        raise BuildError("no C compiler found (install gcc, or set CC): the engine stays pure Python")
    clean()
    paths = source_paths()
    with tempfile.TemporaryDirectory(prefix="mtg_env_build_") as tmp:
        proc = subprocess.run([sys.executable, "-c", _SETUP, tmp, GROUP_NAME, *paths], cwd=_ROOT,
                              capture_output=not verbose, text=True)
    if proc.returncode != 0:
        clean()
        tail = "\n".join(((proc.stdout or "") + (proc.stderr or "")).strip().splitlines()[-15:])
        raise BuildError(f"the mypyc build failed (nothing compiled is left behind):\n{tail}")
    write_manifest()
    return extension_files()


def clean() -> list[Path]:
    """Remove the compiled modules (the sources run again); the files removed."""
    files = extension_files()
    for p in files:
        p.unlink()
    (ENGINE_DIR / MANIFEST).unlink(missing_ok=True)
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mtg_env.build_compiled",
                                 description=__doc__.splitlines()[0])
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--clean", action="store_true", help="remove the compiled modules")
    what.add_argument("--status", action="store_true", help="say what is built and what runs")
    ap.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = ap.parse_args(argv)
    if args.status:
        files = extension_files()
        # A fresh interpreter: this one may have imported the engine before a build or clean.
        probe = subprocess.run([sys.executable, "-c", "from mtg_env.engine import compiled; "
                                "print(compiled.COMPILED)"], capture_output=True, text=True)
        print(f"{len(files)} compiled modules in {ENGINE_DIR}; the engine runs "
              f"{'compiled' if probe.stdout.strip() == 'True' else 'the sources'}")
        return 0
    if args.clean:
        print(f"removed {len(clean())} compiled modules")
        return 0
    try:
        files = build(verbose=args.verbose)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"compiled {len(files) - 1} engine modules into {ENGINE_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
