"""Short names for zoo agents (``random``, ``cfr:leduc.npz``, ``push_fold``, ...) -> agents for a given env.

A spec is ``name`` or ``name:argument``. Each factory imports its agent lazily, so an optional agent
whose dependencies are missing (torch for ``cnn``) breaks only its own name. Factories check that the
agent fits the environment (a CFR policy file solved for Kuhn refuses a Leduc env) and raise a clear
``ValueError`` before any hand is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, FoldAgent, RandomAgent
from poker_envs.games.base import Game
from poker_envs.games.holdem import HoldemGame
from poker_envs.games.push_fold import PushFoldGame
from poker_envs.games.threshold import ThresholdGame
from poker_envs import catalog

Factory = Callable[[str | None, Any], Agent]


@dataclass(frozen=True)
class AgentEntry:
    """One registry name."""

    factory: Factory
    needs_arg: bool  # whether ``name:argument`` is required
    arg_help: str  # what the argument is
    summary: str  # one line for help texts and the README table
    env_options: Mapping[str, Any] = field(default_factory=dict)  # environment options the agent needs (built with them)


def env_game(env: Any) -> Game:
    """The rules (``Game``) an env plays, looking through PettingZoo wrappers."""
    base = getattr(env, "unwrapped", env)
    game = getattr(base, "game", None)
    if not isinstance(game, Game):
        raise ValueError(f"{type(env).__name__} is not a poker_envs environment (it has no rules .game)")
    return game


def game_name(env: Any) -> str:
    """The rules name of an env (``leduc_poker``, ...), for messages and for policy files that record it."""
    return str(env_game(env).name)


def _import(module: str, attr: str, spec_name: str) -> Any:
    try:
        return getattr(importlib.import_module(module), attr)
    except ImportError as exc:
        raise ValueError(f"agent {spec_name!r} is not available here: importing {module} failed ({exc})") from exc
    except AttributeError as exc:
        raise ValueError(f"agent {spec_name!r} is not available here: {module} has no {attr}") from exc


def _existing_file(arg: str, name: str) -> Path:
    path = Path(arg).expanduser()
    if not path.is_file():
        raise ValueError(f"agent {name}:{arg}: no such file {str(path)!r}")
    return path


def _is_limit_holdem(game: Game) -> bool:
    return isinstance(game, HoldemGame) and game.config.betting == "limit"


def _require_game(env: Any, fits: Callable[[Game], bool], plays: str, name: str) -> None:
    """Refuse an env whose rules ``fits`` rejects (an isinstance / config check, never the name string)."""
    game = env_game(env)
    if not fits(game):
        raise ValueError(f"agent {name!r} plays {plays} only, not {game.name}")


def _random(arg: str | None, env: Any) -> Agent:
    if arg in (None, "ids", "paper"):
        return RandomAgent()
    if arg == "kinds":
        return _import("agent_zoo.cnn.heuristic", "KindRandomAgent", "random:kinds")()
    raise ValueError(f"random takes ids (the default, also 'paper') or kinds, got {arg!r}")


def _fold(arg: str | None, env: Any) -> Agent:
    return FoldAgent()


def _heuristic(arg: str | None, env: Any) -> Agent:
    _require_game(env, lambda g: isinstance(g, HoldemGame), f"the hold'em family ({', '.join(catalog.keys(family='holdem'))})",
                  "heuristic")
    make = _import("agent_zoo.cnn.heuristic", "make_heuristic_agent", "heuristic")
    return make(env, arg)


def _cfr(arg: str | None, env: Any) -> Agent:
    load = _import("agent_zoo.cfr.agent", "load_cfr_agent", "cfr")
    return load(_existing_file(arg, "cfr"), env)


def _push_fold(arg: str | None, env: Any) -> Agent:
    _require_game(env, lambda g: isinstance(g, PushFoldGame), "push_fold", "push_fold")
    make = _import("agent_zoo.push_fold.agent", "make_push_fold_agent", "push_fold")
    try:
        agent = make(env, arg)
        config = env.unwrapped.game.config
        if getattr(agent, "result", None) is None and config.stacks_bb is None:
            agent.chart_for(config.stack_bb, config.ante_bb)  # solve now: a missing equity table fails here, not mid-match
    except FileNotFoundError as exc:
        raise ValueError(f"agent push_fold cannot be built: {exc}") from exc
    return agent


def _threshold(arg: str | None, env: Any) -> Agent:
    """``threshold``: the exact equilibrium for the table's n and alpha; ``threshold:<t>``: bet iff card >= t."""
    _require_game(env, lambda g: isinstance(g, ThresholdGame), "threshold", "threshold")
    agent_cls = _import("agent_zoo.threshold.agent", "ThresholdAgent", "threshold")
    if arg is None:
        return agent_cls()
    strategy = _import("agent_zoo.threshold.solver", "threshold_strategy", "threshold")
    try:
        t = float(arg)
    except ValueError:
        raise ValueError(f"agent threshold:{arg}: the argument must be a card threshold such as 50, got {arg!r}") from None
    from poker_envs.games.threshold import NUM_CARDS as num_cards  # the rules' deck: cards 0..100
    if not 0 <= t <= num_cards:
        raise ValueError(f"agent threshold:{arg}: the threshold must lie in [0, {num_cards}]")
    return agent_cls(strategy(t, num_cards))


