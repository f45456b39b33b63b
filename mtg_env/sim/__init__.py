"""Simulation: matchups, matrices and tournaments of agents and decks, run in parallel.

>>> from mtg_env.sim import run_matchup
>>> m = run_matchup("starter_green", "starter_red", games=2, agents="random", seed=1, workers=1)
>>> m.summary["games"]
2
"""

from .decks import THEME_DECKS, default_deck_names, load_deck
from .matchup import MatchupResult, run_matchup, summarize
from .matrix import MatrixResult, run_matrix
from .parallel import default_workers, run_games
from .ratings import bootstrap_ratings, bradley_terry
from .runner import EngineFailure, GameResult, GameSpec, derive_seed, play_game, run_spec
from .stats import wilson_interval
from .tournament import TournamentResult, run_tournament

__all__ = [
    "THEME_DECKS", "EngineFailure", "GameResult", "GameSpec", "MatchupResult", "MatrixResult",
    "TournamentResult", "bootstrap_ratings", "bradley_terry", "default_deck_names",
    "default_workers", "derive_seed", "load_deck", "play_game", "run_games", "run_matchup",
    "run_matrix", "run_spec", "run_tournament", "summarize", "wilson_interval",
]
