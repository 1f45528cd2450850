"""`--check`, `--gate` and `--junit`: what `run` and `metrics` share to gate a CI step.

Exit codes are CI's contract: 0 every gate holds, 1 a gate failed (each one printed), 2 a mistake
(an unknown metric key, `--check` with no gate to check), as every other command's mistakes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vistasim.errors import ConfigError

if TYPE_CHECKING:
    from vistasim.metrics import MetricsReport
    from vistasim.store import RunView

F = TypeVar("F", bound=Callable[..., Any])

_NO_GATES = (
    "--check needs a gate to check: add a [gates] section to the config "
    "(e.g. success_rate = \">= 0.9\") or pass --gate 'success_rate>=0.9'"
)


def gate_options(fn: F) -> F:
    """Add `--check`, `--gate KEY OP NUMBER` (repeatable) and `--junit FILE`."""
    fn = click.option(
        "--junit",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Write JUnit XML: one test case per scenario (and one per gate).",
    )(fn)
    fn = click.option(
        "--gate",
        "gate_flags",
        multiple=True,
        metavar="KEY<OP>NUMBER",
        help="A gate besides the config's [gates], e.g. 'success_rate>=0.9' (repeatable).",
    )(fn)
    return click.option(
        "--check", is_flag=True, help="Exit 1 when a gate fails (gates: the config's [gates])."
    )(fn)


@dataclass(frozen=True, kw_only=True)
class GateRequest:
    """What the gate options asked for, checked before anything runs."""

    check: bool
    flags: dict[str, str]
    """Gates given as `--gate`, by metric key."""
    junit: Path | None

    @classmethod
    def of(cls, check: bool, gate_flags: tuple[str, ...], junit: Path | None) -> GateRequest:
        """Parse the options; a bad `--gate` is a `ConfigError` naming the flag."""
        if not gate_flags:  # the metrics package waits for the run's end, not its start
            return cls(check=check, flags={}, junit=junit)
        from vistasim.metrics import parse_gate, parse_gate_flag

        flags: dict[str, str] = {}
        for flag in gate_flags:
            try:
                key, expression = parse_gate_flag(flag)
                parse_gate(key, expression)
            except ValueError as exc:
                raise ConfigError(str(exc), key="--gate") from None
            flags[key] = expression
        return cls(check=check, flags=flags, junit=junit)

    @property
    def wanted(self) -> bool:
        """Whether there is anything to do after the run."""
        return self.check or self.junit is not None

    def require_gates(self, configured: Mapping[str, str]) -> None:
        """Refuse `--check` with no gate at all (before the run, when the config is known)."""
        if self.check and not configured and not self.flags:
            raise ConfigError(_NO_GATES, key="--check")

    def apply(self, run: RunView, metrics: MetricsReport, *, err: bool = False) -> int:
        """Write the JUnit file, print each gate's verdict; return the exit code.

        `err`: print on stderr (when stdout carries JSON).
        """
        from vistasim.metrics import check_gates
        from vistasim.report import render_junit

        configured = run.config.get("gates")
        gates = {**(configured if isinstance(configured, dict) else {}), **self.flags}
        self.require_gates(gates)
        results = check_gates(metrics, gates) if gates else []
        if self.junit is not None:
            self.junit.parent.mkdir(parents=True, exist_ok=True)
            self.junit.write_text(render_junit(run, metrics, gates=results), encoding="utf-8")
            click.echo(f"junit: {self.junit}", err=err)
        if not self.check:
            return 0
        for result in results:
            click.echo(f"gate {result.explanation}", err=err)
        failed = sum(not r.passed for r in results)
        click.echo(f"gates: {len(results) - failed} of {len(results)} hold", err=err)
        return 1 if failed else 0


def check_stored_run(request: GateRequest, store_path: Path | str, run_id: str) -> int:
    """Compute (or read) a stored run's metrics and apply the gate options to them."""
    import anyio

    from vistasim.metrics import metrics_for_run
    from vistasim.store import open_store, read_run_view

    with open_store(store_path) as store:
        metrics = anyio.run(lambda: metrics_for_run(store, run_id))
        view = read_run_view(store, run_id)
    return request.apply(view, metrics)
