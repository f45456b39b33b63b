"""What the compiled engine is made of: the list of modules, the build's names and its manifest.

Standard library only and no package imports, so the install's ``setup.py`` loads this file by
its path (the build environment has none of the package's dependencies), and
``compiled.py`` and ``python -m mtg_env.build_compiled`` import it: one list, one group name,
one manifest format for every way of building.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

# The engine modules mypyc compiles: the rules procedures and the state they work on. Not
# compiled: the frames (their methods are generated when the classes are defined,
# frame_fields.py), the exceptions (mypyc can't compile a subclass of a builtin exception), the
# effect ops (registered by decorators) and what only runs when a game is loaded or set up.
COMPILED_MODULES = (
    "abilities", "ability_vocabulary", "actions", "casting", "choices", "combat",
    "combat_damage", "damage", "effects", "enter_choices", "filters", "game", "ids", "knowledge",
    "layers", "mana", "mana_cost", "model", "priority", "references", "replacement", "replacement_effects",
    "rng", "rules", "seating", "stack", "state", "state_based", "targets", "triggers", "turn_structure",
    "view", "zones",
)
GROUP_NAME = "mtg_env.engine._compiled"
"""mypyc's group: one shared library holds the code of every compiled module."""
SHARED_LIBRARY = "_compiled__mypyc"  # that library's module name
MANIFEST = "_compiled_sources.txt"
"""Written beside the extension modules by a build: one ``name sha256`` line per compiled
source. Modification times can't tell (a wheel's install gives every file a new one)."""


def source_paths(root: str = "mtg_env/engine") -> list[str]:
    """The compiled modules' source paths below ``root`` (as mypyc takes them)."""
    return [f"{root}/{name}.py" for name in COMPILED_MODULES]


def source_digests(engine_dir: Path) -> dict[str, str]:
    """The SHA-256 of each compiled module's source in ``engine_dir``."""
    return {name: hashlib.sha256((engine_dir / f"{name}.py").read_bytes()).hexdigest()
            for name in COMPILED_MODULES}


def manifest_text(engine_dir: Path) -> str:
    """The :data:`MANIFEST` of a build of the sources in ``engine_dir``."""
    return "".join(f"{name} {digest}\n" for name, digest in source_digests(engine_dir).items())
