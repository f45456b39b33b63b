"""Sealed and draft of the Tenth Edition set: boosters with the set's collation, sealed pools,
an 8-seat booster draft with rating bots (or a person at the terminal), the automatic 40-card
deck builder, and Swiss events played by simulation (``mtg-env sealed``, ``mtg-env draft``).

>>> from mtg_env.sim.limited import open_booster, sealed_pool
>>> len(open_booster(1)), len(sealed_pool(1))
(15, 90)
"""

from .boosters import BASIC_LANDS, COLLATION, open_booster, rarity_of, sealed_pool, set_cards
from .card_ratings import CardRatings, data_rating, default_ratings, load_ratings
from .deckbuild import LimitedDeck, build_deck
from .draft import BotDrafter, DraftResult, PickInfo, run_draft
from .event import (
    Entrant,
    EventResult,
    MatchResult,
    Standing,
    run_draft_event,
    run_event,
    run_sealed_event,
    standings,
    swiss_pairings,
)
from .human import DraftQuit, HumanDrafter

__all__ = [
    "BASIC_LANDS", "COLLATION", "BotDrafter", "CardRatings", "DraftQuit", "DraftResult", "Entrant",
    "EventResult", "HumanDrafter", "LimitedDeck", "MatchResult", "PickInfo", "Standing", "build_deck",
    "data_rating", "default_ratings", "load_ratings", "open_booster", "rarity_of", "run_draft",
    "run_draft_event", "run_event", "run_sealed_event", "sealed_pool", "set_cards", "standings",
    "swiss_pairings",
]
