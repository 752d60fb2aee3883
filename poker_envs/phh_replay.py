"""Replay a PHH hold'em-family hand (NT, FT, NS, PO) through ``poker_envs.games.holdem`` and settle it in the
hand's own chips. ``REPLAY_VARIANTS`` maps each variant code onto the rules' configuration (betting, ranking,
hole cards, hand rule); nothing else here knows the shape of a hand.

Seats: PHH player ``p(i+1)`` sits at engine seat ``i`` and the button is seat ``N - 1`` (with 3 or
more players ``p1`` posts the small blind; heads-up ``p1`` is the big blind and ``p2`` the button,
as the PHH specification's reverse assignment and pokerkit have it).

Chips: the engine counts whole chips, so every amount of the hand (antes, blinds, bet sizes,
stacks, bet amounts) is multiplied by the smallest power of ten that makes all of them integral
(``ReplayResult.scale``), and results are divided back.

Antes: uniform antes are posted by the engine (so the states show them in the pot); other antes
(PHH antes are per player, e.g. big-blind antes) are kept out of the engine: each stack enters it
less its ante, and states do not show them. Either way the pots are settled here from the engine's
final contributions. ``ante_trimming_status = true``: antes are part of each
player's contribution when the side pots are layered; ``false`` (the default, and the WSOP big-blind
ante files): the antes form a dead pot open to every player still in, pooled with the main pot, as
in pokerkit. Uncalled chips go back to their owner; a player who mucks (``pN sm`` without cards) at
showdown gives up his claim; pots are ``poker_envs.core.settlement``'s, odd chips split as the
hand's field ``_odd_chips`` says (``wrappers.hand_history`` writes the env's rule), else as pokerkit
does (``"pooled"``; Pluribus files record half chips instead, within half a chip of either).
Field ``_headsup_cap = false`` lifts the heads-up limit cap (``HoldemConfig.headsup_cap``).

Unknown cards (``????``): cards shown later with ``sm`` fill them in; the rest are drawn at random
(``numpy.random.default_rng(seed)``) from the cards seen nowhere in the hand, and so are board cards
written as ``??`` or missing from an all-in run-out. When such a drawn card could decide a showdown,
the result is not the recorded one, only a possible one: ``ReplayResult.exact`` is then False.

An action the rules do not allow (out of turn, a bet outside the legal range, a fold after the hand
is over, a card dealt twice, ...) raises ``PHHError`` naming the hand, the action index and its text.
Folding when checking is free is allowed here (a legal, if silly, move in card rooms). A check by a
player who has no decision left (everybody else all-in or out, his bet matched) is accepted and
changes nothing: pokerkit asks for such a check, the rules engine skips that player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import numpy as np

from poker_envs.core.settlement import ODD_CHIP_RULES
from poker_envs.core.settlement import settle as settle_hand
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame, HoldemState
from poker_envs.phh_format import Hand, Number, PHHError, format_cards, parse_cards

# PHH variant code -> the HoldemConfig fields of that game (the rest come from the hand's own fields).
REPLAY_VARIANTS: dict[str, dict[str, object]] = {
    "NT": {"betting": "nolimit"},
    "FT": {"betting": "limit"},
    "NS": {"betting": "nolimit", "ranking": "short_deck"},
    "PO": {"betting": "potlimit", "hole_cards": 4, "hand_rule": "omaha"},
}
MAX_SCALE_DIGITS = 9  # amounts with more decimal places than this are refused

# on_action(step, seat, state, kind, raise_to): called before each player action is applied to ``state``
# (``step`` indexes ``hand.actions``; ``raise_to`` is in engine chips, 0 unless a bet or raise).
ActionHook = Callable[[int, int, HoldemState, int, int], None]


@dataclass(frozen=True)
class ReplayResult:
    """What a replayed hand came to (amounts in the hand's own chips unless said otherwise)."""

    hand: Hand
    state: HoldemState  # the engine's final state (engine chips = hand chips * scale); seat i = p(i+1)
    scale: int  # engine chips per chip of the hand (a power of ten)
    results: tuple[Number, ...]  # chips won (+) or lost (-) per player, p1 first
    finishing_stacks: tuple[Number, ...]  # starting stack + result, per player
    mucked: tuple[bool, ...]  # players who mucked at showdown (gave up their claim)
    cards_known: tuple[bool, ...]  # per player: hole cards given by the file (dealt or shown), not drawn
    exact: bool  # False when randomly drawn cards (unknown in the file) took part in a showdown

    def mismatch(self, tolerance: float = 0.5) -> list[int]:
        """Players whose finishing stack differs from the file's ``finishing_stacks`` by more than
        ``tolerance`` chips (all players' indices 0..N-1; [] if the file gives none)."""
        recorded = self.hand.finishing_stacks
        if recorded is None:
            return []
        return [i for i, (a, b) in enumerate(zip(self.finishing_stacks, recorded)) if abs(a - b) > tolerance]


# Parsing --------------------------------------------------------------------------------------------
class _Action:
    __slots__ = ("step", "text", "actor", "verb", "cards", "amount")

    def __init__(self, step: int, text: str, actor: int | None, verb: str, cards: list[int | None] | None,
                 amount: str | None) -> None:
        self.step, self.text, self.actor, self.verb, self.cards, self.amount = step, text, actor, verb, cards, amount


def _fail(hand: Hand, step: int | None, text: str | None, why: str) -> PHHError:
    where = hand.source or "hand"
    if step is None:
        return PHHError(f"{where}: {why}")
    return PHHError(f"{where}: action {step} {text!r}: {why}")


def _player_index(hand: Hand, step: int, text: str, label: str) -> int:
    if len(label) < 2 or label[0] != "p" or not label[1:].isdigit() or not 1 <= int(label[1:]) <= hand.num_players:
        raise _fail(hand, step, text, f"{label!r} is not a player p1..p{hand.num_players}")
    return int(label[1:]) - 1


def _parse_actions(hand: Hand) -> list[_Action]:
    out: list[_Action] = []
    for step, text in enumerate(hand.actions):
        words = text.split("#", 1)[0].split()
        if not words:
            continue  # a no-op / commentary
        try:
            if words[0] == "d":
                if len(words) == 3 and words[1] == "db":
                    out.append(_Action(step, text, None, "db", parse_cards(words[2]), None))
                    continue
                if len(words) == 4 and words[1] == "dh":
                    seat = _player_index(hand, step, text, words[2])
                    out.append(_Action(step, text, seat, "dh", parse_cards(words[3]), None))
                    continue
                raise _fail(hand, step, text, "a dealer action is 'd db <cards>' or 'd dh pN <cards>'")
            seat = _player_index(hand, step, text, words[0])
            verb = words[1] if len(words) > 1 else ""
            if verb in ("f", "cc") and len(words) == 2:
                out.append(_Action(step, text, seat, verb, None, None))
            elif verb == "cbr" and len(words) == 3:
                out.append(_Action(step, text, seat, verb, None, words[2]))
            elif verb == "sm" and len(words) in (2, 3):
                cards = None if len(words) == 2 else ([] if words[2] == "-" else parse_cards(words[2]))
                out.append(_Action(step, text, seat, verb, cards, None))
            elif verb in ("sd", "pb"):
                raise _fail(hand, step, text, f"'{verb}' (draw / bring-in) is not a hold'em action")
            else:
                raise _fail(hand, step, text, "not a PHH action (f, cc, cbr <amount>, sm [<cards>])")
        except ValueError as err:
            if isinstance(err, PHHError):
                raise
            raise _fail(hand, step, text, str(err)) from None
    return out


def _decimal(value: Number | str) -> Decimal:
    try:
        return Decimal(repr(value) if isinstance(value, float) else str(value))
    except InvalidOperation:
        raise ValueError(f"{value!r} is not a number") from None


def _scale_of(hand: Hand, actions: list[_Action]) -> int:
    """The smallest power of ten that makes every amount of the hand a whole number of chips."""
    values: list[Number | str] = [*hand.antes, *hand.starting_stacks, *(hand.blinds_or_straddles or ())]
    values += [v for v in (hand.min_bet, hand.small_bet, hand.big_bet) if v is not None]
    for i, v in enumerate(hand.starting_stacks):
        if isinstance(v, float) and not np.isfinite(v):
            raise _fail(hand, None, None, f"starting_stacks[{i}] is {v} (unknown): replay needs every stack")
    digits = 0
    for v in values:
        if isinstance(v, float) and not v.is_integer():
            digits = max(digits, -_decimal(v).normalize().as_tuple().exponent)
    for a in actions:
        if a.amount is not None and not a.amount.isdigit():
            try:
                d = _decimal(a.amount)
            except ValueError as err:
                raise _fail(hand, a.step, a.text, str(err)) from None
            if not d.is_finite() or d <= 0:
                raise _fail(hand, a.step, a.text, "the amount must be a positive number of chips")
            digits = max(digits, -d.normalize().as_tuple().exponent)
    if digits > MAX_SCALE_DIGITS:
        raise _fail(hand, None, None, f"amounts with {digits} decimal places (at most {MAX_SCALE_DIGITS} supported)")
    return 10**digits


def _chips(value: Number | str, scale: int) -> int:
    if isinstance(value, int):
        return value * scale
    if isinstance(value, str) and value.isdigit():
        return int(value) * scale
    return int(_decimal(value) * scale)


@lru_cache(maxsize=256)
def _game(config: HoldemConfig) -> HoldemGame:
    return HoldemGame(config)


def _table(hand: Hand, scale: int) -> tuple[HoldemGame, list[int], bool]:
    """The engine game of the hand, each seat's ante in engine chips, and whether the engine posts them
    (uniform antes) or they were taken out of the stacks (the others)."""
    n = hand.num_players
    if not 2 <= n <= 10:
        raise _fail(hand, None, None, f"{n} players: replay supports 2 to 10")
    blinds = [_chips(b, scale) for b in hand.blinds_or_straddles or [0] * n]
    if any(blinds[2:]):
        raise _fail(hand, None, None, f"field 'blinds_or_straddles' {list(hand.blinds_or_straddles)}: straddles "
                    "(forced bets past the big blind) are not supported by the rules engine")
    sb, bb = blinds[0], blinds[1]
    if bb < 1 or sb > bb:
        raise _fail(hand, None, None, f"field 'blinds_or_straddles': need 0 <= small blind <= big blind, big blind > 0, "
                    f"got {list(hand.blinds_or_straddles or [])}")
    antes = [_chips(a, scale) for a in hand.antes]
    if n == 2:
        antes = antes[::-1]  # heads-up forced bets are reverse-assigned
    stacks = [_chips(s, scale) for s in hand.starting_stacks]
    in_engine = len(set(antes)) == 1 and antes[0] > 0  # the engine's own ante: states show it in the pot
    ante = antes[0] if in_engine else 0
    antes = [min(a, s) for a, s in zip(antes, stacks)]
    behind = stacks if in_engine else [s - a for s, a in zip(stacks, antes)]
    if min(behind) <= 0:
        raise _fail(hand, None, None, f"player p{behind.index(min(behind)) + 1} is all-in on the ante: not supported")
    variant = REPLAY_VARIANTS[hand.variant]
    betting = variant["betting"]
    raises = 4
    if betting != "limit":
        if _chips(hand.min_bet, scale) != bb:
            raise _fail(hand, None, None, f"field 'min_bet' {hand.min_bet} differs from the big blind "
                        f"{hand.blinds_or_straddles[1]}: the rules engine's minimum bet is the big blind")
    else:
        small, big = _chips(hand.small_bet, scale), _chips(hand.big_bet, scale)
        if small != bb or big != 2 * bb:
            raise _fail(hand, None, None, f"fields 'small_bet' {hand.small_bet} / 'big_bet' {hand.big_bet}: the rules "
                        "engine's limit bets are one big blind, then two")
        raises = hand.fields.get("_max_raises_per_round", 4)
    headsup_cap = hand.fields.get("_headsup_cap", True)
    if not isinstance(headsup_cap, bool):
        raise _fail(hand, None, None, f"field '_headsup_cap' must be true or false, got {headsup_cap!r}")
    config = HoldemConfig(num_players=n, small_blind=sb, big_blind=bb, ante=ante, starting_stacks=tuple(behind),
                          max_raises_per_round=raises, allow_fold_when_check=True,
                          dead_chips=0 if in_engine else sum(antes),  # antes kept out of the stacks still count in the pot
                          headsup_cap=headsup_cap, odd_chips=_odd_chips(hand), **variant)
    return _game(config), antes, in_engine


def _odd_chips(hand: Hand) -> str:
    """The hand's odd-chip rule: field ``_odd_chips`` (written by ``wrappers.hand_history``), else pokerkit's."""
    rule = hand.fields.get("_odd_chips", "pooled")
    if rule not in ODD_CHIP_RULES:
        raise _fail(hand, None, None, f"field '_odd_chips' must be one of {ODD_CHIP_RULES}, got {rule!r}")
    return rule


# Cards ------------------------------------------------------------------------------------------------
def _deal_plan(hand: Hand, actions: list[_Action], rng: np.random.Generator,
               deck: tuple[int, ...], size: int) -> tuple[list[list[int]], list[bool], set[int]]:
    """Hole cards per seat (``size`` each; unknown ones filled at random from ``deck``), which seats' cards were
    drawn, cards seen."""
    n = hand.num_players
    hole: list[list[int | None]] = [[] for _ in range(n)]
    seen: dict[int, int] = {}  # card -> step that showed it

    def see(card: int | None, a: _Action) -> None:
        if card is None:
            return
        if card in seen and seen[card] != a.step:
            raise _fail(hand, a.step, a.text, f"card {format_cards([card])} was already dealt (action {seen[card]})")
        seen[card] = a.step

    for a in actions:
        if a.verb == "dh":
            hole[a.actor].extend(a.cards)
            if len(hole[a.actor]) > size:
                raise _fail(hand, a.step, a.text, f"p{a.actor + 1} gets more than {size} hole cards")
            for c in a.cards:
                see(c, a)
        elif a.verb == "db":
            for c in a.cards:
                see(c, a)
    for a in actions:  # shown cards fill in unknown hole cards
        if a.verb == "sm" and a.cards:
            own = hole[a.actor]
            known = [c for c in own if c is not None]
            if len(a.cards) != size or any(c is None for c in a.cards) or not set(known) <= set(a.cards):
                raise _fail(hand, a.step, a.text, f"shows {format_cards(a.cards)} but p{a.actor + 1} was dealt "
                            f"{format_cards(own)}")
            if len(known) < size:
                for c in a.cards:
                    if c not in known:
                        see(c, a)
                hole[a.actor] = list(a.cards)
    drawn = [False] * n
    free = [c for c in deck if c not in seen]
    order = list(rng.permutation(len(free)))
    for seat in range(n):
        cards = hole[seat]
        if len(cards) < size:
            cards.extend([None] * (size - len(cards)))
        for k in range(size):
            if cards[k] is None:
                cards[k] = free[order.pop()]
                drawn[seat] = True
    used = set(seen) | {c for cards in hole for c in cards}
    return hole, drawn, used  # type: ignore[return-value]


def _draw(used: set[int], rng: np.random.Generator, deck: tuple[int, ...]) -> int:
    free = [c for c in deck if c not in used]
    card = free[int(rng.integers(len(free)))]
    used.add(card)
    return card


def _betting_over(state: HoldemState) -> bool:
    """No player decision is left in the hand (it is over, or an all-in run-out is being dealt)."""
    player = state.current_player()
    if player == TERMINAL:
        return True
    if player != CHANCE:
        return False
    stacks, folded = state.stacks, state.folded
    return sum(1 for s in range(state.num_players) if not folded[s] and stacks[s] > 0) <= 1


# Settling ------------------------------------------------------------------------------------------------
def settle(contributed: list[int], antes: list[int], out: list[bool], strengths: list[int | None] | None,
           button: int, trimming: bool, odd_chips: str = "pooled") -> list[int]:
    """Chips each seat collects: uncalled chips back, antes (dead pot or layered), pots by hand strength.

    ``out[s]``: seat s folded or mucked; ``strengths[s]``: hand value of every seat still in when two
    or more are (None otherwise). The pots are ``poker_envs.core.settlement``'s, with the antes as its
    dead money (``trimming`` False) or part of each contribution (True); odd chips split as pokerkit does
    (``odd_chips="pooled"``) unless told otherwise.
    """
    if all(out):
        raise ValueError("every player folded or mucked: nobody can win the pot")
    if trimming:
        return settle_hand([c + a for c, a in zip(contributed, antes)], out, strengths, button, odd_chips=odd_chips).collected
    return settle_hand(list(contributed), out, strengths, button, odd_chips=odd_chips, dead=sum(antes)).collected


def _to_hand_chips(value: int, scale: int) -> Number:
    return value // scale if value % scale == 0 else value / scale


# Replay ---------------------------------------------------------------------------------------------------
def replay(hand: Hand, seed: int = 0, on_action: ActionHook | None = None) -> ReplayResult:
    """Play ``hand`` (variant NT, FT, NS or PO, 2..10 players) through the rules engine and settle it.

    ``seed`` draws the cards the file does not give (see the module docstring); ``on_action`` is
    called before each player action with the state the player saw (do not modify it).
    """
    if hand.variant not in REPLAY_VARIANTS:
        raise _fail(hand, None, None, f"variant {hand.variant!r} cannot be replayed: only {sorted(REPLAY_VARIANTS)} "
                    "(no-limit and fixed-limit Texas hold'em, no-limit short-deck hold'em, pot-limit Omaha) are supported")
    actions = _parse_actions(hand)
    scale = _scale_of(hand, actions)
    game, antes, antes_in_engine = _table(hand, scale)
    n = hand.num_players
    rng = np.random.default_rng(seed)
    size = game.config.hole_cards
    hole, drawn, used = _deal_plan(hand, actions, rng, game.deck, size)
    state = game.new_initial_state(button=n - 1)
    for k in range(size * n):  # the engine deals one card at a time from the seat left of the button
        state.apply(hole[(n + k) % n][k // n])
    mucked = [False] * n
    board_drawn = False
    started = False
    for a in actions:
        verb = a.verb
        if verb == "dh":
            if started:
                raise _fail(hand, a.step, a.text, "hold'em deals hole cards before any other action")
            continue
        started = True
        if verb == "db":
            for card in a.cards:
                player = state.current_player()
                if player != CHANCE:
                    why = "the hand is over" if player == TERMINAL else f"p{player + 1} is to act"
                    raise _fail(hand, a.step, a.text, f"no board card is due: {why}")
                if card is None:
                    card = _draw(used, rng, game.deck)
                    board_drawn = True
                state.apply(card)
            continue
        seat = a.actor
        if verb == "sm":
            if state.folded[seat]:
                raise _fail(hand, a.step, a.text, f"p{seat + 1} folded and has nothing to show")
            if not _betting_over(state):
                raise _fail(hand, a.step, a.text, "showing or mucking comes at showdown, after the betting")
            mucked[seat] = a.cards is None
            continue
        player = state.current_player()
        if player != seat and verb == "cc" and player == CHANCE and not state.folded[seat] and _betting_over(state):
            continue  # a check that decides nothing (everyone else all-in or out): pokerkit asks for it, we skip it
        if player != seat:
            if player == CHANCE:
                why = "the board must be dealt first"
            elif player == TERMINAL:
                why = "the hand is over"
            else:
                why = f"it is p{player + 1}'s turn"
            raise _fail(hand, a.step, a.text, why)
        if verb == "f":
            kind, to = FOLD, 0
        elif verb == "cc":
            kind, to = (CALL if state.max_bet() > state.bets[seat] else CHECK), 0
        else:
            try:
                exact_to = _decimal(a.amount) * scale
            except ValueError as err:
                raise _fail(hand, a.step, a.text, str(err)) from None
            to = int(exact_to)
            kind = RAISE if state.max_bet() > 0 else BET
        if on_action is not None:
            on_action(a.step, seat, state, kind, to)
        try:
            state.apply_raw(kind, to)
        except ValueError as err:
            raise _fail(hand, a.step, a.text, f"not allowed by the rules: {err}") from None
    player = state.current_player()
    while player == CHANCE and _betting_over(state):  # an all-in run-out the file does not deal
        state.apply(_draw(used, rng, game.deck))
        board_drawn = True
        player = state.current_player()
    if player != TERMINAL:
        due = "a board card" if player == CHANCE else f"an action of p{player + 1}"
        raise _fail(hand, None, None, f"the actions stop before the hand is over ({due} is due next)")
    if state.folded.count(False) == 1:
        mucked = [False] * n  # the last player left wins without showing: "mucking" then forfeits nothing
    out = [f or m for f, m in zip(state.folded, mucked)]
    bets = [c - a for c, a in zip(state.contributed, antes)] if antes_in_engine else list(state.contributed)
    try:
        won = settle(bets, antes, out, state.strengths, state.button, hand.ante_trimming_status, game.config.odd_chips)
    except ValueError as err:
        raise _fail(hand, None, None, str(err)) from None
    live = [s for s in range(n) if not out[s]]
    showdown = len(live) > 1
    exact = not (showdown and (board_drawn or any(drawn[s] for s in live)))
    results = [w - b - a for w, b, a in zip(won, bets, antes)]
    res = tuple(_to_hand_chips(r, scale) for r in results)
    finishing = tuple(
        s + r if isinstance(s, int) and isinstance(r, int) else float(_decimal(s) + Decimal(results[i]) / scale)
        for i, (s, r) in enumerate(zip(hand.starting_stacks, res))
    )
    return ReplayResult(hand, state, scale, res, finishing, tuple(mucked), tuple(not d for d in drawn), exact)
