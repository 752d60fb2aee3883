"""Command-line pieces both on-device trainers share (``python -m agent_zoo.jax_ppo`` / ``agent_zoo.jax_rnad``):
a run's configuration from its flags, and the ``exploitability`` sub-command over a run's checkpoints."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path
from typing import Any

from agent_zoo import cli


def config_from_flags(parser: argparse.ArgumentParser, config_type: type, values: dict[str, Any],
                      flags: dict[str, str]) -> Any:
    """``config_type(**values)``; a bad value is a one-line error naming its flag (``flags``: field -> its own
    flag; the other fields are set with ``--set FIELD=VALUE``)."""
    try:
        return config_type(**values)
    except ValueError as exc:
        prefix = config_type.__name__
        name = next((f.name for f in fields(config_type) if f"{prefix}.{f.name} " in str(exc)), "")
        parser.error(f"argument {flags.get(name, '--set ' + name)}: {exc}")
        raise  # unreachable: parser.error exits


def run_exploitability(parser: argparse.ArgumentParser, out: Path, json_dest: str | None, steps: str) -> dict[str, Any]:
    """The exact exploitability of every checkpoint in ``out``: written to ``out/exploitability.json`` and
    ``.png``, printed (``steps``: what the run counts, e.g. "learner steps") unless the JSON goes to stdout."""
    from agent_zoo.jax_common.checkpoint import checkpoint_paths
    from agent_zoo.jax_common.exploitability import (
        checkpoint_curve,
        plot_curve,
        save_average,
    )

    paths = checkpoint_paths(out)
    if not paths:
        parser.error(f"argument --out: no checkpoint_<update>.npz in {out}")
    try:
        curve, average = checkpoint_curve(paths)
    except ValueError as exc:
        parser.error(f"argument --out: {exc}")
    if average is not None:
        curve["average_policy"] = str(save_average(out / "average_policy.npz", curve, average))
    cli.emit_json(curve, str(out / "exploitability.json"))
    curve["png"] = str(plot_curve(curve, out / "exploitability.png"))
    if not cli.emit_json(curve, json_dest):
        print(f"uniform random policy: exploitability {curve['uniform_exploitability']:.4f}")
        for r in curve["rows"]:
            average_so_far = f"  average policy {r['avg_exploitability']:.4f}" if "avg_exploitability" in r else ""
            print(f"  update {r['update']:>6}  {steps} {r['steps']:>11,}  exploitability {r['exploitability']:.4f}"
                  f"  post-processed {r['pp_exploitability']:.4f}{average_so_far}")
        if average is not None:
            print(f"average policy of the run (the {curve['averaged']} policies of every checkpoint after the first, one drawn per "
                  f"hand): {curve['average_policy']}, played by cfr:{curve['average_policy']}")
        print(f"curve: {curve['png']}")
    return curve
