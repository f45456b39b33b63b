"""The local web table: play a game in the browser against any agent (or another person in a
second tab), ``mtg-env play DECK_A DECK_B --agent human,heuristic --web``.

:mod:`mtg_env.web.table` plays the game and says what each seat may see, :mod:`mtg_env.web.server`
serves it (Starlette and uvicorn, the ``[web]`` extra: ``pip install 'mtg_env[web]'``),
:mod:`mtg_env.web.page` is the page and :mod:`mtg_env.web.play` the command's flow. Importing this
package needs no extra; the server does.
"""

from __future__ import annotations

import importlib.util

from .table import ActionRejected, WebTable

__all__ = ["WEB_INSTALL", "WEB_MODULES", "ActionRejected", "WebTable", "extra_error"]

WEB_MODULES = ("starlette", "uvicorn")
"""The modules of the ``[web]`` extra."""

WEB_INSTALL = "pip install 'mtg_env[web]'"


def extra_error() -> str | None:
    """The one-line error when the ``[web]`` extra is missing, else ``None``."""
    missing = []
    for name in WEB_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    if missing:
        return f"--web needs the [web] extra ({', '.join(missing)} missing): {WEB_INSTALL}"
    return None
