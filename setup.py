"""The compiled engine at install: ``MTG_ENV_COMPILE=1 pip install -e .`` (or ``pip install .``,
or ``python -m build --wheel``) compiles the engine modules of
``mtg_env/engine/compiled.py``'s ``COMPILED_MODULES`` with mypyc, as
``python -m mtg_env.build_compiled`` does in a checkout. Everything else about the package is in
``pyproject.toml``; without ``MTG_ENV_COMPILE`` this file adds nothing.

mypy (which brings mypyc) is a build requirement only when compiling
(``tools/build_backend.py``). Where the build can't compile (no C compiler, or mypyc fails), it
says so and installs the pure-Python engine, which plays the same games.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "mtg_env" / "engine"


def _compiled_modules() -> tuple[str, ...]:
    """``COMPILED_MODULES`` read from ``compiled.py`` without importing the package (whose
    dependencies the build environment doesn't have)."""
    tree = ast.parse((ENGINE / "compiled.py").read_text())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", "") == "COMPILED_MODULES"):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("mtg_env/engine/compiled.py defines no COMPILED_MODULES")


def _manifest(modules: tuple[str, ...]) -> str:
    """The lines of ``compiled.MANIFEST``: each compiled source's SHA-256."""
    import hashlib

    return "".join(f"{m} {hashlib.sha256((ENGINE / f'{m}.py').read_bytes()).hexdigest()}\n"
                   for m in modules)


def _say(msg: str) -> None:
    print(f"mtg_env: {msg}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or nothing (with a message) when it can't: the package then
    runs its sources. Writes the manifest of the compiled sources beside the extensions."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure leaves the pure engine
            self._give_up(exc)
            return
        modules = _compiled_modules()
        text = _manifest(modules)
        targets = [ENGINE] if self.inplace else [Path(self.build_lib) / "mtg_env" / "engine"]
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "_compiled_sources.txt").write_text(text)
        _say(f"compiled {len(modules)} engine modules with mypyc")

    def _give_up(self, exc: BaseException) -> None:
        _say(f"the compiled engine could not be built ({type(exc).__name__}: {exc}); "
             "installing the pure-Python engine, which plays the same games")
        folder = ENGINE if self.inplace else Path(self.build_lib) / "mtg_env" / "engine"
        for p in folder.glob("*.so"):  # what an earlier build left: not this build's
            if p.name.split(".")[0] in (*_compiled_modules(), "_compiled__mypyc"):
                p.unlink()
        self.extensions = []


def _ext_modules() -> list:
    if os.environ.get("MTG_ENV_COMPILE", "") in ("", "0") or os.environ.get("MTG_ENV_BUILD_REQUIRES"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("MTG_ENV_COMPILE is set but mypyc is missing (pip install mypy, or let pip build "
             "in its isolated environment); installing the pure-Python engine")
        return []
    paths = [f"mtg_env/engine/{m}.py" for m in _compiled_modules()]
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypyc names the modules by their paths from here
    try:
        return mypycify(paths, opt_level="3", group_name="mtg_env.engine._compiled")
    except (Exception, SystemExit) as exc:  # mypy's type errors exit
        _say(f"mypyc could not compile the engine ({type(exc).__name__}: {exc}); installing the "
             "pure-Python engine")
        return []
    finally:
        os.chdir(cwd)


if __name__ == "__main__":  # how setuptools' backend runs this file
    setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
