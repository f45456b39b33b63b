"""``mtg-env goldfish``: how fast a deck kills an opponent that does nothing.

The deck sits in seat 0, played by any agent (``heuristic`` by default, ``human`` for one game at
this terminal); seat 1 is the ``goldfish`` agent under the engine's goldfish option (it doesn't
lose for 0 or less life or for drawing from an empty library, 2007 CR 420.5a and 420.5g), by
default with no cards at all. A game's *kill turn* is the deck's own turn number (its first turn
is 1, on the play or on the draw) in which the goldfish's life first reached 0; a game that ends
otherwise (the turn limit, the deck losing to its own mana burn or an empty library) is not a kill.
Over ``-n`` games the command prints the distribution of the kill turn: median, mean and a
histogram table.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from .. import MtgError
from .. import cli as _cli
from ._common import _agent_pair, _bad_input_exits, _int, _writable_file

ON_CHOICES = ("random", "play", "draw")


def kill_turn(game: Any, seat: int = 0) -> int | None:
    """Seat ``seat``'s own turn number in which the goldfish's life first reached 0 (or in which the
    goldfish otherwise lost), ``None`` if it was not killed. Extra turns are not counted apart."""
    turn = game.goldfish_dead_turn
    if turn is None:
        if game.winner != seat:
            return None
        turn = game.turn
    return (turn + 1) // 2 if game.starting_player == seat else turn // 2


def kill_summary(kills: list[int | None]) -> dict[str, Any]:
    """The distribution of kill turns (``None``: not killed): counts, median and mean of the kills.

    >>> s = kill_summary([4, 5, 5, None])
    >>> s["killed"], s["median"], s["mean"], s["histogram"]
    (3, 5, 4.67, {4: 1, 5: 2})
    """
    hit = [k for k in kills if k is not None]
    return {"games": len(kills), "killed": len(hit), "not_killed": len(kills) - len(hit),
            "median": statistics.median(hit) if hit else None,
            "mean": round(statistics.fmean(hit), 2) if hit else None,
            "histogram": dict(sorted(Counter(hit).items()))}


def _table(summary: dict[str, Any]) -> str:
    n = summary["games"]
    rows = [" turn  games  share  cumulative"]
    cum = 0
    scale = max(summary["histogram"].values(), default=1)
    for turn, count in summary["histogram"].items():
        cum += count
        bar = "#" * max(1, round(40 * count / scale))
        rows.append(f"{turn:>5}  {count:>5}  {count / n:>5.0%}  {cum / n:>10.0%}  {bar}")
    if summary["not_killed"]:
        rows.append(f"{'none':>5}  {summary['not_killed']:>5}  {summary['not_killed'] / n:>5.0%}")
    return "\n".join(rows)


def _play_one(deck: Any, fish_deck: Any, agent: Any, seed: int, max_turns: int,
              starting: int | None) -> Any:
    """One game to the kill (or its end): the deck's agent in seat 0, a goldfish in seat 1."""
    from agents.goldfish import GoldfishAgent

    from ..engine.game import Game
    from ..engine.view import view_for
    from ..sim.runner import GAME_OPTIONS, derive_seed

    game = Game.new([deck, fish_deck], seed=seed, max_turns=max_turns, goldfish=1,
                    starting_player=starting, **GAME_OPTIONS)
    agents = [agent, GoldfishAgent()]
    for seat, a in enumerate(agents):
        a.reset(seat, derive_seed(seed, "agent", seat))
    while not game.is_over and game.goldfish_dead_turn is None:
        d = game.decision
        game.apply(agents[d.player].act(view_for(game, d.player)))
    return game


