"""The package layers, read from the source with ``ast`` (every import, including those inside
functions and under ``TYPE_CHECKING``): engine <- cards <- encoding <- env <- agents / sim <- web <-
CLI.

- Nothing in ``mtg_env`` but its command line (the ``mtg_env/cli/`` package) imports the ``agents``
  package: agents are built by name through :mod:`mtg_env.agent_registry`, which ``agents``
  fills when imported.
- Inside ``mtg_env`` the parts import downwards only (``LAYERS``).
- The modules of ``agents`` import one another without cycles.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "mtg_env" / "cli"  # the command-line package, its modules only
IMPORTERS = {"import_module", "__import__"}  # importlib.import_module("agents..."), __import__


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str | None = None) -> list[tuple[str, list[str], int]]:
    """``(module, names, line)`` of every import in ``path`` (the module ``name``, by default
    read from its place in the repository), relative ones resolved; plain ``import a.b`` gives
    ``("a.b", [], line)``, and a call ``import_module("x")`` with a literal name
    ``("x", [], line)``."""
    name = name or _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.append((module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            arg = node.args[0]
            if called in IMPORTERS and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append((arg.value, [], node.lineno))
    return out


def _is_agents(module: str) -> bool:
    return module == "agents" or module.startswith("agents.")


def test_mtg_env_does_not_import_agents_below_the_cli() -> None:
    offenders = []
    for path in sorted((ROOT / "mtg_env").rglob("*.py")):
        if path.parent == CLI:
            continue
        for module, _names, line in _imports(path):
            if _is_agents(module):
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not offenders, ("mtg_env below its CLI must not import the agents package (build "
                           "agents with mtg_env.agent_registry.make_agent):\n" + "\n".join(offenders))


# Each part of mtg_env and the rank of its layer: a module may import its own layer or lower ones.
LAYERS = {"engine": 0, "agent_registry": 0, "cards": 1, "testing": 1, "encoding": 2, "env": 3,
          "vector": 4, "sim": 4, "web": 5, "cli": 6, "build_compiled": 6}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "mtg_env" and len(parts) > 1 else None


def test_mtg_env_layers_point_one_way() -> None:
    """engine <- cards <- encoding <- env <- vector / sim <- web <- cli: no part imports a higher one
    (the package's ``__init__`` is the front door over all of them and is left out)."""
    offenders = []
    for path in sorted((ROOT / "mtg_env").rglob("*.py")):
        here = _layer(_module_name(path))
        if here is None:
            continue
        assert here in LAYERS, f"{path.relative_to(ROOT)}: give its part a layer in LAYERS"
        for module, names, line in _imports(path):
            targets = [_layer(f"{module}.{n}") for n in names] if module == "mtg_env" else [_layer(module)]
            for there in targets:
                if there in LAYERS and LAYERS[there] > LAYERS[here]:
                    offenders.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {there}")
    assert not offenders, "imports against the layers:\n" + "\n".join(offenders)


def test_the_check_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The ast walk finds imports inside functions and by importlib with a literal name."""
    src = tmp_path / "probe.py"
    src.write_text("from . import runner\n\n"
                   "def f():\n    from agents import make_agent\n\n"
                   "def g():\n    import importlib\n    importlib.import_module('agents.human')\n")
    found = [m for m, _n, _l in _imports(src, "mtg_env.sim.probe")]
    assert found == ["mtg_env.sim", "agents", "importlib", "agents.human"]


def test_importing_mtg_env_loads_no_agents() -> None:
    """At run time too: the env, vector envs and simulations import without ``agents``."""
    code = ("import sys, mtg_env, mtg_env.env, mtg_env.vector, mtg_env.sim, mtg_env.sim.replay, "
            "mtg_env.agent_registry\n"
            "mtg_env.env(seed=0).reset()\n"
            "assert not [m for m in sys.modules if m == 'agents' or m.startswith('agents.')], "
            "sorted(m for m in sys.modules if m.startswith('agents'))\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr


def _agents_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in sorted((ROOT / "agents").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        deps = set()
        for module, names, _line in _imports(path):
            # ``from . import x`` imports the submodule x when there is one, else the package
            subs = [f"{module}.{n}" for n in names if f"{module}.{n}" in files]
            deps.update(subs or [module])
        graph[name] = {d for d in deps if d in files and d != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_among_the_agents_modules() -> None:
    graph = _agents_graph()
    assert {"agents.ppo", "agents.checkpoint", "agents.imitation"} <= set(graph)
    cycles = _cycles(graph)
    detail = ["  " + ", ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) for c in cycles]
    assert not cycles, "import cycles among agents/ modules:\n" + "\n".join(detail)


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
