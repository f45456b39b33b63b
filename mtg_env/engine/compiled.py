"""Which engine modules may run compiled, and when their sources are used instead.

``python -m mtg_env.build_compiled`` compiles the modules of :data:`COMPILED_MODULES` with
mypyc into extension modules beside their sources (one shared library,
``_compiled__mypyc``, holds their code); Python imports an extension module in place of a
source module of the same name. The engine package imports this module first, and it makes the
sources win, for every module of the list at once (a compiled module calls the other compiled
modules' code directly, so a mix of new sources and old compiled code would not be one engine):

* when ``MTG_ENV_PURE_PYTHON=1`` is set;
* when a source differs from the one the build compiled (it was edited since; the build records
  each source's SHA-256 in :data:`MANIFEST`): with a warning that says to build again.

The modules are compiled either by ``MTG_ENV_COMPILE=1 pip install`` (``setup.py``) or by
``python -m mtg_env.build_compiled`` in a source checkout.

:data:`COMPILED` says which case holds. Without compiled modules nothing here does anything.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from . import compiled_modules
from .compiled_modules import COMPILED_MODULES, MANIFEST, SHARED_LIBRARY

ENGINE_DIR = Path(__file__).resolve().parent
_PACKAGE = __name__.rpartition(".")[0]


def extension_files() -> list[Path]:
    """The compiled modules present beside the sources (the shared library included)."""
    found = []
    for name in (*COMPILED_MODULES, SHARED_LIBRARY):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            p = ENGINE_DIR / f"{name}{suffix}"
            if p.exists():
                found.append(p)
    return found


def source_digests(engine_dir: Path = ENGINE_DIR) -> dict[str, str]:
    """The SHA-256 of each compiled module's source in ``engine_dir``."""
    return compiled_modules.source_digests(engine_dir)


def write_manifest(engine_dir: Path = ENGINE_DIR) -> Path:
    """Record in ``engine_dir`` which sources its extension modules were compiled from; the
    manifest's path."""
    path = engine_dir / MANIFEST
    path.write_text(compiled_modules.manifest_text(engine_dir))
    return path


def _stale() -> list[str]:
    """The compiled modules whose source is not the one the build compiled (all of them when
    the build left no manifest)."""
    try:
        lines = (ENGINE_DIR / MANIFEST).read_text().split("\n")
    except OSError:
        return list(COMPILED_MODULES)
    built = dict(line.split(" ", 1) for line in lines if " " in line)
    return [name for name, digest in source_digests().items() if built.get(name) != digest]


class _SourceFinder:
    """Finds the engine modules of :data:`COMPILED_MODULES` as sources (ahead of the
    extension modules beside them)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != _PACKAGE or name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, ENGINE_DIR / f"{name}.py")


def _install() -> bool:
    extensions = extension_files()
    if not extensions:
        return False
    if os.environ.get("MTG_ENV_PURE_PYTHON", "") not in ("", "0"):
        sys.meta_path.insert(0, _SourceFinder())
        return False
    stale = _stale()
    if stale:
        warnings.warn(f"mtg_env: {', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''} changed "
                      f"after the engine was compiled; running the sources (rebuild with "
                      f"`python -m mtg_env.build_compiled` or `MTG_ENV_COMPILE=1 pip install`, "
                      f"or remove the build with `python -m mtg_env.build_compiled --clean`)",
                      RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, _SourceFinder())
        return False
    return True


COMPILED: bool = _install()
"""True when the engine runs compiled (built, current, and ``MTG_ENV_PURE_PYTHON`` unset)."""