def _check_network_fits(agent: Any, env: Any, name: str) -> None:
    first = env.possible_agents[0]
    obs_dim = int(np.prod(env.observation_space(first)["observation"].shape))
    num_actions = int(env.action_space(first).n)
    if getattr(agent, "obs_dim", obs_dim) != obs_dim or getattr(agent, "num_actions", num_actions) != num_actions:
        raise ValueError(
            f"agent {name}: the network takes {agent.obs_dim} features and {agent.num_actions} actions, but {game_name(env)} "
            f"gives {obs_dim} features and {num_actions} actions (a policy for another game or encoder?)"
        )
    trained_on = (getattr(agent, "info", None) or {}).get("game")
    if trained_on and trained_on != game_name(env):
        raise ValueError(f"agent {name}: policy file was made for game {trained_on!r}, not {game_name(env)!r}")


def _rnad(arg: str | None, env: Any) -> Agent:
    agent_cls = _import("agent_zoo.rnad.agent", "RNaDAgent", "rnad")
    agent = agent_cls.load(_existing_file(arg, "rnad"))
    _check_network_fits(agent, env, f"rnad:{arg}")
    return agent


def _cnn(arg: str | None, env: Any) -> Agent:
    load = _import("agent_zoo.cnn.agent", "load_cnn_agent", "cnn")
    return load(_existing_file(arg, "cnn"), env)


def _require_observation(env: Any, size: int, encoder: str, name: str) -> None:
    first = env.possible_agents[0]
    shape = env.observation_space(first)["observation"].shape
    if shape != (size,):
        raise ValueError(
            f"agent {name!r} reads the {encoder} observation ({size} features); this env gives {shape}: "
            f"build it with obs_encoder={encoder!r} (tournament: --env-config obs_encoder={encoder})"
        )


def _rule(arg: str | None, env: Any) -> Agent:
    _require_game(env, _is_limit_holdem, "limit_holdem", f"rule:{arg}")
    _require_observation(env, 107, "flat107", f"rule:{arg}")
    return _import("agent_zoo.clustering.rule_based", "make_rule_agent", "rule")(arg)


def _prospect(arg: str | None, env: Any) -> Agent:
    _require_game(env, _is_limit_holdem, "limit_holdem", "prospect")
    if len(env.possible_agents) != 2:
        raise ValueError(f"agent 'prospect' plays heads-up limit hold'em; this table has {len(env.possible_agents)} players")
    _require_observation(env, 56, "flat56", "prospect")
    return _import("agent_zoo.clustering.prospect", "make_prospect_agent", "prospect")(arg)


def _cluster(arg: str | None, env: Any) -> Agent:
    load = _import("agent_zoo.clustering.agent", "load_cluster_agent", "cluster")
    return load(_existing_file(arg, "cluster"), env)


