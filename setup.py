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

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "mtg_env" / "engine"


def _load_compiled_modules() -> ModuleType:
    """``mtg_env/engine/compiled_modules.py`` loaded by its path: the package itself can't be
    imported here (the build environment has none of its dependencies)."""
    spec = importlib.util.spec_from_file_location("_mtg_env_compiled_modules",
                                                  ENGINE / "compiled_modules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _load_compiled_modules()


def _compiled_modules() -> tuple[str, ...]:
    """The engine modules the build compiles."""
    return tuple(BUILD.COMPILED_MODULES)


def _manifest() -> str:
    """The lines of the build's manifest: each compiled source's SHA-256."""
    return str(BUILD.manifest_text(ENGINE))


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
        if not self.extensions:  # MTG_ENV_COMPILE unset, or mypyc gave up: nothing was built
            return
        folder = ENGINE if self.inplace else Path(self.build_lib) / "mtg_env" / "engine"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / BUILD.MANIFEST).write_text(_manifest())
        _say(f"compiled {len(_compiled_modules())} engine modules with mypyc")

    def _give_up(self, exc: BaseException) -> None:
        _say(f"the compiled engine could not be built ({type(exc).__name__}: {exc}); "
             "installing the pure-Python engine, which plays the same games")
        folder = ENGINE if self.inplace else Path(self.build_lib) / "mtg_env" / "engine"
        for p in folder.glob("*.so"):  # what an earlier build left: not this build's
            if p.name.split(".")[0] in (*_compiled_modules(), BUILD.SHARED_LIBRARY):
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
    paths = BUILD.source_paths()
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypyc names the modules by their paths from here
    try:
        return mypycify(paths, opt_level="3", group_name=BUILD.GROUP_NAME)
    except (Exception, SystemExit) as exc:  # mypy's type errors exit
        _say(f"mypyc could not compile the engine ({type(exc).__name__}: {exc}); installing the "
             "pure-Python engine")
        return []
    finally:
        os.chdir(cwd)


if __name__ == "__main__":  # how setuptools' backend runs this file
    setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
