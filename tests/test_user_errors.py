"""What a user gets wrong gets one line naming the argument and what is allowed: never a traceback, never the wrong
flag; an option that cannot take effect is refused; help is plain text; outputs default under ``out/``."""

from __future__ import annotations

import argparse
import importlib

import pytest

from poker_envs import catalog

TOOLS_ERRORS = [  # (module, argv, what the error line must say)
    ("agent_zoo.rnad.__main__", ["train", "--steps", "0"], "argument --steps: must be >= 1"),
    ("agent_zoo.rnad.__main__", ["train", "--steps", "2", "--set", "eta=-1"], "eta must be >= 0"),
    ("agent_zoo.tournament", ["--game", "nolimit", "--players", "11", "--agents", "random", "fold"],
     "argument --players: nolimit seats 2 to 10, got 11"),
    ("agent_zoo.tournament", ["--game", "leduc", "--players", "3", "--agents", "random", "fold"],
     "argument --players: leduc is played by exactly 2, got 3"),
    ("agent_zoo.tournament", ["--game", "leduc", "--agents", "random", "fold", "--env-config", "num_players=3"],
     "--env-config: players must be exactly 2 for leduc"),
    ("agent_zoo.cfr.__main__", ["--game", "kuhn", "--iterations", "5", "--seed", "3"], "argument --seed: only mccfr"),
    ("agent_zoo.cfr.__main__", ["--game", "kuhn", "--iterations", "5", "--max-iterations", "9"],
     "argument --max-iterations: only with --target-exploitability"),
    ("agent_zoo.cfr.__main__", ["--game", "kuhn", "--iterations", "5", "--eval-every", "9"],
     "argument --eval-every: only with --target-exploitability"),
    ("agent_zoo.lbr.__main__", ["--game", "leduc", "--agent", "nobody", "--hands", "2"], "unknown agent 'nobody'"),
    ("agent_zoo.threshold.__main__", ["--players", "2", "--batch", "1"], "argument --batch: only with --sampled"),
    ("agent_zoo.threshold.__main__", ["--players", "2", "--seed", "4"], "argument --seed: only with --sampled"),
    ("agent_zoo.play", ["--game", "leduc", "--opponents", "random"], "argument --game: invalid choice: 'leduc'"),
    ("agent_zoo.tournament", ["--game", "kuhn", "--agents", "random", "fold", "--env-config", "num_playerz=3"],
     "--env-config: unknown key 'num_playerz' for kuhn; its environment takes: obs_encoder, render_mode, num_players"),
    ("agent_zoo.lbr.__main__", ["--game", "leduc", "--agent", "random", "--hands", "2", "--env-config", "num_playerz=2"],
     "unknown key 'num_playerz' for leduc; its environment takes: obs_encoder, render_mode, num_players"),
    ("agent_zoo.showcase", ["--hands", "3"], "argument --hands: must be an even number >= 4"),
    ("agent_zoo.showcase", ["--hands", "2"], "argument --hands: must be an even number >= 4"),
    ("agent_zoo.showcase", ["--games"], "argument --games: expected at least one argument"),
    ("agent_zoo.jax_rnad.__main__", ["train", "--steps", "1", "--set", "eta=0.1", "--set", "eta=0.2"],
     "argument --set: eta is given twice"),
    ("agent_zoo.jax_ppo.__main__", ["train", "--steps", "1", "--set", "learning_rate=0.1", "learning_rate=0.2"],
     "argument --set: learning_rate is given twice"),
    ("agent_zoo.rnad.__main__", ["train", "--steps", "2", "--set", "eta=0.1", "--set", "eta=0.2"],
     "argument --set: eta is given twice"),
]


def test_set_may_be_repeated_and_every_pair_takes_effect() -> None:
    """``--set a=1 --set b=2`` and ``--set a=1 b=2`` give the same overrides (argparse's store would keep only the
    last ``--set``'s pairs)."""
    from agent_zoo import cli
    from agent_zoo.jax_rnad.__main__ import build_parser, settable

    parser = build_parser()
    pairs = [cli.parse_overrides(parser, parser.parse_args(argv).set, settable()) for argv in (
        ["train", "--set", "eta=0.1", "--set", "reg_update_interval=3000"],
        ["train", "--set", "eta=0.1", "reg_update_interval=3000"])]
    assert pairs[0] == pairs[1] == {"eta": 0.1, "reg_update_interval": 3000}


