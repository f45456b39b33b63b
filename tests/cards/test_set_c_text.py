"""Scenario tests for Mind Bend and Warp World (the whole-board oddities).

Mind Bend's text-changing effect is 2007 CR 418.5 layer 3 (2012 612): the fields it rewrites are
those that hold a color word or a basic land type (``mtg_env/cards/text_change.py``): the filter
keys ``color``, ``not_color``, ``colors_any`` (targets, affected groups, trigger filters) and an
animation's ``colors``; ``subtype``, ``not_subtype``, ``subtypes_any`` and the type line's basic
land types; the keywords ``protection_from_<color>`` and ``<land>walk``; each ability's text; the
color of the token a token-making ability makes. Sea Monster's and Karplusan Strider's keywords
keep their names; the rules reading them map their words through the text change.

Warp World: 2012 603.6a (permanents entering at once see each other), 603.10a (leaving at once),
303.4f-g (an Aura put into play without being cast: its owner chooses a legal object; with none it
stays where it is), 2007 CR 216 (tokens cease to exist), 410.3 (triggers wait until the spell
has resolved). Each test quotes the printed text it checks.
"""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, logged, scenario

K = DecisionKind
LANDS = ["replace Plains", "replace Island", "replace Swamp", "replace Mountain", "replace Forest"]
COLORS = ["replace white", "replace blue", "replace black", "replace red", "replace green"]


def mind_bend_scenario(mine: list, theirs: list, hand: list | None = None, pool: str = "") -> Scenario:
    """Player 0 in their main phase with Mind Bend (and ``hand``) in hand, an Island and ``mine``
    in play and ``pool`` floating; player 1 has ``theirs`` in play."""
    return scenario({"hand": [*(hand or []), "Mind Bend"], "in_play": ["Island", *mine], "mana_pool": pool},
                    theirs, library=["Island"] * 5)


def bend(s: Scenario, target: str, frm: str, to: str, color: bool) -> None:
    s.do("play Mind Bend", f"target {target}")
    while s.game.decision.kind is K.PRIORITY and s.game.stack:
        s.resolve()  # a trigger Mind Bend caused (Quirion Dryad), then Mind Bend
    s.do("replace a color word" if color else "replace a basic land type", f"replace {frm}",
         f"with {to}")


# -- Mind Bend ------------------------------------------------------------------------------------
def test_mind_bend_targets_only_permanents() -> None:
    """Mind Bend: "Change the text of target permanent ..." (2007 CR 413: a player or a spell is
    not a legal target)."""
    s = mind_bend_scenario(["Grizzly Bears"], ["Hill Giant"], hand=["Shock"], pool="R")
    s.do("play Shock", "target Grizzly Bears")
    s.do("play Mind Bend")
    opts = s.options()
    assert opts == [f"target {p.card.label}" for p in s.game.perms.values()]
    assert len(opts) == 3 and "target Shock" not in opts


def test_mind_bend_choices_color_word_or_land_type_and_a_different_word() -> None:
    """Mind Bend: "replacing all instances of one color word with another or one basic land type
    with another". Rulings: "You choose the words to change on resolution"; "It can't change a
    word to the same word." The choice is a MODE (color word / land type), then the word and its
    replacement (CHOOSE_COLOR for colors, MODE for land types)."""
    s = mind_bend_scenario(["Bog Wraith"], [])
    s.do("play Mind Bend", "target Bog Wraith")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.MODE and d.player == 0 and [i.label for i in s.game.stack] == ["Mind Bend"]
    assert s.options() == ["replace a color word", "replace a basic land type"]
    s.do("replace a basic land type")
    assert s.game.decision.kind is K.MODE and s.options() == LANDS
    s.do("replace Swamp")
    assert s.options() == ["with Plains", "with Island", "with Mountain", "with Forest"]
    s.do("with Forest")
    assert s.perm("Bog Wraith").keywords == frozenset({"forestwalk"})
    assert s.game.players[0].graveyard[-1].name == "Mind Bend"

    s = mind_bend_scenario(["Paladin en-Vec"], [])
    s.do("play Mind Bend", "target Paladin en-Vec")
    s.resolve()
    s.do("replace a color word")
    assert s.game.decision.kind is K.CHOOSE_COLOR and s.options() == COLORS
    s.do("replace black")
    assert s.options() == ["with white", "with blue", "with red", "with green"]


