"""Scenario tests for the cards with choices: Voice of All and Story Circle
("As ~ comes into play, choose a color") and Abundance (an optional draw replacement with a
choice).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known (419:
replacement and prevention effects; 502.7 protection), else 2012 CR (614.12 "as ... comes into
play" choices are made before the permanent comes into play, 706.6 a copy makes its own choice,
609.7a choosing a source of damage, 616.1 the affected player chooses among replacement effects).
"""

from __future__ import annotations

from mtg_env import DecisionKind, Game
from mtg_env.testing import Scenario, logged

K = DecisionKind


def hand(s: Scenario, pl: int) -> list[str]:
    return [c.name for c in s.game.players[pl].hand]


COLOR_OPTIONS = ["choose white", "choose blue", "choose black", "choose red", "choose green"]


# -- Voice of All -------------------------------------------------------------------------------
def voice(color: str, opp_hand: list[str] | None = None, opp_play: list[str] | None = None
          ) -> Scenario:
    """Player 0 plays Voice of All and chooses ``color`` as it resolves."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"], "in_play": ["Plains"] * 4},
        {"hand": opp_hand or [], "in_play": opp_play or ["Mountain"] * 2}]})
    s.do("play Voice of All")
    s.resolve()
    s.do(f"choose {color}")
    return s


def test_voice_of_all_choice_is_made_before_it_comes_into_play() -> None:
    """Voice of All: "As Voice of All comes into play, choose a color." The choice replaces how it
    comes into play (2012 614.1c, 614.12): it is asked while the spell is still on the stack,
    among the five colors (2007 glossary "Color": never colorless)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"], "in_play": ["Plains"] * 4}, {}]})
    s.do("play Voice of All")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.CHOOSE_COLOR and d.player == 0
    assert [a.text for a in d.options] == COLOR_OPTIONS
    assert not s.in_play("Voice of All")
    assert [i.label for i in s.game.stack] == ["Voice of All"]
    s.do("choose black")
    assert s.perm("Voice of All").chosen == {"color": "B"}
    assert logged(s, "player 0 chooses black for Voice of All")


def test_voice_of_all_has_protection_from_the_chosen_color() -> None:
    """Voice of All: "Voice of All has protection from the chosen color. (It can't be ...
    targeted ...)" (2007 CR 502.7): with red chosen, the opponent's Shock can't target it."""
    s = voice("red", opp_hand=["Shock"])
    p = s.perm("Voice of All")
    assert "protection_from_red" in p.keywords and "flying" in p.keywords
    s.do("pass")
    s.do("play Shock")
    assert "target Voice of All" not in s.options()
    assert "target player 0" in s.options()


def test_voice_of_all_protection_is_only_from_the_chosen_color() -> None:
    """Voice of All has protection from *the chosen* color only: with green chosen, Shock (red)
    can target it and kills it."""
    s = voice("green", opp_hand=["Shock"])
    assert "protection_from_red" not in s.perm("Voice of All").keywords
    s.do("pass", "play Shock", "target Voice of All")
    s.resolve()
    s.assert_in_play("Voice of All", False)


def test_voice_of_all_prevents_damage_and_blocks_of_the_chosen_color() -> None:
    """Protection from the chosen color: "It can't be blocked, targeted ... by anything of the
    chosen color." With red chosen, the red Raging Goblin can't block it (it can block the Bears)
    and the red Prodigal Pyromancer can't target it."""
    s = Scenario({"turn": 4, "step": "precombat_main", "players": [
        {"in_play": ["Voice of All", "Grizzly Bears"]},
        {"in_play": ["Prodigal Pyromancer", "Raging Goblin"]}]})
    voice_perm = s.perm("Voice of All")
    voice_perm.chosen = {"color": "R"}
    s.game.dirty = True
    assert "protection_from_red" in s.perm("Voice of All").keywords
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    s.do("attack with Voice of All", "attack with Grizzly Bears")
    if s.game.decision.kind is K.DECLARE_ATTACKERS:
        s.do("done")
    s.pass_priority(2)
    assert s.game.decision.kind is K.DECLARE_BLOCKERS
    assert any("Grizzly Bears" in o for o in s.options())  # the red Raging Goblin blocks others
    assert not any("Voice of All" in o for o in s.options())
    s.do("done")
    s.advance_to("postcombat_main")
    s.assert_life(1, 16)
    s.pass_priority(1)
    s.do("activate Prodigal Pyromancer")
    assert "target Voice of All" not in s.options()


