"""Each bad input gets its one-line error: deck texts and files, configs and
command-line options (checked before any game runs). Positions: ``tests/test_fuzz_inputs.py``."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from mtg_env import Deck
from mtg_env.cli import app
from mtg_env.engine.errors import DeckError, UnimplementedCardError, UnknownCardError
from mtg_env.engine.frames import AssignFrame, PayFrame
from mtg_env.engine.frames_choice import ChooseFrame
from mtg_env.engine.frames_effects import DrawsFrame, EnterChoiceFrame, OrderReplFrame
from mtg_env.engine.turn_structure import add_combat_and_main_phase, add_delayed_trigger, add_extra_turns

runner = CliRunner()


# -- decks -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "error", "message"), [
    ("999999999999999999999 Forest", DeckError, r"line 1: 999999999999999999999 copies is too many \(at most 250"),
    ("36 Forest\n" + "0" * 5000 + "1 Forest", DeckError, r"deck has 37 cards"),
    ("251 Forest", DeckError, r"line 1: 251 copies is too many"),
    ("250 Forest\n" * 4 + "1 Forest", DeckError, r"line 5: more than 1000 cards in all"),
    ("36 Forest\n1 " + "x" * 300, DeckError, r"line 2: card name too long \(300 characters\)"),
    ("40 Forest\nSideboard\n4 Grizly Bears", UnknownCardError, r"^deck line 3: unknown card 'Grizly Bears': not a Tenth Edition card; did you mean 'Grizzly Bears'\?$"),
    ("40 Forest\nSideboard\n1 Mind Bend", UnimplementedCardError, r"not implemented yet: Mind Bend"),
    ("40 Forest\nSideboard\nfour Shock", DeckError, r"line 3: expected 'N Card Name'"),
    ("37 Forest\n3 Shock\nSideboard\n2 Shock", DeckError, r"5 copies of Shock \(deck and sideboard\)"),
    (b"36 Forest\n4 S\xe9ance", DeckError, r"deck is not UTF-8 text \(byte 13\)"),
    (36, DeckError, r"a deck list must be text, got int"),
])
@pytest.mark.usefixtures("mind_bend_unimplemented")
def test_bad_deck_text(text, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as exc:
        Deck.from_text(text)
    assert "\n" not in str(exc.value)


def test_deck_text_with_a_byte_order_mark_is_read() -> None:
    assert Deck.from_text("\ufeff36 Forest\n4 Grizzly Bears").entries == [(36, "Forest"), (4, "Grizzly Bears")]
    assert len(Deck.from_text(b"\xef\xbb\xbf40 Forest")) == 40


def test_sideboard_is_canonical_and_checked() -> None:
    d = Deck.from_text("38 Forest\n2 Shock\nSideboard:\n2 shock\n")
    assert d.sideboard == [(2, "Shock")]


@pytest.mark.parametrize(("data", "message"), [
    ("36 Forest\n4 Séance\n".encode("latin-1"), r"deck file '.*d\.txt' is not UTF-8 text \(byte 13: b'\\xe9'\)"),
    (bytes(range(128, 256)), r"deck file '.*d\.txt' is not UTF-8 text \(byte 0"),
    (b"40 Forest\n" * 200_000, r"deck file '.*d\.txt' is too large"),
])
def test_bad_deck_files(tmp_path, data: bytes, message: str) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes(data)
    with pytest.raises(DeckError, match=message):
        Deck.from_file(path)
    res = runner.invoke(app, ["matchup", str(path), "starter_red", "-n", "2"])
    assert res.exit_code == 2 and _one_error_line(res.output).startswith("error: deck file")


def test_builtin_deck_names_are_checked() -> None:
    with pytest.raises(DeckError, match=r"no built-in deck '\.\./decks/starter_red'"):
        Deck.builtin("../decks/starter_red")
    with pytest.raises(DeckError, match="no built-in deck 3"):
        Deck.builtin(3)  # type: ignore[arg-type]


# -- CLI ---------------------------------------------------------------------------------------
def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is started (every check must come first)."""
    import mtg_env.sim.parallel as parallel

    def forbidden(*a, **k):
        raise AssertionError("a game ran before the options were checked")

    monkeypatch.setattr(parallel, "run_games", forbidden)
    monkeypatch.setattr("mtg_env.sim.matchup.run_games", forbidden)  # every sim run's play_games
    monkeypatch.setattr("mtg_env.cli.Game", None)  # `play` with random agents


