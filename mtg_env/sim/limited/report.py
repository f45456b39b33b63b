"""The printed report of a Limited event: the players' decks, every round's results and the
standings, as ``rich`` tables (what ``mtg-env sealed`` and ``mtg-env draft`` print)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .event import EventResult
from .tuning import TuningResult

__all__ = ["print_deck", "print_event", "print_tuning"]


def _who(res: EventResult, p: int | None) -> str:
    if p is None:
        return "(bye)"
    e = res.entrants[p]
    return f"{e.name} ({e.deck.colors})"


def print_deck(con: Console, res: EventResult, player: int) -> None:
    """One player's deck list, two columns: spells by mana value, then lands."""
    e = res.entrants[player]
    d = e.deck
    con.print(f"[bold]{escape(e.name)}[/bold]: {d.colors} deck, {d.creatures} creatures, "
              f"{len(d.main) - d.lands} spells, {d.lands} lands"
              + (f" ({'; '.join(d.notes)})" if d.notes else ""))
    entries = d.deck.entries
    half = (len(entries) + 1) // 2
    t = Table(show_header=False, box=None, padding=(0, 2))
    t.add_column()
    t.add_column()
    for i in range(half):
        right = entries[half + i] if half + i < len(entries) else None
        t.add_row(f"{entries[i][0]} {entries[i][1]}", f"{right[0]} {right[1]}" if right else "")
    con.print(t, markup=False)


def print_event(con: Console, res: EventResult, decks: bool = False) -> None:
    """The event header, each round's pairings and results, and the final standings; with
    ``decks`` every player's deck list first."""
    n = len(res.entrants)
    bo = "best of three" if res.best_of == 3 else "best of one"
    agents = ", ".join(sorted({e.agent for e in res.entrants}))
    con.print(f"[bold]{res.kind.capitalize()} event[/bold]: {n} players, {len(res.rounds)} Swiss rounds, "
              f"{bo}, {agents} agents, seed {res.seed}; ratings: {escape(res.ratings_source)}")
    if decks:
        for p in range(n):
            print_deck(con, res, p)
    for r, matches in enumerate(res.rounds, 1):
        t = Table(title=f"Round {r}", title_justify="left", title_style="bold")
        t.add_column("table", justify="right")
        t.add_column("player")
        t.add_column("result", justify="center")
        t.add_column("opponent")
        t.add_column("games (first player, winner, turns)")
        for m in matches:
            a, b = m.players
            if m.is_bye:
                t.add_row(str(m.table), _who(res, a), "bye", "—", "")
                continue
            w, l, d = m.score
            result = f"{w}-{l}" + (f"-{d}" if d else "")
            games = "; ".join(
                f"{'AB'[g.first]} first, "
                + ("engine error" if g.error else "draw" if g.winner is None else f"{'AB'[g.winner]} wins")
                + f", {g.turns}t"
                for g in m.games)
            t.add_row(str(m.table), "A " + _who(res, a), result, "B " + _who(res, b), games)
        con.print(t)
    t = Table(title="Standings", title_justify="left", title_style="bold")
    for col, just in (("rank", "right"), ("player", "left"), ("colors", "left"), ("points", "right"),
                      ("matches W-L-D", "center"), ("games W-L-D", "center"), ("OMW%", "right"),
                      ("GW%", "right"), ("OGW%", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for s in res.standings:
        t.add_row(str(s.rank), s.name, res.entrants[s.player].deck.colors, str(s.points),
                  "-".join(map(str, s.match_record)), "-".join(map(str, s.game_record)),
                  f"{s.omw:.1%}", f"{s.gw:.1%}", f"{s.ogw:.1%}")
    con.print(t)
    games = sum(len(m.games) for m in res.matches)
    con.print(f"{games} game{'s' if games != 1 else ''} in {res.seconds:.1f}s")
    errors = [g.error for m in res.matches for g in m.games if g.error]
    if errors:
        con.print(f"[bold red]warning[/bold red]: {len(errors)} game(s) ended in an engine error and count "
                  f"as drawn games; the first: {escape(errors[0])}")


def print_tuning(con: Console, res: TuningResult, top: int = 10) -> None:
    """What ``draft-ratings`` measured: the passes, and the cards whose rating moved most."""
    for p in res.passes:
        con.print(f"pass {p['pass']}: {p['events']} sealed events, {p['games']} games, "
                  f"{p['cards_measured']} cards in hand at least once, average GIH win rate "
                  f"{p['average_gih_win_rate']:.1%}"
                  + (f"; {p['engine_errors']} games ended in an engine error (left out)"
                     if p["engine_errors"] else ""))
    moved = sorted(res.stats.values(), key=lambda s: s.new - s.old)
    for title, rows in (("rose most", moved[::-1][:top]), ("fell most", moved[:top])):
        t = Table(title=f"Ratings that {title} (last pass)", title_justify="left", title_style="bold")
        for col in ("card", "games in hand", "GIH win rate", "old", "new"):
            t.add_column(col, justify="left" if col == "card" else "right")
        for s in rows:
            t.add_row(s.name, str(s.games), f"{s.win_rate:.1%}", f"{s.old:.2f}", f"{s.new:.2f}")
        con.print(t)
