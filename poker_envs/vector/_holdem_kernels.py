"""Hold'em betting as pure functions over arrays of tables (the rules of ``poker_envs.games.holdem``).

Every function reads and writes the arrays of a ``Tables`` (structure of arrays, first axis the
table) in place, for all tables or for the rows given; nothing loops over tables (loops run over
seats or streets only), so a torch or JAX backend can follow function by function. The rules are
those of ``HoldemState``: antes, blinds (heads-up the button posts the small blind), minimum raise =
largest full raise of the street, short all-ins that do not reopen the betting, nobody raises when
everybody else is all-in, seats with no decision skipped; limit bets of one / two big blinds capped
at ``max_raises_per_round``. Showdowns go through one batched settlement.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poker_envs.core.hand_rules import evaluate_hands
from poker_envs.core.ranking import HandRanking
from poker_envs.games.holdem import HoldemGame
from poker_envs.core.settlement import settle_batch
from poker_envs.vector.holdem_reads import (  # noqa: F401  (rotations: the batched encoders read it from here)
    able_to_bet, action_mask, first_in_order, needs_to_act, raise_range, rotations,
)


@dataclass(frozen=True)
class Rules:
    """What the kernels need of a ``HoldemGame``, as numbers and arrays."""

    n: int  # seats
    small_blind: int  # chips
    big_blind: int  # chips
    ante: int  # chips, posted by every seat, not a street bet
    stacks: np.ndarray  # (n,) int32 starting stacks (every hand starts from them)
    limit: bool  # fixed-limit betting
    max_raises: int  # limit: bets per street, the big blind counting pre-flop
    allow_fold_when_check: bool  # folding when checking is free is legal
    numerators: np.ndarray  # (m,) int64 pot fractions of the raise ids as exact ratios (no-limit, not "chips") ...
    denominators: np.ndarray  # (m,) int64 ... numerators / denominators (core.sizing)
    chips: bool  # no-limit "chips" sizing: id a raises to a - 1
    num_actions: int  # action ids
    odd_chips: str  # settlement's odd-chip rule, as the rules core settles
    headsup_cap: bool  # limit: the cap holds with two players able to bet left
    deck: np.ndarray  # (k,) int64 card ids the hands are dealt from (the config's deck, e.g. 36 in short deck)
    ranking: HandRanking  # hand ranking of the showdowns
    history: int = 0  # actions kept per street for the encoders that read them (poker_cnn: 5); 0 keeps none
    hole: int = 2  # hole cards per seat
    board_after: tuple[int, ...] = (0, 3, 4, 5)  # board cards seen in each betting round
    pot_limit: bool = False  # pot-limit betting: the largest raise is the call plus the pot after it
    hand_rule: str = "best_five"  # core.hand_rules: which cards make a hand at showdown

    @property
    def last_street(self) -> int:
        """The last betting round's number (the river: 3 in hold'em)."""
        return len(self.board_after) - 1

    @property
    def deal_size(self) -> int:
        """Cards a hand deals: the hole cards round the table, then the board."""
        return self.n * self.hole + self.board_after[-1]

    @property
    def board_seen(self) -> np.ndarray:
        """(streets,) int64 board cards seen in each betting round, as an array to index by street."""
        return np.array(self.board_after, dtype=np.int64)

    @classmethod
    def from_game(cls, game: HoldemGame, history: int = 0) -> Rules:
        """The numbers of ``game``'s configuration, with its action ids, deck and ranking as the game derives them."""
        config = game.config
        nolimit = config.betting != "limit"  # no-limit or pot-limit: the same raise ids
        return cls(
            n=config.num_players,
            small_blind=config.small_blind,
            big_blind=config.big_blind,
            ante=config.ante,
            stacks=np.array(config.starting_stacks, dtype=np.int32),
            limit=not nolimit,
            max_raises=config.max_raises_per_round,
            allow_fold_when_check=config.allow_fold_when_check,
            numerators=np.array([f.numerator for f in game.fractions] if nolimit else [], dtype=np.int64),
            denominators=np.array([f.denominator for f in game.fractions] if nolimit else [], dtype=np.int64),
            chips=nolimit and game.chips_sizing,
            num_actions=game.num_distinct_actions,
            odd_chips=config.odd_chips,
            headsup_cap=config.headsup_cap,
            deck=np.array(game.deck, dtype=np.int64),
            ranking=game.ranking,
            history=history,
            hole=config.hole_cards,
            board_after=config.board_after,
            pot_limit=config.betting == "potlimit",
            hand_rule=config.hand_rule,
        )