def test_mind_bend_forestwalk_to_islandwalk() -> None:
    """Mind Bend's example: "you may change ... "forestwalk" to "islandwalk."" (Rushwood Dryad)."""
    s = mind_bend_scenario(["Rushwood Dryad"], [])
    bend(s, "Rushwood Dryad", "Forest", "Island", color=False)
    assert s.perm("Rushwood Dryad").keywords == frozenset({"islandwalk"})
    assert logged(s, "the text of Rushwood Dryad has every Forest replaced by Island")


def test_mind_bend_nonblack_to_nongreen() -> None:
    """Mind Bend's example: "you may change "nonblack creature" to "nongreen creature"" (Ascendant
    Evincar: "Nonblack creatures get -1/-1."; its own black creature is now nongreen)."""
    s = mind_bend_scenario(["Ascendant Evincar"], ["Grizzly Bears"])
    s.assert_pt("Grizzly Bears", 1, 1)
    bend(s, "Ascendant Evincar", "black", "green", color=True)
    s.assert_pt("Grizzly Bears", 3, 3)
    s.assert_pt("Ascendant Evincar", 2, 2)


def test_mind_bend_on_a_basic_land_changes_its_mana() -> None:
    """Mind Bend ruling: "Forest can be changed to Island so it produces blue mana. It doesn't
    change the name of any permanent." (2007 CR 212.6d)."""
    s = mind_bend_scenario([], ["Forest"])
    bend(s, "Forest", "Forest", "Island", color=False)
    f = s.perm("Forest")
    assert f.name == "Forest" and f.subtypes == ("Island",)
    assert [a.mana for a in f.activated] == [("U",)]


def test_mind_bend_does_not_change_a_card_name() -> None:
    """Mind Bend ruling: "You can't change proper nouns (i.e. card names)": Karplusan Forest has
    no Forest land type, and its name stays; its abilities don't change."""
    s = mind_bend_scenario(["Karplusan Forest"], [])
    before = s.perm("Karplusan Forest").activated
    bend(s, "Karplusan Forest", "Forest", "Island", color=False)
    p = s.perm("Karplusan Forest")
    assert p.name == "Karplusan Forest" and [a.mana for a in p.activated] == [
        a.mana for a in before]
    assert [a.text for a in p.activated] == [a.text for a in before]


def test_mind_bend_on_a_permanent_without_such_words() -> None:
    """Mind Bend ruling: "Can target a card with no appropriate words on it, or even one with no
    words at all." The change then does nothing."""
    s = mind_bend_scenario([], ["Grizzly Bears"])
    bend(s, "Grizzly Bears", "green", "red", color=True)
    p = s.perm("Grizzly Bears")
    assert p.colors == frozenset("G") and p.keywords == frozenset()
    assert len(s.game.effects) == 1


def test_mind_bend_on_a_weaver_changes_what_it_can_target() -> None:
    """Hate Weaver: "{2}: Target blue or red creature gets +1/+0 until end of turn." changed blue
    -> green: "Target green or red creature"."""
    s = mind_bend_scenario(["Hate Weaver", "Island", "Island"], ["Grizzly Bears", "Cloud Sprite"])
    bend(s, "Hate Weaver", "blue", "green", color=True)
    s.do("activate Hate Weaver")
    assert "target Grizzly Bears" in s.options() and "target Cloud Sprite" not in s.options()
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 3, 2)


def test_mind_bend_on_a_spell_color_trigger() -> None:
    """Angel's Feather: "Whenever a player plays a white spell, you may gain 1 life." changed
    white -> red: a red spell triggers it, a white one doesn't."""
    s = mind_bend_scenario(["Angel's Feather", "Mountain"], ["Grizzly Bears"], hand=["Shock"])
    bend(s, "Angel's Feather", "white", "red", color=True)
    s.do("play Shock", "target Grizzly Bears")
    assert [i.label for i in s.game.stack] == ["Shock", "Angel's Feather"]
    s.resolve()
    s.do("yes")
    s.assert_life(0, 21)
    s2 = mind_bend_scenario(["Angel's Feather", "Plains", "Plains", "Plains"], [], hand=["Glorious Anthem"])
    bend(s2, "Angel's Feather", "white", "red", color=True)
    s2.do("play Glorious Anthem")
    assert [i.label for i in s2.game.stack] == ["Glorious Anthem"]


