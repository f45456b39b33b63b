"""The engine's layout as docs/ARCHITECTURE.md describes it, read from the source with ``ast``:
the layer system's cache is marked stale and refreshed in one place each, the engine reaches the
effect ops through their registry, the module map names every module, and no module of the
package is longer than a newcomer can read through (:data:`MAX_MODULE_LINES`)."""

from __future__ import annotations

import ast
from pathlib import Path

from mtg_env.engine import layers
from mtg_env.testing import scenario

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "mtg_env" / "engine"
# What an engine module may import from an op module: the continuation of that op's own
# question, run once the player has answered (docs/ARCHITECTURE.md, "ops/ is the effect
# vocabulary").
OP_CONTINUATIONS = {("payment", "can_pay"), ("damage", "shield_from_chosen_source")}
# The most lines a module of mtg_env may have: a longer one is split by a stated principle (rule
# topic or rule number, docs/ARCHITECTURE.md).
MAX_MODULE_LINES = 600


def _trees() -> list[tuple[Path, ast.AST]]:
    return [(p, ast.parse(p.read_text(), str(p))) for p in sorted((ROOT / "mtg_env").rglob("*.py"))]


def test_the_layer_cache_is_marked_and_refreshed_in_one_place() -> None:
    """Only layers.py sets ``dirty`` or calls ``refresh``: every other module says
    ``mark_dirty(g, reason)`` and ``fresh(g)``."""
    offenders = []
    for path, tree in _trees():
        if path == ENGINE / "layers.py":
            continue
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            if any(isinstance(t, ast.Attribute) and t.attr == "dirty" for t in targets):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} sets .dirty")
            if (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "refresh"
                    and "engine" in path.parts):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} calls refresh")
    assert not offenders, "\n".join(offenders)


def test_the_reason_of_each_mark_is_recorded_on_request() -> None:
    s = scenario({"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]})
    layers.DIRTY_REASONS = []
    try:
        s.do("play Grizzly Bears")
        s.resolve()
        reasons = list(layers.DIRTY_REASONS)
    finally:
        layers.DIRTY_REASONS = None
    assert "comes into play" in reasons
    s.assert_in_play("Grizzly Bears")


def test_the_engine_reaches_the_ops_through_their_registry() -> None:
    """An engine module outside ops/ imports from an op module only the continuation of that
    op's own question."""
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level != 1:
                continue
            mod = node.module or ""
            if mod.startswith("ops."):
                sub = mod.split(".")[1]
                for alias in node.names:
                    if (sub, alias.name) not in OP_CONTINUATIONS:
                        offenders.append(f"{path.name}:{node.lineno} imports {alias.name} from {mod}")
            elif mod == "" and any(a.name == "ops" for a in node.names):
                offenders.append(f"{path.name}:{node.lineno} imports the ops package itself")
    assert not offenders, "\n".join(offenders)


def test_the_module_map_names_every_engine_module() -> None:
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    missing = [p.name for p in sorted(ENGINE.glob("*.py"))
               if p.name != "__init__.py" and f"`{p.name}`" not in doc]
    missing += [f"ops/{p.stem}" for p in sorted((ENGINE / "ops").glob("*.py"))
                if p.name != "__init__.py" and f"`{p.stem}`" not in doc
                and f"`ops/{p.name}`" not in doc]
    assert not missing, f"docs/ARCHITECTURE.md's module map lacks {missing}"


def test_every_module_is_at_most_600_lines() -> None:
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in sorted((ROOT / "mtg_env").rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines (split them by rule topic):\n" + "\n".join(long)
