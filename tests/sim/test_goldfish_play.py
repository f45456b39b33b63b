"""Goldfish mode: the agent that does nothing, the play loop that gives its seat the engine's
goldfish option (2007 CR 420.5a and 420.5g suspended for it), what the human sees, and
``mtg-env goldfish`` (the kill-turn distribution)."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

from rich.console import Console
from typer.testing import CliRunner

from agents import GoldfishAgent, HeuristicAgent, HumanAgent, make_agent
from mtg_env.cli import app
from mtg_env.cli.goldfish import kill_summary, kill_turn
from mtg_env.engine.actions import DecisionKind
from mtg_env.engine.deck import Deck
from mtg_env.sim.replay import Replay, record_game
from mtg_env.testing import Scenario, attack, main, position, scenario, to_attackers, to_blockers

K = DecisionKind
LIB = ["Plains"] * 6
NOTHING = Deck.from_text("", name="nothing", min_size=0)


def _fish(seat: int = 1) -> GoldfishAgent:
    agent = GoldfishAgent()
    agent.reset(seat, 0)
    return agent


def test_the_goldfish_is_registered_by_name() -> None:
    assert isinstance(make_agent("goldfish"), GoldfishAgent)


def test_the_goldfish_passes_keeps_and_declares_nothing() -> None:
    s = main({"library": LIB}, {"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"], "library": LIB},
             active_player=1)
    assert "play Shock" in s.options()
    assert _fish().act(s.game.view(1)).text == "pass"
    to_attackers(s)
    assert s.game.decision.kind is K.DECLARE_ATTACKERS
    assert _fish().act(s.game.view(1)).text == "done"
    b = scenario({"in_play": ["Hill Giant"], "library": LIB}, {"in_play": ["Grizzly Bears"], "library": LIB},
                 "beginning_of_combat")
    attack(b, "Hill Giant")
    to_blockers(b)
    assert b.game.decision.kind is K.DECLARE_BLOCKERS
    assert _fish().act(b.game.view(1)).text == "done"
    from mtg_env import Game

    g = Game.new(["starter_green", "starter_red"], seed=3)
    assert _fish(g.decision.player).act(g.view(g.decision.player)).text == "keep"


def test_the_play_loop_makes_the_goldfish_seat_immortal_and_the_replay_keeps_it() -> None:
    game, rep = record_game(["starter_red", "starter_green"], [HeuristicAgent(), GoldfishAgent()], seed=2,
                            max_turns=24)
    assert rep.options["goldfish"] == 1 and game.goldfish == 1
    assert game.players[1].life < 0 and game.goldfish_dead_turn is not None
    assert game.end_reason == "turn limit" and game.winner is None
    again = Replay.from_json(rep.to_json()).run()
    assert again.goldfish_dead_turn == game.goldfish_dead_turn and again.log == game.log
    normal, _ = record_game(["starter_red", "starter_green"], [HeuristicAgent(), make_agent("random")], seed=2,
                            max_turns=24)
    assert normal.goldfish is None


def test_the_human_sees_the_turn_counter_and_the_kill_turn() -> None:
    out = io.StringIO()
    human = HumanAgent(input=["1"] * 3000, console=Console(file=out, width=200, color_system=None))
    record_game(["starter_red", NOTHING], [human, GoldfishAgent()], seed=2, max_turns=4,
                options={"starting_player": 0})
    text = out.getvalue()
    assert "goldfish: player 1 · turn 1 (player 0's turn 1) · its life: 20" in text
    assert "goldfish: player 1 · turn 3 (player 0's turn 2) · its life: " in text
    # the kill: Lava Axe takes the goldfish from 2 to -3 on turn 3, player 0's second turn
    s = Scenario(position("precombat_main", {"hand": ["Lava Axe", "Shock"], "in_play": ["Mountain"] * 6,
                                             "library": LIB}, {"life": 2, "library": LIB}), goldfish=1)
    s.do("play Lava Axe", "target player 1")
    s.resolve()
    out2 = io.StringIO()
    human = HumanAgent(input=["pass"], console=Console(file=out2, width=200, color_system=None))
    human.reset(0, 0)
    human.act(s.game.view(0))
    assert ("goldfish: player 1 · turn 3 (player 0's turn 2) · its life reached 0 on turn 3 "
            "(player 0's turn 2)") in out2.getvalue()


def test_kill_turn_counts_the_decks_own_turns() -> None:
    g = SimpleNamespace(goldfish_dead_turn=9, winner=None, turn=12, starting_player=0)
    assert kill_turn(g) == 5  # turns 1 3 5 7 9 are seat 0's
    g.starting_player = 1
    assert kill_turn(g) == 4  # turns 2 4 6 8
    assert kill_turn(SimpleNamespace(goldfish_dead_turn=None, winner=None, turn=40, starting_player=0)) is None
    assert kill_turn(SimpleNamespace(goldfish_dead_turn=None, winner=0, turn=7, starting_player=0)) == 4
    assert kill_summary([None, None])["median"] is None


def test_cli_goldfish_prints_the_distribution(tmp_path) -> None:
    path = tmp_path / "kills.json"
    res = CliRunner().invoke(app, ["goldfish", "starter_red", "-n", "6", "--on", "play", "--json", str(path)])
    assert res.exit_code == 0, res.output
    data = json.loads(path.read_text())
    assert data["games"] == 6 and data["killed"] + data["not_killed"] == 6
    keys = ("killed", "not_killed", "median", "mean")
    assert {k: data[k] for k in keys} == {k: kill_summary(data["kills"])[k] for k in keys}
    lines = res.output.splitlines()
    assert lines[0] == "goldfish: starter_red played by heuristic, 6 games (seed 0, play, turn limit 40)"
    assert lines[1].startswith(f"killed in {data['killed']} of 6: kill turn median ")
    assert lines[2] == " turn  games  share  cumulative"
    assert sum(int(line.split()[1]) for line in lines[3:3 + len(data["histogram"])]) == data["killed"]
    again = CliRunner().invoke(app, ["goldfish", "starter_red", "-n", "6", "--on", "play"])
    assert again.output.splitlines() == lines[:-1]  # the same seeds, the same games (no "wrote")


def test_cli_goldfish_counts_games_to_the_turn_limit_as_not_killed() -> None:
    res = CliRunner().invoke(app, ["goldfish", "starter_green", "-n", "3", "--max-turns", "2"])
    assert res.exit_code == 0, res.output
    assert "no kill in 3 games" in res.output


def test_cli_goldfish_bad_input_is_one_line() -> None:
    for args, msg in ((["-n", "0"], "-n must be at least 1"),
                      (["--on", "first"], "--on must be one of random, play, draw"),
                      (["--agent", "nobody"], "unknown agent 'nobody'"),
                      (["--agent", "human", "-n", "2"], "--agent human plays one game"),
                      (["--save", "x.json"], "--save writes the replay of a game at this terminal")):
        res = CliRunner().invoke(app, ["goldfish", "starter_red", *args])
        assert res.exit_code == 2 and msg in res.output and res.output.count("\n") == 1, res.output
    res = CliRunner().invoke(app, ["goldfish", "no_such_deck"])
    assert res.exit_code == 2 and "error:" in res.output


def test_cli_goldfish_with_a_human_and_a_saved_replay(tmp_path) -> None:
    path = tmp_path / "fish.json"
    res = CliRunner().invoke(app, ["goldfish", "starter_red", "--agent", "human", "--max-turns", "6",
                                   "--save", str(path)], input="1\n" * 500)
    assert res.exit_code == 0, res.output
    assert "goldfish: player 1 · turn" in res.output and "game over after 6 turns" in res.output
    rep = Replay.load(path)
    assert rep.options["goldfish"] == 1 and rep.agents == ("human", "goldfish")
    assert len(rep.decks[1]) == 0  # the goldfish has no library to run out of
    rep.run()


def test_cli_play_human_against_the_goldfish_records_the_option(tmp_path) -> None:
    path = tmp_path / "game.json"
    res = CliRunner().invoke(app, ["play", "starter_red", "starter_green", "--agent", "human,goldfish",
                                   "--max-turns", "6", "--save", str(path)], input="1\n" * 500)
    assert res.exit_code == 0, res.output
    assert Replay.load(path).options["goldfish"] == 1
