"""Tracker statistics ("HUD") of a session's players, from the action logs of its finished hands.

A language model reading a long session does better with each opponent's tendencies than with every past
hand; this module counts them, as poker trackers do, from ``HandRecord``s (the finished hands' public action
logs, ``poker_envs.encoders.history.ActionEntry`` rows). Pure: no environment, no state but the counts.

Definitions (each statistic is ``made / opportunities`` for one seat, over the session's hands it was dealt into;
preflop "raises" are the actions of kind bet or raise, the big blind's post is not one):

* **VPIP**: put chips in voluntarily preflop (a call, a bet or a raise; posting a blind is not, so the big
  blind's check is not VPIP and the small blind's completing call is). Opportunity: the seat acted preflop
  (a walk, where the big blind never acts, and a seat all-in from its blind are no opportunity).
* **PFR**: raised preflop. Same opportunities as VPIP.
* **3-bet**: raised preflop when facing exactly one raise (the open raise) by another seat. Opportunity: an
  action while exactly one raise stood, the seat not being the raiser (whether or not a raise was legal).
* **Fold to 3-bet**: the preflop open raiser, acting again when exactly two raises stand (a 3-bet by
  another seat and no 4-bet yet), folds.
* **C-bet**: the preflop last aggressor (the last seat to raise preflop; a limped pot has none) bets the
  flop when first to act or checked to. Opportunity: its first flop action with no flop bet before it.
* **Fold to c-bet**: a seat's first flop action after a c-bet, with no raise since the c-bet, is a fold.
* **WTSD** (went to showdown): the seat saw the flop (did not fold preflop and at least two seats were left
  after preflop, all-in run-outs included) and had not folded when the hand ended with at least two seats
  left. Opportunity: saw the flop.
* **AF** (aggression factor): postflop (flop, turn, river) bets + raises divided by postflop calls; the two
  counts are kept (``aggressive``, ``calls``) and ``af`` is None while there are no calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import NamedTuple

from poker_envs.encoders.history import ActionEntry
from poker_envs.games.base import ActionKind

FOLD, CALL, BET, RAISE = int(ActionKind.FOLD), int(ActionKind.CALL), int(ActionKind.BET), int(ActionKind.RAISE)
AGGRESSIVE = (BET, RAISE)  # action kinds of the log that raise the stakes
STATS = ("vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "wtsd")  # made/opportunity pairs


class HandRecord(NamedTuple):
    """One finished hand of a session, as public information (amounts in chips; push/fold: big blinds)."""

    number: int  # the hand's number in the session (0-based)
    dealt: tuple[int, ...]  # environment seats dealt in
    actions: tuple[ActionEntry, ...]  # every action of the hand, oldest first (posting blinds is not an action)
    board: tuple[int, ...]  # the board cards dealt (card ids)
    net: tuple[float, ...]  # per environment seat, chips won (+) or lost (-) in the hand
    blinds: tuple[float, ...] = ()  # per environment seat, the blind posted (empty: not recorded)
    players: tuple[int, ...] = ()  # per environment seat, who sat there (a runner's player ids; empty: the seats are the players)


@dataclass
class SeatStats:
    """One seat's tracker counts over a session (module doc: the definitions)."""

    hands: int = 0  # hands dealt into
    vpip: int = 0
    vpip_opportunities: int = 0
    pfr: int = 0
    pfr_opportunities: int = 0
    three_bet: int = 0
    three_bet_opportunities: int = 0
    fold_to_three_bet: int = 0
    fold_to_three_bet_opportunities: int = 0
    cbet: int = 0
    cbet_opportunities: int = 0
    fold_to_cbet: int = 0
    fold_to_cbet_opportunities: int = 0
    wtsd: int = 0
    wtsd_opportunities: int = 0
    aggressive: int = 0  # postflop bets and raises
    calls: int = 0  # postflop calls

    @property
    def af(self) -> float | None:
        """Aggression factor: postflop (bets + raises) / calls; None while there are no calls."""
        return self.aggressive / self.calls if self.calls else None

    def add(self, other: SeatStats) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def hand_stats(record: HandRecord) -> dict[int, SeatStats]:
    """The tracker counts of every seat dealt into one finished hand (module doc: the definitions)."""
    stats = {s: SeatStats(hands=1) for s in record.dealt}
    for e in record.actions:
        if e.seat not in stats:
            raise ValueError(f"hand {record.number}: seat {e.seat} acts but is not dealt in (dealt: {record.dealt})")
    preflop = [e for e in record.actions if e.street == 0]
    raises, opener, aggressor = 0, None, None
    for e in preflop:
        st = stats[e.seat]
        first = st.vpip_opportunities == 0
        if first:
            st.vpip_opportunities = st.pfr_opportunities = 1
        if e.kind in (CALL, *AGGRESSIVE):
            st.vpip = 1
        if e.kind in AGGRESSIVE:
            st.pfr = 1
        if raises == 1 and e.seat != opener and not st.three_bet_opportunities:
            st.three_bet_opportunities = 1
            st.three_bet = int(e.kind in AGGRESSIVE)
        if raises == 2 and e.seat == opener and not st.fold_to_three_bet_opportunities:
            st.fold_to_three_bet_opportunities = 1
            st.fold_to_three_bet = int(e.kind == FOLD)
        if e.kind in AGGRESSIVE:
            raises += 1
            opener = e.seat if opener is None else opener
            aggressor = e.seat
    folded_preflop = {e.seat for e in preflop if e.kind == FOLD}
    saw_flop = [s for s in record.dealt if s not in folded_preflop]
    if len(saw_flop) < 2:
        return stats
    folded = {e.seat for e in record.actions if e.kind == FOLD}
    showdown = len([s for s in record.dealt if s not in folded]) >= 2
    for s in saw_flop:
        stats[s].wtsd_opportunities = 1
        stats[s].wtsd = int(showdown and s not in folded)
    for e in record.actions:
        if e.street > 0 and e.kind in AGGRESSIVE:
            stats[e.seat].aggressive += 1
        elif e.street > 0 and e.kind == CALL:
            stats[e.seat].calls += 1
    flop = [e for e in record.actions if e.street == 1]
    cbet_at = _cbet(flop, aggressor, stats)
    if cbet_at is not None:
        faced: set[int] = set()
        for e in flop[cbet_at + 1 :]:
            if e.seat != aggressor and e.seat not in faced:
                faced.add(e.seat)
                stats[e.seat].fold_to_cbet_opportunities = 1
                stats[e.seat].fold_to_cbet = int(e.kind == FOLD)
            if e.kind in AGGRESSIVE:
                break  # a raise of the c-bet: later seats face the raise, not the c-bet
    return stats


