"""Which engine modules may run compiled, and when their sources are used instead.

``python -m mtg_env.build_compiled`` compiles the modules of :data:`COMPILED_MODULES` with
mypyc into extension modules beside their sources (one shared library,
``_compiled__mypyc``, holds their code); Python imports an extension module in place of a
source module of the same name. The engine package imports this module first, and it makes the
sources win, for every module of the list at once (a compiled module calls the other compiled
modules' code directly, so a mix of new sources and old compiled code would not be one engine):

* when ``MTG_ENV_PURE_PYTHON=1`` is set;
* when a source is newer than the build (it was edited since): with a warning that says to
  build again.

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

# The engine modules mypyc compiles: the rules procedures and the state they work on. Not
# compiled: the frames (their methods are generated when the classes are defined,
# frame_fields.py), the exceptions (mypyc can't compile a subclass of a builtin exception), the
# effect ops (registered by decorators) and what only runs when a game is loaded or set up.
COMPILED_MODULES = (
    "abilities", "ability_vocabulary", "actions", "casting", "choices", "combat",
    "combat_damage", "damage", "effects", "enter_choices", "filters", "game", "ids", "knowledge",
    "layers", "mana", "mana_cost", "model", "priority", "references", "replacement", "replacement_effects",
    "rng", "rules", "stack", "state", "state_based", "targets", "triggers", "turn_structure",
    "view", "zones",
)
SHARED_LIBRARY = "_compiled__mypyc"  # the group's code (mypyc's group name "mtg_env.engine._compiled")
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


def _stale(extensions: list[Path]) -> list[str]:
    built = min(p.stat().st_mtime for p in extensions)
    return [name for name in COMPILED_MODULES
            if (ENGINE_DIR / f"{name}.py").stat().st_mtime > built]


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
    stale = _stale(extensions)
    if stale:
        warnings.warn(f"mtg_env: {', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''} changed "
                      f"after the engine was compiled; running the sources (rebuild with "
                      f"`python -m mtg_env.build_compiled`, or remove the build with --clean)",
                      RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, _SourceFinder())
        return False
    return True


COMPILED: bool = _install()
"""True when the engine runs compiled (built, current, and ``MTG_ENV_PURE_PYTHON`` unset)."""