@pytest.mark.parametrize(("args", "message"), [
    (["matchup", "starter_green", "starter_red", "--max-turns", "0"], "error: max_turns must be at least 1, got 0"),
    (["matchup", "starter_green", "starter_red", "--max-turns", "-3"], "error: max_turns must be at least 1, got -3"),
    (["matchup", "starter_green", "starter_red", "--agent", "random,"], "error: --agent: empty name in 'random,'"),
    (["matchup", "starter_green", "starter_red", "--agent", ",random"], "error: --agent: empty name"),
    (["matchup", "starter_green", "starter_red", "--games", "0"], "error: games must be at least 1, got 0"),
    (["matchup", "starter_green", "starter_red", "--workers", "0"], "error: workers must be a whole number"),
    (["matchup", "starter_green", "starter_red", "--json", "/nonexistent/x.json"],
     "error: --json: cannot write '/nonexistent/x.json': No such file or directory"),
    (["matchup", "starter_green", "starter_red", "--csv", "/nonexistent/x.csv"], "error: --csv: cannot write"),
    (["matrix", "--games", "0"], "error: games must be at least 1, got 0"),
    (["matrix", "--max-turns", "0"], "error: max_turns must be at least 1"),
    (["matrix", "--agent", "random,"], "error: agents: empty name in 'random,'"),
    (["matrix", "--agents", "random,heuristic"], "error: a matrix uses one agent for every deck"),
    (["matrix", "--decks", "starter_green,,starter_red"], "error: decks: empty name"),
    (["tournament", "--agents", "random,", "-n", "2"], "error: agents: empty name"),
    (["tournament", "--max-turns", "-1"], "error: max_turns must be at least 1"),
    (["tournament", "--resamples", "-1"], "error: resamples must be at least 0"),
    (["play", "starter_green", "starter_red", "--max-turns", "0"], "error: max_turns must be at least 1"),
    (["play", "starter_green", "starter_red", "--agent", "random,"], "error: --agent: empty name"),
    (["cards", "--color", "Q"], "error: unknown color 'Q'; choose from W, U, B, R, G"),
])
def test_bad_options_fail_before_any_game(no_games, args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (res.output, res.exception)
    assert _one_error_line(res.output).startswith(message)


def test_output_folder_that_is_a_file_fails_before_any_game(no_games, tmp_path) -> None:
    f = tmp_path / "file"
    f.write_text("")
    for cmd in ("matrix", "tournament"):
        res = runner.invoke(app, [cmd, "--out", str(f / "sub")])
        assert res.exit_code == 2
        assert _one_error_line(res.output).startswith("error: --out: cannot create the folder")
    (tmp_path / "out" / "matrix.csv").mkdir(parents=True)  # a folder where the CSV goes
    res = runner.invoke(app, ["matrix", "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and "error: --out: cannot write" in _one_error_line(res.output)


def test_json_output_checked_without_leaving_a_file(no_games, tmp_path, monkeypatch) -> None:
    """A writable --json path passes the check and no empty file is left behind."""
    import mtg_env.cli as cli

    class Started(Exception):
        pass

    def started() -> None:
        raise Started

    monkeypatch.setattr(cli, "_before_games", started)
    out = tmp_path / "m.json"
    res = runner.invoke(app, ["matchup", "starter_green", "starter_red", "--json", str(out)])
    assert isinstance(res.exception, Started) and not out.exists()


@pytest.mark.parametrize(("content", "message"), [
    ("games: 2\nagent: heuristic\n", "unknown key(s) agent (the key is 'agents')"),
    ("games: two\n", "games must be an integer, got 'two'"),
    ("games: true\n", "games must be an integer, got True"),
    ("mirrors: 1\n", "mirrors must be true or false, got 1"),
    ("agents: 3\n", "agents must be a string or a list, got 3"),
    ("agents: [random, 3]\n", "agents: expected a comma-separated string or a list of names"),
    ("decks: {a: 1}\n", "decks must be a string or a list"),
    ("out: [a]\n", "out must be a string"),
    ("max_turns: 0\n", "max_turns must be at least 1"),
    ("- games\n", "must be a mapping of option names to values"),
    ("games: [\n", "is not valid YAML: line 2, column 1: expected the node content, but found "
                   "'<stream end>' (while parsing a flow node)"),
])
def test_bad_matrix_config(no_games, tmp_path, content: str, message: str) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(content)
    res = runner.invoke(app, ["matrix", "--config", str(cfg)])
    assert res.exit_code == 2, res.output
    assert message in _one_error_line(res.output)


@pytest.mark.parametrize("data", ["games: 2\nagents: [rändom]\n".encode("latin-1"), bytes(range(256))])
def test_config_that_is_not_utf8(no_games, tmp_path, data: bytes) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(data)
    for cmd in ("matrix", "tournament"):
        res = runner.invoke(app, [cmd, "--config", str(cfg)])
        assert res.exit_code == 2
        assert re.match(r"error: config file '.*c\.yaml' is not UTF-8 text \(byte \d+\); save it as UTF-8",
                        _one_error_line(res.output))


def test_config_with_a_byte_order_mark_and_the_agents_key(tmp_path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(b"\xef\xbb\xbfgames: 2\nagents: [random]\ndecks: [starter_green, starter_red]\n"
                    + f"out: {tmp_path / 'o'}\n".encode())
    res = runner.invoke(app, ["matrix", "--config", str(cfg), "--workers", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "random agents, 2 games per pairing" in res.output
    assert re.search(r"\d+% \[\d+-\d+\]", res.output), "the table shows 95% Wilson intervals"
    tcfg = tmp_path / "t.yaml"
    tcfg.write_bytes(b"\xef\xbb\xbfagents: random, heuristic\nresamples: 5\n")
    res = runner.invoke(app, ["tournament", "--config", str(tcfg), "--decks", "starter_green,starter_red",
                              "-n", "2", "--workers", "1", "--out", str(tmp_path / "o"), "--no-progress"])
    assert res.exit_code == 0, res.output


# -- saved game states (Game.from_json) --------------------------------------------------------
SHOCK_ON_STACK = """
turn: 3
step: precombat_main
players:
  - hand: [Shock, Giant Growth]
    in_play: [Mountain, Forest, Grizzly Bears]
  - in_play: [Hill Giant]
"""


def _state_with_a_spell() -> str:
    """A JSON state with permanents, a hand and Shock on the stack targeting Hill Giant."""
    from mtg_env.testing import Scenario

    s = Scenario(SHOCK_ON_STACK)
    s.do("play Shock", "target Hill Giant")
    return s.game.to_json()


def _set(d: dict, path: tuple, value: object) -> None:
    for k in path[:-1]:
        d = d[k]
    if value is _DELETE:
        del d[path[-1]]
    else:
        d[path[-1]] = value


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "message"), [
    (("version",), 9, r"game state version 9 is not supported \(this engine reads version 10\)"),
    (("turn",), _DELETE, r"^turn: missing$"),
    (("turn",), "3", r"^turn: expected an integer, got '3'$"),
    (("step",), "main", r"^step: 'main' is not one of"),
    (("active",), 2, r"^active: 2 is out of range \[0, 1\]$"),
    (("extra",), 1, r"^'extra': unknown key of a game state$"),
    (("players", 0, "hand", 0), 77, r"^players\[0\]\.hand\[0\]: unknown card id 77$"),
    (("players", 0, "hand", 0), "Giant Growth", r"^players\[0\]\.hand\[0\]: unknown card id 'Giant Growth'$"),
    (("players", 1, "hand"), [2], r"^players\[1\]\.hand\[0\]: card 2 is owned by player 0$"),
    (("players", 0, "library"), [2], r"^players\[0\]\.library\[0\]: card 2 is also in players\[0\]\.hand\[0\]$"),
    (("players", 0, "hand"), [], r"^cards: card 2 is in no zone$"),
    (("players", 0, "life"), True, r"^players\[0\]\.life: expected an integer, got True$"),
    (("players", 0, "mana_pool"), [0, 0], r"^players\[0\]\.mana_pool: expected 6 to 6 items, got 2$"),
    (("perms", 0, "tapped"), "yes", r"^perms\[0\]\.tapped: expected true or false, got 'yes'$"),
    (("perms", 0, "attached_to"), 99, r"^perms\[0\]\.attached_to: unknown permanent id 99$"),
    (("perms", 1, "id"), 3, r"^perms\[1\]\.id: id 3 is used twice$"),
    (("perms", 0, "card"), 1, r"^stack\[0\]\.card: card 1 is also in perms\[0\]\.card$"),
    (("perms", 0, "counters"), {"+1/+1": "2"}, r"^perms\[0\]\.counters\.\+1/\+1: expected an integer"),
    (("stack", 0, "targets", 0), ["o", 999], r"^stack\[0\]\.targets\[0\]\[1\]: expected an object id below next_id 12, got 999$"),
    (("stack", 0, "targets", 0), ["q", 9], r"^stack\[0\]\.targets\[0\]\[1\]: unknown card id 9$"),
    (("stack", 0, "kind"), "sorcery", r"^stack\[0\]\.kind: 'sorcery' is not one of"),
    (("stack", 0, "card"), None, r"^stack\[0\]\.card: a spell needs its card$"),
    (("stack", 0, "ability_def"), {"$ability": ["Shock", "activated", 5]},
     r"^stack\[0\]\.ability_def: no such ability \['Shock', 'activated', 5\]$"),
    (("cards", 0, 1), "Shokc", r"^cards\[0\]\[1\]: unknown card 'Shokc': not a Tenth Edition card; did you mean 'Shock'\?$"),
    (("decision", "player"), 2, r"^decision\.player: 2 is out of range \[0, 1\]$"),
    (("decision", "options"), [], r"^decision\.options: expected 1 to .* items, got 0$"),
    (("decision", "options", 1, 2), [99], r"^decision\.options\[1\]\[2\]\[0\]: unknown card id 99$"),
    (("decision", "options", 2, 2, 0), 3.5, r"^decision\.options\[2\]\[2\]\[0\]: unknown permanent id 3\.5$"),
    (("decision", "kind"), "target", r"^decision\.kind: a target decision does not answer priority$"),
    (("decision",), None, r"^decision: no decision pending in an unfinished game$"),
    (("frames",), [{"k": "fly"}], r"^frames\[0\]\.k: 'fly' is not a known procedure$"),
    (("frames",), [{"k": "cast", "pl": 0, "sid": 5, "st": 0}], r"^frames\[0\]\.sid: unknown stack object id 5$"),
    (("frames",), [{"k": "resolve", "sid": 11, "i": 0, "st": -1}], r"^frames\[0\]\.st: -1 is not one of"),
    (("effects",), [{"k": "pt", "pid": 9, "p": "3", "t": 3, "ts": 6, "until": "eot"}],
     r"^effects\[0\]\.p: expected an integer, got '3'$"),
    (("effects",), [{"k": "blink", "pid": 9}], r"^effects\[0\]\.k: 'blink' is not one of"),
    (("pending",), [{"ctrl": 5}], r"^pending\[0\]\.ctrl: 5 is out of range \[0, 1\]$"),
    (("rng",), -1, r"^rng: -1 is out of range"),
    (("next_id",), 5, r"^cards\[\d+\]\[0\]: expected an object id below next_id 5, got \d+$"),
])
def test_bad_game_states(path: tuple, value: object, message: str) -> None:
    """Every field of a saved state is checked at load against the schema declared with the
    game's fields: the error names the path on one line, and no game is made."""
    import json

    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    d = json.loads(_state_with_a_spell())
    _set(d, path, value)
    text = json.dumps(d)
    with pytest.raises(StateError, match=message) as info:
        Game.from_json(text)
    assert "\n" not in str(info.value)


def _state_with_turn_state() -> str:
    """The Shock state with the turn state main added: an added combat and main phase, extra
    turns, a delayed trigger, turn history, a redirection and a draw replacement."""
    from mtg_env.engine.replacement_effects import add_draw_replacement, add_redirect
    from mtg_env.testing import Scenario

    s = Scenario(SHOCK_ON_STACK)
    s.do("play Shock", "target Hill Giant")
    g = s.game
    bears, giant = s.perm("Grizzly Bears"), s.perm("Hill Giant")
    add_combat_and_main_phase(g)
    add_extra_turns(g, 1, 2)
    add_delayed_trigger(g, "end_of_combat", 0, bears.id, "Test", "", "you gain 3 life",
                          [{"op": "gain_life", "amount": 3}])
    g.attacked_this_turn = (bears.id,)
    g.damaged_this_turn = [[bears.id, giant.id]]
    add_redirect(g, 0, ("o", bears.id), "redirect", combat_only=True, unblocked_only=True)
    add_draw_replacement(g, 1, 0, "steal")
    return g.to_json()


def _state_paying() -> str:
    """Hidden Horror's trigger asking its controller to discard a creature card (a pay frame)."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Hidden Horror", "Grizzly Bears"], "in_play": ["Swamp"] * 3}, {}]})
    s.do("play Hidden Horror")
    s.resolve()
    s.resolve()
    assert isinstance(s.game.frames[-1], PayFrame)
    return s.game.to_json()


def _state_ordering_replacements() -> str:
    """Shock's 2 damage to player 0, who orders a prevention shield and a redirection."""
    from mtg_env.engine.replacement_effects import add_prevention_shield, add_redirect
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Hill Giant"]}, {"hand": ["Shock"], "in_play": ["Mountain"]}]})
    add_prevention_shield(s.game, ("p", 0), 2, "shield")
    add_redirect(s.game, 0, ("o", s.perm("Hill Giant").id), "redirect")
    s.do("play Shock", "target player 0")
    s.resolve()
    assert isinstance(s.game.frames[-1], OrderReplFrame)
    return s.game.to_json()


def _state_animated_pool() -> str:
    """Spawning Pool animated: its effect grants "{B}: Regenerate this creature"."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Swamp", "Swamp", "Swamp", "Mountain", "Spawning Pool"]}, {}]})
    s.do("activate Spawning Pool")
    s.resolve()
    assert s.game.effects[-1].abilities
    return s.game.to_json()


_STATES = {"turn": _state_with_turn_state, "pay": _state_paying,
           "order": _state_ordering_replacements, "pool": _state_animated_pool}


@pytest.mark.parametrize("which", sorted(_STATES))
def test_states_with_the_turn_queue_payments_and_replacements_round_trip(which: str) -> None:
    """States holding every piece of state main added load (none is refused) and store back
    identically."""
    from mtg_env import Game

    text = _STATES[which]()
    assert Game.from_json(text).to_json() == text


@pytest.mark.parametrize(("which", "path", "value", "message"), [
    ("turn", ("step_queue",), ["cleanup", "upkeep"],
     r"^step_queue: \['cleanup', 'upkeep'\] can't follow the precombat_main step$"),
    ("turn", ("step_queue",), [], r"^step_queue: \[\] can't follow the precombat_main step$"),
    ("turn", ("step_queue", 0), "combat", r"^step_queue\[0\]: 'combat' is not one of"),
    ("turn", ("extra_turns",), [1, 2], r"^extra_turns\[1\]: 2 is out of range \[0, 1\]$"),
    ("turn", ("normal_turn",), "0", r"^normal_turn: expected an integer, got '0'$"),
    ("turn", ("delayed", 0, "at"), "upkeep", r"^delayed\[0\]\.at: 'upkeep' is not one of"),
    ("turn", ("delayed", 0, "effects", 0, "op"), "gain_lief",
     r"^delayed\[0\]\.effects\[0\]: unknown effect op 'gain_lief'; did you mean 'gain_life'\?"),
    ("turn", ("delayed", 0, "effects", 0), {"op": "gain_life", "amont": 3},
     r"^delayed\[0\]\.effects\[0\]: effect 'gain_life' has unknown key 'amont'; did you mean 'amount'\?"),
    ("turn", ("delayed", 0, "ctrl"), _DELETE, r"^delayed\[0\]: missing key 'ctrl'$"),
    ("turn", ("attacked_this_turn",), [999], r"^attacked_this_turn\[0\]: expected an object id below"),
    ("turn", ("died_this_turn",), [99], r"^died_this_turn\[0\]: unknown card id 99$"),
    ("turn", ("damaged_this_turn", 0), [3], r"^damaged_this_turn\[0\]: expected a list of 2 values"),
    ("turn", ("replacements", 0, "to"), ["h", 2],
     r"^replacements\[0\]\.to: expected a player or permanent"),
    ("turn", ("replacements", 0, "unblocked_only"), "yes",
     r"^replacements\[0\]\.unblocked_only: expected true or false, got 'yes'$"),
    ("turn", ("replacements", 1, "to"), 2, r"^replacements\[1\]\.to: 2 is out of range \[0, 1\]$"),
    ("turn", ("replacements", 1, "k"), "draw_twice", r"^replacements\[1\]\.k: 'draw_twice' is not one of"),
    ("turn", ("stack", 0, "data", "from_hand"), 1,
     r"^stack\[0\]\.data\.from_hand: expected true or false, got 1$"),
    ("pay", ("frames", -1, "mode"), "must", r"^frames\[\d\]\.mode: 'must' is not one of"),
    ("pay", ("frames", -1, "ei"), 5, r"^frames\[\d\]: a payment must sit on the resolution of its effect$"),
    ("pay", ("decision", "kind"), "choose_cards", r"^decision\.kind: a choose_cards decision does not answer the pay"),
    ("order", ("frames", -1, "ev", "combat"), "burn", r"^frames\[\d\]\.ev\.combat: expected true or false"),
    ("order", ("frames", -1, "ev", "target"), ["l", 1], r"^frames\[\d\]\.ev\.target: expected a player or permanent"),
    ("order", ("frames", -1, "ev", "amount"), _DELETE, r"^frames\[\d\]\.ev: missing key 'amount'$"),
    ("pool", ("effects", -1, "abilities", 0), ["Spawning Pool", "activated", 1, "effects", 0, 7],
     r"^effects\[\d\]\.abilities\[0\]: no such ability"),
    ("pool", ("effects", -1, "add"), ["regenerate"], r"^effects\[\d\]\.add\[0\]: 'regenerate' is not one of"),
    ("pool", ("effects", -1, "while"), "equipped", r"^effects\[\d\]\.while: 'equipped' is not one of"),
])
def test_bad_turn_queue_payment_and_replacement_states(which: str, path: tuple, value: object,
                                                       message: str) -> None:
    """The state main added is checked at load like the rest: the turn queue (its steps in an
    order a turn can have), extra turns, delayed triggers (their effects compile as they will
    when they run), turn history, redirection and draw replacements, a payment on resolution,
    a replacement event waiting for its order, an animation's granted abilities."""
    import json

    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    d = json.loads(_STATES[which]())
    _set(d, path, value)
    with pytest.raises(StateError, match=message) as info:
        Game.from_json(json.dumps(d))
    assert "\n" not in str(info.value)


def test_saves_from_before_the_turn_queue_load_with_its_defaults() -> None:
    """A version-3 state saved before the turn queue, extra turns, delayed triggers and the turn
    history existed loads with their values for a normal turn (the rest of this turn's steps)."""
    import json

    from mtg_env import Game

    d = json.loads(_state_with_a_spell())
    for k in ("step_queue", "extra_turns", "normal_turn", "delayed", "attacked_this_turn",
              "died_this_turn", "damaged_this_turn"):
        del d[k]
    g = Game.from_json(json.dumps(d))
    assert tuple(g.step_queue)[:2] == ("beginning_of_combat", "declare_attackers")
    assert not g.extra_turns and g.normal_turn is None and not g.delayed


def test_valid_states_round_trip() -> None:
    from mtg_env import Game

    text = _state_with_a_spell()
    assert Game.from_json(text).to_json() == text


def _declared_slots(class_name: str) -> tuple[str, ...]:
    """The ``__slots__`` a class of ``engine/model.py`` declares, read from the source (a class
    the compiled engine makes native has no ``__slots__`` attribute: its fields are C struct
    fields)."""
    import ast
    from pathlib import Path

    import mtg_env.engine

    source = Path(mtg_env.engine.__file__).with_name("model.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if (isinstance(item, ast.Assign)
                        and getattr(item.targets[0], "id", "") == "__slots__"):
                    return tuple(ast.literal_eval(item.value))
    raise AssertionError(f"engine/model.py declares no __slots__ for {class_name}")


def test_every_stored_field_has_a_schema() -> None:
    """A field added to the game state (engine/state.py) must declare the checker of its JSON form,
    and every attribute of a player, permanent and stack object is either stored with a checker or
    recomputed on load (a characteristic the layer system derives)."""
    from mtg_env.engine import loaded_state_schema
    from mtg_env.engine.model import Permanent, Player, StackItem
    from mtg_env.engine.state import FIELDS

    missing = [f.name for f in FIELDS if f.json != "derived" and f.check is None]
    assert not missing, f"fields without a schema (Field.check) in engine/state.py: {missing}"
    recomputed = {"activated", "base", "colors", "keywords", "name", "owner", "power", "static",
                  "subtypes", "supertypes", "toughness", "triggered", "types"}
    covered = {
        Player: set(loaded_state_schema.PLAYER_ATTRS) | set(loaded_state_schema.PLAYER_ZONES) | {"index"},
        Permanent: set(loaded_state_schema.PERM_ATTRS) | {"card", "used_this_turn"} | recomputed,
        StackItem: set(loaded_state_schema.STACK_ATTRS) | {"card", "ability_def"},
    }
    for cls, names in covered.items():
        uncovered = set(_declared_slots(cls.__name__)) - names
        assert not uncovered, f"{cls.__name__} attributes not in the stored state's schema: {uncovered}"


# -- Game.apply: an option of the pending decision, as an Action or its text --------------------
def _two_games():
    from mtg_env import Game

    return (Game.new(["starter_green", "starter_red"], seed=3),
            Game.new(["starter_green", "starter_red"], seed=3))


def test_equal_action_of_another_game_is_accepted() -> None:
    """An Action equal to an option (same verb, text and arguments) is that option, wherever it
    was made: an identical game's option, or one kept across a JSON round trip."""
    from mtg_env import Game

    a, b = _two_games()
    b.apply(a.decision.options[0])
    a.apply(a.decision.options[0])
    assert a.to_json() == b.to_json()
    h = Game.from_json(a.to_json())
    h.apply(a.decision.options[0])
    a.apply(a.decision.options[0])
    assert h.to_json() == a.to_json()


def test_hand_made_action_with_legal_text_is_accepted() -> None:
    from mtg_env.engine.actions import Action

    g, ref = _two_games()
    g.apply(Action("keep", "keep"))
    ref.apply("keep")
    assert g.to_json() == ref.to_json()


@pytest.mark.parametrize("action", [
    None, 3, b"keep", ["keep"], "kepp", "Keep",
])
def test_apply_refuses_what_is_not_an_option(action: object) -> None:
    """Anything but an option of the pending decision or its exact text is refused, and the
    state is unchanged."""
    from mtg_env.engine.errors import IllegalActionError

    g, _ = _two_games()
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(action)  # type: ignore[arg-type]
    assert g.to_json() == before


def test_action_with_legal_text_but_other_arguments_is_refused() -> None:
    from mtg_env.engine.actions import Action
    from mtg_env.engine.errors import IllegalActionError

    g, _ = _two_games()
    before = g.to_json()
    with pytest.raises(IllegalActionError, match=r"^'keep' is not a legal option"):
        g.apply(Action("keep", "keep", (1,)))
    with pytest.raises(IllegalActionError, match=r"^'keep' is not a legal option"):
        g.apply(Action("pass", "keep"))
    assert g.to_json() == before


def test_finished_game_refuses_every_action() -> None:
    from mtg_env.engine.errors import IllegalActionError

    g, _ = _two_games()
    g.concede(0)
    with pytest.raises(IllegalActionError, match=r"^the game is over"):
        g.apply("keep")


@pytest.mark.parametrize(("text", "message"), [
    ('{"x": 1' + "0" * 5000 + "}", r"^not a JSON game state: Exceeds the limit"),
    ("[" * 100000, r"^not a JSON game state: maximum recursion depth"),
    (None, r"^not a JSON game state: the JSON object must be str"),
    ("[1]", r"^not an mtg_env game state"),
    ('{"format": "mtg_env.game", "version": 10}', r"^players: missing$"),
])
def test_bad_game_state_texts(text: object, message: str) -> None:
    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    with pytest.raises(StateError, match=message) as info:
        Game.from_json(text)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_priority_options_are_checked_against_the_position() -> None:
    """Options name abilities by index; a priority decision must offer what the position does."""
    import json

    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    d = json.loads(_state_with_a_spell())
    opts = d["decision"]["options"]
    opts[2][2][1] = 3  # "tap Forest for G" naming a mana ability the Forest doesn't have
    with pytest.raises(StateError, match=r"^decision\.options: not the options of this position "
                                         r"\('tap Forest for G' is not legal\)$"):
        Game.from_json(json.dumps(d))
    d = json.loads(_state_with_a_spell())
    d["decision"]["options"] = d["decision"]["options"][:1]
    with pytest.raises(StateError, match=r"^decision\.options: not the options of this position$"):
        Game.from_json(json.dumps(d))
    d = json.loads(_state_with_a_spell())
    d["decision"]["player"] = 1
    with pytest.raises(StateError, match=r"^decision\.player: 1 does not have priority \(prio is 0\)$"):
        Game.from_json(json.dumps(d))


# -- the state of "as it comes into play" choices, Story Circle, Abundance and Rhox ---------------
def _state_voice_choosing() -> str:
    """A second Voice of All resolving, its color asked (an enter_choice frame on its resolution);
    the first is in play with red chosen."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"],
         "in_play": [{"card": "Voice of All", "chosen": {"color": "R"}}, *["Plains"] * 4]}, {}]})
    s.do("play Voice of All")
    s.resolve()
    assert isinstance(s.game.frames[-1], EnterChoiceFrame)
    return s.game.to_json()


def _state_returned_voice_choosing() -> str:
    """Voice of All returned by Beacon of Unrest: its color is asked before its comes-into-play
    event (an enter_choice frame naming the permanent)."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Beacon of Unrest"], "in_play": ["Swamp"] * 5, "graveyard": ["Voice of All"]},
        {"in_play": ["Mountain"] * 2}]})
    s.do("play Beacon of Unrest", "target Voice of All")
    s.resolve()
    f = s.game.frames[-1]
    assert isinstance(f, EnterChoiceFrame) and f.perm_id is not None
    return s.game.to_json()


