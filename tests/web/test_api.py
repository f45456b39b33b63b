"""The web table's API through Starlette's test client: what a seat is shown (never a hidden card),
the origin checks, refused commands (malformed, stale, another seat's) that change nothing, undo,
concede, stops, and whole games whose replay re-runs exactly."""

from __future__ import annotations

import json
import random
import time

import pytest

from tests.web.conftest import act, get_state, need_web_extra, next_decision

need_web_extra()

from mtg_env.engine.view import view_for  # noqa: E402
from mtg_env.sim.replay import Replay  # noqa: E402
from mtg_env.web.server import create_app, host_warning, is_loopback  # noqa: E402
from mtg_env.web.table import STOP_STEPS, WebTable, seat_board  # noqa: E402


def hidden_names(game, seat: int) -> set[str]:
    """The names of the cards ``seat`` can't see (the opponent's unknown hand cards and library)
    that nothing public or known to ``seat`` names either: none may reach its page."""
    view = view_for(game, seat)
    opp = game.players[1 - seat]
    known = {c.cid for c in view.players[1 - seat].known_hand}
    secret = {c.name for c in opp.hand if c.cid not in known} | {c.name for c in opp.library}
    seen = {c.name for P in view.players for c in (*(P.hand or ()), *P.known_hand, *P.graveyard, *P.removed)}
    seen |= {p.name for p in view.permanents} | {c.name for c in view.library}
    seen |= {s.card.name for s in view.stack if s.card is not None}
    log = "\n".join(game.log_for(seat))
    return {n for n in secret - seen if n not in log}


def play_out(client, table, seat: int, rng: random.Random, check=None) -> dict:
    """Answer every decision of ``seat`` with a random option until the game is over."""
    s = next_decision(client, table, seat)
    while not s["over"]:
        if check is not None:
            check(s)
        texts = [o["text"] for o in s["decision"]["options"]]
        r = act(client, table, seat, s, rng.choice(texts))
        assert r.status_code == 200, r.text
        s = next_decision(client, table, seat, s["decision"]["id"])
    return s


def test_a_seat_never_sees_a_hidden_card_name(make_table) -> None:
    table, client = make_table(("human", "random"), seed=4, max_turns=10)
    page = client.get("/").text
    checked = []

    def check(state: dict) -> None:
        # The game thread is waiting for this seat: the game holds still while it is read.
        hidden = hidden_names(table.game, 0)
        text = json.dumps(state, ensure_ascii=False)
        leaked = sorted(n for n in hidden if n in text or n in page)
        assert not leaked, f"hidden cards reach the page of seat 0: {leaked}"
        assert state["board"]["players"][1]["hand"] is None
        checked.append(len(hidden))

    play_out(client, table, 0, random.Random(1), check)
    assert len(checked) > 5 and max(checked) >= 5  # the check had hidden cards to look for
    # the seat's own draws are named in its log, the opponent's only counted
    log = get_state(client, table, 0)["log"]
    assert any(line.startswith("player 0 draws ") and line != "player 0 draws a card" for line in log)
    assert "player 1 draws a card" in log


