"""The cards whose text names "each other player", "each player" or "that player" at tables of more
than two players, and in Two-Headed Giant where a teammate is not an opponent.

Rules: 2012 102.3 (an opponent is a player on another team), 800.4a (a player who left the
game is nobody's opponent), 805.4 (shared team turns: each player of the active team has an
upkeep), the cards' printed texts quoted in each test.
"""

from __future__ import annotations

from mtg_env.testing import Scenario, table_position


def labels(s: Scenario, pl: int, zone: str) -> list[str]:
    return [c.cdef.name for c in getattr(s.game.players[pl], zone)]


def answer_choices(s: Scenario) -> list[int]:
    """Take the first option of every pending choice until priority returns; who chose, in
    order."""
    who = []
    while s.game.decision.kind.value != "priority":
        who.append(s.game.decision.player)
        s.do(s.options()[0])
        s.resolve_all()
    return who


def table(*players: object, **top: object) -> Scenario:
    return Scenario(table_position(*players, library=["Island"] * 5, **top))  # type: ignore[arg-type]


def test_grave_pact_makes_each_other_player_sacrifice() -> None:
    """Grave Pact: "Whenever a creature you control is put into a graveyard from play, each other
    player sacrifices a creature." Every opponent at a table of four sacrifices one."""
    s = table({"hand": ["Shock"], "in_play": ["Mountain", "Grave Pact", "Grizzly Bears"]},
              ["Hill Giant"], ["Craw Wurm"], ["Llanowar Elves"])
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    assert [x.label for x in s.game.stack] == ["Grave Pact"]
    s.resolve_all()
    assert answer_choices(s) == [1, 2, 3]  # in APNAP order (2007 CR 101.4)
    assert labels(s, 1, "graveyard") == ["Hill Giant"]
    assert labels(s, 2, "graveyard") == ["Craw Wurm"]
    assert labels(s, 3, "graveyard") == ["Llanowar Elves"]


def test_grave_pact_spares_a_two_headed_giant_teammate() -> None:
    """Grave Pact's "each other player" means each opponent (the card's Oracle wording since
    2007; a teammate is not an opponent, 2012 102.3): the teammate keeps their creature."""
    s = table({"hand": ["Shock"], "in_play": ["Mountain", "Grave Pact", "Grizzly Bears"]},
              ["Hill Giant"], ["Craw Wurm"], ["Llanowar Elves"], variant="two_headed_giant")
    s.do("play Shock", "target Grizzly Bears")
    s.resolve_all()
    assert answer_choices(s) == [2, 3]
    assert labels(s, 1, "graveyard") == []
    assert labels(s, 2, "graveyard") == ["Craw Wurm"]
    assert labels(s, 3, "graveyard") == ["Llanowar Elves"]


def test_hunted_wumpus_lets_each_other_player_put_a_creature_into_play() -> None:
    """Hunted Wumpus: "When Hunted Wumpus comes into play, each other player may put a creature
    card from his or her hand into play." Each of three opponents is asked; one declines."""
    s = table({"in_play": ["Forest"] * 4, "hand": ["Hunted Wumpus"]},
              {"hand": ["Hill Giant"]}, {"hand": ["Craw Wurm"]}, {"hand": ["Grizzly Bears"]})
    s.do("play Hunted Wumpus")
    s.resolve_all()
    asked = []
    while s.game.decision.kind.value != "priority":
        d = s.game.decision
        asked.append(d.player)
        s.do("done" if d.player == 2 else next(o for o in s.options() if o != "done"))
        s.resolve_all()
    assert asked == [1, 2, 3]  # in APNAP order (2007 CR 101.4)
    assert s.in_play("Hill Giant") and s.in_play("Grizzly Bears")
    assert not s.in_play("Craw Wurm") and labels(s, 2, "hand") == ["Craw Wurm"]


def test_stronghold_discipline_costs_each_player_their_own_creature_count() -> None:
    """Stronghold Discipline: "Each player loses 1 life for each creature he or she controls.\""""
    s = table({"hand": ["Stronghold Discipline"], "in_play": ["Swamp"] * 4 + ["Grizzly Bears"]},
              ["Hill Giant", "Craw Wurm"], [], ["Llanowar Elves"] * 3)
    s.do("play Stronghold Discipline")
    s.resolve()
    assert [P.life for P in s.game.players] == [19, 18, 20, 17]


def test_sunken_hope_works_in_every_players_upkeep_at_a_table() -> None:
    """Sunken Hope: "At the beginning of each player's upkeep, that player returns a creature he
    or she controls to its owner's hand." Player 2 (an opponent two seats away) chooses among
    their own creatures only."""
    s = table(["Sunken Hope", "Grizzly Bears"], ["Hill Giant"], ["Craw Wurm", "Llanowar Elves"],
              step="end_of_turn", active_player=1)
    s.advance_to("upkeep", active=2)
    assert [x.label for x in s.game.stack] == ["Sunken Hope"]
    s.resolve()
    assert s.game.decision.player == 2
    assert sorted(s.options()) == ["return Craw Wurm", "return Llanowar Elves"]
    s.do("return Craw Wurm")
    assert labels(s, 2, "hand") == ["Craw Wurm"]


def test_sunken_hope_triggers_for_each_player_of_a_two_headed_giant_team() -> None:
    """Sunken Hope in Two-Headed Giant: both players of the active team have an upkeep (shared
    team turns, 2012 805.4), the controller's teammate included."""
    s = table(["Sunken Hope", "Grizzly Bears"], ["Hill Giant"], [], [],
              step="end_of_turn", active_player=2, variant="two_headed_giant")
    s.advance_to("upkeep", active=0)
    assert [x.label for x in s.game.stack] == ["Sunken Hope", "Sunken Hope"]
    s.resolve_all()
    assert sorted(answer_choices(s)) == [0, 1]
    assert labels(s, 0, "hand") == ["Grizzly Bears"] and labels(s, 1, "hand") == ["Hill Giant"]


def test_avatar_of_might_counts_each_opponent_apart() -> None:
    """Avatar of Might: "If an opponent controls at least four more creatures than you, Avatar
    of Might costs {6} less to play." Two opponents with three creatures each (six in all) don't
    make it cheaper; one opponent with four does."""
    hand = {"hand": ["Avatar of Might"], "in_play": ["Forest"] * 2}
    s = table(hand, ["Llanowar Elves"] * 3, ["Llanowar Elves"] * 3)
    assert "play Avatar of Might" not in s.options()
    s = table(hand, ["Llanowar Elves"] * 4, [])
    assert "play Avatar of Might" in s.options()
