"""A subgame from a live heads-up hold'em state of the rules core: "what is the equilibrium from here?".

The public facts (board, pot, stacks, this street's bets, who acts, the raises so far, who bet last on the street
before) come from the state; the two ranges and the bet sizes allowed are the caller's. Seats map to the solver's
players by position after the flop: the button (small blind heads-up) acts last and is player 1 (IP).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from agent_zoo.solver.spot import Conventions, Spot, StreetSizes
from poker_envs.games.base import CHANCE
from poker_envs.games.holdem import BET, RAISE, HoldemState


def spot_from_state(state: HoldemState, ranges: Mapping[int, np.ndarray], *,
                    sizes: Mapping[tuple[int, str], StreetSizes], allin_threshold: object = None,
                    raise_limit: int = 3, conventions: Conventions = Conventions.RULES) -> tuple[Spot, tuple[int, int]]:
    """The subgame that starts at ``state`` (a heads-up no-limit hand after the flop with a player to act), and
    the seats of (OOP, IP). ``ranges[seat]``: that seat's weights over the 1,326 holdings; ``sizes`` as in
    :class:`~agent_zoo.solver.spot.Spot`, keyed by solver player (0 = OOP)."""
    cfg = state.config
    if cfg.num_players != 2 or cfg.betting != "nolimit":
        raise ValueError(f"state: the solver plays heads-up no-limit hold'em, got {cfg.num_players} players, "
                         f"{cfg.betting} betting")
    if state.street < 1 or state.is_terminal() or state.current_player() == CHANCE:
        raise ValueError("state: expected a decision on the flop, turn or river (not pre-flop, not chance, not over)")
    if len(state.board) not in (3, 4, 5):
        raise ValueError(f"state: expected 3-5 board cards, got {len(state.board)}")
    ip = state.button
    oop = 1 - ip
    seats = (oop, ip)
    if set(ranges) != {0, 1}:
        raise ValueError(f"ranges: expected one range per seat (keys 0 and 1), got keys {sorted(ranges)}")
    bets = tuple(state.bets[s] for s in seats)
    street_start = [state.stacks[s] + state.bets[s] for s in seats]  # chips behind when this street began
    history = state.history
    current = history[-1] if history else []
    before = history[-2] if len(history) >= 2 else []
    aggressors = [r.player for r in before if r.kind in (BET, RAISE)]
    last = -1 if not aggressors else seats.index(aggressors[-1])
    spot = Spot(
        board=tuple(state.board),
        pot=int(state.pot() - sum(state.bets)),
        stack=int(min(street_start)),
        ranges=(ranges[oop], ranges[ip]),
        sizes=dict(sizes),
        allin_threshold=allin_threshold,  # type: ignore[arg-type]
        raise_limit=raise_limit,
        big_blind=int(cfg.big_blind),
        conventions=conventions,
        bets=(int(bets[0]), int(bets[1])),
        to_act=seats.index(state.current_player()),
        raises=sum(1 for r in current if r.kind == RAISE),
        last_street_aggressor=last,
    )
    return spot, seats