def test_mind_bend_on_a_granted_landwalk() -> None:
    """Goblin King: "Other Goblin creatures get +1/+1 and have mountainwalk." changed Mountain ->
    Forest: they have forestwalk."""
    s = mind_bend_scenario(["Goblin King", "Goblin Piker"], [])
    bend(s, "Goblin King", "Mountain", "Forest", color=False)
    p = s.perm("Goblin Piker")
    assert "forestwalk" in p.keywords and "mountainwalk" not in p.keywords
    s.assert_pt("Goblin Piker", 3, 2)


def test_mind_bend_on_a_land_count() -> None:
    """Blanchwood Armor: "Enchanted creature gets +1/+1 for each Forest you control." changed
    Forest -> Island counts Islands (its controller has two)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island", "Island", "Forest", {
            "card": "Grizzly Bears", "id": "b"}, {"card": "Blanchwood Armor", "attached_to": "b"}],
         "library": ["Island"] * 3}, {"library": ["Island"] * 3}]})
    s.assert_pt("Grizzly Bears", 3, 3)
    bend(s, "Blanchwood Armor", "Forest", "Island", color=False)
    s.assert_pt("Grizzly Bears", 4, 4)


def test_mind_bend_on_an_animating_land_changes_the_color_not_the_mana() -> None:
    """Treetop Village: "{1}{G}: Treetop Village becomes a 3/3 green Ape creature with trample"
    changed green -> blue: it becomes blue; "{T}: Add {G}" and the {G} of the cost are mana
    symbols, not words (2012 612.2), and stay."""
    s = mind_bend_scenario(["Treetop Village", "Forest", "Forest"], [])
    bend(s, "Treetop Village", "green", "blue", color=True)
    p = s.perm("Treetop Village")
    assert p.activated[0].mana == ("G",)
    s.do("activate Treetop Village")
    s.resolve()
    p = s.perm("Treetop Village")
    assert p.is_creature and p.colors == frozenset("U")


def test_mind_bend_on_quirion_dryad() -> None:
    """Quirion Dryad: "Whenever you play a white, blue, black, or red spell, put a +1/+1 counter
    on Quirion Dryad." changed red -> green: a red spell no longer triggers it."""
    s = mind_bend_scenario(["Quirion Dryad", "Mountain"], ["Grizzly Bears"], hand=["Shock"])
    bend(s, "Quirion Dryad", "red", "green", color=True)
    s.do("play Shock", "target Grizzly Bears")
    assert [i.label for i in s.game.stack] == ["Shock"]


def test_mind_bend_lasts_past_end_of_turn() -> None:
    """Mind Bend: "This effect doesn't end at end of turn." """
    s = mind_bend_scenario(["Rock Badger"], [])
    bend(s, "Rock Badger", "Mountain", "Swamp", color=False)
    s.advance_to("upkeep", active=1)
    assert s.perm("Rock Badger").keywords == frozenset({"swampwalk"})


def test_mind_bend_on_sea_monster() -> None:
    """Sea Monster: "Sea Monster can't attack unless defending player controls an Island."
    changed Island -> Swamp: it attacks a player who controls a Swamp and no Island. The
    keyword keeps its name (the observation's vocabulary); the combat rule reads its word
    through the text change (``rules.text_words``)."""
    s = mind_bend_scenario(["Sea Monster"], ["Swamp"])
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert "attack with Sea Monster" not in s.options()
    s = mind_bend_scenario(["Sea Monster"], ["Swamp"])
    bend(s, "Sea Monster", "Island", "Swamp", color=False)
    assert s.perm("Sea Monster").keywords == frozenset({"cant_attack_unless_defender_has_island"})
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert "attack with Sea Monster" in s.options()


# -- Warp World -------------------------------------------------------------------------------
def warp(p0: dict, p1: dict) -> Scenario:
    p0 = {"mana_pool": "RRRRRRRR", **p0, "hand": ["Warp World", *p0.get("hand", [])]}
    s = Scenario({"turn": 5, "step": "precombat_main", "players": [p0, p1]})
    s.do("play Warp World")
    s.resolve()
    return s


def labels(s: Scenario, pl: int) -> list[str]:
    return sorted(p.card.name for p in s.game.perms.values() if p.controller == pl)


