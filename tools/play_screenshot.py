"""Make docs/img/play_terminal.svg: what the human seat of ``mtg-env play`` shows at one decision.

A recorded heuristic game is re-run to a busy main-phase decision of player 0, and a
:class:`agents.HumanAgent` with a recording ``rich`` console is asked that decision (the typed
answer is scripted). Run from the repository root: ``PYTHONPATH=. python tools/play_screenshot.py``.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from agents import HeuristicAgent, HumanAgent
from mtg_env.sim.replay import record_game

OUT = Path(__file__).resolve().parents[1] / "docs" / "img" / "play_terminal.svg"


def main() -> None:
    _, rep = record_game(["kamahls_temper", "molimos_might"], [HeuristicAgent(), HeuristicAgent()], seed=3)
    chosen: list = []

    def pick(game, n, text):
        d = game.decision
        if (not chosen and d.player == 0 and game.turn >= 12 and game.step == "precombat_main"
                and len(d.options) >= 5 and any(o.text.startswith("play ") for o in d.options)):
            chosen.append(game.copy())

    rep.run(pick)
    game = chosen[0]
    answer = next(o.text for o in game.decision.options if o.text.startswith("play ")
                  and "Mountain" not in o.text)
    con = Console(record=True, width=112, force_terminal=True, color_system="truecolor")
    human = HumanAgent(input=[answer.lower()[:12]], console=con,
                       names=["human, kamahls_temper", "heuristic, molimos_might"])
    human.reset(0, 0)
    human.log_source = lambda: game.log
    human._log_seen = max(len(game.log) - 6, 0)
    human.act(game.view(0))
    con.save_svg(str(OUT), title="mtg-env play kamahls_temper molimos_might --agent human,heuristic")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
