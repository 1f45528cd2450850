"""CI gates: thresholds on a run's metrics that decide whether a CI step passes.

A gate is a metric key (see `metrics/_keys.py`) and a comparison written as text, as in the
config's `[gates]` section: `success_rate = ">= 0.9"`, `unique_failures = "<= 3"`. Gates are
parsed when the config loads, so a typo stops the run before it starts; they are checked on a
`MetricsReport` after the run (`vistasim run --check`) or on a stored run (`vistasim metrics RUN
--check`). A gate on a metric the run has no value for (nothing judged, no judge) fails: CI must
not pass on a number it never saw.

>>> gate = parse_gate("success_rate", ">= 0.9")
>>> str(gate), gate.holds(0.95), gate.holds(0.5)
('success_rate >= 0.9', True, False)
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from vistasim.metrics._keys import MetricValue, metric_key_problem, metric_values
from vistasim.metrics._report import MetricsReport

__all__ = ["Gate", "GateResult", "check_gates", "gate_problem", "parse_gate", "parse_gate_flag"]

_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": math.isclose,
    "!=": lambda a, b: not math.isclose(a, b),
}
_EXPRESSION = re.compile(r"\s*(>=|<=|==|!=|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*")
_FIX = "write a comparison and a number, e.g. '>= 0.9' or '<= 3'"


@dataclass(frozen=True, kw_only=True)
class Gate:
    """One threshold: `key op threshold`."""

    key: str
    op: str
    threshold: float

    def holds(self, value: float) -> bool:
        """Whether `value` satisfies the gate."""
        return _OPERATORS[self.op](value, self.threshold)

    def __str__(self) -> str:
        return f"{self.key} {self.op} {self.threshold:g}"


@dataclass(frozen=True, kw_only=True)
class GateResult:
    """A gate checked against one run."""

    gate: Gate
    value: MetricValue
    passed: bool

    @property
    def explanation(self) -> str:
        """One line: the gate, the value it saw and the verdict."""
        if self.value is None:
            return f"{self.gate}: FAILED, the run has no value for {self.gate.key}"
        verdict = "ok" if self.passed else "FAILED"
        return f"{self.gate}: {verdict} ({self.gate.key} = {self.value:g})"


def gate_problem(expression: object) -> str | None:
    """Why `expression` is not a gate's comparison, or `None` when it is one."""
    if isinstance(expression, str) and _EXPRESSION.fullmatch(expression):
        return None
    return f"{expression!r} is not a threshold; {_FIX}"


def parse_gate(key: str, expression: str) -> Gate:
    """Parse one gate.

    Raises:
        ValueError: the key is not a metric key, or the expression is not a comparison.
    """
    problem = metric_key_problem(key) or gate_problem(expression)
    if problem:
        raise ValueError(problem)
    match = _EXPRESSION.fullmatch(expression)
    assert match is not None  # gate_problem checked it
    return Gate(key=key, op=match.group(1), threshold=float(match.group(2)))


def parse_gate_flag(flag: str) -> tuple[str, str]:
    """Split a `--gate` flag (`success_rate>=0.9`) into its key and expression.

    >>> parse_gate_flag("unique_failures <= 3")
    ('unique_failures', '<= 3')

    Raises:
        ValueError: there is no comparison in the flag.
    """
    match = re.search(r"(>=|<=|==|!=|>|<)", flag)
    if match is None:
        raise ValueError(f"{flag!r} is not KEY OP NUMBER; write e.g. 'success_rate>=0.9'")
    return flag[: match.start()].strip(), flag[match.start() :].strip()


def check_gates(report: MetricsReport, gates: Mapping[str, str]) -> list[GateResult]:
    """Check every gate against a run's metrics, in the order given.

    Raises:
        ValueError: a gate does not parse (configs are checked when they load; flags are not).
    """
    values = metric_values(report)
    results = []
    for key, expression in gates.items():
        gate = parse_gate(key, expression)
        value = values.get(key)
        results.append(
            GateResult(gate=gate, value=value, passed=value is not None and gate.holds(value))
        )
    return results