def test_voice_of_all_chosen_color_from_a_position_and_json() -> None:
    """The choice is stored on the permanent (not a copiable value): it survives a copy and a
    JSON round trip of the game, and positions may give it."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": [{"card": "Voice of All", "chosen": {"color": "U"}}]}, {}]})
    assert "protection_from_blue" in s.perm("Voice of All").keywords
    g2 = Game.from_json(s.game.to_json())
    assert g2.find_permanent("Voice of All").chosen == {"color": "U"}
    assert "protection_from_blue" in g2.find_permanent("Voice of All").keywords
    g3 = s.game.copy()
    assert g3.find_permanent("Voice of All").chosen == {"color": "U"}


def test_voice_of_all_put_into_play_by_an_effect_chooses_too() -> None:
    """"As Voice of All comes into play, choose a color" applies however it comes into play:
    returned from a graveyard by Beacon of Unrest, its controller chooses before it can be seen
    by anything (its comes-into-play event is sent after the choice)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Beacon of Unrest"], "in_play": ["Swamp"] * 5, "graveyard": ["Voice of All"]},
        {"in_play": ["Mountain"] * 2}]})
    s.do("play Beacon of Unrest", "target Voice of All")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_COLOR and s.game.decision.player == 0
    s.do("choose white")
    assert "protection_from_white" in s.perm("Voice of All").keywords
    assert s.game.decision.kind is K.PRIORITY