def _state_story_circle(choose: bool) -> str:
    """Story Circle (red) activated in answer to Shock: its source choice pending, or (``choose``)
    made, leaving a once-only shield against the Shock spell."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"in_play": [{"card": "Story Circle", "chosen": {"color": "R"}}, "Plains", "Plains"]},
        {"hand": ["Shock"], "in_play": ["Mountain", "Mountain", "Prodigal Pyromancer"]}]})
    s.do("play Shock", "target player 0", "pass", "activate Story Circle")
    s.resolve()
    if choose:
        s.do("source spell Shock")
        assert s.game.replacements[0].once
    return s.game.to_json()


def _state_abundance_asking() -> str:
    """Abundance's controller asked in the draw step: dig instead of drawing? (a draws frame)."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"in_play": ["Abundance"], "library": ["Forest", "Island", "Grizzly Bears", "Swamp"]},
        {"library": ["Mountain"] * 3}]})
    s.pass_priority(2)
    assert isinstance(s.game.frames[-1], DrawsFrame)
    return s.game.to_json()


def _state_rhox_asking() -> str:
    """Blocked Rhox's controller asked whether it deals its damage as though unblocked."""
    from mtg_env.testing import Scenario

    lib = ["Forest"] * 5
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": lib, "in_play": [{"card": "Rhox", "id": "r", "attacking": True},
                                     "Forest", "Forest", "Forest"]},
        {"library": lib, "in_play": [{"card": "Grizzly Bears", "blocking": "r"}]}]})
    s.pass_priority(2)
    f = s.game.frames[-1]
    assert isinstance(f, AssignFrame) and f.current is not None and f.current.ask
    return s.game.to_json()


