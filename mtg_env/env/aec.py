"""
# Magic: The Gathering (Tenth Edition rules), two to six players

| Import             | `mtg_env.env(**config)` (wrapped), `mtg_env.raw_env(**config)`             |
|--------------------|-----------------------------------------------------------------------------|
| Actions            | Discrete                                                                    |
| Parallel API       | No (one player decides at a time)                                           |
| Manual Control     | No (`render()` lists the legal actions with their indices)                  |
| Agents             | `agents = ['player_0', 'player_1']` (`num_players=N`: `player_0` .. N-1)    |
| Action Shape       | (1,)                                                                        |
| Action Values      | Discrete(2148) with the default capacities                                 |
| Observation Shape  | Dict of 8 float32 tables (21,137 values), or (21137,) with `flatten=True`   |
| Observation Values | float32: flags in [0, 1], counts and card indices as exact integers         |

A game between two 40-card decks under the 2007 rules (or a multiplayer game of 3 to 6 players,
see Multiplayer below), driven by `mtg_env`'s engine. The agent
to act is whoever the engine's pending decision belongs to (priority, targets, attackers,
blockers, damage division, mulligans, discards...), so the same agent often acts several times
in a row. `player_0` is engine player 0; the engine's seeded coin flip decides who plays first.

### Observation Space

`observe(agent)` returns `{"observation": ..., "action_mask": int8 array}` from that agent's
point of view ("me" first, "opponent" second); the mask is all zeros for the agent not deciding.
The observation is a dict of float32 arrays (or, with `flatten=True`, their concatenation in this
order):

| Key          | Shape (default)  | Contents                                                   |
|--------------|------------------|------------------------------------------------------------|
| `game`       | (89,)            | turn, step, active player, priority, decision kind and its |
|              |                  | context; per player: life, poison, library, hand,          |
|              |                  | graveyard and removed sizes, mana pool, lands played,      |
|              |                  | mulligans, life lost this turn, combat damage pending      |
| `hand`       | (40, 81)         | own hand, then the opponent's: known cards first, then     |
|              |                  | hidden placeholders (card index 1)                         |
| `permanents` | (64, 152)        | own permanents, then the opponent's: card, owner, tapped,  |
|              |                  | sick, damage, power/toughness, keywords, colors, types,    |
|              |                  | counters, combat (attacking, blocked, blocking whom),      |
|              |                  | attached to, regeneration shields, the decision's marks    |
| `stack`      | (32, 107)        | top first: kind, controller, card, source, X, mode,        |
|              |                  | targets (and damage divided to each), being played /       |
|              |                  | resolving, combat damage amounts                           |
| `graveyards` | (120, 19)        | own graveyard (bottom first), then the opponent's          |
| `removed`    | (60, 19)         | cards removed from the game, own then the opponent's       |
| `revealed`   | (60, 19)         | cards the viewer's decision shows from a hidden zone       |
| `triggers`   | (16, 6)          | pending triggers while their controller orders them        |

Row counts are the capacities (`max_hand`, `max_permanents`, ...) or twice them (one half per
player).
A card's identity is its index in the versioned card vocabulary
(`mtg_env.encoding.vocabulary()`: 0 empty, 1 hidden, 2 unknown, then every Tenth Edition card
and token) next to its features (cost, colors, types, base power/toughness, keywords, mana
abilities). A *permanent ref* is `row + 1` in `permanents` (0 = none). Every column is listed
in `docs/env.md`. The opponent's hand and both libraries' order are hidden: only counts and
publicly known cards appear (cards this viewer saw in a public zone before they went to the
opponent's hand, or that a decision of the viewer shows).

#### Legal Actions Mask

`action_mask[i] == 1` exactly for the indices of the deciding agent's legal options: every
engine option maps to one index and every masked index to one option.

### Action Space

One `Discrete(N)` whose indices form fixed bands; which bands can be legal depends on the
decision kind. With the default capacities:

| Band        | Indices   | Meaning                                                          |
|-------------|-----------|------------------------------------------------------------------|
| `decline`   | 0         | pass priority; done (attackers, blockers, choices); no; mulligan |
| `accept`    | 1         | keep (mulligan); yes                                             |
| `player`    | 2-3       | a player (me, opponent): target or choose                        |
| `hand`      | 4-43      | `hand` row: play that card, discard or choose it                 |
| `permanent` | 44-107    | `permanents` row: target or choose it, attack with it            |
| `ability`   | 108-363   | own permanent row x 8 ability slots: activate that ability (a    |
|             |           | mana ability takes one slot per color it can add)                |
| `stack`     | 364-395   | `stack` row: target that spell or ability                        |
| `graveyard` | 396-515   | `graveyards` row: target or choose that card; play that land     |
|             |           | from own graveyard (Crucible of Worlds)                          |
| `removed`   | 516-575   | `removed` row: choose that card                                  |
| `revealed`  | 576-635   | `revealed` row: choose that card (library search, top cards)     |
| `block`     | 636-1659  | own permanent row b x opponent's permanent row a: b blocks a     |
| `x`         | 1660-1700 | X = 0 .. 40                                                      |
| `mode`      | 1701-1708 | mode 1 .. 8 of a modal spell                                     |
| `assign`    | 1709-1749 | assign 0 .. 40 damage to the current recipient (combat damage;   |
|             |           | a spell's damage divided among its targets, Hail of Arrows)      |
| `order`     | 1750-1765 | put the trigger in `triggers` row i on the stack next            |
| `color`     | 1766-1770 | a color: W U B R G                                               |
| `card_name` | 1771-2147 | a card name by its card vocabulary index (Pithing Needle)        |

`env.action_text(i)` gives the engine's text of a legal index (and `legal_texts=True` puts
`{index: text}` in the deciding agent's `infos`). As in PettingZoo's classic games, an index the
mask forbids ends the game as a loss for the agent that chose it (`illegal_action="loss"`, the
default): reward -1 for it and +1 for the opponent, both terminated, an `IllegalActionWarning`,
and `infos[agent]["illegal_action"]` naming the index and the decision; nothing else about the
game changes. `illegal_action="raise"` raises `IllegalActionError` with that text instead and
leaves the game unchanged. An action outside the action space (not an integer index in range)
is a caller error in either mode: `env()` fails PettingZoo's bounds assertion, `raw_env()`
raises `IllegalActionError`. A state needing more slots than a capacity raises `CapacityError`
naming the config key; nothing is ever dropped.

### Rewards

+1 for a win, -1 for a loss, 0 for a draw or when `max_turns` truncates the game, given at the
end only. Optional shaping (`reward_shaping=c`, off by default) adds
`c * (phi(next) - phi(now))` each step with `phi = (my life - opponent's life) / 20` and
`phi = 0` once the game is over: potential-based, so it sums to zero over an episode and does
not change which policies are optimal.

### Config

See `mtg_env.env.config.EnvConfig` (decks or a deck pool, seed, render_mode, skip_trivial,
max_turns, flatten, illegal_action, reward_shaping, legal_texts, legal_indices, copy_obs,
capacities; num_players, variant and attack for multiplayer games).
`reset(seed=..., options={"decks": [a, b]})` replays from the seed with that pairing.

### Multiplayer

`num_players=N` (3 to 6) plays a multiplayer game: `variant="free_for_all"` (the default for
more than two players) under the attack option `attack="left"` (the default), `"right"` or
`"multiple"` (each attacking creature attacks any one opponent), or
`variant="two_headed_giant"` (N = 4: seats 0+1 against 2+3, shared turns and life) or
`variant="emperor"` (N = 6: seats 0-2 against 3-5); `range=R` limits a Free-for-All's range of
influence. The agents are `player_0` .. `player_{N-1}` (engine seat i); `decks` names N
decks, `deck_pool` is sampled for each seat, `reset(options={"decks": [...]})` takes N.

Every per-player part of the observation and of the action space has one block per seat, in
the order of the observer (own seat, teammates, opponents by seat distance); with N = 2 that is
the two-player layout itself. A seat that leaves a game that goes on gets -1 and is terminated
at that step; at the end the winners (a team) get +1, the others still in -1, a draw 0. The
tables of the N-seat parts and bands, their sizes and the shaping are in `docs/env.md`
("Multiplayer").

### Version History

* v1: card rows gain six keyword columns (the evasion and targeting keywords of the Tenth
  Edition cards beyond the theme decks), so the observation is wider; the card vocabulary
  (version 1) and the action layout are unchanged. Policies trained on v0 need retraining.
  The opponent's hand rows and the `revealed` table also show the cards revealed to the viewer
  or that they looked at (Peek, Distress, Aven Windreader; `Game.known`), same shapes.
* v0: initial release (card vocabulary version 1)
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mtg_env.encoding.layout import ObservationLayout
from mtg_env.encoding.observer import Observer
from mtg_env.engine.actions import Action
from mtg_env.engine.errors import IllegalActionError
from mtg_env.engine.game import Game
from mtg_env.engine.seating import team_of, teams, winners

from .config import EnvConfig, load_deck
from .render import render_text

AGENTS = ("player_0", "player_1")
"""The agents of a two-player env (``MtgEnv.possible_agents`` lists those of any seat count)."""
ALL_AGENTS = tuple(f"player_{i}" for i in range(6))
_INDEX = {a: i for i, a in enumerate(ALL_AGENTS)}
_TRUNCATIONS = ("turn limit", "decision limit")  # engine end reasons that cut a game short
# One fixed text, so Python's default warning filter shows it once per run rather than once per
# illegal move; the move itself is in the mover's infos.
ILLEGAL_MOVE_WARNING = (
    "illegal action: the game ends as a loss for the agent that chose it (illegal_action='loss'); "
    "infos[agent]['illegal_action'] names the action and the decision. Pick from the action mask, "
    "or pass illegal_action='raise' to raise IllegalActionError instead.")


class IllegalActionWarning(UserWarning):
    """An agent chose an action its mask forbids and lost the game for it
    (``illegal_action="loss"``, the default)."""


def observation_space(layout: ObservationLayout, flatten: bool) -> spaces.Space:
    """The space of the ``"observation"`` entry."""
    if flatten:
        lo, hi = layout.flat_bounds()
        return spaces.Box(lo, hi, dtype=np.float32)
    return spaces.Dict({name: spaces.Box(*layout.bounds(name), dtype=np.float32)
                        for name in layout.columns})


class MtgEnv(AECEnv, EzPickle):
    """The PettingZoo AEC environment (see the module docstring for spaces and rewards)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "mtg_v1", "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, **config: Any) -> None:
        EzPickle.__init__(self, **config)
        super().__init__()
        self.config = cfg = EnvConfig.from_kwargs(config)
        self.render_mode = cfg.render_mode
        self.num_players = N = cfg.num_players
        self.observer = Observer(cfg.capacities, flatten=cfg.flatten, players=N,
                                 attack_multiple=cfg.attack_multiple)
        self.possible_agents = list(ALL_AGENTS[:N])
        self._agents = tuple(self.possible_agents)  # by seat
        self.agents: list[str] = []
        n = self.observer.act_layout.size
        obs_space = observation_space(self.observer.obs_layout, cfg.flatten)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_space,
                            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)})
            for a in self._agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self._agents}
        self.game: Game | None = None
        self.np_random, _ = seeding.np_random(cfg.seed)
        self.deck_names: tuple[str, ...] = ("",) * N
        self._shaping = float(cfg.reward_shaping)
        self._lose_if_illegal = cfg.illegal_action == "loss"
        self._phi = [0.0] * N
        self._left: set[int] = set()  # seats whose agents have been terminated mid-game

    # -- PettingZoo API ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` reseeds the episode RNG (deck sampling and the game's
        shuffles); ``options={"decks": [a, b, ...]}`` sets the pairing for this episode, one deck
        per seat (other keys are ignored)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        rng = self.np_random
        cfg = self.config
        N = self.num_players
        specs = (options or {}).get("decks") or cfg.decks
        if specs is None:
            pool = cfg.pool()
            specs = tuple(pool[int(rng.integers(len(pool)))] for _ in range(N))
        if isinstance(specs, str) or len(specs) != N:
            raise ValueError(f"options['decks'] must name exactly {'two' if N == 2 else N} "
                             f"decks, got {specs!r}")
        decks = [load_deck(s) for s in specs]
        self.deck_names = tuple(d.name for d in decks)
        game_seed = int(rng.integers(0, 2**63 - 1))
        if N == 2:
            self.game = Game.new(decks, seed=game_seed, skip_trivial=cfg.skip_trivial,
                                 max_turns=cfg.max_turns)
        else:
            self.game = Game.new(decks, seed=game_seed, skip_trivial=cfg.skip_trivial,
                                 max_turns=cfg.max_turns, variant=cfg.game_variant,
                                 options=cfg.game_options())
        self.observer.reset()
        self.observer.note(self.game)
        agents = self._agents
        self.agents = list(agents)
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = {a: {} for a in agents}
        self._phi = [0.0] * N
        self._left = set()
        self._skip_agent_selection = None
        if self.game.is_over:
            self._finish(0)
        else:
            self.agent_selection = agents[self.game.decision.player]
            self._set_infos()

    def observe(self, agent: str) -> dict[str, Any]:
        obs, mask = self.observer.observe(self._live_game(), _INDEX[agent], self.config.copy_obs)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        self._step(action, self._lose_if_illegal)

    def step_strict(self, action: Any) -> None:
        """:meth:`step`, except that an illegal index raises ``IllegalActionError`` (the game
        unchanged) whatever ``illegal_action`` says: for wrappers whose other player is part of
        the environment, such as :class:`~mtg_env.env.single.SingleAgentEnv`'s opponent, whose
        illegal choice is a bug to report rather than a game for the learner to win."""
        self._step(action, False)

    def _step(self, action: Any, lose_if_illegal: bool) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._live_game()
        legal = self.observer.legal(game)
        index = self._as_index(action, agent) if action is not None else None
        chosen = legal.get(index) if index is not None else None
        if chosen is None:
            message = self._illegal_message(action, agent, legal)
            if lose_if_illegal and index is not None and 0 <= index < self.observer.act_layout.size:
                self._lose_by_illegal_action(agent, message)
                return
            raise IllegalActionError(message)
        self.apply_option(chosen)

    def apply_option(self, chosen: Action) -> None:
        """Apply an option of the pending decision given as the engine's ``Action`` (what
        :meth:`step` does after mapping the index; opponents that pick among the engine's
        options use it to skip the index mapping)."""
        agent = self.agent_selection
        game = self._live_game()
        self._cumulative_rewards[agent] = 0.0
        game.apply(chosen)
        self.observer.note(game)
        self._after_move(game, _INDEX[agent])

    def _after_move(self, game: Game, mover: int) -> None:
        """Rewards, terminations and the next agent after a move of seat ``mover`` (or its
        concession)."""
        if self._shaping:
            self._shape(game)
        if game.is_over:
            self._finish(1 - mover if self.num_players == 2 else mover)
            return
        agents = self._agents
        self.agent_selection = agents[game.decision.player]
        self._set_infos()
        if self.num_players > 2:
            left = [P.index for P in game.players if P.lost and P.index not in self._left]
            if left:
                self._leave(left)

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode='ansi' or "
                        "'human' to the env")
            return None
        game = self._live_game()
        text = render_text(game, self.observer.legal(game) if not game.is_over else None,
                           self._agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def concede(self, agent: str) -> None:
        """``agent`` concedes (2007 CR 102.3a): a two-player game ends at once with that agent
        losing; in a multiplayer game the agent's seat leaves the game (terminated, reward -1)
        and the others play on, until one remains (in Two-Headed Giant the team loses)."""
        game = self._live_game()
        if game.is_over or game.players[_INDEX[agent]].lost:
            return
        self._end_by_concession(agent)

    # -- helpers for humans and debugging ---------------------------------------------
    def action_text(self, index: int) -> str:
        """The engine text of a legal action index of the pending decision."""
        game = self._live_game()
        legal = self.observer.legal(game)
        a = legal.get(int(index))
        if a is None:
            raise IllegalActionError(self._illegal_message(index, self.agent_selection, legal))
        return a.text

    def legal_actions(self) -> dict[int, Action]:
        """``{index: engine Action}`` of the pending decision (empty once the game is over)."""
        return dict(self.observer.legal(self._live_game()))

    def action_index(self, text: str) -> int:
        """The index of the pending decision's option with this engine text."""
        for i, a in self.observer.legal(self._live_game()).items():
            if a.text == text:
                return i
        raise IllegalActionError(f"{text!r} is not a legal option now")

    # -- internals --------------------------------------------------------------------
    def _live_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the env")
        return self.game

    def _as_index(self, action: Any, agent: str) -> int:
        try:
            i = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"action {action!r} of {agent} is not an integer index") \
                from None
        if i != action and not (isinstance(action, np.ndarray) and action.size == 1):
            raise IllegalActionError(f"action {action!r} of {agent} is not an integer index")
        return i

    def _illegal_message(self, action: Any, agent: str, legal: dict[int, Action]) -> str:
        d = self._live_game().decision
        layout = self.observer.act_layout
        if action is None:
            what = "None is only for agents that are done"
        else:
            try:
                what = layout.describe(int(action))
            except (IndexError, TypeError, ValueError):
                what = f"outside Discrete({layout.size})"
        if d is None:
            return f"action {action!r} ({what}): the game is over"
        texts = ", ".join(f"{i} {a.text!r}" for i, a in sorted(legal.items()))
        return (f"action {action!r} ({what}) is not legal for {agent}'s {d.kind.value} decision "
                f"({d.prompt}); legal: {texts}")

    def _set_infos(self) -> None:
        n = self.game.auto_applied
        live = self.agents if self.num_players > 2 else self._agents
        if self.config.legal_texts:
            d = self.game.decision
            texts = {i: a.text for i, a in sorted(self.observer.legal(self.game).items())}
            self.infos = {a: {"auto_applied": n,
                              "legal_texts": texts if _INDEX[a] == d.player else {}}
                          for a in live}
        elif self.num_players == 2:
            self.infos = {AGENTS[0]: {"auto_applied": n}, AGENTS[1]: {"auto_applied": n}}
        else:
            self.infos = {a: {"auto_applied": n} for a in live}
        if self.config.legal_indices:
            mover = self._agents[self.game.decision.player]
            self.infos[mover]["legal_actions"] = self.observer.legal_indices(self.game)

    def _shape(self, game: Game) -> None:
        P = game.players
        c = self._shaping
        if self.num_players == 2:
            for i in (0, 1):
                phi = 0.0 if game.is_over else (P[i].life - P[1 - i].life) / 20.0
                self.rewards[AGENTS[i]] = c * (phi - self._phi[i])
                self._phi[i] = phi
        else:
            for a in self.agents:
                i = _INDEX[a]
                if i in self._left:
                    self.rewards[a] = 0.0
                    continue
                phi = 0.0 if game.is_over or P[i].lost else self._potential(game, i)
                self.rewards[a] = c * (phi - self._phi[i])
                self._phi[i] = phi
        if not game.is_over:
            self._accumulate_rewards()

    def _potential(self, game: Game, seat: int) -> float:
        """The shaping potential of ``seat`` in a multiplayer game: its team's life minus the
        mean life of the opposing teams still in the game, over 20 (a team's life: its first
        seat still in the game; teammates share it in Two-Headed Giant)."""
        P = game.players
        mine = team_of(game, seat)
        others: list[int] = []
        for t, seats in enumerate(teams(game)):
            if t == mine:
                continue
            live = [q for q in seats if not P[q].lost]
            if live:
                others.append(P[live[0]].life)
        if not others:
            return 0.0
        return (P[seat].life - sum(others) / len(others)) / 20.0

    def _leave(self, seats: list[int]) -> None:
        """Seats ``seats`` left the game mid-game (lost or conceded; the others play on): each
        agent gets -1 and is terminated now; PettingZoo's dead-agent steps (``None`` actions)
        remove them, before the next live agent acts."""
        for seat in seats:
            a = self._agents[seat]
            self._left.add(seat)
            self.terminations[a] = True
            self.rewards[a] = (self.rewards[a] if self._shaping else 0.0) - 1.0
            self._cumulative_rewards[a] -= 1.0  # the shaping part is accumulated already
            self.infos[a] = {"auto_applied": self.game.auto_applied, "left_game": True,
                             "end_reason": "left the game"}
        self._deads_step_first()

    def _lose_by_illegal_action(self, agent: str, message: str) -> None:
        """``agent`` chose an illegal index: it loses at once, as PettingZoo's classic games
        rule (the game state is otherwise untouched)."""
        warnings.warn(ILLEGAL_MOVE_WARNING, IllegalActionWarning, stacklevel=4)
        self._cumulative_rewards[agent] = 0.0
        self._end_by_concession(agent)
        self.infos[agent]["illegal_action"] = message

    def _end_by_concession(self, agent: str) -> None:
        game = self._live_game()
        game.concede(_INDEX[agent])
        self.observer.note(game)
        if self.num_players == 2:
            if self._shaping:  # the potential drops to 0 at the end, as after any final move
                self._shape(game)
            self._finish(1 - _INDEX[agent])
            return
        # A multiplayer game goes on without the seat (until one player or team remains).
        self._after_move(game, _INDEX[agent])

    def _finish(self, next_agent: int) -> None:
        """The game is over: set terminations or truncations and the final rewards (a
        multiplayer game: +1 for the seats of ``seating.winners``, -1 for the others still in
        the game, 0 for a draw; seats that left it earlier got their -1 then)."""
        game = self.game
        truncated = game.end_reason in _TRUNCATIONS
        won = set(winners(game)) if self.num_players > 2 else {game.winner}
        live = self.agents if self.num_players > 2 else self._agents
        for a in live:
            i = _INDEX[a]
            if i in self._left:
                self.rewards[a] = 0.0  # terminated already, its dead step still to come
                continue
            if truncated:
                self.truncations[a] = True
                r = 0.0
            else:
                self.terminations[a] = True
                r = 0.0 if game.winner is None else (1.0 if i in won else -1.0)
            self.rewards[a] = (self.rewards[a] if self._shaping else 0.0) + r
        self._accumulate_rewards()
        n = game.auto_applied
        self.infos = {a: {"auto_applied": n, "winner": game.winner, "end_reason": game.end_reason}
                      for a in live}
        if self.num_players > 2:
            for a in live:
                self.infos[a]["winners"] = tuple(sorted(won - {None}))
            self._skip_agent_selection = None
            self.agent_selection = (self._agents[next_agent] if self._agents[next_agent] in live
                                    else live[0])
            return
        self.agent_selection = AGENTS[next_agent]


