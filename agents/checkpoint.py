"""Policy checkpoints that know which env they were trained for.

A checkpoint is the zip that Stable-Baselines3 writes (``model.save``) with one more member,
``mtg_env_meta.json``: the training config, the ``mtg_env`` version, the card vocabulary version
and signature, the layout version and signature, the observation and action shapes, the
capacities, the env id (``mtg_v1``), and the algorithm and policy classes. SB3 ignores the extra
member, so the file still loads with ``MaskablePPO.load``.

:func:`load_checkpoint` refuses a checkpoint whose vocabulary, layout or shapes differ from this
install (:class:`CheckpointMismatchError` naming both values): a policy trained on other card
indices or other columns would play legally but blindly.

>>> sorted(install_signature())[:4]
['action_size', 'capacities', 'env_id', 'layout_signature']
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import os
import platform
import time
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "ENV_ID",
    "META_NAME",
    "CheckpointError",
    "CheckpointMismatchError",
    "check_compatible",
    "export_policy",
    "install_signature",
    "load_checkpoint",
    "read_meta",
    "save_checkpoint",
    "save_net_checkpoint",
]

META_NAME = "mtg_env_meta.json"
ENV_ID = "mtg_v1"
META_FORMAT = 1
# The fields that must agree between a checkpoint and this install, in the order they're checked.
_MUST_MATCH = ("env_id", "vocab_version", "vocab_signature", "layout_version", "layout_signature",
               "observation_shape", "action_size")


class CheckpointError(ValueError):
    """A checkpoint file that is missing, unreadable or not an ``mtg_env`` policy checkpoint."""


@contextlib.contextmanager
def checkpoint_errors_as_usage() -> Iterator[None]:
    """For the command lines (``agents.ppo``, ``agents.imitation``): a checkpoint that is
    missing, unreadable or doesn't fit (``init_from``, ``--resume``, ``dagger_init``, the one
    evaluated) is a one-line usage error (exit 2), not a traceback."""
    import typer

    try:
        yield
    except CheckpointError as exc:
        raise typer.BadParameter(str(exc)) from None


class CheckpointMismatchError(CheckpointError):
    """A checkpoint trained for another card vocabulary, layout or observation shape."""

    def __init__(self, path: str | Path, key: str, saved: Any, here: Any) -> None:
        self.key = key
        self.saved = saved
        self.here = here
        super().__init__(f"checkpoint {str(path)!r} was trained with {key}={saved!r} but this "
                         f"install has {key}={here!r}; retrain the policy for this mtg_env version")


def _caps(capacities: Any = None, config: Mapping[str, Any] | None = None):
    """The :class:`Capacities` of ``capacities`` (an instance or a dict), else of the capacity
    keys found in ``config`` (top level or under ``"env"``), else the defaults."""
    from mtg_env.encoding.layout import Capacities

    if isinstance(capacities, Capacities):
        return capacities
    if isinstance(capacities, Mapping):
        return Capacities(**capacities)
    found: dict[str, Any] = {}
    keys = set(Capacities.keys())
    for src in (config or {}, (config or {}).get("env") or {}):
        if isinstance(src, Mapping):
            found.update({k: v for k, v in src.items() if k in keys})
            if isinstance(src.get("capacities"), Mapping):
                found.update(src["capacities"])
    return Capacities(**found)


def _space_shape(space: Any) -> Any:
    """A JSON-friendly shape of a gym space: a list for a Box, ``{key: shape}`` for a Dict."""
    sub = getattr(space, "spaces", None)
    if isinstance(sub, Mapping):
        return {k: _space_shape(v) for k, v in sub.items()}
    return list(space.shape)


def install_signature(capacities: Any = None, flatten: bool = True) -> dict[str, Any]:
    """What a checkpoint must agree with on this install, for ``capacities`` (defaults if None)
    and a flat (``flatten=True``) or dict observation."""
    import mtg_env
    from mtg_env.encoding.layout import (
        LAYOUT_VERSION,
        ActionLayout,
        ObservationLayout,
        layout_signature,
    )
    from mtg_env.encoding.vocab import VOCAB_VERSION, vocabulary

    caps = _caps(capacities)
    obs = ObservationLayout(caps)
    shape: Any = [obs.size] if flatten else {n: list(s) for n, s in obs.shapes.items()}
    return {
        "env_id": ENV_ID,
        "mtg_env_version": mtg_env.__version__,
        "vocab_version": VOCAB_VERSION,
        "vocab_signature": vocabulary().signature(),
        "layout_version": LAYOUT_VERSION,
        "layout_signature": layout_signature(caps),
        "observation_shape": shape,
        "action_size": ActionLayout(caps).size,
        "capacities": dataclasses.asdict(caps),
    }


def _json_default(o: Any) -> Any:
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return dataclasses.asdict(o)
    if isinstance(o, Path):
        return str(o)
    if isinstance(o, set | frozenset | tuple):
        return list(o)
    if hasattr(o, "item"):  # numpy scalars
        return o.item()
    raise TypeError(f"config value {o!r} ({type(o).__name__}) is not JSON-serialisable")


def _class_path(obj: Any) -> str:
    cls = obj if isinstance(obj, type) else type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def save_checkpoint(model: Any, path: str | Path, config: Mapping[str, Any],
                    capacities: Any = None, extra: Mapping[str, Any] | None = None) -> Path:
    """Save an SB3 model with its ``mtg_env`` metadata; returns the file written (``.zip`` is
    appended to a name without it). ``capacities`` defaults to the capacity keys in ``config``
    (top level or under ``"env"``), else the env defaults. The file is written to a temporary name
    and renamed, so an interrupted save never leaves a half-written checkpoint at ``path``.

    ``extra``: more JSON-able metadata entries (e.g. ``behaviour_cloning``, written by
    :mod:`agents.imitation`); they can't replace the standard ones.

    Raises :class:`CheckpointMismatchError` if the model's observation or action space doesn't
    fit this install's env with those capacities.
    """

    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_name(path.name + ".zip")
    caps = _caps(capacities, config)
    obs_shape = _space_shape(model.observation_space)
    here = install_signature(caps, flatten=not isinstance(obs_shape, dict))
    saved = dict(here, observation_shape=obs_shape, action_size=int(model.action_space.n))
    for key in ("observation_shape", "action_size"):
        if saved[key] != here[key]:
            raise CheckpointMismatchError(path, key, saved[key], here[key])
    meta = _standard_meta(model, saved, config)
    for key, value in (extra or {}).items():
        if key in meta:
            raise ValueError(f"extra metadata key {key!r} would replace a standard entry")
        meta[key] = json.loads(json.dumps(value, default=_json_default))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.zip")
    try:
        model.save(tmp)
        with zipfile.ZipFile(tmp, "a", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(META_NAME, json.dumps(meta, indent=2, sort_keys=True))
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _standard_meta(model: Any, saved: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata entries every checkpoint has (``saved``: the install signature and shapes)."""
    import sb3_contrib
    import stable_baselines3
    import torch

    return {
        "format": META_FORMAT,
        **saved,
        "algorithm": _class_path(model),
        "policy_class": _class_path(model.policy),
        "num_timesteps": int(getattr(model, "num_timesteps", 0)),
        "config": json.loads(json.dumps(dict(config), default=_json_default)),
        "versions": {"python": platform.python_version(), "torch": torch.__version__,
                     "stable_baselines3": stable_baselines3.__version__,
                     "sb3_contrib": sb3_contrib.__version__},
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def read_meta(path: str | Path) -> dict[str, Any]:
    """The metadata of a checkpoint, without loading the model. Raises :class:`CheckpointError`
    for a missing or unreadable file or one not saved by :func:`save_checkpoint`."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file at {str(path)!r}")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if META_NAME not in names:
                what = "an SB3 model without mtg_env metadata" if "data" in names else "not an SB3 model"
                raise CheckpointError(f"{str(path)!r} is {what} (no {META_NAME}); save policies "
                                      "with agents.checkpoint.save_checkpoint")
            meta = json.loads(zf.read(META_NAME))
    except (zipfile.BadZipFile, OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{str(path)!r} is not a readable checkpoint zip: {exc}") from None
    if not isinstance(meta, dict) or "format" not in meta:
        raise CheckpointError(f"{str(path)!r} has a malformed {META_NAME}")
    return meta


def check_compatible(meta: Mapping[str, Any], path: str | Path = "<checkpoint>") -> None:
    """Raise :class:`CheckpointMismatchError` unless ``meta`` fits this install (same env id,
    card vocabulary, layout and shapes for the checkpoint's capacities)."""
    shape = meta.get("observation_shape")
    try:
        here = install_signature(meta.get("capacities"), flatten=not isinstance(shape, dict))
    except (TypeError, ValueError) as exc:
        raise CheckpointMismatchError(path, "capacities", meta.get("capacities"),
                                      f"invalid here ({exc})") from None
    for key in _MUST_MATCH:
        if meta.get(key) != here[key]:
            raise CheckpointMismatchError(path, key, meta.get(key), here[key])


def _import(path: str) -> Any:
    module, _, name = path.rpartition(".")
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _policy_kwargs(path: str | Path, meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The saved ``policy_kwargs`` with the checkpoint's capacities spelled out (``None`` to
    load them as saved). A structured policy saved with ``capacities={}`` meant the defaults of
    its day, which :func:`save_checkpoint` recorded in full in the metadata: this keeps it
    loadable after a default changes."""
    from stable_baselines3.common.save_util import json_to_data

    caps = meta.get("capacities")
    try:
        with zipfile.ZipFile(path) as z:
            kwargs = json_to_data(z.read("data").decode()).get("policy_kwargs")
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        return None  # algo.load reports what is wrong with the file
    if not isinstance(kwargs, dict) or "capacities" not in kwargs or not isinstance(caps, Mapping):
        return None
    return {"policy_kwargs": {**kwargs, "capacities": dict(caps)}}


def load_checkpoint(path: str | Path, device: str = "cpu") -> tuple[Any, dict[str, Any]]:
    """``(model, meta)`` from a checkpoint written by :func:`save_checkpoint`.

    Raises :class:`CheckpointError` for a missing, corrupt or foreign file and
    :class:`CheckpointMismatchError` for one trained for another vocabulary, layout or shape.
    """
    meta = read_meta(path)
    check_compatible(meta, path)
    algo_path = meta.get("algorithm", "sb3_contrib.ppo_mask.ppo_mask.MaskablePPO")
    try:
        algo = _import(algo_path)
    except (ImportError, AttributeError) as exc:
        raise CheckpointError(f"checkpoint {str(path)!r} needs {algo_path}, which can't be "
                              f"imported: {exc}") from None
    try:
        model = algo.load(str(path), device=device, custom_objects=_policy_kwargs(path, meta))
    except (zipfile.BadZipFile, KeyError, RuntimeError, ValueError, EOFError) as exc:
        raise CheckpointError(f"checkpoint {str(path)!r} could not be loaded: "
                              f"{type(exc).__name__}: {exc}") from None
    return model, meta


def export_policy(src: str | Path, dst: str | Path, note: str | None = None) -> Path:
    """Write a play-only copy of checkpoint ``src`` to ``dst``: the same weights, config and
    metadata, with the optimizer's state reset (Adam's moment estimates are two more copies of
    the weights, needed only to continue training). The copy plays exactly like ``src`` and still
    loads as a MaskablePPO model; ``note`` is recorded as ``exported`` metadata.
    """
    model, meta = load_checkpoint(src)
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=policy.optimizer.defaults["lr"],
                                              **policy.optimizer_kwargs)
    signature = dict(install_signature(meta.get("capacities")), observation_shape=None, action_size=None)
    standard = _standard_meta(model, signature, {})
    extra = {k: v for k, v in meta.items() if k not in standard}
    extra["exported"] = {"from": Path(src).name, "note": note or ""}
    return save_checkpoint(model, dst, meta.get("config") or {}, capacities=meta.get("capacities"),
                           extra=extra)


def save_net_checkpoint(state_dict: Mapping[str, Any], path: str | Path, net: Mapping[str, int],
                        capacities: Mapping[str, int] | None = None, max_turns: int = 40,
                        seed: int = 0, opponent: str = "self_play",
                        extra: Mapping[str, Any] | None = None) -> Path:
    """A policy checkpoint from the weights of a structured network (:class:`~agents.policy_net.
    MtgNet`) trained outside Stable-Baselines3 (Ray RLlib, a custom loop): the weights go into a
    new MaskablePPO model with the structured policy of sizes ``net`` and ``capacities``, saved
    with :func:`save_checkpoint`, so ``ppo:PATH`` plays it and ``init_from`` fine-tunes it. The
    recorded config says ``opponent`` (how it was trained) and ``max_turns``; ``extra`` adds
    metadata entries (e.g. the RLlib run). Raises ``RuntimeError`` (torch's) if the weights don't
    fit the network."""
    from mtg_env.vector import MtgVectorEnv, Sb3VecEnv

    from .training_common import PPOConfig, new_model

    cfg = PPOConfig(seed=seed, max_turns=max_turns, capacities=dict(capacities or {}),
                    policy="structured", net=dict(net), num_envs=1, num_workers=0,
                    opponent=opponent)
    env = Sb3VecEnv(MtgVectorEnv(1, seed=seed, **cfg.env_config()))
    try:
        model = new_model(cfg, env, 0)
    finally:
        env.close()
    model.policy.net.load_state_dict(dict(state_dict))
    return save_checkpoint(model, path, config=dataclasses.asdict(cfg), extra=extra)