@_bad_input_exits
def goldfish(deck: str = typer.Argument(..., help="the deck to test (a built-in name or a deck file)"),
             agent: str = typer.Option("heuristic",
                                       help="who plays the deck; 'human' is you at this terminal"),
             n: int = typer.Option(None, "-n", "--games",
                                   help="games to play (default 100; 1 with --agent human)"),
             seed: int = typer.Option(0, help="seed of the first game (each game's seed derives from it)"),
             max_turns: int = typer.Option(40, help="turn limit of a game (both players' turns); a game "
                                                    "that reaches it is not a kill"),
             on: str = typer.Option("random", help="the deck plays first (play), second (draw) or as a "
                                                   "coin flip decides (random)"),
             against: str = typer.Option(None, help="the goldfish's deck (default: no cards)"),
             json_out: str = typer.Option(None, "--json", help="also write the summary to this JSON file"),
             save: str = typer.Option(None, help="with --agent human: write the game's replay to this file"),
             ) -> None:
    """Goldfish a deck: how many turns it takes to bring an opponent that does nothing to 0 life.

    Plays -n games of the deck (seat 0, played by --agent) against the goldfish agent, whose life
    may go below 0 without the game ending and who has no library to run out of (2007 CR 420.5a
    and 420.5g suspended for it), and prints the distribution of the kill turn: the deck's own
    turn in which the goldfish's life first reached 0 (median, mean, a histogram). Games that hit
    --max-turns or end otherwise count as not killed. With --agent human you play one game at
    this terminal, with the turn counter and the kill turn shown on the board.
    """
    name = _agent_pair(agent)
    if name[0] != name[1]:
        raise MtgError(f"--agent takes the one agent that plays the deck, got {agent!r}")
    spec = name[0]
    human = spec == "human"
    games = n if n is not None else 1 if human else 100
    _int(games, "-n", 1)
    _int(max_turns, "--max-turns", 1)
    if human and games != 1:
        raise MtgError("--agent human plays one game: leave out -n or give -n 1")
    if on not in ON_CHOICES:
        raise MtgError(f"--on must be one of {', '.join(ON_CHOICES)}, got {on!r}")
    if save is not None:
        if not human:
            raise MtgError("--save writes the replay of a game at this terminal: use it with --agent human")
        _writable_file(Path(save), "--save")
    if json_out is not None:
        _writable_file(Path(json_out), "--json")
    from ..engine.deck import Deck

    test_deck = _cli.load_deck(deck)
    fish_deck = _cli.load_deck(against) if against is not None else Deck.from_text("", name="nothing",
                                                                                   min_size=0)
    starting = {"random": None, "play": 0, "draw": 1}[on]
    _cli._before_games()
    if human:
        kills = [_human_game(Console(highlight=False), test_deck, fish_deck, seed, max_turns, starting, save)]
    else:
        from agents import make_agent

        from ..sim.runner import derive_seed

        kills = []
        player = make_agent(spec)
        for i in range(games):
            game = _play_one(test_deck, fish_deck, player, derive_seed(seed, "goldfish", i), max_turns,
                             starting)
            kills.append(kill_turn(game))
    summary = kill_summary(kills)
    deck_name = test_deck.name or deck
    plural = "s" if games != 1 else ""
    typer.echo(f"goldfish: {deck_name} played by {spec}, {games} game{plural} (seed {seed}, {on}, "
               f"turn limit {max_turns})")
    if summary["killed"]:
        typer.echo(f"killed in {summary['killed']} of {games}: kill turn median {summary['median']:g}, "
                   f"mean {summary['mean']:g} (the deck's own turns)")
        typer.echo(_table(summary))
    else:
        typer.echo(f"no kill in {games} game{plural}")
    if json_out is not None:
        data = {"deck": deck_name, "agent": spec, "seed": seed, "on": on, "max_turns": max_turns,
                **summary, "histogram": {str(k): v for k, v in summary["histogram"].items()},
                "kills": kills}
        Path(json_out).write_text(json.dumps(data, indent=1) + "\n")
        typer.echo(f"wrote {json_out}")


def _human_game(con: Console, deck: Any, fish_deck: Any, seed: int, max_turns: int, starting: int | None,
                save: str | None) -> int | None:
    """One game at this terminal against the goldfish; the kill turn."""
    from agents.goldfish import GoldfishAgent
    from agents.human import HumanAgent, HumanQuit

    from ..sim.replay import record_game

    human = HumanAgent(console=con, names=[f"human, {deck.name}" if deck.name else "human", "goldfish"])
    options = {"starting_player": starting} if starting is not None else {}
    code = 0
    try:
        game, replay = record_game([deck, fish_deck], [human, GoldfishAgent()], seed, max_turns, options)
    except HumanQuit as exc:
        con.print(str(exc), style="bold", markup=False)
        game, replay, code = exc.game, exc.replay, exc.exit_code
    kill = kill_turn(game)
    con.print(f"game over after {game.turn} turns: "
              + (f"the goldfish's life reached 0 on your turn {kill}" if kill is not None else "no kill"),
              style="bold", markup=False)
    if save is not None:
        con.print(f"wrote {replay.save(save)}", markup=False)
    if code:
        raise typer.Exit(code)
    return kill