def raw_env(**config: Any) -> MtgEnv:
    """The bare AEC environment (see :class:`MtgEnv` and :class:`~.config.EnvConfig`)."""
    return MtgEnv(**config)


def _forward(name: str, checked: bool) -> property:
    def get(self: _OrderEnforcing) -> Any:
        if checked and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._bare, name)

    return property(get, doc=f"``{name}`` of the bare env")


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, reading the attributes every step touches straight
    from the bare env: the base class reaches them through one ``__getattr__`` per wrapper layer
    (about 2 µs each, a fifth of a step). Same checks, same errors."""

    agent_selection = _forward("agent_selection", True)
    agents = _forward("agents", True)
    rewards = _forward("rewards", True)
    terminations = _forward("terminations", True)
    truncations = _forward("truncations", True)
    infos = _forward("infos", True)
    _cumulative_rewards = _forward("_cumulative_rewards", False)

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._bare = env.unwrapped


_PLAIN_INDEX = (int, np.int64)  # exactly these types: Discrete.contains accepts both in range


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` with a fast path for the common action, a Python
    or numpy ``int64`` index inside the action space: ``Discrete.contains`` converts and
    type-checks every action (``env(flatten=True)`` ran 10% faster without it, about 10 µs a
    step). Anything else takes the base class's check, so the same actions pass and the same
    assertion fails."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._n = int(env.unwrapped.action_space(AGENTS[0]).n)

    def step(self, action: Any) -> None:
        if type(action) in _PLAIN_INDEX and 0 <= action < self._n:
            self.env.step(action)
        else:
            super().step(action)


def env(**config: Any) -> AECEnv:
    """The AEC environment wrapped the PettingZoo way: order enforcing and action bounds.

    Illegal actions are handled by the bare env itself (``illegal_action``), not by PettingZoo's
    ``TerminateIllegalWrapper``: that wrapper gives the opponent 0 and marks the game truncated
    as well, where a game lost to an illegal move is a decided, zero-sum game (+1 for the
    opponent, terminated only), like any other loss."""
    return _OrderEnforcing(_AssertOutOfBounds(raw_env(**config)))


__all__ = ["AGENTS", "ILLEGAL_MOVE_WARNING", "IllegalActionWarning", "MtgEnv", "env",
           "observation_space", "raw_env"]