@dataclass
class Tables:
    """The state of B tables; ``player`` is -1 once a table's hand is over."""

    stacks: np.ndarray  # (B, n) int32 chips behind
    bets: np.ndarray  # (B, n) int32 street bets
    contributed: np.ndarray  # (B, n) int32 chips put in this hand (antes included)
    folded: np.ndarray  # (B, n) bool
    acted: np.ndarray  # (B, n) bool: acted since the last full raise of the street
    street: np.ndarray  # (B,) int8 0 pre-flop .. 3 river
    player: np.ndarray  # (B,) int8 seat to act, -1 when the hand is over
    button: np.ndarray  # (B,) int8
    max_bet: np.ndarray  # (B,) int32 largest street bet
    full_raise: np.ndarray  # (B,) int32 largest full raise of the street (the minimum raise)
    num_raises: np.ndarray  # (B,) int8 limit: bets and raises of the street that count (pre-flop the big blind is one)
    level: np.ndarray  # (B,) int32 limit: the street bet after the last counted bet or raise (the next adds a bet)
    capped: np.ndarray  # (B,) bool limit: the cap was reached with three or more players able to bet
    deck: np.ndarray  # (B, n * hole + board) int8 dealing order: hole cards round the table from button + 1, then board
    length: np.ndarray  # (B,) int32 decisions taken in this hand
    active_at_start: np.ndarray  # (B,) int8 seats not folded when the street began (flat107 reads it)
    passing: np.ndarray  # (B,) bool the hand was decided by the forced bets: seats 0..n-1 pass in turn, then it is paid
    # Kept only with Rules.history = h > 0 (else of width 0): the last h actions of the street ([:, 0]) and of
    # the one before ([:, 1]), latest first, as the rules core's history records them (pass turns are none).
    hist_kind: np.ndarray  # (B, 2, h) int8 action kind + 1 (1 fold, 2 check, 3 call, 4 bet, 5 raise), 0 none
    hist_added: np.ndarray  # (B, 2, h) int32 chips that action put in
    folded_at_start: np.ndarray  # (B, n or 0) bool folded when the street began

    @classmethod
    def empty(cls, num_tables: int, n: int, history: int, deal_size: int) -> Tables:
        """Zeroed tables of ``n`` seats (``history``: as in Rules; ``deal_size``: cards a hand deals)."""
        z = np.zeros
        return cls(
            hist_kind=z((num_tables, 2, history), np.int8), hist_added=z((num_tables, 2, history), np.int32),
            folded_at_start=z((num_tables, n if history else 0), bool),
            stacks=z((num_tables, n), np.int32), bets=z((num_tables, n), np.int32),
            contributed=z((num_tables, n), np.int32), folded=z((num_tables, n), bool),
            acted=z((num_tables, n), bool), street=z(num_tables, np.int8), player=z(num_tables, np.int8),
            button=z(num_tables, np.int8), max_bet=z(num_tables, np.int32), full_raise=z(num_tables, np.int32),
            num_raises=z(num_tables, np.int8), level=z(num_tables, np.int32), capped=z(num_tables, bool), deck=z((num_tables, deal_size), np.int8),
            length=z(num_tables, np.int32), active_at_start=z(num_tables, np.int8),
            passing=z(num_tables, bool),
        )

    def nbytes(self) -> int:
        """Bytes of all arrays."""
        return sum(a.nbytes for a in vars(self).values())

    def take(self, rows: np.ndarray) -> Tables:
        """A copy of the tables at ``rows`` (the kernels then run on those only)."""
        return Tables(**{name: a[rows] for name, a in vars(self).items()})

    def put(self, rows: np.ndarray, part: Tables) -> None:
        """Write ``part`` (from ``take(rows)``, since advanced) back into ``rows``."""
        for name, a in vars(self).items():
            a[rows] = getattr(part, name)


