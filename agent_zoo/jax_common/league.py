"""A league of frozen opponents on the device: population, PFSP draws, payoff bookkeeping, admission, retirement.

Both JAX trainers take ``--league N`` (0: no league). The population is N snapshots of the learner's
parameters stacked as one pytree (leading axis N), kept in the run state with its payoff estimates, so a
checkpoint saves the league and a resumed run is bit-identical. Per hand, a table that plays the league draws
its opponent by prioritised fictitious self-play (PFSP, Vinyals et al. 2019): member i with weight
f(x_i), x_i = P[learner beats member i] estimated from the tables' results as (wins + prior / 2) / (hands +
prior), a tie counting half a win; f is ``hard`` (1 - x)^power (the members the learner loses to),
``var`` x (1 - x) (those it is even with) or ``uniform`` (fictitious self-play).

The learner's record against each member (chips summed, wins, hands) runs from the member's admission.
Every ``interval`` updates the learner's parameters are admitted: they replace (retire) the member the
learner beats most (``retire="beaten"``: highest x; ties: the oldest, then the lowest index; the newest
member is spared, as its record is the shortest), which keeps the members that still trouble it, or the
oldest member (``"oldest"``: a window of the latest snapshots).
The new member starts with no record; the members' matrix row of the new member is the learner's record at
its admission (members never play each other: that row is how the learner that became it fared). At the
start every member is a copy of the untrained learner.

Numpy and the dataclass only at import; JAX is imported by the functions that need it (as ``checkpoint``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

WEIGHTINGS = ("hard", "var", "uniform")  # PFSP weightings f(x)
RETIRE = ("beaten", "oldest")  # which member a new snapshot replaces
FIELDS = {"size": "league", "interval": "league_interval", "weighting": "league_weighting", "power": "league_power",
          "retire": "league_retire", "prior": "league_prior"}  # LeagueConfig field -> the trainers' config field


@dataclass(frozen=True)
class LeagueConfig:
    """The league's rules; ``LeagueConfig(...)`` raises ``ValueError`` naming the bad field."""

    # N: members of the population (0: no league, the trainer as without one).
    size: int = 0
    # Updates between two admissions of the learner's parameters.
    interval: int = 10
    # PFSP weighting f(x) of x = P[learner beats member]: "hard" (1 - x)^power, "var" x(1 - x), "uniform".
    weighting: str = "hard"
    # p of the "hard" weighting (larger: the hardest members take more of the hands).
    power: float = 2.0
    # Which member a new snapshot replaces: "beaten" (the one the learner beats most) or "oldest".
    retire: str = "beaten"
    # Pseudo-hands at a win rate of 1/2 in each estimate of x (an unplayed member has x = 1/2).
    prior: float = 1.0

    def __post_init__(self) -> None:
        def fail(name: str, why: str) -> None:
            raise ValueError(f"LeagueConfig.{name} {why}, got {getattr(self, name)!r}")

        for name, low in (("size", 0), ("interval", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                fail(name, f"must be an integer >= {low}")
        if self.size == 1:
            fail("size", "must be 0 (no league) or at least 2 members")
        if self.weighting not in WEIGHTINGS:
            fail("weighting", f"must be one of {list(WEIGHTINGS)}")
        if self.retire not in RETIRE:
            fail("retire", f"must be one of {list(RETIRE)}")
        for name in ("power", "prior"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                fail(name, "must be a number > 0")


def config_of(config: Any) -> LeagueConfig:
    """The ``LeagueConfig`` of a trainer's config (fields ``league``, ``league_interval``, ...); a bad value
    raises ``ValueError`` naming the trainer's field (``PPOConfig.league_power ...``)."""
    try:
        return LeagueConfig(**{f: getattr(config, flat) for f, flat in FIELDS.items()})
    except ValueError as exc:
        message = str(exc)
        for f, flat in FIELDS.items():
            message = message.replace(f"LeagueConfig.{f} ", f"{type(config).__name__}.{flat} ")
        raise ValueError(message) from None


class LeagueState(NamedTuple):
    """The league in the run state (one pytree; N members, B tables)."""

    population: Any  # the members' parameters, every leaf (N, ...)
    admitted: Any  # (N,) int32 update at which each member was admitted (0: the untrained copies)
    chips: Any  # (N,) float32 learner's chips summed over its hands against each member since its admission
    wins: Any  # (N,) float32 learner's wins against each member (a tie counts 1/2)
    hands: Any  # (N,) int32 learner's hands against each member
    record_chips: Any  # (N, N) float32 row member's chips against the column member (the learner's at admission)
    record_hands: Any  # (N, N) int32 hands of those records
    member: Any  # (B,) int32 the member each table plays in its current hand (where it plays the league)


def init(params: Any, size: int, num_tables: int, key: Any) -> LeagueState:
    """N copies of ``params`` (the untrained learner), no records, each table's first member drawn uniformly."""
    import jax
    import jax.numpy as jnp

    population = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (size, *x.shape)), params)
    zeros = jnp.zeros(size, jnp.float32)
    member = jax.random.randint(key, (num_tables,), 0, size, dtype=jnp.int32)
    return LeagueState(population, jnp.zeros(size, jnp.int32), zeros, zeros, jnp.zeros(size, jnp.int32),
                       jnp.zeros((size, size), jnp.float32), jnp.zeros((size, size), jnp.int32), member)


def win_rates(wins: Any, hands: Any, prior: float) -> Any:
    """(N,) estimate of P[learner beats member]: (wins + prior / 2) / (hands + prior)."""
    return (wins + 0.5 * prior) / (hands + prior)


def pfsp_weights(x: Any, weighting: str, power: float) -> Any:
    """(N,) PFSP probabilities of the members from x = P[learner beats member]: f(x) normalised (uniform where
    every f(x) is 0)."""
    import jax.numpy as jnp

    if weighting == "hard":
        f = (1.0 - x) ** power
    elif weighting == "var":
        f = x * (1.0 - x)
    elif weighting == "uniform":
        f = jnp.ones_like(x)
    else:
        raise ValueError(f"weighting must be one of {list(WEIGHTINGS)}, got {weighting!r}")
    total = f.sum()
    return jnp.where(total > 0, f / jnp.where(total > 0, total, 1.0), 1.0 / x.shape[0])


def weights(state: LeagueState, config: LeagueConfig) -> Any:
    """(N,) PFSP probabilities of the members from the league's current records."""
    return pfsp_weights(win_rates(state.wins, state.hands, config.prior), config.weighting, config.power)


def draw(key: Any, probabilities: Any, num_tables: int) -> Any:
    """(B,) int32 member of each table, drawn from ``probabilities`` (N,) with ``jax.random``."""
    import jax
    import jax.numpy as jnp

    logits = jnp.where(probabilities > 0, jnp.log(jnp.maximum(probabilities, 1e-30)), -1e30)
    return jax.random.categorical(key, logits, shape=(num_tables,)).astype(jnp.int32)


def member_logits(population: Any, member: Any, obs: Any, mask: Any) -> Any:
    """(B, A) masked logits of each table's member (``member`` (B,)) on the tables' observations (B, D): every
    member's network on every table, then each table's row (N small: cheaper than gathering weights)."""
    import jax
    import jax.numpy as jnp

    from agent_zoo.jax_common import network as net

    every = jax.vmap(lambda p: net.policy_logits(p, obs, mask, jnp))(population)  # (N, B, A)
    return jnp.take_along_axis(every, member[None, :, None], axis=0)[0]


def record(state: LeagueState, member: Any, chips: Any, ended: Any) -> LeagueState:
    """The records plus the hands that ``ended`` (any shape, bool) against ``member`` (same shape) with the
    learner's ``chips`` (same shape) in each."""
    import jax.numpy as jnp

    size = state.hands.shape[0]
    m = member.reshape(-1)
    e = ended.reshape(-1)
    c = jnp.where(e, chips.reshape(-1), 0.0).astype(jnp.float32)
    won = jnp.where(e, (c > 0) + 0.5 * (c == 0), 0.0).astype(jnp.float32)
    add = lambda values: jnp.zeros(size, values.dtype).at[m].add(values)
    return state._replace(chips=state.chips + add(c), wins=state.wins + add(won), hands=state.hands + add(e.astype(jnp.int32)))


def retiree(state: LeagueState, config: LeagueConfig) -> Any:
    """() int32 the member a new snapshot replaces: the one the learner beats most, the newest spared (ties: the
    oldest, then the lowest index), or the oldest (ties: the lowest index)."""
    import jax.numpy as jnp

    oldest_first = lambda candidates: jnp.argmin(jnp.where(candidates, state.admitted, jnp.iinfo(jnp.int32).max))
    if config.retire == "oldest":
        return oldest_first(jnp.ones_like(state.admitted, bool)).astype(jnp.int32)
    spared = (state.admitted == state.admitted.max()) & (state.admitted > state.admitted.min())  # the newest
    x = jnp.where(spared, -1.0, win_rates(state.wins, state.hands, config.prior))
    return oldest_first(x == x.max()).astype(jnp.int32)


def admit(state: LeagueState, params: Any, update: Any, config: LeagueConfig) -> LeagueState:
    """``params`` replaces the ``retiree``, admitted at ``update``: its members' row (column) becomes the learner's
    record (negated) against the others, and its own record starts empty."""
    import jax
    import jax.numpy as jnp

    slot = retiree(state, config)
    size = state.hands.shape[0]
    here = jnp.arange(size) == slot
    others = ~here
    row_chips = jnp.where(others, state.chips, 0.0)
    row_hands = jnp.where(others, state.hands, 0)
    record_chips = jnp.where(here[:, None], row_chips[None, :], jnp.where(here[None, :], -row_chips[:, None], state.record_chips))
    record_hands = jnp.where(here[:, None], row_hands[None, :], jnp.where(here[None, :], row_hands[:, None], state.record_hands))
    population = jax.tree_util.tree_map(lambda pop, new: pop.at[slot].set(new), state.population, params)
    return state._replace(population=population, admitted=jnp.where(here, update, state.admitted).astype(jnp.int32),
                          chips=jnp.where(here, 0.0, state.chips), wins=jnp.where(here, 0.0, state.wins),
                          hands=jnp.where(here, 0, state.hands), record_chips=record_chips, record_hands=record_hands)


def maybe_admit(state: LeagueState, params: Any, update: Any, config: LeagueConfig) -> LeagueState:
    """``admit`` when ``update`` is a multiple of ``config.interval``, else ``state`` unchanged (jittable)."""
    import jax
    import jax.numpy as jnp

    due = update % config.interval == 0
    return jax.tree_util.tree_map(lambda new, old: jnp.where(due, new, old), admit(state, params, update, config), state)


def payoff(state: LeagueState, config: LeagueConfig) -> dict[str, Any]:
    """The payoff estimates as JSON: ``matrix`` (N+1 x N+1, chips per hand of the row against the column; row 0
    the learner, row i the member in slot i; None where unplayed), ``counts`` (hands of each entry),
    ``win_rate`` (the learner's x against each member), ``pfsp`` (the members' current draw probabilities) and
    ``admitted`` (each member's update of admission)."""
    import jax

    s = jax.device_get(state)
    size = int(s.hands.shape[0])
    chips = np.zeros((size + 1, size + 1))
    counts = np.zeros((size + 1, size + 1), np.int64)
    chips[0, 1:], counts[0, 1:] = s.chips, s.hands
    chips[1:, 0], counts[1:, 0] = -np.asarray(s.chips), s.hands
    chips[1:, 1:], counts[1:, 1:] = s.record_chips, s.record_hands
    matrix = [[float(c / n) if n else None for c, n in zip(rc, rn)] for rc, rn in zip(chips, counts)]
    return {"players": ["learner", *(f"member {i}" for i in range(size))], "matrix": matrix, "counts": counts.tolist(),
            "win_rate": np.asarray(win_rates(s.wins, s.hands, config.prior), np.float64).tolist(),
            "pfsp": np.asarray(weights(s, config), np.float64).tolist(), "admitted": np.asarray(s.admitted).tolist()}


def plot_payoff(data: dict[str, Any], path: Path, title: str) -> Path:
    """Heat map of ``payoff``'s matrix (chips per hand of the row against the column, blank where unplayed), with
    each entry's hands; matplotlib (Agg figure), PNG."""
    from matplotlib.figure import Figure

    from agent_zoo.figures import save_figure

    values = np.array([[np.nan if v is None else v for v in row] for row in data["matrix"]], np.float64)
    limit = float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0
    size = len(data["players"])
    fig = Figure(figsize=(1.6 + 0.75 * size, 1.2 + 0.6 * size))
    ax = fig.subplots()
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=-limit or -1.0, vmax=limit or 1.0)
    labels = [p.replace("member ", "m") for p in data["players"]]
    ax.set_xticks(range(size), labels, fontsize=8)
    ax.set_yticks(range(size), labels, fontsize=8)
    for i in range(size):
        for j in range(size):
            if np.isfinite(values[i, j]):
                ax.text(j, i, f"{values[i, j]:+.2f}\n{data['counts'][i][j]}", ha="center", va="center", fontsize=6)
    ax.set_xlabel("opponent")
    ax.set_ylabel("player (row: chips per hand, and hands)")
    ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=ax, label="chips per hand")
    return save_figure(fig, path, dpi=120)


def report(state: LeagueState, config: LeagueConfig, out: str | Path | None, title: str) -> dict[str, Any]:
    """``payoff`` of ``state``, and its heat map written to ``out/payoff.png`` (``png``: its path, or None)."""
    data = payoff(state, config)
    data["png"] = str(plot_payoff(data, Path(out) / "payoff.png", title)) if out is not None else None
    return data
