"""Property-based tests (hypothesis) of the input boundaries: mutated deck texts and bytes, mutated
positions and mutated command lines raise only the package's own errors (:class:`MtgError`
subclasses, or a one-line ``error:`` with exit code 2 from the CLI), never a foreign exception,
and leave their input unchanged.

Example counts are bounded (``max_examples``) so these tests take seconds, not minutes.
"""

from __future__ import annotations

import copy
import os
import tempfile
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the [dev] extra")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mtg_env import Deck, Game, MtgError  # noqa: E402

# MTG_FUZZ_EXAMPLES=5000 runs a long, randomized fuzz session; the suite's default is fixed and small.
_LONG = int(os.environ.get("MTG_FUZZ_EXAMPLES", "0"))


def _settings(n: int) -> settings:
    return settings(max_examples=_LONG or n, deadline=None, derandomize=not _LONG, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


FAST = _settings(150)

CARD_NAMES = ["Forest", "Mountain", "Island", "Grizzly Bears", "Hill Giant", "Giant Growth", "Shock",
              "Holy Strength", "Loxodon Warhammer", "Rushwood Dryad", "Craw Wurm", "Twincast",
              "Grizly Bears", "Sideboard", "Prodigal Pyromancer"]

# -- values a mutation may put anywhere ---------------------------------------------------------
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**25), max_value=10**25),
    st.integers(min_value=-3, max_value=5), st.floats(allow_nan=True), st.text(max_size=12),
    st.sampled_from([*CARD_NAMES, "precombat_main", "declare_blockers", "a", "GG", "+1/+1", ""]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(
                                ["card", "id", "tapped", "counters", "attached_to", "blocking",
                                 "attacking", "controller", "life", "hand", "in_play"])), inner,
                                max_size=4)),
    max_leaves=8,
)


# -- decks -------------------------------------------------------------------------------------
DECK = "# test deck\n20 Forest\n4 Grizzly Bears\n4 Giant Growth\n12 Mountain\nSideboard\n2 Shock\n"
DECK_LINES = st.one_of(
    st.sampled_from([*DECK.splitlines(), "Sideboard:", "4x Shock", "999999999999999999999 Forest",
                     "0 Forest", "-1 Forest", "4 Grizly Bears", "5 Shock", "\ufeff20 Forest",
                     "4 Twincast", "251 Forest"]),
    st.builds(lambda n, c: f"{n} {c}", st.integers(min_value=-5, max_value=300),
              st.sampled_from(CARD_NAMES)),
    st.text(max_size=30),
)


def _parse(text: str | bytes, min_size: int = 40) -> None:
    """Parse a deck: either a valid deck or a one-line project error, nothing else."""
    try:
        deck = Deck.from_text(text, min_size=min_size)
    except MtgError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(deck) >= min_size
    assert all(0 < c <= 250 for c, _ in deck.entries + deck.sideboard)
    assert sum(c for c, _ in deck.entries + deck.sideboard) <= 1000


@FAST
@given(st.lists(DECK_LINES, max_size=12), st.integers(min_value=0, max_value=60))
def test_deck_text_raises_only_project_errors(lines: list[str], min_size: int) -> None:
    _parse("\n".join(lines), min_size)


@FAST
@given(st.binary(max_size=200), st.sampled_from([b"", b"\xef\xbb\xbf", DECK.encode()]))
def test_deck_bytes_raise_only_project_errors(data: bytes, prefix: bytes) -> None:
    _parse(prefix + data, min_size=0)


@FAST
@given(st.data())
def test_mutated_deck_text_raises_only_project_errors(data: st.DataObject) -> None:
    text = DECK
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = data.draw(st.text(min_size=1, max_size=4))
        if op == "insert":
            text = text[:i] + chunk + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + len(chunk):]
        else:
            text = text[:i] + chunk + text[i + len(chunk):]
    _parse(text)


def test_deck_file_encodings(tmp_path) -> None:
    """Latin-1 and binary deck files raise DeckError naming the file; a UTF-8 BOM is accepted."""
    from mtg_env.engine.errors import DeckError

    latin = tmp_path / "latin.txt"
    latin.write_bytes("36 Forest\n4 Séance\n".encode("latin-1"))
    with pytest.raises(DeckError, match=r"latin\.txt.* is not UTF-8 text"):
        Deck.from_file(latin)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(DeckError, match=r"binary\.txt.* is not UTF-8 text"):
        Deck.from_file(binary)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf36 Forest\r\n4 Grizzly Bears\r\n")
    assert Deck.from_file(bom).entries == [(36, "Forest"), (4, "Grizzly Bears")]