@pytest.mark.parametrize("module, argv, message", TOOLS_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_cli_errors_are_one_line_naming_the_argument(module: str, argv: list[str], message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        importlib.import_module(module).main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("python -m agent_zoo.") and " error: " in last and message in last, err


@pytest.mark.parametrize("key", catalog.keys())
def test_an_action_outside_the_space_is_a_clear_value_error(key: str) -> None:
    """``env().step(99)``: a ValueError naming the action and the ids there are (not PettingZoo's bare assert)."""
    env = importlib.import_module(catalog.game(key).module_path).env()
    env.reset(seed=0)
    n = env.action_space(env.agent_selection).n
    for bad in (n, 99, -1):
        with pytest.raises(ValueError, match=rf"action {bad} is outside .* action ids are 0..{n - 1}"):
            env.step(bad)


@pytest.mark.parametrize("key", [g.key for g in catalog.GAMES if g.players == (2, 2)])
def test_two_player_games_refuse_other_table_sizes_by_name(key: str) -> None:
    module = importlib.import_module(catalog.game(key).module_path)
    module.env(num_players=2).reset(seed=0)  # the uniform keyword, at the one size there is
    with pytest.raises(ValueError, match=r"num_players: .* is played by exactly 2 players, got 3"):
        module.env(num_players=3)


def _tool_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    from test_cli import TOOLS, parsers

    found = []
    for tool, module in sorted(TOOLS.items()):
        for words, p in parsers(importlib.import_module(module).build_parser()):
            found.append((f"{tool} {words}".strip(), p))
    return found


def test_help_is_plain_text_and_games_are_catalog_keys() -> None:
    """No reStructuredText double backticks in any help; every --game offers catalog keys only."""
    for name, p in _tool_parsers():
        text = p.format_help()
        assert "``" not in text, f"{name}: {text[text.index('``') - 40:][:80]!r}"
        for action in p._actions:
            if "--game" in action.option_strings and action.choices is not None:
                assert set(action.choices) <= set(catalog.keys()), (name, action.choices)


def test_outputs_default_under_out() -> None:
    """A tool writes where its --out says; with no --out, nothing (None) or a folder under out/."""
    for name, p in _tool_parsers():
        for action in p._actions:
            if "--out" in action.option_strings and action.default is not None:
                assert str(action.default).split("/")[0] == "out", (name, action.default)
    from agent_zoo.clustering import report

    assert str(report.RESULTS) == "out"


def test_tools_that_load_agents_take_threads() -> None:
    """Every tool that builds agents from specs (sb3:, cnn:, rnad:, cluster: load torch) takes --threads."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    names = dict(_tool_parsers())
    for tool, module in __import__("test_cli").TOOLS.items():
        source = root / (module.replace(".", "/") + ".py")
        if "make_agent" in source.read_text() or "run_tournament" in source.read_text():
            assert "--threads" in names[tool].format_help(), tool


@pytest.mark.parametrize("key, kwargs, message", [
    ("nolimit", {"rebuy": True}, "rebuy=True needs hands_per_episode > 1"),
    ("push_fold", {"rebuy": True}, "rebuy=True needs hands_per_episode > 1"),
    ("nolimit", {"blind_levels": [(1, 2, 0), (2, 4, 0)], "hands_per_level": 5}, "blind_levels needs hands_per_episode > 1"),
    ("nolimit", {"eliminated": "stay"}, "eliminated='stay' needs a session"),
])
def test_session_options_without_a_session_are_refused(key: str, kwargs: dict, message: str) -> None:
    """Options that cannot take effect in one-hand episodes are refused by name in the env constructors."""
    module = importlib.import_module(catalog.game(key).module_path)
    with pytest.raises(ValueError, match=message):
        module.env(**kwargs)


def test_progress_bars_count_what_they_say(capsys: pytest.CaptureFixture[str]) -> None:
    """The tournament's bar counts sessions when --hands counts sessions; cfr's bar with a target has no total
    (the iterations it will take are not known), so no false ETA."""
    from agent_zoo.tournament import TournamentConfig, run_tournament

    run_tournament(TournamentConfig(game="nolimit", agents=["random", "fold"], hands=2, hands_per_episode=3, progress=True))
    err = capsys.readouterr().err
    assert "2/2" in err and "session/s" in err and "hand/s" not in err
    importlib.import_module("agent_zoo.cfr.__main__").main(["--game", "kuhn", "--target-exploitability", "1e-2"])
    err = capsys.readouterr().err
    assert "to 1e-02:" in err and "/1000000" not in err and "it/s" in err


def test_sb3_bar_ends_at_the_steps_learn_takes() -> None:
    """learn() runs whole rollouts: the bar's total is the steps it really takes, so it ends full, not past 100%."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import poker_envs  # noqa: F401
    from agent_zoo import cli

    model = MaskablePPO("MlpPolicy", gymnasium.make("poker_envs/KuhnPoker-v0", opponent="random"), n_steps=64,
                        batch_size=64, n_epochs=1, seed=0)
    callback = cli.sb3_progress(100)
    model.learn(100, callback=callback)
    assert callback.bar.total == model.num_timesteps == 128 and callback.bar.n == 128
