"""The human seat in the terminal, driven by scripted input: full games, the input grammar,
help/log/undo/concede, typos, end of input, Ctrl-C, hot-seat and hidden information."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from agents import HeuristicAgent, HumanAgent, make_agent
from agents.human import HotSeat, HumanQuit, match_option
from mtg_env.cli import app
from mtg_env.engine.actions import Action
from mtg_env.sim.replay import Replay, record_game

REPO = Path(__file__).resolve().parents[2]
GREEN, RED = "starter_green", "starter_red"  # no card name in common: a name in the output is telling


def _console(terminal: bool = False, width: int = 130) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, force_terminal=terminal, color_system=None, highlight=False), out


class _Asked(HumanAgent):
    """A human seat that notes which of its decisions (0-based, its own) it asked about; the
    others were passed for it (auto-pass, stops)."""

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self.calls = 0
        self.asked: list[int] = []

    def act(self, view):
        action = super().act(view)
        if not self.answered_automatically:
            self.asked.append(self.calls)
        self.calls += 1
        return action


def _human(script: list[str], terminal: bool = False, width: int = 130, **kw) -> tuple[_Asked, io.StringIO]:
    con, out = _console(terminal, width)
    return _Asked(input=[*script, *["1"] * 5000], console=con, **kw), out


def test_make_agent_knows_human() -> None:
    assert isinstance(make_agent("human"), HumanAgent)


def test_scripted_human_plays_a_full_game_and_it_replays() -> None:
    human, out = _human([])
    game, rep = record_game([GREEN, RED], [human, HeuristicAgent()], seed=1)
    assert game.is_over and game.end_reason in ("life", "draw_empty_library", "turn limit")
    text = out.getvalue()
    # the board: both life totals, counts, mana pool, permanents, my hand; the numbered options
    for needle in ("player 0 (you)", "life 20", "library 33", "hand 7", "mana pool -",
                   "  1  keep", "  2  mulligan", "player 0> 1", "stack: empty"):
        assert needle in text, needle
    assert re.search(r"hand: +Forest", text) and re.search(r"lands: +Mountain", text)
    assert text.count("player 0> ") == len(human.asked) <= len(_decisions_of(rep, 0))
    again = Replay.from_json(rep.to_json()).run()
    assert again.log == game.log and again.winner == game.winner


def _texts_of(rep: Replay, player: int) -> list[str]:
    """The texts of ``player``'s recorded decisions (re-running the replay checks it too)."""
    seen: list[str] = []
    rep.run(lambda g, n, text: seen.append(text) if g.decision.player == player else None)
    return seen


def _decisions_of(rep: Replay, player: int):
    seen = []
    rep.run(lambda g, n, text: seen.append(n) if g.decision.player == player else None)
    return seen


def test_answers_by_number_text_and_prefix() -> None:
    opts = [Action("pass", "pass"), Action("play", "play Forest"), Action("play", "play Fog"),
            Action("play", "play Giant Growth")]
    assert match_option("4", opts)[0].text == "play Giant Growth"
    assert match_option("  PLAY   giant", opts)[0].text == "play Giant Growth"
    assert match_option("play fog", opts)[0].text == "play Fog"  # exact text beats the prefix rule
    assert match_option("pa", opts)[0].text == "pass"
    for bad, hint in (("0", "there is no option 0"), ("5", "from 1 to 4"), ("play f", "matches 2 options"),
                      ("attack", "no option starts with 'attack'")):
        action, msg = match_option(bad, opts)
        assert action is None and hint in msg and "\n" not in msg