def _state_mythmaker_attaching() -> str:
    """Nomad Mythmaker's ability resolving: the host of the Aura card is being chosen."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Plains", "Nomad Mythmaker", "Grizzly Bears"]},
        {"graveyard": ["Holy Strength", "Hill Giant"], "in_play": ["Hill Giant"]}]})
    s.do("activate Nomad Mythmaker", "target Holy Strength")
    s.resolve()
    f = s.game.frames[-1]
    assert isinstance(f, ChooseFrame) and f.then is not None and f.then["op"] == "attach_card"
    return s.game.to_json()


_CHOICE_STATES = {"voice": _state_voice_choosing, "beacon": _state_returned_voice_choosing,
                  "circle": lambda: _state_story_circle(False),
                  "shield": lambda: _state_story_circle(True),
                  "abundance": _state_abundance_asking, "rhox": _state_rhox_asking,
                  "mythmaker": _state_mythmaker_attaching}


@pytest.mark.parametrize("which", sorted(_CHOICE_STATES))
def test_states_with_choices_made_as_permanents_come_into_play_round_trip(which: str) -> None:
    """States holding the choice state (a permanent's chosen color, the enter_choice and draws
    procedures, a once-only shield against a spell, Rhox's question, an Aura card's host
    choice) load and store back identically."""
    from mtg_env import Game

    text = _CHOICE_STATES[which]()
    assert Game.from_json(text).to_json() == text


@pytest.mark.parametrize(("which", "path", "value", "message"), [
    ("voice", ("perms", 0, "chosen"), {"color": "X"},
     r"^perms\[0\]\.chosen\.color: 'X' is not a legal color choice$"),
    ("voice", ("perms", 0, "chosen"), {"color": "WU"},
     r"^perms\[0\]\.chosen\.color: 'WU' is not a legal color choice$"),
    ("voice", ("perms", 0, "chosen"), {"creature_type": "Elf"},
     r"^perms\[0\]\.chosen: 'creature_type' is not a choice kind"),
    ("voice", ("perms", 0, "chosen"), {"name": "Shok"}, r"^perms\[0\]\.chosen\.name: 'Shok' is not a legal name"),
    ("voice", ("perms", 0, "chosen"), "R", r"^perms\[0\]\.chosen: expected an object of choices"),
    ("voice", ("stack", 0, "data", "chosen"), {"color": 1},
     r"^stack\[0\]\.data\.chosen\.color: 1 is not a legal color choice$"),
    ("voice", ("frames", -1, "kinds"), ["creature_type"],
     r"^frames\[1\]\.kinds\[0\]: 'creature_type' is not one of"),
    ("voice", ("frames", -1, "kinds"), [], r"^frames\[1\]\.kinds: expected 1 to"),
    ("voice", ("frames", -1, "chosen"), {"color": "R"},
     r"^frames\[1\]\.chosen: \['color'\] are not the first choices of \['color'\]$"),
    ("voice", ("frames", -1, "sid"), None, r"^frames\[1\]: the choices are made for a resolving spell"),
    ("voice", ("frames", -1, "sid"), 99, r"^frames\[1\]\.sid: unknown stack object id 99$"),
    ("voice", ("frames", -1, "label"), _DELETE, r"^frames\[1\]: missing key 'label'$"),
    ("voice", ("frames", 0, "st"), 5, r"^frames\[1\]: a spell's choices must sit on its resolution$"),
    ("voice", ("frames", 0, "st"), 7, r"^frames\[0\]\.st: 7 is not one of"),
    ("voice", ("decision", "options", 0, 2), ["Q"], r"^decision\.options\[0\]\[2\]\[0\]: 'Q' is not one of"),
    ("voice", ("decision", "kind"), "mode", r"^decision\.kind: a mode decision does not answer the enter_choice"),
    ("beacon", ("frames", -1, "etb"), None, r"^frames\[1\]\.etb: a permanent's comes-into-play event waits"),
    ("beacon", ("frames", -1, "etb"), {"cast_from_hand": 1},
     r"^frames\[1\]\.etb\.cast_from_hand: expected true or false, got 1$"),
    ("beacon", ("frames", -1, "pid"), 999, r"^frames\[1\]\.pid: unknown permanent id 999$"),
    ("circle", ("stack", 1, "data", "chosen"), {"color": "C"},
     r"^stack\[1\]\.data\.chosen\.color: 'C' is not a legal color choice$"),
    ("circle", ("frames", -1, "then", "label"), _DELETE, r"^frames\[1\]\.then: missing key 'label'$"),
    ("circle", ("frames", -1, "cands", 0), ["p", 1],
     r"^frames\[1\]\.cands\[0\]: a source is a permanent or a spell, not \['p', 1\]$"),
    ("shield", ("replacements", 0, "once"), 1, r"^replacements\[0\]\.once: expected true or false, got 1$"),
    ("shield", ("replacements", 0, "source_spell"), 10 ** 6,
     r"^replacements\[0\]\.source_spell: expected an object id below next_id"),
    ("shield", ("replacements", 0, "target"), ["s", 1],
     r"^replacements\[0\]\.target: expected a player or permanent"),
    ("abundance", ("frames", 0, "ev"), None, r"^frames\[0\]\.ev: a draw waiting for a choice needs its event$"),
    ("abundance", ("frames", 0, "ev"), {"pl": 2},
     r"^frames\[0\]\.ev\.pl: 2 is out of range \[0, 1\]$"),
    ("abundance", ("frames", 0, "after"), ["upkeep", {"player": 0}], r"^frames\[0\]\.after\[0\]: 'upkeep' is not one of"),
    ("abundance", ("frames", 0, "after"), ["draw_step", {"player": 2}],
     r"^frames\[0\]\.after\[1\]\.player: 2 is out of range \[0, 1\]$"),
    ("abundance", ("frames", 0, "n"), -1, r"^frames\[0\]\.n: -1 is out of range"),
    ("abundance", ("decision", "kind"), "yes_no", r"^decision\.kind: a yes_no decision does not answer the draws"),
    ("mythmaker", ("frames", -1, "then", "card"), 999, r"^frames\[1\]\.then\.card: unknown card id 999$"),
    ("mythmaker", ("frames", -1, "then", "card"), "Holy Strength",
     r"^frames\[1\]\.then\.card: unknown card id 'Holy Strength'$"),
    ("rhox", ("frames", 0, "cur", "ask"), "yes", r"^frames\[0\]\.cur\.ask: expected true or false, got 'yes'$"),
    ("rhox", ("frames", 0, "cur", "pid"), 999, r"^frames\[0\]\.cur\.pid: unknown permanent id 999$"),
    ("rhox", ("frames", 0, "cur", "extra"), 1, r"^frames\[0\]\.cur: unknown key 'extra'$"),
])
def test_bad_choice_states(which: str, path: tuple, value: object, message: str) -> None:
    """The choice state is checked at load: a permanent's or a spell's chosen color (a color), the
    enter_choice procedure (its choices in order, of a spell on its resolution or of a permanent
    whose comes-into-play event waits), a once-only shield against a spell, the draws procedure
    (its draw event, Abundance's dig event, the draw step's event after), Rhox's question."""
    import json

    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    d = json.loads(_CHOICE_STATES[which]())
    _set(d, path, value)
    with pytest.raises(StateError, match=message) as info:
        Game.from_json(json.dumps(d))
    assert "\n" not in str(info.value)