def post_forced_bets(
    rules: Rules, button: np.ndarray, stacks: np.ndarray, seated: np.ndarray, blinds: np.ndarray
) -> Tables:
    """Tables after antes and blinds for ``button`` (R,), per-row ``stacks`` (R, n), ``seated`` (R, n) and
    ``blinds`` (R, 3) (small blind, big blind, ante); the first seat to act found (-1: none).

    Seats out of play (eliminated in a session) are folded with no chips: they post nothing, never act and are
    skipped where the blinds and the first seat to act are found. The blinds go to the seats in play after the
    button (heads-up the button posts the small blind); a big blind all-in for less still makes the bet to call
    the full big blind, and the minimum raise (TDA, Robert's Rules).
    """
    r, n = stacks.shape
    t = Tables.empty(r, n, rules.history, rules.deal_size)
    rows = np.arange(r)
    b = button.astype(np.int64)
    sb, bb, ante = (blinds[:, i].astype(np.int64) for i in range(3))
    t.button[:] = b
    t.stacks[:] = np.where(seated, stacks, 0)
    t.folded[:] = ~seated
    paid = np.minimum(ante[:, None], t.stacks)
    t.stacks -= paid.astype(np.int32)
    t.contributed += paid.astype(np.int32)
    m = seated.sum(1)
    sb_seat = np.where(m == 2, b, first_in_order(seated, b + 1))
    bb_seat = first_in_order(seated, sb_seat + 1)
    for seat, blind in ((sb_seat, sb), (bb_seat, bb)):
        paid = np.minimum(blind, t.stacks[rows, seat]).astype(np.int32)
        t.stacks[rows, seat] -= paid
        t.bets[rows, seat] += paid
        t.contributed[rows, seat] += paid
    t.max_bet[:] = bb
    t.full_raise[:] = bb
    t.num_raises[:] = 1
    t.level[:] = bb
    t.active_at_start[:] = m
    t.player[:] = first_in_order(needs_to_act(t.stacks, t.bets, t.folded, t.acted, t.max_bet), bb_seat + 1)
    return t


def decide_by_forced_bets(t: Tables, rules: Rules, seated: np.ndarray) -> None:
    """Where the forced bets decided the hand (nobody to act: everybody all-in on them but at most one), run the
    board out and let the seats in play pass once in turn from the lowest, as the AEC env does."""
    decided = np.flatnonzero(t.player < 0)
    if decided.size:
        end_rounds(t, rules, decided)
        t.passing[decided] = True
        t.player[decided] = first_in_order(seated[decided], np.zeros(len(decided), dtype=np.int64))


def hand_starts(rules: Rules) -> Tables:
    """The hand's start for each button (row ``b`` for button ``b``) at a full table with the configured stacks
    and blinds: forced bets posted, first seat found, hands the forced bets decide set to pass."""
    n = rules.n
    stacks = np.broadcast_to(rules.stacks.astype(np.int64), (n, n))
    seated = np.ones((n, n), dtype=bool)
    blinds = np.broadcast_to(np.array([rules.small_blind, rules.big_blind, rules.ante], dtype=np.int64), (n, 3))
    start = post_forced_bets(rules, np.arange(n), stacks, seated, blinds)
    decide_by_forced_bets(start, rules, seated)
    return start


def decision(t: Tables, rules: Rules) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray, np.ndarray]:
    """What the seat to act at each table may do: ``(can, low, high, owe)`` of ``raise_range`` (no raise on a
    pass turn), the action mask (a pass turn's one legal action is 1, check) and the raise-to targets."""
    can, low, high, owe = raise_range(t, rules)
    mask, targets = action_mask(t, rules, can, low, high, owe)
    return (can, low, high, owe), mask, targets


def apply_actions(t: Tables, rules: Rules, actions: np.ndarray, targets: np.ndarray) -> None:
    """Play one legal action per table for its seat to act (``targets`` from ``action_mask``)."""
    rows = np.arange(len(actions))
    p = t.player.astype(np.int64)
    fold = actions == 0
    call = actions == 1
    raising = actions >= 2
    to = targets[rows, np.clip(actions - 2, 0, targets.shape[1] - 1)]
    if fold.any():
        t.folded[rows[fold], p[fold]] = True
    bet = t.bets[rows, p]
    stack = t.stacks[rows, p]
    added = np.where(call, np.minimum(t.max_bet - bet, stack), np.where(raising, to - bet, 0)).astype(np.int32)
    if rules.history:  # kind + 1: fold 1, check 2 / call 3 (something owed), bet 4 / raise 5 (a bet to raise)
        record_actions(t, np.where(fold, 1, np.where(call, 2 + (t.max_bet > bet), 4 + (t.max_bet > 0))), added)
    t.stacks[rows, p] = stack - added
    t.bets[rows, p] = bet + added
    t.contributed[rows, p] += added
    if rules.limit:
        # A bet, raise or completion, or an all-in of at least half a bet, counts toward the cap and sets the
        # level; a shorter all-in does neither. (Limit reopens by the amount owed, see raise_range.)
        counted = raising & (2 * (to - t.level) >= t.full_raise)
        t.level[counted] = to[counted]
        t.num_raises += counted
        t.capped |= counted & (t.num_raises >= rules.max_raises) & (able_to_bet(t.stacks, t.folded) > 2)
    else:
        increment = to - t.max_bet
        full = raising & (increment >= t.full_raise)  # a full raise reopens the betting for everyone
        if full.any():
            t.full_raise[full] = increment[full]
            t.acted[full] = False
    t.max_bet[raising] = to[raising]
    t.acted[rows, p] = True
    t.length += 1