def _sb3(arg: str | None, env: Any) -> Agent:
    import zipfile

    path = _existing_file(arg, "sb3")
    what = f"agent sb3:{arg}: {str(path)!r} is not a Stable-Baselines3 model zip (the file model.save(...) writes)"
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{what}: it is not a zip file")
    with zipfile.ZipFile(path) as archive:
        if "data" not in archive.namelist():
            raise ValueError(f"{what}: the zip has no 'data' entry")
    load = _import("agent_zoo.external", "load_sb3_agent", "sb3")
    return load(path, env)


def _jax_checkpoint(name: str, post_process: bool) -> Factory:
    def make(arg: str | None, env: Any) -> Agent:
        agent_cls = _import("agent_zoo.jax_common.agent", "JaxAgent", name)
        agent = agent_cls.load(_existing_file(arg, name), post_process=post_process)
        _check_network_fits(agent, env, f"{name}:{arg}")
        return agent

    return make


def _llm(arg: str | None, env: Any) -> Agent:
    return _import("agent_zoo.llm", "make_llm_agent", "llm")(arg, env)


def _resolve(arg: str | None, env: Any) -> Agent:
    return _import("agent_zoo.solver.agent", "make_resolve_agent", "resolve")(env, arg)


def _module(arg: str | None, env: Any) -> Agent:
    load = _import("agent_zoo.external", "load_module_agent", "module")
    return load(arg, env)


REGISTRY: dict[str, AgentEntry] = {
    "random": AgentEntry(_random, False, "ids (default, = paper) or kinds", "uniform over the legal actions (random:kinds: over fold / check-call / bet-raise, then over raise ids); every game"),
    "fold": AgentEntry(_fold, False, "", "folds whenever it may, else checks (a known loser: never more than its blinds); every game"),
    "heuristic": AgentEntry(_heuristic, False, "raise size: pot (default), min, uniform or paper", "45% bet/raise, 45% check/call, 10% fold, cards ignored (Hwang & Kaneko's bootstrap player); hold'em"),
    "cfr": AgentEntry(_cfr, True, "policy file (.npz) saved by python -m agent_zoo.cfr, or average_policy.npz of python -m agent_zoo.jax_rnad (jax_ppo) exploitability", "tabular policy: CFR/CFR+/DCFR average policy, or an on-device run's average policy; Kuhn, Leduc"),
    "push_fold": AgentEntry(_push_fold, False, "STACK[,ANTE] for one fixed chart", "heads-up Nash push/fold chart for the table's stack and ante, solved on the fly; push/fold"),
    "threshold": AgentEntry(_threshold, False, "T to bet iff card >= T", "exact symmetric equilibrium (or a fixed threshold T); threshold game"),
    "rnad": AgentEntry(_rnad, True, "policy .npz saved by python -m agent_zoo.rnad train --steps N --out DIR", "R-NaD (two-stage averaging) policy network; Leduc"),
    "cnn": AgentEntry(_cnn, True, "gen_K.pt saved by python -m agent_zoo.cnn train", "Poker-CNN value network of a self-play generation; no-limit hold'em, bet_sizing=chips, obs_encoder=poker_cnn"),
    "rule": AgentEntry(_rule, True, "A..L", "one of twelve rule-based players: A, B, C after Koyama's thesis (A always raises, B raises pairs else folds, C never raises), D..L this project's own; limit hold'em, flat107"),
    "prospect": AgentEntry(_prospect, False, "ALPHA,BETA", "prospect-theory player of Koyama's thesis, section 5.3 (value-function curvatures); heads-up limit hold'em, flat56"),
    "cluster": AgentEntry(_cluster, True, "policy saved by the log-clustering trainer", "policy learned from a cluster of play logs; limit hold'em"),
    "sb3": AgentEntry(_sb3, True, "model.zip saved by Stable-Baselines3 / sb3-contrib", "an SB3 / sb3-contrib policy trained on the Gymnasium single-agent view (MaskablePPO, PPO, A2C, DQN, ...); the game it was trained on"),
    "jax": AgentEntry(_jax_checkpoint("jax", False), True, "checkpoint_<update>.npz saved by python -m agent_zoo.jax_ppo (or jax_rnad) train --out DIR", "self-play PPO or R-NaD policy network trained on the device (JAX); the game it was trained on"),
    "jax_pp": AgentEntry(_jax_checkpoint("jax_pp", True), True, "checkpoint_<update>.npz, as for jax", "the jax: policy post-processed as OpenSpiel's R-NaD played its policies: actions under 3% dropped, probabilities rounded to 1/32"),
    "llm": AgentEntry(_llm, True, "MODEL@BASE_URL[,KEY=VALUE...] or a .toml/.json config file", "a language model over an OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp) playing from the text view (docs/llm.md); hold'em family, env built with history=True",
                      MappingProxyType({"history": True})),
    "resolve": AgentEntry(_resolve, False, "SECONDS per decision (default 1), or iterations=N per solve (reproducible), seed=S, preflop=chart",
                          "re-solves the postflop subgame at every decision (range-vs-range CFR, Bayesian ranges, solved abstract pre-flop or an equity chart, pseudo-harmonic translation); heads-up no-limit hold'em, env built with history=True, bet_sizing=chips",
                          MappingProxyType({"history": True, "bet_sizing": "chips"})),
    "module": AgentEntry(_module, True, "package.module:callable", "an importable Agent, agent factory (no argument or the env) or function (observation, rng) -> action; any game"),
}


