"""Multiplayer tables on the human-facing side: recording and re-running a Free-for-All and a
Two-Headed Giant game (the replay carries every seat, the variant and the attack option, and the
concessions the others played on after), the terminal board of every seat, ``mtg-env play`` at a
table (a scripted human seat, agent-only tables, the one-line errors) and ``mtg-env replay`` on
its file (``--step``, ``--html``)."""

from __future__ import annotations

import doctest
import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mtg_env.sim.table_board as table_board
from agents import HeuristicAgent, RandomAgent
from mtg_env import Game
from mtg_env.cli import app
from mtg_env.sim.interactive import ConcedeRequest, HumanQuit
from mtg_env.sim.replay import ABANDONED, Replay, ReplayError, record_game, replay_steps, undo_refusal
from mtg_env.sim.table_board import render_table, seat_order, table_snapshot
from mtg_env.sim.viewer import render_html

G, R = "starter_green", "starter_red"
FOUR = [G, R, G, R]
runner = CliRunner()


def _final(game: Game) -> tuple:
    """What two runs of one game must agree on at its end: the result and the whole stored state."""
    return (game.is_over, game.winner, game.end_reason, game.turn, game.variant,
            tuple(P.life for P in game.players), tuple(P.lost for P in game.players), game.to_json())


class _Leaves(RandomAgent):
    """A random player who raises ``exc`` at its ``at``-th decision."""

    def __init__(self, at: int, exc: Exception) -> None:
        super().__init__()
        self.at, self.exc, self.n = at, exc, 0

    def act(self, view):
        self.n += 1
        if self.n == self.at:
            raise self.exc
        return super().act(view)


def test_table_board_doctest() -> None:
    assert doctest.testmod(table_board).failed == 0


# -- replays ----------------------------------------------------------------------------------
def test_a_four_player_free_for_all_round_trips_and_replays_to_the_same_state(tmp_path: Path) -> None:
    game, rep = record_game(FOUR, [RandomAgent() for _ in range(4)], seed=5, max_turns=6,
                            options={"attack": "multiple"})
    data = json.loads(rep.to_json())
    assert len(data["decks"]) == len(data["agents"]) == 4
    assert (data["options"]["variant"], data["options"]["attack"]) == ("free_for_all", "multiple")
    again = Replay.load(rep.save(tmp_path / "ffa.json"))
    assert (again.players, again.variant, again.agents) == (4, "free_for_all", ("random",) * 4)
    assert _final(again.run()) == _final(game)
    steps, _ = replay_steps(again)
    assert len(steps) == len(rep.actions) + 1
    assert all(len(s["board"]["players"]) == 4 and s["board"]["variant"] == "free_for_all" for s in steps)


def test_a_two_headed_giant_game_round_trips_and_replays_to_the_same_state() -> None:
    game, rep = record_game(FOUR, [HeuristicAgent() for _ in range(4)], seed=1,
                            options={"variant": "two_headed_giant"})
    assert game.is_over and game.variant == "two_headed_giant"
    again = Replay.from_json(rep.to_json())
    assert again.options["variant"] == "two_headed_giant" and "attack" not in again.options
    assert _final(again.run()) == _final(game)
    w = game.winner - game.winner % 2
    assert again.result_text() == f"players {w} and {w + 1} win ({game.end_reason})"
    final = replay_steps(again)[0][-1]["board"]
    assert final["teams"] == [[0, 1], [2, 3]] and [P["team"] for P in final["players"]] == [0, 0, 1, 1]


def test_a_concession_mid_game_is_recorded_and_the_others_play_on() -> None:
    agents = [RandomAgent(), _Leaves(3, ConcedeRequest()), RandomAgent()]
    game, rep = record_game([G, R, G], agents, seed=2, max_turns=8)
    assert game.players[1].lost and game.players[1].conceded and game.is_over
    assert rep.conceded_by is None and len(rep.concessions) == 1 and rep.concessions[0][1] == 1
    data = json.loads(rep.to_json())
    assert data["result"]["concessions"] == [list(rep.concessions[0])]
    assert _final(Replay.from_json(rep.to_json()).run()) == _final(game)


def test_quitting_a_table_abandons_the_game_and_the_replay_says_so() -> None:
    agents = [RandomAgent(), RandomAgent(), _Leaves(4, HumanQuit(0, "end of input: player 2 concedes"))]
    with pytest.raises(HumanQuit) as exc:
        record_game([G, R, G], agents, seed=3)
    game, rep = exc.value.game, exc.value.replay
    assert not game.is_over and game.players[2].lost
    assert (rep.winner, rep.end_reason, rep.conceded_by) == (None, ABANDONED, 2)
    again = Replay.from_json(rep.to_json()).run()
    assert _final(again) == _final(game)
    assert replay_steps(Replay.from_json(rep.to_json()))[0][-1]["prompt"] == ABANDONED


