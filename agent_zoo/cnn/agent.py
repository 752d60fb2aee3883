"""A trained generation as a zoo agent for ``nolimit_holdem_v0(bet_sizing="chips", obs_encoder="poker_cnn")``.

To act it scores every legal action (or the documented subset, ``candidates="subset"``: fold,
check/call, the minimum raise, raises of 1/2, 1 and 2 pots and all-in) in one batched pass
(``network.score_candidates``: the state's planes and each candidate's planes enter the first
convolution separately, so no (state, candidate) tensor is built) and plays the argmax (a fold scores its exact value when the run was trained with ``exact_fold``;
ties, e.g. the raises of 52 small blinds or more that the tensor cannot tell apart, go to the
smallest id). Everything comes from the observation: the Poker-CNN planes of the player's view
(``observation["observation"]``, read as the whole small blinds the training tensors hold) and the
public betting state (``observation["public"]``: the player's street bet, the amount to call, the
raise range, the small blind), from which the candidates' chip amounts are added as planes 31-32.
``act_batch`` scores the candidates of all rows in one batched pass (``score_batch``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, Rngs, batch_masks, legal_actions, row, stack
from agent_zoo.cnn.network import PokerCNN, load_generation, score_candidates
from agent_zoo.cnn.candidates import candidate_actions, distinct_candidates, expand_scores, fold_value
from agent_zoo.cnn.config import CANDIDATE_SETS
from agent_zoo.observe import public_state
from poker_envs.encoders.poker_cnn import NUM_PLANES, SIDE, candidate_planes


@dataclass(frozen=True)
class TrainedTable:
    """The table a generation was trained at (``train`` plays heads-up self-play); None: not saved."""

    num_players: int = 2
    small_blind: int | None = None
    big_blind: int | None = None
    stack: int | None = None

    def describe(self) -> str:
        """E.g. ``heads-up, blinds 1/2, stacks of 100 chips (50 big blinds)``."""
        if self.small_blind is None or self.big_blind is None or self.stack is None:
            return describe_table(self.num_players)
        return describe_table(self.num_players, self.small_blind, self.big_blind, [self.stack])


def describe_table(num_players: int, small_blind: int | None = None, big_blind: int | None = None,
                   stacks: list[int] | None = None, ante: int = 0) -> str:
    """A table in words: ``heads-up, blinds 1/2, stacks of 100 to 150 chips (50 to 75 big blinds), ante 1``
    (the seats alone without blinds and stacks)."""
    text = "heads-up" if num_players == 2 else f"{num_players} players"
    if small_blind is None or big_blind is None or not stacks:
        return text
    low, high = min(stacks), max(stacks)
    chips, bbs = f"{low}", f"{low / big_blind:g}"
    if high != low:
        chips, bbs = f"{chips} to {high}", f"{bbs} to {high / big_blind:g}"
    text += f", blinds {small_blind}/{big_blind}, stacks of {chips} chips ({bbs} big blinds)"
    return text + (f", ante {ante}" if ante else "")


def check_env(env: Any) -> None:
    """Refuse an env the CNN agent cannot read, naming every unmet requirement at once with its fix."""
    base = getattr(env, "unwrapped", env)
    game = getattr(base, "game", None)
    game_name = getattr(game, "name", None)
    if game_name != "nolimit_holdem":
        what = getattr(base, "metadata", {}).get("name") or game_name or type(base).__name__
        raise ValueError(f"the CNN agent plays no-limit hold'em only (nolimit_holdem_v0, tournament --game nolimit); "
                         f"{what} is not supported")
    unmet: list[tuple[str, str, str]] = []  # (why, argument, the value it needs)
    if not getattr(game, "chips_sizing", False):
        sizing = getattr(getattr(game, "config", None), "bet_sizing", "?")
        unmet.append((f"one action id per chip amount (this env has bet_sizing={sizing!r})", "bet_sizing", "chips"))
    shape = tuple(env.observation_space(env.possible_agents[0])["observation"].shape)
    if shape != (NUM_PLANES, SIDE, SIDE):
        unmet.append((f"the Poker-CNN planes {(NUM_PLANES, SIDE, SIDE)} (this env gives {shape})", "obs_encoder", "poker_cnn"))
    if unmet:
        needs = "; ".join(f"{key}='{value}': {why}" for why, key, value in unmet)
        python = ", ".join(f"{key}='{value}'" for _, key, value in unmet)
        flags = " ".join(f"{key}={value}" for _, key, value in unmet)
        raise ValueError(f"the CNN agent needs nolimit_holdem_v0 built with {needs}. Fix: "
                         f"nolimit_holdem_v0.env({python}), on the command line --env-config {flags}")


def check_table(env: Any, trained: TrainedTable) -> None:
    """Refuse a table other than the one the network was trained at: another number of seats, or (when the
    run saved them) other blinds, stacks or an ante. Amounts are compared in small blinds, the unit the
    Poker-CNN planes count in, so blinds 5/10 with stacks of 500 read as 1/2 with 100."""
    config = getattr(env, "unwrapped", env).game.config
    stacks = sorted(set(config.starting_stacks))
    table = describe_table(config.num_players, config.small_blind, config.big_blind, stacks, config.ante)
    same = config.num_players == trained.num_players
    if trained.small_blind is not None and trained.big_blind is not None and trained.stack is not None:
        sb = config.small_blind
        same = same and not config.ante and sb > 0 and config.big_blind * trained.small_blind == trained.big_blind * sb \
            and all(s * trained.small_blind == trained.stack * sb for s in stacks)
    if not same:
        table_config = f" small_blind={trained.small_blind} big_blind={trained.big_blind} starting_stack={trained.stack}" \
            if trained.stack is not None else ""
        raise ValueError(f"this CNN generation was trained {trained.describe()}; the table is {table} (the network never "
                         f"saw such a table). Play it at its own: {trained.num_players} players, --env-config "
                         f"bet_sizing=chips obs_encoder=poker_cnn{table_config}")


class CNNAgent(Agent):
    """Greedy player of a PokerCNN value network (deterministic: the generator is not used)."""

    def __init__(self, net: PokerCNN, env: Any, candidates: str = "full", name: str = "cnn",
                 exact_fold: bool = False, trained: TrainedTable | None = None,
                 fractions: tuple[float, ...] = (0.5, 1.0, 2.0)) -> None:
        """``env`` is read here only, for its configuration (the game and the observation it gives).
        ``trained``: the table the network learnt at; a table that differs is refused (None: not checked).
        ``fractions``: the pot fractions of the ``"subset"`` candidates (``candidates.candidate_actions``)."""
        check_env(env)
        if trained is not None:
            check_table(env, trained)
        if candidates not in CANDIDATE_SETS:
            raise ValueError(f"candidates must be one of {CANDIDATE_SETS}, got {candidates!r}")
        self.name = name
        self.net = net.eval()
        self.candidates = candidates
        self.fractions = tuple(fractions)
        self.exact_fold = exact_fold

    def _candidates(self, observation: Observation) -> tuple[Any, list[int], np.ndarray, np.ndarray]:
        """(public state, candidate ids, planes 31-32 of their distinct encodings, index of each
        encoding's first candidate); a function of the public state and the legal mask only."""
        public = public_state(observation, "the CNN agent")
        actions = candidate_actions(legal_actions(observation), public, self.candidates, self.fractions)
        kinds, added, first = distinct_candidates(public, actions)
        return public, actions, candidate_planes(kinds, added / public.small_blind, np.uint8), first

    def score_batch(self, observations: Observation) -> list[tuple[list[int], np.ndarray]]:
        """(candidate ids, their predicted chips / buy-in) for every row of stacked observations.

        One batched scoring for all rows: rows with the same public state and legal mask (e.g. one
        table seen with every possible holding) share their candidate list, and each (row, candidate)
        tensor is scored without being built (``network.score_candidates``)."""
        masks = batch_masks(observations)
        m = len(masks)
        obs = np.asarray(observations["observation"])
        if obs.shape[1:] != (NUM_PLANES, SIDE, SIDE):
            raise ValueError(f"observations['observation'] must have shape (m, {NUM_PLANES}, {SIDE}, {SIDE}), got {obs.shape}")
        # Whole small blinds only (the uint8 tensors the network was trained on): a partly filled cell is 0.
        planes = (obs >= 1).astype(np.uint8)
        public = np.asarray(observations["public"]) if "public" in observations else None
        groups: dict[bytes, list[int]] = {}
        for i in range(m):
            key = masks[i].tobytes() + (public[i].tobytes() if public is not None else b"")
            groups.setdefault(key, []).append(i)
        found: list[tuple[list[int], Any, list[int], np.ndarray, int]] = []
        cand_planes: list[np.ndarray] = []
        rows: list[np.ndarray] = []
        cands: list[np.ndarray] = []
        offset = 0
        for members in groups.values():
            pub, actions, cp, first = self._candidates(row(observations, members[0]))
            k = len(cp)
            found.append((members, pub, actions, first, k))
            cand_planes.append(cp)
            rows.append(np.repeat(np.asarray(members, dtype=np.int64), k))
            cands.append(np.tile(np.arange(offset, offset + k), len(members)))
            offset += k
        values = score_candidates(self.net, planes, np.concatenate(cand_planes), np.concatenate(rows),
                                  np.concatenate(cands))
        out: list[tuple[list[int], np.ndarray]] = [([], np.zeros(0))] * m
        off = 0
        for members, pub, actions, first, k in found:
            v = expand_scores(actions, values[off : off + len(members) * k].reshape(len(members), k), first)
            off += len(members) * k
            if self.exact_fold:
                fold_value(pub, actions, v)
            for j, i in enumerate(members):
                out[i] = (actions, v[j])
        return out

    def scores(self, observation: Observation) -> tuple[list[int], np.ndarray]:
        """(candidate action ids, their predicted chips / buy-in) for one observation."""
        return self.score_batch(stack([observation]))[0]

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        actions, values = self.scores(observation)
        return int(actions[int(np.argmax(values))])

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """Greedy, so all probability on the action ``act`` plays (local best response reads this)."""
        return self.action_probabilities_batch(stack([observation]))[0]

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        """One-hot rows of ``act_batch``'s greedy actions (one batched scoring for the whole batch)."""
        actions = self.act_batch(observations, np.random.default_rng(0))  # greedy: the generator is not used
        probs = np.zeros((len(actions), np.shape(observations["action_mask"])[1]))
        probs[np.arange(len(actions)), actions] = 1.0
        return probs

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        return np.array([actions[int(np.argmax(v))] for actions, v in self.score_batch(observations)], dtype=np.int64)


def load_cnn_agent(path: str | Path, env: Any, candidates: str = "full") -> CNNAgent:
    """Registry factory (``cnn:PATH``): the generation saved at ``PATH`` playing in ``env``."""
    net, ckpt = load_generation(path)
    config = ckpt.get("config", {})
    exact_fold = bool(config.get("exact_fold", False))
    trained = TrainedTable(2, config.get("small_blind"), config.get("big_blind"), config.get("stack"))  # train is heads-up
    return CNNAgent(net, env, candidates, name=f"cnn{ckpt.get('generation', '')}", exact_fold=exact_fold, trained=trained)