def test_warp_world_counts_owned_permanents_tokens_included() -> None:
    """Warp World: "Each player shuffles all permanents he or she owns into his or her library,
    then reveals that many cards ... puts all artifact, creature, and land cards revealed this
    way into play". A token counts and ceases to exist (ruling; 2007 CR 216); a permanent goes
    to its owner's library and comes back under its owner's control."""
    s = warp({"in_play": ["Grizzly Bears", "Goblin Token", {"card": "Grizzly Bears",
                                                              "controller": 1}],
              "library": ["Hill Giant"] * 4},
             {"in_play": ["Forest"], "library": ["Forest"] * 3})
    g = s.game
    assert g.stack == [] or all(i.label != "Warp World" for i in g.stack)
    assert g.players[0].graveyard[-1].name == "Warp World"
    mine = labels(s, 0)
    assert len(mine) == 3 and set(mine) <= {"Grizzly Bears", "Hill Giant"}
    assert labels(s, 1) == ["Forest"]
    assert len(g.players[0].library) == 6 - 3 + 0  # 2 Bears + 4 Giants, 3 put into play
    assert len(g.players[1].library) == 3
    assert not any(p.card.is_token for p in g.perms.values())
    assert all(p.owner == p.controller for p in g.perms.values())
    assert logged(s, "player 0 shuffles 3 permanent(s) into their library")


def test_warp_world_puts_other_cards_on_the_bottom() -> None:
    """Warp World: "... then puts all cards revealed this way that weren't put into play on the
    bottom of his or her library" (in the order revealed: not asked, the cards were seen by
    both players)."""
    s = warp({"in_play": ["Swamp", "Swamp"], "library": ["Shock"]}, {})
    g = s.game
    lib = g.players[0].library
    swamps = labels(s, 0).count("Swamp")
    shocks_revealed = 2 - swamps
    assert len(lib) + swamps == 3
    assert [c.name for c in lib[len(lib) - shocks_revealed:]] == ["Shock"] * shocks_revealed
    assert swamps == 2 or logged(s, "player 0 puts 1 revealed card(s) on the bottom")


def test_warp_world_aura_host_is_chosen_by_its_owner() -> None:
    """Warp World ruling: "An Aura put onto the battlefield this way can enchant an artifact,
    land, or creature that was already put onto the battlefield"; its owner chooses among the
    objects it could legally enchant (2012 303.4f), an opponent's creature included."""
    s = warp({"in_play": [{"card": "Grizzly Bears", "id": "b"},
                          {"card": "Holy Strength", "attached_to": "b"}]},
             {"in_play": ["Hill Giant"]})
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS and d.player == 0
    assert s.options() == ["attach Holy Strength to Grizzly Bears",
                           "attach Holy Strength to Hill Giant"]
    assert not s.in_play("Holy Strength")
    s.do("attach Holy Strength to Hill Giant")
    s.assert_pt("Hill Giant", 4, 5)
    assert s.perm("Holy Strength").controller == 0


def test_warp_world_aura_cannot_enchant_a_protected_creature() -> None:
    """An Aura can't be attached to a creature with protection from its color (2007 CR 502.7):
    Unholy Strength (black) can't go on Paladin en-Vec (protection from black)."""
    s = warp({"in_play": [{"card": "Grizzly Bears", "id": "b"},
                          {"card": "Unholy Strength", "attached_to": "b"}]},
             {"in_play": ["Paladin en-Vec"]})
    assert s.options() == ["attach Unholy Strength to Grizzly Bears"]


def test_warp_world_aura_with_nothing_to_enchant_stays_in_the_library() -> None:
    """2012 303.4g: an Aura that can't legally be attached to anything stays in the library (it is
    then put on the bottom with the other cards not put into play)."""
    s = warp({"in_play": [{"card": "Holy Strength", "attached_to": "t"}]},
             {"in_play": [{"card": "Goblin Token", "id": "t"}], "library": ["Shock"]})
    g = s.game
    assert g.decision.kind is K.PRIORITY and not g.perms
    assert [c.name for c in g.players[0].library] == ["Holy Strength"]
    assert logged(s, "Holy Strength has nothing it could enchant and stays in the library")
    assert [c.name for c in g.players[1].library] == ["Shock"]


def test_warp_world_enchantments_come_after_creatures() -> None:
    """Warp World: "puts all artifact, creature, and land cards revealed this way into play, then
    puts all enchantment cards revealed this way into play"."""
    s = warp({"in_play": ["Glorious Anthem", "Grizzly Bears"]}, {})
    log = s.game.log
    i_bears = next(i for i, t in enumerate(log) if t.startswith("Grizzly Bears is put into play"))
    i_anthem = next(i for i, t in enumerate(log) if t.startswith("Glorious Anthem is put into"))
    assert i_bears < i_anthem
    s.assert_pt("Grizzly Bears", 3, 3)


