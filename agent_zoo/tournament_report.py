"""What a tournament measured, from its per-deal values: per-agent means, pairwise results, text/JSON/CSV/PNG.

Per deal, an agent's *value* is its mean reward per hand over all the seats it held in the deal's
rotations (heads-up: its mean over the two seatings). From these values:

* per agent: the mean per hand over the deals it played, with a 95% interval over deals (the deals are
  independent; each deal's rotations are averaged first, which is what pairs the results);
* pairwise ``mean[i, j]``: over the deals where both i and j sit, the mean of ``(v_i - v_j) / 2``, with its
  95% interval; heads-up (where ``v_j = -v_i`` for zero-sum games) this is exactly i's result against j,
  at a multi-way table it is half the gap between the two at the same cards and line-ups.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent_zoo.stats import StyleCounts

Z95 = 1.959963984540054
NA = "n/a"  # printed where a number cannot be computed (JSON: null)
NO_INTERVAL = f"(±{NA}: fewer than two deals, so no interval can be computed; play more hands)"


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    """(mean, 95% half-width) of independent values; the half-width is nan (cannot be computed) for fewer than two
    values, and both are nan for none."""
    if values.size == 0:
        return float("nan"), float("nan")
    if values.size == 1:
        return float(values[0]), float("nan")
    return float(values.mean()), float(Z95 * values.std(ddof=1) / np.sqrt(values.size))


def finite(value: float) -> float | None:
    """``value`` as a float, or None (JSON ``null``) where it could not be computed (nan, inf)."""
    value = float(value)
    return value if math.isfinite(value) else None


def finite_list(values: np.ndarray) -> list[Any]:
    """An array as nested lists of floats, None where a value could not be computed (strict JSON)."""
    array = np.asarray(values, dtype=np.float64)
    out = array.astype(object)  # Python floats, so tolist() keeps them exactly
    out[~np.isfinite(array)] = None
    return out.tolist()


def number(value: float, spec: str) -> str:
    """``value`` formatted with ``spec``, or ``n/a`` where it could not be computed."""
    return format(value, spec) if math.isfinite(value) else NA


def interval(mean: float, ci: float) -> str:
    """``+0.125±0.031`` (``±n/a`` without an interval, ``n/a`` without a mean)."""
    return NA if not math.isfinite(mean) else f"{mean:+.3f}±{number(ci, '.3f')}"


def summarise(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-deal values (D, m) with nan where an agent did not sit -> (agent mean, agent ci, agent deals,
    pairwise mean (m, m), pairwise ci (m, m)); see the module doc."""
    m = values.shape[1]
    present = ~np.isnan(values)
    agent_mean, agent_ci = np.zeros(m), np.zeros(m)
    for i in range(m):
        agent_mean[i], agent_ci[i] = mean_ci(values[present[:, i], i])
    mean, ci = np.zeros((m, m)), np.zeros((m, m))
    for i, j in itertools.permutations(range(m), 2):
        both = present[:, i] & present[:, j]
        mean[i, j], ci[i, j] = mean_ci((values[both, i] - values[both, j]) / 2)
    return agent_mean, agent_ci, present.sum(axis=0), mean, ci


