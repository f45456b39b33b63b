"""A rich progress bar for game runs (on stderr, so JSON on stdout stays clean)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

__all__ = ["game_progress"]


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:5.1f} games/s" if speed else "  -- games/s", style="cyan")


@contextmanager
def game_progress(total: int, description: str, enabled: bool = True,
                  console: Console | None = None) -> Iterator[Callable[[int], None]]:
    """Yield an ``advance(n)`` callback that moves a bar of ``total`` games."""
    if not enabled:
        yield lambda n: None
        return
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=24), MofNCompleteColumn(),
                        _RateColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                        console=console or Console(stderr=True, width=None if sys.stderr.isatty() else 120))
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda n: progress.advance(task, n)