def test_warp_world_triggers_see_every_creature_entering_and_wait() -> None:
    """Soul Warden: "Whenever another creature comes into play, you gain 1 life." put into play by
    Warp World with three other creatures (both players') triggers three times (2012 603.6a);
    the triggers are put on the stack once Warp World has resolved (ruling; 2007 CR 410.3)."""
    s = warp({"in_play": ["Soul Warden", "Grizzly Bears", "Grizzly Bears"]},
             {"in_play": ["Hill Giant"]})
    g = s.game
    assert [i.label for i in g.stack] == ["Soul Warden"] * 3
    assert g.players[0].graveyard[-1].name == "Warp World"
    s.resolve_all()
    s.assert_life(0, 23)


def test_warp_world_as_it_comes_into_play_choice_is_asked() -> None:
    """Voice of All: "As Voice of All comes into play, choose a color." put into play by Warp
    World, its controller chooses again (2012 614.12)."""
    s = warp({"in_play": [{"card": "Voice of All", "chosen": {"color": "R"}}]}, {})
    d = s.game.decision
    assert d.kind is K.CHOOSE_COLOR and d.player == 0
    s.do("choose black")
    assert s.perm("Voice of All").chosen == {"color": "B"}


# -- HeuristicAgent -------------------------------------------------------------------------------
def test_heuristic_bends_the_opponents_landwalk_away() -> None:
    """HeuristicAgent plays Mind Bend on the opponent's Bog Wraith (swampwalk, I control a Swamp)
    and changes Swamp to a land type I don't control, so the Wraith can be blocked."""
    from agents import HeuristicAgent

    agent = HeuristicAgent(strict=True)
    s = Scenario({"turn": 3, "step": "declare_attackers", "active_player": 1, "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island", "Swamp", "Grizzly Bears"],
         "library": ["Island"] * 3},
        {"in_play": [{"card": "Bog Wraith", "attacking": True}], "library": ["Island"] * 3}]})
    agent.reset(0, 0)
    s.pass_priority(1)
    assert agent.act(s.game.view(0)).text == "play Mind Bend"
    s.do("play Mind Bend")
    assert agent.act(s.game.view(0)).text == "target Bog Wraith"
    s.do("target Bog Wraith")
    s.resolve()
    while s.game.decision.kind is not K.PRIORITY:
        s.do(agent.act(s.game.view(0)).text)
    kw = s.perm("Bog Wraith").keywords
    assert "swampwalk" not in kw
    assert kw & {"plainswalk", "mountainwalk", "forestwalk"}  # not islandwalk: I have an Island


def test_heuristic_plays_warp_world_only_when_behind() -> None:
    """HeuristicAgent plays Warp World when the opponent's board is far better, not when even."""
    from agents import HeuristicAgent

    agent = HeuristicAgent(strict=True)
    agent.reset(0, 0)

    def game(theirs: list) -> Scenario:
        return Scenario({"turn": 5, "step": "precombat_main", "players": [
            {"hand": ["Warp World"], "in_play": ["Mountain"] * 8 + ["Grizzly Bears"],
             "library": ["Mountain"] * 10},
            {"in_play": theirs, "library": ["Island"] * 10}]})
    assert agent.act(game(["Grizzly Bears"]).game.view(0)).text != "play Warp World"
    behind = game(["Craw Wurm", "Craw Wurm", "Serra Angel", "Glorious Anthem"])
    assert agent.act(behind.game.view(0)).text == "play Warp World"


# -- the env layer and the other agents on these procedures ---------------------------------------
def _decision_states() -> list[Scenario]:
    """A game at each decision Mind Bend and Warp World ask: color word or land type (MODE),
    the word (CHOOSE_COLOR / MODE), the replacement, and an Aura's host (CHOOSE_CARDS)."""
    out = []
    s = mind_bend_scenario(["Paladin en-Vec"], [])
    s.do("play Mind Bend", "target Paladin en-Vec")
    s.resolve()
    out.append(s)
    for step in ("replace a color word", "replace black"):
        s = Scenario.__new__(Scenario)
        s.game = out[-1].game.copy()
        s.do(step)
        out.append(s)
    s = Scenario.__new__(Scenario)
    s.game = out[0].game.copy()
    s.do("replace a basic land type")
    out.append(s)
    out.append(warp({"in_play": [{"card": "Grizzly Bears", "id": "b"},
                                 {"card": "Holy Strength", "attached_to": "b"}]},
                    {"in_play": ["Hill Giant"]}))
    return out


