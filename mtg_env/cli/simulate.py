"""Many games between decks or agents: ``matchup``, ``matrix``, ``tournament``, ``pod`` (a
multiplayer Free-for-All table) and ``pod-tournament`` (Free-for-All tables drawn from more decks,
rated with openskill)."""

from __future__ import annotations

import math
from typing import Any

import typer
from rich.table import Table

from .. import MtgError
from .. import cli as _cli
from . import _options as opt
from ._common import (
    _SIM_KEYS,
    _agent_pair,
    _bad_input_exits,
    _cell,
    _console,
    _deck_names,
    _int,
    _load_config,
    _names,
    _paired,
    _pct,
    _pick,
    _save_dir,
    _saved,
    _writable_dir,
    _writable_file,
)


def _run_options(cfg: dict[str, Any], seed: int | None, workers: int | None, backend: str | None,
                 max_turns: int | None) -> tuple[int, int | None, str, int]:
    """The seed, workers, backend and turn cap of a run configured by options or a config file
    (an option wins), checked."""
    from ..sim.parallel import check_backend

    seed_v = _int(_pick(seed, cfg, "seed", 0), "seed")
    workers_v = _pick(workers, cfg, "workers", None)
    backend_v = _pick(backend, cfg, "backend", "local")
    check_backend(workers_v, backend_v)
    return seed_v, workers_v, backend_v, _int(_pick(max_turns, cfg, "max_turns", 100), "max_turns", 1)


def _write_json_csv(con: Any, result: Any, json_out: str | None, csv_out: str | None) -> None:
    """Write a run's ``--json`` and ``--csv`` files (its ``write_json``/``write_csv``), saying so."""
    if json_out is not None:
        result.write_json(json_out)
        con.print(f"wrote {json_out}")
    if csv_out is not None:
        result.write_csv(csv_out)
        con.print(f"wrote {csv_out}")


@_bad_input_exits
def matchup(deck_a: str = typer.Argument(..., help="deck A: a built-in deck name or a deck file"),
            deck_b: str = typer.Argument(..., help="deck B: a built-in deck name or a deck file"),
            games: int = typer.Option(100, "--games", "-n", help="games (played in seat-swapped pairs)"),
            agent: str = typer.Option("heuristic", help="agent of both decks, or AGENT_A,AGENT_B"),
            seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
            address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
            json_out: str = typer.Option(None, "--json", help="write the summary and every game as JSON"),
            csv_out: str = typer.Option(None, "--csv", help="write one CSV row per game"),
            save_games: str = opt.SAVE_GAMES, only_losses_of: str = opt.ONLY_LOSSES_OF,
            progress: bool = opt.PROGRESS) -> None:
    """Deck A against deck B: win rate with a 95% Wilson interval, play/draw split, speed."""
    from ..sim.matchup import run_matchup
    from ..sim.parallel import check_backend

    decks = [_cli.load_deck(deck_a), _cli.load_deck(deck_b)]
    games = _int(games, "games", 1)
    pair = _agent_pair(agent)
    _int(max_turns, "max_turns", 1)
    check_backend(workers, backend)
    if json_out is not None:
        _writable_file(json_out, "--json")
    if csv_out is not None:
        _writable_file(csv_out, "--csv")
    save_dir = _save_dir(save_games)
    games = _paired(games)
    _cli._before_games()
    m = run_matchup(decks[0], decks[1], games, pair, seed, workers, backend, address, max_turns, progress,
                    save_dir, only_losses_of)
    s = m.summary
    con = _console()
    con.print(f"[bold]{m.deck_a} (A) vs {m.deck_b} (B)[/bold]: {pair[0]} vs {pair[1]} agents, "
              f"{len(m.results)} games, seed {seed}")
    t = Table(show_header=False)
    t.add_column(style="bold")
    t.add_column()
    wr = s["win_rate_a"]
    t.add_row("A win rate (95% Wilson)", _pct(wr["rate"], wr["ci_low"], wr["ci_high"]))
    t.add_row("record A-B-draws", f"{s['wins_a']}-{s['wins_b']}-{s['draws']}"
              + (f"  ({s['errors']} engine errors left out)" if s["errors"] else ""))
    for key, label in (("win_rate_a_on_the_play", "A on the play"),
                       ("win_rate_a_on_the_draw", "A on the draw"),
                       ("on_the_play_win_rate", "player on the play wins")):
        r = s[key]
        t.add_row(label, _pct(r["rate"], r["ci_low"], r["ci_high"]))
    t.add_row("average turns", f"{s['avg_turns']:.1f}")
    t.add_row("average decisions", f"{s['avg_decisions']:.0f}")
    ms = 1000 * sum(r.seconds for r in m.results) / max(len(m.results), 1)
    t.add_row("average game time", f"{ms:.0f} ms (one core)")
    t.add_row("speed", f"{m.games_per_second:.1f} games/s ({m.workers} workers, {backend})")
    con.print(t)
    _write_json_csv(con, m, json_out, csv_out)
    _saved(con, m.saved, save_games)


