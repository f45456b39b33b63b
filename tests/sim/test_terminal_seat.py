"""The terminal seat's commands and its passing for the person, each on a scenario: auto-pass
(only passing and mana abilities), stops, ``pass turn``, ``mana``, ``card``, ``board``, ``stops``;
attackers and blockers marked while declared; card names kept apart; "summoning sick" only where
it matters; draws in the terminal and in replays, the opponent's never named."""

from __future__ import annotations

import doctest
import importlib
import io
import re

import pytest
from rich.console import Console

from agents import HeuristicAgent, HumanAgent
from agents.human import DEFAULT_STOPS, HumanQuit, describe_stops, parse_stops
from mtg_env.engine.actions import DecisionKind
from mtg_env.sim.interactive import ConcedeRequest, UndoRequest
from mtg_env.sim.replay import Replay, record_game, spectator_log
from mtg_env.testing import Scenario, attack, main, position, scenario, step_of, to_attackers, to_blockers

K = DecisionKind
LIB = ["Plains"] * 6  # no card of the scenarios: their labels stay plain


def _seat(script: list[str], player: int = 0, **kw) -> tuple[HumanAgent, io.StringIO]:
    """A human seat reading ``script`` (running out of it concedes: raises HumanQuit)."""
    out = io.StringIO()
    con = Console(file=out, width=200, color_system=None, highlight=False)
    human = HumanAgent(input=list(script), console=con, **kw)
    human.reset(player, 0)
    return human, out


def _ask(human: HumanAgent, s: Scenario):
    human.log_source = lambda: s.game.log_for(human.player)
    return human.act(s.game.view(human.player))


def _drive(s: Scenario, human: HumanAgent, until, limit: int = 500) -> None:
    """Play the human's seat through ``human`` and the other seat by passing (no attackers, no
    blockers) until ``until(game)``."""
    g = s.game
    human.log_source = lambda: g.log_for(human.player)
    for _ in range(limit):
        if g.is_over or until(g):
            return
        d = g.decision
        if d.player == human.player:
            g.apply(human.act(g.view(human.player)))
        else:
            g.apply(next(o for o in d.options if o.verb in ("pass", "done", "keep")))
    raise AssertionError("not reached")


# -- auto-pass ------------------------------------------------------------------------------
def test_only_passing_and_mana_abilities_pass_without_a_prompt() -> None:
    s = main({"in_play": ["Forest", "Mountain"], "library": LIB}, {"library": LIB})
    assert [o.verb for o in s.game.decision.options] == ["pass", "mana", "mana"]
    human, out = _seat([])  # no input at all: a prompt would concede
    action = _ask(human, s)
    assert action.text == "pass" and human.answered_automatically and out.getvalue() == ""


