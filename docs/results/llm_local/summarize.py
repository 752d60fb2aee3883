"""Summarize runs of docs/results/llm_local.md: replies, failures, cost and results per run, and the prompt
tokens per decision by the hand's place in the run (hands 1-10, 11-20, ...).

    python docs/results/llm_local/summarize.py out/A out/E out/F

Each argument is a tournament's ``--out`` folder (its JSON and ``decisions/*.jsonl``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def summarize(run: Path) -> dict[str, object]:
    """One run's figures: the LLM seat's counters, results against the other seat, prompt tokens by hands."""
    result = json.loads(next(run.glob("tournament_*.json")).read_text())
    agents = result["agents"]
    me = next(i for i, a in enumerate(agents) if a.startswith("llm:"))
    other = 1 - me
    counts = result["decisions"][agents[me]]
    lines = [json.loads(x) for f in sorted((run / "decisions").glob("*.jsonl")) for x in f.read_text().splitlines()]
    by_bin: dict[int, list[float]] = {}
    for line in lines:
        if line.get("prompt_tokens") is not None:
            place = line["deal"] * len(agents) + line["rotation"]  # the hand's place in the run (0-based)
            by_bin.setdefault(place // 10, []).append(line["prompt_tokens"] / max(1, len(line["replies"])))
    legal = counts["requests"] - counts["parse_failures"]
    return {
        "run": run.name,
        "hands": result["hands_per_match"],
        "decisions": counts["decisions"],
        "requests": counts["requests"],
        "legal replies": f"{legal}/{counts['requests']} = {100 * legal / counts['requests']:.1f}%",
        "failures": {k.split(".")[1]: v for k, v in counts.items() if k.startswith("failures.")},
        "reprompts": counts["reprompts"],
        "fallbacks": counts["fallbacks"],
        "s per decision": round(counts["latency_s"] / counts["decisions"], 2),
        "tokens per decision (prompt / completion)": (round(counts["prompt_tokens"] / counts["decisions"]),
                                                      round(counts["completion_tokens"] / counts["decisions"], 1)),
        "bb/hand": (round(result["mean"][me][other], 2), round(result["ci95"][me][other], 2)),
        "AIVAT bb/hand": (round(result["aivat"]["mean"][me][other], 2), round(result["aivat"]["ci95"][me][other], 2)),
        "style": result["style"][agents[me]],
        "prompt tokens per request by hands": {f"{10 * b + 1}-{10 * b + 10}": round(sum(v) / len(v)) for b, v in sorted(by_bin.items())},
        "most prompt tokens": max((x["prompt_tokens"] for x in lines if x.get("prompt_tokens") is not None), default=None),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="tournament --out folders")
    for run in parser.parse_args().runs:
        print(json.dumps(summarize(run)))


if __name__ == "__main__":
    main()
