"""The observer: a game state -> fixed-shape float32 tensors for one player, plus the action mask.

Each viewer has a preallocated flat buffer that is updated in place: a table row is rewritten only
when what it shows changed (a permanent's state, a hand or graveyard that grew), and every
observation handed out is a fresh copy of the buffer, so callers may keep or modify it.

What the viewer may not see never enters its buffer: the opponent's hand shows only its size and
the cards of it the viewer knows (``mtg_env.engine.knowledge.known_cards``: cards that went there
from a public zone, that a decision showed the viewer, revealed or looked at: Peek, Distress) and
the whole hand when it is played revealed (Telepathy); libraries show only their sizes, plus the cards a
decision of the viewer shows from them (a library search) and the library cards the viewer knows
(Aven Windreader), in the revealed table. The pending decision's details (options, choices so
far) are the decider's only; the other player sees who decides and what kind of decision it is.

An observation depends only on the game as it is now (the knowledge of hidden cards is game
state), so :meth:`Observer.observe_view` computes it from an agent's redacted view, identical to
the env's.

>>> from mtg_env import Deck, Game
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=1)
>>> obs = Observer()
>>> o, mask = obs.observe(g, g.decision.player)
>>> sorted(obs.legal(g).values(), key=str)
[Action('keep'), Action('mulligan')]
>>> int(mask.sum()), o["game"].shape == obs.obs_layout.shapes["game"]
(2, True)
"""


from __future__ import annotations

from typing import Any

import numpy as np

from mtg_env.engine.actions import Action
from mtg_env.engine.errors import MtgError
from mtg_env.engine.game import Game
from mtg_env.engine.knowledge import known_cards
from mtg_env.engine.seating import teammates
from mtg_env.engine.view import PlayerView, sample_game

from .action_index import ActionIndex
from .decision_rows import DecisionRows
from .layout import ActionLayout, Capacities, EncodingError, ObservationLayout, relative_seats
from .vocab import CardRows
from .zone_tables import ZoneTables, _Caches

_PERM_VERBS = frozenset({"mana", "activate", "attack", "block"})  # indices from permanent rows only


class _View(ZoneTables, DecisionRows, ActionIndex):
    """One viewer's buffer and what it currently shows (for incremental updates)."""

    def __init__(self, obs: Observer, me: int) -> None:
        self.o = obs
        self.me = me
        self.n = obs.players
        self.multi = self.n > 2
        self._seat(relative_seats(self.n, me), ())
        lay = obs.obs_layout
        self.buf = np.zeros(lay.size, np.float32)
        self.sec = {name: self.buf[lay.offset[name]:lay.offset[name] + int(np.prod(shape))]
                    .reshape(shape) for name, shape in lay.shapes.items()}
        self.game: Game | None = None
        self.stamp = -1
        self.stamp_decision: Any = None
        self.mask = np.zeros(obs.act_layout.size, np.int8)  # handed out by observe(copy=False)
        self.mask_set: list[int] = []  # the indices set in ``mask``
        self.clear()

    def _seat(self, seats: tuple[int, ...], team: tuple[int, ...]) -> None:
        """Seat the viewer: ``seats`` the absolute seats in the observation's order (own first),
        ``team`` the viewer's teammates."""
        self.seats = seats
        self.rel = [0] * len(seats)  # absolute seat -> relative seat
        for r, q in enumerate(seats):
            self.rel[q] = r
        self.team = frozenset(team)
        self.others = seats[1:]
        self.two = len(seats) == 2
        self.opp = seats[1]  # the opponent of a two-player game (the next seat otherwise)
        self.opp_set = frozenset(q for q in seats[1:] if q not in self.team)

    def clear(self) -> None:
        caps = self.o.caps
        n = self.n
        self.buf[:] = 0
        self.mask[:] = 0
        self.mask_set = []
        self.layout = 0  # bumped whenever a row's meaning changes (the action mapping cache)
        self.ref_layout = 0  # bumped when permanent or graveyard rows change (stack refs)
        self.stack_sig: Any = None
        self.idx_cache: dict[int, tuple[Action, int]] = {}
        self.idx_layout = -1
        self.perm_layout = 0  # bumped when permanents change rows
        self.perm_idx_cache: dict[int, tuple[Action, int]] = {}
        self.perm_idx_layout = -1
        self.perm_row_views = list(self.sec["permanents"])
        self.row_obj: list[Any] = [None] * (n * caps.max_permanents)
        self.row_key: list[Any] = [None] * (n * caps.max_permanents)
        self.perm_list: list = []
        self.perm_keys: list = []
        self.perm_rowof: list[int] = []
        self.hand_own: list = []
        self.opp_key: list[tuple] = [((), 0)] * n  # per relative seat (0 unused)
        self.piles: dict[str, list[list]] = {"graveyards": [[] for _ in range(n)],
                                             "removed": [[] for _ in range(n)]}
        self.stack_rows = 0
        self.revealed_rows = 0
        self.revealed_key: tuple | None = None  # the known library cards the table shows
        self.extra: set[int] = set()  # card ids in hidden zones the viewer knows (knowledge.known_cards)
        self.trigger_rows = 0
        self.marks: list[int] = []
        self.scalars: tuple | None = None
        self.hot: tuple = ()
        self.player_key: tuple | None = None
        # id -> row maps used by the action mapping
        self.pid_row: dict[int, int] = {}
        self.hand_row: dict[int, int] = {}
        self.opp_hand_row: dict[int, int] = {}
        self.pile_row: dict[str, dict[int, int]] = {"graveyards": {}, "removed": {}}
        self.stack_row: dict[int, int] = {}
        self.revealed_row: dict[int, int] = {}
        self.seat_rows: list[list] = [[] for _ in range(n)]  # permanents by relative seat
        self.own_rows: list = self.seat_rows[0]
        self.opp_rows: list = self.seat_rows[1]
        self.seat_key: tuple | None = None  # the multiplayer seat fields last written

    # -- the whole update --------------------------------------------------------------
    def update(self, game: Game) -> None:
        d = game.decision
        if game is not self.game or self.stamp == -1:
            # a new game, or an update that failed half-way (a CapacityError) left rows behind
            if len(game.players) != self.n:
                raise MtgError(f"this observer encodes games of {self.n} players, not a game of "
                               f"{len(game.players)}: build it with players={len(game.players)} "
                               "(env config num_players)")
            if self.multi:
                if game.attack_option == "multiple" and not self.o.act_layout.attack_multiple:
                    raise MtgError("this game uses the attack multiple players option: build the "
                                   "observer with attack_multiple=True (env config "
                                   "attack='multiple')")
                mates = teammates(game, self.me)
                self._seat(relative_seats(self.n, self.me, mates), mates)
            self.clear()
            self.game = game
        elif game.decisions_made == self.stamp and d is self.stamp_decision:
            return
        self.stamp = -1  # stays invalid if an update fails half-way (a CapacityError)
        me = self.me
        deciding = d is not None and d.player == me
        perms = game.permanents
        self.extra = known_cards(game, me)
        self._other_hands(game)
        self._permanents(perms)
        self._hand(game.players[me].hand)
        self._piles(game)
        frames = game.frames
        self._stack(game, frames, d if deciding else None)
        self._decision(game, d, deciding, frames)
        self.stamp = game.decisions_made
        self.stamp_decision = d


