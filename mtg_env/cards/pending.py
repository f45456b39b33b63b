"""Why each Tenth Edition card that the engine lacks is not implemented yet.

``PENDING`` maps a card name to the engine mechanism it waits for. ``mtg-env cards --missing``
prints it, and a test keeps it exact: every unimplemented card has a reason, and no implemented
card keeps one. Rule numbers are 2007 CR where known, else 2012 CR.
"""

from __future__ import annotations

_ANIMATE = "animation of a noncreature permanent with a granted ability (layers 4, 5, 6b)"
_TURN = "turn structure: extra phases, extra turns, ending the turn (2012 500.7-500.8, 713)"

PENDING: dict[str, str] = {
    # Type-changing and animation.
    "Chimeric Staff": "{X}: becomes an X/X artifact creature: animation with a variable P/T (layers 4, 6b)",
    "Forbidding Watchtower": "creature land: comes into play tapped and animates (layers 4, 5, 6b)",
    "Ghitu Encampment": "creature land: comes into play tapped and animates (layers 4, 5, 6b)",
    "Spawning Pool": _ANIMATE,
    "March of the Machines": "global type change of artifacts with P/T = converted mana cost (layers 4, 6b)",
    # Replacement effects on more than damage and destruction.
    "Abundance": "optional draw replacement with a choice and reveal-until (2007 CR 419)",
    "Kjeldoran Royal Guard": "redirection of unblocked creatures' combat damage created by an activation",
    "Legacy Weapon": "replacement of every move to a graveyard from any zone (2007 CR 419)",
    "Plagiarize": "draw replacement on another player's draws until end of turn",
    "Story Circle": "as-comes-into-play color choice plus a prevention shield for a chosen source",
    # Legality of a whole combat declaration.
    "Lure": "blocking requirements checked over the whole declaration (2007 CR 309, 2012 509.1c)",
    "Rhox": "assign combat damage as though it weren't blocked (2012 510.1c)",
    "Viashino Runner": "can't be blocked except by two or more creatures: legality of the whole declaration",
    "Windborn Muse": "costs to attack paid during the declaration (2012 508.1d-h)",
    # Intervening-if triggers.
    "Howling Mine": "intervening-if trigger at the beginning of each draw step (2007 CR 410.11)",
    "Lavaborn Muse": "intervening-if trigger on hand size (2007 CR 410.11)",
    "Mortal Combat": "intervening-if trigger and winning the game by an effect",
    "Phage the Untouchable": "history of how a permanent came into play and losing the game by an effect",
    # Costs paid on resolution.
    "Hidden Horror": "'sacrifice it unless you discard a creature card': a cost paid on resolution",
    "Llanowar Sentinel": "'you may pay {1}{G}': an optional payment on resolution",
    "Razormane Masticore": "'sacrifice it unless you discard a card' and a draw-step trigger",
    "Spiketail Hatchling": "'counter unless its controller pays {1}': another player pays on resolution",
    # Granted abilities.
    "Joiner Adept": "mana abilities granted to lands, seen by the automatic payer (layer 5)",
    "Overgrowth": "triggered mana ability of an enchanted land (2007 CR 406.1b)",
    # Turn structure.
    "Relentless Assault": _TURN,
    "Time Stop": _TURN,
    "Time Stretch": _TURN,
    # Variable number of targets.
    "Cephalid Constable": "up to N targets where N is the damage dealt",
    "Hail of Arrows": "damage divided among any number of targets on announcement (2007 CR 409.1d)",
    "Midnight Ritual": "X targets in a graveyard and X tokens",
    # Abilities that work outside play.
    "Crucible of Worlds": "playing lands from the graveyard",
    "Guerrilla Tactics": "a trigger from being discarded by an opponent's spell or ability",
    "Squee, Goblin Nabob": "a triggered ability that works from the graveyard",
    # Copies, costs, choices, history, the stack.
    "Sculpting Steel": "copy of an artifact as it comes into play (layer 1, 2007 CR 503)",
    "Aura of Silence": "cost increase for opponents' spells, seen by affordability and the payer",
    "Avatar of Might": "cost reduction with a condition",
    "Pithing Needle": "naming a card as it comes into play (a decision with hundreds of options)",
    "Voice of All": "choosing a color as it comes into play",
    "No Rest for the Wicked": "history of cards put into a graveyard this turn",
    "Sengir Vampire": "history of creatures dealt damage this turn",
    "Shunt": "changing the target of a spell on the stack",
    "Twincast": "copying a spell on the stack (a copy that is not a card)",
    "Fog Elemental": "delayed triggers created by an ability ('at end of combat, sacrifice it')",
    "Rootwater Matriarch": "an effect that lasts 'for as long as' a condition holds",
    "Mind Bend": "text-changing effects (layer 3, 2007 CR 418.5c)",
    "Warp World": "mass simultaneous zone change with Auras choosing what to enchant",
}
