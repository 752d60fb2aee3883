"""Hold'em-family rules (no-limit, pot-limit and fixed-limit, 2 to 10 players), shared by envs, solvers and tests.

Variants are configuration (``HoldemConfig``): ``deck`` names the cards dealt and ``ranking`` the hand
ranking (``poker_envs.core.ranking``), e.g. short-deck (6+) hold'em is ``deck="short_deck"`` (36 cards,
sixes to aces) with ``ranking="short_deck"``; ``hole_cards``, ``board_cards`` (cards per street after
the first) and ``hand_rule`` (``poker_envs.core.hand_rules``) give the shape of a hand, e.g. pot-limit
Omaha is ``hole_cards=4, hand_rule="omaha", betting="potlimit"``. Card ids stay those of the 52-card deck.

Dealing order (chance nodes, one card each): hole cards one at a time round the table starting at
the seat left of the button (``button + 1``; heads-up that is the big blind), first card to every
seat, then the second card to every seat, and so on; then the board street by street (hold'em: the flop
of 3 cards, the turn and the river). No burn cards. With ``new_initial_state(deck=...)`` the k-th chance outcome is ``deck[k]``; cards past
the end of a short deck are dealt at random (``sample_chance``). With ``hole=`` / ``board=`` the
deck is built from the given cards in that same order.

Betting: blinds (heads-up the button posts the small blind, acts first pre-flop and last after),
optional antes (not part of the street bets). A big blind all-in for less than the big blind still
makes the bet to call, and the base of the minimum raise, the full big blind (TDA, Robert's Rules).
No-limit: the minimum raise is the largest full raise of the street (at least the big blind), and an
all-in raise for less than a full raise does not reopen the betting: a player who already acted may
raise again only if the raises made since his action add up to a full raise. Pot-limit: the same, and
the largest raise is to the current bet plus the pot after calling (every chip put in this hand, antes
included, plus the call), so a bet is at most the pot. Limit: bets of one big
blind on the first two streets, two on the last two, at most ``max_raises_per_round`` bets per street
(pre-flop the big blind is the first of them); an all-in of at least half a bet over the last counted
level is a raise (it counts and reopens the betting for whoever faces at least half a bet more), a
shorter one is not, and the next raise then completes the bet to one bet over the counted level;
``headsup_cap=False`` lifts the cap while at most two players able to bet remain (unless the round
was capped with three or more). Nobody raises when every other live player is all-in, and a player
with no decision left (everybody else all-in and his bet matched) is skipped. Pots and odd chips:
``poker_envs.core.settlement`` (``HoldemConfig.odd_chips``). docs/holdem.md lists the rules with
their tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from poker_envs.core.cards import (
    NUM_CARDS, card_to_str, cards_to_str, check_deck, check_hole_and_board, deck_cards, deck_name,
)
from poker_envs.core.hand_rules import check_hand_rule, hand_evaluator
from poker_envs.core.ranking import STANDARD, HandRanking, get_ranking
from poker_envs.core.settlement import ODD_CHIP_RULES, Pot, pots, settle
from poker_envs.core.sizing import MAX_DENOMINATOR, fraction_raise_to, pot_fraction
from poker_envs.games.base import CHANCE, TERMINAL, ActionKind, Game, GameState

# ActionRecord kinds: the values of ActionKind, kept as plain ints on the engine's hot path.
FOLD, CHECK, CALL, BET, RAISE = (int(k) for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE))
KIND_NAMES = ("fold", "check", "call", "bet", "raise")
# Discrete action ids common to every betting structure.
A_FOLD, A_CALL = 0, 1
ABSTRACT_FRACTIONS = (Fraction(1, 2), Fraction(1), Fraction(2))  # "abstract": half pot, pot, two pots
MAX_PLAYERS = 10
# bet_sizing="chips" has starting_stack + 2 action ids: deeper stacks are refused (an action mask of a
# million int8 entries per observation is already 1 MB).
MAX_CHIPS_STACK = 1_000_000
STREET_NAMES = ("preflop", "flop", "turn", "river")
BETTING = ("nolimit", "potlimit", "limit")
HOLE_CARDS = (2, 3, 4, 5, 6)  # hole cards per player the rules deal


class ActionRecord(NamedTuple):
    player: int
    kind: int  # FOLD, CHECK, CALL, BET or RAISE
    added: int  # chips this action put in
    total: int  # the player's street bet after the action (the bet-to / raise-to amount)
    all_in: bool


@dataclass(frozen=True, kw_only=True)
class HoldemConfig:
    """Table and betting rules of one hold'em game (all amounts in whole chips)."""

    num_players: int = 2  # seats, 2..10
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0  # posted by every seat before the blinds; not part of the street bets
    starting_stacks: tuple[int, ...] = ()  # one per seat; empty means 100 big blinds each
    betting: str = "nolimit"  # "nolimit" | "potlimit" | "limit"
    max_raises_per_round: int = 4  # limit only: bet + 3 raises (pre-flop the big blind is the bet)
    allow_fold_when_check: bool = False  # folding when checking is free is masked out unless True
    # no-limit ids: "abstract" | "chips" | pot fractions (numbers or strings like "2/3", kept as exact Fractions)
    bet_sizing: str | tuple[Fraction, ...] = "abstract"
    odd_chips: str = "per_pot"  # "per_pot": TDA, each pot split on its own | "pooled": pokerkit's split
    headsup_cap: bool = True  # limit: the raise cap holds with two players left (ACPC); False: no cap then (TDA)
    ranking: str | HandRanking = "standard"  # hand ranking: a name in core.ranking.RANKINGS or a HandRanking
    deck: str | tuple[int, ...] | None = None  # cards dealt: a name in core.cards.DECKS, or card ids; None: the ranking's deck
    hole_cards: int = 2  # hole cards per player (hold'em 2, Omaha 4 to 6)
    board_cards: tuple[int, ...] = (3, 1, 1)  # board cards dealt before each betting round after the first
    hand_rule: str = "best_five"  # core.hand_rules: "best_five" of all cards | "omaha": two from hand, three from board
    dead_chips: int = 0  # chips in the pot no seat's stack paid (a big-blind ante kept out of the stacks): counted in pot sizes, paid to the main pot

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be an integer from 2 to {MAX_PLAYERS}, got {n!r}")
        object.__setattr__(self, "num_players", int(n))
        for name in ("small_blind", "big_blind", "ante", "max_raises_per_round", "dead_chips"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer number of chips, got {value!r}")
            object.__setattr__(self, name, int(value))
        if self.big_blind < 1:
            raise ValueError(f"big_blind must be at least 1 chip, got {self.big_blind}")
        if self.small_blind > self.big_blind:
            raise ValueError(f"big_blind ({self.big_blind}) must not be smaller than small_blind ({self.small_blind})")
        stacks = self.starting_stacks
        if isinstance(stacks, bool | np.bool_ | str) or not isinstance(stacks, int | np.integer | Sequence | np.ndarray):
            raise ValueError("starting_stacks (the environments' starting_stack) must be a positive integer number of "
                             f"chips or a list of one per seat, got {stacks!r}")
        if isinstance(stacks, int | np.integer):
            stacks = (int(stacks),) * n
        elif len(stacks) == 0:
            stacks = (100 * self.big_blind,) * n
        stacks = tuple(stacks)
        if len(stacks) != n:
            raise ValueError(f"starting_stacks (the environments' starting_stack) lists {len(stacks)} stacks for {n} players")
        for i, s in enumerate(stacks):
            if isinstance(s, bool) or not isinstance(s, int | np.integer) or s <= 0:
                raise ValueError(f"starting_stacks[{i}] (the environments' starting_stack[{i}]) must be a positive integer "
                                 f"number of chips, got {s!r}")
        object.__setattr__(self, "starting_stacks", tuple(int(s) for s in stacks))
        if self.betting not in BETTING:
            raise ValueError(f"betting must be one of {BETTING}, got {self.betting!r}")
        if self.betting == "limit" and self.max_raises_per_round < 1:
            raise ValueError("max_raises_per_round must be at least 1 in limit")
        for name in ("allow_fold_when_check", "headsup_cap"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.odd_chips not in ODD_CHIP_RULES:
            raise ValueError(f"odd_chips must be one of {ODD_CHIP_RULES}, got {self.odd_chips!r}")
        sizing = self.bet_sizing
        if self.betting == "limit" and sizing != "abstract":
            raise ValueError(f"bet_sizing={sizing!r} sizes no-limit and pot-limit bets; fixed-limit has one bet size "
                             "per street (leave bet_sizing out)")
        if isinstance(sizing, str):
            if sizing not in ("abstract", "chips"):
                raise ValueError(f"bet_sizing must be 'abstract', 'chips' or a tuple of pot fractions, got {sizing!r}")
            if sizing == "chips" and self.betting != "limit" and max(stacks) > MAX_CHIPS_STACK:
                raise ValueError(
                    f"bet_sizing='chips' has one action id per chip: a starting_stack of {max(stacks)} chips would need "
                    f"{max(stacks) + 2} ids; the limit is a starting_stack of {MAX_CHIPS_STACK} chips (use 'abstract' "
                    "or pot-fraction bet_sizing, or count chips in a bigger unit)"
                )
        else:
            if not isinstance(sizing, tuple | list):
                raise ValueError(
                    f"bet_sizing must be 'abstract', 'chips' or a tuple of pot fractions (numbers or strings like "
                    f"'2/3'), got {sizing!r}"
                )
            fracs = tuple(pot_fraction(f, f"bet_sizing pot fraction {f!r}") for f in sizing)
            if not fracs:
                raise ValueError(f"bet_sizing pot fractions must be a non-empty tuple of positive numbers, got {sizing!r}")
            if list(fracs) != sorted(set(fracs)):
                raise ValueError(f"bet_sizing pot fractions must be distinct and increasing, got {sizing!r}")
            for given, f in zip(sizing, fracs):
                if f.denominator > MAX_DENOMINATOR:
                    raise ValueError(
                        f"bet_sizing pot fraction {given!r} is exactly {f}; denominators above {MAX_DENOMINATOR} are "
                        "refused (write the fraction you mean, e.g. '3/10' or 0.3)"
                    )
            object.__setattr__(self, "bet_sizing", fracs)
        ranking = get_ranking(self.ranking)
        if self.deck is None:
            object.__setattr__(self, "deck", ranking.deck)
        elif not isinstance(self.deck, str):
            object.__setattr__(self, "deck", deck_cards(self.deck))
        self._check_shape()
        cards = deck_cards(self.deck)
        if len(cards) < self.deal_size:
            raise ValueError(
                f"deck has {len(cards)} cards; {n} players with {self.hole_cards} hole cards and a board of "
                f"{sum(self.board_cards)} need {self.deal_size}"
            )
        stray = sorted(set(cards) - set(ranking.cards))
        if stray:
            raise ValueError(
                f"deck holds {cards_to_str(stray[:4])}..., ranks the ranking {ranking.name!r} does not play "
                f"(its deck is {ranking.deck!r})"
            )

    def _check_shape(self) -> None:
        """The shape of a hand: hole cards, board streets and the hand rule fit together and the evaluator."""
        h = self.hole_cards
        if isinstance(h, bool) or not isinstance(h, int | np.integer) or h not in HOLE_CARDS:
            raise ValueError(f"hole_cards must be one of {HOLE_CARDS}, got {h!r}")
        object.__setattr__(self, "hole_cards", int(h))
        board = self.board_cards
        if isinstance(board, str) or not isinstance(board, tuple | list) or not 1 <= len(board) <= 3 or any(
            isinstance(b, bool) or not isinstance(b, int | np.integer) or b < 1 for b in board
        ):
            raise ValueError(
                f"board_cards must list 1 to 3 positive card counts, one per betting round after the first, got {board!r}"
            )
        object.__setattr__(self, "board_cards", tuple(int(b) for b in board))
        rule = check_hand_rule(self.hand_rule)
        total = sum(self.board_cards)
        if rule == "best_five" and not 5 <= h + total <= 7:
            raise ValueError(
                f"hand_rule 'best_five' takes the best five of 5 to 7 cards; {h} hole cards and a board of {total} "
                "make " + str(h + total) + " (use hand_rule='omaha' for 4 to 6 hole cards)"
            )
        if rule == "omaha" and (h < 4 or not 3 <= total <= 5):
            raise ValueError(
                f"hand_rule 'omaha' (two from the hand, three from the board) needs 4 to 6 hole_cards and a board of "
                f"3 to 5 cards, got {h} and {total}"
            )

    @property
    def deal_size(self) -> int:
        """Cards one hand deals: every player's hole cards, then the board."""
        return self.num_players * self.hole_cards + sum(self.board_cards)

    @property
    def board_after(self) -> tuple[int, ...]:
        """Board cards seen in each betting round (hold'em: 0, 3, 4, 5)."""
        return tuple(itertools.accumulate(self.board_cards, initial=0))

    @property
    def fractions(self) -> tuple[Fraction, ...]:
        """Pot fractions of the discrete raise ids (no-limit "abstract" or a tuple)."""
        if self.bet_sizing == "abstract":
            return ABSTRACT_FRACTIONS
        if isinstance(self.bet_sizing, tuple):
            return self.bet_sizing
        return ()


def game_name(config: HoldemConfig, ranking: HandRanking, deck: Sequence[int]) -> str:
    """The game's name from its configuration, e.g. "nolimit_holdem", "short_deck_nolimit_holdem",
    "potlimit_omaha", "potlimit_omaha5" (five hole cards)."""
    name = deck_name(deck)
    variant = "" if ranking == STANDARD and name == "standard" else f"{ranking.name}_"
    if name != ranking.deck:
        variant += f"{name}_deck_" if name == "custom" else f"{name}_"
    if config.hand_rule == "omaha":
        family = "omaha" if config.hole_cards == 4 else f"omaha{config.hole_cards}"
    else:
        family = "holdem" if config.hole_cards == 2 else f"holdem{config.hole_cards}"
    if config.board_cards != (3, 1, 1):
        family += "_board" + "".join(str(b) for b in config.board_cards)
    return f"{variant}{config.betting}_{family}"


class HoldemGame(Game):
    """A hold'em-family table; ``new_initial_state`` deals one hand.

    Discrete action ids: 0 fold, 1 check/call, then
    - limit: 2 bet/raise (3 ids);
    - no-limit and pot-limit "abstract": 2 raise half pot, 3 raise pot, 4 raise 2 pots, 5 the largest
      raise: all-in (no-limit) or the pot-limit maximum, all-in where the stack is shorter (6 ids);
    - pot fractions f_1..f_m: 2..m+1 the fractions, m+2 the largest raise;
    - "chips": id ``a >= 2`` bets / raises to ``a - 1`` chips (the street total), so there
      are ``max(starting_stacks) + 2`` ids.
    A fraction f raises to ``max bet + f * (pot after calling)`` (a bet is ``f * pot``), rounded to a
    chip and lifted to the minimum raise; it is masked when that reaches the largest raise (the last
    id covers it: in pot-limit every fraction from 1 up) or repeats the amount of a smaller fraction.
    """

    def __init__(self, config: HoldemConfig) -> None:
        self.config = config
        self.num_players = config.num_players
        self.ranking = get_ranking(config.ranking)
        self.deck = deck_cards(config.deck)  # the card ids dealt, ascending
        self.deck_mask = sum(1 << c for c in self.deck)  # bit c set for each card of the deck
        # hand value of (hole, board) under the ranking and the hand rule
        self.evaluate_hand = hand_evaluator(self.ranking, config.hand_rule)
        self.board_after = config.board_after  # board cards seen in each betting round
        self.last_street = len(config.board_cards)  # the river's number (3 in hold'em)
        self.deal_size = config.deal_size  # cards one hand deals
        self.name = game_name(config, self.ranking, self.deck)
        n = config.num_players
        max_stack = max(config.starting_stacks)
        self.fractions = config.fractions  # pot fractions of the raise ids (read on every legal_actions call)
        self.chips_sizing = config.bet_sizing == "chips"
        if config.betting == "limit":
            self.num_distinct_actions = 3
            raises = config.max_raises_per_round + n
        else:
            if config.bet_sizing == "chips":
                self.num_distinct_actions = max_stack + 2
            else:
                self.num_distinct_actions = 3 + len(config.fractions)
            raises = max_stack // config.big_blind + n
        self.max_game_length = 4 * n * (raises + 1)

    def new_initial_state(
        self,
        button: int = 0,
        deck: Sequence[int] | None = None,
        hole: Sequence[Sequence[int]] | None = None,
        board: Sequence[int] = (),
    ) -> HoldemState:
        """A new hand with ``button`` on that seat; cards from ``deck`` (dealing order) or ``hole``/``board``."""
        n = self.num_players
        if isinstance(button, bool) or not isinstance(button, int | np.integer) or not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button!r}")
        if hole is not None:
            if deck is not None:
                raise ValueError("give either deck or hole/board, not both")
            holes, table = check_hole_and_board(
                hole, board, n, self.config.hole_cards, self.board_after[-1]
            )
            for name, cards in [*((f"hole[{s}]", h) for s, h in enumerate(holes)), ("board", table)]:
                self._check_in_deck(cards, name)
            order = [(button + 1 + k) % n for k in range(n)]
            deck = [holes[s][j] for j in range(self.config.hole_cards) for s in order] + table
        elif len(board):
            raise ValueError("board cards need hole cards too (or give a deck)")
        fixed: tuple[int, ...] = ()
        if deck is not None:
            fixed = tuple(check_deck(deck, 0))
            self._check_in_deck(fixed, "deck")
            if len(fixed) > self.deal_size:
                fixed = fixed[: self.deal_size]
        return HoldemState(self, int(button), fixed)

    def _check_in_deck(self, cards: Sequence[int], name: str) -> None:
        """Refuse cards given from outside that the configured deck does not hold (a deuce in short deck)."""
        stray = [c for c in cards if not (self.deck_mask >> c) & 1]
        if stray:
            raise ValueError(f"{name} holds {cards_to_str(stray)}, not in this game's deck ({deck_name(self.deck)})")


class HoldemState(GameState):
    """One hand in progress; public fields are read-only for everyone but the engine."""

    __slots__ = (
        "game", "config", "num_players", "button", "hole", "board", "street", "stacks", "bets",
        "contributed", "folded", "starting_stacks", "history", "num_active_at_street_start",
        "winnings", "awards", "strengths", "_deck", "_dealt", "_used", "_player", "_acted",
        "_max_bet", "_full_raise", "_num_raises", "_legal", "_rr", "_limit", "_pot_limit", "_level", "_capped",
    )

    def __init__(self, game: HoldemGame, button: int, deck: tuple[int, ...] = ()) -> None:
        """Post antes and blinds for ``button``; ``deck`` is the fixed dealing order (may be empty or short)."""
        cfg = game.config
        n = cfg.num_players
        self.game = game
        self.config = cfg
        self.num_players = n
        self.button = button
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.street = 0
        self.starting_stacks = list(cfg.starting_stacks)
        self.stacks = list(cfg.starting_stacks)
        self.bets = [0] * n
        self.contributed = [0] * n
        self.folded = [False] * n
        self.history: list[list[ActionRecord]] = [[]]
        self.num_active_at_street_start = n
        self.winnings: list[int] | None = None  # chips each seat collects from the pots, once over
        self.awards: list[tuple[int, tuple[int, ...]]] = []  # (pot amount, winners) per pot, once over
        self.strengths: list[int] | None = None  # hand values at showdown (None for folded seats)
        self._deck = deck
        self._dealt: list[int] = []
        self._used = 0
        self._limit = cfg.betting == "limit"
        self._pot_limit = cfg.betting == "potlimit"
        self._acted = [False] * n
        self._legal: list[int] | None = None  # cached legal ids of the current node
        self._rr: tuple[int, int] | None | bool = False  # cached legal_raise_range (False: not computed)
        # Antes, then blinds (capped by the stack: a short stack is all-in).
        if cfg.ante:
            for s in range(n):
                self._post(s, cfg.ante, street_bet=False)
        if n == 2:
            sb_seat, bb_seat = button, (button + 1) % n
        else:
            sb_seat, bb_seat = (button + 1) % n, (button + 2) % n
        self._post(sb_seat, cfg.small_blind, street_bet=True)
        self._post(bb_seat, cfg.big_blind, street_bet=True)
        # A big blind all-in for less still makes the bet to call the full big blind (TDA, Robert's Rules).
        self._max_bet = cfg.big_blind
        self._full_raise = cfg.big_blind
        self._num_raises = 1  # limit: the big blind is the first bet of the pre-flop round
        self._level = cfg.big_blind  # limit: the street bet after the last bet or raise that counts
        self._capped = False  # limit, headsup_cap=False: the cap was reached with three or more players able to bet
        self._player = CHANCE

    def _post(self, seat: int, amount: int, street_bet: bool) -> None:
        amount = min(amount, self.stacks[seat])
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        if street_bet:
            self.bets[seat] += amount

    # Copying -------------------------------------------------------------------------------
    def clone(self) -> HoldemState:
        new = HoldemState.__new__(HoldemState)
        new.game = self.game
        new.config = self.config
        new.num_players = self.num_players
        new.button = self.button
        new.hole = [h[:] for h in self.hole]
        new.board = self.board[:]
        new.street = self.street
        new.stacks = self.stacks[:]
        new.bets = self.bets[:]
        new.contributed = self.contributed[:]
        new.folded = self.folded[:]
        new.starting_stacks = self.starting_stacks
        new.history = [h[:] for h in self.history]
        new.num_active_at_street_start = self.num_active_at_street_start
        new.winnings = self.winnings
        new.awards = self.awards
        new.strengths = self.strengths
        new._deck = self._deck
        new._dealt = self._dealt[:]
        new._used = self._used
        new._player = self._player
        new._acted = self._acted[:]
        new._max_bet = self._max_bet
        new._full_raise = self._full_raise
        new._num_raises = self._num_raises
        new._legal = self._legal
        new._rr = self._rr
        new._limit = self._limit
        new._pot_limit = self._pot_limit
        new._level = self._level
        new._capped = self._capped
        return new

    # Queries ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self._player

    def pot(self) -> int:
        """All chips put in this hand (antes, blinds, bets of every street, the current one included, and the
        configuration's dead chips)."""
        return sum(self.contributed) + self.config.dead_chips

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (capped by its stack)."""
        return min(self._max_bet - self.bets[seat], self.stacks[seat])

    def pots(self) -> list[Pot]:
        """Main pot and side pots as they stand (a single-seat layer is an uncalled bet)."""
        return pots(self.contributed, self.folded)

    def max_bet(self) -> int:
        """The largest street bet so far."""
        return self._max_bet

    def _can_raise(self, seat: int) -> bool:
        stack = self.stacks[seat]
        owe = self._max_bet - self.bets[seat]
        if stack <= owe:
            return False  # calling already puts him all-in
        if self._limit:
            if self._num_raises >= self.config.max_raises_per_round and (
                self.config.headsup_cap or self._capped or self._able_to_bet() > 2
            ):
                return False
            if self._acted[seat] and 2 * owe < self._full_raise:
                return False  # less than half a bet since his action: the betting is not reopened for him
        elif self._acted[seat] and owe < self._full_raise:
            return False  # only short all-ins since his action: the betting is not reopened for him
        max_bet, bets, stacks, folded = self._max_bet, self.bets, self.stacks, self.folded
        for other in range(self.num_players):
            if other != seat and not folded[other] and bets[other] + stacks[other] > max_bet:
                return True
        return False  # nobody else could put in more than the current bet: a raise could never be called

    def _able_to_bet(self) -> int:
        """Players still in the hand who are not all-in."""
        stacks, folded = self.stacks, self.folded
        return sum(1 for s in range(self.num_players) if not folded[s] and stacks[s] > 0)

    def legal_raise_range(self) -> tuple[int, int] | None:
        """(min raise-to, max raise-to) in street chips for the player to act, or None if he cannot raise."""
        rr = self._rr
        if rr is not False:
            return rr  # type: ignore[return-value]
        seat = self._player
        if seat < 0 or not self._can_raise(seat):
            rr = None
        else:
            all_in = self.bets[seat] + self.stacks[seat]
            if self._limit:  # one bet more than the last counted level: after a short all-in, the completion
                to = min(self._level + self._full_raise, all_in)
                rr = to, to
            else:
                low = min(self._max_bet + self._full_raise, all_in)
                high = all_in
                if self._pot_limit:  # the call plus the pot after the call
                    pot_after_call = self.pot() + self._max_bet - self.bets[seat]
                    high = min(all_in, max(low, self._max_bet + pot_after_call))
                rr = low, high
        self._rr = rr
        return rr

    def _fraction_amounts(self, low: int, high: int) -> list[tuple[int, int]]:
        """(action id, raise-to) of the legal pot-fraction ids, given the legal raise-to range."""
        seat = self._player
        owe = self._max_bet - self.bets[seat]
        pot_after_call = self.pot() + owe
        out: list[tuple[int, int]] = []
        last = -1
        for k, f in enumerate(self.game.fractions):
            to = fraction_raise_to(self._max_bet, pot_after_call, f, low)
            if to >= high:
                break
            if to != last:
                out.append((2 + k, to))
                last = to
        return out

    def legal_actions(self) -> list[int]:
        if self._legal is not None:
            return self._legal[:]
        seat = self._player
        if seat == CHANCE:
            legal = [c for c, _ in self.chance_outcomes()]
        elif seat == TERMINAL:
            legal = []
        else:
            legal = []
            if self._max_bet > self.bets[seat] or self.config.allow_fold_when_check:
                legal.append(A_FOLD)
            legal.append(A_CALL)
            rng = self.legal_raise_range()
            if rng is not None:
                low, high = rng
                if self._limit:
                    legal.append(2)
                elif self.game.chips_sizing:
                    legal.extend(range(low + 1, high + 2))
                else:
                    legal.extend(a for a, _ in self._fraction_amounts(low, high))
                    legal.append(2 + len(self.game.fractions))
        self._legal = legal
        return legal[:]

    def legal_actions_mask(self, num_actions: int) -> np.ndarray:
        mask = np.zeros(num_actions, dtype=np.int8)
        legal = self._legal if self._legal is not None else self.legal_actions()
        if self.game.chips_sizing and self._player >= 0:
            k = 0
            while k < len(legal) and legal[k] < 2:  # fold, check/call
                mask[legal[k]] = 1
                k += 1
            if k < len(legal):
                mask[legal[k] : legal[-1] + 1] = 1  # the raise ids form one contiguous range
        else:
            for a in legal:
                mask[a] = 1
        return mask

    def action_to_chips(self, action: int) -> tuple[int, int]:
        """(kind, raise-to or 0) of discrete ``action`` for the player to act; ValueError if illegal."""
        seat = self._player
        if seat < 0:
            raise ValueError(f"no player acts here ({'chance' if seat == CHANCE else 'terminal'} node)")
        owe = self._max_bet - self.bets[seat]
        if action == A_CALL:
            return (CALL if owe > 0 else CHECK), 0
        if action == A_FOLD:
            if owe > 0 or self.config.allow_fold_when_check:
                return FOLD, 0
            self._illegal(action, "folding when checking is free is not allowed (allow_fold_when_check=False)")
        rng = self.legal_raise_range()
        if rng is None or not isinstance(action, int | np.integer) or action < 2:
            self._illegal(action, "no raise is possible here" if rng is None else "")
        low, high = rng
        kind = RAISE if self._max_bet > 0 else BET
        if self._limit:
            if action == 2:
                return kind, low
        elif self.game.chips_sizing:
            to = int(action) - 1
            if low <= to <= high:
                return kind, to
        else:
            fractions = self.game.fractions
            if action == 2 + len(fractions):
                return kind, high
            legal = self._legal if self._legal is not None else self.legal_actions()
            if action in legal:  # a fraction id that is neither masked nor a repeat: its amount directly
                pot_after_call = self.pot() + self._max_bet - self.bets[seat]
                return kind, fraction_raise_to(self._max_bet, pot_after_call, fractions[int(action) - 2], low)
        self._illegal(action, "")
        raise AssertionError  # unreachable

    def _illegal(self, action: object, why: str) -> None:
        reason = f" ({why})" if why else ""
        raise ValueError(
            f"action {action!r} is illegal for seat {self._player} here{reason}; legal actions: {self.legal_actions()}"
        )

    def action_to_string(self, action: int) -> str:
        if self._player == CHANCE:
            return card_to_str(action)
        kind, to = self.action_to_chips(action)
        return KIND_NAMES[kind] + (f" to {to}" if kind >= BET else "")

    # Action meaning (the GameState contract), read off action_to_chips, to_call and legal_raise_range ------
    def action_kind(self, action: int) -> ActionKind:
        """FOLD, CHECK, CALL, BET, RAISE, or ALL_IN for a bet or raise to the whole stack."""
        kind, to = self.action_to_chips(action)
        seat = self._player
        if kind >= BET and to == self.bets[seat] + self.stacks[seat]:
            return ActionKind.ALL_IN
        return ActionKind(kind)

    def amount_to_call(self) -> int:
        return self.to_call(self._acting_player())

    def raise_range(self) -> tuple[int, int] | None:
        """``legal_raise_range()`` (street chips), refused at chance and terminal nodes."""
        self._acting_player()
        return self.legal_raise_range()

    def betting_round(self) -> int:
        return self.street

    # Chance ----------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._player != CHANCE:
            return []
        k = len(self._dealt)
        if k < len(self._deck):
            return [(self._deck[k], 1.0)]
        used = self._used
        left = [c for c in self.game.deck if not (used >> c) & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def sample_chance(self, rng: np.random.Generator) -> int:
        """The next card: the fixed deck's if one was given, else uniform over the unseen cards of the deck."""
        k = len(self._dealt)
        if k < len(self._deck):
            return self._deck[k]
        used = self._used
        random = rng.random
        deck = self.game.deck
        size = len(deck)
        while True:
            c = deck[int(random() * size)]
            if not (used >> c) & 1:
                return c

    def _deal(self, card: int) -> None:
        k = len(self._dealt)
        if k < len(self._deck):
            if card != self._deck[k]:
                raise ValueError(f"chance outcome {card} is illegal: the fixed deck deals {self._deck[k]} next")
            card = self._deck[k]
        else:
            if card.__class__ is not int:
                if not isinstance(card, np.integer):
                    raise ValueError(f"chance outcome {card!r} is illegal: not an unseen card id of the deck")
                card = int(card)
            if not 0 <= card < NUM_CARDS or not ((self.game.deck_mask & ~self._used) >> card) & 1:
                raise ValueError(f"chance outcome {card!r} is illegal: not an unseen card id of the deck ({self.config.deck})")
        self._used |= 1 << card
        self._dealt.append(card)
        n = self.num_players
        dealt_hole = n * self.config.hole_cards
        if k < dealt_hole:
            self.hole[(self.button + 1 + k) % n].append(card)
            if k == dealt_hole - 1:
                self._start_round()
        else:
            self.board.append(card)
            if len(self.board) == self.game.board_after[self.street]:
                self._start_round()

    # Betting -----------------------------------------------------------------------------------
    def _needs_to_act(self, seat: int) -> bool:
        if self.folded[seat] or self.stacks[seat] == 0:
            return False
        if self.bets[seat] < self._max_bet:
            return True
        if self._acted[seat]:
            return False
        for other in range(self.num_players):  # a decision exists only if someone else could still bet
            if other != seat and not self.folded[other] and self.stacks[other] > 0:
                return True
        return False

    def _next_actor(self, start: int) -> int:
        n = self.num_players
        for k in range(start, start + n):
            seat = k % n
            if self._needs_to_act(seat):
                return seat
        return -1

    def _start_round(self) -> None:
        """Cards of the street are out: find the first actor or move on."""
        n = self.num_players
        if self.street == 0:
            first = (self.button + (2 if n == 2 else 3)) % n  # left of the big blind
        else:
            first = (self.button + 1) % n
        seat = self._next_actor(first)
        if seat < 0:
            self._end_round()
        else:
            self._player = seat
            self._legal = None
            self._rr = False

    def _end_round(self) -> None:
        if self.street == self.game.last_street:
            self._finish()
            return
        self.street += 1
        n = self.num_players
        self.bets = [0] * n
        self._acted = [False] * n
        self._max_bet = 0
        self._full_raise = self.config.big_blind * (2 if self._limit and self.street >= 2 else 1)
        self._num_raises = 0
        self._level = 0
        self._capped = False
        self.history.append([])
        self.num_active_at_street_start = n - sum(self.folded)
        self._player = CHANCE
        self._legal = None
        self._rr = False

    def apply(self, action: int) -> None:
        if self._player == CHANCE:
            self._deal(action)
            return
        kind, to = self.action_to_chips(action)
        self._act(kind, to)

    def apply_raw(self, kind: int, raise_to: int = 0) -> None:
        """Play FOLD / CHECK / CALL / BET / RAISE (to ``raise_to`` street chips) directly; validates."""
        seat = self._player
        if seat < 0:
            raise ValueError(f"no player acts here ({'chance' if seat == CHANCE else 'terminal'} node)")
        owe = self._max_bet - self.bets[seat]
        if kind == FOLD:
            if owe <= 0 and not self.config.allow_fold_when_check:
                raise ValueError(f"seat {seat} cannot fold: checking is free (allow_fold_when_check=False)")
        elif kind == CHECK:
            if owe > 0:
                raise ValueError(f"seat {seat} cannot check: {owe} chips to call")
        elif kind == CALL:
            if owe <= 0:
                raise ValueError(f"seat {seat} cannot call: nothing to call (check instead)")
        elif kind in (BET, RAISE):
            if (kind == BET) != (self._max_bet == 0):
                raise ValueError(f"seat {seat} cannot {KIND_NAMES[kind]}: use {'bet' if self._max_bet == 0 else 'raise'}")
            rng = self.legal_raise_range()
            if rng is None:
                raise ValueError(f"seat {seat} cannot bet or raise here")
            if not rng[0] <= raise_to <= rng[1]:
                raise ValueError(f"raise_to {raise_to} is outside the legal range {rng[0]}..{rng[1]} for seat {seat}")
        else:
            raise ValueError(f"kind must be one of FOLD=0, CHECK=1, CALL=2, BET=3, RAISE=4, got {kind!r}")
        self._act(kind, int(raise_to))

    def forfeit(self) -> None:
        """A fold, also where checking is free and ``allow_fold_when_check`` is False (recorded as a fold)."""
        self._acting_player()
        self._act(FOLD, 0)

    def _act(self, kind: int, to: int) -> None:
        seat = self._player
        n = self.num_players
        bets, stacks = self.bets, self.stacks
        if kind == FOLD:
            self.folded[seat] = True
            self.history[self.street].append(ActionRecord(seat, FOLD, 0, bets[seat], False))
            if n - sum(self.folded) == 1:
                self._acted[seat] = True
                self._finish()
                return
        elif kind == CHECK or kind == CALL:
            added = min(self._max_bet - bets[seat], stacks[seat])
            stacks[seat] -= added
            bets[seat] += added
            self.contributed[seat] += added
            self.history[self.street].append(ActionRecord(seat, kind, added, bets[seat], stacks[seat] == 0))
        else:
            added = to - bets[seat]
            increment = to - self._max_bet
            stacks[seat] -= added
            bets[seat] = to
            self.contributed[seat] += added
            if not self._limit:
                if increment >= self._full_raise:  # a full raise reopens the betting for everyone
                    self._full_raise = increment
                    self._acted = [False] * n
                self._num_raises += 1
            elif 2 * (to - self._level) >= self._full_raise:
                # A bet, raise or completion, or an all-in of at least half a bet: it counts toward the cap and
                # sets the level the next raise adds a bet to. (A shorter all-in does neither.)
                self._level = to
                self._num_raises += 1
                if self._num_raises >= self.config.max_raises_per_round and self._able_to_bet() > 2:
                    self._capped = True
            self._max_bet = to
            self.history[self.street].append(ActionRecord(seat, kind, added, to, stacks[seat] == 0))
        self._acted[seat] = True
        nxt = self._next_actor(seat + 1)
        if nxt < 0:
            self._end_round()
        else:
            self._player = nxt
            self._legal = None
            self._rr = False

    # The end -----------------------------------------------------------------------------------
    def _finish(self) -> None:
        """Pay the pots (showdown if two or more seats are left) and mark the hand over."""
        n = self.num_players
        live = [s for s in range(n) if not self.folded[s]]
        strengths = None
        if len(live) > 1:
            board = self.board
            strengths = [None] * n
            evaluate = self.game.evaluate_hand
            for s in live:
                strengths[s] = evaluate(self.hole[s], board)
            self.strengths = strengths
        self.winnings, self.awards, _ = settle(
            self.contributed, self.folded, strengths, self.button, odd_chips=self.config.odd_chips,
            dead=self.config.dead_chips,
        )
        self._player = TERMINAL
        self._legal = None
        self._rr = False

    def returns(self) -> np.ndarray:
        return np.array(self.chip_returns(), dtype=np.float64)

    def chip_returns(self) -> list[int]:
        """Integer chips won (+) or lost (-) per seat once the hand is over (zeros before)."""
        if self.winnings is None:
            return [0] * self.num_players
        return [w - c for w, c in zip(self.winnings, self.contributed)]

    def information_state_string(self, player: int) -> str:
        hole = cards_to_str(self.hole[player]) if 0 <= player < self.num_players else "?"
        streets = "/".join(
            ",".join(f"{r.player}{'xkcbr'[r.kind] if r.kind else 'f'}{r.total}" for r in street)
            for street in self.history
        )
        return f"p{player} b{self.button} {hole} [{cards_to_str(self.board)}] {streets}"

    def __repr__(self) -> str:
        return (
            f"HoldemState(button={self.button}, street={STREET_NAMES[self.street]}, board={cards_to_str(self.board)}, "
            f"stacks={self.stacks}, bets={self.bets}, pot={self.pot()}, player={self._player})"
        )
