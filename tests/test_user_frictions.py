"""What a new user ran into: a missing folder or a wrong file is one ``error:`` line naming the argument, a
boolean where a number belongs is refused by name, ``render()`` without a render mode warns, ``--help`` ends
with examples, and step counts are what they say."""

from __future__ import annotations

import importlib

import pytest

from poker_envs import catalog


def _cli_error(module: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The last stderr line of ``module.main(argv)``, which must exit 2 without a traceback."""
    with pytest.raises(SystemExit) as exc:
        importlib.import_module(module).main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_cnn_evaluate_of_a_missing_or_foreign_folder_names_dir(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.cnn.__main__", ["evaluate", "--dir", str(tmp_path / "nonexistent")], capsys)
    assert "error: argument --dir:" in last and "is not a folder" in last and "train --out DIR" in last
    last = _cli_error("agent_zoo.cnn.__main__", ["evaluate", "--dir", str(tmp_path)], capsys)
    assert "error: argument --dir:" in last and "no config.json" in last


def test_cnn_spread_of_a_missing_result_names_evals(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.cnn.__main__", ["spread", "--evals", str(tmp_path / "x"), "--out", str(tmp_path)], capsys)
    assert "error: argument --evals: no round robin result" in last


@pytest.mark.parametrize("text", ["not a summary\n", '{"variants": {}}\n', "step,variant,seed\n", "a,b\n1,2\n"])
def test_rnad_summary_of_a_file_that_is_not_a_log_names_it(text: str, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fig3_summary.json"
    path.write_text(text)
    last = _cli_error("agent_zoo.rnad.__main__", ["summary", str(path), "--steps", "5"], capsys)
    assert f"error: argument csv: {path} is not an experiment log" in last and "step, variant, seed" in last


def test_rnad_summary_of_a_missing_file_names_it(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.rnad.__main__", ["summary", str(tmp_path / "none.csv"), "--steps", "5"], capsys)
    assert "error: argument csv: no file" in last


HOLDEM_KEYS = [g.key for g in catalog.GAMES if g.key in ("nolimit", "limit", "potlimit", "omaha", "shortdeck")]


@pytest.mark.parametrize("key", HOLDEM_KEYS)
@pytest.mark.parametrize("value", [True, False, [200, True]])
def test_a_boolean_stack_is_refused_by_name(key: str, value: object) -> None:
    module = importlib.import_module(catalog.game(key).module_path)
    with pytest.raises(ValueError, match=r"starting_stack.* must be a positive integer"):
        module.raw_env(starting_stack=value)


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_vector_make_refuses_a_boolean_stack_by_name(backend: str) -> None:
    from poker_envs import vector

    with pytest.raises(ValueError, match=r"starting_stack.* must be a positive integer"):
        vector.make("nolimit", 2, backend=backend, starting_stack=True)


@pytest.mark.parametrize("name", ["small_blind", "big_blind", "ante", "num_players", "hands_per_episode"])
def test_other_numeric_holdem_arguments_refuse_booleans_by_name(name: str) -> None:
    from poker_envs import nolimit_holdem_v0

    with pytest.raises(ValueError, match=name):
        nolimit_holdem_v0.raw_env(**{name: True})
