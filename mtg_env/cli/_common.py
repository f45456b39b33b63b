"""What the ``mtg-env`` commands share: the input-error handling (``fail``, ``error_text``,
``_bad_input_exits``), the checks of names, agents, config files and output paths, the
formatting of rates and the shared help texts (the shared options are in ``_options``)."""

from __future__ import annotations

import functools
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
import yaml
from rich.console import Console

from .. import MtgError
from ..cards.loader import yaml_problem
from ..engine.deck import expand_deck_groups, read_text_file
from ..sim.decks import default_deck_names

F = TypeVar("F", bound=Callable[..., Any])
BACKEND_HELP = "local (processes) or ray"
WORKERS_HELP = "worker processes (default: all cores); results are identical for any number"
MAX_CONFIG_BYTES = 1_000_000



def fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def error_text(exc: MtgError) -> str:
    """An input error's whole message: a multi-line one keeps its later lines (a card's ``text``
    against the printed text shows both), indented under the first."""
    lines = [line.rstrip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return "\n".join(lines[:1] + [line if line[:1].isspace() else f"  {line}" for line in lines[1:]])


def _bad_input_exits(fn: F) -> F:
    """Turn the package's input errors into an ``error: ...`` message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MtgError as exc:
            fail(error_text(exc))

    return wrapper  # type: ignore[return-value]


def _names(value: Any, what: str) -> list[str]:
    """Names from a comma-separated string or a list of strings; an empty name is an error."""
    if isinstance(value, str):
        parts = [v.strip() for v in value.split(",")]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = [v.strip() for v in value]
    else:
        raise MtgError(f"{what}: expected a comma-separated string or a list of names, got {value!r}")
    if any(not p for p in parts):
        raise MtgError(f"{what}: empty name in {value!r}")
    return parts


def _agent_pair(spec: Any, what: str = "--agent") -> tuple[str, str]:
    from agents import make_agent
    from agents.requirements import extra_error

    parts = _names(spec, what)
    if len(parts) not in (1, 2):
        raise MtgError(f"{what} takes one agent or two (AGENT_A,AGENT_B), got {spec!r}")
    for p in parts:
        missing = extra_error(p)  # a network without torch: one line, before any game
        if missing is not None:
            raise MtgError(missing)
        try:  # a name with parameters (mcts:ms=200) is checked by building the agent
            make_agent(p)
        except ValueError as exc:
            raise MtgError(f"{what}: {exc}") from None
    return (parts[0], parts[-1])


def _load_config(path: str | None, types: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """A YAML config file as a dict of option values: UTF-8 (a byte-order mark allowed), a
    mapping, only the keys in ``types``, each value of one of its types (``None`` for any)."""
    if path is None:
        return {}
    text = read_text_file(path, f"config file {path!r}", MAX_CONFIG_BYTES)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MtgError(f"config file {path!r} is not valid YAML: {yaml_problem(exc)}") from None
    except (ValueError, TypeError, RecursionError) as exc:  # e.g. a bad timestamp or a deep nest
        raise MtgError(f"config file {path!r} is not valid YAML: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MtgError(f"config file {path!r} must be a mapping of option names to values")
    data = {str(k).replace("-", "_"): v for k, v in data.items()}
    unknown = set(data) - set(types)
    if unknown:
        hint = " (the key is 'agents')" if "agent" in unknown and "agents" in types else ""
        raise MtgError(f"config file {path!r}: unknown key(s) {', '.join(sorted(unknown))}{hint}; "
                       f"allowed: {', '.join(sorted(types))}")
    for key, value in data.items():
        ok = types[key]
        if value is not None and (not isinstance(value, ok) or (isinstance(value, bool) and bool not in ok)):
            kinds = " or ".join(_TYPE_NAMES[t] for t in ok)
            raise MtgError(f"config file {path!r}: {key} must be {kinds}, got {value!r}")
    if data.get("agents") is not None:
        data["agents"] = [_config_relative_checkpoint(a, path)
                          for a in _names(data["agents"], f"config file {path!r}: agents")]
    return data


def _config_relative_checkpoint(spec: str, config_path: str) -> str:
    """A ``ppo:PATH`` agent (or ``mcts:...:net=PATH``) in a config file names its checkpoint
    relative to the config file (as a shipped config must, to work from any directory); other
    specs are unchanged."""
    if spec.startswith("mcts:"):
        parts = spec.split(":")
        for i, part in enumerate(parts):
            key, _, value = part.partition("=")
            if key == "net" and value and value != "trained" and not Path(value).is_absolute():
                parts[i] = "net=" + str(Path(config_path).resolve().parent / value)
        return ":".join(parts)
    if not spec.startswith("ppo:"):
        return spec
    from agents.policy_agent import parse_ppo_spec

    rest = spec[len("ppo:"):]
    try:
        ckpt = parse_ppo_spec(rest)["path"]
    except ValueError:
        return spec  # reported with the other agent errors
    if Path(ckpt).is_absolute():
        return spec
    head = "path=" if rest.startswith("path=") else ""
    tail = rest[len(head) + len(ckpt):]
    return "ppo:" + str(Path(config_path).resolve().parent / ckpt) + tail


_TYPE_NAMES = {int: "an integer", str: "a string", list: "a list", bool: "true or false"}


def _pick(cli: Any, config: dict[str, Any], key: str, default: Any) -> Any:
    """An option given on the command line wins over the config file, which wins over the default."""
    if cli is not None:
        return cli
    value = config.get(key)
    return default if value is None else value


def _paired(n: int, what: str = "games") -> int:
    """Games are played in seat-swapped pairs (same seed, seats swapped): an odd count is
    rounded up to the next pair, with a note on stderr."""
    if n % 2:
        typer.echo(f"note: games are played in seat-swapped pairs: playing {n + 1} {what}, "
                   f"not {n}", err=True)
        return n + 1
    return n


def _int(value: Any, name: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MtgError(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise MtgError(f"{name} must be at least {minimum}, got {value}")
    return value


def _writable_file(path: str | Path, option: str) -> Path:
    """Check that ``path`` can be written (by opening it for appending) and return it; a file
    that did not exist is removed again."""
    p = Path(path)
    existed = p.exists()
    try:
        with open(p, "a"):
            pass
    except OSError as exc:
        raise MtgError(f"{option}: cannot write {str(p)!r}: {exc.strerror}") from None
    except ValueError as exc:
        raise MtgError(f"{option}: cannot write {str(p)!r}: {exc}") from None
    if not existed:
        p.unlink(missing_ok=True)
    return p


def _writable_dir(path: str, option: str, files: tuple[str, ...]) -> Path:
    """Create the output folder ``path`` if needed and check its ``files`` can be written."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MtgError(f"{option}: cannot create the folder {str(p)!r}: "
                       f"{exc.strerror or exc}") from None
    except ValueError as exc:
        raise MtgError(f"{option}: cannot create the folder {str(p)!r}: {exc}") from None
    if not os.access(p, os.W_OK):
        raise MtgError(f"{option}: the folder {str(p)!r} is not writable")
    for name in files:
        _writable_file(p / name, option)
    return p


