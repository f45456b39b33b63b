"""Finding a card's entry: ``python -m mtg_env.cards where NAME`` (the data file and line, and
the Python function of an escape hatch) and the generated ``mtg_env/cards/data/INDEX.md``."""

from __future__ import annotations

import subprocess
import sys

import yaml

from mtg_env.cards import index
from mtg_env.cards.__main__ import main
from mtg_env.cards.loader import DATA_DIR
from mtg_env.engine import registry

ROOT = DATA_DIR.parents[2]


def test_index_md_is_up_to_date() -> None:
    assert index.INDEX_PATH.read_text() == index.index_text(), (
        "mtg_env/cards/data/INDEX.md is out of date: run `python -m mtg_env.cards index`")


def test_every_card_is_found_at_its_entry() -> None:
    locs = index.locations()
    implemented = {n for n, c in registry.all_cards().items() if not c.is_token}
    assert set(locs) == implemented
    for name, loc in locs.items():
        line = loc.path.read_text().splitlines()[loc.line - 1]
        key = line.split(":", 1)[0] if not line.startswith('"') else line[:line.index('":') + 1]
        assert yaml.safe_load(key) == name, (name, line)
    # INDEX.md is not a card file: the loader and the index read only *.yaml
    assert index.INDEX_PATH not in set(DATA_DIR.glob("*.yaml"))


def test_where_prints_the_file_and_line(capsys) -> None:
    assert main(["where", "Mirri, Cat Warrior"]) == 0
    out = capsys.readouterr().out.splitlines()
    loc = index.locations()["Mirri, Cat Warrior"]
    assert out == [f"mtg_env/cards/data/{loc.path.name}:{loc.line}"]
    assert main(["where", "mirri, cat warrior"]) == 0  # a slip of case finds it
    assert capsys.readouterr().out.splitlines() == out


def test_where_names_the_escape_hatch_function(capsys) -> None:
    assert main(["where", "Head Games"]) == 0
    entry, hatch = capsys.readouterr().out.splitlines()
    assert entry.startswith("mtg_env/cards/data/") and entry.endswith(
        f":{index.locations()['Head Games'].line}")
    assert hatch.startswith("custom head_games: mtg_env/cards/custom.py:") and hatch.endswith(
        " head_games")
    line = int(hatch.split(":")[2].split()[0])
    assert (ROOT / "mtg_env/cards/custom.py").read_text().splitlines()[line - 1].startswith(
        "def head_games(")


def test_an_unknown_name_is_one_line_with_close_names() -> None:
    res = subprocess.run([sys.executable, "-m", "mtg_env.cards", "where", "Teror"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [
        "error: no card named 'Teror' in mtg_env/cards/data/*.yaml; did you mean 'Terror'?"]


def test_the_bare_command_is_still_the_coverage_listing(capsys) -> None:
    assert main([]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Total: ")