def test_clone_copying_voice_of_all_makes_its_own_choice() -> None:
    """2012 706.6: "any choices that have been made for that permanent aren't copied. Instead, if
    an object comes into play as a copy of another permanent, the object's controller will get to
    make any 'as [this] comes into play' choices for it." Clone copying a Voice of All (red) asks
    its controller for a color; the copy has protection from that color only."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Clone"], "in_play": ["Island"] * 4},
        {"in_play": [{"card": "Voice of All", "chosen": {"color": "R"}}]}]})
    s.do("play Clone")
    s.resolve()
    s.do("copy Voice of All")
    assert s.game.decision.kind is K.CHOOSE_COLOR
    s.do("choose green")
    clone = s.perm("Clone")
    assert clone.chosen == {"color": "G"}
    assert "protection_from_green" in clone.keywords
    assert "protection_from_red" not in clone.keywords


# -- Story Circle -------------------------------------------------------------------------------
def circle(color: str = "R", opp: dict | None = None, mine: list[str] | None = None) -> Scenario:
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"in_play": [{"card": "Story Circle", "chosen": {"color": color}}, "Plains", "Plains",
                     *(mine or [])]},
        opp or {"hand": ["Shock"], "in_play": ["Mountain", "Mountain", "Prodigal Pyromancer",
                                                "Llanowar Elves"]}]})
    return s


def test_story_circle_chooses_a_color_as_it_comes_into_play() -> None:
    """Story Circle: "As Story Circle comes into play, choose a color." (2012 614.12)"""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Story Circle"], "in_play": ["Plains"] * 3}, {}]})
    s.do("play Story Circle")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_COLOR
    s.do("choose red")
    assert s.perm("Story Circle").chosen == {"color": "R"}


def test_story_circle_prevents_a_chosen_spells_damage() -> None:
    """Story Circle: "{W}: The next time a source of your choice of the chosen color would deal
    damage to you this turn, prevent that damage." The source is chosen on resolution; a spell on
    the stack is a source (2012 609.7a): player 0 answers Shock with the ability, chooses the
    Shock, and takes no damage."""
    s = circle()
    s.do("play Shock", "target player 0", "pass")
    s.do("activate Story Circle")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS and d.player == 0
    assert set(s.options()) == {"source spell Shock", "source Prodigal Pyromancer"}
    s.do("source spell Shock")
    s.resolve()
    s.assert_life(0, 20)
    assert logged(s, "damage to player 0 is prevented")
    assert not s.game.replacements


def test_story_circle_only_offers_sources_of_the_chosen_color() -> None:
    """"a source of your choice of the chosen color": with green chosen, only the green Llanowar
    Elves is offered, not the red Shock or Prodigal Pyromancer; the Shock then deals its damage."""
    s = circle("G")
    s.do("play Shock", "target player 0", "pass", "activate Story Circle")
    s.resolve()
    assert s.options() == ["source Llanowar Elves"]
    s.do("source Llanowar Elves")
    s.resolve()
    s.assert_life(0, 18)


def test_story_circle_prevents_only_the_next_time() -> None:
    """"The next time a source ... would deal damage to you this turn, prevent that damage": the
    shield is used up by the first damage of that source (2007 CR 419.7); the Pyromancer's second
    ping (untapped by hand in the test) is dealt."""
    s = circle()
    s.do("pass", "activate Story Circle")
    s.resolve()
    s.do("source Prodigal Pyromancer")
    assert s.game.decision.player == 1
    s.do("activate Prodigal Pyromancer", "target player 0")
    s.perm("Prodigal Pyromancer").tapped = False  # a second ping this turn (set up by hand)
    s.resolve()
    s.assert_life(0, 20)
    assert not s.game.replacements
    s.do("activate Prodigal Pyromancer", "target player 0")
    s.resolve()
    s.assert_life(0, 19)


def test_story_circle_protects_only_you() -> None:
    """"would deal damage to you": the chosen source's damage to a creature of yours is dealt,
    and the shield stays for damage to you."""
    s = circle(mine=["Grizzly Bears"])
    s.do("pass", "activate Story Circle")
    s.resolve()
    s.do("source Prodigal Pyromancer")
    s.do("activate Prodigal Pyromancer", "target Grizzly Bears")
    s.resolve()
    s.assert_damage("Grizzly Bears", 1)
    assert len(s.game.replacements) == 1


def test_story_circle_shield_lasts_this_turn_only() -> None:
    """"this turn": the unused shield ends in the cleanup step (2012 514.2)."""
    s = circle()
    s.do("pass", "activate Story Circle")
    s.resolve()
    s.do("source Prodigal Pyromancer")
    assert s.game.replacements
    s.advance_to("upkeep", active=0)
    assert not s.game.replacements


def test_story_circle_with_no_source_of_the_color_does_nothing() -> None:
    """With no source of the chosen color (blue), nothing can be chosen: no shield is made."""
    s = circle("U")
    s.do("pass", "activate Story Circle")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    assert not s.game.replacements
    assert logged(s, "there is no blue source to choose")


# -- HeuristicAgent on these decisions --------------------------------------------------------------
def test_heuristic_chooses_the_opponents_main_color() -> None:
    """The heuristic agent's "choose a color" for Voice of All: the color most common among the
    opponent's permanents (two red creatures against one green one: red)."""
    from agents.heuristic import HeuristicAgent

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"], "in_play": ["Plains"] * 4},
        {"in_play": ["Prodigal Pyromancer", "Raging Goblin", "Llanowar Elves", "Forest"]}]})
    s.do("play Voice of All")
    s.resolve()
    agent = HeuristicAgent(strict=True)
    agent.reset(0, 0)
    assert agent.act(s.game.view(0)).text == "choose red"


def test_heuristic_uses_story_circle_against_a_spell_aimed_at_it() -> None:
    """The heuristic agent activates Story Circle (red chosen) in answer to a Shock aimed at it
    and chooses the Shock as the source."""
    from agents.heuristic import HeuristicAgent

    s = circle()
    s.do("play Shock", "target player 0", "pass")
    agent = HeuristicAgent(strict=True)
    agent.reset(0, 0)
    assert agent.act(s.game.view(0)).text == "activate Story Circle"
    s.do("activate Story Circle")
    s.resolve()
    assert agent.act(s.game.view(0)).text == "source spell Shock"


