"""Engine tests of the choice mechanisms in card data: "as [this] comes into play, choose a
color" (2012 614.12: the choice is made before the permanent comes into play; mtg_env/engine/
enter_choices.py) and an optional draw replacement asked draw by draw (2012 120.2, 616.1;
mtg_env/engine/replacement.py). The state stays plain data while each decision waits: a copy
and a JSON round trip continue the same way."""

from __future__ import annotations

from mtg_env import DecisionKind, Game
from mtg_env.engine.frames_effects import DrawsFrame, EnterChoiceFrame
from mtg_env.testing import Scenario

K = DecisionKind


def _same_future(g: Game, actions: list[str]) -> None:
    """``g``, its copy and its JSON round trip give the same game after ``actions``."""
    games = [g, g.copy(), Game.from_json(g.to_json())]
    for x in games:
        for a in actions:
            x.apply(a)
    logs = [x.log[-6:] for x in games]
    assert logs[0] == logs[1] == logs[2]
    states = [Game.from_json(x.to_json()).to_json() for x in games]
    assert states[0] == states[1] == states[2]


def test_enter_choice_waits_as_plain_data() -> None:
    """2012 614.12: while the color is being chosen the spell is still on the stack; the waiting
    frame survives copy() and to_json()."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"], "in_play": ["Plains"] * 4}, {}]})
    s.do("play Voice of All")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_COLOR
    assert isinstance(s.game.frames[-1], EnterChoiceFrame)
    _same_future(s.game, ["choose blue"])


def test_enter_choice_of_a_permanent_put_into_play_sends_its_event_after() -> None:
    """A permanent put into play by an effect: its comes-into-play event is sent once the choice
    is made, so nothing sees it without its choice; the frame is plain data."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Beacon of Unrest"], "in_play": ["Swamp"] * 5, "graveyard": ["Voice of All"]},
        {}]})
    s.do("play Beacon of Unrest", "target Voice of All")
    s.resolve()
    f = s.game.frames[-1]
    assert isinstance(f, EnterChoiceFrame) and f.perm_id is not None and f.etb == {}
    _same_future(s.game, ["choose red"])
    assert s.perm("Voice of All").chosen == {"color": "R"}


def test_optional_draw_replacement_waits_as_plain_data() -> None:
    """The draws frame holds the draws still to make and the current draw event (2012 120.2:
    one at a time); copies and JSON continue the same way."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"in_play": ["Abundance"], "library": ["Forest", "Island", "Grizzly Bears"]}, {}]})
    s.pass_priority(2)
    assert isinstance(s.game.frames[-1], DrawsFrame)
    _same_future(s.game, ["Abundance: reveal until a nonland card", "put on the bottom Island"])


def test_draw_step_triggers_come_after_a_replaced_draw() -> None:
    """2007 CR 304.1, 410.5: the draw-step triggers are sent after the turn's draw, also when an
    optional replacement made the draw wait for a decision (the event waits in the frame):
    Howling Mine's trigger appears only once the Abundance choice is made."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"in_play": ["Abundance", "Howling Mine"],
         "library": ["Forest", "Island", "Grizzly Bears", "Swamp"]}, {}]})
    s.pass_priority(2)
    assert s.game.decision.kind is K.MODE
    assert not s.game.pending and not s.game.stack
    s.do("draw the card")
    assert [c.name for c in s.game.players[0].hand] == ["Forest"]
    assert s.game.pending or any(i.label == "Howling Mine" for i in s.game.stack)
