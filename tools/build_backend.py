"""The package's build backend: setuptools', plus mypy as a build requirement when
``MTG_ENV_COMPILE=1`` asks for the compiled engine (``setup.py``). A plain install doesn't fetch
mypy into its build environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the rest of the PEP 517/660 hooks, unchanged

_COMPILE_REQUIRES = ["mypy>=1.10"]


def _compiling() -> bool:
    return os.environ.get("MTG_ENV_COMPILE", "") not in ("", "0")


def _requires(hook: Callable[[Any], list[str]], config_settings: Any) -> list[str]:
    # setuptools runs setup.py to answer; mypy is not installed yet, and setup.py stays quiet
    # about it while this is set.
    os.environ["MTG_ENV_BUILD_REQUIRES"] = "1"
    try:
        found = hook(config_settings)
    finally:
        del os.environ["MTG_ENV_BUILD_REQUIRES"]
    return [*found, *(_COMPILE_REQUIRES if _compiling() else [])]


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