def test_observer_mask_is_a_bijection_on_these_decisions() -> None:
    """The env layer maps each option of these decisions to one action index (MODE slots, the
    color band, the object rows) and back (the mask bijection checks of tests/encoding)."""
    from mtg_env.encoding import Observer
    from tests.encoding.helpers import check_decision

    kinds = []
    for s in _decision_states():
        g = s.game
        kinds.append(g.decision.kind)
        check_decision(Observer(), g)
        g2 = type(g).from_json(g.to_json())  # the procedures are JSON state
        assert [a.text for a in g2.legal_actions()] == [a.text for a in g.legal_actions()]
    assert kinds == [K.MODE, K.CHOOSE_COLOR, K.CHOOSE_COLOR, K.MODE, K.CHOOSE_CARDS]


def test_every_agent_answers_these_decisions() -> None:
    """Random and search agents answer each decision with a legal option (the search plays on
    copies of a game suspended in the middle of the spell's resolution)."""
    from agents import HeuristicAgent, MctsAgent, RandomAgent
    from mtg_env.engine.view import view_for

    for s in _decision_states():
        texts = set(s.options())
        pl = s.game.decision.player
        for agent in (RandomAgent(), MctsAgent(iterations=6, depth=20), HeuristicAgent(strict=True)):
            agent.reset(pl, 3)
            assert agent.act(view_for(s.game, pl)).text in texts


def test_random_games_with_these_cards_keep_every_invariant() -> None:
    """Soak: decks with Mind Bend and Warp World and the cards their text reaches, random play
    with every invariant checked after every action and JSON round trips."""
    from mtg_env import Deck
    from mtg_env.testing import play_random_game

    a = Deck([(4, "Mind Bend"), (4, "Warp World"), (2, "Bog Wraith"), (2, "Paladin en-Vec"),
              (2, "Ascendant Evincar"), (2, "Holy Strength"), (2, "Soul Warden"),
              (2, "Hate Weaver"), (2, "Goblin King"), (2, "Voice of All"), (2, "Nightmare"),
              (8, "Island"), (8, "Mountain"), (6, "Swamp"), (6, "Forest")], name="text_a")
    b = Deck([(4, "Mind Bend"), (4, "Warp World"), (2, "Rushwood Dryad"), (2, "Treetop Village"),
              (2, "Blanchwood Armor"), (2, "Unholy Strength"), (2, "Siege-Gang Commander"),
              (2, "Glorious Anthem"), (2, "Clone"), (2, "Quirion Dryad"), (2, "Angel's Feather"),
              (8, "Island"), (8, "Mountain"), (6, "Plains"), (6, "Forest")], name="text_b")
    for seed in range(6):
        g = play_random_game([a, b], seed, max_turns=30, json_every=3)
        assert g.is_over


def test_random_play_after_warp_world_keeps_every_invariant() -> None:
    """Soak from positions (random play seldom reaches eight mana): Warp World on boards with
    Auras, tokens, a stolen creature, choices as they come into play and triggers, then random
    play, every option tried on a copy and the JSON round trip checked after every action."""
    import random

    from mtg_env.testing import card_counts, check_invariants

    pool = ["Grizzly Bears", "Soul Warden", "Voice of All", "Glorious Anthem", "Shock",
            "Paladin en-Vec", "Forest", "Swamp", "Mind Bend", "Hill Giant"]
    for seed in range(8):
        rng = random.Random(seed)
        s = warp({"in_play": [{"card": "Grizzly Bears", "id": "b"},
                              {"card": "Holy Strength", "attached_to": "b"},
                              {"card": "Unholy Strength", "attached_to": "b"}, "Goblin Token",
                              {"card": "Hill Giant", "controller": 1}, "Island", "Island"],
                  "library": [rng.choice(pool) for _ in range(12)], "hand": []},
                 {"in_play": ["Soul Warden", "Paladin en-Vec", "Forest",
                              {"card": "Voice of All", "chosen": {"color": "G"}}],
                  "library": [rng.choice(pool) for _ in range(12)]})
        g = s.game
        expected = card_counts(g)
        for _ in range(60):
            check_invariants(g, expected, try_all_options=True)
            if g.is_over:
                break
            g.apply(rng.choice(g.decision.options))