def test_requests_from_another_origin_are_refused(make_table) -> None:
    table, client = make_table(("human", "random"), seed=1)
    s = next_decision(client, table, 0)
    params = {"seat": 0, "token": table.tokens[0]}
    evil = {"Origin": "http://evil.example"}
    r = client.get("/api/state", params=params, headers=evil)
    assert r.status_code == 403 and "another origin" in r.json()["error"]
    before = (table.version, table.game.decisions_made)
    cmd = {**params, "kind": "act", "decision": s["decision"]["id"], "action": s["decision"]["options"][0]["text"]}
    assert client.post("/api/command", json=cmd, headers=evil).status_code == 403
    assert client.post("/api/command", json=cmd, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.get("/", headers=evil).status_code == 403
    assert (table.version, table.game.decisions_made) == before
    assert client.get("/api/state", params=params, headers={"Origin": "http://testserver"}).status_code == 200
    # bound to a loopback address, only that address is a valid Host (no DNS rebinding)
    pinned = type(client)(create_app(table, allowed_hosts={"127.0.0.1:8123"}))
    assert pinned.get("/").status_code == 403
    assert pinned.get("/", headers={"Host": "127.0.0.1:8123"}).status_code == 200
    # and the same command from the page's own origin goes through
    assert client.post("/api/command", json=cmd, headers={"Origin": "http://testserver"}).status_code == 200


def test_malformed_stale_and_foreign_commands_change_nothing(make_table) -> None:
    table, client = make_table(("human", "heuristic"), seed=2)
    s = next_decision(client, table, 0)
    tok = table.tokens[0]
    did = s["decision"]["id"]
    first = s["decision"]["options"][0]["text"]
    bad = [
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        ({"seat": 0, "token": tok, "kind": "fly"}, 400, "unknown command"),
        ({"seat": 0, "token": "guess", "kind": "act", "decision": did, "action": first}, 403, "token"),
        ({"seat": 1, "token": tok, "kind": "act", "decision": did, "action": first}, 403, "not played in the browser"),
        ({"seat": "0", "token": tok, "kind": "act", "decision": did, "action": first}, 403, "not played"),
        ({"seat": 0, "token": tok, "kind": "act", "decision": did, "action": "cast Lightning Bolt"}, 409,
         "is not an option"),
        ({"seat": 0, "token": tok, "kind": "act", "decision": did, "action": ["pass"]}, 400, "option's text"),
        ({"seat": 0, "token": tok, "kind": "act", "decision": did - 1, "action": first}, 409, "already answered"),
        ({"seat": 0, "token": tok, "kind": "act", "action": first}, 409, "already answered"),
        ({"seat": 0, "token": tok, "kind": "pass_until", "decision": did, "until": "tomorrow"}, 400, "'until'"),
        ({"seat": 0, "token": tok, "kind": "stops", "mine": ["lunch"], "theirs": []}, 400, "'mine'"),
    ]
    before = (table.version, table.game.decisions_made, len(table.actions))
    for body, status, words in bad:
        kw = {"content": body} if isinstance(body, bytes) else {"json": body}
        r = client.post("/api/command", **kw)
        assert r.status_code == status and words in r.json()["error"], (body, r.status_code, r.text)
    r = client.get("/api/state", params={"seat": "zero", "token": tok})
    assert r.status_code == 400 and "integer" in r.json()["error"]
    assert (table.version, table.game.decisions_made, len(table.actions)) == before
    assert get_state(client, table, 0)["decision"]["id"] == did  # still waiting for that decision
    # a valid answer is taken; sending it again is stale
    assert act(client, table, 0, s, first).status_code == 200
    again = act(client, table, 0, s, first)
    assert again.status_code == 409 and "already answered" in again.json()["error"]
    s2 = next_decision(client, table, 0, did)
    assert s2["over"] or s2["decision"]["id"] != did
    assert table.actions[before[2]] == first


def test_undo_takes_a_land_back_and_concede_ends_the_game(make_table) -> None:
    table, client = make_table(("human", "random"), seed=3)
    s = next_decision(client, table, 0)
    while not any(o["verb"] == "play" and o["text"].startswith("play Forest") for o in s["decision"]["options"]):
        texts = [o["text"] for o in s["decision"]["options"]]
        act(client, table, 0, s, "keep" if "keep" in texts else "pass" if "pass" in texts else texts[0])
        s = next_decision(client, table, 0, s["decision"]["id"])
        assert not s["over"]
    land = next(o for o in s["decision"]["options"] if o["text"].startswith("play Forest"))
    assert land["about"] and land["about"][0].startswith("c:")  # the card in hand to click
    hand = s["board"]["players"][0]["hand"]
    act(client, table, 0, s, land["text"])
    after = next_decision(client, table, 0, s["decision"]["id"])
    assert len(after["board"]["players"][0]["hand"]) == len(hand) - 1
    r = client.post("/api/command", json={"seat": 0, "token": table.tokens[0], "kind": "undo",
                                          "decision": after["decision"]["id"]})
    assert r.status_code == 200, r.text
    back = next_decision(client, table, 0, after["decision"]["id"])
    assert back["notice"].startswith("undone"), back["notice"]
    assert back["board"]["players"][0]["hand"] == hand
    assert [o["text"] for o in back["decision"]["options"]] == [o["text"] for o in s["decision"]["options"]]
    # concede, at any time
    r = client.post("/api/command", json={"seat": 0, "token": table.tokens[0], "kind": "concede"})
    assert r.status_code == 200
    assert table.finished.wait(10)
    end = get_state(client, table, 0)
    assert end["over"]["result"] == "player 1 wins" and "conceded" in end["over"]["text"]
    rep = Replay.from_json(client.get("/api/replay", params={"seat": 0, "token": table.tokens[0]}).text)
    assert rep.conceded_by == 0 and rep.actions == table.actions
    assert rep.run().log == table.game.log


def test_priority_is_passed_for_the_seat_except_at_its_stops(make_table) -> None:
    table, client = make_table(("human", "heuristic"), seed=5, max_turns=8)
    tok = table.tokens[0]
    r = client.post("/api/command", json={"seat": 0, "token": tok, "kind": "stops",
                                          "mine": ["precombat_main"], "theirs": ["end_of_turn"]})
    assert r.status_code == 200
    asked = 0
    s = next_decision(client, table, 0)
    while not s["over"]:
        d, b = s["decision"], s["board"]
        texts = [o["text"] for o in d["options"]]
        if d["kind"] == "priority":
            asked += 1
            side = "mine" if b["active"] == 0 else "theirs"
            opp_on_stack = b["stack"] and b["stack"][0]["controller"] == 1
            assert b["step"] in s["stops"][side] or opp_on_stack, (b["step"], side, b["stack"])
            assert any(o["verb"] not in ("pass", "mana") for o in d["options"])
        act(client, table, 0, s, "pass" if "pass" in texts else "keep" if "keep" in texts else texts[0])
        s = next_decision(client, table, 0, s["decision"]["id"])
    total = sum(1 for a in table.actions if a == "pass")
    assert 0 < asked < total  # most passes were made for the seat


def test_pass_until_my_next_turn(make_table) -> None:
    table, client = make_table(("human", "heuristic"), seed=6, max_turns=12)
    s = next_decision(client, table, 0)
    while not s["over"] and not (s["decision"]["kind"] == "priority" and s["board"]["active"] == 0):
        texts = [o["text"] for o in s["decision"]["options"]]
        act(client, table, 0, s, "pass" if "pass" in texts else "keep" if "keep" in texts else texts[0])
        s = next_decision(client, table, 0, s["decision"]["id"])
    assert not s["over"]
    turn = s["board"]["turn"]
    r = client.post("/api/command", json={"seat": 0, "token": table.tokens[0], "kind": "pass_until",
                                          "decision": s["decision"]["id"], "until": "mine"})
    assert r.status_code == 200, r.text
    s = next_decision(client, table, 0, s["decision"]["id"])
    while not s["over"] and s["decision"]["kind"] != "priority":
        texts = [o["text"] for o in s["decision"]["options"]]  # blocks are still asked
        act(client, table, 0, s, "done" if "done" in texts else texts[0])
        s = next_decision(client, table, 0, s["decision"]["id"])
    if not s["over"]:
        b = s["board"]
        assert (b["active"] == 0 and b["turn"] > turn) or (b["stack"] and b["stack"][0]["controller"] == 1)


def test_a_whole_game_replays_exactly(make_table) -> None:
    table, client = make_table(("human", "random"), seed=7, max_turns=12)
    end = play_out(client, table, 0, random.Random(7))
    assert end["over"]["result"] in ("player 0 wins", "player 1 wins", "draw")
    r = client.get("/api/replay", params={"seat": 0, "token": table.tokens[0]})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rep = Replay.from_json(r.text)
    assert rep.agents == ("human", "random") and rep.actions == table.actions
    game = rep.run()
    assert game.log == table.game.log and (game.winner, game.end_reason) == (table.game.winner, table.game.end_reason)


def test_two_browser_seats_each_see_their_own_hand(make_table) -> None:
    table, client = make_table(("human", "human"), seed=8, max_turns=3)
    r = client.get("/api/state", params={"seat": 1, "token": table.tokens[0]})
    assert r.status_code == 403  # a seat's token opens only that seat
    rng = random.Random(8)
    seen = {0: 0, 1: 0}
    answered: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        states = [get_state(client, table, seat) for seat in (0, 1)]
        if states[0]["over"]:
            break
        deciding = [i for i, s in enumerate(states) if s["decision"] and s["decision"]["id"] not in answered]
        if not deciding:
            time.sleep(0.01)
            continue
        i = deciding[0]
        s, other = states[i], states[1 - i]
        assert other["decision"] is None and other["board"]["players"][i]["hand"] is None
        assert s["board"]["players"][1 - i]["hand"] is None
        seen[i] += 1
        answered.add(s["decision"]["id"])
        act(client, table, i, s, rng.choice([o["text"] for o in s["decision"]["options"]]))
    assert table.finished.wait(10) and seen[0] and seen[1]


def test_a_game_against_the_goldfish_goes_on_below_zero_life(make_table) -> None:
    table, client = make_table(("human", "goldfish"), seed=9, max_turns=4)
    assert table.options["goldfish"] == 1
    end = play_out(client, table, 0, random.Random(9))
    assert end["goldfish"] == {"seat": 1, "dead_turn": table.game.goldfish_dead_turn}
    assert end["over"]["result"] == "draw"  # the goldfish never loses: the turn limit ends it


def test_the_table_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="'human' seat"):
        WebTable(["starter_green", "starter_red"], ["heuristic", "random"])
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")
    assert host_warning("127.0.0.1") is None and "0.0.0.0" in host_warning("0.0.0.0")
    assert STOP_STEPS[0] == "upkeep" and "cleanup" not in STOP_STEPS


