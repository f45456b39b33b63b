"""Card definitions: YAML data over the engine's effect vocabulary, validated at load time."""

from __future__ import annotations

from mtg_env.engine import registry

from .loader import load_all

registry.register_loader(load_all)

__all__ = ["load_all"]