# -- Abundance ----------------------------------------------------------------------------------
ABUNDANCE_TEXT_NOTE = "Abundance"
DIG_LAND = "Abundance: reveal until a land card"
DIG_NONLAND = "Abundance: reveal until a nonland card"


def abundance(library: list[str], opp: dict | None = None, step: str = "upkeep",
              hand_cards: list[str] | None = None, lands: int = 0) -> Scenario:
    return Scenario({"turn": 3, "step": step, "players": [
        {"in_play": ["Abundance", *(["Island"] * lands)], "library": library,
         "hand": hand_cards or []},
        opp or {"library": ["Mountain"] * 3}]})


def libnames(s: Scenario, pl: int = 0) -> list[str]:
    return [c.label for c in s.game.players[pl].library]


def test_abundance_replaces_the_draw_step_draw() -> None:
    """Abundance: "If you would draw a card, you may instead choose land or nonland and reveal
    cards from the top of your library until you reveal a card of the chosen kind. Put that card
    into your hand and put all other cards revealed this way on the bottom of your library in any
    order." The draw step's draw is replaced (2007 CR 419.1): nonland chosen, the two lands on top
    are revealed and go to the bottom in the order the player chooses (first chosen highest)."""
    s = abundance(["Forest", "Island", "Grizzly Bears", "Swamp"])
    s.pass_priority(2)
    d = s.game.decision
    assert d.kind is K.MODE and d.player == 0
    assert s.options() == [DIG_LAND, DIG_NONLAND, "draw the card"]
    s.do(DIG_NONLAND)
    assert hand(s, 0) == ["Grizzly Bears"]
    assert s.game.decision.kind is K.CHOOSE_CARDS
    s.do("put on the bottom Island", "put on the bottom Forest")
    assert libnames(s) == ["Swamp", "Island", "Forest"]
    assert logged(s, "player 0 reveals Forest, Island, Grizzly Bears")
    assert s.game.step == "draw" and s.game.decision.kind is K.PRIORITY


def test_abundance_land_choice() -> None:
    """"choose land or nonland": land chosen, cards are revealed until the first land."""
    s = abundance(["Grizzly Bears", "Grizzly Bears", "Forest", "Giant Growth"])
    s.pass_priority(2)
    s.do(DIG_LAND)
    assert hand(s, 0) == ["Forest"]
    # The two revealed Grizzly Bears share a name: their order can't matter, nothing is asked.
    assert s.game.decision.kind is K.PRIORITY
    assert [c.name for c in s.game.players[0].library] == ["Giant Growth", "Grizzly Bears",
                                                            "Grizzly Bears"]


def test_abundance_is_optional() -> None:
    """"you may instead": declining, the player draws the card normally."""
    s = abundance(["Forest", "Grizzly Bears"])
    s.pass_priority(2)
    s.do("draw the card")
    assert hand(s, 0) == ["Forest"]
    assert libnames(s) == ["Grizzly Bears"]


def test_abundance_replaced_draw_is_not_a_draw() -> None:
    """The card's ruling: "This replacement effect replaces the draw, so nothing that triggers on
    a draw will trigger": the opponent's Underworld Dreams ("Whenever an opponent draws a card,
    Underworld Dreams deals 1 damage to that player") doesn't trigger; a declined one does."""
    opp = {"in_play": ["Underworld Dreams"], "library": ["Mountain"] * 3}
    s = abundance(["Forest", "Grizzly Bears", "Forest"], opp=opp)
    s.pass_priority(2)
    s.do(DIG_NONLAND)
    s.advance_to("precombat_main")
    s.assert_life(0, 20)
    s2 = abundance(["Forest", "Grizzly Bears", "Forest"], opp=opp)
    s2.pass_priority(2)
    s2.do("draw the card")
    s2.resolve_all()
    s2.assert_life(0, 19)


