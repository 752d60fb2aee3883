"""Ratings for populations of agents from duplicate tournament results (OpenSkill, Plackett-Luce).

Pairwise means (``TournamentResult.mean``) say how two agents did against each other; a population of agents
(a league, self-play generations, language models) seated several at a table wants one number per agent.
This module rates every agent with the Weng-Lin Bayesian rating of Weng and Lin, "A Bayesian Approximation
Method for Online Ranking", JMLR 12 (2011), in its Plackett-Luce form as the ``openskill`` package implements
it: a multi-way result is a ranking, so no pairwise decomposition is needed, and each rating carries its
uncertainty ``sigma``. TrueSkill would do as well; OpenSkill is open (MIT), pure Python and faster.

What one match is
-----------------
One *deal* of the tournament: a line-up of agents played on the same cards under every rotation of the
seats. Each seated agent's value is its summed result over the rotations (``BlockResult.values``, reward per
hand or prize per sit-and-go), so the card luck of the deal cancels, and the ranking of the agents at the deal
(highest value first, equal values tied) does not depend on which seat anybody held in which rotation. Agents
not seated at a deal (more agents than seats) are not in that match.

Order
-----
Online ratings depend on the order of their matches. Matches are applied in the tournament's deal order,
which the tournament's seed fixes (line-ups and cards), so the same seed gives the same ratings bit for bit,
on any number of workers (results are gathered in block order). The skill drift ``tau`` is 0 (OpenSkill's
default 25/300 suits players who change between games; a tournament's agents are fixed): sigma then keeps
shrinking with the matches, and the ratings weigh early and late deals alike instead of following the last few
hundred.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

CONSERVATIVE_SIGMAS = 3.0  # the leaderboard's conservative rating: mu - 3 sigma (OpenSkill's ordinal)
TAU = 0.0  # skill drift added to sigma before each match: none, a tournament's agents do not change while it runs


@dataclass(frozen=True)
class Leaderboard:
    """The rated population, best conservative rating first."""

    agents: tuple[str, ...]  # agent names, in leaderboard order
    mu: np.ndarray  # (agents,) mean skill
    sigma: np.ndarray  # (agents,) skill uncertainty
    matches: np.ndarray  # (agents,) deals the agent was rated in
    model: str = "PlackettLuce"  # openskill model

    @property
    def conservative(self) -> np.ndarray:
        """mu - 3 sigma: the skill the agent has with high probability (the leaderboard's sort key)."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma

    def rows(self) -> list[dict[str, Any]]:
        return [{"rank": k + 1, "agent": a, "mu": float(m), "sigma": float(s), "conservative": float(c), "matches": int(n)}
                for k, (a, m, s, c, n) in enumerate(zip(self.agents, self.mu, self.sigma, self.conservative,
                                                        self.matches, strict=True))]

    def to_dict(self) -> dict[str, Any]:
        return {"model": f"openskill {self.model}", "tau": TAU, "match": "one deal under every seat rotation",
                "conservative": f"mu - {CONSERVATIVE_SIGMAS:g} sigma", "leaderboard": self.rows()}

    def table(self) -> str:
        width = max(8, *(len(a) for a in self.agents)) + 2
        lines = [f"ratings (OpenSkill {self.model}; one match per deal; sorted by mu - 3 sigma)",
                 f"{'rank':<6}{'agent':<{width}}{'mu':>9}{'sigma':>8}{'mu-3sigma':>11}{'matches':>9}"]
        for r in self.rows():
            lines.append(f"{r['rank']:<6}{r['agent']:<{width}}{r['mu']:>9.2f}{r['sigma']:>8.2f}{r['conservative']:>11.2f}"
                         f"{r['matches']:>9}")
        return "\n".join(lines)

    def write_csv(self, path: str) -> None:
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=["rank", "agent", "mu", "sigma", "conservative", "matches"])
            writer.writeheader()
            writer.writerows(self.rows())

    def write_png(self, path: str, title: str = "ratings") -> None:
        """mu with its +-3 sigma bar per agent, best at the top."""
        from matplotlib.figure import Figure

        from agent_zoo.figures import save_figure

        k = len(self.agents)
        fig = Figure(figsize=(7, 1.2 + 0.35 * k))
        ax = fig.subplots()
        y = np.arange(k)[::-1]
        ax.errorbar(self.mu, y, xerr=CONSERVATIVE_SIGMAS * self.sigma, fmt="o", capsize=3)
        ax.plot(self.conservative, y, "k|", markersize=12, label="mu - 3 sigma (sort key)")
        ax.set_yticks(y, list(self.agents))
        ax.set_xlabel("OpenSkill rating (mu, bars +-3 sigma)")
        ax.set_title(title)
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8)  # beside the axes: covers no bar
        save_figure(fig, path)


def match_ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(seated agents, their ranks) of one deal's values (nan: not seated): rank 1 the highest value, equal
    values share a rank (competition ranking)."""
    seated = np.flatnonzero(~np.isnan(values))
    v = values[seated]
    ranks = 1 + (v[None, :] > v[:, None]).sum(axis=1)  # 1 + how many did strictly better
    return seated, ranks


def rate(names: Sequence[str], deal_values: np.ndarray) -> Leaderboard:
    """Rate every agent from the per-deal values of a tournament (deals, agents; nan where not seated),
    matches applied in deal order (see the module doc)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:
        raise ValueError("ratings need the openskill package: pip install 'poker-envs[zoo]'") from exc
    values = np.asarray(deal_values, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != len(names):
        raise ValueError(f"ratings: deal values must have shape (deals, {len(names)} agents), got {values.shape}")
    if len(names) < 2:
        raise ValueError(f"ratings: rate at least 2 agents, got {len(names)}")
    model = PlackettLuce(tau=TAU)
    ratings = [model.rating(name=str(n)) for n in names]
    matches = np.zeros(len(names), dtype=np.int64)
    for row in values:
        seated, ranks = match_ranks(row)
        if seated.size < 2:  # one agent in every slot of a table: nothing to rank it against
            continue
        teams = model.rate([[ratings[i]] for i in seated], ranks=ranks.tolist())
        for i, team in zip(seated, teams, strict=True):
            ratings[i] = team[0]
        matches[seated] += 1
    mu = np.array([r.mu for r in ratings])
    sigma = np.array([r.sigma for r in ratings])
    order = np.lexsort((np.arange(len(names)), -(mu - CONSERVATIVE_SIGMAS * sigma)))  # ties: the listed order
    return Leaderboard(tuple(str(names[i]) for i in order), mu[order], sigma[order], matches[order])
