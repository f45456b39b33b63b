"""Env configuration: every key ``mtg_env.env(**config)`` accepts, with its default.

>>> cfg = EnvConfig.from_kwargs({"max_turns": 30, "max_hand": 12})
>>> cfg.max_turns, cfg.capacities.max_hand, cfg.skip_trivial
(30, 12, True)
>>> EnvConfig.from_kwargs({"max_turn": 3})
Traceback (most recent call last):
...
TypeError: unknown env config key 'max_turn'; did you mean 'max_turns'?
>>> cfg = EnvConfig.from_kwargs({"num_players": 4, "attack": "multiple"})
>>> cfg.game_variant, cfg.attack_multiple
('free_for_all', True)
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mtg_env.encoding.layout import MAX_PLAYERS, Capacities, check_players
from mtg_env.engine.deck import STARTER_DECKS, THEME_DECKS, Deck, expand_deck_groups, load_deck
from mtg_env.engine.errors import MtgError
from mtg_env.engine.seating import ATTACK_OPTIONS, VARIANTS

RENDER_MODES = ("ansi", "human")
ILLEGAL_ACTION_MODES = ("loss", "raise")

DeckSpec = str | Path | Deck
"""A deck as the env takes it: a :class:`Deck`, a built-in deck name or a deck file's path
(:func:`~mtg_env.engine.deck.load_deck`)."""


@cache
def default_deck_names() -> tuple[str, ...]:
    """The five Tenth Edition theme decks when they all load, else the starter decks."""
    try:
        for name in THEME_DECKS:
            Deck.builtin(name)
    except MtgError:
        return STARTER_DECKS
    return THEME_DECKS


@dataclass(frozen=True)
class EnvConfig:
    """The env's configuration (keyword arguments of ``mtg_env.env`` / ``raw_env``).

    Capacity keys (``max_hand``, ``max_permanents``, ...; see
    :class:`~mtg_env.encoding.layout.Capacities`) are accepted at the top level too.
    """

    decks: tuple[DeckSpec, ...] | None = None
    """A fixed pairing: ``player_0`` plays ``decks[0]``, ``player_1`` ``decks[1]`` (one deck per
    seat, ``num_players`` of them); each a built-in deck name (any case), a deck file's path or
    a :class:`Deck`."""
    deck_pool: tuple[DeckSpec, ...] | None = None
    """Decks sampled per episode, independently for each seat (used when ``decks`` is None);
    deck group names (``theme``, ``starter``, ``constructed``, ``all``) stand for their decks;
    default: the theme decks (the starter decks until the theme decks load)."""
    seed: int | None = None
    """Seed of the first ``reset()`` that gives none (later resets continue its RNG)."""
    render_mode: str | None = None
    """``"ansi"`` (``render()`` returns the board as text) or ``"human"`` (prints it)."""
    skip_trivial: bool = True
    """Apply decisions with exactly one option automatically (counted in ``infos``)."""
    max_turns: int | None = 100
    """Turn limit: the game then ends as truncated, reward 0 (None: no limit)."""
    flatten: bool = False
    """One flat float32 ``Box`` observation instead of a ``Dict`` of tables."""
    illegal_action: str = "loss"
    """What an index the action mask forbids does. ``"loss"`` (PettingZoo's classic-game
    convention): the game ends as a loss for the agent that chose it (reward -1, +1 for the
    opponent, both terminated), with an ``IllegalActionWarning`` and the action and decision in
    that agent's ``infos["illegal_action"]``. ``"raise"``: ``IllegalActionError`` naming the index
    and the decision, the game unchanged. Actions outside the action space raise either way."""
    reward_shaping: float = 0.0
    """Coefficient of the optional life-difference shaping (0 = off); see the env docs."""
    legal_texts: bool = False
    """Put ``{index: engine text}`` of the legal actions in the deciding agent's ``infos``."""
    legal_indices: bool = False
    """Put the legal action indices (sorted int64 array) in the deciding agent's ``infos`` as
    ``"legal_actions"``, so agents need not scan the mask."""
    copy_obs: bool = True
    """``False``: ``observe()`` returns the env's own observation and mask buffers, valid until
    the next step (saves copying the observation and allocating a mask at every call)."""
    capacities: Capacities = field(default_factory=Capacities)
    """Slot counts of the observation and action layout."""
    num_players: int = 2
    """Seats at the table, 2 to 6 (agents ``player_0`` .. ``player_{N-1}``); more than two is a
    multiplayer game (see the env docs' Multiplayer section)."""
    variant: str | None = None
    """``"two_player"``, ``"free_for_all"`` (3 to 6 players) or ``"two_headed_giant"`` (4
    players, seats 0+1 against 2+3); None: ``two_player`` for two players, else
    ``free_for_all``."""
    attack: str | None = None
    """The attack option of a Free-for-All game: ``"left"`` (the default), ``"right"`` or
    ``"multiple"`` (each attacking creature attacks any one opponent; adds the
    ``attack_player`` action band)."""
    range: int | None = None
    """The limited range of influence option of a Free-for-All game, in seats (2012 801): a
    player attacks, targets and affects only the players within that many seats. The masks
    follow it; the observation shows every seat as before."""

    def __post_init__(self) -> None:
        n = check_players(self.num_players)
        if self.variant is not None and self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS} or None, got {self.variant!r}")
        variant = self.game_variant
        if variant == "two_player" and n != 2:
            raise ValueError(f"variant 'two_player' needs num_players=2, got {n}")
        if variant == "free_for_all" and n < 3:
            raise ValueError(f"variant 'free_for_all' needs num_players from 3 to {MAX_PLAYERS}, "
                             f"got {n}")
        if variant == "two_headed_giant" and n != 4:
            raise ValueError(f"variant 'two_headed_giant' needs num_players=4 (two teams of two), "
                             f"got {n}")
        if variant == "emperor" and n != 6:
            raise ValueError(f"variant 'emperor' needs num_players=6 (two teams of three), got {n}")
        if self.range is not None:
            if variant != "free_for_all":
                raise ValueError(f"range is an option of free_for_all games, not of a {variant} "
                                 f"game")
            if isinstance(self.range, bool) or not isinstance(self.range, int) \
                    or not 1 <= self.range <= n // 2:
                raise ValueError(f"range must be a number of seats from 1 to {n // 2}, "
                                 f"got {self.range!r}")
        if self.attack is not None:
            if self.attack not in ATTACK_OPTIONS:
                raise ValueError(f"attack must be one of {ATTACK_OPTIONS} or None, "
                                 f"got {self.attack!r}")
            if variant != "free_for_all":
                raise ValueError(f"attack is an option of free_for_all games (num_players 3 to "
                                 f"{MAX_PLAYERS}), not of a {variant} game")
        if self.decks is not None and len(self.decks) != n:
            count = "two decks" if n == 2 else f"{n} decks (num_players={n})"
            raise ValueError(f"decks must name exactly {count}, got {len(self.decks)}")
        if self.deck_pool is not None and not self.deck_pool:
            raise ValueError("deck_pool must not be empty")
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, "
                             f"got {self.render_mode!r}")
        if self.illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                             f"got {self.illegal_action!r}")
        if self.max_turns is not None and self.max_turns < 1:
            raise ValueError(f"max_turns must be positive or None, got {self.max_turns}")

    @classmethod
    def from_kwargs(cls, kwargs: dict[str, Any]) -> EnvConfig:
        """Build from keyword arguments; capacity keys may be given at the top level."""
        own = {f.name for f in dataclasses.fields(cls)}
        caps_keys = set(Capacities.keys())
        mine: dict[str, Any] = {}
        caps: dict[str, Any] = {}
        for k, v in kwargs.items():
            if k in caps_keys:
                caps[k] = v
            elif k in own:
                mine[k] = v
            else:
                close = difflib.get_close_matches(k, sorted(own | caps_keys), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise TypeError(f"unknown env config key {k!r}{hint}")
        if caps:
            if "capacities" in mine:
                raise TypeError("give capacity keys either inside capacities= or at the top level")
            mine["capacities"] = Capacities(**caps)
        for k in ("decks", "deck_pool"):
            if mine.get(k) is not None:
                v = mine[k]
                mine[k] = (v,) if isinstance(v, str | Path | Deck) else tuple(v)
        if mine.get("deck_pool") is not None:  # group names: "constructed", "theme", "all", ...
            pool = mine["deck_pool"]
            mine["deck_pool"] = tuple(
                d for item in pool
                for d in (expand_deck_groups([item]) if isinstance(item, str) else [item]))
        return cls(**mine)

    def as_kwargs(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this config (capacities at the top level)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name != "capacities"}
        out.update(dataclasses.asdict(self.capacities))
        return out

    def pool(self) -> Sequence[DeckSpec]:
        """The decks sampled per seat when ``decks`` is None."""
        return self.deck_pool if self.deck_pool is not None else default_deck_names()

    @property
    def game_variant(self) -> str:
        """The engine variant the games are played under (``variant`` or its default)."""
        if self.variant is not None:
            return self.variant
        return "two_player" if self.num_players == 2 else "free_for_all"

    @property
    def attack_multiple(self) -> bool:
        """Whether the games use the attack multiple players option (Emperor always does)."""
        return self.attack == "multiple" or self.game_variant == "emperor"

    def game_options(self) -> dict[str, str | int] | None:
        """The ``options`` of ``Game.new`` (the attack option and range of influence of a
        Free-for-All game)."""
        opts: dict[str, str | int] = {}
        if self.attack is not None:
            opts["attack"] = self.attack
        if self.range is not None:
            opts["range"] = self.range
        return opts or None


__all__ = ["STARTER_DECKS", "THEME_DECKS", "EnvConfig", "default_deck_names", "load_deck"]