def test_saves_from_before_chosen_load_with_no_choice() -> None:
    """A permanent saved before "as it comes into play" choices were stored has made none."""
    import json

    from mtg_env import Game

    d = json.loads(_state_with_a_spell())
    for p in d["perms"]:
        del p["chosen"]
    assert all(p.chosen is None for p in Game.from_json(json.dumps(d)).perms.values())


# -- graveyard triggers, variable target counts, land plays from a graveyard ----------------------
def _state_squee_trigger() -> str:
    """Squee's upkeep trigger on the stack: an ability working from its owner's graveyard."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 4, "active_player": 1, "step": "end_of_turn",
                  "players": [{"library": ["Forest"] * 5, "graveyard": ["Squee, Goblin Nabob"]},
                              {"library": ["Forest"] * 5}]})
    s.advance_to("upkeep", active=0)
    assert s.game.stack[0].data.source_card
    return s.game.to_json()


def _state_tactics_targeting() -> str:
    """Guerrilla Tactics discarded by player 0's Mind Rot: its trigger (its discard event names the
    card and the effect's controller) is being targeted by its owner."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Rot"], "in_play": ["Swamp"] * 3}, {"hand": ["Guerrilla Tactics", "Forest"]}]})
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    s.do("discard Guerrilla Tactics", "discard Forest")
    assert s.game.stack[-1].data.event["cause"] == 0
    return s.game.to_json()


