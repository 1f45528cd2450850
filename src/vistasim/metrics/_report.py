"""All metrics of a stored run in one report, so `vistasim metrics RUN` can recompute them anytime.

`compute_metrics` reads only a `RunView`; its `MetricsReport` serializes to JSON with stable
top-level keys and carries `METRICS_VERSION`, so stored results can be told apart from results of
a later version of the definitions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict
from rich.console import Group
from rich.table import Table
from rich.text import Text

from vistasim.llm._embed import Embedder
from vistasim.llm._types import ChatModel
from vistasim.metrics._behaviour import BehaviourSpec
from vistasim.metrics._catalogue import FailureCatalogue, catalogue_failures, default_embedder
from vistasim.metrics._cost import CostReport, Distribution, cost
from vistasim.metrics._coverage import CoverageReport, coverage
from vistasim.metrics._dedup import DEFAULT_THRESHOLD, UniqueFailure
from vistasim.metrics._domain_rules import rules_for_run
from vistasim.metrics._efficiency import Efficiency, efficiency
from vistasim.metrics._failures import Failure, PolicyRule
from vistasim.metrics._judge import JudgeError
from vistasim.metrics._policy_judge import judge_policy, policy_text
from vistasim.metrics._realism import RUBRICS, RealismNotComputed, RealismReport, realism
from vistasim.metrics._success import SuccessReport, success
from vistasim.metrics._validity import UserFinding
from vistasim.metrics._verdicts import find_all
from vistasim.store._view import RunView

__all__ = ["METRICS_VERSION", "MetricsReport", "compute_metrics", "format_metrics"]

METRICS_VERSION = 6
"""Version of the metric definitions; bump it when a formula or a report field changes."""


class MetricsReport(BaseModel):
    """Every metric of a run; the top-level keys are stable across versions."""

    model_config = ConfigDict(extra="forbid")

    metrics_version: int = METRICS_VERSION
    run_id: str
    episodes: int
    errored_episodes: int
    """Episodes that ended in an infra error: never passed nor failed, kept out of most metrics."""
    transition_entropy: float
    tool_distr_entropy: float
    traj_dist: float | None
    realism: RealismReport | RealismNotComputed
    cost: CostReport
    unique_failures: int
    """Distinct agent failures: named causes plus the symptoms no cause explains."""
    success_rate: float | None
    pass_hat_k: dict[int, float]
    coverage: CoverageReport
    failures: FailureCatalogue
    success: SuccessReport
    efficiency: Efficiency
    """DIVERT's efficiency: errors per 100K agent tokens, token savings, shared prefixes."""
    user_checks: list[UserFinding] = []
    """Checks of the simulated user's own behaviour that fired; decisive ones made an episode
    `invalid`."""


async def compute_metrics(
    run: RunView,
    *,
    judge: ChatModel | None = None,
    embedder: Embedder | None = None,
    rules: Sequence[PolicyRule] = (),
    behaviour: BehaviourSpec | None = None,
    judge_failures_too: bool = False,
    merge_failures: bool = False,
    threshold: float = DEFAULT_THRESHOLD,
    max_concurrency: int = 8,
) -> MetricsReport:
    """Compute every metric of a stored run.

    Args:
        run: The stored run.
        judge: Judge model for realism (and, when asked, failures and merging); without one,
            realism is reported as not computed.
        embedder: Embedder for failure deduplication; default: the offline WordLlama embedder
            (identical wording only if `wordllama` is not installed).
        rules: Policy rules checked on every episode, besides those of the run's built-in domain
            (its `policy_rules.yaml`).
        behaviour: Spec of the behavioural failure detectors; default: the run's built-in
            domain's, else generic (id-like values, every tool a write).
        judge_failures_too: Also ask the judge for failures, one call per episode.
        merge_failures: Also ask the judge to merge unique failures, one call per 25.
        threshold: Cosine similarity at which free-text failures are folded together.
        max_concurrency: Judge calls in flight at once.
    """
    domain = rules_for_run(run)
    policy = policy_text(run)
    judged: list[Failure] = []
    policy_errors: list[JudgeError] = []
    policy_calls = 0
    if judge is not None and policy is not None:
        judged, policy_errors, policy_calls = await judge_policy(
            run, judge, policy, max_concurrency=max_concurrency
        )
    findings = find_all(
        run,
        rules=[*domain.rules, *rules],
        behaviour=domain.behaviour if behaviour is None else behaviour,
        disclosure=domain.disclosure,
        judged=judged,
    )
    failures = await catalogue_failures(
        run,
        findings=findings,
        embedder=default_embedder() if embedder is None else embedder,
        failure_judge=judge if judge_failures_too else None,
        merge_judge=judge if merge_failures else None,
        threshold=threshold,
        max_concurrency=max_concurrency,
    )
    if policy_calls or policy_errors:
        failures = failures.model_copy(
            update={
                "judge_calls": failures.judge_calls + policy_calls,
                "judge_errors": [*failures.judge_errors, *policy_errors],
            }
        )
    covered, succeeded = coverage(run), success(run, findings.verdicts)
    return MetricsReport(
        run_id=run.run_id,
        episodes=len(run.episodes),
        errored_episodes=sum(outcome == "errored" for outcome in succeeded.episodes.values()),
        transition_entropy=covered.transition_entropy,
        tool_distr_entropy=covered.tool_distr_entropy,
        traj_dist=covered.traj_dist,
        realism=await realism(run, judge, max_concurrency=max_concurrency),
        cost=cost(run),
        unique_failures=failures.distinct,
        success_rate=succeeded.success_rate,
        pass_hat_k=succeeded.pass_hat_k,
        coverage=covered,
        failures=failures,
        success=succeeded,
        efficiency=efficiency(
            run,
            succeeded.episodes,
            # The distinct failures the headline counts: a symptom causes account for is not a
            # failure more (counted, it doubled branching's figures where branches varied
            # the wording of a cause's tool errors and unmet criteria).
            failures={u.id: u.episodes for u in failures.unique if u.id not in failures.covered},
            causes=failures.causes,
        ),
        user_checks=list(findings.user),
    )


