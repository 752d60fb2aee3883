"""Every command line of the zoo and the examples speaks the dialect of ``agent_zoo.cli`` (docs/cli.md)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_zoo import cli

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {  # python -m agent_zoo.<tool> -> the module whose main() it runs
    "bridges.slumbot": "agent_zoo.bridges.slumbot",
    "bridges.slumbot_server": "agent_zoo.bridges.slumbot_server",
    "cfr": "agent_zoo.cfr.__main__",
    "clustering": "agent_zoo.clustering.__main__",
    "cnn": "agent_zoo.cnn.__main__",
    "jax_ppo": "agent_zoo.jax_ppo.__main__",
    "jax_rnad": "agent_zoo.jax_rnad.__main__",
    "lbr": "agent_zoo.lbr.__main__",
    "push_fold": "agent_zoo.push_fold.__main__",
    "push_fold.make_equity": "agent_zoo.push_fold.make_equity",
    "push_fold.multiway": "agent_zoo.push_fold.multiway",
    "play": "agent_zoo.play",
    "rnad": "agent_zoo.rnad.__main__",
    "rnad.tabular_run": "agent_zoo.rnad.tabular_run",
    "showcase": "agent_zoo.showcase",
    "solver": "agent_zoo.solver.__main__",
    "threshold": "agent_zoo.threshold.__main__",
    "tournament": "agent_zoo.tournament",
    "viewer": "agent_zoo.viewer.__main__",
}
EXAMPLES = sorted(p.stem for p in (ROOT / "examples").glob("*.py"))


def load_example(name: str):  # noqa: ANN201
    spec = importlib.util.spec_from_file_location(f"cli_example_{name}", ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_tool_with_a_main_is_listed() -> None:
    found = set()
    for path in (ROOT / "agent_zoo").rglob("*.py"):
        if "\ndef main(" in path.read_text():
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.add(".".join(parts[1:-1] if parts[-1] == "__main__" else parts[1:]))
    assert found == set(TOOLS)


def parsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The parser and, recursively, its sub-commands' parsers, with the words that select them."""
    yield "", parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for words, p in parsers(sub):
                    yield f"{name} {words}".strip(), p


def has_default(action: argparse.Action) -> bool:
    """A default worth showing: not None, not an off flag, not an empty list."""
    d = action.default
    return not (d is None or d is False or (isinstance(d, list | tuple) and not d))


def check_options(parser: argparse.ArgumentParser) -> None:
    """Every option and positional has a help text; every option with a real default shows it."""
    assert issubclass(parser.formatter_class, cli.HelpFormatter)
    formatter = parser._get_formatter()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help and action.help is not argparse.SUPPRESS, f"{parser.prog}: {name} has no help text"
        shown = formatter._expand_help(action)
        if action.option_strings and has_default(action) and not action.required:
            assert "default" in shown, f"{parser.prog}: {name} hides its default {action.default!r}"


