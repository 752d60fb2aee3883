"""Calibration of the document's baseline players against its Table 3 (``python -m agent_zoo.cnn calibrate``).

Table 3 of Hwang & Kaneko ("No-Limit Hold'em using convolutional networks", IPSJ workshop) has the
heuristic beating the random player by +6.82 big blinds per hand over 100,000 hands at 50 big-blind stacks. The document fixes neither the heuristic's raise size nor
whether its random player is uniform over action ids or over action kinds, so every reading
(``heuristic.SIZINGS`` x ``heuristic.RANDOM_READINGS``) is measured three ways, all on the same table
(heads-up no-limit, blinds 1/2, stacks 100 chips = 50 BB, ``bet_sizing="chips"``):

1. ``actions_per_hand``: decisions per hand of heuristic against heuristic (the document: about 7, section
   4.1: 1,400,000 actions from 200,000 hands), on the training path (``selfplay.play_hands``).
2. ``duplicate``: heuristic against random through ``agent_zoo.tournament`` (every deal played with both
   seatings), mean big blinds per hand of the heuristic and the 95% half-width over deals.
3. ``independent``: the same pair on independent deals, seats alternating (the document does not say it
   used duplicate deals); its per-hand standard deviation gives the 95% half-width Table 3's +6.82 had at
   100,000 independent hands, ``1.96 * sd / sqrt(100000)``: the interval a calibrated baseline must land in.

``fold_free_rows``: the same pairs on a table whose rules let a player fold when checking is free (the
heuristic then folds its 10% "always", as the document's shares read literally): ``nolimit_holdem_v0`` with
``allow_fold_when_check=True``, played through ``selfplay.duplicate_match`` (the same duplicate scheme).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from agent_zoo.cnn.heuristic import RANDOM_READINGS, SIZINGS
from agent_zoo.cnn.gating import Z95, mean_ci
from agent_zoo.cnn.selfplay import PlayConfig, Player, draw_deals, duplicate_match, make_game, play_hands
from agent_zoo.registry import make_agent
from agent_zoo.runner import HandSpec, play_aec
from agent_zoo.tournament import TournamentConfig, build_env, deal_layout, run_tournament

TABLE3_HEURISTIC_VS_RANDOM = 6.82  # big blinds per hand, the document's Table 3
TABLE3_HANDS = 100_000
ENV_CONFIG = {"small_blind": 1, "big_blind": 2, "starting_stack": 100, "bet_sizing": "chips"}


def actions_per_hand(sizing: str, hands: int, seed: int, fold_when_check: bool = False) -> float:
    """Mean decisions per hand of heuristic against heuristic (both with ``sizing``)."""
    players = (Player("a", "heuristic", sizing=sizing), Player("b", "heuristic", sizing=sizing))
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2]))
    decks, buttons = draw_deals(hands, rng)
    log = play_hands(make_game(fold_when_check=fold_when_check), players, decks, buttons, rng,
                     PlayConfig(tables=256, stats=True))
    return float(sum(int(c.sum()) for c in log.kinds.values()) / hands)


def independent_hands(specs: tuple[str, str], hands: int, seed: int) -> np.ndarray:
    """Big blinds won by ``specs[0]`` in ``hands`` hands on independent deals, seats alternating."""
    env = build_env("nolimit", ENV_CONFIG)
    agents = [make_agent(s, env) for s in specs]
    layout = deal_layout(env)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))
    plan = []
    for h in range(hands):
        deal = rng.permutation(layout.cards)[: layout.size]
        seats = (0, 1) if h % 2 == 0 else (1, 0)
        plan.append(HandSpec(seats, np.random.SeedSequence(seed, spawn_key=(4, h)), {"deck": deal.tolist(), "button": 0}))
    outcomes = play_aec(lambda: build_env("nolimit", ENV_CONFIG), agents, plan, tables=64)
    return np.array([o.rewards[spec.seats.index(0)] for o, spec in zip(outcomes, plan)])


def calibrate(hands: int = 100_000, seed: int = 17, selfplay_hands: int = 20_000,
              progress: bool = False) -> list[dict[str, Any]]:
    """One record per (heuristic sizing, random reading); see the module doc. ``hands``: hands per pair
    (duplicate: ``hands / 2`` deals x 2 seatings; independent: ``hands`` deals)."""
    if hands < 2 or hands % 2:
        raise ValueError(f"hands must be an even number >= 2, got {hands}")
    per_sizing = {s: actions_per_hand(s, selfplay_hands, seed) for s in SIZINGS}
    rows = []
    for sizing in SIZINGS:
        for reading in RANDOM_READINGS:
            pair = (f"heuristic:{sizing}", f"random:{reading}")
            res = run_tournament(TournamentConfig(game="nolimit", agents=list(pair), hands=hands, seed=seed, env_config=ENV_CONFIG,
                                 progress=progress, style=False))
            x = independent_hands(pair, hands, seed)
            sd = float(x.std(ddof=1))
            paper_ci = Z95 * sd / math.sqrt(TABLE3_HANDS)
            dup, dup_ci = float(res.mean[0, 1]), float(res.ci95[0, 1])
            rows.append({
                "heuristic": sizing, "random": reading, "actions_per_hand": per_sizing[sizing],
                "duplicate": dup, "duplicate_ci95": dup_ci,
                "independent": float(x.mean()), "independent_ci95": Z95 * sd / math.sqrt(hands), "hand_sd": sd,
                "table3_ci95": paper_ci,
                "inside_table3_ci": abs(dup - TABLE3_HEURISTIC_VS_RANDOM) <= paper_ci,
                # the difference to Table 3 with both intervals: is it significant?
                "differs": abs(dup - TABLE3_HEURISTIC_VS_RANDOM) > math.hypot(paper_ci, dup_ci),
            })
    return rows


def fold_free_rows(hands: int = 100_000, seed: int = 17, selfplay_hands: int = 20_000) -> list[dict[str, Any]]:
    """Heuristic against random (duplicate, ``hands / 2`` deals) where folding is legal when checking is free."""
    game = make_game(fold_when_check=True)
    decks, buttons = draw_deals(hands // 2, np.random.default_rng(np.random.SeedSequence([seed, 5])))
    rows = []
    for sizing in SIZINGS:
        per_hand = actions_per_hand(sizing, selfplay_hands, seed, fold_when_check=True)
        for reading in RANDOM_READINGS:
            rng = np.random.default_rng(np.random.SeedSequence([seed, 6]))
            chips, _ = duplicate_match(game, Player("heuristic", "heuristic", sizing=sizing),
                                       Player("random", "random", random_reading=reading), decks, buttons, rng,
                                       stats=False)
            m, h = mean_ci(chips, 2)
            rows.append({"heuristic": sizing, "random": reading, "actions_per_hand": per_hand, "duplicate": m,
                         "duplicate_ci95": float(h)})
    return rows


def table(rows: list[dict[str, Any]], hands: int, seed: int) -> str:
    """The records as a markdown table."""
    lines = [f"heuristic vs random, 50 BB, {hands} hands per pair, seed {seed}; Table 3: +{TABLE3_HEURISTIC_VS_RANDOM}",
             "", "| heuristic size | random | actions/hand (heu v heu) | duplicate BB/hand | independent BB/hand | "
             "hand sd | Table 3 95% interval | inside | differs |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = TABLE3_HEURISTIC_VS_RANDOM - r["table3_ci95"], TABLE3_HEURISTIC_VS_RANDOM + r["table3_ci95"]
        lines.append(f"| {r['heuristic']} | {r['random']} | {r['actions_per_hand']:.2f} | {r['duplicate']:+.2f} ± "
                     f"{r['duplicate_ci95']:.2f} | {r['independent']:+.2f} ± {r['independent_ci95']:.2f} | "
                     f"{r['hand_sd']:.1f} | [{lo:.2f}, {hi:.2f}] | {'yes' if r['inside_table3_ci'] else 'no'} | "
                     f"{'yes' if r['differs'] else 'no'} |")
    return "\n".join(lines)


def fold_free_table(rows: list[dict[str, Any]], hands: int, seed: int) -> str:
    """``fold_free_rows`` as a markdown table."""
    lines = [f"the same where folding is legal when checking is free (rules engine, {hands} hands per pair, seed {seed})",
             "", "| heuristic size | random | actions/hand (heu v heu) | duplicate BB/hand |", "|---|---|---|---|"]
    lines += [f"| {r['heuristic']} | {r['random']} | {r['actions_per_hand']:.2f} | {r['duplicate']:+.2f} ± "
              f"{r['duplicate_ci95']:.2f} |" for r in rows]
    return "\n".join(lines)


def records(rows: list[dict[str, Any]], fold_free: list[dict[str, Any]], hands: int, seed: int) -> dict[str, Any]:
    """Everything ``calibrate`` measured, as the JSON ``--json`` writes."""
    return {"hands": hands, "seed": seed, "env_config": ENV_CONFIG, "table3": TABLE3_HEURISTIC_VS_RANDOM,
            "rows": rows, "fold_when_check_rows": fold_free}