@dataclass
class TournamentResult:
    """Everything a tournament measured; ``mean[i, j]``: agent i's pairwise result against agent j (module doc)."""

    game: str
    unit: str
    agents: list[str]
    hands: int  # hands per match (per set of agents at the table)
    seed: int
    mean: np.ndarray
    ci95: np.ndarray  # half-width of the 95% interval
    style: dict[str, dict[str, float | None]]
    style_counts: dict[str, StyleCounts] = field(repr=False, default_factory=dict)
    players: int = 2  # seats at the table
    agent_mean: np.ndarray = field(default_factory=lambda: np.zeros(0))  # per agent: mean reward per hand
    agent_ci95: np.ndarray = field(default_factory=lambda: np.zeros(0))  # its 95% half-width over deals
    agent_deals: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # deals it sat in
    hands_per_episode: int = 1  # > 1: sessions; ``hands`` then counts sessions per match
    places: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))  # (agents, seats) sessions per place
    counters: dict[str, dict[str, float]] = field(default_factory=dict)  # per agent that counts: its summed counters
    # variance_reduction "aivat": the same numbers from AIVAT-corrected values ("mean", "ci95", "agent_mean",
    # "agent_ci95" as above) and "chance_only", the agents without a known policy (no decision terms)
    aivat: dict[str, Any] | None = None
    # ratings=True: the population's OpenSkill leaderboard (agent_zoo.ratings.Leaderboard), one match per deal
    ratings: Any = None
    env_config: dict[str, Any] = field(default_factory=dict)  # the environment's keywords the matches were played with

    def intervals_computed(self) -> bool:
        """Whether every pairwise and per-agent interval could be computed (each needs two deals or more)."""
        off = ~np.eye(len(self.agents), dtype=bool)
        every = [self.ci95[off], self.agent_ci95]
        if self.aivat is not None:
            every += [self.aivat["ci95"][off], self.aivat["agent_ci95"]]
        return all(bool(np.all(np.isfinite(x))) for x in every)

    def decisions(self) -> dict[str, dict[str, float]]:
        """Each counting agent's counters (language models: decisions, parse failures, reprompts, fallbacks,
        tokens, ...) with ``mean_latency_s`` (``latency_s`` per decision) where both are counted."""
        out = {}
        for name, c in self.counters.items():
            row = dict(c)
            if c.get("decisions") and "latency_s" in c:
                row["mean_latency_s"] = c["latency_s"] / c["decisions"]
            out[name] = row
        return out

    def mean_places(self) -> list[float | None]:
        """Each agent's mean finishing place over its sessions (None without sessions)."""
        out: list[float | None] = []
        for row in self.places:
            total = int(row.sum())
            out.append(float((row * np.arange(1, row.size + 1)).sum() / total) if total else None)
        return out

    def overall(self) -> list[tuple[str, float, float]]:
        """(agent, mean reward per hand over all its deals, 95% half-width), best first."""
        rows = [(name, float(self.agent_mean[i]), float(self.agent_ci95[i])) for i, name in enumerate(self.agents)]
        return sorted(rows, key=lambda r: -r[1])

    @property
    def per(self) -> str:
        """What one result counts: a hand, or (prizes) a sit-and-go."""
        return "sit-and-go" if self.unit == "prize" else "hand"

    def _title(self) -> str:
        count = f"{self.hands} hands per match" if self.hands_per_episode == 1 else (
            f"{self.hands} sessions of up to {self.hands_per_episode} hands per match")
        if self.players == 2:
            return f"{self.game}: mean {self.unit} per {self.per} of the row agent against the column agent (±95% CI), {count}"
        return (
            f"{self.game}, {self.players} seats: mean {self.unit} per {self.per}, pairwise = half the mean gap (row - column) "
            f"at the deals where both sit (±95% CI), {count}"
        )

    def table(self) -> str:
        """The pairwise matrix, the ranking and the style statistics as text (paths shortened to file names)."""
        labels = table_labels(self.agents)
        short = dict(zip(self.agents, labels, strict=True))
        width = max(12, *(len(a) + 1 for a in labels))
        cell = 16
        lines = [self._title()]
        lines.append(" " * width + "".join(f"{a:>{max(cell, len(a) + 2)}}" for a in labels))
        for i, a in enumerate(labels):
            cells = [
                ("-" if i == j else interval(self.mean[i, j], self.ci95[i, j])).rjust(max(cell, len(labels[j]) + 2))
                for j in range(len(labels))
            ]
            lines.append(f"{a:<{width}}" + "".join(cells))
        lines.append("")
        per100 = f"{self.unit}/100"
        lines.append(
            f"{'rank':<5}{'agent':<{width}}{self.unit + ('/hand' if self.per == 'hand' else '/SnG'):>12}{'±95%':>9}{per100:>11}{'VPIP%':>8}{'PFR%':>7}{'AF':>7}{'FtB%':>7}"
        )
        for rank, (name, mean, ci) in enumerate(self.overall(), 1):
            s = self.style.get(name, {})
            fmt = lambda v, f: "n/a" if v is None else format(v, f)  # noqa: E731
            lines.append(
                f"{rank:<5}{short[name]:<{width}}{number(mean, '+.3f'):>12}{number(ci, '.3f'):>9}{number(100 * mean, '+.1f'):>11}"
                f"{fmt(s.get('vpip'), '.1f'):>8}"
                f"{fmt(s.get('pfr'), '.1f'):>7}{fmt(s.get('af'), '.2f'):>7}{fmt(s.get('fold_to_bet'), '.1f'):>7}"
            )
        lines.append("(VPIP: voluntarily put chips in pre-flop; PFR: pre-flop raise; AF: (bets+raises)/calls; FtB: fold to a bet)")
        if not self.intervals_computed():
            lines.append(NO_INTERVAL)
        if self.aivat is not None:
            lines += ["", self._aivat_table(width, labels)]
        if self.ratings is not None:
            lines += ["", self.ratings.table()]
        if self.places.sum():
            places = [ordinal(k) for k in range(1, self.places.shape[1] + 1)]
            column = max(6, *(len(str(int(c))) + 2 for c in self.places.ravel()))
            lines.append("")
            lines.append("sessions finished in each place (mean place: 1 is best)")
            lines.append(f"{'agent':<{width}}{'mean place':>11}" + "".join(f"{p:>{column}}" for p in places))
            for name, mean, row in zip(self.agents, self.mean_places(), self.places, strict=True):
                lines.append(f"{short[name]:<{width}}{number(mean if mean is not None else math.nan, '.2f'):>11}"
                             + "".join(f"{int(c):>{column}}" for c in row))
        decisions = self.decisions()
        if decisions:
            columns = [("decisions", "decisions", "d"), ("parse_failures", "parse fails", "d"), ("reprompts", "reprompts", "d"),
                       ("fallbacks", "fallbacks", "d"), ("mean_latency_s", "latency s", ".3f"),
                       ("prompt_tokens", "prompt tok", "d"), ("completion_tokens", "reply tok", "d")]
            lines.append("")
            lines.append(f"{'agent':<{width}}" + "".join(f"{title:>13}" for _, title, _ in columns))
            for name, row in decisions.items():
                cells = ["n/a" if key not in row else format(row[key] if f != "d" else int(row[key]), f) for key, _, f in columns]
                lines.append(f"{short[name]:<{width}}" + "".join(f"{c:>13}" for c in cells))
        return "\n".join(lines)

    def _aivat_table(self, width: int, labels: list[str]) -> str:
        """AIVAT-corrected pairwise matrix and ranking beside the plain intervals."""
        a = self.aivat or {}
        lines = ["AIVAT (variance-reduced; Burch et al., AAAI 2018): pairwise, row agent against column agent (±95% CI)"]
        lines.append(" " * width + "".join(f"{b:>{max(16, len(b) + 2)}}" for b in labels))
        for i, label in enumerate(labels):
            cells = [("-" if i == j else interval(a["mean"][i, j], a["ci95"][i, j])).rjust(max(16, len(labels[j]) + 2))
                     for j in range(len(labels))]
            lines.append(f"{label:<{width}}" + "".join(cells))
        lines.append("")
        lines.append(f"{'agent':<{width}}{'aivat mean':>12}{'±95%':>9}{'plain mean':>12}{'±95%':>9}{'width ratio':>13}")
        for i, label in enumerate(labels):
            plain, corrected = float(self.agent_ci95[i]), float(a["agent_ci95"][i])
            ratio = f"{plain / corrected:.2f}x" if math.isfinite(plain) and math.isfinite(corrected) and corrected > 0 else NA
            lines.append(f"{label:<{width}}{number(a['agent_mean'][i], '+.3f'):>12}{number(corrected, '.3f'):>9}"
                         f"{number(self.agent_mean[i], '+.3f'):>12}{number(plain, '.3f'):>9}{ratio:>13}")
        if a.get("chance_only"):
            lines.append(f"(no policy, chance terms only: {', '.join(a['chance_only'])})")
        return "\n".join(lines)

    def aivat_dict(self) -> dict[str, Any] | None:
        """The ``aivat`` block of ``to_dict``: the corrected numbers in the shape of the plain ones."""
        if self.aivat is None:
            return None
        a = self.aivat
        rows = sorted(zip(self.agents, a["agent_mean"].tolist(), a["agent_ci95"].tolist(), strict=True), key=lambda r: -r[1])
        return {"mean": finite_list(a["mean"]), "ci95": finite_list(a["ci95"]),
                "ranking": [{"agent": n, "mean": finite(m), "ci95": finite(c), "per_100": finite(100 * m)} for n, m, c in rows],
                "chance_only": list(a["chance_only"]),
                "method": "AIVAT (Burch, Schmid, Moravcik, Morrill, Bowling, AAAI 2018): chance terms for every agent, "
                          "decision terms for agents with action_probabilities"}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "unit": self.unit,
            "players": self.players,
            "agents": self.agents,
            "hands_per_match": self.hands,
            "seed": self.seed,
            "env_config": self.env_config,
            "mean": finite_list(self.mean),
            "ci95": finite_list(self.ci95),
            "pairwise": "mean over the deals where both sit of (row value - column value) / 2; heads-up: the row's result",
            "ranking": [{"agent": a, "mean": finite(m), "ci95": finite(c), "per_100": finite(100 * m)} for a, m, c in self.overall()],
            "deals": {a: int(d) for a, d in zip(self.agents, self.agent_deals, strict=True)},
            "hands_per_episode": self.hands_per_episode,
            "places": {a: row.tolist() for a, row in zip(self.agents, self.places, strict=True)} if self.places.sum() else None,
            "mean_place": dict(zip(self.agents, self.mean_places(), strict=True)) if self.places.sum() else None,
            "style": self.style,
            "decisions": self.decisions() or None,
            **({"aivat": self.aivat_dict()} if self.aivat is not None else {}),
            **({"ratings": self.ratings.to_dict()} if self.ratings is not None else {}),
        }

    def write_csv(self, path: str) -> None:
        """One row per ordered pair of agents: the pairwise result and the pair's hands (an empty cell where a value
        cannot be computed, e.g. the interval of a pair that met at one deal only)."""
        import csv

        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["agent", "opponent", f"mean_{self.unit}_per_{self.per.replace('-', '_')}", "ci95", "hands"])
            for i, j in itertools.permutations(range(len(self.agents)), 2):
                cells = [finite(self.mean[i, j]), finite(self.ci95[i, j])]  # empty: cannot be computed
                w.writerow([self.agents[i], self.agents[j], *("" if c is None else repr(c) for c in cells), self.hands])

    def write_png(self, path: str) -> None:
        """Heat map of the pairwise matrix (red: the row agent loses, blue: it wins); with AIVAT a second one of
        the corrected matrix beside it."""
        from agent_zoo.figures import save_figure

        try:
            from matplotlib.figure import Figure
        except ImportError as exc:
            raise RuntimeError("the heat map needs matplotlib: pip install 'poker-envs[zoo]'") from exc

        n = len(self.agents)
        panels = [("", self.mean, self.ci95)]
        if self.aivat is not None:
            panels = [("plain: ", self.mean, self.ci95), ("AIVAT: ", self.aivat["mean"], self.aivat["ci95"])]
        fig = Figure(figsize=(len(panels) * (1.6 + 1.2 * n), 1.2 + 1.0 * n))
        for ax, (prefix, mean, ci95) in zip(np.atleast_1d(fig.subplots(1, len(panels))), panels, strict=True):
            self._heat_map(fig, ax, prefix, mean, ci95)
        fig.tight_layout()
        save_figure(fig, path)

    def _heat_map(self, fig: Any, ax: Any, prefix: str, mean: np.ndarray, ci95: np.ndarray) -> None:
        from agent_zoo.figures import cell_decimals, signed

        n = len(self.agents)
        data = mean.copy()
        np.fill_diagonal(data, np.nan)
        finite = data[np.isfinite(data)]
        lim = float(np.max(np.abs(finite))) if finite.size else 0.0
        lim = lim or 1.0  # all-zero results still get a colour scale
        im = ax.imshow(data, cmap="RdBu", vmin=-lim, vmax=lim)
        labels = [short_label(a) for a in self.agents]
        ax.set_xticks(range(n), labels, rotation=30, ha="right")
        ax.set_yticks(range(n), labels)
        decimals = cell_decimals(lim)  # as many as the colour scale needs: +0.0042 on a scale of +-0.008
        for i, j in itertools.permutations(range(n), 2):
            color = "white" if abs(data[i, j]) > 0.6 * lim else "black"
            text = NA if not math.isfinite(data[i, j]) else f"{signed(data[i, j], decimals)}\n±{number(ci95[i, j], f'.{decimals}f')}"
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color=color)
        what = "vs column agent" if self.players == 2 else f"- column's, halved ({self.players} seats)"
        ax.set_title(f"{prefix}{self.game}:\nrow agent's {self.unit} per {self.per} {what}" if prefix or self.aivat
                     else f"{self.game}: row agent's {self.unit} per {self.per} {what}")
        fig.colorbar(im, ax=ax, shrink=0.8, label=f"{self.unit} per {self.per}")