class Observer:
    """Encodes a game for any of its players into the observation tensors and the action mask.

    ``observe(game, player)`` returns ``(observation, mask)``: the observation is a dict of
    float32 arrays (or one flat float32 vector with ``flatten=True``), the mask an int8 vector of
    the action space's size, all zeros unless ``player`` is deciding. ``legal(game)`` maps every
    legal index of the pending decision to its engine :class:`Action`.

    ``players`` (2 to 6) fixes the seat count of the games it encodes, with one block of rows
    per seat in each viewer's order (:func:`~mtg_env.encoding.layout.relative_seats`);
    ``attack_multiple`` adds the ``attack_player`` band for games under the attack multiple
    players option.
    """

    def __init__(self, caps: Capacities | None = None, flatten: bool = False, players: int = 2,
                 attack_multiple: bool = False) -> None:
        self.caps = caps or Capacities()
        self.flatten = flatten
        self.obs_layout = ObservationLayout(self.caps, players)
        self.act_layout = ActionLayout(self.caps, players, attack_multiple)
        self.players = self.obs_layout.players
        self.rows = CardRows()
        self.caches = _Caches()
        self._views = tuple(_View(self, i) for i in range(self.players))
        self._legal_game: Game | None = None
        self._legal_decision: Any = None
        self._legal_stamp = -1
        self._legal: dict[int, Action] = {}

    def reset(self) -> None:
        """Forget everything shown so far (start of a new game)."""
        for v in self._views:
            v.clear()
            v.game = None
        self._legal_game = None
        self._legal_decision = None
        self._legal = {}

    def note(self, game: Game) -> None:
        """Nothing to record: what each player knows of hidden cards is game state
        (:mod:`mtg_env.engine.knowledge`), so an observation depends only on the game as it is
        now. Kept so callers written for the older history-keeping observer still work."""

    def observe(self, game: Game, player: int, copy: bool = True) -> tuple[Any, np.ndarray]:
        """``player``'s observation and action mask. ``copy=False`` returns the observer's own
        buffers (valid until the next call for that player) instead of copies."""
        view = self._views[player]
        view.update(game)
        d = game.decision
        legal = self.legal(game) if d is not None and d.player == player else ()
        if not copy:
            mask = view.mask
            for i in view.mask_set:
                mask[i] = 0
            for i in legal:
                mask[i] = 1
            view.mask_set = list(legal)
            return (view.buf if self.flatten else dict(view.sec)), mask
        mask = np.zeros(self.act_layout.size, np.int8)
        for i in legal:
            mask[i] = 1
        if self.flatten:
            return view.buf.copy(), mask
        return {name: a.copy() for name, a in view.sec.items()}, mask

    def observe_view(self, view: PlayerView, seed: int = 0
                     ) -> tuple[Any, np.ndarray, dict[int, str]]:
        """``(observation, action_mask, legal_texts)`` for the viewer of a redacted
        :class:`~mtg_env.engine.view.PlayerView`: the same arrays as the env's observation and mask
        for that player at that moment, and ``{index: engine text}`` of the legal indices ({}
        unless the viewer decides).

        It observes a game consistent with the view (:func:`~mtg_env.engine.view.sample_game`,
        the hidden cards resampled with ``seed``): the observation reads only what the viewer may
        see, so the sample gives the arrays of the real game. Only valid while the game has not
        moved on since the view was taken.
        """
        game = sample_game(view, seed)
        obs, mask = self.observe(game, view.viewer)
        texts = ({i: a.text for i, a in self.legal(game).items()}
                 if view.decision is not None else {})
        return obs, mask, texts

    def observe_into(self, game: Game, player: int, obs_out: np.ndarray,
                     mask_out: np.ndarray) -> None:
        """Write ``player``'s flat observation and action mask into preallocated arrays (rows of
        a vector env's batch), without the copies :meth:`observe` returns."""
        if not self.flatten:
            raise ValueError("observe_into needs an Observer built with flatten=True")
        view = self._views[player]
        view.update(game)
        obs_out[:] = view.buf
        mask_out[:] = 0
        d = game.decision
        if d is not None and d.player == player:
            for i in self.legal(game):
                mask_out[i] = 1

    def legal(self, game: Game) -> dict[int, Action]:
        """``{index: action}`` for every legal option of the pending decision ({} when over)."""
        d = game.decision
        if d is None:
            return {}
        if (d is self._legal_decision and game is self._legal_game
                and game.decisions_made == self._legal_stamp):
            return self._legal
        view = self._views[d.player]
        view.update(game)
        out: dict[int, Action] = {}
        if view.idx_layout != view.layout:
            view.idx_cache = {}
            view.idx_layout = view.layout
        if view.perm_idx_layout != view.perm_layout:
            view.perm_idx_cache = {}
            view.perm_idx_layout = view.perm_layout
        cache = view.idx_cache
        perm_cache = view.perm_idx_cache
        for a in d.options:
            # Engine actions are often the same objects from one decision to the next (mana
            # abilities especially); their index holds while the rows they name don't move.
            c = perm_cache if a.verb in _PERM_VERBS else cache
            hit = c.get(id(a))
            if hit is not None and hit[0] is a:
                i = hit[1]
            else:
                i = view.index_of(a)
                c[id(a)] = (a, i)
            if i in out:
                raise EncodingError(f"options {out[i].text!r} and {a.text!r} of player "
                                    f"{d.player}'s {d.kind.value} decision both map to index {i}")
            out[i] = a
        self._legal_game = game
        self._legal_decision = d
        self._legal_stamp = game.decisions_made
        self._legal = out
        return out

    def legal_indices(self, game: Game) -> np.ndarray:
        """The legal indices of the pending decision, ascending, as a new int64 array (empty
        when the game is over)."""
        if game.decision is None:
            return np.zeros(0, np.int64)
        return np.array(sorted(self.legal(game)), np.int64)

    def seat_order(self, player: int) -> tuple[int, ...]:
        """The absolute seats in the order ``player``'s observation lists them (own seat first,
        then teammates, then opponents by seat distance), as of its last observation."""
        return self._views[player].seats

    def view_rows(self, player: int) -> dict[str, Any]:
        """What each row of ``player``'s last observation shows, for debugging and tests:
        permanents by row, hand card ids by row, graveyard/removed/revealed card ids by row,
        stack object ids by row and the seat order (``seats``: absolute seat of each relative
        seat)."""
        v = self._views[player]
        P = self.caps.max_permanents
        perms = {}
        for k, rows in enumerate(v.seat_rows):
            perms.update({k * P + j: p for j, p in enumerate(rows)})
        inv = {}
        for name in ("graveyards", "removed"):
            inv[name] = {r: cid for cid, r in v.pile_row[name].items()}
        return {"permanents": perms,
                "hand": {r: cid for cid, r in {**v.hand_row, **v.opp_hand_row}.items()},
                "graveyards": inv["graveyards"], "removed": inv["removed"],
                "revealed": {r: cid for cid, r in v.revealed_row.items()},
                "stack": {r: sid for sid, r in v.stack_row.items()},
                "seats": v.seats}


__all__ = ["Observer"]
