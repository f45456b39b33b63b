"""The game's state, declared once.

Every attribute of a :class:`~mtg_env.engine.game.Game` is a :class:`Field` in :data:`FIELDS`: its
initial value, how :meth:`Game.copy` copies it and how :meth:`Game.to_json` stores it. The
constructor, ``copy()`` and the JSON format (:mod:`mtg_env.engine.serialize`) all read this table, so
a new piece of state is one line here; a test checks that nothing else lives on a game.

Copy kinds: ``"share"`` (immutable, or never mutated in place: shared between copies), ``"list"``
(a list of immutable items), ``"dict"`` (a dict of immutable values), ``"clone_list"`` and
``"clone_dict"`` (objects with a ``clone()`` method),
``"stored_list"`` and ``"frames"`` (:func:`~mtg_env.engine.frame_fields.stored` values, each
copying itself: waiting triggers, replacement effects, procedures in progress), ``"rng"``.

JSON kinds: ``"scalar"`` (stored as is), ``"object"`` (serialize.py stores it with its own format),
``"derived"`` (not stored: recomputed from the rest on load). Every stored field declares the
checker of its JSON form (:mod:`mtg_env.engine.loaded_state_schema`, built from
:mod:`mtg_env.engine.loaded_state_checkers`), run by ``Game.from_json`` at load
(:mod:`mtg_env.engine.loaded_state_check`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from mypy_extensions import mypyc_attr

from . import loaded_state_checkers as C
from . import loaded_state_schema as S
from .frames import DelayedTrigger, PendingTrigger
from .model import Player
from .rng import Rng
from .seating import ATTACK_OPTIONS, MAX_PLAYERS, VARIANTS

if TYPE_CHECKING:
    from .actions import Decision
    from .continuous_effects import ContinuousEffect
    from .frames import Frame
    from .model import Card, Permanent, StackItem
    from .replacement_events import ReplacementEffect

# The steps of a normal turn after its untap step (turn_structure.STEPS[1:]; not imported from
# there, which imports this module's users).
TURN_STEPS = ("upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
              "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main",
              "end_of_turn", "cleanup")


class Field(NamedTuple):
    """One attribute of the game state."""

    name: str
    default: Callable[[], Any]
    copy: str
    json: str
    doc: str
    check: Any = None  # the schema of its stored JSON form (loaded_state_schema.py); None if not stored




def _const(v: Any) -> Callable[[], Any]:
    return lambda: v


FIELDS: tuple[Field, ...] = (
    # objects and zones
    Field("players", lambda: [Player(0), Player(1)], "clone_list", "object",
          "the players by seat, in turn order (2 to 6; 2012 800.1)",
          C.LIST(S.PLAYER_CHECK, 2, MAX_PLAYERS)),
    Field("cards", dict, "dict", "object", "every card of the game by id (cards are immutable)",
          C.CARDS),
    Field("perms", dict, "clone_dict", "object", "permanents in play by id",
          C.LIST(S.PERM_CHECK)),
    Field("stack", list, "clone_list", "object", "the stack, top last (2007 CR 217.6)",
          C.LIST(S.STACK_CHECK)),
    Field("effects", list, "list", "object",
          "continuous effects from resolved spells and abilities (2007 CR 418.3): "
          "continuous_effects.ContinuousEffect, never changed once added (copies share them)",
          C.LIST(S.EFFECT)),
    Field("replacements", list, "stored_list", "object",
          "replacement and prevention effects from resolved spells and abilities (2007 CR 419): "
          "replacement_events.ReplacementEffect", C.LIST(S.REPLACEMENT)),
    Field("pending", list, "stored_list", "object",
          "triggered abilities waiting for the stack (410.5): frames.PendingTrigger",
          C.LIST(S.PENDING)),
    Field("frames", list, "frames", "object", "procedures in progress, innermost last",
          C.LIST(S.FRAME)),
    Field("decision", _const(None), "share", "object", "the pending decision (immutable)",
          S.DECISION),
    Field("rng", lambda: Rng(0), "rng", "object", "the game's only source of randomness",
          C.INT(0, 2**64 - 1)),
    Field("log", list, "list", "object", "the game log (public: what every player may read)",
          C.LIST(C.STR)),
    Field("private_log", tuple, "share", "scalar",
          "(log index, player, text): the line at that index of the log as that player reads "
          "it (their own draws name the cards; Game.log_for; replaced, never changed in place)",
          C.LIST(C.TUPLE(C.COUNT, C.PLAYER, C.STR))),
    Field("label_counts", dict, "dict", "object", "how many cards of each name got a label",
          C.MAP(C.STR, C.COUNT)),
    Field("known", dict, "dict", "object",
          "card id -> (players mask, zone): hidden cards revealed or looked at (knowledge.py)",
          C.KNOWN),
    Field("lifelink_dealt", dict, "dict", "object", "lifelink damage dealt in the current event",
          C.LIST(C.TUPLE(C.INT(), C.INT()))),
    # turn structure and priority
    Field("turn", _const(1), "share", "scalar", "turn number",
          C.INT(1)),
    Field("step", _const("untap"), "share", "scalar", "current step",
          C.ENUM("untap", *TURN_STEPS)),
    Field("step_queue", _const(TURN_STEPS), "share", "scalar",
          "the steps still to come this turn, next first (2012 500.8: phases can be added)",
          C.LIST(C.ENUM(*TURN_STEPS))),  # the order is checked with the step (check_state)
    Field("extra_turns", tuple, "share", "scalar",
          "players of the extra turns to come, next first (2012 500.7)",
          C.LIST(C.PLAYER)),
    Field("normal_turn", _const(None), "share", "scalar",
          "during extra turns: the player whose regular turn came last (None: the active player)",
          C.OPT(C.PLAYER)),
    Field("delayed", tuple, "share", "object",
          "delayed triggered abilities waiting for their moment (2012 603.7): "
          "frames.DelayedTrigger, never changed (a new tuple replaces the old)",
          C.LIST(S.DELAYED)),
    Field("attacked_this_turn", tuple, "share", "scalar",
          "ids of the permanents declared as attackers this turn (Relentless Assault)",
          C.LIST(C.OBJ)),
    Field("active", _const(0), "share", "scalar", "active player",
          C.PLAYER),
    Field("starting_player", _const(0), "share", "scalar", "who played first",
          C.PLAYER),
    Field("prio", _const(-1), "share", "scalar", "priority player, -1 between steps",
          C.INT(-1, MAX_PLAYERS - 1)),
    Field("passes", _const(0), "share", "scalar", "consecutive passes (408.2)",
          C.INT(0, MAX_PLAYERS)),
    Field("attack_whom", tuple, "share", "scalar",
          "attack multiple players: (attacking creature's id, the player it attacks) for each "
          "attacker of this combat (2012 802.3); replaced, never changed in place",
          C.LIST(C.TUPLE(C.OBJ, C.PLAYER))),
    Field("defender", _const(-1), "share", "scalar",
          "multiplayer: the defending player the attack option chose as this combat began "
          "(2012 506.2a, 803), -1 otherwise (a two-player game's is the nonactive player)",
          C.INT(-1, MAX_PLAYERS - 1)),
    Field("step_begun", _const(False), "share", "scalar", "the step's turn-based actions are done",
          C.BOOL),
    Field("fs_step", _const(False), "share", "scalar", "this is the first-strike damage step",
          C.BOOL),
    Field("fs_checked", _const(False), "share", "scalar", "first strike was checked this combat",
          C.BOOL),
    Field("any_attackers", _const(False), "share", "scalar", "attackers were declared",
          C.BOOL),
    Field("cleanup_prio", _const(False), "share", "scalar", "priority was given in cleanup",
          C.BOOL),
    # turn history (reset in each untap step; replaced, never changed in place)
    Field("died_this_turn", list, "share", "scalar",
          "ids of the cards put into a graveyard from play this turn and still there",
          C.LIST(C.CARD)),
    Field("damaged_this_turn", list, "share", "scalar",
          "[source id, permanent id] of each damage dealt to a permanent this turn",
          C.LIST(C.TUPLE(C.OBJ, C.OBJ))),
    # counters
    Field("next_id", _const(1), "share", "scalar", "next object id",
          C.ID),
    Field("ts", _const(1), "share", "scalar", "last timestamp (418.5)",
          C.INT(0)),
    # result
    Field("winner", _const(None), "share", "scalar", "winner, None for a draw or unfinished game",
          C.OPT(C.PLAYER)),
    Field("is_over", _const(False), "share", "scalar", "the game has ended",
          C.BOOL),
    Field("end_reason", _const(""), "share", "scalar", "why it ended",
          C.STR),
    # options
    Field("variant", _const("two_player"), "share", "scalar",
          "two_player, or the multiplayer variant: free_for_all (2012 806)",
          C.ENUM(*VARIANTS)),
    Field("attack_option", _const(""), "share", "scalar",
          "multiplayer: whom a player may attack: left or right (2012 803) or multiple (802); "
          "'' in a two-player game", C.ENUM("", *ATTACK_OPTIONS)),
    Field("ranges", tuple, "share", "scalar",
          "the limited range of influence option: each player's range in seats (2012 801.2); "
          "() without it", C.LIST(C.INT(1, MAX_PLAYERS))),
    Field("influence", tuple, "share", "scalar",
          "each player's range of influence as this turn began (2012 801.2c): the players "
          "within it; () without the option", C.LIST(C.LIST(C.PLAYER))),
    Field("manual_mana", _const(False), "share", "scalar", "players tap mana themselves",
          C.BOOL),
    Field("skip_trivial", _const(False), "share", "scalar", "single-option decisions are taken",
          C.BOOL),
    Field("max_turns", _const(None), "share", "scalar", "turn cap (a draw)",
          C.OPT(C.INT(1))),
    Field("max_decisions", _const(None), "share", "scalar", "decision cap (a draw)",
          C.OPT(C.INT(1))),
    Field("goldfish", _const(None), "share", "scalar",
          "the goldfish seat (deck testing): it doesn't lose for 0 or less life or for drawing "
          "from an empty library (2007 CR 420.5a and 420.5g suspended for it), or None",
          C.OPT(C.PLAYER)),
    Field("goldfish_dead_turn", _const(None), "share", "scalar",
          "the turn the goldfish seat's life was first seen at 0 or less, or None",
          C.OPT(C.INT(1))),
    Field("decisions_made", _const(0), "share", "scalar", "decisions taken so far",
          C.COUNT),
    Field("auto_applied", _const(0), "share", "scalar", "of which taken automatically",
          C.COUNT),
    # derived from the rest (recomputed by the layer system or the main loop)
    Field("dirty", _const(True), "share", "derived", "characteristics must be recomputed"),
    Field("no_mana_empty", _const(False), "share", "derived", "a static stops mana burn"),
    Field("rule_mods", dict, "share", "derived",
          "rule-modifying statics in play: kind -> players controlling one (never mutated)"),
    Field("lifelink", dict, "share", "derived", "lifelink instances by permanent (layer 5 output)"),
    Field("mana_extra", dict, "share", "derived",
          "land id -> mana its triggered mana abilities add when it's tapped for mana (Overgrowth)"),
    Field("_abl_mod", list, "share", "derived",
          "ids of permanents whose copiable values or abilities the last refresh changed"),
    Field("zone_watch", dict, "share", "derived",
          "event -> ids of the game's cards with a triggered ability for it that works from a "
          "graveyard (2012 112.6; replaced, never mutated)"),
    Field("quiet_action", _const(False), "share", "derived",
          "the last action changed nothing an SBE or a trigger looks at"),
)

# A plain Python class when compiled: a game is set up and copied through its instance dict.
@mypyc_attr(native_class=False)
class GameState:
    """The type of each field of :data:`FIELDS`, for the type checker only (a test checks that the
    names are the same). :class:`~mtg_env.engine.game.Game` has it as its base class (it declares
    nothing at run time)."""

    players: list[Player]
    cards: dict[int, Card]
    perms: dict[int, Permanent]
    stack: list[StackItem]
    effects: list[ContinuousEffect]
    replacements: list[ReplacementEffect]
    pending: list[PendingTrigger]
    frames: list[Frame]
    decision: Decision | None
    rng: Rng
    log: list[str]
    private_log: tuple[tuple[int, int, str], ...]
    label_counts: dict[str, int]
    known: dict[int, tuple[int, str]]
    lifelink_dealt: dict[int, int]
    turn: int
    step: str
    step_queue: tuple[str, ...]
    extra_turns: tuple[int, ...]
    normal_turn: int | None
    delayed: tuple[DelayedTrigger, ...]
    attacked_this_turn: tuple[int, ...]
    active: int
    starting_player: int
    prio: int
    passes: int
    attack_whom: tuple[tuple[int, int], ...]
    defender: int
    step_begun: bool
    fs_step: bool
    fs_checked: bool
    any_attackers: bool
    cleanup_prio: bool
    died_this_turn: list[int]
    damaged_this_turn: list[list[int]]
    next_id: int
    ts: int
    winner: int | None
    is_over: bool
    end_reason: str
    variant: str
    attack_option: str
    ranges: tuple[int, ...]
    influence: tuple[tuple[int, ...], ...]
    manual_mana: bool
    skip_trivial: bool
    max_turns: int | None
    max_decisions: int | None
    goldfish: int | None
    goldfish_dead_turn: int | None
    decisions_made: int
    auto_applied: int
    dirty: bool
    no_mana_empty: bool
    rule_mods: dict[str, frozenset[int | str]]
    lifelink: dict[int, int]
    mana_extra: dict[int, Any]
    _abl_mod: list[int]
    zone_watch: dict[str, tuple[int, ...]]
    quiet_action: bool


FIELD_NAMES = frozenset(f.name for f in FIELDS)
SCALARS = tuple(f.name for f in FIELDS if f.json == "scalar")


def init_state(obj: Any) -> None:
    """Give ``obj`` every field's initial value."""
    d = obj.__dict__
    for f in FIELDS:
        d[f.name] = f.default()


_COPIERS: dict[str, Callable[[Any], Any]] = {
    "list": lambda v: v[:],
    "dict": lambda v: v.copy(),
    "clone_list": lambda v: [x.clone() for x in v],
    "clone_dict": lambda v: {k: x.clone() for k, x in v.items()},
    "stored_list": lambda v: [x.copy() for x in v],
    "frames": lambda v: [f.copy() for f in v],
    "rng": lambda v: Rng(v.state),
}
_TO_COPY: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (f.name, _COPIERS[f.copy]) for f in FIELDS if f.copy != "share")


def copy_state(src: Any, dst: Any) -> None:
    """Make ``dst`` an independent copy of ``src``'s state (flat copies, no deepcopy)."""
    d = src.__dict__.copy()
    for name, copier in _TO_COPY:
        d[name] = copier(d[name])
    dst.__dict__ = d
