"""The heuristic player on the ops it reads from card data: tap or untap (Puppeteer,
Twitch), -X amounts (Flowstone Slide) and doubling life (Beacon of Immortality)."""

from __future__ import annotations

from mtg_env.testing import main
from tests.agent_helpers import heuristic_choice


def test_tap_or_untap_taps_theirs_and_untaps_mine() -> None:
    """Puppeteer's "you may tap or untap": the opponent's untapped creature is tapped, my
    tapped creature untapped, my untapped creature left alone."""
    s = main({"in_play": ["Puppeteer", "Island"]}, {"in_play": ["Hill Giant"]})
    s.do("activate Puppeteer", "target Hill Giant")
    s.resolve()
    assert heuristic_choice(s) == "tap Hill Giant"
    s = main({"in_play": ["Puppeteer", "Island", {"card": "Hill Giant", "tapped": True}]})
    s.do("activate Puppeteer", "target Hill Giant")
    s.resolve()
    assert heuristic_choice(s) == "untap Hill Giant"
    s = main({"in_play": ["Puppeteer", "Island", "Hill Giant"]})
    s.do("activate Puppeteer", "target Hill Giant")
    s.resolve()
    assert heuristic_choice(s) == "done"


def test_twitch_targets_the_opponents_creature() -> None:
    """Twitch: tapping the opponent's creature is worth more than anything of mine."""
    s = main({"hand": ["Twitch"], "library": ["Forest"], "in_play": ["Island"] * 3},
             {"in_play": ["Craw Wurm"]})
    s.do("play Twitch")
    assert heuristic_choice(s) == "target Craw Wurm"


def test_flowstone_slide_is_valued_by_what_minus_x_kills() -> None:
    """Flowstone Slide (+X/-X to all creatures): X large enough to kill the opponent's creatures
    is worth playing; the agent's X choice kills them (and the "-X" is read as negative)."""
    s = main({"hand": ["Flowstone Slide"], "in_play": ["Mountain"] * 6},
             {"in_play": ["Grizzly Bears", "Grizzly Bears"]})
    assert heuristic_choice(s) == "play Flowstone Slide"
    s.do("play Flowstone Slide")
    assert heuristic_choice(s) in ("X=2", "X=3")


def test_beacon_targets_me() -> None:
    """Beacon of Immortality doubles the life of its target: mine, not the opponent's."""
    s = main({"hand": ["Beacon of Immortality"], "in_play": ["Plains"] * 6})
    s.game.players[0].life = 12
    s.do("play Beacon of Immortality")
    assert heuristic_choice(s) == "target player 0"
