"""The game: a state machine driven from outside (docs/ARCHITECTURE.md).

The engine never calls a player. It runs game actions, state-based effects and triggers until a
player must choose, then stops with a :class:`Decision` listing every legal option;
:meth:`Game.apply` takes one option and runs to the next decision.

Procedures that need several choices (playing a spell, declaring attackers, dividing combat
damage, resolving an effect that asks for a card) are *frames* on ``self.frames`` holding where
they are: typed values of plain data (:mod:`mtg_env.engine.frames`, ``frames_effects``,
``frames_choice``), so ``copy()`` and ``to_json()`` need no generators or closures.
``_RUN_FRAME`` and ``_ANSWER_FRAME`` (below) say which method runs a frame of each class and which
takes the answer to its decision.

Rule numbers in comments are 2007 CR numbers where known, else 2012 CR numbers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from .actions import Action, Decision, DecisionKind
from .casting import answer_cast, run_cast
from .choices import answer_choose, answer_pay, answer_yesno, run_choose, run_pay, run_shuffle, run_yesno
from .combat import answer_attack, answer_block, run_attack, run_block
from .combat_damage import answer_assign, run_assign
from .deck import Deck
from .enter_choices import answer_enter_choice, run_enter_choice
from .errors import IllegalActionError, MtgError
from .frames import (
    AssignFrame,
    AttackFrame,
    BlockFrame,
    CastFrame,
    CleanupFrame,
    MulliganFrame,
    PayFrame,
    PutFrame,
    ResolveFrame,
    RetargetFrame,
    ShuffleFrame,
    YesNoFrame,
)
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, EnterChoiceFrame, EnterTogetherFrame, OrderReplFrame, TextChangeFrame
from .knowledge import known_cards
from .layers import answer_text_change, fresh, run_text_change
from .leaving_the_game import players_lose
from .model import (
    COLORS,
    Card,
    CardDef,
    Permanent,
    Player,
)
from .multiplayer_cards import not_multiplayer_ready
from .priority import answer_priority
from .registry import get_card
from .replacement import answer_draws, answer_order_repl, run_draws, run_order_repl
from .rng import Rng
from .seating import (
    ATTACK_OPTIONS,
    EMPEROR_RANGES,
    MAX_PLAYERS,
    TEAM_SIZE,
    TEAM_SIZES,
    TWO_HEADED_GIANT_LIFE,
    VARIANTS,
    compute_influence,
    enter_table,
    opponents,
    players_in_game,
    team_of,
    teams,
    turn_order_from,
)
from .stack import answer_retarget, run_resolve, run_retarget
from .state import GameState, copy_state, init_state
from .triggers import answer_put, run_put, watch_zone_triggers
from .turn_structure import STEPS, answer_mulligan, next_to_keep, run_cleanup, run_mulligan, turn_flow
from .zones import answer_enter_together, draw_cards, run_enter_together

if TYPE_CHECKING:
    from .view import PlayerView

K = DecisionKind


def _seat(value: object, n: int, what: str) -> int | None:
    """``value`` as a seat (0 to ``n - 1``) or None; :class:`MtgError` for anything else."""
    if value is None:
        return None
    try:
        seat = -1 if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # not an integer (numpy's integers are)
        seat = -1
    if not 0 <= seat < n:
        seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
        raise MtgError(f"{what} must be a seat, {seats}, or None, got {value!r:.40}")
    return seat


def _variant_options(n: int, variant: object, options: object) -> tuple[str, str, int]:
    """The variant, attack option and limited range of influence (0: none) of a game of ``n``
    players (:meth:`Game.new`)."""
    if variant is None:
        variant = "two_player" if n == 2 else "free_for_all"
    if variant not in VARIANTS:
        raise MtgError(f"unknown variant {variant!r:.40}: the engine plays "
                       + ", ".join(VARIANTS))
    if variant == "two_player" and n != 2:
        raise MtgError(f"a two_player game needs two decks, got {n}")
    if variant == "free_for_all" and n < 3:
        raise MtgError(f"a free_for_all game needs 3 to {MAX_PLAYERS} decks, got {n}")
    if variant == "emperor" and n != 6:
        raise MtgError(f"an emperor game needs six decks (two teams of three: seats 0-2 against "
                       f"3-5, the emperors in seats 1 and 4), got {n}")
    if variant == "two_headed_giant" and n != 4:
        raise MtgError(f"a two_headed_giant game needs four decks (two teams of two: seats 0 "
                       f"and 1 against 2 and 3), got {n}")
    opts = {} if options is None else options
    if not isinstance(opts, dict):
        raise MtgError(f"options must be a mapping, got {type(opts).__name__}")
    unknown = set(opts) - {"attack", "range"}
    if unknown:
        raise MtgError(f"unknown game option(s) {sorted(map(str, unknown))}: the options are "
                       "'attack' and 'range' (Free-for-All)")
    attack = opts.get("attack")
    reach = opts.get("range")
    if variant == "emperor":
        if attack is not None or reach is not None:
            raise MtgError("Emperor fixes its options: whom a player may attack (an opponent "
                           "seated next to them) and the ranges of influence (2012 809.3)")
        return variant, "multiple", 0
    if variant in ("two_player", "two_headed_giant"):
        if attack is not None or reach is not None:
            raise MtgError(f"the {'attack' if attack is not None else 'range'} option is for "
                           "multiplayer Free-for-All games (a two-player game has one opponent; "
                           "Two-Headed Giant teams attack each other, 2012 810.7)")
        return variant, "", 0
    if attack is None:
        attack = "left"
    if attack not in ATTACK_OPTIONS:
        raise MtgError(f"unknown attack option {attack!r:.40}: left, right or multiple")
    if reach is None:
        reach = 0
    elif isinstance(reach, bool) or not isinstance(reach, int) or not 1 <= reach <= n // 2:
        raise MtgError(f"the range option (limited range of influence, 2012 801) is a number of "
                       f"seats from 1 to {n // 2} at a table of {n}, got {reach!r:.40}")
    return variant, str(attack), reach


# A plain Python class when compiled (mtg_env/engine/compiled.py): see GameState.
@mypyc_attr(native_class=False)
class Game(GameState):
    """A game of Magic under the Tenth Edition (2007) rules: two players, or a multiplayer
    Free-for-All (:meth:`new`).

    Create one with :meth:`new`, :meth:`from_position` or :meth:`from_json`; read
    :attr:`decision`; advance with :meth:`apply`.
    """

    def __init__(self) -> None:
        init_state(self)  # every field is declared in mtg_env/engine/state.py

    @classmethod
    def new(cls, decks: Sequence[Any], seed: int = 0, starting_player: object = None,
            manual_mana: bool = False, skip_trivial: bool = False,
            max_turns: int | None = None, max_decisions: int | None = None,
            goldfish: object = None, variant: object = None, options: object = None) -> Game:
        """Start a game between two decks (or more: a multiplayer game): ``Deck`` objects,
        built-in deck names (``"starter_green"``) or lists of card names, one per seat, in
        turn order.

        ``variant``: ``"two_player"`` (two decks, the default for two) or ``"free_for_all"``
        (3 to 6 decks, the default for more; 2012 806), with ``options={"attack": "left"}``
        (the default), ``"right"`` (2012 803: only the nearest opponent on that side may be
        attacked) or ``"multiple"`` (802: each attacking creature attacks any one opponent,
        each of whom declares blockers for their own attackers); ``"range": N`` adds the
        limited range of influence option (2012 801: a player affects, targets, attacks and
        sees only the players within N seats, counted as each turn begins). Or
        ``"two_headed_giant"`` (four decks, seats 0 and 1 against 2 and 3; 2012 810). A
        multiplayer game goes on after a player loses, until one player or team remains (2012
        800.4); the first mulligan is free (800.5) and the starting player draws on their first
        turn (800.6; in Two-Headed Giant the first team skips its draw, 810.6).

        One seeded RNG drives every shuffle and random choice. With ``starting_player=None`` a
        seeded coin flip (a die roll among more players) decides who plays first (2007 CR
        101.2). ``max_turns`` and
        ``max_decisions`` end a runaway game as a draw (``end_reason`` says which).

        ``goldfish`` (a seat, for deck testing) suspends two state-based effects for that
        player: losing for 0 or less life (2007 CR 420.5a) and for drawing from an empty
        library (420.5g). Its life may go below 0 and the game goes on; ``goldfish_dead_turn``
        records the turn its life was first seen at 0 or less.
        """
        # The parameters a user's value reaches unchecked are typed ``object`` and checked here:
        # compiled (mypyc) code would refuse a wrong type with a bare TypeError.
        if (isinstance(decks, (str, bytes)) or not hasattr(decks, "__len__")
                or not 2 <= len(decks) <= MAX_PLAYERS):
            raise MtgError(f"a game needs a list of 2 to {MAX_PLAYERS} decks, got {decks!r:.80}")
        n = len(decks)
        variant_name, attack, reach = _variant_options(n, variant, options)
        goldfish_seat = _seat(goldfish, n, "goldfish")
        first = _seat(starting_player, n, "starting_player")
        names_per_player = [_deck_card_names(deck, i) for i, deck in enumerate(decks)]
        if n > 2:
            unready = not_multiplayer_ready(
                get_card(name) for names in names_per_player for name in set(names))
            if unready:
                raise MtgError("not implemented for multiplayer games yet (these cards read "
                               "'opponent' as one player): " + ", ".join(unready))
        g = cls()
        if n > 2:
            g.players = [Player(i) for i in range(n)]
        g.variant = variant_name
        g.attack_option = attack
        if reach:
            g.ranges = (reach,) * n
        elif variant_name == "emperor":
            g.ranges = EMPEROR_RANGES  # 2012 809.3a
        if g.ranges:
            g.influence = compute_influence(g)
        g.rng = Rng(seed)
        g.manual_mana = manual_mana
        g.skip_trivial = skip_trivial
        g.max_turns = max_turns
        g.max_decisions = max_decisions
        g.goldfish = goldfish_seat
        for pl, names in enumerate(names_per_player):
            for name in names:
                card = g.new_card(get_card(name), pl)
                g.players[pl].library.append(card)
        for P in g.players:
            g.rng.shuffle(P.library)
        if variant_name == "two_headed_giant":
            for P in g.players:
                P.life = TWO_HEADED_GIANT_LIFE
        if first is None and variant_name == "emperor":
            first = (1, 4)[g.rng.below(2)]  # 2012 809.4: a random emperor goes first
            g.write_log(f"die roll: player {first}, an emperor, plays first")
        if first is None:
            first = g.rng.below(n)
            g.write_log(f"{'coin flip' if n == 2 else 'die roll'}: player {first} plays first")
        if variant_name == "two_headed_giant":
            first = teams(g)[team_of(g, first)][0]  # the team plays first (shared turns)
        g.starting_player = first
        g.active = first
        for pl in turn_order_from(g, first):
            draw_cards(g, pl, 7)
        # 2007 CR 101.4: the starting player takes all their mulligans first.
        g.frames.append(MulliganFrame(first))
        g.run_to_decision()
        return g

    def new_card(self, cdef: CardDef, owner: int) -> Card:
        """A new card object of ``cdef`` owned by ``owner`` (a deck card or a token's card), with
        its id and its label (``Grizzly Bears#2`` for the second of a name)."""
        n = self.label_counts.get(cdef.name, 0) + 1
        self.label_counts[cdef.name] = n
        label = cdef.name if n == 1 else f"{cdef.name}#{n}"
        card = Card(self.next_id, cdef, owner, label)
        self.next_id += 1
        self.cards[card.cid] = card
        if cdef.zone_triggered:
            self.zone_watch = watch_zone_triggers(self.zone_watch, card)
        return card

    @property
    def permanents(self) -> list[Permanent]:
        """Every permanent in play, characteristics up to date."""
        fresh(self)
        return list(self.perms.values())

    def legal_actions(self) -> list[Action]:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.decision.options) if self.decision else []

    def apply(self, action: object) -> None:
        """Take one option of the pending decision, given as an Action or its exact text.

        Raises :class:`IllegalActionError` (listing what is legal) for anything else; the
        state is then unchanged.
        """
        d = self.decision
        if d is None:
            raise IllegalActionError("the game is over: no decision is pending")
        if not isinstance(action, (Action, str)):
            raise IllegalActionError(
                f"apply() takes an Action of the pending decision or its exact text, "
                f"not {type(action).__name__} {action!r:.60}")
        chosen = None
        if isinstance(action, str):
            text = action
            chosen = d.find(text)
        else:
            text = action.text
            for o in d.options:  # agents usually hand back the very object offered
                if o is action:
                    chosen = o
                    break
            else:
                chosen = d.find(text)
                if chosen is not None and chosen != action:
                    chosen = None
        if chosen is None:
            legal = ", ".join(repr(a.text) for a in d.options)
            raise IllegalActionError(
                f"{text!r} is not a legal option for player {d.player}'s {d.kind.value} "
                f"decision ({d.prompt}); legal: {legal}")
        self.decisions_made += 1
        self.decision = None
        if TEAM_SIZE[0] != 1 or self.variant != "two_player":  # cheap in a two-player run
            enter_table(self)
        self._answer(d, chosen)
        self.run_to_decision()
        if self.max_decisions is not None and self.decisions_made >= self.max_decisions:
            self.write_log(f"decision limit {self.max_decisions} reached")
            self.end_game(list(players_in_game(self)), "decision limit")

    def log_for(self, player: int | None) -> list[str]:
        """The log as ``player`` reads it: the public :attr:`log` with the lines only that player
        may read put in (their own draws name the cards). ``None``: the public log."""
        log = list(self.log)
        if player is not None:
            for i, pl, text in self.private_log:
                if pl == player:
                    log[i] = text
        return log

    def concede(self, player: int) -> None:
        """Player concedes (CR 102.3a): they lose at once; in a multiplayer game they leave it
        and the others play on (2012 800.4)."""
        if self.is_over or self.players[player].lost:
            return
        self.players[player].conceded = True
        self.write_log(f"player {player} concedes")
        players_lose(self, [player], "concession")
        if not self.is_over and self.decision is not None and self.decision.player == player:
            # Their pending decision goes with them: the game goes on from where it stood
            # (a mulligan: the next player decides; priority: leave_game passed it on; a
            # declaration or choice in progress: made with nothing chosen).
            self.decision = None
            top = self.frames[-1] if self.frames else None
            if isinstance(top, MulliganFrame):
                next_to_keep(self, top)
            elif top is not None and getattr(top, "player", None) == player:
                self.frames.pop()
            self.run_to_decision()

    def view(self, player: int) -> PlayerView:
        """The redacted view of the game for ``player`` (see :mod:`mtg_env.engine.view`)."""
        from .view import view_for
        return view_for(self, player)

    @property
    def active_player(self) -> int:
        return self.active

    @property
    def priority_player(self) -> int | None:
        return self.prio if self.prio >= 0 else None

    def copy(self) -> Game:
        """An independent copy: flat data, no deepcopy (for search agents)."""
        g = Game.__new__(Game)
        copy_state(self, g)
        return g

    def determinize(self, player: int, seed: int) -> Game:
        """A copy in which what ``player`` can't see is resampled: each opponent's hand and
        library are reshuffled together (same sizes), and every library's order is shuffled.

        Search agents (information-set MCTS) plan on such copies; the deck lists are treated
        as known, the opponent's hand and every library order as hidden, except what ``player``
        knows (:func:`~mtg_env.engine.knowledge.known_cards`: cards revealed to them or that they
        looked at, an opponent playing with their hand revealed), which stays where it is.
        """
        g = self.copy()
        rng = Rng(seed)
        known = known_cards(g, player)
        for o in opponents(g, player):
            opp = g.players[o]
            in_hand = {c.cid for c in opp.hand}
            if any(c[0] == "h" and c[1] in in_hand
                   for f in g.frames if isinstance(f, ChooseFrame) for c in f.candidates):
                known |= in_hand  # being looked at right now (Thrull Surgeon): it is known
            hand_free = [i for i, c in enumerate(opp.hand) if c.cid not in known]
            lib_free = [i for i, c in enumerate(opp.library) if c.cid not in known]
            pool = [opp.hand[i] for i in hand_free] + [opp.library[i] for i in lib_free]
            rng.shuffle(pool)
            it = iter(pool)
            for i in hand_free:
                opp.hand[i] = next(it)
            for i in lib_free:
                opp.library[i] = next(it)
        own = g.players[player].library
        free = [i for i, c in enumerate(own) if c.cid not in known]
        cards = [own[i] for i in free]
        rng.shuffle(cards)
        for i, c in zip(free, cards, strict=True):
            own[i] = c
        return g

    def to_json(self) -> str:
        from .serialize import game_to_json
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: Any) -> Game:
        """The game a :meth:`to_json` text stores (:class:`~mtg_env.engine.errors.MtgError`
        naming what is wrong for anything else)."""
        from .serialize import game_from_json
        return game_from_json(text)

    @classmethod
    def from_position(cls, data: Any, **options: Any) -> Game:
        """A game set up from a position mapping (``docs/rules.md``, "Positions")."""
        from .position import game_from_position
        return game_from_position(data, **options)

    @classmethod
    def load_position(cls, path: Any, **options: Any) -> Game:
        """A game set up from a YAML or JSON position file (a path)."""
        from .position import load_position
        return load_position(path, **options)

    def perm(self, pid: int) -> Permanent | None:
        return self.perms.get(pid)

    def find_permanent(self, label: str) -> Permanent:
        """The permanent in play with this label (``Grizzly Bears`` or ``Grizzly Bears#2``)."""
        fresh(self)
        for p in self.perms.values():
            if p.card.label == label:
                return p
        raise KeyError(f"no permanent labelled {label!r} in play")

    def __repr__(self) -> str:
        return (f"<Game turn={self.turn} step={self.step} active={self.active} "
                f"life={self.players[0].life}/{self.players[1].life}>")

    def run_to_decision(self) -> None:
        """Run the game (the innermost frame's procedure, else the turn structure) until a
        player must decide or the game is over; with ``skip_trivial``, a decision with one
        option is answered with it and the game runs on. :meth:`apply` ends with it; a game
        built some other way (a position, ``position.py``) starts with it."""
        if TEAM_SIZE[0] != 1 or self.variant != "two_player":
            enter_table(self)
        while True:
            while self.decision is None and not self.is_over:
                if self.frames:
                    f = self.frames[-1]
                    _RUN_FRAME[type(f)](self, f)
                else:
                    turn_flow(self)
            d = self.decision
            if d is None or not self.skip_trivial or len(d.options) != 1:
                return
            self.auto_applied += 1
            self.decisions_made += 1
            self.decision = None
            self._answer(d, d.options[0])

    def ask(self, player: int, kind: DecisionKind, options: list[Action], prompt: str,
            context: dict[str, Any] | None = None) -> None:
        """Stop the run with a decision of ``player`` (the rules modules' one way to ask)."""
        self.decision = Decision(player, kind, options, prompt, context)

    def _answer(self, d: Decision, a: Action) -> None:
        if self.frames:
            f = self.frames[-1]
            _ANSWER_FRAME[type(f)](self, f, a)
        else:
            answer_priority(self, d.player, a)

    def write_log(self, text: str) -> None:
        """Append one line to the public game log (:attr:`log`)."""
        self.log.append(text)

    def end_game(self, losers: list[int], reason: str) -> None:
        """End the game: ``losers`` lose; the one player still in the game besides them wins
        (none, or several: a draw); ``reason`` goes to :attr:`end_reason`."""
        if self.is_over:
            return
        self.is_over = True
        self.decision = None
        self.frames.clear()
        self.end_reason = reason
        remaining = [pl for pl in players_in_game(self) if pl not in losers]
        if self.variant in TEAM_SIZES:
            # 2012 809.5, 810.8a: a team wins together.
            gone = {team_of(self, pl) for pl in losers}
            remaining = sorted({team_of(self, pl) for pl in remaining} - gone)
            if len(remaining) == 1:
                self.winner = teams(self)[remaining[0]][0]
                self.write_log(f"game over: the team of players "
                               f"{' and '.join(map(str, teams(self)[remaining[0]]))} wins "
                               f"({reason})")
                return
            remaining = []
        if len(remaining) != 1:
            self.winner = None
            self.write_log(f"game over: draw ({reason})")
        else:
            self.winner = remaining[0]
            self.write_log(f"game over: player {self.winner} wins ({reason})")