def _state_ritual_targeting() -> str:
    """Midnight Ritual with X = 2, its first target chosen (a variable number of targets)."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Midnight Ritual"], "in_play": ["Swamp"] * 5,
         "graveyard": ["Grizzly Bears", "Hill Giant", "Shock"]}, {}]})
    s.do("play Midnight Ritual", "X=2", "target Grizzly Bears")
    return s.game.to_json()


def _state_crucible() -> str:
    """Crucible of Worlds in play: a land in the graveyard can be played."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Crucible of Worlds"], "graveyard": ["Forest", "Shock"], "hand": ["Mountain"]}, {}]})
    assert "play Forest from graveyard" in s.options()
    return s.game.to_json()


_ZONE_STATES = {"squee": _state_squee_trigger, "tactics": _state_tactics_targeting,
                "ritual": _state_ritual_targeting, "crucible": _state_crucible}


@pytest.mark.parametrize("which", sorted(_ZONE_STATES))
def test_states_with_graveyard_abilities_and_variable_targets_round_trip(which: str) -> None:
    """States holding a triggered ability from a graveyard, a discard event's card and cause, a
    variable number of targets being chosen and a graveyard land play load and store back
    identically."""
    from mtg_env import Game

    text = _ZONE_STATES[which]()
    assert Game.from_json(text).to_json() == text


