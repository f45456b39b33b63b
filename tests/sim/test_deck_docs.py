"""docs/decks.md stays true: its example deck loads, every command it shows prints what it says
(the one-line errors exactly, a matchup's table but for its timings), every error message is
the loader's own, and its Python example runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mtg_env import Deck, MtgError
from mtg_env.cli import app
from mtg_env.sim import load_deck

DOC = Path(__file__).resolve().parents[2] / "docs" / "decks.md"
VOLATILE = ("average game time", "speed")  # a matchup table's timings
BORDERS = set("┌┬┐├┼┤└┴┘─│ ")


def _cells(line: str) -> str:
    """A table row without the padding of its cells: a column's width follows its widest cell,
    and the timings above (games/s) make it vary from one machine to another."""
    return re.sub(r" +│", " │", line.rstrip())


def blocks(lang: str) -> list[str]:
    """The fenced code blocks of docs/decks.md in language ``lang``."""
    return re.findall(rf"^```{lang}\n(.*?)^```$", DOC.read_text(), re.S | re.M)


def example_deck() -> str:
    (deck,) = blocks("text")
    return deck


def console_blocks() -> list[list[tuple[str, list[str]]]]:
    """Each console block as ``[(command, lines after it up to the next command), ...]``."""
    out = []
    for block in blocks("console"):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        out.append(steps)
    return out


def test_the_doc_has_an_example_deck_and_its_errors() -> None:
    assert len(console_blocks()) >= 9
    assert sum(1 for s in console_blocks() for _, lines in s if lines and lines[0].startswith("error:")) >= 10


def test_the_example_deck_loads(tmp_path: Path) -> None:
    path = tmp_path / "my_deck.txt"
    path.write_text(example_deck())
    deck = Deck.from_file(path)
    assert len(deck) == 40 and deck.name == "my_deck"
    assert (3, "Giant Growth") in deck.entries  # written "giant growth"
    assert (2, "Incinerate") in deck.entries  # written "2x Incinerate"
    assert deck.sideboard == [(2, "Naturalize"), (2, "Pyroclasm")]
    for name in deck.card_names():
        assert "#" not in name


@pytest.mark.parametrize("block", console_blocks(), ids=lambda s: s[-1][0][:60])
def test_every_command_prints_what_the_doc_shows(block, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_deck.txt").write_text(example_deck())
    for command, shown in block:
        argv = shlex.split(command)
        if argv[0] == "cat":
            (tmp_path / argv[1]).write_text("\n".join(shown) + "\n")
            continue
        assert argv[0] == "mtg-env", command
        res = CliRunner().invoke(app, argv[1:])
        printed = res.output.splitlines()
        if shown and shown[0].startswith("error:"):
            assert res.exit_code == 2, res.output
            assert [line for line in printed if line.startswith("error:")] == shown
            # ... and it is the loader's own message
            with pytest.raises(MtgError) as exc:
                for spec in argv[2:4]:
                    load_deck(spec)
            assert shown == [f"error: {exc.value}"]
        else:
            assert res.exit_code == 0, res.output
            rows = {_cells(p) for p in printed}
            for line in shown:
                if set(line) <= BORDERS:
                    continue  # a table's border: its width is that of the widest cell
                if not any(v in line for v in VOLATILE):
                    assert _cells(line) in rows, \
                        f"{line!r} not in the output of {command!r}:\n{res.output}"


def test_the_python_example_runs(tmp_path: Path, monkeypatch, capsys) -> None:
    (code,) = blocks("python")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_deck.txt").write_text(example_deck())
    exec(compile(code, str(DOC), "exec"), {})
    printed = capsys.readouterr().out
    for comment in re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M):
        assert comment in printed
