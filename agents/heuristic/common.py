"""Constants and small helpers shared by the parts of :class:`~agents.heuristic.HeuristicAgent`."""

from __future__ import annotations

import logging

from mtg_env.engine.actions import Action, Decision, DecisionKind
from mtg_env.engine.effects import matches_filter
from mtg_env.engine.errors import MtgError
from mtg_env.engine.model import COLOR_NAMES, CardDef
from mtg_env.engine.view import PermanentView, PlayerView

log = logging.getLogger(__name__)
K = DecisionKind
MAIN_STEPS = ("precombat_main", "postcombat_main")
COLOR_LETTERS = "WUBRG"
LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")  # Mind Bend's mode slots
COLOR_OF = {name: c for c, name in COLOR_NAMES.items()}
HARMFUL_CHOICES = ("discard", "sacrifice", "return", "bounce", "destroy", "remove", "exile", "tap",
                   "put on the top")


OP_WEIGHT = {"deal_damage": 3.0, "destroy": 4.0, "counter_spell": 4.0, "bounce": 3.0,
              "draw": 2.5, "pump": 2.0, "regenerate": 2.0, "tap": 2.0, "search_library": 2.5,
              "create_token": 2.5, "gain_control": 5.0, "prevent_damage": 1.5}


def ability_weight(ab) -> float:
    """Worth of a non-mana activated ability: the weights of its effects' ops (1 for others);
    every such ability is worth something."""
    return 1.0 + sum(OP_WEIGHT.get(e.get("op"), 1.0) for e in ab.effects)


def focus_opponent(view: PlayerView) -> int:
    """The opponent the heuristic plays against now: in a two-player game the other player; at
    a multiplayer table the player attacking me or the one I attack this combat, else the
    opponent closest to losing (the lowest life, then the fewest cards in library)."""
    me = view.viewer
    if len(view.players) == 2:
        return 1 - me
    if view.active != me and not view.players[view.active].lost:
        return view.active
    if view.defender >= 0:
        return view.defender
    others = [P for P in view.players if P.index != me and not P.lost]
    return min(others, key=lambda P: (P.life, P.library_size, P.index)).index


def other_side(view: PlayerView, player: int) -> int:
    """The player on the other side of ``player``'s creature or spell, as the heuristic sees
    it: the focus opponent for my own, me for an opponent's."""
    return focus_opponent(view) if player == view.viewer else view.viewer


def find_option(d: Decision, text: str) -> Action | None:
    """The option of ``d`` with this exact text, if it is offered."""
    return d.find(text)


def filter_matches(p: PermanentView, flt: dict, player: int) -> bool:
    """Does permanent ``p`` match a card-data filter for ``player``? A filter the view can't
    evaluate counts as no match (the heuristic then simply doesn't count on it)."""
    try:
        return matches_filter(p, flt, player)
    except (MtgError, AttributeError):
        return False


def card_from_text(text: str) -> CardDef | None:
    """The card an option like ``discard Shock#2`` names (the decision shows it)."""
    from mtg_env.engine.registry import get_card

    words = text.split(" ")
    for i in range(1, len(words)):
        name = " ".join(words[i:]).rsplit("#", 1)[0]
        try:
            return get_card(name)
        except MtgError:
            continue
    return None
