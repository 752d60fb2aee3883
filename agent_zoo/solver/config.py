"""How long and how a subgame is solved: the solve settings of a command file, apart from the game it defines."""

from __future__ import annotations

import math
from dataclasses import dataclass

ALGORITHMS = ("dcfr", "cfr+")
BACKENDS = ("numpy", "jax")


@dataclass(frozen=True, kw_only=True)
class SolveSettings:
    """Stopping rule, reporting and implementation choices of one solve (the defaults are TexasSolver's console's,
    github.com/bupticybee/TexasSolver, where it has one)."""

    # Target exploitability in percent of the starting pot (the mean of both players' best-response gains, as
    # TexasSolver reports it); the solve stops once it is reached. TexasSolver's console has no default.
    accuracy: float = 0.5
    max_iterations: int = 100  # stop after this many iterations at the latest (TexasSolver's default 100)
    print_interval: int = 10  # measure and report the exploitability every this many iterations
    threads: int = 1  # CPU threads to use (TexasSolver's default 1)
    use_isomorphism: bool = False  # solve suit-isomorphic boards once (TexasSolver's console default: off)
    dump_rounds: int = 1  # streets of the strategy written by a dump, counting the first (TexasSolver's default 1)
    algorithm: str = "dcfr"  # "dcfr" (discounted CFR, TexasSolver's) or "cfr+"
    backend: str = "numpy"  # "numpy" (CPU) or "jax" (CPU or an accelerator)

    def __post_init__(self) -> None:
        if isinstance(self.accuracy, bool) or not isinstance(self.accuracy, int | float):
            raise ValueError(f"accuracy: expected a number (percent of the pot), got {self.accuracy!r}")
        if not (math.isfinite(self.accuracy) and self.accuracy > 0):
            raise ValueError(f"accuracy: expected a positive percent of the pot, got {self.accuracy!r}")
        for name in ("max_iterations", "print_interval", "threads", "dump_rounds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number >= 1, got {value!r}")
        if not isinstance(self.use_isomorphism, bool):
            raise ValueError(f"use_isomorphism: expected True or False, got {self.use_isomorphism!r}")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm: expected one of {ALGORITHMS}, got {self.algorithm!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend: expected one of {BACKENDS}, got {self.backend!r}")