@_bad_input_exits
def matrix(decks: str = typer.Option(None, help="comma-separated decks or groups: theme, starter, "
                                     "constructed, all (default: the theme decks)"),
           games: int = typer.Option(None, "--games", "-n", help="games per pairing [default: 100]"),
           agents: str = typer.Option(None, "--agents", "--agent",
                                      help="the agent of every deck [default: heuristic]"),
           seed: int = opt.CONFIG_SEED, workers: int = opt.WORKERS, backend: str = opt.CONFIG_BACKEND,
           address: str = opt.ADDRESS, max_turns: int = opt.CONFIG_MAX_TURNS,
           mirrors: bool = typer.Option(None, "--mirrors/--no-mirrors",
                                        help="also play each deck against itself"),
           out: str = typer.Option(None, help="output folder for matrix.csv and matrix.png "
                                              "[default: results]"),
           config: str = opt.CONFIG, save_games: str = opt.SAVE_GAMES,
           only_losses_of: str = opt.ONLY_LOSSES_OF, progress: bool = opt.PROGRESS) -> None:
    """Every pairing of the decks: a win-rate table, a CSV and a heatmap PNG with 95% intervals."""
    from ..sim.matrix import run_matrix

    con = _console()
    cfg = _load_config(config, _SIM_KEYS | {"mirrors": (bool,)})
    deck_list = [_cli.load_deck(d) for d in _deck_names(decks, cfg)]
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    agent_names = set(_names(_pick(agents, cfg, "agents", "heuristic"), "agents"))
    if len(agent_names) != 1:
        raise MtgError(f"a matrix uses one agent for every deck, got {', '.join(sorted(agent_names))}")
    agent = _agent_pair(agent_names.pop(), "agents")[0]
    seed_v, workers_v, backend_v, turns = _run_options(cfg, seed, workers, backend, max_turns)
    out_dir = _writable_dir(_pick(out, cfg, "out", "results"), "--out", ("matrix.csv", "matrix.png"))
    losses_of = _pick(only_losses_of, cfg, "only_losses_of", None)
    save_dir = _save_dir(_pick(save_games, cfg, "save_games", None))
    n = _paired(n, "games per pairing")
    _cli._before_games()
    res = run_matrix(deck_list, n, agent, seed_v, workers_v, backend_v, _pick(address, cfg, "address", None),
                     turns, bool(_pick(mirrors, cfg, "mirrors", False)), progress, save_dir, losses_of)
    cells = res.table().set_index(["deck", "opponent"])
    con.print(f"win rate of row deck vs column deck ({agent} agents, {n} games per pairing; "
              "95% Wilson interval)")
    t = Table()
    t.add_column("deck", style="bold")
    for d in res.decks:
        t.add_column(d, justify="right")
    for a in res.decks:
        row = []
        for b in res.decks:
            if (a, b) not in cells.index:
                row.append("—")
                continue
            c = cells.loc[(a, b)]
            if c.ndim > 1:  # a mirror appears once
                c = c.iloc[0]
            row.append(_cell(c["win_rate"], c["ci_low"], c["ci_high"]))
        t.add_row(a, *row)
    con.print(t)
    res.write_csv(out_dir / "matrix.csv")
    res.heatmap(out_dir / "matrix.png")
    total = sum(len(m.results) for m in res.matchups)
    con.print(f"{total} games in {res.seconds:.1f}s ({total / res.seconds:.1f} games/s); "
              f"wrote {out_dir / 'matrix.csv'} and {out_dir / 'matrix.png'}")
    _saved(con, res.saved, _pick(save_games, cfg, "save_games", None))


