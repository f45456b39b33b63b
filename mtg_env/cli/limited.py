"""Sealed and draft (mtg_env/sim/limited): ``sealed``, ``draft`` and ``draft-ratings``."""

from __future__ import annotations

import math
from typing import Any

import typer
from rich.console import Console

from .. import MtgError
from .. import cli as _cli
from . import _options as opt
from ._common import _agent_pair, _bad_input_exits, _console, _int, _names, _writable_file

BO1_HELP = "best-of-one matches instead of best of three"
# The options of an event that sealed and draft share.
ROUNDS_OPT = typer.Option(None, help="Swiss rounds [default: ceil(log2(players)), 3 for 8]")
BO1_OPT = typer.Option(False, "--bo1", "--best-of-one", help=BO1_HELP)
EVENT_AGENT_OPT = typer.Option("heuristic", help="the agent playing every deck (any agent spec)")
DECKS_OPT = typer.Option(False, "--decks", help="print every player's deck list")


def _ratings_opt(read_by: str) -> Any:
    """An event's --ratings option; ``read_by`` says what builds from the ratings."""
    return typer.Option(None, help=f"card ratings file for {read_by} (mtg-env draft-ratings writes one)")


def _event_json_opt(contents: str) -> Any:
    """An event's --json option; ``contents`` names what the file holds before the matches."""
    return typer.Option(None, "--json", help=f"write the event ({contents}, matches, standings) as JSON")


def _limited_checks(players: int, rounds: int | None, agent: str, ratings: str | None, workers: int | None,
                    max_turns: int, json_out: str | None) -> tuple[str, Any]:
    """Check the options of an event before any pack is opened: the agent spec and the ratings."""
    from ..sim.limited import default_ratings, load_ratings
    from ..sim.limited.event import check_agent
    from ..sim.parallel import check_backend

    _int(players, "players", 2)
    if players > 64:
        raise MtgError(f"players must be at most 64, got {players}")
    if rounds is not None:
        _int(rounds, "rounds", 1)
    name = _names(agent, "--agent")
    if len(name) != 1:
        raise MtgError(f"an event uses one agent for every player, got {agent!r}")
    _agent_pair(name[0])
    check_agent(name[0])
    check_backend(workers, "local")
    _int(max_turns, "max_turns", 1)
    if json_out is not None:
        _writable_file(json_out, "--json")
    return name[0], load_ratings(ratings) if ratings is not None else default_ratings()


def _limited_report(res: Any, decks: bool, json_out: str | None, you: int | None = None) -> None:
    from ..sim.limited.report import print_event

    con = _console()
    print_event(con, res, decks=decks)
    if you is not None:
        s = next(s for s in res.standings if s.player == you)
        con.print(f"[bold]you finished {s.rank} of {len(res.entrants)}[/bold] with {s.points} points "
                  f"({'-'.join(map(str, s.match_record))} in matches)")
    if json_out is not None:
        res.write_json(json_out)
        con.print(f"wrote {json_out}")


@_bad_input_exits
def sealed(players: int = typer.Option(8, help="players, each with six boosters"),
           seed: int = typer.Option(0, help="seed of the pools, pairings and games"),
           rounds: int = ROUNDS_OPT, bo1: bool = BO1_OPT, agent: str = EVENT_AGENT_OPT,
           ratings: str = _ratings_opt("the deck builder"),
           workers: int = opt.WORKERS, max_turns: int = opt.MAX_TURNS, decks: bool = DECKS_OPT,
           json_out: str = _event_json_opt("decks, pools"), progress: bool = opt.PROGRESS) -> None:
    """A Tenth Edition sealed event: six boosters each, decks built automatically, Swiss rounds.

    Every player opens six seeded boosters; the deck builder makes a 40-card deck of each pool
    (the best two colors by card rating, a curve, 16-18 basic lands); the decks play Swiss rounds
    of best-of-three matches (--bo1: one game) by simulation. Prints each round's results and
    the standings (match points, then opponents' match-win %, game-win %, opponents' game-win %).
    """
    from ..sim.limited import run_sealed_event

    spec, table = _limited_checks(players, rounds, agent, ratings, workers, max_turns, json_out)
    _cli._before_games()
    res = run_sealed_event(players, seed, table, spec, rounds=rounds, best_of=1 if bo1 else 3,
                           max_turns=max_turns, workers=workers, progress=progress)
    _limited_report(res, decks, json_out)