def help_text(main, words: list[str], capsys: pytest.CaptureFixture[str]) -> str:  # noqa: ANN001
    with pytest.raises(SystemExit) as exit_:
        main([*words, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_tool_help(tool: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(TOOLS[tool])
    for words, parser in parsers(module.build_parser()):
        check_options(parser)
        text = help_text(module.main, words.split(), capsys)
        assert text.startswith(f"usage: python -m agent_zoo.{tool} {words}".rstrip()), text[:120]
        if words == "" and any(a.option_strings and has_default(a) for a in parser._actions[1:]):
            assert "(default: " in text


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_help(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_example(name)
    made: list[argparse.ArgumentParser] = []
    original = cli.parser
    monkeypatch.setattr(cli, "parser", lambda *a, **k: made.append(original(*a, **k)) or made[-1])
    text = help_text(module.main, [], capsys)
    assert text.startswith(f"usage: python examples/{name}.py")
    check_options(made[0])
    source = (ROOT / "examples" / f"{name}.py").read_text()
    assert "--seed" in text
    if "torch" in source:
        assert "--threads" in text
    if any(call in source for call in ("learn(", "train_one(", "Trainer(", ".fit(")):  # the calls that show bars
        assert "--no-progress" in text
    if ".save(" in source or "savefig" in source or "png" in source:
        assert "--out DIR" in text


# The tools a new user starts with, and their sub-commands: (python -m name, module, sub-command words).
HELP_WITH_EXAMPLES = [
    *((f"agent_zoo.{tool}", TOOLS[tool], "") for tool in ("tournament", "lbr", "play", "showcase", "viewer")),
    *((f"agent_zoo.{tool}", TOOLS[tool], words) for tool, commands in (
        ("jax_ppo", ("train", "exploitability")), ("jax_rnad", ("train", "exploitability")), ("rnad", ("train", "experiment", "summary", "tabular")),
        ("cnn", ("train", "evaluate", "calibrate", "spread"))) for words in ("", *commands)),
    ("wrappers.text_server", "wrappers.text_server", ""),
]


@pytest.mark.parametrize("name,module_name,words", HELP_WITH_EXAMPLES,
                         ids=[f"{name} {words}".strip() for name, _, words in HELP_WITH_EXAMPLES])
def test_help_ends_with_examples_that_parse(name: str, module_name: str, words: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The help ends with two or three commands to copy, each one valid for its (sub-)command."""
    module = importlib.import_module(module_name)
    text = help_text(module.main, words.split(), capsys)
    _, sep, block = text.rpartition("\nexamples:\n")
    assert sep, text[-300:]
    lines = block.rstrip("\n").split("\n")
    assert 2 <= len(lines) <= 3, block
    for line in lines:
        assert line.startswith(f"  python -m {name} {words}".rstrip() + " "), line
        module.build_parser().parse_args(shlex.split(line)[3:])  # an invalid example exits 2 here


def test_usage_line_when_run_with_python_m() -> None:
    """Run as ``python -m``, argv[0] is ``__main__.py``; the usage line must still name the module."""
    done = subprocess.run([sys.executable, "-m", "agent_zoo.threshold", "--help"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.startswith("usage: python -m agent_zoo.threshold")


@pytest.mark.parametrize("bad", ["stack_bb", "=3", "num_players=7", "no_such_option=1", "stack_bb=1 stack_bb=2"])
def test_bad_env_config_is_an_error_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    tournament = importlib.import_module("agent_zoo.tournament")
    with pytest.raises(SystemExit) as exit_:
        tournament.main(["--game", "push_fold", "--agents", "random", "random", "--hands", "2", "--env-config", *bad.split()])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("python -m agent_zoo.tournament: error: --env-config"), err
    assert "Traceback" not in err


def test_bad_env_config_from_the_shell() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agent_zoo.tournament", "--game", "leduc", "--agents", "random", "random",
         "--env-config", "no_such_option=1"], cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("python -m agent_zoo.tournament: error:")


def test_json_alone_prints_only_json(capsys: pytest.CaptureFixture[str]) -> None:
    threshold = importlib.import_module("agent_zoo.threshold.__main__")
    threshold.main(["--players", "2", "--alphas", "3", "--json"])
    rows = json.loads(capsys.readouterr().out)  # nothing but the JSON on stdout
    assert rows[0]["n"] == 2 and abs(rows[0]["threshold"] - 67) <= 1  # (alpha - 1) / alpha of the cards 0..100


def test_json_path_writes_the_same_json_and_keeps_the_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    threshold = importlib.import_module("agent_zoo.threshold.__main__")
    threshold.main(["--players", "2", "--alphas", "3", "--json"])
    printed = json.loads(capsys.readouterr().out)
    threshold.main(["--players", "2", "--alphas", "3", "--json", str(tmp_path / "sub" / "t.json")])
    text = capsys.readouterr().out
    assert text.startswith("Exact symmetric equilibrium")
    written = json.loads((tmp_path / "sub" / "t.json").read_text())
    assert [r["threshold"] for r in written] == [r["threshold"] for r in printed]


def test_env_config_values_are_typed() -> None:
    parser = cli.parser("x", None)
    assert cli.env_config(parser, ["stack_bb=10", "name=abc", "flag=true", "xs=[1,2]"]) == {
        "stack_bb": 10, "name": "abc", "flag": True, "xs": [1, 2]}  # fmt: skip


def test_clustering_writes_only_under_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--out and --cache say where the clustering tool writes; nothing lands in the current directory."""
    report = importlib.import_module("agent_zoo.clustering.report")
    clustering = importlib.import_module("agent_zoo.clustering.__main__")
    calls = []
    experiments = importlib.import_module("agent_zoo.clustering.experiments")
    monkeypatch.setattr(experiments, "run_functions", lambda quick, seed: calls.append((quick, seed)) or report.write_section("functions", "# x"))
    saved = (report.RESULTS, report.CACHE, report.PROGRESS)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    try:
        clustering.main(["functions", "--quick", "--seed", "3", "--out", str(tmp_path / "res"), "--cache", str(tmp_path / "c"), "--no-progress"])
    finally:
        report.configure(*saved)
    assert calls == [(True, 3)]
    assert (tmp_path / "res" / "clustering.md").is_file() and (tmp_path / "res" / "clustering" / "functions.md").is_file()
    assert list(cwd.iterdir()) == []


COMMAND = re.compile(r"python -m agent_zoo\.([a-z_.]+)((?: +[^\s`\"'#)]+)*)")


def documented_commands() -> list[tuple[str, str, str]]:
    """(where, tool, arguments) of every concrete ``python -m agent_zoo.<tool> ...`` in the examples, the
    tools' own docstrings, the README and docs/ (skipping usage patterns with [optional] parts or <holes>)."""
    sources = [*sorted((ROOT / "examples").glob("*.py")), ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
               *sorted((ROOT / "agent_zoo").rglob("*.py"))]  # fmt: skip
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in COMMAND.finditer(line):
                tool, args = match.group(1).rstrip("."), match.group(2)
                rest = line[match.start() :]
                if tool not in TOOLS or any(c in rest for c in "[<|{\\") or "..." in args or "--" not in args:
                    continue  # a pattern, a continued line, or a bare mention of the tool
                if any(re.fullmatch(r"[A-Z]+", token) for token in args.split()):
                    continue  # placeholders such as N or DIR
                found.append((f"{path.relative_to(ROOT)}:{number}", tool, args.strip()))
    return found


def test_documented_commands_are_found() -> None:
    tools = {tool for _, tool, _ in documented_commands()}
    assert {"cfr", "tournament", "push_fold", "threshold", "rnad", "cnn"} <= tools


@pytest.mark.parametrize("where,tool,args", documented_commands(), ids=lambda v: v if ":" in str(v) else None)
def test_documented_command_parses(where: str, tool: str, args: str) -> None:
    """Hints printed by the examples and commands in the docs run as written: their arguments parse."""
    import shlex

    module = importlib.import_module(TOOLS[tool])
    try:
        module.build_parser().parse_args(shlex.split(args))
    except SystemExit as exc:
        if exc.code == 0:  # --help
            return
        pytest.fail(f"{where}: python -m agent_zoo.{tool} {args} does not parse (exit {exc.code})")


# ---- every command of the README and the docs pages runs as written (with tiny budgets) ---------------------
SMALL_BUDGETS = {  # option -> value: what a command may be cut to and still run the same code
    "--hands": "12",  # a multiple of 2, 3, 4 and 6 seats (tournament), of 2 (lbr), or hands at the play table
    "--iterations": "20",
    "--steps": "4",
    "--sampled": "200",
}
# Parsed by test_documented_command_parses but not run here: JAX training runs and the jax: checkpoints they
# write need minutes of compiling (tests/test_jax_ppo.py trains, saves and plays such a checkpoint); the Slumbot
# client needs a server (slumbot.com is on the internet, the local one serves until stopped: tests/test_slumbot.py
# plays the client against a local server in a thread).
NOT_RUN = ("jax:", "jax_ppo train --game", "jax_ppo exploitability", "jax_rnad train", "jax_rnad exploitability", "bridges.slumbot")
NOT_RUN += ("viewer ",)  # the viewer serves until stopped (tests/test_viewer*.py serve it in a thread)


def run_commands() -> list[tuple[str, str, str]]:
    """The documented commands of the README and the docs pages (the results pages' experiments excepted:
    hours of compute each), in page order; a command written over two lines is left to the parse test."""
    pages = {"README.md", *(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md") if "results" not in p.parts)}
    found = []
    for where, tool, args in documented_commands():
        path, number = where.rsplit(":", 1)
        if path not in pages or any(marker in f"{tool} {args}" for marker in NOT_RUN):
            continue
        line = (ROOT / path).read_text().splitlines()[int(number) - 1]
        rest = line[line.index(f"agent_zoo.{tool} {args}") + len(f"agent_zoo.{tool} {args}"):]
        if "`" in line and not rest.startswith("`"):  # inline code that goes on on the next line
            continue
        found.append((where, tool, args))
    return found


def small(args: list[str]) -> list[str]:
    out = list(args)
    for k, word in enumerate(out[:-1]):
        if word in SMALL_BUDGETS and out[k + 1].replace("_", "").isdigit():
            out[k + 1] = SMALL_BUDGETS[word]
    return out


@pytest.fixture(scope="module")
def command_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder holding what the documented commands name: a CFR+ policy of Leduc, a MaskablePPO model of
    the Leduc Gymnasium view (both tiny) and the subgame solver's spot files."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import poker_envs  # noqa: F401

    folder = tmp_path_factory.mktemp("commands")
    importlib.import_module(TOOLS["cfr"]).main(["--game", "leduc", "--iterations", "20", "--out", str(folder / "policies"),
                                               "--no-progress"])
    model = MaskablePPO("MlpPolicy", gymnasium.make("poker_envs/LeducHoldem-v0", opponent="random"), n_steps=64,
                        batch_size=64, seed=0)
    model.learn(64)
    model.save(folder / "out" / "leduc_ppo.zip")
    shutil.copytree(ROOT / "agent_zoo" / "solver" / "spots", folder / "agent_zoo" / "solver" / "spots")  # the solver's files
    return folder


@pytest.mark.parametrize("where,tool,args", run_commands(), ids=lambda v: v if ":" in str(v) else None)
def test_documented_command_runs(where: str, tool: str, args: str, command_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Each command of the README and the docs pages runs as written, with only its budget cut (SMALL_BUDGETS);
    ``play`` reads its moves from stdin."""
    import io
    import shlex

    monkeypatch.chdir(command_dir)
    argv = small(shlex.split(args)) + (["--no-progress"] if tool in ("tournament", "cfr", "lbr") and "--help" not in args else [])
    main = importlib.import_module(TOOLS[tool]).main
    try:
        if tool == "play":
            main(argv, input_stream=io.StringIO("c\n" * 500), output_stream=io.StringIO())
        else:
            main(argv)
    except SystemExit as exc:
        assert exc.code in (0, None), f"{where}: python -m agent_zoo.{tool} {args} exited {exc.code}: {capsys.readouterr().err[-400:]}"