def test_mana_abilities_are_listed_on_request_and_their_numbers_work() -> None:
    s = main({"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB}, {"library": LIB})
    human, out = _seat(["mana", "3"])
    action = _ask(human, s)
    assert action.text == "tap Mountain for R" and not human.answered_automatically
    text = out.getvalue()
    listed = text.split("player 0> ")[0]
    assert "  2  play Shock" in listed and "tap Mountain" not in listed.split("player 0: ")[-1].split("(+1")[0]
    assert "(+1 mana ability, 3: type 'mana' to list them)" in listed
    assert "  3  tap Mountain for R" in text
    human, _ = _seat(["tap mountain"])  # by text too
    assert _ask(human, s).text == "tap Mountain for R"


def test_mana_with_no_mana_ability_says_so() -> None:
    s = Scenario(position("precombat_main", {"hand": ["Shock"], "mana_pool": "R", "library": LIB},
                          {"library": LIB}))
    human, out = _seat(["mana", "pass"])
    _ask(human, s)
    assert "you have no mana ability to play now" in out.getvalue()


# -- stops ----------------------------------------------------------------------------------
def _opponent_end_step() -> Scenario:
    """Player 1's end of turn; player 0 holds Shock with a Mountain: player 1 passes first."""
    s = step_of("end_of_turn", 1, {"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB},
                {"library": LIB})
    s.game.apply("pass")
    assert s.game.decision.player == 0 and "play Shock" in s.options()
    return s


def test_a_step_without_a_stop_passes_even_with_a_spell_to_play() -> None:
    human, _out = _seat([])
    assert _ask(human, _opponent_end_step()).text == "pass" and human.answered_automatically
    assert ("opp", "end_of_turn") not in DEFAULT_STOPS


def test_a_stop_asks() -> None:
    human, out = _seat(["pass"], stops=DEFAULT_STOPS | {("opp", "end_of_turn")})
    assert _ask(human, _opponent_end_step()).text == "pass" and not human.answered_automatically
    assert "player 0> pass" in out.getvalue()
    human, out = _seat(["pass"])  # the default stops: my precombat main phase
    s = main({"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB}, {"library": LIB})
    _ask(human, s)
    assert "player 0> pass" in out.getvalue()


def test_an_opponent_spell_stops_and_my_own_spell_passes() -> None:
    """After I play a spell, priority passes by itself (my Shock on top of the stack, a second
    Shock still playable); the opponent's Shock on top stops me wherever it is played."""
    s = main({"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"], "library": LIB},
             {"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB})
    g = s.game
    s.do("play Shock", "target player 1")
    assert g.decision.player == 0 and "play Shock#2" in s.options()
    human, out = _seat([])
    assert _ask(human, s).text == "pass" and human.answered_automatically
    g.apply("pass")
    s.do("play Shock#3", "target player 0")  # player 1 responds, then passes
    g.apply("pass")
    assert g.decision.player == 0 and g.stack[-1].controller == 1
    human, out = _seat(["pass"])
    _ask(human, s)
    assert not human.answered_automatically and "player 0> pass" in out.getvalue()


def test_the_stops_command_shows_sets_adds_and_removes() -> None:
    s = main({"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB}, {"library": LIB})
    human, out = _seat(["stops", "stops main1,opp:end", "stops +blockers -main1", "stops bogus",
                        "stops +main2 main1", "stops opp:x", "stops default", "stops none", "pass"])
    _ask(human, s)
    lines = [ln for ln in out.getvalue().splitlines() if ln.startswith(("stops:", "unknown", "give"))]
    assert lines == [
        "stops: your turn: main1, blockers, main2 · opponent's turn: attackers, blockers",
        "stops: your turn: main1 · opponent's turn: end",
        "stops: your turn: blockers · opponent's turn: end",
        "unknown step 'bogus'; steps: upkeep, draw, main1, combat, attackers, blockers, damage, "
        "end_combat, main2, end (opp: for your opponent's turn)",
        "give either a list of steps or +STEP/-STEP changes, not both",
        "unknown step 'x'; steps: upkeep, draw, main1, combat, attackers, blockers, damage, "
        "end_combat, main2, end (opp: for your opponent's turn)",
        "stops: your turn: main1, blockers, main2 · opponent's turn: attackers, blockers",
        "stops: your turn: none · opponent's turn: none",
    ]
    assert human.stops == frozenset()


def test_parse_stops_keeps_the_stops_on_bad_input() -> None:
    with pytest.raises(ValueError, match="the turn must be opp: or you:"):
        parse_stops("nobody:end", DEFAULT_STOPS)
    with pytest.raises(ValueError, match="usage: stops"):
        parse_stops("  ", DEFAULT_STOPS)
    assert parse_stops("upkeep, you:draw, opponent:eot, their:precombat_main", ()) == {
        ("you", "upkeep"), ("you", "draw"), ("opp", "end_of_turn"), ("opp", "precombat_main")}
    assert describe_stops(()) == "your turn: none · opponent's turn: none"


def test_the_module_examples_run() -> None:
    for name in ("agents.human", "agents.goldfish", "mtg_env.cli.goldfish"):
        assert doctest.testmod(importlib.import_module(name)).failed == 0


# -- pass turn ------------------------------------------------------------------------------
def test_pass_turn_passes_until_the_next_turn_and_skips_the_attack() -> None:
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"], "library": LIB},
             {"hand": ["Shock"], "library": LIB})
    human, out = _seat(["pass turn"])
    with pytest.raises(HumanQuit):  # the script ends at the next prompt: my next main phase
        _drive(s, human, lambda g: False)
    g = s.game
    assert (g.turn, g.step, g.active) == (5, "precombat_main", 0)
    assert out.getvalue().count("player 0> ") == 2
    assert "passing until turn 4" in out.getvalue()
    assert not any("attacks with" in line for line in g.log)  # the declaration was "done"
    assert any(line.startswith("--- turn 4") for line in g.log)


def test_pass_turn_still_asks_for_blocks() -> None:
    s = scenario({"in_play": ["Grizzly Bears"], "library": LIB},
                 {"in_play": ["Hill Giant"], "library": LIB}, "beginning_of_combat", active_player=1)
    attack(s, "Hill Giant")
    to_blockers(s)
    assert s.game.decision.kind is K.DECLARE_BLOCKERS
    human, out = _seat(["pass turn", "done"])
    assert _ask(human, s).text == "done"
    assert "this decision can't be passed: answer it first, then 'pass turn'" in out.getvalue()


# -- card, board, help ----------------------------------------------------------------------
def test_card_shows_the_printed_text_by_name_or_option() -> None:
    s = main({"hand": ["Kamahl, Pit Fighter", "Shock"], "in_play": ["Mountain"], "library": LIB},
             {"library": LIB})
    assert s.options()[:2] == ["pass", "play Shock"]
    human, out = _seat(["card 2", "card kamahl", "card KAMAHL, PIT FIGHTER", "card forest", "card gi",
                        "card zzzz", "card", "card 9", "card 1", "pass"])
    _ask(human, s)
    text = out.getvalue()
    assert "Shock  {R}\nInstant\nShock deals 2 damage to target creature or player." in text
    kamahl = ("Kamahl, Pit Fighter  {4}{R}{R}\nLegendary Creature — Human Barbarian  6/1\nHaste (This "
              "creature can attack and {T} as soon as it comes under your control.)")
    assert text.count(kamahl) == 2
    assert "Forest\nBasic Land — Forest\n({T}: Add {G}.)" in text
    assert re.search(r"'gi' matches \d+ cards \(Giant Growth; Giant Spider", text)
    assert "no Tenth Edition card is called 'zzzz'" in text
    assert "usage: card NAME" in text and "there is no option 9: card N takes an option's number" in text
    assert "option 1 (pass) is about no card" in text


def test_card_n_names_every_card_of_the_option() -> None:
    s = scenario({"in_play": ["Grizzly Bears", "Wall of Wood"], "library": LIB},
                 {"in_play": ["Kamahl, Pit Fighter"], "library": LIB}, "beginning_of_combat",
                 active_player=1)
    attack(s, "Kamahl, Pit Fighter")
    to_blockers(s)
    opts = s.options()
    n = opts.index("block Kamahl, Pit Fighter with Grizzly Bears") + 1
    human, out = _seat([f"card {n}", "done"])
    _ask(human, s)
    text = out.getvalue()
    assert "Grizzly Bears  {1}{G}\nCreature — Bear  2/2" in text and "Kamahl, Pit Fighter  {4}{R}{R}" in text


def test_board_shows_the_board_and_options_again() -> None:
    s = main({"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB}, {"library": LIB})
    human, out = _seat(["board", "pass"])
    _ask(human, s)
    text = out.getvalue()
    assert text.count("Turn 3 · precombat main") == 2 and text.count("  2  play Shock") == 2


def test_help_names_the_commands() -> None:
    s = main({"hand": ["Shock"], "in_play": ["Mountain"], "library": LIB}, {"library": LIB})
    human, out = _seat(["?", "pass"])
    _ask(human, s)
    text = out.getvalue()
    for word in ("board", "card NAME", "mana", "pass turn", "stops", "opp:end", "log [N|all]", "undo",
                 "concede", "main1, combat, attackers, blockers"):
        assert word in text, word


# -- what the board shows -------------------------------------------------------------------
def test_names_with_commas_are_kept_apart() -> None:
    s = main({"hand": ["Spitting Earth", "Kamahl, Pit Fighter", "Viashino Sandscout"],
              "in_play": ["Mountain", "Mountain"], "library": LIB}, {"library": LIB})
    human, out = _seat(["pass"])
    _ask(human, s)
    text = out.getvalue()
    assert re.search(r"hand: +Spitting Earth · Kamahl, Pit Fighter · Viashino Sandscout", text)


def test_attackers_are_marked_as_they_are_declared() -> None:
    s = main({"in_play": ["Grizzly Bears", "Hill Giant"], "library": LIB}, {"library": LIB})
    to_attackers(s)
    s.do("attack with Grizzly Bears")
    assert s.game.decision.kind is K.DECLARE_ATTACKERS
    assert not s.game.find_permanent("Grizzly Bears").attacking  # not until the declaration ends
    human, out = _seat(["done"])
    _ask(human, s)
    text = out.getvalue()
    assert "Grizzly Bears 2/2 (attacking)" in text and "Hill Giant 3/3 ·" not in text
    assert re.search(r"Hill Giant 3/3\s", text)


def test_blockers_are_marked_as_they_are_declared() -> None:
    s = scenario({"in_play": ["Grizzly Bears", "Wall of Wood"], "library": LIB},
                 {"in_play": ["Kamahl, Pit Fighter"], "library": LIB}, "beginning_of_combat",
                 active_player=1)
    attack(s, "Kamahl, Pit Fighter")
    to_blockers(s)
    s.do("block Kamahl, Pit Fighter with Grizzly Bears")
    assert s.game.decision.kind is K.DECLARE_BLOCKERS
    human, out = _seat(["done"])
    _ask(human, s)
    text = out.getvalue()
    assert 'Grizzly Bears 2/2 (blocking "Kamahl, Pit Fighter")' in text
    assert "Kamahl, Pit Fighter 6/1 (tapped, attacking, blocked by Grizzly Bears)" in text


def test_summoning_sickness_shows_only_where_it_matters() -> None:
    """2007 CR 212.3d: not for a creature with haste (Raging Goblin), nor for the opponent's
    creature on my turn (Hill Giant), unless it has a {T} ability (Prodigal Pyromancer)."""
    s = main({"in_play": [{"card": "Raging Goblin", "summoning_sick": True},
                          {"card": "Grizzly Bears", "summoning_sick": True}, "Mountain"],
              "library": LIB},
             {"in_play": [{"card": "Hill Giant", "summoning_sick": True},
                          {"card": "Prodigal Pyromancer", "summoning_sick": True}], "library": LIB})
    to_attackers(s)
    assert s.options() == ["attack with Raging Goblin", "done"]
    human, out = _seat(["done"])
    _ask(human, s)
    text = out.getvalue()
    assert "Grizzly Bears 2/2 (summoning sick)" in text
    assert "Raging Goblin 1/1 ·" in text or re.search(r"Raging Goblin 1/1\s", text)
    assert "Raging Goblin 1/1 (summoning sick)" not in text
    assert "Prodigal Pyromancer 1/1 (summoning sick)" in text and "Hill Giant 3/3 (summoning sick)" not in text


# -- draws ----------------------------------------------------------------------------------
_NAMED = re.compile(r"^player (\d) draws (?!a card$|\d+ cards$)")


def test_the_terminal_shows_my_draws_by_name_and_the_opponents_as_a_count() -> None:
    con_out = io.StringIO()
    human = HumanAgent(input=["1"] * 3000, console=Console(file=con_out, width=400, color_system=None),
                       recent_log=1000)
    record_game(["starter_green", "starter_red"], [human, HeuristicAgent()], seed=1, max_turns=12)
    lines = con_out.getvalue().splitlines()
    named = [ln for ln in lines if _NAMED.match(ln)]
    assert named and all(ln.startswith("player 0 draws ") for ln in named)
    assert any(ln == "player 1 draws a card" for ln in lines)
    assert "player 0 draws 7 cards: " in con_out.getvalue()


def test_a_replay_gives_back_what_each_seat_saw() -> None:
    players = [HeuristicAgent(), HeuristicAgent()]
    game, rep = record_game(["starter_green", "starter_red"], players, seed=3, max_turns=14)
    again = Replay.from_json(rep.to_json()).run()
    for seat in (0, 1):
        seen = again.log_for(seat)
        assert seen == game.log_for(seat)
        assert all(m.group(1) == str(seat) for m in map(_NAMED.match, seen) if m)
    assert again.log == game.log and not any(_NAMED.match(ln) for ln in again.log)
    both = spectator_log(again)
    hidden = sorted(ln for seat in (0, 1)
                    for ln, public in zip(again.log_for(seat), again.log, strict=True) if ln != public)
    assert sorted(ln for ln, public in zip(both, again.log, strict=True) if ln != public) == hidden
    assert {m.group(1) for m in map(_NAMED.match, both) if m} == {"0", "1"}


class _AskOnceThenUndo:
    """An interactive seat: asked for the mulligan, then passes by itself once, then asks to undo."""

    name = "scripted"
    interactive = True

    def reset(self, player: int, seed: int) -> None:
        self.calls = 0
        self.told: list[str] = []

    def tell(self, message: str) -> None:
        self.told.append(message)

    def act(self, view):
        self.calls += 1
        self.answered_automatically = self.calls == 2
        if self.calls == 3:
            raise UndoRequest
        if self.calls > 3:
            raise ConcedeRequest
        return view.decision.options[0]


def test_undo_goes_back_past_the_decisions_passed_for_the_person() -> None:
    """Auto-passes are not the person's decisions: undo takes them back to the last one they made
    (here the mulligan, decision 1), not to the pass made for them."""
    seat = _AskOnceThenUndo()
    record_game(["starter_green", "starter_red"], [seat, HeuristicAgent()], seed=1,
                options={"starting_player": 0})
    assert seat.told == ["undone: back before your decision 1"]
