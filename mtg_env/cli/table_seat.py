"""The terminal seat at a multiplayer table: :class:`agents.human.HumanAgent` (its commands,
stops, undo and hot-seat handover unchanged) showing every seat of the table
(:func:`mtg_env.sim.table_board.render_table`) instead of the two-player board."""

from __future__ import annotations

from typing import Any

from agents.human import HumanAgent, _ordered
from mtg_env.engine.view import PlayerView
from mtg_env.env.board import render_options
from mtg_env.sim.table_board import render_table, with_seating

__all__ = ["TableHumanAgent"]


class TableHumanAgent(HumanAgent):
    """A person at the terminal, seated at a table of any size (Free-for-All or Two-Headed
    Giant): the board lists the opponents in turn order, the stack, the teammates and their own
    seat, with who has left the game and each team's shared life."""

    multiplayer = True

    def _board(self, view: PlayerView) -> dict[str, Any]:
        return with_seating(super()._board(view), view)

    def _show(self, view: PlayerView, new_log: bool = True) -> None:
        if new_log:
            self._print_new_log()
        self.console.print(render_table(self._board(view), self.names))
        d = view.decision
        if d is None:
            return
        shown, n_main = _ordered(d.options)
        self.console.print(render_options(d.prompt, [o.text for o in shown[:n_main]]))
        if n_main < len(shown):
            n = len(shown) - n_main
            self._say(f"     (+{n} mana abilit{'y' if n == 1 else 'ies'}, {n_main + 1}"
                      f"{f'-{len(shown)}' if n > 1 else ''}: type 'mana' to list them)", style="dim")