def format_metrics(report: MetricsReport) -> Group:
    """Render a report for the terminal: headline metrics, then the failure catalogue."""
    headline = Table(title=f"Metrics of run {report.run_id}", title_justify="left")
    headline.add_column("metric")
    headline.add_column("value", justify="right")
    headline.add_column("note", style="dim")
    for name, value, note in _headline_rows(report):
        # Text, not markup: mode names and reasons come from the store.
        headline.add_row(Text(name), Text(value), Text(note))
    return Group(headline, *_catalogue_tables(report.failures))


def _catalogue_tables(catalogue: FailureCatalogue) -> list[Table]:
    """Render the named causes first, each once with its episodes, then the symptoms."""
    causes = set(catalogue.causes)
    named = Table(title="Unique failures: named causes", title_justify="left")
    for column in ("id", "kind", "rule / detector", "episodes", "description", "in episodes"):
        named.add_column(column, justify="right" if column == "episodes" else "left")
    symptoms = Table(title="Unique failures: symptoms", title_justify="left")
    for column in ("id", "kind", "failures", "episodes", "explained by", "description"):
        symptoms.add_column(
            column, justify="right" if column in ("failures", "episodes") else "left"
        )
    for item in catalogue.unique:
        # Text, not markup: descriptions quote agents and tools verbatim.
        if item.id in causes:
            named.add_row(
                item.id,
                item.kind,
                Text(item.label),
                str(len(item.episodes)),
                Text(item.description),
                Text(_episode_list(item)),
            )
        else:
            symptoms.add_row(
                item.id,
                item.kind,
                str(item.failures),
                str(len(item.episodes)),
                catalogue.explained_by.get(item.id, ""),
                Text(item.description),
            )
    return [named, symptoms] if causes else [symptoms]


def _episode_list(item: UniqueFailure, shown: int = 4) -> str:
    listed = ", ".join(item.episodes[:shown])
    more = len(item.episodes) - shown
    return f"{listed}, +{more} more" if more > 0 else listed


def _headline_rows(report: MetricsReport) -> list[tuple[str, str, str]]:
    cov, total = report.coverage, report.cost.total
    counts = report.success.outcomes
    judged = counts.get("passed", 0) + counts.get("failed", 0)
    apart = ", ".join(
        f"{counts[o]} {o.replace('_', ' ')}"
        for o in ("errored", "invalid", "not_applicable", "unjudged")
        if counts.get(o)
    )
    rows = [
        ("episodes", str(report.episodes), f"{judged} judged; {apart or 'none'} excluded"),
        ("outcomes", f"{counts.get('passed', 0)} passed / {counts.get('failed', 0)} failed", ""),
        ("transition_entropy", f"{report.transition_entropy:.3f}", f"N = {cov.n_tools} tools"),
        ("tool_distr_entropy", f"{report.tool_distr_entropy:.3f}", f"{cov.tool_calls} calls"),
        ("traj_dist", _maybe(report.traj_dist), f"{cov.goals_compared} goals with >= 2 episodes"),
    ]
    rows.extend(_realism_rows(report.realism))
    rows.extend(
        [
            ("cost (USD)", f"{total.cost_usd:.4f}", f"{total.calls} model calls"),
            (
                "tokens in / out",
                f"{total.input_tokens} / {total.output_tokens}",
                f"{total.cached_tokens} cached",
            ),
            (
                "unique_failures",
                str(report.unique_failures),
                f"from {report.failures.failures} failures",
            ),
            (
                "named causes",
                str(len(report.failures.causes)),
                f"{len(report.failures.explained_by)} symptoms explained by one",
            ),
            ("success_rate", _maybe(report.success_rate), "linear rollouts"),
        ]
    )
    if len(report.success.by_mode) > 1:
        rows.extend(
            (f"success_rate ({mode})", _maybe(m.success_rate), f"{m.judged} judged")
            for mode, m in report.success.by_mode.items()
        )
    rows.extend((f"pass^{k}", f"{v:.3f}", "") for k, v in report.pass_hat_k.items())
    rows.extend(_latency_rows(report.cost))
    rows.extend(_efficiency_rows(report.efficiency))
    return rows