def _deck_card_names(deck: Any, seat: int) -> list[str]:
    """The card names of one deck given as a ``Deck``, a built-in deck name or a list of names."""
    if isinstance(deck, Deck) or hasattr(deck, "card_names"):
        names: list[str] = deck.card_names()
        return names
    if isinstance(deck, str):
        return Deck.builtin(deck).card_names()
    if isinstance(deck, (list, tuple)) and all(isinstance(n, str) for n in deck):
        return list(deck)
    raise MtgError(f"deck {seat} must be a Deck, a built-in deck name or a list of card names, "
                   f"not {type(deck).__name__} {deck!r:.60}")


_RUN_FRAME: dict[type, Callable[[Game, Any], None]] = {
    CastFrame: run_cast,
    ResolveFrame: run_resolve,
    AttackFrame: run_attack,
    BlockFrame: run_block,
    YesNoFrame: run_yesno,
    PayFrame: run_pay,
    CleanupFrame: run_cleanup,
    ShuffleFrame: run_shuffle,
    MulliganFrame: run_mulligan,
    RetargetFrame: run_retarget,
    DrawsFrame: run_draws,
    OrderReplFrame: run_order_repl,
    TextChangeFrame: run_text_change,
    EnterTogetherFrame: run_enter_together,
    PutFrame: run_put,
    AssignFrame: run_assign,
    EnterChoiceFrame: run_enter_choice,
    ChooseFrame: run_choose,
}
_ANSWER_FRAME: dict[type, Callable[[Game, Any, Action], None]] = {
    CastFrame: answer_cast,
    AttackFrame: answer_attack,
    BlockFrame: answer_block,
    YesNoFrame: answer_yesno,
    PayFrame: answer_pay,
    MulliganFrame: answer_mulligan,
    RetargetFrame: answer_retarget,
    DrawsFrame: answer_draws,
    OrderReplFrame: answer_order_repl,
    TextChangeFrame: answer_text_change,
    EnterTogetherFrame: answer_enter_together,
    PutFrame: answer_put,
    AssignFrame: answer_assign,
    EnterChoiceFrame: answer_enter_choice,
    ChooseFrame: answer_choose,
}


__all__ = ["Game", "STEPS", "COLORS"]

