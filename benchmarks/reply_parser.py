"""Times the reply parser (``poker_envs.text``) on hostile replies of 1 MB and just under the read cap, and prints ms.

Each reply is parsed ``--repeats`` times and the median is shown beside a peer measured in the same run on the same
text: ``str.lower()`` of the whole reply, one linear pass in C, so a busy machine shows in both columns and the
ratio stays readable. A reply past ``MAX_REPLY_CHARS`` is refused whole; one at the cap is read through windows of
at most ``MAX_ANSWER_CHARS``.

    python benchmarks/reply_parser.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from poker_envs import nolimit_holdem_v0
from poker_envs.text import TextTable
from poker_envs.text.parser import MAX_REPLY_CHARS

MB = 1_000_000


def hostile(size: int) -> dict[str, str]:
    """Replies of ``size`` characters that once made the parser slow or read the wrong thing."""
    fill = "x" * size
    return {
        "digits after raise to": ("Final Answer: raise to " + "9" * size)[:size],
        "digits, no marker": ("raise to " + "9" * size)[:size],
        "open braces": "{" * size,
        "json objects": ('{"action": 1}' * size)[:size],
        "final answer repeated": ("final answer " * size)[:size],
        "fractions": ("1/" * size)[: size - 3] + "pot",
        "raise words": ("Final Answer: " + "raise " * size)[:size],
        "answer then filler": ("Final Answer: fold\n" + fill)[:size],
        "filler then answer": fill[: size - 18] + "Final Answer: call",
        "unicode": ("Final Answer: " + "\u00e9\U0001f0cf" * size)[:size],
        "newlines": "\n" * (size - 4) + "call",
        "expanding, fullwidth": "\ufdfa" * (size - 1) + "\uff21",
        "fullwidth marker": ("\uff46\uff49\uff4e\uff41\uff4c \uff41\uff4e\uff53\uff57\uff45\uff52 " * size)[:size],
    }


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=5, help="timings per reply (the median is shown)")
    args = parser.parse_args()
    env = nolimit_holdem_v0.env(num_players=3, history=True)
    env.reset(seed=0)
    table = TextTable.for_env(env)
    obs = env.observe(env.agent_selection)
    print(f"{'reply':<24}{'chars':>10}{'parse ms':>10}{'lower() ms':>12}{'ratio':>8}  result")
    worst = 0.0
    for size in (MB, MAX_REPLY_CHARS):
        for name, reply in hostile(size).items():
            parse = median_ms(lambda r=reply: table.parse(r, obs), args.repeats)
            peer = median_ms(lambda r=reply: r.lower(), args.repeats)
            worst = max(worst, parse)
            got = table.parse(reply, obs)
            print(f"{name:<24}{len(reply):>10}{parse:>10.2f}{peer:>12.2f}{parse / peer:>8.1f}  "
                  f"{got.failure or 'action ' + str(got.action)}")
    print(f"slowest parse: {worst:.2f} ms")


if __name__ == "__main__":
    main()
