"""The install's compiled-engine switch (``setup.py``, ``tools/build_backend.py``): what it asks
for and what it compiles, checked without running a build (``tests/engine/test_compiled.py``
plays the compiled engine's games)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from mtg_env.engine import compiled

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def setup_py() -> ModuleType:
    return _load(ROOT / "setup.py", "mtg_env_setup_under_test")


@pytest.fixture
def backend() -> ModuleType:
    pytest.importorskip("setuptools")
    return _load(ROOT / "tools" / "build_backend.py", "mtg_env_backend_under_test")


def test_setup_compiles_exactly_the_engines_compiled_modules(setup_py: ModuleType) -> None:
    assert setup_py._compiled_modules() == compiled.COMPILED_MODULES


def test_setup_compiles_nothing_unless_asked(setup_py: ModuleType,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MTG_ENV_COMPILE", raising=False)
    assert setup_py._ext_modules() == []
    monkeypatch.setenv("MTG_ENV_COMPILE", "0")
    assert setup_py._ext_modules() == []


def test_the_manifest_setup_writes_is_the_one_the_engine_checks(setup_py: ModuleType) -> None:
    lines = setup_py._manifest().splitlines()
    assert dict(line.split(" ") for line in lines) == compiled.source_digests()


def test_the_backend_asks_for_mypy_only_when_compiling(backend: ModuleType,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def hook(config_settings: object) -> list[str]:
        seen.append(os.environ.get("MTG_ENV_BUILD_REQUIRES"))
        return ["wheel"]

    monkeypatch.delenv("MTG_ENV_COMPILE", raising=False)
    assert backend._requires(hook, None) == ["wheel"]
    monkeypatch.setenv("MTG_ENV_COMPILE", "1")
    assert backend._requires(hook, None) == ["wheel", *backend._COMPILE_REQUIRES]
    assert any(r.startswith("mypy") for r in backend._COMPILE_REQUIRES)
    # setup.py runs while the requirements are computed, before mypy is there: it is told so
    assert seen == ["1", "1"] and "MTG_ENV_BUILD_REQUIRES" not in os.environ


def test_without_a_c_compiler_the_compiling_install_gives_the_pure_engine(tmp_path: Path) -> None:
    """``MTG_ENV_COMPILE=1`` on a machine without a C compiler (``CC`` names none): the build
    says why and makes a wheel of the sources, which is what such an install runs."""
    import shutil
    import subprocess
    import sys
    import zipfile

    pytest.importorskip("setuptools")
    pytest.importorskip("mypyc")
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_compiled_sources.txt")
    for name in ("tools", "mtg_env", "agents"):
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    env = {**os.environ, "MTG_ENV_COMPILE": "1", "CC": str(tmp_path / "no-such-compiler")}
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                          "--no-build-isolation", "-w", str(tmp_path / "dist"), str(src)],
                         env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "the compiled engine could not be built" in out.stdout + out.stderr
    (wheel,) = (tmp_path / "dist").glob("mtg_env-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "mtg_env/engine/game.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd")) or "_compiled_sources" in n]