def test_attackers_and_blocks_chosen_so_far_are_marked() -> None:
    from mtg_env import Game

    marked = set()
    for seed in range(40):
        g = Game.new(["starter_green", "starter_red"], seed=seed, skip_trivial=True, max_turns=20)
        rng = random.Random(seed)
        while not g.is_over:
            d = g.decision
            picks = [o for o in d.options if o.verb in ("attack", "block")]
            if picks:
                pick = rng.choice(picks)
                g.apply(pick)
                d2 = g.decision
                if d2 is not None and d2.player == d.player and d2.kind == d.kind:
                    board = seat_board(view_for(g, d.player))[0]
                    by_id = {p["id"]: p for p in board["permanents"]}
                    first = by_id[pick.args[0]]
                    if pick.verb == "attack":
                        assert first["attacking"]
                    else:
                        assert by_id[pick.args[1]]["label"] in first["blocking"]
                        assert first["label"] in by_id[pick.args[1]]["blocked_by"]
                    marked.add(pick.verb)
                continue
            g.apply(rng.choice(d.options))
        if marked == {"attack", "block"}:
            break
    assert marked == {"attack", "block"}


@pytest.mark.parametrize("name", ["mtg_env.sim.board_html", "mtg_env.web.server"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_the_page_needs_no_network(make_table) -> None:
    _, client = make_table(("human", "random"))
    r = client.get("/")
    page = r.text
    assert r.status_code == 200 and page.startswith("<!DOCTYPE html>")
    assert "http://" not in page and "https://" not in page and "<script src" not in page and "<link" not in page
    assert "default-src 'self'" in r.headers["content-security-policy"]
