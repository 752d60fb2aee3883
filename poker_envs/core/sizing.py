"""Pot-fraction bet sizes in whole chips: the one copy of the rule, exact in integers.

A pot fraction is an exact rational (``fractions.Fraction``): ``0.7`` is read as the decimal the user wrote,
7/10, not as the binary float just below it, and ``"2/3"`` is two thirds. A raise of fraction ``p/q`` raises to
``max_bet + round(p * pot_after_call / q)``, halves rounded up, computed in integers so that every engine (the
rules core in Python ints, the numpy kernels in int64, the JAX kernels in int32) plays the same chip for every
pot. ``pot_share`` is written with ``//`` and ``%`` for Python ints and ``jax.numpy`` arrays (its intermediate
values never exceed the result plus ``q * q``, which keeps int32 exact for denominators up to
``MAX_DENOMINATOR``), and in float64 for numpy arrays, where it is exact too and much faster.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

MAX_DENOMINATOR = 10_000  # largest denominator of a configured pot fraction (int32 kernels stay exact below it)

ArrayOrInt = TypeVar("ArrayOrInt")


def pot_fraction(value: Any, argument: str = "pot fraction") -> Fraction:
    """``value`` (an int, a float, a ``Fraction`` or a string such as ``"2/3"`` or ``"0.75"``) as an exact positive
    rational; a float counts as the shortest decimal that prints it (0.7 -> 7/10). ValueError names ``argument``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Rational | numbers.Real | str):
        raise ValueError(f"{argument} must be a positive number or a string like '2/3', got {value!r}")
    if isinstance(value, str):
        try:
            exact = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{argument} {value!r} is not a number or a ratio like '2/3'") from None
    elif isinstance(value, numbers.Rational):
        exact = Fraction(int(value.numerator), int(value.denominator))
    else:
        as_float = float(value)
        if not math.isfinite(as_float):
            raise ValueError(f"{argument} must be finite, got {value!r}")
        exact = Fraction(repr(as_float))
    if exact <= 0:
        raise ValueError(f"{argument} must be positive, got {value!r}")
    return exact


def pot_share(pot: ArrayOrInt, numerator: Any, denominator: Any) -> ArrayOrInt:
    """``pot * numerator / denominator`` rounded to a whole chip, halves up, exactly.

    Works element-wise on Python ints, numpy and ``jax.numpy`` integer arrays (broadcasting ``numerator`` and
    ``denominator``). Ints and JAX arrays: with ``pot = a * q + r`` and ``p = b * q + s`` the share is
    ``a * p + r * b + (r * s + q // 2) // q``, integers only, no term larger than the result except ``r * s <
    q * q``. numpy arrays: one float64 division, exact while ``2 * p * pot + q < 2**53`` (the batched engines
    keep shares below 2**31 and denominators up to ``MAX_DENOMINATOR``)."""
    q = denominator
    if isinstance(pot, np.ndarray):
        # numpy: the same value through float64, which numpy divides far faster than int64. Exact: the dividend
        # 2 * p * pot + q is a whole number below 2**53 (shares below 2**31, denominators up to MAX_DENOMINATOR),
        # so it and 2 * q are stored exactly; a quotient that is not whole lies at least 1 / (2q) from the
        # next whole number, while the division's rounding moves it by less than 2**-52 times its size.
        dividend = 2.0 * np.asarray(numerator, dtype=np.float64) * pot + q
        return np.floor(dividend / (2.0 * np.asarray(q, dtype=np.float64))).astype(np.int64)  # type: ignore[return-value]
    whole, rest = pot // q, pot % q  # type: ignore[operator]
    return whole * numerator + rest * (numerator // q) + (rest * (numerator % q) + q // 2) // q  # type: ignore[operator,return-value]


def fraction_raise_to(max_bet: int, pot_after_call: int, fraction: Fraction, low: int) -> int:
    """The raise-to of a pot-fraction size: ``max_bet`` plus ``fraction`` of ``pot_after_call`` (the pot once the
    raiser has called), rounded to a chip (halves up), and lifted to the minimum raise-to ``low``. A bet, with
    ``max_bet`` 0, is the fraction of the pot."""
    return max(low, max_bet + pot_share(pot_after_call, fraction.numerator, fraction.denominator))
