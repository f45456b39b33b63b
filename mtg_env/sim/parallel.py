"""Run many games: in this process, on a pool of processes, or as Ray tasks.

Every game is fully described by its :class:`~mtg_env.sim.runner.GameSpec` (decks, agents, seed),
so where it runs changes nothing: results are returned sorted by game index and are identical for
``workers=1``, ``workers=K`` and the Ray backend.
"""

from __future__ import annotations

import functools
import importlib.util
import multiprocessing as mp
import os
import sys
from collections.abc import Callable, Iterator, Sequence

from ..engine.errors import MtgError
from .runner import GameResult, GameSpec, run_spec

__all__ = ["BACKENDS", "check_backend", "default_workers", "run_games"]

BACKENDS = ("local", "ray")
ProgressFn = Callable[[int], None]
PlayFn = Callable[[GameSpec], GameResult]


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)


def _run_chunk(specs: Sequence[GameSpec], play: PlayFn = run_spec) -> list[GameResult]:
    return [play(s) for s in specs]


def _chunks(specs: Sequence[GameSpec], workers: int) -> list[list[GameSpec]]:
    # Small chunks keep every worker busy to the end and the progress bar moving; big enough
    # that the per-task overhead stays small.
    size = max(1, min(16, len(specs) // (workers * 8) or 1))
    return [list(specs[i:i + size]) for i in range(0, len(specs), size)]


def check_backend(workers: int | None, backend: str) -> None:
    """Raise :class:`~mtg_env.MtgError` for a backend or worker count that can't run."""
    if backend not in BACKENDS:
        raise MtgError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise MtgError(f"workers must be a whole number of at least 1, got {workers!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise MtgError("the ray backend needs Ray: pip install 'mtg_env[ray]'")


def run_games(specs: Sequence[GameSpec], workers: int | None = None, backend: str = "local",
              address: str | None = None, on_result: ProgressFn | None = None,
              play: PlayFn = run_spec) -> list[GameResult]:
    """Play every game of ``specs``; ``on_result(n)`` is called as ``n`` more games finish.

    ``backend="local"`` uses ``workers`` processes (default: all cores; 1 = this process);
    ``backend="ray"`` submits chunks of games as Ray tasks to the cluster at ``address`` (or a
    local Ray instance when none is running and no address is given). ``play`` plays one game
    (default :func:`~mtg_env.sim.runner.run_spec`); another must be a picklable module-level
    function returning a :class:`GameResult` (or a subclass carrying more data).
    """
    check_backend(workers, backend)
    workers = default_workers() if workers is None else workers
    if backend == "ray":
        results = list(_run_ray(specs, address, on_result, play))
    elif workers == 1 or len(specs) <= 1:
        results = []
        for s in specs:
            results.append(play(s))
            if on_result is not None:
                on_result(1)
    else:
        results = list(_run_pool(specs, workers, on_result, play))
    results.sort(key=lambda r: r.index)
    return results


def _run_pool(specs: Sequence[GameSpec], workers: int, on_result: ProgressFn | None,
              play: PlayFn = run_spec) -> Iterator[GameResult]:
    chunks = _chunks(specs, workers)
    # fork is fast and inherits the loaded card registry; spawn elsewhere (macOS, Windows).
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    ctx = mp.get_context(method)
    with ctx.Pool(processes=min(workers, len(chunks))) as pool:
        chunk_fn = _run_chunk if play is run_spec else functools.partial(_run_chunk, play=play)
        for batch in pool.imap_unordered(chunk_fn, chunks):
            if on_result is not None:
                on_result(len(batch))
            yield from batch


def _run_ray(specs: Sequence[GameSpec], address: str | None, on_result: ProgressFn | None,
             play: PlayFn = run_spec) -> Iterator[GameResult]:
    try:
        import ray
    except ImportError:
        raise MtgError("the ray backend needs Ray: pip install 'mtg_env[ray]'") from None
    if not ray.is_initialized():
        if address:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    workers = max(int(ray.cluster_resources().get("CPU", 1)), 1)
    remote = ray.remote(_run_chunk)
    pending = [remote.remote(c, play) for c in _chunks(specs, workers)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            batch = ray.get(ref)
            if on_result is not None:
                on_result(len(batch))
            yield from batch
