"""The one command-line dialect of the zoo's tools and the examples (see docs/cli.md).

Every ``python -m agent_zoo.<tool>`` builds its parser with :func:`parser` and takes its common flags
from here, so they read and behave the same everywhere:

- ``--seed N``: the seed of everything random the command does;
- ``--out DIR``: the folder for everything the command writes (created when missing);
- ``--json [PATH]``: without PATH, print one JSON summary (one line) to stdout *instead of* the human-readable
  text; with PATH, write that JSON to PATH and print the text as usual;
- ``--workers N``: processes; ``--threads N``: torch CPU threads per process;
- ``--no-progress``: no progress bar (bars go to stderr);
- ``--env-config KEY=VALUE ...``: environment configuration, values parsed as JSON when they are JSON.

Every option has a help text and ``--help`` shows its default.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

STDOUT = "-"  # the value --json takes when given without a PATH


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the description's line breaks and appends ``(default: X)`` to every option with a real default
    (not to flags whose default is off, nor to options whose default is nothing: None or empty). The help is
    plain text: the double backticks of the docstrings the descriptions come from are dropped."""

    def format_help(self) -> str:
        return super().format_help().replace("``", "")

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        empty = default is None or default is False or (isinstance(default, list | tuple) and not default)
        if "%(default)" in text or empty or default == argparse.SUPPRESS or action.required:
            return text
        if not action.option_strings and action.nargs not in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return text
        return text + " (default: %(default)s)"


def parser(tool: str, description: str | None, epilog: str | None = None) -> argparse.ArgumentParser:
    """A parser whose usage line reads ``python -m agent_zoo.<tool>`` (or ``python <tool>`` for a path such
    as ``examples/x.py``) whatever ``sys.argv[0]`` is, with :class:`HelpFormatter`."""
    prog = f"python {tool}" if tool.endswith(".py") else f"python -m agent_zoo.{tool}"
    return argparse.ArgumentParser(prog=prog, description=description, epilog=epilog, formatter_class=HelpFormatter)


def examples(tool: str, *commands: str) -> str:
    """The ``examples:`` block that ends a tool's ``--help`` (an epilog): one runnable command a line, given as the
    arguments after ``python -m agent_zoo.<tool>``."""
    return "examples:\n" + "\n".join(f"  python -m agent_zoo.{tool} {c}" for c in commands)