def _latency_rows(cost: CostReport) -> list[tuple[str, str, str]]:
    def seconds(d: Distribution) -> str:
        return f"{d.p50:.2f} / {d.p95:.2f}"

    rows = [
        (
            f"latency {role} (s)",
            seconds(d),
            f"p50 / p95 of {cost.by_role[role].calls - cost.by_role[role].cache_hits} calls",
        )
        for role, d in cost.latency_s.items()
    ]
    if cost.reply_latency_s is not None:
        rows.append(
            (
                "agent reply time (s)",
                seconds(cost.reply_latency_s),
                "p50 / p95 per turn, tools included",
            )
        )
    return rows


def _operations(value: Efficiency) -> str:
    """`; by operation: hesitate 2 (1 new), ...`: what each operation's branches found."""
    if not value.by_operation:
        return ""
    parts = [
        f"{op} {y.unique_failures} ({y.new_causes} new)" for op, y in value.by_operation.items()
    ]
    return "; by operation: " + ", ".join(parts)


def _efficiency_rows(value: Efficiency) -> list[tuple[str, str, str]]:
    if value.agent_tokens_source == "none" and not value.branches:
        return []
    per_100k = value.err_per_100k_agent_tokens
    unique = value.unique_failures_per_100k_agent_tokens
    rows = [
        (
            "unique failures / 100K agent tokens",
            "n/a" if unique is None else f"{unique:.2f}",
            f"{value.unique_failures} distinct failures; {value.new_causes} causes only "
            f"branches found{_operations(value)}",
        ),
        (
            "errors / 100K agent tokens",
            "n/a" if per_100k is None else f"{per_100k:.2f}",
            f"{value.failed_episodes} failed in {value.task_failure_count} scenarios; "
            f"{value.agent_tokens} tokens, {value.agent_tokens_source}",
        ),
    ]
    if value.token_savings is not None:
        rows.append(
            (
                "token savings",
                f"{value.token_savings:.1%}",
                f"vs {value.linear_equivalent_tokens} tokens linear; shared prefix "
                f"{_percent(value.shared_prefix_fraction)} "
                f"({_percent(value.shared_prefix_fraction_without_head)} without head)",
            )
        )
    if value.branches:
        statuses = ", ".join(f"{n} {status}" for status, n in value.branch_status.items())
        each = value.overhead_tokens_per_branch
        rows.append(
            (
                "branches",
                str(value.branches),
                f"{statuses}; overhead {'n/a' if each is None else f'{each:.0f}'} tokens each, "
                f"{_percent(value.overhead_share)} of tokens",
            )
        )
    return rows


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _realism_rows(value: RealismReport | RealismNotComputed) -> list[tuple[str, str, str]]:
    if isinstance(value, RealismNotComputed):
        return [("realism", "not computed", value.reason)]
    if value.overall is None:
        return [("realism", "no valid verdict", f"{len(value.errors)} judge errors")]
    rows = [
        (f"realism {name}", f"{stats.mean:.2f}", f"{stats.share_of_3:.0%} scored 3")
        for name, stats in value.overall.rubrics.items()
    ]
    if len(value.by_mode) > 1:
        rows.extend(
            (
                f"realism ({mode})",
                " / ".join(f"{group.rubrics[n].mean:.2f}" for n in RUBRICS),
                f"{group.episodes} episodes; human-likeness / coherence / goal",
            )
            for mode, group in value.by_mode.items()
        )
    if value.errors:
        rows.append(("realism judge errors", str(len(value.errors)), "episodes left unscored"))
    return rows


def _maybe(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