def test_typos_help_and_log_reprompt_without_conceding() -> None:
    human, out = _human(["xyzzy", "", "42", "?", "help", "log", "log 2", "log all", "log x", "KEEP"])
    game, rep = record_game([GREEN, RED], [human, HeuristicAgent()], seed=1, max_turns=3)
    text = out.getvalue()
    assert "no option starts with 'xyzzy'" in text
    assert "type a number from 1 to 2 or an option's text" in text
    assert "there is no option 42" in text
    assert text.count("undo            take back your last decision") == 2
    assert "coin flip: player 1 plays first" in text  # the log command
    assert "usage: log, log N or log all" in text
    assert _texts_of(rep, 0)[0] == "keep" and game.end_reason != "concession"
    # the board is shown once per decision, not again after each re-prompt
    assert text.count("Turn 1 · untap") == 1


def test_undo_takes_back_own_decisions_until_hidden_information_shows() -> None:
    # seed 1: player 1 plays first; player 0 keeps, plays a Forest on turn 2 (then priority
    # passes by itself: nothing else to do) and another on turn 4, when Grizzly Bears can be
    # played: asked again, the Forest is taken back.
    human, out = _human(["undo", "keep", "play Forest#12", "play Forest#3", "undo", "undo", "pass"])
    _game, rep = record_game([GREEN, RED], [human, HeuristicAgent()], seed=1, max_turns=5)
    text = out.getvalue()
    assert "nothing to undo: you have made no decision yet" in text
    assert "undone: back before your decision" in text
    # the second undo would go back past the draw of turn 4: refused, the game goes on
    assert "can't undo: a card was drawn or a library changed since" in text
    texts = _texts_of(rep, 0)
    assert texts[:2] == ["keep", "play Forest#12"] and "play Forest#3" not in texts


def test_undo_after_an_opponent_response_or_a_shuffle_is_refused() -> None:
    human, out = _human(["mulligan", "undo"])
    record_game([GREEN, RED], [human, HeuristicAgent()], seed=1, max_turns=2)
    assert "can't undo: a random event (shuffle, coin flip or random choice) happened since" in out.getvalue()


def test_concede_ends_the_game_and_is_recorded() -> None:
    human, _out = _human(["keep", "concede"])
    game, rep = record_game([GREEN, RED], [human, HeuristicAgent()], seed=1)
    assert (game.winner, game.end_reason, rep.conceded_by) == (1, "concession", 0)
    again = Replay.from_json(rep.to_json()).run()
    assert (again.winner, again.end_reason) == (1, "concession")


class _CtrlC:
    def readline(self) -> str:
        raise KeyboardInterrupt


def test_end_of_input_and_ctrl_c_concede_with_exit_codes() -> None:
    con, _out = _console()
    with pytest.raises(HumanQuit) as exc:
        record_game([GREEN, RED], [HumanAgent(input=io.StringIO("keep\n"), console=con), HeuristicAgent()],
                    seed=1)
    assert exc.value.exit_code == 0 and exc.value.game.end_reason == "concession"
    assert _texts_of(exc.value.replay, 0) == ["keep"] and exc.value.replay.conceded_by == 0
    with pytest.raises(HumanQuit) as exc:
        record_game([GREEN, RED], [HeuristicAgent(), HumanAgent(input=_CtrlC(), console=con)], seed=1)
    assert exc.value.exit_code == 130 and exc.value.game.winner == 0


def test_hot_seat_clears_the_screen_between_seats() -> None:
    con, out = _console(terminal=True)
    seat = HotSeat()
    lines = ["1"] * 20000
    a = HumanAgent(input=lines[:10000], console=con, hotseat=seat)
    b = HumanAgent(input=lines[10000:], console=con, hotseat=seat)
    _game, _rep = record_game([GREEN, RED], [a, b], seed=1, max_turns=6)
    text = out.getvalue()
    handovers = text.count("your turn to decide. Press Enter")
    assert handovers >= 5 and text.count("\x1b[2J") == 2 * handovers
    # after every hand-over, the board shows the new seat's own hand only
    for chunk in text.split("your turn to decide. Press Enter")[1:]:
        board = chunk.split("> ")[0]
        assert board.count("hand:") == 1