def _cbet(flop: Sequence[ActionEntry], aggressor: int | None, stats: dict[int, SeatStats]) -> int | None:
    """Count the preflop aggressor's c-bet opportunity; the index of the c-bet in ``flop``, or None."""
    if aggressor is None:
        return None
    for i, e in enumerate(flop):
        if e.kind in AGGRESSIVE and e.seat != aggressor:
            return None  # someone bet first (a donk bet): no c-bet opportunity
        if e.seat == aggressor:
            stats[aggressor].cbet_opportunities = 1
            stats[aggressor].cbet = int(e.kind == BET)
            return i if e.kind == BET else None
    return None  # the aggressor did not act on the flop (all-in, or the hand ended first)


def session_stats(records: Iterable[HandRecord]) -> dict[int, SeatStats]:
    """Every seat's tracker counts summed over a session's finished hands."""
    return _summed(records, lambda record, seat: seat)


def player_stats(records: Iterable[HandRecord]) -> dict[int, SeatStats]:
    """Every player's tracker counts summed over finished hands that name their players (``HandRecord.players``):
    a player keeps its statistics when it changes seats between hands, as a tracker follows a screen name."""
    return _summed(records, _player)


def _player(record: HandRecord, seat: int) -> int:
    if not record.players:
        raise ValueError(f"hand {record.number} names no players (HandRecord.players is empty)")
    return record.players[seat]


def _summed(records: Iterable[HandRecord], key: Callable[[HandRecord, int], int]) -> dict[int, SeatStats]:
    """The hands' tracker counts summed per ``key(record, seat)`` (a seat, or the player who sat there)."""
    total: dict[int, SeatStats] = {}
    for record in records:
        for seat, st in hand_stats(record).items():
            total.setdefault(key(record, seat), SeatStats()).add(st)
    return total


def reseat(record: HandRecord, players: Sequence[int]) -> HandRecord | None:
    """``record`` with its seats renumbered to where its players sit now (``players[s]``: who sits at seat ``s``),
    so a hand played in other seats reads in the current ones; None if one of its players is not seated now or
    sits twice (no one seat to name it by)."""
    if not record.players:
        raise ValueError(f"hand {record.number} names no players (HandRecord.players is empty)")
    now = {p: s for s, p in enumerate(players)}
    if len(now) != len(players) or len(set(record.players)) != len(record.players) or not set(record.players) <= set(now):
        return None
    to = [now[p] for p in record.players]  # old seat -> new seat
    actions = tuple(e._replace(seat=to[e.seat]) for e in record.actions)

    def moved(values: tuple[float, ...]) -> tuple[float, ...]:
        out = [0.0] * len(players)
        for s, x in enumerate(values):
            out[to[s]] = x
        return tuple(out)

    return record._replace(dealt=tuple(sorted(to[s] for s in record.dealt)), actions=actions, net=moved(record.net),
                           blinds=moved(record.blinds) if record.blinds else (), players=tuple(players))


__all__ = ["STATS", "HandRecord", "SeatStats", "hand_stats", "player_stats", "reseat", "session_stats"]