@pytest.mark.parametrize(("which", "path", "value", "message"), [
    ("squee", ("stack", 0, "data", "src_card"), 999, r"^stack\[0\]\.data\.src_card: unknown card id 999$"),
    ("squee", ("stack", 0, "data", "src_card"), 1, r"^stack\[0\]: card 1 \(Forest\) is not the source of its ability$"),
    ("squee", ("stack", 0, "controller"), 1,
     r"^stack\[0\]\.controller: an ability of card \d+ in a graveyard is controlled by its owner, player 0$"),
    ("squee", ("stack", 0, "ability_def"), {"$ability": ["Squee, Goblin Nabob", "zone_triggered", 1]},
     r"^stack\[0\]\.ability_def: no such ability"),
    ("squee", ("stack", 0, "ability_def"), {"$ability": ["Squee, Goblin Nabob", "colors", 0]},
     r"^stack\[0\]\.ability_def: \['Squee, Goblin Nabob', 'colors', 0\] names no ability list"),
    ("tactics", ("stack", -1, "data", "ev", "cause"), 2, r"^stack\[0\]\.data\.ev\.cause: 2 is out of range \[0, 1\]$"),
    ("tactics", ("stack", -1, "data", "ev", "card"), 999, r"^stack\[0\]\.data\.ev\.card: unknown card id 999$"),
    ("tactics", ("frames", -1, "tdone"), "yes", r"^frames\[1\]\.tdone: expected true or false, got 'yes'$"),
    ("ritual", ("stack", 0, "data", "removed_this_way"), -1,
     r"^stack\[0\]\.data\.removed_this_way: -1 is out of range"),
    ("ritual", ("stack", 0, "targets", 0), ["c", 999], r"^stack\[0\]\.targets\[0\]\[1\]: unknown card id 999$"),
    ("crucible", ("decision", "options", 2, 2), [999], r"^decision\.options\[2\]\[2\]\[0\]: unknown card id 999$"),
])
def test_bad_graveyard_ability_and_variable_target_states(which: str, path: tuple, value: object,
                                                          message: str) -> None:
    """The state of abilities working from a graveyard is checked at load: the card (``src_card``)
    is the ability's own and its owner controls it (2012 603.3a), the ability is named in one of
    its card's ability lists, a discard event's card and cause are a card and a player; a cast's
    "no more targets" flag and a resolution's count of removed cards are typed."""
    import json

    from mtg_env import Game
    from mtg_env.engine.errors import StateError

    d = json.loads(_ZONE_STATES[which]())
    _set(d, path, value)
    with pytest.raises(StateError, match=message) as info:
        Game.from_json(json.dumps(d))
    assert "\n" not in str(info.value)