def ordinal(k: int) -> str:
    """1 -> ``1st``, 2 -> ``2nd``, 3 -> ``3rd``, 4 -> ``4th``, 11 -> ``11th``."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


SEPARATORS = "_-.+/@:,"  # where a long label may be shortened: after one of these, never inside a word


def shorten(label: str, width: int) -> str:
    """``label`` if it fits ``width``, else its first and last words joined by ``…`` (words end at a separator of
    ``SEPARATORS``), so the part that tells two similar names apart (``..._cfr+3.npz``) stays; a label without
    separators is cut at ``width``."""
    if len(label) <= width:
        return label
    words = re.findall(rf"[^{re.escape(SEPARATORS)}]*[{re.escape(SEPARATORS)}]|[^{re.escape(SEPARATORS)}]+$", label)
    head: list[str] = []
    tail: list[str] = []
    budget = width - 1  # the ellipsis
    lo, hi = 0, len(words) - 1
    used = 0
    while lo <= hi:
        grew = False
        for side in ("head", "tail"):
            if lo > hi:
                break
            word = words[lo] if side == "head" else words[hi]
            if used + len(word) > budget:
                continue
            used += len(word)
            grew = True
            if side == "head":
                head.append(word)
                lo += 1
            else:
                tail.insert(0, word)
                hi -= 1
        if not grew:
            break
    if not head:
        return label[: width - 1] + "…"
    return "".join(head).rstrip(SEPARATORS) + "…" + "".join(tail)


def short_label(spec: str, width: int = 22) -> str:
    """``cfr:/long/path/leduc.npz`` -> ``cfr:leduc.npz`` for tables and plot labels, longer than ``width``
    shortened at word boundaries (``shorten``); an argument holding a URL (``llm:model@http://host/v1``) keeps
    its start, without the scheme."""
    from pathlib import PurePath

    name, sep, arg = spec.partition(":")
    if "://" in arg:
        head, _, rest = arg.partition("://")
        label = f"{name}:{head.rsplit('@', 1)[0]}@{rest}" if "@" in head else f"{name}:{rest}"
    else:
        label = f"{name}:{PurePath(arg).name}" if sep else spec
    return shorten(label, width)


def table_labels(agents: list[str], width: int = 32) -> list[str]:
    """The agents' labels in text tables: ``short_label`` at ``width``, or uncut (paths still shortened to file
    names) when shortening would make two of them read the same."""
    labels = [short_label(a, width) for a in agents]
    if len(set(labels)) < len(labels):
        labels = [short_label(a, 10**6) for a in agents]
    return labels
