"""Combat: declaring attackers and blockers, leaving combat and its end (the combat damage step is
:mod:`mtg_env.engine.combat_damage`).

2007 CR 306-311 (combat phase: beginning 307, declare attackers 308, declare blockers 309, combat
damage 310 (damage goes on the stack as one object, 310.2; first strike gives a second damage
step, 310.5), end of combat 311), 502 (evasion and combat keywords: 502.9 trample), 309.2
(blocking restrictions: "can't be blocked by more than one creature", "can block an additional
creature", "can't block [this]").
2012 506.4 (a creature removed from combat), 508.1d ("attacks each turn if able"; a cost to
attack is never required), 508.1f-i (costs to attack: Windborn Muse), 509.1b-c (blocking
restrictions and requirements checked on the whole declaration: Lure, "can't be blocked except
by two or more creatures"), 510.1c (Rhox: "as though it weren't blocked").
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import DONE, Action, DecisionKind
from .continuous_effects import CantBlock
from .frames import AttackFrame, BlockFrame
from .layers import fresh, static_affects
from .mana import Source, mana_sources, pay_mana, plan_payment
from .mana_cost import ManaCost
from .model import Permanent
from .rules import block_allowed, text_words
from .seating import apnap_order, defending_player, opponents, seat_distance, team_of, teams
from .triggers import report_event

if TYPE_CHECKING:
    from .game import Game

K = DecisionKind


def can_attack(g: Game, p: Permanent) -> bool:
    """Could ``p`` be declared as an attacker now (its own restrictions; the cost to attack
    and the player it attacks are the declaration's business)?"""
    two_headed = g.variant == "two_headed_giant"
    if not p.is_creature or p.tapped or (p.controller != g.active and not (
            two_headed and p.controller // 2 == g.active // 2)):
        return False
    if p.sick and "haste" not in p.keywords:
        return False
    kw = p.keywords
    if "cant_attack_unless_defender_has_island" in kw:
        # Under the attack multiple players option each player it might attack is asked apart
        # (can_attack_player). In Two-Headed Giant it attacks the defending team, and the
        # condition holds if it holds for either defending player (2012 810.7b).
        if two_headed:
            if not any(can_attack_player(g, p, d) for d in opponents(g, p.controller)):
                return False
        elif g.attack_option != "multiple" and not can_attack_player(g, p, defending_player(g)):
            return False
    return not ({"defender", "cant_attack"} & kw)


def defenders_tax(g: Game, player: int) -> int:
    """The cost to attack for each creature ``player`` attacks with: the attack taxes of the
    defending player, or in Two-Headed Giant of the whole defending team, which the creatures
    attack (2012 810.7c)."""
    if g.variant == "two_headed_giant":
        return sum(attack_tax(g, d) for d in opponents(g, player))
    return attack_tax(g, defending_player(g))


def defender_of(g: Game, attacker: int) -> int:
    """The player the attacking creature ``attacker`` attacks: the defending player, or under
    the attack multiple players option the one chosen as it was declared (2012 802.2a, 802.3)."""
    if g.attack_whom:
        for pid, pl in g.attack_whom:
            if pid == attacker:
                return pl
    return defending_player(g)


def run_attack(g: Game, f: AttackFrame) -> None:
    if g.attack_option == "multiple":
        run_attack_multiple(g, f)
        return
    fresh(g)
    declared = f.declared
    tax = (defenders_tax(g, f.player) if g.variant == "two_headed_giant"
           else attack_tax(g, defending_player(g)))
    if not f.forced:
        f.forced = True
        # "attacks each turn if able" (2012 508.1d): declared for the player, unless
        # attacking has a cost, which no requirement makes the player pay.
        if not tax:
            declared.extend(p.id for p in g.perms.values()
                            if "must_attack" in p.keywords and p.controller == f.player
                            and can_attack(g, p))
    cands = [p for p in g.perms.values()
             if p.id not in declared and p.controller == f.player and can_attack(g, p)]
    if tax and cands:
        cands = [p for p in cands if can_pay_attack_tax(g, tax, [*declared, p.id], f.player)]
    if not cands:
        finish_attack(g, f)
        return
    opts = [Action("attack", "attack with " + p.card.label, (p.id,)) for p in cands]
    opts.append(DONE)
    prompt = f"player {f.player}: declare attackers ({len(declared)} so far)"
    if tax:
        prompt += f"; each costs {{{tax}}} to attack"
    g.ask(f.player, K.DECLARE_ATTACKERS, opts, prompt, {"declared": list(declared)})


def run_attack_multiple(g: Game, f: AttackFrame) -> None:
    """Declaring attackers when the active player may attack every opponent (2012 802.3): each
    option names the creature and the player it attacks. A creature that attacks each turn if
    able is declared by its controller's choice of whom it attacks (508.1d; no cost to pay)."""
    fresh(g)
    declared = f.declared
    defenders = opponents(g, f.player)
    paid = sum(attack_tax(g, w) for w in f.whom)
    cands = [p for p in g.perms.values() if p.id not in declared and can_attack(g, p)]
    opts = []
    required = False
    for p in cands:
        for o in defenders:
            if not can_attack_player(g, p, o):
                continue
            tax = attack_tax(g, o)
            if (paid or tax) and not can_pay_attack_tax(g, paid + tax, [*declared, p.id],
                                                        f.player, total=True):
                continue
            # "attacks each turn if able" (508.1d): no cost to attack is required
            required = required or ("must_attack" in p.keywords and not tax)
            opts.append(Action("attack", f"attack player {o} with {p.card.label}", (p.id, o)))
    if not opts:
        finish_attack(g, f)
        return
    if required:  # the creatures that must attack are declared first, and done waits for them
        must = {p.id for p in cands if "must_attack" in p.keywords}
        opts = [a for a in opts if a.args[0] in must]
    else:
        opts.append(DONE)
    prompt = f"player {f.player}: declare attackers ({len(declared)} so far)"
    g.ask(f.player, K.DECLARE_ATTACKERS, opts, prompt,
          {"declared": list(declared), "whom": list(f.whom)})


def can_attack_player(g: Game, p: Permanent, defender: int) -> bool:
    """Whether ``p`` may attack ``defender`` (Sea Monster: "can't attack unless defending player
    controls an Island" reads the player it would attack, 2012 802.2a; under the limited range
    of influence option only an opponent within its controller's range, 801.3)."""
    if g.influence and defender not in g.influence[p.controller]:
        return False
    if g.variant == "emperor" and seat_distance(g, p.controller, defender) != 1:
        return False  # 2012 809.3c: only an opponent seated next to them
    if "cant_attack_unless_defender_has_island" in p.keywords:
        # Its "Island" follows a text change (Mind Bend, 2012 612.2).
        land = text_words(g, p.id, ("Island",))[0]
        return any(q.controller == defender and land in q.subtypes for q in g.perms.values())
    return True


def answer_attack(g: Game, f: AttackFrame, a: Action) -> None:
    if a.verb == "done":
        finish_attack(g, f)
    else:
        f.declared.append(a.args[0])
        if len(a.args) > 1:
            f.whom.append(a.args[1])


def attack_tax(g: Game, defender: int) -> int:
    """The generic mana each creature attacking ``defender`` costs: the sum of the
    ``attack_tax`` statics ``defender`` controls (Windborn Muse; cumulative, ruling
    2004-10-04)."""
    mods = g.rule_mods
    if not mods or defender not in mods.get("attack_tax", ()):
        return 0
    return sum(s.params["amount"] for p in g.perms.values()
               if p.controller == defender and p.static
               for s in p.static if s.kind == "attack_tax")


def attack_tax_sources(g: Game, declared: list[int], player: int) -> list[Source]:
    """``player``'s mana sources left to pay a cost to attack once ``declared`` are tapped as
    attackers (2012 508.1f taps them before the cost is paid, 508.1g-h)."""
    tapping = {pid for pid in declared if "vigilance" not in g.perms[pid].keywords}
    return [s for s in mana_sources(g, player) if s[0] not in tapping]


def can_pay_attack_tax(g: Game, tax: int, declared: list[int], player: int,
                       total: bool = False) -> bool:
    """Can ``player`` (the attacking player) pay ``tax`` for each of ``declared`` (``total``:
    ``tax`` for them all), with floating mana and the sources the automatic payer may tap
    (:func:`attack_tax_sources`)?"""
    return plan_payment(g.players[player].mana_pool, (0,) * 5,
                        tax if total else tax * len(declared),
                        attack_tax_sources(g, declared, player), cheapest=False) is not None


def finish_attack(g: Game, f: AttackFrame) -> None:
    g.frames.pop()
    for pid in f.declared:
        p = g.perms[pid]
        p.attacking = True
        if "vigilance" not in p.keywords:
            p.tapped = True
    if f.whom:
        g.attack_whom = tuple(zip(f.declared, f.whom, strict=True))
        tax = sum(attack_tax(g, w) for w in f.whom)
    elif g.attack_option == "multiple" or not f.declared:
        tax = 0  # nobody attacks
    else:
        tax = defenders_tax(g, f.player) * len(f.declared)
    if tax:
        # 2012 508.1g-i: the total is locked in and paid after the attackers tap; every
        # attacker was offered only if the total stayed payable.
        pay_mana(g, f.player, ManaCost.parse(f"{{{tax}}}"), auto=True)
    if f.declared:  # a Two-Headed Giant team's players declare one after the other
        g.any_attackers = True
    if f.declared:
        g.attacked_this_turn = (*g.attacked_this_turn, *f.declared)
        names = ", ".join(f"{g.perms[pid].card.label} ({g.perms[pid].power}/"
                          f"{g.perms[pid].toughness})" for pid in f.declared)
        if f.whom:
            for o in dict.fromkeys(f.whom):
                names = ", ".join(f"{g.perms[pid].card.label} ({g.perms[pid].power}/"
                                  f"{g.perms[pid].toughness})"
                                  for pid, w in zip(f.declared, f.whom, strict=True) if w == o)
                g.write_log(f"player {g.active} attacks player {o} with {names}")
        elif g.variant == "two_headed_giant":
            whom = " and ".join(map(str, opponents(g, f.player)))
            g.write_log(f"player {f.player} attacks the team of players {whom} with {names}")
        else:
            whom = f" player {g.defender}" if len(g.players) > 2 else ""
            g.write_log(f"player {g.active} attacks{whom} with {names}")
    for pid in f.declared:
        report_event(g, "attacks", perm=pid)


def max_blocks(g: Game, blocker: Permanent, extra: dict[int, int] | None = None) -> float:
    """How many attackers ``blocker`` may block: any number, or one plus one for each
    "can block an additional creature" (High Ground; cumulative, Gatherer 2007-07-15)."""
    if "block_any_number" in blocker.keywords:
        return float("inf")
    if extra is None:
        extra = extra_blocks(g)
    return 1 + extra.get(blocker.id, 0)


def extra_blocks(g: Game) -> dict[int, int]:
    """Permanent id -> number of "can block an additional creature" effects on it."""
    out: dict[int, int] = {}
    for src in g.perms.values():
        if src.static:
            for s in src.static:
                if s.kind == "extra_blocks":
                    for p in static_affects(g, src, s):
                        out[p.id] = out.get(p.id, 0) + 1
    return out


def cant_block_pairs(g: Game) -> set[tuple[int, int | None]]:
    """(blocker, attacker) pairs of "target creature can't block [this] this turn" effects
    (Duct Crawler)."""
    return {(e.pid, e.attacker) for e in g.effects if isinstance(e, CantBlock)}


def run_block(g: Game, f: BlockFrame) -> None:
    fresh(g)
    pl = f.player
    perms = g.perms.values()
    attackers = [p for p in perms if p.attacking]
    if g.attack_whom:
        # 2012 802.4a: a defending player blocks only the creatures attacking them.
        attackers = [p for p in attackers if defender_of(g, p.id) == pl]
    if any(not _WHOLE_DECLARATION.isdisjoint(a.keywords) for a in attackers):
        run_block_exact(g, f, attackers)
        return
    pairs = set(f.pairs)
    # Blocks become real only when declared as a whole, so every restriction is checked
    # against the pairs declared so far. Each is a limit (no requirement), so any set of
    # pairs passing these checks one at a time is a legal declaration and every offered
    # option is legal (2007 CR 309.2).
    n_blocking: dict[int, int] = {}
    # In Two-Headed Giant a teammate may have blocked already (one combined block, 810.7d).
    blocked: set[int] = {a.id for a in attackers if a.blockers}
    for b_id, a_id in pairs:
        n_blocking[b_id] = n_blocking.get(b_id, 0) + 1
        blocked.add(a_id)
    extra = extra_blocks(g)
    forbidden = cant_block_pairs(g) if g.effects else ()
    team = defending_team(g, pl)
    opts = []
    for b in g.perms.values():
        if b.controller != pl or not b.is_creature:
            continue
        if n_blocking.get(b.id, 0) >= max_blocks(g, b, extra):
            continue
        for a in attackers:
            if (b.id, a.id) in pairs or not block_allowed(b, a, perms, team):
                continue
            if "cant_be_blocked_by_more_than_one" in a.keywords and a.id in blocked:
                continue  # Stalking Tiger
            if forbidden and (b.id, a.id) in forbidden:
                continue
            opts.append(_block_action(b, a))
    offer_blocks(g, f, opts, True)


def defending_team(g: Game, pl: int) -> tuple[int, ...] | None:
    """The players whose lands count for landwalk against ``pl``'s blockers: ``pl``'s team in
    Two-Headed Giant (2012 810.7d), else ``None`` (``pl`` alone)."""
    return teams(g)[team_of(g, pl)] if g.variant == "two_headed_giant" else None


def offer_blocks(g: Game, f: BlockFrame, opts: list[Action], can_finish: bool) -> None:
    """Ask for the next blocking pair; ``done`` is offered when the pairs so far are a legal
    declaration (``can_finish``), and the declaration ends at once if nothing can be added."""
    if can_finish:
        if not opts:
            finish_block(g, f)
            return
        opts.append(DONE)
    pl = f.player
    g.ask(pl, K.DECLARE_BLOCKERS, opts, f"player {pl}: declare blockers",
              {"pairs": [list(p) for p in f.pairs]})


def _block_action(b: Permanent, a: Permanent) -> Action:
    return Action("block", f"block {a.card.label} with {b.card.label}", (b.id, a.id))


def run_block_exact(g: Game, f: BlockFrame, attackers: list[Permanent]) -> None:
    """Declare blockers when a requirement (Lure) or a restriction that only the whole
    declaration can meet ("can't be blocked except by two or more creatures") applies
    (2012 509.1b-c). The declaration is still made one pair at a time, so a pair is offered
    only if some legal full declaration contains it with the pairs so far, and ``done``
    only when the pairs so far are themselves a legal declaration: one that breaks no
    restriction and obeys the maximum number of requirements that could be obeyed."""
    pl = f.player
    fixed = f.pairs[:]
    prob = _BlockProblem(g, pl, attackers)
    target = prob.best(())
    have = set(fixed)
    n_blocking: dict[int, int] = {}
    blocked: set[int] = set()
    for b_id, a_id in fixed:
        n_blocking[b_id] = n_blocking.get(b_id, 0) + 1
        blocked.add(a_id)
    opts = []
    for b in prob.blockers:
        if n_blocking.get(b.id, 0) >= prob.cap[b.id]:
            continue
        for a in attackers:
            x = (b.id, a.id)
            if x in have or a.id not in prob.allowed[b.id]:
                continue
            if a.id in prob.max1 and a.id in blocked:
                continue
            if prob.best((*fixed, x)) == target:
                opts.append(_block_action(b, a))
    offer_blocks(g, f, opts, prob.legal(fixed) and prob.obeyed(fixed) == target)


def answer_block(g: Game, f: BlockFrame, a: Action) -> None:
    if a.verb == "done":
        finish_block(g, f)
    else:
        f.pairs.append((a.args[0], a.args[1]))


def finish_block(g: Game, f: BlockFrame) -> None:
    g.frames.pop()
    # An attacker a Two-Headed Giant teammate's blockers blocked already doesn't become
    # blocked again (2012 810.7d: one combined block).
    before: set[int] = (
        {p.id for p in g.perms.values() if p.attacking and p.blocked} if f.pairs else set())
    for b_id, a_id in f.pairs:
        b, a = g.perms[b_id], g.perms[a_id]
        b.blocking.append(a_id)
        a.blocked = True
        a.blockers.append(b_id)
    mine = None
    if g.attack_whom:  # 2012 802.4: this defending player's blocks, the others' in turn
        mine = {pid for pid, pl in g.attack_whom if pl == f.player}
    elif g.variant == "two_headed_giant" and f.player != _last_blocker(g):
        mine = set()  # the team's blocks are logged once, after its last player's
    for a in g.perms.values():
        if a.attacking and (mine is None or a.id in mine):
            by = ", ".join(g.perms[b].card.label for b in a.blockers)
            g.write_log(f"{a.card.label}: blocked by {by}" if a.blocked else f"{a.card.label}: unblocked")
    for b_id, a_id in f.pairs:
        report_event(g, "blocks", perm=b_id, attacker=a_id)
    for b_id, a_id in f.pairs:
        report_event(g, "becomes_blocked_by", perm=a_id, blocker=b_id)
    for a in [p for p in g.perms.values() if p.attacking and p.blocked and p.id not in before
              and (mine is None or p.id in mine or g.variant == "two_headed_giant")]:
        report_event(g, "becomes_blocked", perm=a.id)


def _last_blocker(g: Game) -> int:
    """The defending player who declares blockers last (Two-Headed Giant, APNAP order)."""
    return [q for q in apnap_order(g) if q // 2 != g.active // 2][-1]


def remove_from_combat(g: Game, perm: Permanent) -> None:
    perm.attacking = False
    for aid in perm.blocking:
        a = g.perms.get(aid)
        if a is not None and perm.id in a.blockers:
            a.blockers.remove(perm.id)  # the attacker stays blocked (2012 506.4)
    perm.blocking = []
    for bid in perm.blockers:
        b = g.perms.get(bid)
        if b is not None and perm.id in b.blocking:
            b.blocking.remove(perm.id)
    perm.blockers = []


def end_combat(g: Game) -> None:
    for p in g.perms.values():
        p.attacking = False
        p.blocking = []
        p.blocked = False
        p.blockers = []
        p.struck_first = False
    g.fs_checked = False
    g.fs_step = False
    g.any_attackers = False
    g.defender = -1  # multiplayer: chosen again as the next combat begins
    if g.attack_whom:
        g.attack_whom = ()


def leave_combat_on_control_change(g: Game, perm: Permanent) -> None:
    """A permanent whose controller changed leaves combat (2012 506.4)."""
    if perm.attacking or perm.blocking:
        remove_from_combat(g, perm)


# Attacker keywords that make the one-pair-at-a-time check insufficient: a requirement (Lure)
# or a restriction a single pair can't satisfy (Viashino Runner).
_WHOLE_DECLARATION = frozenset({"must_be_blocked_by_all", "unblockable_except_by_two_or_more"})


class _BlockProblem:
    """The blocking restrictions and requirements of one defending player (2012 509.1b-c), as a
    small optimisation: which full declarations break no restriction, and how many
    requirements each obeys.

    Restrictions: the evasion rules of :func:`block_allowed`, "can't block [this]" effects, how
    many attackers each blocker may block, "can't be blocked by more than one creature" (at
    most one blocker) and "can't be blocked except by two or more creatures" (none or at least
    two). Requirements: "All creatures able to block [this] do so" (Lure) is one requirement
    per creature able to block that attacker, obeyed when it blocks it.
    """

    def __init__(self, g: Game, pl: int, attackers: list[Permanent]) -> None:
        perms = g.perms.values()
        extra = extra_blocks(g)
        forbidden = cant_block_pairs(g) if g.effects else ()
        self.blockers = [b for b in perms if b.controller == pl and b.is_creature]
        team = defending_team(g, pl)
        self.allowed: dict[int, frozenset[int]] = {
            b.id: frozenset(a.id for a in attackers if block_allowed(b, a, perms, team)
                            and (b.id, a.id) not in forbidden)
            for b in self.blockers}
        self.cap = {b.id: max_blocks(g, b, extra) for b in self.blockers}
        self.lure = frozenset(a.id for a in attackers if "must_be_blocked_by_all" in a.keywords)
        self.min2 = frozenset(a.id for a in attackers
                              if "unblockable_except_by_two_or_more" in a.keywords)
        self.max1 = frozenset(a.id for a in attackers
                              if "cant_be_blocked_by_more_than_one" in a.keywords)
        # Attackers whose number of blockers matters, in a fixed order (the search state).
        self.tracked = sorted(self.min2 | self.max1)
        self._col = {a: i for i, a in enumerate(self.tracked)}

    def obeyed(self, pairs: Iterable[tuple[int, int]]) -> int:
        """How many requirements ``pairs`` obeys."""
        return sum(1 for b, a in pairs if a in self.lure and a in self.allowed.get(b, ()))

    def legal(self, pairs: list[tuple[int, int]]) -> bool:
        """Does the full declaration ``pairs`` break no restriction? (Pairs are only ever built
        from allowed pairs within each blocker's limit, so the counts are what remain.)"""
        count: dict[int, int] = {}
        for _, a in pairs:
            count[a] = count.get(a, 0) + 1
        return (all(count.get(a, 0) != 1 for a in self.min2)
                and all(count.get(a, 0) <= 1 for a in self.max1))

    def best(self, fixed: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> int:
        """The most requirements obeyed by a declaration that contains ``fixed`` and breaks
        no restriction, or -1 if there is none. Pairs beyond ``fixed`` matter only if they
        obey a requirement or help an attacker that needs two blockers; any other pair can
        only use up a blocker, so the search leaves it out. Dynamic programming over the
        blockers, the state being how many blockers each tracked attacker has so far
        (capped at 2)."""
        by_b: dict[int, list[int]] = {}
        for b, a in fixed:
            by_b.setdefault(b, []).append(a)
        col = self._col
        min2, max1, lure = self.min2, self.max1, self.lure
        # For each blocker: the choices of pairs beyond the fixed ones, each as (requirements
        # obeyed, increments of the tracked counts).
        levels: list[list[tuple[int, tuple[int, ...]]]] = []
        for blk in self.blockers:
            allowed = self.allowed[blk.id]
            have = by_b.get(blk.id, [])
            useful = sorted(a for a in allowed if (a in lure or a in min2) and a not in have)
            room = self.cap[blk.id] - len(have)
            if room < 0:
                return -1
            k = int(min(room, len(useful)))
            choices = []
            for size in range(k + 1):
                for extra in combinations(useful, size):
                    chosen = (*have, *extra)
                    inc = [0] * len(col)
                    for a in chosen:
                        if a in col:
                            inc[col[a]] += 1
                    choices.append((sum(1 for a in chosen if a in lure and a in allowed),
                                    tuple(inc)))
            levels.append(choices)
        limit = tuple(1 if a in max1 else 2 for a in self.tracked)  # 2 = "two or more"
        need2 = tuple(a in min2 for a in self.tracked)
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def go(i: int, state: tuple[int, ...]) -> int:
            if i == len(levels):
                return -1 if any(n and c == 1 for n, c in zip(need2, state, strict=True)) else 0
            key = (i, state)
            if key in memo:
                return memo[key]
            best = -1
            for got, inc in levels[i]:
                nxt = []
                for c, d, lim in zip(state, inc, limit, strict=True):
                    v = c + d
                    if v > 1 and lim == 1:
                        break
                    nxt.append(min(v, lim))
                else:
                    rest = go(i + 1, tuple(nxt))
                    if rest >= 0 and got + rest > best:
                        best = got + rest
            memo[key] = best
            return best

        return go(0, (0,) * len(self.tracked))