def subparsers(p: argparse.ArgumentParser) -> Any:
    """Sub-commands that inherit the dialect's formatter (``add_parser`` passes it on)."""
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    original = sub.add_parser

    def add_parser(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        kwargs.setdefault("formatter_class", HelpFormatter)
        kwargs.setdefault("description", kwargs.get("help"))
        return original(name, **kwargs)

    sub.add_parser = add_parser  # type: ignore[method-assign]
    return sub


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def add_seed(p: argparse.ArgumentParser, default: int | None = 0, what: str = "everything random the command does") -> None:
    p.add_argument("--seed", type=int, default=default, help=f"seed of {what}")


def add_out(p: argparse.ArgumentParser, default: str | None, what: str) -> None:
    p.add_argument("--out", metavar="DIR", default=default, help=f"folder, created when missing, for {what}")


def add_json(p: argparse.ArgumentParser, what: str = "the result") -> None:
    p.add_argument("--json", nargs="?", const=STDOUT, default=None, metavar="PATH",
                   help=f"{what} as JSON: alone, printed to stdout instead of the text; with PATH, written there")


def add_workers(p: argparse.ArgumentParser, default: int = 1, what: str = "") -> None:
    p.add_argument("--workers", type=positive_int, default=default, help=f"worker processes{what}")


def add_threads(p: argparse.ArgumentParser, default: int = 1) -> None:
    p.add_argument("--threads", type=positive_int, default=default,
                   help="torch CPU threads per process (1 is fastest for small networks on few cores)")


def add_progress(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-progress", action="store_true", help="do not show progress bars (they go to stderr)")


def add_env_config(p: argparse.ArgumentParser) -> None:
    p.add_argument("--env-config", nargs="*", action="extend", default=[], metavar="KEY=VALUE",
                   help="environment configuration; values are read as JSON when they parse (10, true, \"x\"), else as "
                        "text; may be repeated (the pairs of every --env-config are merged, a key given twice is an error)")


def env_config(p: argparse.ArgumentParser, items: Sequence[str]) -> dict[str, Any]:
    """``["num_players=2", "stack_bb=10"]`` -> typed dict; a malformed item is an argparse ``error:`` (exit 2)."""
    config: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            p.error(f"--env-config expects KEY=VALUE with KEY a name, got {item!r}")
        if key in config:
            p.error(f"--env-config: key {key!r} is given twice; give each key once")
        try:
            config[key] = json.loads(value)
        except json.JSONDecodeError:
            config[key] = value
    return config


def parse_overrides(p: argparse.ArgumentParser, items: Sequence[str], defaults: dict[str, Any]) -> dict[str, Any]:
    """``--set FIELD=VALUE`` pairs -> typed config overrides, each typed as its default in ``defaults`` (booleans
    as true/false, tuples as comma lists of the default's element type); a bad pair, or a field given twice, is an
    argparse ``error:``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in defaults:
            p.error(f"argument --set: expected FIELD=VALUE with FIELD one of {sorted(defaults)}, got {item!r}")
        if key in out:
            p.error(f"argument --set: {key} is given twice ({key}={out[key]!r} and {item!r}); give each field once")
        default = defaults[key]
        try:
            if isinstance(default, bool):
                if value.lower() not in ("1", "true", "yes", "0", "false", "no"):
                    raise ValueError("expected true or false")
                out[key] = value.lower() in ("1", "true", "yes")
            elif isinstance(default, tuple | list):
                cast = type(default[0]) if len(default) and isinstance(default[0], float) else int
                out[key] = tuple(cast(v) for v in value.split(","))
            else:
                out[key] = type(default)(value)
        except ValueError as exc:
            p.error(f"argument --set {key}: {value!r}: {exc}")
    return out


def set_threads(threads: int) -> None:
    """Apply ``--threads`` to torch (imported only here, so tools without torch never pay for it)."""
    import torch

    torch.set_num_threads(threads)


def limit_threads(threads: int) -> None:
    """Apply ``--threads`` to whatever loads torch later, in this process and in the worker processes it
    starts (they inherit ``OMP_NUM_THREADS``, which torch reads when it starts); torch itself is not imported,
    so a tool whose agents need no torch never pays for it."""
    import os

    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ["MKL_NUM_THREADS"] = str(threads)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def check_out(p: argparse.ArgumentParser, path: str | Path | None, option: str = "--out") -> None:
    """An argparse ``error:`` when ``option``'s folder ``path`` exists as something else than a folder (a file)."""
    if path is not None and Path(path).exists() and not Path(path).is_dir():
        p.error(f"argument {option}: {str(path)!r} is a file; give a folder (created when missing)")


def out_dir(path: str | Path) -> Path:
    """``--out``'s folder, created when missing."""
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def emit_json(data: Any, dest: str | None, allow_nan: bool = True) -> bool:
    """Honour ``--json``: print ``data`` (``dest`` is ``-``) or write it to ``dest``; nothing when None.
    Returns True when it went to stdout, so the caller prints no text. ``allow_nan=False``: strict JSON (a NaN or
    infinity in ``data`` is a ValueError; give None for values that cannot be computed)."""
    if dest is None:
        return False
    if dest == STDOUT:
        print(json.dumps(data, default=_jsonable, allow_nan=allow_nan))  # one line, so a pipe reads one object per run
        return True
    path = Path(dest)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, default=_jsonable, allow_nan=allow_nan) + "\n")
    print(f"json: {path}", file=sys.stderr)
    return False


def _jsonable(value: Any) -> Any:
    """numpy scalars and arrays, paths, exact pot fractions ("7/10"): the values summaries hold that ``json`` does
    not know."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Path | Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def sb3_progress(total_timesteps: int, enabled: bool = True) -> Any:
    """A Stable-Baselines3 callback that shows a tqdm bar over ``total_timesteps`` on stderr (SB3's own
    ``progress_bar=True`` also needs ``rich``); None when disabled, so ``learn(callback=...)`` takes it as is."""
    if not enabled:
        return None
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class _Bar(BaseCallback):
        def _on_training_start(self) -> None:
            # on-policy learners (PPO, A2C) run whole rollouts: total_timesteps rounded up to a rollout's multiple
            rollout = getattr(self.model, "n_steps", 1) * self.training_env.num_envs
            total = -(-total_timesteps // rollout) * rollout
            self.bar = tqdm(total=total, unit="step", file=sys.stderr, leave=False)

        def _on_step(self) -> bool:
            self.bar.update(self.training_env.num_envs)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return _Bar()
