"""Metrics of a stored run: coverage, realism, cost, failures found, task success, efficiency.

Everything here reads a `RunView` only, so metrics can be recomputed from the store at any time.
`compute_metrics` gives them all in one `MetricsReport`; the functions below compute one each.
"""

from vistasim.metrics._behaviour import BehaviourSpec, detect_behaviour
from vistasim.metrics._catalogue import FailureCatalogue, catalogue_failures, default_embedder
from vistasim.metrics._claims import CLAIM_DETECTORS, detect_claims, is_write_tool
from vistasim.metrics._compare import (
    Comparison,
    FailureChange,
    FailureStatus,
    MetricDelta,
    ScenarioChange,
    compare_reports,
    compare_runs,
)
from vistasim.metrics._compute import metrics_for_run
from vistasim.metrics._cost import CostReport, Distribution, RoleCost, cost, distribution
from vistasim.metrics._coverage import (
    CoverageReport,
    coverage,
    levenshtein,
    tool_distr_entropy,
    traj_dist,
    transition_entropy,
)
from vistasim.metrics._dedup import UniqueFailure, cluster_failures, merge_with_judge
from vistasim.metrics._disclosure import DisclosureRule, detect_disclosure
from vistasim.metrics._domain_rules import (
    DomainRules,
    load_domain_rules,
    rules_for_run,
    rules_of_environment,
)
from vistasim.metrics._efficiency import Efficiency, efficiency
from vistasim.metrics._failures import (
    Failure,
    PolicyRule,
    ResultValue,
    detect_failures,
    judge_failures,
)
from vistasim.metrics._gates import (
    Gate,
    GateResult,
    check_gates,
    gate_problem,
    parse_gate,
    parse_gate_flag,
)
from vistasim.metrics._judge import JudgeError
from vistasim.metrics._keys import METRIC_KEYS, MetricValue, metric_key_problem, metric_values
from vistasim.metrics._limits import LIMIT_DETECTORS, detect_limits
from vistasim.metrics._mentions import EntityKind
from vistasim.metrics._outcome import CAUSE_KINDS, LOST_USER, OUTCOMES, Outcome, Verdict
from vistasim.metrics._policy_judge import POLICY_TEXT_KEY, judge_policy, policy_text
from vistasim.metrics._quotes import QUOTE_DETECTORS, detect_quotes
from vistasim.metrics._realism import (
    EpisodeRealism,
    RealismNotComputed,
    RealismReport,
    realism,
)
from vistasim.metrics._report import (
    METRICS_VERSION,
    MetricsReport,
    compute_metrics,
    format_metrics,
)
from vistasim.metrics._success import SuccessReport, episode_outcome, pass_hat_k, success
from vistasim.metrics._validity import USER_CHECKS, UserFinding, check_user
from vistasim.metrics._verdicts import RunFindings, find_all

__all__ = [
    "CAUSE_KINDS",
    "CLAIM_DETECTORS",
    "LIMIT_DETECTORS",
    "LOST_USER",
    "METRICS_VERSION",
    "METRIC_KEYS",
    "OUTCOMES",
    "POLICY_TEXT_KEY",
    "QUOTE_DETECTORS",
    "USER_CHECKS",
    "BehaviourSpec",
    "Comparison",
    "CostReport",
    "CoverageReport",
    "DisclosureRule",
    "Distribution",
    "DomainRules",
    "Efficiency",
    "EntityKind",
    "EpisodeRealism",
    "Failure",
    "FailureCatalogue",
    "FailureChange",
    "FailureStatus",
    "Gate",
    "GateResult",
    "JudgeError",
    "MetricDelta",
    "MetricValue",
    "MetricsReport",
    "Outcome",
    "PolicyRule",
    "RealismNotComputed",
    "RealismReport",
    "ResultValue",
    "RoleCost",
    "RunFindings",
    "ScenarioChange",
    "SuccessReport",
    "UniqueFailure",
    "UserFinding",
    "Verdict",
    "catalogue_failures",
    "check_gates",
    "check_user",
    "cluster_failures",
    "compare_reports",
    "compare_runs",
    "compute_metrics",
    "cost",
    "coverage",
    "default_embedder",
    "detect_behaviour",
    "detect_claims",
    "detect_disclosure",
    "detect_failures",
    "detect_limits",
    "detect_quotes",
    "distribution",
    "efficiency",
    "episode_outcome",
    "find_all",
    "format_metrics",
    "gate_problem",
    "is_write_tool",
    "judge_failures",
    "judge_policy",
    "levenshtein",
    "load_domain_rules",
    "merge_with_judge",
    "metric_key_problem",
    "metric_values",
    "metrics_for_run",
    "parse_gate",
    "parse_gate_flag",
    "pass_hat_k",
    "policy_text",
    "realism",
    "rules_for_run",
    "rules_of_environment",
    "success",
    "tool_distr_entropy",
    "traj_dist",
    "transition_entropy",
]
