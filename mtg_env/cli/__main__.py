"""``python -m mtg_env.cli``: the ``mtg-env`` command line."""

from . import main

main()