def test_abundance_each_card_of_a_multi_card_draw_separately() -> None:
    """The card's ruling: "If you use this on a multi-card draw, each replaced draw is handled
    separately" (2012 120.2): Counsel of the Soratami ("Draw two cards.") asks twice; the first
    draw is replaced, the second drawn normally."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Abundance", "Island", "Island", "Island"], "hand": ["Counsel of the Soratami"],
         "library": ["Forest", "Grizzly Bears", "Island", "Swamp"]}, {}]})
    s.do("play Counsel of the Soratami")
    s.resolve()
    s.do(DIG_NONLAND)
    assert s.game.decision.kind is K.MODE  # the second draw: the Forest went to the bottom
    assert [c.name for c in s.game.players[0].library] == ["Island", "Swamp", "Forest"]
    s.do("draw the card")
    assert sorted(hand(s, 0)) == ["Grizzly Bears", "Island"]
    assert s.game.decision.kind is K.PRIORITY and not s.game.stack


def test_abundance_with_an_empty_library_does_not_lose() -> None:
    """The card's ruling: "If your library is empty, Abundance can prevent you from losing the
    game for being unable to draw a card" (it puts a card into your hand instead of drawing)."""
    s = abundance([])
    s.pass_priority(2)
    s.do(DIG_LAND)
    assert logged(s, "player 0 reveals no land card")
    s.advance_to("precombat_main")
    assert not s.game.is_over
    assert not s.game.players[0].drew_from_empty


def test_abundance_nothing_of_the_kind_orders_the_whole_library() -> None:
    """The card's ruling: "If no card of the chosen type is found before your library empties,
    you don't get a card, but you do get to order all the cards in your library"."""
    s = abundance(["Forest", "Island", "Swamp"])
    s.pass_priority(2)
    s.do(DIG_NONLAND)
    assert hand(s, 0) == []
    s.do("put on the bottom Swamp", "put on the bottom Forest", "put on the bottom Island")
    assert libnames(s) == ["Swamp", "Forest", "Island"]


def test_abundance_only_replaces_your_draws() -> None:
    """"If *you* would draw a card": the opponent's draw step draw is not replaced."""
    s = Scenario({"turn": 3, "step": "upkeep", "active_player": 1, "players": [
        {"in_play": ["Abundance"], "library": ["Forest"] * 3},
        {"library": ["Mountain", "Grizzly Bears"]}]})
    s.pass_priority(2)
    assert s.game.decision.kind is K.PRIORITY
    assert hand(s, 1) == ["Mountain"]


def test_abundance_declined_lets_plagiarize_apply() -> None:
    """Two effects would replace player 0's draw: Abundance and player 1's Plagiarize (2012
    616.1: the affected player chooses). Declining Abundance, Plagiarize applies: player 1 draws
    instead; choosing Abundance, player 0 gets the card and Plagiarize has nothing to replace."""
    def setup() -> Scenario:
        s = Scenario({"turn": 3, "step": "upkeep", "players": [
            {"in_play": ["Abundance"], "library": ["Forest", "Grizzly Bears"]},
            {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": ["Mountain"] * 2}]})
        s.do("pass", "play Plagiarize", "target player 0")
        s.resolve()
        s.pass_priority(2)
        assert s.game.decision.kind is K.MODE
        return s

    s = setup()
    s.do("draw the card")
    assert hand(s, 0) == [] and hand(s, 1) == ["Mountain"]
    s = setup()
    s.do(DIG_NONLAND)
    assert hand(s, 0) == ["Grizzly Bears"] and hand(s, 1) == []


def test_heuristic_abundance_choice() -> None:
    """The heuristic agent asks Abundance for a land while short of lands, else a nonland."""
    from agents.heuristic import HeuristicAgent

    agent = HeuristicAgent(strict=True)
    agent.reset(0, 0)
    s = abundance(["Forest", "Grizzly Bears"], lands=1)
    s.pass_priority(2)
    assert agent.act(s.game.view(0)).text == DIG_LAND
    s = abundance(["Forest", "Grizzly Bears"], lands=5)
    s.pass_priority(2)
    assert agent.act(s.game.view(0)).text == DIG_NONLAND