@pytest.mark.parametrize("change, message", [
    (lambda d: d["agents"].pop(), "replay 'agents' must name 4 agents, one per deck"),
    (lambda d: d["decks"].__imul__(2), "replay 'decks' must list 2 to 6 decks"),
    (lambda d: d["result"].update(winner=4), "must be a seat 0 to 3 or null"),
    (lambda d: d["result"].update(concessions=[[0, 9]]), "replay 'concessions' must list"),
    (lambda d: d["result"].update(concessions=[[5, 1], [2, 0]]), "replay 'concessions' must list"),
])
def test_a_bad_table_in_a_replay_file_is_one_line(change, message: str) -> None:
    _, rep = record_game(FOUR, [RandomAgent() for _ in range(4)], seed=1, max_turns=2)
    data = rep.to_dict()
    change(data)
    with pytest.raises(ReplayError, match=re.escape(message)):
        Replay.from_dict(data)


# -- the terminal board -------------------------------------------------------------------------
def _text(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(renderable)
    return out.getvalue()


def test_the_board_shows_every_seat_and_who_has_left() -> None:
    g = Game.new(FOUR, seed=4, starting_player=0)
    g.concede(2)
    board = table_snapshot(g.view(1))
    assert seat_order(board) == [1, 2, 3, 0] and board["players"][2]["lost"]
    text = _text(render_table(board, [f"agent{i}" for i in range(4)]))
    lines = [line for line in text.splitlines() if re.search(r"player \d \(", line)]
    # the opponents in turn order after the viewer, the viewer last (next to the prompt)
    assert [re.search(r"player (\d)", line).group(1) for line in lines] == ["2", "3", "0", "1"]
    assert "player 2 (agent2)  left the game" in text and "player 1 (you, agent1)" in text
    assert "hand:" in text.split("player 1 (you")[1] and text.count("hand:") == 1  # only the viewer's


def test_the_two_headed_giant_board_shows_the_teams_and_their_shared_life() -> None:
    g = Game.new(FOUR, seed=4, variant="two_headed_giant")
    text = _text(render_table(table_snapshot(g.view(3))))
    assert "the opposing team (players 0 and 1): life 30" in text
    assert "your team (players 2 and 3): life 30" in text
    assert "player 2 (teammate)" in text and "player 3 (you)" in text and "team life 30" in text
    assert text.index("opposing team") < text.index("stack") < text.index("your team")


# -- the command line ---------------------------------------------------------------------------
def test_play_seats_a_human_at_a_four_player_table_and_the_replay_reproduces(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    res = runner.invoke(app, ["play", *FOUR, "--agent", "heuristic,human,heuristic,heuristic",
                              "--seed", "3", "--attack", "right", "--max-turns", "6", "--save", str(path)],
                        input="1\n1\n1\nconcede\n")
    assert res.exit_code == 0, res.output
    out = res.output
    for who in ("player 0 (heuristic, starter_green)", "player 1 (you, human, starter_red)",
                "player 2 (heuristic, starter_green)", "player 3 (heuristic, starter_red)"):
        assert who in out
    assert "player 1 concedes" in out and "game over: " in out and f"wrote {path}" in out
    rep = Replay.load(path)
    assert rep.options["attack"] == "right" and rep.concessions[0][1] == 1
    res = runner.invoke(app, ["replay", str(path), "--quiet"])
    assert res.exit_code == 0 and "replay reproduces: " in res.output, res.output


def test_end_of_input_at_a_table_abandons_with_exit_code_0(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    res = runner.invoke(app, ["play", G, R, G, "--agent", "human,random,random", "--save", str(path)],
                        input="")
    assert res.exit_code == 0, res.output
    assert "end of input: player 0 concedes" in res.output
    assert "game abandoned on turn" in res.output and "players 1, 2 still in it" in res.output
    res = runner.invoke(app, ["replay", str(path), "--quiet"])
    assert res.exit_code == 0 and "replay reproduces: abandoned after" in res.output, res.output


def test_an_agent_table_of_two_headed_giant_plays_saves_and_replays(tmp_path: Path) -> None:
    path, html = tmp_path / "giant.json", tmp_path / "giant.html"
    res = runner.invoke(app, ["play", G, R, "--variant", "two_headed_giant", "--seed", "2",
                              "--save", str(path)])
    assert res.exit_code == 0, res.output
    rep = Replay.load(path)
    assert [d.name for d in rep.decks] == FOUR and rep.variant == "two_headed_giant"
    assert re.search(r"\nplayers [02] and [13] win after \d+ turns", res.output), res.output
    res = runner.invoke(app, ["replay", str(path), "--quiet", "--html", str(html)])
    assert res.exit_code == 0 and rep.result_text() in res.output, res.output
    page = html.read_text()
    assert "Two-Headed Giant: starter_green (random) + starter_red (random) vs" in page
    res = runner.invoke(app, ["replay", str(path), "--step"], input="\nq\n")
    assert res.exit_code == 0 and "your team" not in res.output and "team (players 2 and 3)" in res.output


@pytest.mark.parametrize("args, message", [
    (["--players", "7"], "--players must be at most 6, got 7"),
    (["--players", "1"], "--players must be at least 2"),
    (["--variant", "two_headed_giant", "--players", "3"], "two_headed_giant seats four players"),
    (["--variant", "melee"], "unknown --variant 'melee'"),
    (["--players", "3", "--attack", "sideways"], "unknown --attack 'sideways'"),
    (["--variant", "two_headed_giant", "--attack", "left"], "the attack option is for multiplayer"),
    ([G, R, G, "--players", "2"], "3 decks for 2 seats"),
    (["--players", "3", "--agent", "random,heuristic"], "one agent for every seat or one per seat (3)"),
    (["--players", "3", "--agent", "goldfish"], "the goldfish agent plays two-player games only"),
    (["--players", "3", "--agent", "human,random,random", "--web"], "--web seats two players only"),
])
def test_bad_table_options_fail_in_one_line_with_exit_2(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["play", *args], input="")
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], res.output


# -- the HTML viewer ----------------------------------------------------------------------------
def test_the_viewer_page_of_a_table_names_every_seat_and_the_variant() -> None:
    _, rep = record_game(FOUR, [RandomAgent() for _ in range(4)], seed=5, max_turns=3)
    page = render_html(rep)
    assert "4-player Free-for-All (attack left): starter_green (random) · starter_red (random)" in page
    data = json.loads(re.search(r'id="replay-data" type="application/json">(.*?)</script>', page).group(1))
    assert data["meta"]["variant"] == "free_for_all" and len(data["steps"][0]["board"]["players"]) == 4


def test_the_viewer_draws_the_teams_and_greys_out_who_left_in_headless_chromium(page, tmp_path: Path) -> None:
    _, giant = record_game(FOUR, [RandomAgent() for _ in range(4)], seed=2, max_turns=4,
                           options={"variant": "two_headed_giant"})
    agents = [RandomAgent(), _Leaves(2, ConcedeRequest()), RandomAgent(), RandomAgent()]
    _, ffa = record_game(FOUR, agents, seed=6, max_turns=4)
    (tmp_path / "giant.html").write_text(render_html(giant))
    (tmp_path / "ffa.html").write_text(render_html(ffa))
    page.goto((tmp_path / "giant.html").resolve().as_uri())
    heads = [page.inner_text(f"#team-head-{t}") for t in (0, 1)]
    assert heads == ["Team 0 (players 0 and 1): life 30", "Team 1 (players 2 and 3): life 30"]
    boxes = page.evaluate("[...document.querySelectorAll('.player')].map(b => b.id)")
    assert boxes == ["board-2", "board-3", "board-0", "board-1"]  # team 1 above the stack, team 0 below
    page.goto((tmp_path / "ffa.html").resolve().as_uri())
    assert page.evaluate("[...document.querySelectorAll('#seats .player')].map(b => b.id)") == [
        f"board-{i}" for i in range(4)]
    assert page.get_attribute("#board-1", "class").split().count("left") == 0
    page.keyboard.press("End")
    assert "left" in page.get_attribute("#board-1", "class").split()
    assert page.inner_text("#board-1 h2").endswith("left the game")
    assert not any("left" in page.get_attribute(f"#board-{i}", "class").split() for i in (0, 2, 3))


def test_undo_is_refused_once_any_other_players_hand_changed() -> None:
    g = Game.new([G, R, G], seed=1)
    later = g.copy()
    assert undo_refusal(g, later, 0) is None
    later.players[2].hand.pop()
    assert undo_refusal(g, later, 0) == "player 2's hand changed since"
    assert undo_refusal(g, later, 2) is None  # their own hand is their own move