@_bad_input_exits
def draft(seed: int = typer.Option(0, help="seed of the boosters, pairings and games"),
          players: int = typer.Option(8, help="seats at the draft table"),
          human: bool = typer.Option(False, "--human", help="you draft seat 1 at this terminal"),
          play: bool = typer.Option(False, "--play", help="with --human: you also play your matches at "
                                                          "this terminal (as in mtg-env play)"),
          rounds: int = ROUNDS_OPT, bo1: bool = BO1_OPT, agent: str = EVENT_AGENT_OPT,
          ratings: str = _ratings_opt("the bots and the deck builder"),
          workers: int = opt.WORKERS, max_turns: int = opt.MAX_TURNS, decks: bool = DECKS_OPT,
          json_out: str = _event_json_opt("draft picks, decks"), progress: bool = opt.PROGRESS) -> None:
    """A Tenth Edition booster draft: 8 seats, three boosters each, then a Swiss event.

    Bots draft by card rating and commit to two colors after a few picks; packs pass left,
    right, left. With --human you take seat 1: each pick shows the pack (names, mana costs,
    rules text) and you answer with a number or a card name ('?' for help). Every pool becomes
    a 40-card deck by the automatic builder (yours too; it is printed), and the decks play Swiss
    rounds of best-of-three matches (--bo1: one game) by simulation; with --play you play your
    own matches at the terminal (the other matches are simulated). End of input abandons the
    draft or the event (exit code 1), Ctrl-C too (130).
    """
    from ..sim.interactive import HumanQuit
    from ..sim.limited import run_draft_event
    from ..sim.limited.human import DraftQuit, HumanDrafter
    from ..sim.limited.report import print_deck

    spec, table = _limited_checks(players, rounds, agent, ratings, workers, max_turns, json_out)
    if play and not human:
        raise MtgError("--play needs --human (you play the deck you draft)")
    _cli._before_games()
    con = Console(highlight=False)
    person = HumanDrafter(console=con) if human else None
    if person is not None:
        con.print(f"[bold]Booster draft[/bold], {players} seats: you are seat 1; '?' for help")
    here: dict[int, Any] = {}
    if play:
        from agents.human import HumanAgent

        here[0] = lambda names: HumanAgent(console=con, names=list(names))

    def built(res: Any) -> None:  # the draft is over: show the person their deck
        if person is not None:
            con.print()
            con.print("[bold]Your deck[/bold] (built automatically from your 45 picks):")
            print_deck(con, res, 0)

    try:
        res = run_draft_event(seed, table, spec, seats=players, human=person, rounds=rounds,
                              best_of=1 if bo1 else 3, max_turns=max_turns, workers=workers,
                              progress=progress and not play, at_terminal=here or None,
                              say=lambda text: con.print(text, style="bold", markup=False),
                              on_decks=built)
    except (DraftQuit, HumanQuit) as exc:
        con.print(str(exc), style="bold")
        code = exc.exit_code if isinstance(exc, DraftQuit) else 130 if exc.exit_code == 130 else 1
        if isinstance(exc, HumanQuit):
            con.print("the event is abandoned", style="bold")
        raise typer.Exit(code) from None
    _limited_report(res, decks, json_out, you=0 if human else None)


@_bad_input_exits
def draft_ratings(events: int = typer.Option(50, help="sealed events per pass"),
                  players: int = typer.Option(8, help="players per event"),
                  seed: int = typer.Option(0, help="base seed"),
                  iterations: int = typer.Option(1, help="passes, each with the ratings of the last"),
                  step: float = typer.Option(0.1, help="rating change per point of GIH win rate "
                                                       "above the average"),
                  prior: float = typer.Option(20.0, help="pseudo-games at the average win rate "
                                                         "(shrinks small samples)"),
                  agent: str = typer.Option("heuristic", help="the agent playing every deck"),
                  ratings: str = typer.Option(None, help="ratings file to start from [default: the "
                                                         "ratings computed from card data]"),
                  out: str = typer.Option("card_ratings.json", help="the ratings file to write"),
                  workers: int = opt.WORKERS, max_turns: int = opt.MAX_TURNS,
                  progress: bool = opt.PROGRESS) -> None:
    """Improve the card ratings from simulated sealed events (games-in-hand win rates).

    Plays sealed events (best of one) with decks built by the current ratings; a card's rating
    moves by its games-in-hand win rate against the average, shrunk toward the average for cards
    seen in few games. Writes a ratings file for `mtg-env draft --ratings` and `sealed --ratings`.
    """
    from ..sim.limited.event import progress_bar
    from ..sim.limited.report import print_tuning
    from ..sim.limited.tuning import improve_ratings

    _int(events, "events", 1)
    _int(iterations, "iterations", 1)
    for v, what in ((step, "step"), (prior, "prior")):
        if not math.isfinite(v) or v < 0:
            raise MtgError(f"{what} must be a number of at least 0, got {v}")
    spec, table = _limited_checks(players, None, agent, ratings, workers, max_turns, out)
    _cli._before_games()
    with progress_bar(events * iterations, progress, "events", "sealed events") as advance:
        res = improve_ratings(table, events, players, seed, spec, iterations, step, prior,
                              max_turns=max_turns, workers=workers,
                              on_event=lambda done, total: advance(1, "sealed events"))
    con = _console()
    print_tuning(con, res)
    res.ratings.save(out, note=res.ratings.source)
    con.print(f"{res.games} games in {res.seconds:.1f}s; wrote {out}")