def test_the_human_sees_only_their_player_view() -> None:
    """The opponent's hand never shows: at each decision, no name of a card in the opponent's
    hand appears in that decision's output unless the name is public (in play, a graveyard, the
    stack or the log). The same check on the human's own hand must find names (it can fail).
    The console is wide enough that no line wraps (a wrapped name would slip through)."""
    human, out = _human([], width=400)
    _game, rep = record_game([GREEN, RED], [human, HeuristicAgent()], seed=5)
    segments = out.getvalue().split("player 0> ")
    checks = []

    def on_decision(g, n, text):
        if g.decision.player != 0:
            return
        public = " ".join(g.log) + " " + " ".join(p.card.name for p in g.permanents)
        public += " " + " ".join(c.name for P in g.players for c in P.graveyard + P.removed)
        public += " " + " ".join(s.source_name for s in g.stack)
        hidden = {c.name for c in g.players[1].hand} - {n for n in _names(g, 1) if n in public}
        mine = {c.name for c in g.players[0].hand}
        checks.append((hidden, mine))

    rep.run(on_decision)
    checks = [checks[k] for k in human.asked]  # the decisions passed for the human show nothing
    assert len(checks) == len(segments) - 1 > 10
    shown_mine = 0
    hidden_checked = 0
    for (hidden, mine), seg in zip(checks, segments[:-1], strict=True):
        for name in hidden:
            hidden_checked += 1
            assert name not in seg, f"opponent's hidden card {name!r} shown to the human"
        shown_mine += all(name in seg for name in mine)
    assert hidden_checked > 15 and shown_mine == len(checks)


def _names(game, player: int) -> set[str]:
    return {c.name for c in game.players[player].hand}


def test_cli_play_human_against_heuristic_and_save(tmp_path) -> None:
    path = tmp_path / "game.json"
    res = CliRunner().invoke(app, ["play", GREEN, RED, "--agent", "human,heuristic", "--seed", "1",
                                   "--save", str(path)], input="1\n" * 3000)
    assert res.exit_code == 0, res.output
    assert "game over: player" in res.output and f"wrote {path}" in res.output
    rep = Replay.load(path)
    assert rep.agents == ("human", "heuristic") and rep.decks[0].name == GREEN
    rep.run()


def test_cli_play_end_of_input_concedes_with_exit_code_0() -> None:
    res = CliRunner().invoke(app, ["play", GREEN, RED, "--agent", "heuristic,human"], input="")
    assert res.exit_code == 0, res.output
    assert "end of input: player 1 concedes" in res.output and "concession" in res.output


def test_human_cannot_sit_in_a_simulation() -> None:
    res = CliRunner().invoke(app, ["matchup", GREEN, RED, "-n", "2", "--agent", "human,random"])
    assert res.exit_code == 2 and "interactive" in res.output


def _sigint_default() -> None:
    """A terminal's foreground program gets Ctrl-C; a test run started in the background by a
    non-interactive shell has SIGINT ignored, and a child would inherit that (POSIX), so the
    child gets the default disposition back and Python turns SIGINT into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_in_a_real_process_exits_130() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "mtg_env.cli", "play", GREEN, RED, "--agent",
                             "human,heuristic"], cwd=REPO, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=_sigint_default)
    seen = b""
    deadline = time.monotonic() + 60
    while b"player 0> " not in seen and time.monotonic() < deadline:
        chunk = proc.stdout.read1(4096)
        if not chunk:
            break
        seen += chunk
    assert b"player 0> " in seen, seen.decode(errors="replace")
    proc.send_signal(signal.SIGINT)
    # Wait with stdin still open: communicate() would close it, and an end of input read before
    # the signal arrives is a concession (exit 0), not the Ctrl-C under test.
    proc.wait(timeout=60)
    rest = proc.stdout.read()
    proc.stdin.close()
    out = (seen + rest).decode(errors="replace")
    assert proc.returncode == 130, out
    assert "pressed Ctrl-C and concedes" in out and "Traceback" not in out
