"""What each player knows of hidden cards (mtg_env/engine/knowledge.py): cards revealed to both
players or looked at by one stay known while they stay in their hand or library; a shuffle drops
the knowledge of a library's order (2012 701.19); the state keeps it through copy() and JSON; the
view, the observer and determinize honour it.

2007 CR 217.1 / 2012 400.2 (hidden zones), 2012 701.14 (reveal).
"""

from __future__ import annotations

from mtg_env import Game
from mtg_env.encoding.observer import Observer
from mtg_env.engine.knowledge import learn, shuffle_library
from mtg_env.testing import card_names, main


def test_knowledge_survives_copy_and_json() -> None:
    """The knowledge is game state: copy() and to_json()/from_json() keep it, and a copy's
    knowledge is its own."""
    s = main({}, {"hand": ["Shock", "Hill Giant"], "library": ["Forest", "Island"]})
    g = s.game
    learn(g, g.players[1].hand, 1)
    learn(g, g.players[1].library[:1], 3)
    h = Game.from_json(g.to_json())
    assert h.known == g.known
    assert card_names(h.view(0).opponent.known_hand) == ["Shock", "Hill Giant"]
    assert [(i, c.cdef.name) for i, c in h.view(1).players[1].known_library] == [(0, "Forest")]
    c = g.copy()
    c.known.clear()
    assert g.known


def test_shuffle_forgets_only_that_library() -> None:
    """A shuffle (2012 701.19) drops what was known of that library's cards only."""
    s = main({"library": ["Forest", "Island"]}, {"hand": ["Shock"], "library": ["Swamp", "Plains"]})
    g = s.game
    learn(g, g.players[0].library[:1], 3)
    learn(g, g.players[1].library[:1], 3)
    learn(g, g.players[1].hand, 1)
    shuffle_library(g, 1)
    assert not g.view(0).players[1].known_library
    assert [c.cdef.name for _, c in g.view(0).players[0].known_library] == ["Forest"]
    assert card_names(g.view(0).opponent.known_hand) == ["Shock"]


def test_a_looked_at_hand_is_known_only_to_the_looker() -> None:
    """Looking at a hand (Peek) informs the looker only; revealing (Distress) informs both."""
    s = main({"hand": ["Forest"]}, {"hand": ["Shock"]})
    g = s.game
    learn(g, g.players[0].hand, 1 << 1)  # player 1 looked at player 0's hand
    assert card_names(g.view(1).opponent.known_hand) == ["Forest"]
    assert card_names(g.view(0).opponent.known_hand) == []
    learn(g, g.players[1].hand, 3)
    assert card_names(g.view(0).opponent.known_hand) == ["Shock"]


def test_determinize_keeps_known_library_places_and_shuffles_the_rest() -> None:
    """determinize(player) resamples only what the player doesn't know: a known card of their own
    library (looked at with Sage Owl-like effects, or revealed) keeps its place."""
    lib = ["Forest", "Island", "Swamp", "Plains", "Mountain", "Hill Giant", "Shock", "Grizzly Bears"]
    s = main({"library": lib})
    g = s.game
    learn(g, g.players[0].library[2:3], 1)
    orders = set()
    for seed in range(12):
        d = g.determinize(0, seed)
        assert d.players[0].library[2].cdef.name == "Swamp"
        orders.add(tuple(card_names(d.players[0].library)))
    assert len(orders) > 1  # the rest is still shuffled


def test_determinize_without_knowledge_still_hides_the_opponents_hand() -> None:
    """Nothing known: the opponent's hand is resampled from hand + library (some seed changes
    it), sizes kept."""
    s = main({}, {"hand": ["Shock", "Hill Giant"],
                  "library": ["Forest", "Island", "Swamp", "Plains", "Mountain"]})
    hands = {tuple(sorted(card_names(s.game.determinize(0, seed).players[1].hand))) for seed in range(10)}
    assert len(hands) > 1
    assert all(len(h) == 2 for h in hands)


def test_search_with_reveal_makes_the_card_known_to_both() -> None:
    """Civic Wayfinder: "search your library for a basic land card, reveal it, and put it into your
    hand": the opponent knows that card is in the hand (2012 701.14)."""
    s = main({"in_play": ["Forest"] * 3, "hand": ["Civic Wayfinder"],
              "library": ["Plains", "Hill Giant"]})
    s.do("play Civic Wayfinder")
    s.resolve()
    s.resolve()
    if s.game.decision.kind.value == "yes_no":
        s.do("yes")
    s.do("find Plains")
    assert card_names(s.game.view(1).opponent.known_hand) == ["Plains"]
    obs = Observer()
    obs.observe(s.game, 1)
    rows = obs.view_rows(1)["hand"]
    assert [s.game.cards[c].cdef.name for r, c in rows.items() if r >= obs.caps.max_hand] == ["Plains"]


def test_looking_at_the_top_cards_remembers_their_order_for_the_looker() -> None:
    """Sage Owl: "look at the top four cards of your library, then put them back in any order":
    its controller knows the order they chose (until a shuffle); the opponent doesn't."""
    s = main({"in_play": ["Island"] * 4, "hand": ["Sage Owl"],
              "library": ["Forest", "Island", "Swamp", "Plains", "Mountain"]})
    s.do("play Sage Owl")
    s.resolve()
    s.resolve()
    for name in ("Plains", "Forest", "Swamp", "Island"):
        s.do(next(o for o in s.options() if o.endswith(name) or f"{name}#" in o))
    known = [(i, c.cdef.name) for i, c in s.game.view(0).me.known_library]
    assert known == [(0, "Plains"), (1, "Forest"), (2, "Swamp"), (3, "Island")]
    assert not s.game.view(1).players[0].known_library
    for seed in range(5):
        assert card_names(s.game.determinize(0, seed).players[0].library[:4]) == [
            "Plains", "Forest", "Swamp", "Island"]


def test_observer_shows_known_library_cards_besides_a_decision() -> None:
    """The observer's revealed table lists the library cards the viewer knows even when no
    decision shows cards, and drops them after a shuffle."""
    s = main({"library": ["Forest", "Island"]}, {"library": ["Swamp", "Plains"]})
    g = s.game
    learn(g, g.players[1].library[:1], 3)
    obs = Observer()
    obs.observe(g, 0)
    assert [g.cards[c].cdef.name for c in obs.view_rows(0)["revealed"].values()] == ["Swamp"]
    shuffle_library(g, 1)
    g.decisions_made += 1  # the observer updates once per decision
    obs.observe(g, 0)
    assert not obs.view_rows(0)["revealed"]