@_bad_input_exits
def tournament(agents: str = typer.Option(None, help="comma-separated agents [default: random,heuristic]"),
               decks: str = typer.Option(None, help="comma-separated decks (default: the theme decks)"),
               games: int = typer.Option(None, "--games", "-n",
                                         help="games per pairing of entrants [default: 100]"),
               seed: int = opt.CONFIG_SEED, workers: int = opt.WORKERS,
               backend: str = opt.CONFIG_BACKEND, address: str = opt.ADDRESS,
               max_turns: int = opt.CONFIG_MAX_TURNS,
               resamples: int = typer.Option(None, help="bootstrap resamples for the intervals "
                                                        "[default: 200]"),
               out: str = typer.Option(None, help="output folder for tournament.csv and tournament.png "
                                                  "[default: results]"),
               config: str = opt.CONFIG, save_games: str = opt.SAVE_GAMES,
               only_losses_of: str = opt.ONLY_LOSSES_OF, progress: bool = opt.PROGRESS) -> None:
    """Round robin of agents (over the decks) or, with one agent, of decks; Bradley-Terry ratings."""
    from ..sim.tournament import run_tournament

    cfg = _load_config(config, _SIM_KEYS | {"resamples": (int,)})
    agent_list = _names(_pick(agents, cfg, "agents", "random,heuristic"), "agents")
    for a in agent_list:
        _agent_pair(a, "agents")
    deck_list = [_cli.load_deck(d) for d in _deck_names(decks, cfg)]
    n = _int(_pick(games, cfg, "games", 100), "games", 1)
    seed_v, workers_v, backend_v, turns = _run_options(cfg, seed, workers, backend, max_turns)
    n_resamples = _int(_pick(resamples, cfg, "resamples", 200), "resamples", 0)
    out_dir = _writable_dir(_pick(out, cfg, "out", "results"), "--out",
                            ("tournament.csv", "tournament.png"))
    losses_of = _pick(only_losses_of, cfg, "only_losses_of", None)
    save_dir = _save_dir(_pick(save_games, cfg, "save_games", None))
    n = _paired(n, "games per pairing")
    _cli._before_games()
    res = run_tournament(agent_list, deck_list, n, seed_v, workers_v, backend_v,
                         _pick(address, cfg, "address", None), turns, n_resamples, progress,
                         save_dir, losses_of)
    con = _console()
    con.print(f"{res.kind} tournament: {len(res.results)} games, Bradley-Terry ratings (Elo scale) "
              "with 95% bootstrap intervals")
    t = Table()
    for col, just in (("#", "right"), ("entrant", "left"), ("rating", "right"),
                      ("95% interval", "right"), ("games", "right"), ("wins", "right"),
                      ("draws", "right"), ("score", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, row in res.table().iterrows():
        interval = ("—" if math.isnan(row["ci_low"]) else f"[{row['ci_low']:.0f}, {row['ci_high']:.0f}]")
        t.add_row(str(k + 1), row["entrant"], f"{row['rating']:.0f}", interval, str(row["games"]),
                  str(row["wins"]), str(row["draws"]), f"{row['score']:.1%}")
    con.print(t)
    res.write_csv(out_dir / "tournament.csv")
    res.chart(out_dir / "tournament.png")
    con.print(f"{len(res.results)} games in {res.seconds:.1f}s; wrote {out_dir / 'tournament.csv'} "
              f"and {out_dir / 'tournament.png'}")
    _saved(con, res.saved, _pick(save_games, cfg, "save_games", None))


_POD_DECKS = typer.Argument(..., help="3 to 6 decks (Two-Headed Giant: 4, the first two against "
                                       "the last two): built-in deck names or deck files")


def _win_rate_table(key: str, rows: list[dict]) -> Table:
    """A table of ``rows`` (a pod's per-deck or per-team rows): name, games, wins, win rate."""
    t = Table()
    t.add_column(key)
    t.add_column("games", justify="right")
    t.add_column("wins", justify="right")
    t.add_column("win rate (95% Wilson)")
    for row in rows:
        t.add_row(row[key], str(row["games"]), str(row["wins"]),
                  _pct(row["win_rate"], row["ci_low"], row["ci_high"]))
    return t


@_bad_input_exits
def pod(decks: list[str] = _POD_DECKS,
        games: int = typer.Option(30, "--games", "-n",
                                  help="games, rounded up to whole seat rotations"),
        agent: str = typer.Option("random", help="the agent of every seat, or one per deck "
                                                 "(comma-separated); agents that play multiplayer "
                                                 "games: random, heuristic, mcts"),
        attack: str = typer.Option(None, help="Free-for-All attack option: left (default), right "
                                              "or multiple (2012 802-803)"),
        variant: str = typer.Option("free_for_all", help="free_for_all, two_headed_giant (two "
                                                         "teams of two, 2012 810) or emperor "
                                                         "(two teams of three, 809)"),
        seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
        address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
        json_out: str = typer.Option(None, "--json", help="write the summary and every game as JSON"),
        csv_out: str = typer.Option(None, "--csv", help="write one CSV row per game"),
        progress: bool = opt.PROGRESS) -> None:
    """A multiplayer pod (Free-for-All, or two Two-Headed Giant or Emperor teams): seat-rotated
    games, win rates per deck (and team) and per seat."""
    from ..sim.parallel import check_backend
    from ..sim.pod import run_pod

    loaded = [_cli.load_deck(d) for d in decks]
    games = _int(games, "games", 1)
    _int(max_turns, "max_turns", 1)
    agents = _names(agent, "agent")
    check_backend(workers, backend)
    if json_out is not None:
        _writable_file(json_out, "--json")
    if csv_out is not None:
        _writable_file(csv_out, "--csv")
    _cli._before_games()
    r = run_pod(loaded, games, agents[0] if len(agents) == 1 else agents, seed, attack, workers,
                backend, address, max_turns, progress, variant)
    con = _console()
    n = len(loaded)
    giant = variant in ("two_headed_giant", "emperor")
    if giant:
        a, b = (" + ".join(t) for t in r.teams)
        title = "Two-Headed Giant" if variant == "two_headed_giant" else "Emperor"
        con.print(f"[bold]{title}[/bold]: {a} against {b}; {', '.join(r.agents)}; "
                  f"{len(r.results)} games, seed {seed}; an even match gives each team 50.0%")
        con.print(_win_rate_table("team", r.team_rows()))
    else:
        con.print(f"[bold]Free-for-All pod of {n}[/bold] (attack {r.attack}): "
                  f"{', '.join(r.agents)}; {len(r.results)} games, seed {seed}; an even table "
                  f"gives each deck {1 / n:.1%}")
    con.print(_win_rate_table("deck", r.deck_rows()))
    t = Table()
    t.add_column("seat")
    t.add_column("wins", justify="right")
    t.add_column("win rate (95% Wilson)")
    for row in r.seat_rows():
        k = len(loaded) // 2
        seat = f"seats {row['seat'] * k}-{row['seat'] * k + k - 1}" if giant else str(row["seat"])
        t.add_row(f"{seat}{' (plays first)' if row['seat'] == 0 else ''}", str(row["wins"]),
                  _pct(row["win_rate"], row["ci_low"], row["ci_high"]))
    con.print(t)
    played = r.played
    con.print(f"draws {r.draws}" + (f", {r.errors} engine errors left out" if r.errors else "")
              + f"; average turns {sum(x.turns for x in played) / max(len(played), 1):.1f}; "
              f"{len(r.results) / max(r.seconds, 1e-9):.1f} games/s ({r.workers} workers, {backend})")
    _write_json_csv(con, r, json_out, csv_out)


_TOURNAMENT_DECKS = typer.Argument(..., help="the entrants, at least --table-size decks: built-in deck "
                                             "names or deck files")


@_bad_input_exits
def pod_tournament(decks: list[str] = _TOURNAMENT_DECKS,
                   table_size: int = typer.Option(4, help="players at each table, 3 to 6 (at most "
                                                          "the number of entrants)"),
                   games: int = typer.Option(100, "--games", "-n", help="games (tables) in all"),
                   agent: str = typer.Option("heuristic", help="the agent of every seat, or one per "
                                                               "entrant (comma-separated); agents "
                                                               "that play multiplayer games: random, "
                                                               "heuristic, mcts"),
                   attack: str = typer.Option("left", help="attack option: left, right or multiple "
                                                           "(2012 802-803)"),
                   seed: int = opt.SEED, workers: int = opt.WORKERS, backend: str = opt.BACKEND,
                   address: str = opt.ADDRESS, max_turns: int = opt.MAX_TURNS,
                   json_out: str = typer.Option(None, "--json", help="write the settings, the tables "
                                                                     "and every game as JSON"),
                   csv_out: str = typer.Option(None, "--csv", help="write one CSV row per entrant"),
                   chart: str = typer.Option(None, help="write a PNG chart of the ratings and win "
                                                        "shares"),
                   progress: bool = opt.PROGRESS) -> None:
    """A multiplayer tournament: Free-for-All tables drawn from more decks than one table seats,
    rated with openskill (Plackett-Luce) on each game's finishing order."""
    from ..sim.parallel import check_backend
    from ..sim.pod_tournament import MU, SIGMA, check_table_size, run_pod_tournament

    loaded = [_cli.load_deck(d) for d in decks]
    check_table_size(table_size, len(loaded))
    games = _int(games, "games", 1)
    _int(max_turns, "max_turns", 1)
    agents = _names(agent, "agent")
    check_backend(workers, backend)
    for path, option in ((json_out, "--json"), (csv_out, "--csv"), (chart, "--chart")):
        if path is not None:
            _writable_file(path, option)
    _cli._before_games()
    r = run_pod_tournament(loaded, table_size, games, agents[0] if len(agents) == 1 else agents, seed,
                           attack, workers, backend, address, max_turns, progress)
    con = _console()
    con.print(f"[bold]Free-for-All tournament of {len(loaded)} decks at tables of {table_size}[/bold] "
              f"(attack {attack}): {', '.join(dict.fromkeys(r.agents))}; {len(r.results)} games, seed "
              f"{seed}; an even table gives each deck {1 / table_size:.1%}")
    con.print(f"openskill Plackett-Luce ratings on the finishing order (start mu {MU:g}, sigma "
              f"{SIGMA:.2f}), best ordinal (mu - 3 sigma) first")
    t = Table()
    for col, just in (("#", "right"), ("entrant", "left"), ("ordinal", "right"), ("mu", "right"),
                      ("sigma", "right"), ("games", "right"), ("wins", "right"),
                      ("win share (95% Wilson)", "left"), ("mean place", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, row in r.table().iterrows():
        t.add_row(str(k + 1), row["entrant"], f"{row['ordinal']:.2f}", f"{row['mu']:.2f}",
                  f"{row['sigma']:.2f}", str(row["games"]), str(row["wins"]),
                  _pct(row["win_share"], row["ci_low"], row["ci_high"]),
                  "—" if math.isnan(row["mean_place"]) else f"{row['mean_place']:.2f}")
    con.print(t)
    t = Table()
    t.add_column("seat")
    t.add_column("wins", justify="right")
    t.add_column("win share (95% Wilson)")
    for row in r.seat_rows():
        t.add_row(f"{row['seat']}{' (plays first)' if row['seat'] == 0 else ''}", str(row["wins"]),
                  _pct(row["win_share"], row["ci_low"], row["ci_high"]))
    con.print(t)
    played = r.played
    con.print(f"draws {r.draws}" + (f", {r.errors} engine errors left out" if r.errors else "")
              + f"; average turns {sum(x.turns for x in played) / max(len(played), 1):.1f}; "
              f"{len(r.results) / max(r.seconds, 1e-9):.1f} games/s ({r.workers} workers, {backend})")
    _write_json_csv(con, r, json_out, csv_out)
    if chart is not None:
        r.chart(chart)
        con.print(f"wrote {chart}")
