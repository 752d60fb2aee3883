"""Push-or-fold hold'em (the push-or-fold blog post): every player either moves all-in or folds preflop.

Seats are numbered in the order they act: seat 0 acts first and the last two seats are the small
blind and the big blind (heads-up: seat 0 is the small blind, who is also the button, seat 1 the
big blind). Every seat posts the ante, the blinds post 0.5 and 1 big blind; each stack counts
everything the player has at the start of the hand, blind and ante included, so a called all-in
between equal stacks wins or loses exactly ``stack_bb`` (the document's table).

Action 0 = fold, 1 = all-in (a push when nobody has pushed yet, a call facing an all-in; a bigger
stack's excess that nobody can match is returned). Seats act in turn; the big blind acts only if
somebody pushed. With two or more players all-in, chance deals five board cards and the pots
(main and side pots when stacks differ) go to the best hands. ``rake`` is taken only from pots
that were contested (called), as a fraction with an optional cap on the total.

Results are in big blinds. Cards use ``poker_envs.core.cards`` ids; chance deals hole cards one
at a time round the table from seat 0 (two rounds), then the five board cards.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from poker_envs.core import settlement
from poker_envs.core.cards import NUM_CARDS, RANKS, card_to_str, check_deck
from poker_envs.core.evaluator import evaluate
from poker_envs.games.base import CHANCE, TERMINAL, ActionKind, Game, GameState

FOLD, ALL_IN = 0, 1
SMALL_BLIND_BB, BIG_BLIND_BB = 0.5, 1.0
MIN_PLAYERS, MAX_PLAYERS = 2, 6
POSITION_NAMES = ("UTG", "HJ", "CO", "BTN", "SB", "BB")  # the last n of these name n seats


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


@dataclass(frozen=True)
class PushFoldConfig:
    num_players: int = 2  # seats, 2..6, numbered in acting order (last two: small and big blind)
    stack_bb: float = 10.0  # every seat's starting stack in big blinds, blind and ante included
    ante_bb: float = 0.0  # ante every seat posts, in big blinds (>= 0)
    rake: float = 0.0  # fraction of each called pot the house keeps, in [0, 1)
    rake_cap_bb: float | None = None  # most rake taken in one hand (big blinds); None = no cap
    stacks_bb: tuple[float, ...] | None = None  # per-seat starting stacks; replaces stack_bb when given

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"num_players must be an int in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n!r}")
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n}")
        ante = _number("ante_bb", self.ante_bb)
        if ante < 0:
            raise ValueError(f"ante_bb must be >= 0, got {ante}")
        rake = _number("rake", self.rake)
        if not 0 <= rake < 1:
            raise ValueError(f"rake must be a fraction in [0, 1), got {rake}")
        if self.rake_cap_bb is not None and _number("rake_cap_bb", self.rake_cap_bb) < 0:
            raise ValueError(f"rake_cap_bb must be >= 0 or None, got {self.rake_cap_bb}")
        need = BIG_BLIND_BB + ante
        if self.stacks_bb is None:
            stack = _number("stack_bb", self.stack_bb)
            if stack < need:
                raise ValueError(f"stack_bb must be at least the big blind plus the ante ({need}), got {stack}")
        else:
            stacks = tuple(_number("stacks_bb", s) for s in self.stacks_bb)
            if len(stacks) != n:
                raise ValueError(f"stacks_bb must give one stack per seat ({n}), got {len(stacks)}")
            if min(stacks) < need:
                raise ValueError(f"stacks_bb must all be at least the big blind plus the ante ({need}), got {stacks}")
            object.__setattr__(self, "stacks_bb", stacks)

    @property
    def stacks(self) -> tuple[float, ...]:
        """Starting stack of every seat, in big blinds."""
        return self.stacks_bb if self.stacks_bb is not None else (float(self.stack_bb),) * self.num_players

    @property
    def positions(self) -> tuple[str, ...]:
        """Position names by seat (heads-up: ``("SB", "BB")``)."""
        return POSITION_NAMES[-self.num_players :]

    @property
    def button(self) -> int:
        """The button's seat: seats are in acting order and the button acts just before the small blind
        (heads-up the small blind is the button, seat 0)."""
        return 0 if self.num_players == 2 else self.num_players - 3

    def blinds(self) -> tuple[float, ...]:
        """Blind each seat posts (antes excluded)."""
        return (0.0,) * (self.num_players - 2) + (SMALL_BLIND_BB, BIG_BLIND_BB)


# Heads-up payoff table ----------------------------------------------------------------------------
class HeadsUpPayoffs(NamedTuple):
    """Net result ``(small blind, big blind)`` in big blinds for each way a heads-up hand ends."""

    sb_folds: tuple[float, float]
    bb_folds: tuple[float, float]
    sb_wins: tuple[float, float]
    bb_wins: tuple[float, float]
    chop: tuple[float, float]


@functools.lru_cache(maxsize=64)
def headsup_payoffs(config: PushFoldConfig) -> HeadsUpPayoffs:
    """The document's table: fold -0.5-ante / +0.5+ante; push-fold +1+ante / -1-ante; call +-stack, 0 on a chop
    (less the rake, taken from the called pot of twice the effective stack), each row settled by ``settle``."""
    if config.num_players != 2:
        raise ValueError(f"headsup_payoffs needs num_players = 2, got {config.num_players}")
    a = float(config.ante_bb)
    stacks = list(config.stacks)
    rows = [settle(config, c, live, strengths) for c, live, strengths in (
        ([SMALL_BLIND_BB + a, BIG_BLIND_BB + a], [False, True], None),
        ([stacks[0], BIG_BLIND_BB + a], [True, False], None),
        (stacks, [True, True], [1, 0]),
        (stacks, [True, True], [0, 1]),
        (stacks, [True, True], [0, 0]),
    )]
    return HeadsUpPayoffs(*(tuple(float(x) for x in row) for row in rows))


def headsup_net(config: PushFoldConfig, sb_pushes: object, bb_calls: object, sb_showdown: object) -> np.ndarray:
    """Vectorised heads-up results, shape ``(..., 2)`` (small blind, big blind), in big blinds.

    ``sb_pushes``/``bb_calls`` are booleans (``bb_calls`` matters only where the small blind pushed);
    ``sb_showdown`` is +1 where the small blind's hand wins, -1 where it loses, 0 on a tie (used only
    where both are all-in). Arguments broadcast together.
    """
    t = headsup_payoffs(config)
    push, call, show = np.broadcast_arrays(np.asarray(sb_pushes, bool), np.asarray(bb_calls, bool), np.asarray(sb_showdown))
    if np.any((show != 1) & (show != 0) & (show != -1)):
        raise ValueError("sb_showdown must be +1 (small blind wins), 0 (tie) or -1 (big blind wins)")
    table = np.array([t.sb_folds, t.bb_folds, t.sb_wins, t.bb_wins, t.chop])
    row = np.where(~push, 0, np.where(~call, 1, np.where(show > 0, 2, np.where(show < 0, 3, 4))))
    return table[row]


# Any number of players: pots and side pots ----------------------------------------------------------
def settle(
    config: PushFoldConfig, contributions: Sequence[float], live: Sequence[bool], strengths: Sequence[int] | None
) -> np.ndarray:
    """Net result of every seat in big blinds, from what each put in, who did not fold and hand strengths.

    ``poker_envs.core.settlement`` with the exact (fractional) split: a bigger stack's excess nobody can
    match goes back, each contested pot goes to the best live hand reaching it (ties split) less its
    share of the rake. ``strengths`` (larger is better) is needed only when a pot is contested.
    """
    if len(contributions) != config.num_players:
        raise ValueError(f"contributions: one per seat ({config.num_players}), got {len(contributions)}")
    result = settlement.settle(
        [float(c) for c in contributions], [not x for x in live], strengths, config.button,
        exact=True, rake=float(config.rake), rake_cap=None if config.rake_cap_bb is None else float(config.rake_cap_bb),
    )
    return np.array(result.collected) - np.array(contributions, dtype=np.float64)


# Hand classes --------------------------------------------------------------------------------------
def hand_class(card1: int, card2: int) -> int:
    """Index 0..168 of a starting hand on the 13x13 chart people read, ``row * 13 + col`` with rows and
    columns running A, K, ..., 2: pairs on the diagonal, suited hands above it (row = higher rank),
    offsuit hands below it (column = higher rank). ``AA`` = 0, ``AKs`` = 1, ``AKo`` = 13, ``22`` = 168."""
    hi, lo = 12 - (card1 >> 2), 12 - (card2 >> 2)  # chart rows: 0 = ace
    if hi > lo:
        hi, lo = lo, hi
    if hi == lo or (card1 & 3) == (card2 & 3):
        return hi * 13 + lo
    return lo * 13 + hi


def hand_class_name(index: int) -> str:
    """``"AA"``, ``"AKs"``, ``"72o"`` for a ``hand_class`` index."""
    if not 0 <= index < 169:
        raise ValueError(f"hand class index must be in 0..168, got {index}")
    row, col = divmod(index, 13)
    a, b = RANKS[12 - row], RANKS[12 - col]
    if row == col:
        return a + b
    if row < col:
        return a + b + "s"
    return b + a + "o"


# The game -------------------------------------------------------------------------------------------
class PushFoldGame(Game):
    num_distinct_actions = 2
    num_cards = NUM_CARDS  # cards in the deck

    def __init__(self, config: PushFoldConfig | None = None) -> None:
        self.config = config or PushFoldConfig()
        self.num_players = self.config.num_players
        self.max_game_length = self.num_players
        self.name = f"push_fold_{self.num_players}p"
        self.deal_size = 2 * self.num_players + 5  # cards a ``deck`` fixes: two per seat, then the board

    def new_initial_state(self, deck: Sequence[int] | None = None) -> PushFoldState:
        """Root chance node; ``deck`` fixes the deal order (2 cards per seat, then the 5 board cards)."""
        state = PushFoldState(self.config)
        if deck is not None:
            state.deck = check_deck(deck, self.deal_size)
        return state


class PushFoldState(GameState):
    """Public fields: ``hole`` (cards by seat), ``board``, ``actions`` (by seat, in acting order),
    ``contributions`` (big blinds put in, blinds and antes included), ``config``."""

    __slots__ = ("config", "num_players", "dealt", "hole", "board", "actions", "contributions", "player", "deck")

    def __init__(self, config: PushFoldConfig) -> None:
        self.config = config
        self.num_players = n = config.num_players
        self.dealt: list[int] = []
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.actions: list[int] = []
        ante = float(config.ante_bb)
        self.contributions: list[float] = [ante + b for b in config.blinds()]
        self.player = CHANCE
        self.deck: list[int] | None = None

    # Queries -------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def someone_pushed(self) -> bool:
        return ALL_IN in self.actions

    def live(self) -> list[bool]:
        """Seats not folded (a seat that never had to act, the big blind after all folds, is live)."""
        return [s >= len(self.actions) or self.actions[s] == ALL_IN for s in range(self.num_players)]

    def legal_actions(self) -> list[int]:
        if self.player == CHANCE:
            dealt = set(self.dealt)
            return [c for c in range(NUM_CARDS) if c not in dealt]
        return [] if self.player == TERMINAL else [FOLD, ALL_IN]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.player != CHANCE:
            return []
        left = self.legal_actions()
        return [(c, 1.0 / len(left)) for c in left]

    def sample_chance(self, rng: np.random.Generator) -> int:
        if self.deck is not None:
            return self.deck[len(self.dealt)]
        while True:  # rejection sampling: at most 17 of 52 cards are ever dealt
            card = int(rng.integers(NUM_CARDS))
            if card not in self.dealt:
                return card

    # Moves ---------------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        n = self.num_players
        if self.player == CHANCE:
            if not 0 <= action < NUM_CARDS or action in self.dealt:
                raise ValueError(f"card {action} cannot be dealt: it is not a card id 0..51 left in the deck")
            k = len(self.dealt)
            self.dealt.append(int(action))
            if k < 2 * n:
                self.hole[k % n].append(int(action))
                if k + 1 == 2 * n:
                    self.player = 0
            else:
                self.board.append(int(action))
                if len(self.board) == 5:
                    self.player = TERMINAL
            return
        if self.player == TERMINAL or action not in (FOLD, ALL_IN):
            raise ValueError(f"action {action} is illegal in push/fold here; legal: {self.legal_actions()} (0 = fold, 1 = all-in)")
        seat = self.player
        self.actions.append(int(action))
        if action == ALL_IN:
            self.contributions[seat] = float(self.config.stacks[seat])
        nxt = seat + 1
        if nxt == n - 1 and not self.someone_pushed():
            self.player = TERMINAL  # folded round to the big blind
        elif nxt < n:
            self.player = nxt
        else:
            self.player = CHANCE if sum(self.live()) >= 2 else TERMINAL

    def clone(self) -> PushFoldState:
        new = PushFoldState.__new__(PushFoldState)
        new.config = self.config
        new.num_players = self.num_players
        new.dealt = self.dealt[:]
        new.hole = [h[:] for h in self.hole]
        new.board = self.board[:]
        new.actions = self.actions[:]
        new.contributions = self.contributions[:]
        new.player = self.player
        new.deck = self.deck
        return new

    # Results -------------------------------------------------------------------------------------
    def strengths(self) -> list[int]:
        """Seven-card hand values (larger is better) of every seat; needs the board."""
        return [evaluate(h + self.board) for h in self.hole]

    def returns(self) -> np.ndarray:
        if self.player != TERMINAL:
            return np.zeros(self.num_players)
        showdown = len(self.board) == 5
        if self.num_players == 2:
            push = self.actions[0] == ALL_IN
            call = len(self.actions) > 1 and self.actions[1] == ALL_IN
            sign = 0
            if showdown:
                s0, s1 = self.strengths()
                sign = (s0 > s1) - (s0 < s1)
            t = headsup_payoffs(self.config)
            if not push:
                row = t.sb_folds
            elif not call:
                row = t.bb_folds
            else:
                row = t.sb_wins if sign > 0 else t.bb_wins if sign < 0 else t.chop
            return np.array(row, dtype=np.float64)
        return settle(self.config, self.contributions, self.live(), self.strengths() if showdown else None)

    def information_state_string(self, player: int) -> str:
        """Seat, own hole cards and the actions so far (folds ``f``, all-ins ``a``), e.g. ``"1:AsKd:af"``."""
        own = "".join(card_to_str(c) for c in self.hole[player]) if len(self.hole[player]) == 2 else "??"
        return f"{player}:{own}:" + "".join("fa"[a] for a in self.actions)

    def action_to_string(self, action: int) -> str:
        if self.player == CHANCE:
            return f"deal {card_to_str(action)}"
        if action == FOLD:
            return "fold"
        return "call all-in" if self.someone_pushed() else "push all-in"

    # Action meaning (the GameState contract; big blinds, antes outside the street bets as in hold'em) -------
    def action_kind(self, action: int) -> ActionKind:
        """Fold; all-in is ALL_IN when it raises (someone could still call more), else a CALL."""
        self._check_legal(action)
        if action == FOLD:
            return ActionKind.FOLD
        return ActionKind.CALL if self.raise_range() is None else ActionKind.ALL_IN

    def amount_to_call(self) -> float:
        seat = self._acting_player()
        return min(max(self.contributions), self.config.stacks[seat]) - self.contributions[seat]

    def raise_range(self) -> tuple[float, float] | None:
        """(stack, stack) less the ante when moving all-in raises: the stack is bigger than the largest
        contribution and some other live seat has more than that too (else all-in only calls)."""
        seat = self._acting_player()
        if _all_in_raises(self.config.stacks, self.contributions, self.live(), seat):
            to = self.config.stacks[seat] - float(self.config.ante_bb)
            return to, to
        return None

    def action_records(self) -> list[tuple[int, int, float, float, bool]]:
        """The hand's actions so far as hold'em records them (``games.holdem.ActionRecord`` fields): (seat, kind,
        big blinds added, street bet after the action, all-in), kind ``ActionKind.FOLD``, ``CALL`` or ``RAISE``
        (an all-in that raises, as ``action_kind`` says), replayed from the blinds."""
        cfg = self.config
        ante, stacks = float(cfg.ante_bb), cfg.stacks
        contributions = [ante + b for b in cfg.blinds()]
        live = [True] * self.num_players
        out: list[tuple[int, int, float, float, bool]] = []
        for seat, action in enumerate(self.actions):
            if action == FOLD:
                live[seat] = False
                out.append((seat, int(ActionKind.FOLD), 0.0, contributions[seat] - ante, False))
                continue
            kind = ActionKind.RAISE if _all_in_raises(stacks, contributions, live, seat) else ActionKind.CALL
            added = stacks[seat] - contributions[seat]
            contributions[seat] = float(stacks[seat])
            out.append((seat, int(kind), added, stacks[seat] - ante, True))
        return out


def _all_in_raises(stacks: Sequence[float], contributions: Sequence[float], live: Sequence[bool], seat: int) -> bool:
    """Whether ``seat`` moving all-in raises: its stack tops every contribution and another live seat could call more."""
    top = max(contributions)
    return stacks[seat] > top and any(live[s] and stacks[s] > top for s in range(len(stacks)) if s != seat)
