"""Sealed and draft of the Tenth Edition set (``mtg_env.sim.limited``): booster collation, pools,
the draft and its bots, the deck builder, Swiss pairings and standings, the events, the ratings
file and ``draft-ratings``, the human drafter over scripted input, and the CLI's one-line errors."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from mtg_env.cli import app
from mtg_env.engine.registry import get_card
from mtg_env.sim.limited import (
    BASIC_LANDS,
    BotDrafter,
    HumanDrafter,
    MatchResult,
    PickInfo,
    build_deck,
    data_rating,
    default_ratings,
    load_ratings,
    open_booster,
    rarity_of,
    run_draft,
    run_draft_event,
    run_sealed_event,
    sealed_pool,
    set_cards,
    standings,
    swiss_pairings,
)
from mtg_env.sim.limited.event import GameRecord
from mtg_env.sim.limited.human import DraftQuit
from mtg_env.sim.runner import derive_seed

runner = CliRunner()
FAST = {"best_of": 1, "max_turns": 12, "workers": 1}


def _no_volatile(d: dict) -> dict:
    d = dict(d)
    d.pop("seconds", None)
    return d


# -- boosters -------------------------------------------------------------------------------------
def test_the_set_has_121_cards_of_each_rarity_and_five_basic_lands() -> None:
    cards = set_cards()
    assert {k: len(v) for k, v in cards.items()} == {"rare": 121, "uncommon": 121, "common": 121, "basic": 5}
    assert set(cards["basic"]) == set(BASIC_LANDS)
    assert sum(len(v) for v in cards.values()) == 368


def test_collation_over_1000_seeded_boosters() -> None:
    seen: dict[str, Counter] = {k: Counter() for k in ("rare", "uncommon", "common", "basic")}
    for seed in range(1000):
        b = open_booster(seed)
        slots = [rarity_of(n) for n in b]
        assert len(b) == 15
        assert slots == ["rare"] + ["uncommon"] * 3 + ["common"] * 10 + ["basic"]  # slot order, exact counts
        assert len(set(b)) == 15  # no repeat inside a booster (nor a slot)
        for n, s in zip(b, slots, strict=True):
            seen[s][n] += 1
    assert {k: sum(c.values()) for k, c in seen.items()} == {"rare": 1000, "uncommon": 3000,
                                                              "common": 10000, "basic": 1000}
    # Every card comes up, each about equally often (expected: common 82.6, uncommon 24.8,
    # rare 8.3, basic land 200 per 1000 boosters; bounds are about 5 standard deviations).
    assert set(seen["common"]) == set(set_cards()["common"])
    assert set(seen["uncommon"]) == set(set_cards()["uncommon"])
    assert min(seen["common"].values()) > 40 and max(seen["common"].values()) < 130
    assert min(seen["uncommon"].values()) > 5 and max(seen["uncommon"].values()) < 50
    assert max(seen["rare"].values()) < 25 and len(seen["rare"]) > 110
    assert all(130 < seen["basic"][n] < 270 for n in BASIC_LANDS)


def test_boosters_and_pools_are_reproducible_from_a_seed() -> None:
    assert open_booster(5) == open_booster(5) != open_booster(6)
    pool = sealed_pool(11)
    assert pool == sealed_pool(11) and len(pool) == 90
    assert pool == [c for i in range(6) for c in open_booster(derive_seed(11, "sealed booster", i))]


# -- ratings --------------------------------------------------------------------------------------
def test_computed_ratings_value_removal_and_efficiency() -> None:
    r = default_ratings()
    assert len(r) == 368 and all(v >= 0 for v in r.values())
    assert all(r[b] == 0 for b in BASIC_LANDS)
    assert r["Terror"] > r["Grizzly Bears"] and r["Pacifism"] > r["Grizzly Bears"]
    assert r["Serra Angel"] > r["Grizzly Bears"] > r["Raging Goblin"]
    assert r["Shock"] > r["Giant Growth"]
    assert data_rating(get_card("Terror")) == r["Terror"]


def test_a_ratings_file_overrides_some_cards(tmp_path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"ratings": {"Grizzly Bears": 99}}))
    r = load_ratings(path)
    assert r["Grizzly Bears"] == 99 and r["Terror"] == default_ratings()["Terror"]
    r.save(tmp_path / "back.json")
    assert load_ratings(tmp_path / "back.json")["Grizzly Bears"] == 99


# -- deck building --------------------------------------------------------------------------------
def _check_legal(deck, pool: list[str]) -> None:
    """40 cards; every nonbasic card from the pool, at most as often as the pool has it; the deck
    plus its sideboard is the pool plus basic lands; its spells are of its colors."""
    main = Counter(deck.main)
    assert sum(main.values()) == 40 and len(deck.deck) == 40
    basics = Counter({n: k for n, k in main.items() if n in BASIC_LANDS})
    assert not (main - basics) - Counter(pool)
    assert main - basics + Counter(deck.sideboard) == Counter(pool)
    lands = sum(k for n, k in main.items() if "Land" in get_card(n).types)
    assert lands == deck.lands
    for n in main:
        assert set(get_card(n).colors) <= set(deck.colors), (n, deck.colors)


@pytest.mark.parametrize("seed", range(6))
def test_sealed_decks_are_legal_40_card_decks_from_their_pools(seed: int) -> None:
    pool = sealed_pool(seed)
    deck = build_deck(pool, default_ratings(), "p")
    _check_legal(deck, pool)
    assert 16 <= deck.lands <= 18 and len(deck.colors) == 2 and not deck.notes
    assert deck.creatures >= 14
    assert sum(get_card(c).cost.cmc >= 6 for c in deck.main if "Land" not in get_card(c).types) <= 2
    assert build_deck(pool, default_ratings(), "p").main == deck.main  # deterministic


def test_basic_lands_follow_the_colored_symbols() -> None:
    deck = build_deck(sealed_pool(3), default_ratings())
    symbols = Counter()
    for n in deck.main:
        for c, k in zip("WUBRG", get_card(n).cost.colored, strict=True):
            symbols[c] += k
    lands = Counter(n for n in deck.main if n in BASIC_LANDS)
    a, b = deck.colors
    land_of = dict(zip("WUBRG", BASIC_LANDS, strict=True))
    if symbols[a] > symbols[b]:
        assert lands[land_of[a]] >= lands[land_of[b]]
    elif symbols[b] > symbols[a]:
        assert lands[land_of[b]] >= lands[land_of[a]]


def test_a_short_pool_is_filled_with_basic_lands() -> None:
    pool = open_booster(1)
    deck = build_deck(pool, default_ratings())
    assert len(deck.main) == 40 and deck.lands > 18
    _check_legal_main_from(deck.main, pool)


def _check_legal_main_from(main: list[str], pool: list[str]) -> None:
    nonbasic = Counter(n for n in main if n not in BASIC_LANDS)
    assert not nonbasic - Counter(pool)


# -- draft ----------------------------------------------------------------------------------------
def test_draft_pools_are_the_opened_boosters_and_decks_are_legal() -> None:
    r = default_ratings()
    res = run_draft(4, [BotDrafter(r) for _ in range(8)])
    assert [len(p) for p in res.pools] == [45] * 8
    opened = Counter(c for rnd in range(3) for seat in range(8)
                     for c in open_booster(derive_seed(4, "draft booster", rnd, seat)))
    assert sum((Counter(p) for p in res.pools), Counter()) == opened
    for pool in res.pools:
        _check_legal(build_deck(pool, r), pool)
    assert run_draft(4, [BotDrafter(r) for _ in range(8)]).pools == res.pools


def test_packs_pass_left_then_right_then_left() -> None:
    r = default_ratings()
    res = run_draft(9, [BotDrafter(r) for _ in range(8)])
    for rnd, step in ((0, 1), (1, -1), (2, 1)):
        for seat in range(8):
            first = res.picks[seat][15 * rnd]
            nxt = res.picks[(seat + step) % 8][15 * rnd + 1]
            left = list(first.pack)
            left.remove(first.card)
            assert list(nxt.pack) == left
        assert all(len(res.picks[s][15 * rnd + k].pack) == 15 - k for s in range(8) for k in range(15))


def test_bots_commit_to_two_colors() -> None:
    r = default_ratings()
    bot = BotDrafter(r, commit_after=3)
    picked = ["Serra Angel", "Pacifism", "Shock", "Incinerate"]  # white and red
    assert bot.score("Terror", picked[:1]) == r["Terror"]  # before the commitment: the rating alone
    assert bot.score("Terror", picked) == pytest.approx(0.35 * r["Terror"])
    assert bot.score("Youthful Knight", picked) == r["Youthful Knight"]
    assert bot.score("Icy Manipulator", picked) == r["Icy Manipulator"]  # colorless
    res = run_draft(2, [BotDrafter(r) for _ in range(8)])
    for pool in res.pools:  # most of a bot's picks after the first few are in its final colors
        colors = set(build_deck(pool, r).colors)
        late = [c for c in pool[10:] if get_card(c).colors]
        assert sum(set(get_card(c).colors) <= colors for c in late) > len(late) / 2


# -- Swiss ----------------------------------------------------------------------------------------
def _rematch_free_exists(players: list[int], met: dict[int, set[int]]) -> bool:
    if not players:
        return True
    a = players[0]
    return any(b not in met[a] and _rematch_free_exists([p for p in players[1:] if p != b], met)
               for b in players[1:])


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_swiss_pairings_never_repeat_an_opponent_when_avoidable(n: int) -> None:
    rng = random.Random(n)
    for _ in range(150):
        met = {p: set() for p in range(n)}
        edges = list(itertools.combinations(range(n), 2))
        for a, b in rng.sample(edges, rng.randrange(min(2 * n, len(edges)))):
            met[a].add(b)
            met[b].add(a)
        order = rng.sample(range(n), n)
        pairs = swiss_pairings(order, met)
        assert sorted(p for pair in pairs for p in pair) == list(range(n))
        if _rematch_free_exists(order, met):
            assert all(b not in met[a] for a, b in pairs)


def test_an_odd_field_gives_one_bye_a_round_never_twice_to_one_player() -> None:
    pairs = swiss_pairings([0, 1, 2, 3, 4], {p: set() for p in range(5)}, had_bye={4})
    assert pairs[-1] == (3, None) and len(pairs) == 3
    res = run_sealed_event(5, seed=1, rounds=3, **FAST)
    byes = [m.players[0] for m in res.matches if m.is_bye]
    assert len(byes) == 3 and len(set(byes)) == 3
    met = Counter(frozenset(m.players) for m in res.matches if not m.is_bye)
    assert max(met.values()) == 1


def _m(rnd: int, a: int, b: int | None, *winners: int | None) -> MatchResult:
    return MatchResult(rnd, 1, (a, b), tuple(GameRecord(0, 0, w, 5, "life") for w in winners))


def test_standings_points_and_tie_breakers() -> None:
    # Round 1: 0 beats 1 2-1, 2 and 3 draw 1-1-1. Round 2: 0 beats 2 2-0, 3 beats 1 2-0.
    matches = [_m(1, 0, 1, 0, 1, 0), _m(1, 2, 3, 0, 1, None), _m(2, 0, 2, 0, 0), _m(2, 3, 1, 0, 0)]
    rows = {s.player: s for s in standings(["a", "b", "c", "d"], matches)}
    assert [s.player for s in standings(["a", "b", "c", "d"], matches)] == [0, 3, 2, 1]
    assert rows[0].points == 6 and rows[0].match_record == (2, 0, 0) and rows[0].game_record == (4, 1, 0)
    assert rows[3].points == 4 and rows[3].match_record == (1, 0, 1) and rows[3].game_record == (3, 1, 1)
    assert rows[2].points == 1 and rows[1].points == 0
    mw = {0: 1.0, 1: 1 / 3, 2: 1 / 3, 3: 4 / 6}  # match-win %, at least 1/3 (1 and 2 floored)
    assert rows[0].omw == pytest.approx((mw[1] + mw[2]) / 2)
    assert rows[3].omw == pytest.approx((mw[2] + mw[1]) / 2)
    assert rows[0].gw == pytest.approx(12 / 15)
    assert rows[3].gw == pytest.approx(10 / 15)  # a drawn game is 1 point of 3
    gw = {0: 12 / 15, 1: 1 / 3, 2: 4 / 15 if 4 / 15 > 1 / 3 else 1 / 3, 3: 10 / 15}
    assert rows[0].ogw == pytest.approx((gw[1] + gw[2]) / 2)
    # A bye is a 2-0 match win, and not an opponent.
    rows = {s.player: s for s in standings(["a", "b", "c"], [_m(1, 0, 1, 0, 0), _m(1, 2, None)])}
    assert rows[2].points == 3 and rows[2].game_record == (2, 0, 0) and rows[2].omw == 0.0


# -- events ---------------------------------------------------------------------------------------
def test_a_sealed_event_is_reproducible_and_the_same_on_any_number_of_workers() -> None:
    a = run_sealed_event(4, seed=7, **FAST)
    assert len(a.rounds) == 2 and all(len(r) == 2 for r in a.rounds)
    assert not [g.error for m in a.matches for g in m.games if g.error]
    assert _no_volatile(a.to_dict()) == _no_volatile(run_sealed_event(4, seed=7, **FAST).to_dict())
    b = run_sealed_event(4, seed=7, **{**FAST, "workers": 2})
    assert _no_volatile(a.to_dict()) == _no_volatile(b.to_dict())
    assert _no_volatile(a.to_dict()) != _no_volatile(run_sealed_event(4, seed=8, **FAST).to_dict())
    for e in a.entrants:
        _check_legal(e.deck, list(e.pool))


def test_a_draft_event_is_reproducible_from_its_seed() -> None:
    a = run_draft_event(seed=3, seats=4, **FAST)
    assert _no_volatile(a.to_dict()) == _no_volatile(run_draft_event(seed=3, seats=4, **FAST).to_dict())
    assert a.to_dict()["draft"]["picks"][0][0]["pick"] == 1 and len(a.to_dict()["draft"]["picks"][0]) == 45


@pytest.mark.parametrize("name", ["mtg_env.sim.limited", "mtg_env.sim.limited.boosters",
                                  "mtg_env.sim.limited.human"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).failed == 0


def test_best_of_three_stops_at_two_wins_and_the_loser_plays_first() -> None:
    res = run_sealed_event(4, seed=3, rounds=1, best_of=3, max_turns=60, workers=1)
    assert all(g.winner is not None and g.error is None for m in res.matches for g in m.games)
    for m in res.matches:
        wins = Counter(g.winner for g in m.games)
        assert 2 <= len(m.games) <= 3 and (max(wins[0], wins[1]) == 2 or len(m.games) == 3)
        for prev, nxt in itertools.pairwise(m.games):
            if prev.winner is not None:
                assert nxt.first == 1 - prev.winner


def test_a_draft_event_with_a_scripted_human() -> None:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    answers = ["0", "no such card", "?", "pool", "1"] + ["1"] * 44
    human = HumanDrafter(input=answers, console=Console(file=out, width=100))
    res = run_draft_event(seed=5, seats=2, human=human, **FAST)
    text = out.getvalue()
    assert "there is no card 0 in this pack" in text and "no card in this pack starts with" in text
    assert "pool, picks" in text and "no picks yet" in text
    assert res.entrants[0].name == "you" and len(res.draft.pools[0]) == 45
    assert res.draft.pools[0][0] == res.draft.picks[0][0].pack[0]
    _check_legal(res.entrants[0].deck, res.draft.pools[0])
    with pytest.raises(DraftQuit) as exc:
        run_draft(1, [HumanDrafter(input=["1"], console=Console(file=StringIO())), BotDrafter(default_ratings())])
    assert exc.value.exit_code == 1


def test_human_picks_by_name_and_prefix() -> None:
    from io import StringIO

    from rich.console import Console

    pack = ("Shock", "Serra Angel", "Spined Wurm", "Terror")
    info = PickInfo(0, 0, 0, "left", 3, 8)
    for answer, want in (("terror", 3), ("SERRA", 1), ("sh", 0), ("2", 1)):
        h = HumanDrafter(input=[answer], console=Console(file=StringIO()))
        assert h.pick(pack, (), info) == want
    out = StringIO()
    h = HumanDrafter(input=["s", "spi"], console=Console(file=out, width=120))
    assert h.pick(pack, (), info) == 2
    assert "'s' matches 3 cards" in out.getvalue()
    assert "{3}{W}{W}" in out.getvalue() and "Flying, vigilance" in out.getvalue()


# -- command line ---------------------------------------------------------------------------------
def _ok(*args: str, input: str | None = None) -> str:
    res = runner.invoke(app, list(args), input=input, env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output + repr(res.exception)
    return res.output


def test_sealed_command_prints_rounds_and_standings_and_writes_json(tmp_path) -> None:
    out = _ok("sealed", "--players", "4", "--seed", "2", "--bo1", "--max-turns", "12", "--workers", "1",
              "--no-progress", "--decks", "--json", str(tmp_path / "e.json"))
    for text in ("Sealed event: 4 players, 2 Swiss rounds, best of one", "Round 1", "Round 2",
                 "Standings", "OMW%", "player 4", "lands", "wrote"):
        assert text in out
    data = json.loads((tmp_path / "e.json").read_text())
    assert {"players", "rounds", "standings", "seed"} <= set(data) and len(data["players"]) == 4
    assert sum(n for n, _ in data["players"][0]["deck"]["main"]) == 40


def test_draft_command_with_a_human_over_scripted_stdin() -> None:
    script = "\n".join(["x", "17", "1"] + ["1"] * 44) + "\n"
    out = _ok("draft", "--human", "--players", "2", "--seed", "1", "--bo1", "--max-turns", "12",
              "--workers", "1", "--no-progress", input=script)
    assert "Pack 1 of 3, pick 1 (passing left)" in out and "Pack 2 of 3, pick 1 (passing right)" in out
    assert "there is no card 17 in this pack" in out and "you take" in out
    assert "Your deck" in out and "you finished" in out and "Standings" in out
    res = runner.invoke(app, ["draft", "--human", "--players", "2", "--no-progress"], input="1\n2\n")
    assert res.exit_code == 1 and "end of input: the draft is abandoned" in res.output


def test_the_human_plays_their_own_matches_with_play() -> None:
    script = "\n".join(["1"] * 45 + ["1"] * 3000) + "\n"  # the picks, then every decision: option 1
    out = _ok("draft", "--human", "--play", "--players", "2", "--seed", "1", "--bo1", "--max-turns", "3",
              "--workers", "1", "--no-progress", input=script)
    assert "Your deck" in out and "Round 1, game 1: seat 2 (player 0) vs you (player 1)" in out
    assert "keep 7 cards or mulligan" in out and "(you, WUBG deck)" in out
    assert "game drawn" in out and "you finished 1 of 2 with 1 points" in out
    res = runner.invoke(app, ["draft", "--human", "--play", "--players", "2", "--bo1", "--no-progress"],
                        input="1\n" * 46)
    assert res.exit_code == 1 and "the event is abandoned" in res.output


def test_draft_ratings_writes_a_file_the_draft_reads(tmp_path) -> None:
    path = tmp_path / "ratings.json"
    # One game, with room to finish: a draw at the turn cap moves no rating.
    out = _ok("draft-ratings", "--events", "1", "--players", "2", "--max-turns", "30", "--workers", "1",
              "--out", str(path), "--no-progress")
    assert "Ratings that rose most" in out and f"wrote {path}" in out
    r = load_ratings(path)
    assert len(r) == 368 and r != default_ratings()
    out = _ok("draft", "--ratings", str(path), "--players", "2", "--bo1", "--max-turns", "10",
              "--workers", "1", "--no-progress")
    assert "ratings: ratings.json" in out


@pytest.mark.parametrize(("args", "message"), [
    (["sealed", "--players", "1"], "players must be at least 2"),
    (["sealed", "--rounds", "0"], "rounds must be at least 1"),
    (["sealed", "--agent", "nobody"], "unknown agent 'nobody'"),
    (["sealed", "--agent", "human"], "interactive"),
    (["sealed", "--agent", "random,heuristic"], "one agent for every player"),
    (["draft", "--workers", "0"], "workers must be"),
    (["draft", "--play"], "--play needs --human"),
    (["draft", "--ratings", "/no/such/file.json"], "cannot read ratings file"),
    (["draft", "--ratings", "BAD_JSON"], "is not valid JSON"),
    (["draft", "--ratings", "UNKNOWN_CARD"], "is not a Tenth Edition card"),
    (["draft", "--json", "/no/such/dir/e.json"], "--json: cannot write"),
    (["draft-ratings", "--events", "0"], "events must be at least 1"),
    (["draft-ratings", "--step", "-1"], "step must be a number of at least 0"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, monkeypatch, args: list[str], message: str) -> None:
    import mtg_env.cli as cli

    def no_games() -> None:
        raise AssertionError("a game started")

    monkeypatch.setattr(cli, "_before_games", no_games)
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "unknown.json").write_text(json.dumps({"ratings": {"Black Lotus": 5}}))
    args = [str(tmp_path / "bad.json") if a == "BAD_JSON" else str(tmp_path / "unknown.json")
            if a == "UNKNOWN_CARD" else a for a in args]
    res = runner.invoke(app, [*args, "--no-progress"])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], res.output