def record_actions(t: Tables, codes: np.ndarray, added: np.ndarray) -> None:
    """Push each table's action (``codes``: kind + 1; ``added``: chips it puts in) onto its street's history,
    latest first; pass turns are not recorded, as in the rules core."""
    r = np.flatnonzero(~t.passing)
    kind, amount = t.hist_kind[:, 0], t.hist_added[:, 0]  # views of the current street's slots
    kind[r, 1:] = kind[r, :-1]
    amount[r, 1:] = amount[r, :-1]
    kind[r, 0] = codes[r]
    amount[r, 0] = added[r]


def advance(t: Tables, rules: Rules) -> np.ndarray:
    """After ``apply_actions``: move every table to its next seat to act; rows whose hand ended (player -1)."""
    alone = (~t.folded).sum(1) == 1  # everybody else folded
    needs = needs_to_act(t.stacks, t.bets, t.folded, t.acted, t.max_bet)
    nxt = first_in_order(needs, t.player.astype(np.int64) + 1)
    over = alone.copy()
    if t.passing.any():  # a hand decided by the forced bets: the next seat passes, after the last it is paid
        seat = t.player.astype(np.int64) + 1
        nxt = np.where(t.passing, seat, nxt)
        over |= t.passing & (seat >= rules.n)
    nxt[over] = -1
    t.player[:] = nxt
    over[end_rounds(t, rules, np.flatnonzero((nxt < 0) & ~over))] = True
    return np.flatnonzero(over)


def end_rounds(t: Tables, rules: Rules, rows: np.ndarray) -> np.ndarray:
    """Close the street of ``rows``: next street and its first actor, or the showdown; the rows whose hand reached
    the showdown."""
    done = []
    for _ in range(rules.last_street + 1):  # all-in tables run through the remaining streets here
        if rows.size == 0:
            break
        last = t.street[rows] == rules.last_street
        done.append(rows[last])
        rows = rows[~last]
        street = t.street[rows] + 1
        t.street[rows] = street
        t.bets[rows] = 0
        t.acted[rows] = False
        t.max_bet[rows] = 0
        t.full_raise[rows] = np.where(rules.limit & (street >= 2), 2 * rules.big_blind, rules.big_blind)
        t.num_raises[rows] = 0
        t.level[rows] = 0
        t.capped[rows] = False
        t.active_at_start[rows] = rules.n - t.folded[rows].sum(1)
        if rules.history:  # the street's actions become the previous street's
            t.hist_kind[rows, 1] = t.hist_kind[rows, 0]
            t.hist_kind[rows, 0] = 0
            t.hist_added[rows, 1] = t.hist_added[rows, 0]
            t.hist_added[rows, 0] = 0
            t.folded_at_start[rows] = t.folded[rows]
        needs = needs_to_act(t.stacks[rows], t.bets[rows], t.folded[rows], t.acted[rows], t.max_bet[rows])
        nxt = first_in_order(needs, t.button[rows].astype(np.int64) + 1)
        t.player[rows] = nxt
        rows = rows[nxt < 0]
    return np.concatenate(done) if done else rows


def hole_cards(deck: np.ndarray, button: np.ndarray, n: int, hole: int = 2) -> np.ndarray:
    """(R, n, hole) each seat's hole cards from the dealing order (one card at a time round the table)."""
    k = (np.arange(n)[None, :] - button.astype(np.int64)[:, None] - 1) % n
    return np.stack([np.take_along_axis(deck, k + i * n, 1) for i in range(hole)], axis=2)


def settle(t: Tables, rules: Rules, rows: np.ndarray) -> np.ndarray:
    """(R, n) int64 chips won (+) or lost (-) by each seat of the finished ``rows``."""
    n = rules.n
    deck = t.deck[rows]
    contributed = t.contributed[rows].astype(np.int64)
    folded = t.folded[rows]
    strengths = np.zeros((len(rows), n), dtype=np.int64)
    show = (~folded).sum(1) > 1
    if show.any():
        h = rules.hole
        hole = hole_cards(deck[show], t.button[rows[show]], n, h).reshape(-1, h)
        board = np.repeat(deck[show, n * h :], n, axis=0)
        values = evaluate_hands(hole, board, ranking=rules.ranking, rule=rules.hand_rule, check=False)
        strengths[show] = values.reshape(-1, n)
    won = settle_batch(contributed, folded, strengths, t.button[rows].astype(np.int64), odd_chips=rules.odd_chips)
    return won - contributed