# -- positions ---------------------------------------------------------------------------------
BASE_POSITIONS: list[dict[str, Any]] = [
    {"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Giant Growth", "Forest"], "in_play": ["Forest", "Rushwood Dryad"], "library": ["Forest"],
         "mana_pool": "G", "life": 12},
        {"in_play": ["Mountain", {"card": "Grizzly Bears", "tapped": True}], "library": ["Mountain"],
         "graveyard": ["Shock"]}]},
    {"turn": 4, "step": "declare_blockers", "active_player": 1, "seed": 7, "players": [
        {"in_play": [{"card": "Grizzly Bears", "id": "b", "blocking": ["g"]},
                     {"card": "Holy Strength", "attached_to": "b"}], "library": ["Forest"]},
        {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True, "damage": 1,
                      "counters": {"+1/+1": 1}}, {"card": "Loxodon Warhammer", "attached_to": "g"}],
         "library": ["Mountain"], "removed": ["Forest"]}]},
]


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside nested dicts and lists (the root included)."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: st.DataObject, pos: Any) -> Any:
    paths = _paths(pos)
    path = data.draw(st.sampled_from(paths))
    op = data.draw(st.sampled_from(["set", "set", "delete", "add"]))
    value = data.draw(VALUES)
    if not path:
        return value if op == "set" else pos
    parent = pos
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if op == "set":
        parent[key] = value
    elif op == "delete":
        del parent[key]
    elif isinstance(parent, dict):
        parent[data.draw(st.text(max_size=8))] = value
    else:
        parent.insert(key, value)
    return pos


@_settings(200)
@given(st.data())
def test_mutated_positions_raise_only_position_errors(data: st.DataObject) -> None:
    pos = copy.deepcopy(data.draw(st.sampled_from(BASE_POSITIONS)))
    for _ in range(data.draw(st.integers(1, 3))):
        pos = _mutate(data, pos)
    before = copy.deepcopy(pos)
    try:
        g = Game.from_position(pos)
    except MtgError as exc:
        assert str(exc)
    else:
        assert g.is_over or g.decision is not None
    assert pos == before or pos != pos, "the position dict must not be modified"  # NaN != NaN


@pytest.mark.parametrize(("players", "message"), [
    ([{"in_play": True}, {}], r"players\[0\]\.in_play: must be a list"),
    ([{"in_play": "Forest"}, {}], r"players\[0\]\.in_play: must be a list .*got 'Forest'"),
    ([{"library": "Forest"}, {}], r"players\[0\]\.library: must be a list"),
    ([{}, {"graveyard": 3}], r"players\[1\]\.graveyard: must be a list"),
    ([{"mana_pool": ["G"]}, {}], r"players\[0\]\.mana_pool: expected a string"),
    ([{"mana_pool": 5}, {}], r"players\[0\]\.mana_pool: expected a string"),
    ([{"lands_played": True}, {}], r"players\[0\]\.lands_played: expected an integer"),
    ([{"life": 10**30}, {}], r"players\[0\]\.life: must be at most"),
    ([{"in_play": [{"card": "Grizzly Bears", "tapped": "yes"}]}, {}], r"in_play\[0\]\.tapped: expected true or false"),
    ([{"in_play": [{"card": "Grizzly Bears", "summoning_sick": 1}]}, {}],
     r"in_play\[0\]\.summoning_sick: expected true or false"),
    ([{"in_play": [{"card": "Grizzly Bears", "counters": {"+1/+1": True}}]}, {}], r"in_play\[0\]\.counters"),
    ([{"in_play": [{"card": "Grizzly Bears", "counters": [1]}]}, {}], r"in_play\[0\]\.counters"),
    ([{"in_play": [{"card": "Grizzly Bears", "id": [1]}]}, {}], r"in_play\[0\]\.id: expected an id"),
    ([{"in_play": [{"card": "Grizzly Bears", "attacking": "yes"}]}, {}], r"in_play\[0\]\.attacking"),
    ([{"in_play": [{"card": 7}]}, {}], r"in_play\[0\]: expected a card name, got 7"),
    ([{"in_play": [["Forest"]]}, {}], r"in_play\[0\]: must be a card name or a mapping"),
])
def test_position_field_types(players: list, message: str) -> None:
    """Every position field is type-checked: the error names the field, a string is never read
    as a list of card names, and the input is left as it was."""
    from mtg_env.engine.errors import PositionError

    pos = {"players": players}
    before = copy.deepcopy(pos)
    with pytest.raises(PositionError, match=message):
        Game.from_position(pos)
    assert pos == before