def parse_spec(spec: str) -> tuple[str, str | None]:
    """``"cfr:leduc.npz"`` -> ``("cfr", "leduc.npz")``; checks the name and whether an argument is needed."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"agent spec must be a non-empty string like 'random' or 'cfr:policy.npz', got {spec!r}")
    name, sep, arg = spec.partition(":")
    entry = REGISTRY.get(name)
    if entry is None:
        raise ValueError(f"unknown agent {name!r} (from {spec!r}); known agents: {', '.join(sorted(REGISTRY))}")
    if entry.needs_arg and not arg:
        raise ValueError(f"agent {name!r} needs an argument: {name}:<{entry.arg_help}>")
    if sep and not arg:
        raise ValueError(f"agent spec {spec!r} has an empty argument after ':'")
    if arg and not entry.arg_help:
        raise ValueError(f"agent {name!r} takes no argument, got {spec!r}")
    return name, (arg or None)


def spec_env_options(spec: str) -> Mapping[str, Any]:
    """The environment options the agent of ``spec`` needs (e.g. ``{"history": True}``), known before it is built."""
    name, _ = parse_spec(spec)
    return REGISTRY[name].env_options


def needed_env_options(agents: Sequence[str | Agent], env_config: Mapping[str, Any]) -> dict[str, Any]:
    """The environment options the agents need (``Agent.env_options``, or the registry's entry of a spec), to be
    added to ``env_config``; ValueError, naming the agent and the option, where ``env_config`` or an earlier agent
    sets it to another value."""
    needs: dict[str, Any] = {}
    for agent in agents:
        name, wanted = (agent, spec_env_options(agent)) if isinstance(agent, str) else (agent.name, agent.env_options)
        for key, value in wanted.items():
            has = env_config.get(key, needs.get(key, value))
            if has != value:
                where = "env_config" if key in env_config else "another agent"
                raise ValueError(f"agent {name!r} needs the environment option {key}={value!r}, but {where} has {key}={has!r}")
            needs[key] = value
    return needs


def make_agent(spec: str, env: Any) -> Agent:
    """Build the agent named by ``spec`` for ``env`` (an AEC env of poker_envs); errors name the spec."""
    name, arg = parse_spec(spec)
    agent = REGISTRY[name].factory(arg, env)
    if not isinstance(agent, Agent):
        raise TypeError(f"agent factory for {name!r} returned {type(agent).__name__}, not an Agent")
    agent.name = spec
    return agent