def _deck_names(cli: str | None, config: dict[str, Any]) -> list[str]:
    value = _pick(cli, config, "decks", None)
    return default_deck_names() if value is None else expand_deck_groups(_names(value, "decks"))


def _pct(rate: float, lo: float, hi: float) -> str:
    if math.isnan(rate):
        return "—"
    return f"{rate:6.1%}  [{lo:.1%}, {hi:.1%}]"


def _cell(rate: float, lo: float, hi: float) -> str:
    """A matrix cell: win rate and 95% Wilson interval in percent, e.g. ``56% [49-63]``."""
    if math.isnan(rate):
        return "—"
    return f"{rate:.0%} [{100 * lo:.0f}-{100 * hi:.0f}]"


def _console() -> Console:
    # Piped output (a file, a CI log) gets room for the deck names instead of 80 columns.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 160)


_NAMES = (str, list)
_SIM_KEYS: dict[str, tuple[type, ...]] = {
    "games": (int,), "seed": (int,), "workers": (int,), "backend": (str,), "address": (str,),
    "max_turns": (int,), "out": (str,), "agents": _NAMES, "decks": _NAMES,
    "save_games": (str,), "only_losses_of": (str,)}
SAVE_HELP = "write every game's replay (JSON) into this folder"
LOSSES_HELP = "with --save-games: save only the games this agent lost"


def _saved(con: Console, paths: list[Path], folder: Any) -> None:
    if folder is not None:
        con.print(f"wrote {len(paths)} replay file(s) to {folder}")


def _save_dir(folder: Any) -> str | None:
    """Check the --save-games folder before any game runs (the simulator checks
    --only-losses-of against the run's agents, also before any game)."""
    if folder is None:
        return None
    path = Path(str(folder))
    if path.exists() and not path.is_dir():
        raise MtgError(f"--save-games: {str(path)!r} is a file, not a folder")
    existing = path
    while not existing.exists():  # created when the first game is saved, not before
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise MtgError(f"--save-games: cannot create or write the folder {str(path)!r}")
    return str(path)


def _one_agent(spec: str, what: str) -> str:
    """One agent spec, checked (``--agent``/``--opponent-agent`` take one agent each)."""
    if len(_names(spec, what)) != 1:
        raise MtgError(f"{what} takes one agent, got {spec!r} (the other side's is --opponent-agent)")
    return _agent_pair(spec, what)[0]


def _sim_outputs(json_out: str | None, csv_out: str | None, out: str, png: str) -> Path:
    """Check the --out folder (for ``png``; created first, so --json may write into it) and the
    --json/--csv files before any game."""
    out_dir = _writable_dir(out, "--out", (png,))
    if json_out is not None:
        _writable_file(json_out, "--json")
    if csv_out is not None:
        _writable_file(csv_out, "--csv")
    return out_dir


def _wrote(con: Console, res: Any, n: int, files: list[Any]) -> None:
    con.print(f"{n} games in {res.seconds:.1f}s ({n / max(res.seconds, 1e-9):.1f} games/s); "
              f"wrote {', '.join(str(f) for f in files if f is not None)}")