@pytest.mark.parametrize(("data", "message"), [
    ("players: [{hand: [Séance]}, {}]\n".encode("latin-1"), r"position file '.*p\.yaml' is not UTF-8 text"),
    (b"\xef\xbb\xbfplayers: [{life: 7}, {}]\n", None),
    (b"players: [\n", r"p\.yaml: not valid YAML"),
    (b"[" * 1000, r"p\.yaml: not valid YAML"),
])
def test_position_files(tmp_path, data: bytes, message: str | None) -> None:
    """Position files: UTF-8 with or without a byte-order mark; anything else is a PositionError."""
    from mtg_env.engine.errors import PositionError

    path = tmp_path / "p.yaml"
    path.write_bytes(data)
    if message is None:
        assert Game.load_position(path).players[0].life == 7
        return
    with pytest.raises(PositionError, match=message):
        Game.load_position(path)


@pytest.mark.parametrize(("extra", "message"), [
    ({"active_player": True}, "active_player must be 0 or 1"),
    ({"step": ["precombat_main"]}, "is not a step with priority"),
    ({"turn": "3"}, "turn: expected an integer"),
    ({"seed": -1}, "seed: must be at least 0"),
    ({1: 2}, "unknown top-level key"),
])
def test_position_top_level_types(extra: dict, message: str) -> None:
    from mtg_env.engine.errors import PositionError

    with pytest.raises(PositionError, match=message):
        Game.from_position({"players": [{}, {}], **extra})


# -- CLI options -------------------------------------------------------------------------------
OPTION_VALUES = st.one_of(st.sampled_from(["0", "-3", "1", "2", "", ",", "random,", ",heuristic",
                                           "random,heuristic,mcts", "nope", "1e9", "abc", "-n",
                                           "/nonexistent/x.json", "starter_green", "x.txt"]),
                          st.text(max_size=10))


@_settings(120)
@given(st.sampled_from(["matchup", "matrix", "tournament", "play"]),
       st.lists(st.tuples(st.sampled_from(["--games", "--max-turns", "--agent", "--agents", "--seed",
                                           "--workers", "--backend", "--decks", "--json", "--csv",
                                           "--out", "--resamples", "--config"]), OPTION_VALUES),
                min_size=1, max_size=3))
def test_cli_bad_options_exit_2_with_one_line(command: str, options: list[tuple[str, str]]) -> None:
    """Mutated command lines never run a game with a bad option: a bad option is a one-line
    ``error:`` (exit 2) or typer's usage error (exit 2), never a traceback. Valid combinations are
    not run (they would play games); only the validation is exercised."""
    from typer.testing import CliRunner

    from mtg_env import cli

    args = [command]
    if command in ("matchup", "play"):
        args += ["starter_green", "starter_red"]
    for opt, val in options:
        args += [opt, val]
    ran: list[Any] = []

    def no_games(*a: Any, **k: Any) -> None:
        ran.append(a)
        raise _Ran

    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp)  # output folders the options name are created here, not in the repo
        mp.setattr(cli, "_before_games", no_games)
        res = CliRunner().invoke(cli.app, args)
    hypothesis.event("options accepted" if ran else "rejected")
    if ran:
        return  # every option was valid: the games would start here
    assert res.exit_code == 2, (args, res.output, res.exception)
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit), res.exception
    errors = [line for line in res.output.splitlines() if line.startswith("error: ")]
    # Our own checks print one line; typer's parser (a non-integer --games) prints its usage.
    assert len(errors) == 1 or ("Usage:" in res.output and not errors), res.output


class _Ran(Exception):
    """Raised in place of playing games: the options were all accepted."""
