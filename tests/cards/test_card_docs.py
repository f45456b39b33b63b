"""docs/cards.md stays true: every card entry, fact and source excerpt it quotes is the repo's own
(word for word where it names a file), the commands it shows print what it says, the loader's
errors are the ones it shows, and its example scenario test passes."""

from __future__ import annotations

import copy
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine.errors import CardDataError

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cards.md"
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
_SOURCE = re.compile(r"`([\w./-]+\.(?:yaml|json|py))`:$")


def blocks() -> list[tuple[str, str, str | None]]:
    """``(language, text, source)`` of each fenced block; ``source`` is the path named by the
    line introducing it ("From `mtg_env/cards/data/creatures_keywords.yaml`:"), if any."""
    text = DOC.read_text()
    out = []
    for m in _FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        src = _SOURCE.search(before)
        out.append((m.group(1), m.group(2), src.group(1) if src else None))
    return out


def card_files() -> dict[str, Path]:
    return {name: p for p in sorted(DATA_DIR.glob("*.yaml")) for name in yaml.safe_load(p.read_text())}


def test_each_card_is_in_exactly_one_file() -> None:
    """The doc says so; the loader would let a later file's entry replace an earlier one."""
    names = [n for p in sorted(DATA_DIR.glob("*.yaml")) for n in yaml.safe_load(p.read_text())]
    assert len(names) == len(set(names))


def test_the_doc_quotes_three_cards_and_an_escape_hatch() -> None:
    quoted = [n for lang, text, _ in blocks() if lang == "yaml" for n in yaml.safe_load(text)]
    assert {"Grizzly Bears", "Terror", "Gravedigger", "Head Games"} <= set(quoted)


@pytest.mark.parametrize("block", [b for b in blocks() if b[0] == "yaml"],
                         ids=lambda b: next(iter(yaml.safe_load(b[1]))))
def test_quoted_card_data_is_the_repos(block) -> None:
    _, text, source = block
    assert source is not None, f"say which file this comes from:\n{text}"
    files = card_files()
    quoted = yaml.safe_load(text)
    for name, entry in quoted.items():
        assert ROOT / source == files[name], f"{name} is in {files[name].relative_to(ROOT)}"
        assert entry == yaml.safe_load(files[name].read_text())[name]
    assert text in (ROOT / source).read_text(), f"not word for word in {source}:\n{text}"


def test_quoted_facts_are_the_repos() -> None:
    (text,) = [t for lang, t, _ in blocks() if lang == "json"]
    entry = json.loads(text)
    assert entry == load_facts()["cards"][entry["name"]]


def test_quoted_source_code_is_the_repos() -> None:
    quoted = [(t, s) for lang, t, s in blocks() if lang == "python" and s is not None]
    assert len(quoted) >= 2
    for text, source in quoted:
        assert text in (ROOT / source).read_text(), f"not word for word in {source}:\n{text}"


def test_the_example_scenario_test_passes() -> None:
    (code,) = [t for lang, t, s in blocks() if lang == "python" and s is None]
    ns: dict = {}
    exec(compile(code, str(DOC), "exec"), ns)
    tests = [f for name, f in ns.items() if name.startswith("test_")]
    assert tests
    for t in tests:
        t()


def _console_steps() -> list[tuple[str, list[str]]]:
    """Each console command with the output lines the doc shows for it."""
    steps: list[tuple[str, list[str]]] = []
    for lang, text, _ in blocks():
        if lang != "console":
            continue
        for line in text.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
    return steps


@pytest.mark.parametrize("step", [s for s in _console_steps() if s[1]], ids=lambda s: s[0][:50])
def test_console_commands_print_what_the_doc_shows(step) -> None:
    command, shown = step
    assert command.startswith((".venv/bin/python ", "grep ")), command
    command = command.replace(".venv/bin/python", shlex.quote(sys.executable), 1)
    res = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == shown


def _set_filter_key(e: dict) -> None:
    e["spell"]["targets"][0]["filters"] = {"not_type": "Artifact", "not_colour": "B"}


def _set_target(e: dict) -> None:
    e["spell"]["effects"][0]["target"] = 1


def _drop_sentence(e: dict) -> None:
    e["text"] = "Destroy target nonartifact, nonblack creature."


def _misspell_op(e: dict) -> None:
    e["spell"]["effects"][0]["op"] = "destory"


MISTAKES: list[Callable[[dict], None]] = [_set_filter_key, _set_target, _drop_sentence, _misspell_op]
"""The mistakes docs/cards.md shows in Terror's entry, in its order."""


def test_the_errors_shown_are_the_loaders(tmp_path: Path) -> None:
    shown = [t.rstrip("\n") for lang, t, _ in blocks() if lang == "text"]
    assert len(shown) == len(MISTAKES)
    entry = yaml.safe_load((DATA_DIR / "destroy_and_bounce.yaml").read_text())["Terror"]
    facts = load_facts()["cards"]
    for change, expected in zip(MISTAKES, shown, strict=True):
        bad = copy.deepcopy(entry)
        change(bad)
        path = tmp_path / "destroy_and_bounce.yaml"
        path.write_text(yaml.safe_dump({"Terror": bad}))
        with pytest.raises(CardDataError) as exc:
            load_file(path, facts)
        message = f"CardDataError: {exc.value}"
        if expected.endswith("..."):
            assert message.startswith(expected.removesuffix("..."))
        else:
            assert message == expected
