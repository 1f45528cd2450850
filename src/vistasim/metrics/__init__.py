"""Metrics of a stored run: coverage, realism, cost, failures found, and task success.

Everything here reads a `RunView` only, so metrics can be recomputed from the store at any time.
`compute_metrics` gives them all in one `MetricsReport`; the functions below compute one each.
"""

from vistasim.metrics._behaviour import BehaviourSpec, detect_behaviour
from vistasim.metrics._catalogue import FailureCatalogue, catalogue_failures, default_embedder
from vistasim.metrics._compute import metrics_for_run
from vistasim.metrics._cost import CostReport, Distribution, RoleCost, cost
from vistasim.metrics._coverage import (
    CoverageReport,
    coverage,
    levenshtein,
    tool_distr_entropy,
    traj_dist,
    transition_entropy,
)
from vistasim.metrics._dedup import UniqueFailure, cluster_failures, merge_with_judge
from vistasim.metrics._domain_rules import DomainRules, load_domain_rules, rules_for_run
from vistasim.metrics._failures import (
    Failure,
    PolicyRule,
    ResultValue,
    detect_failures,
    judge_failures,
)
from vistasim.metrics._judge import JudgeError
from vistasim.metrics._mentions import EntityKind
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

__all__ = [
    "METRICS_VERSION",
    "BehaviourSpec",
    "CostReport",
    "CoverageReport",
    "Distribution",
    "DomainRules",
    "EntityKind",
    "EpisodeRealism",
    "Failure",
    "FailureCatalogue",
    "JudgeError",
    "MetricsReport",
    "PolicyRule",
    "RealismNotComputed",
    "RealismReport",
    "ResultValue",
    "RoleCost",
    "SuccessReport",
    "UniqueFailure",
    "catalogue_failures",
    "cluster_failures",
    "compute_metrics",
    "cost",
    "coverage",
    "default_embedder",
    "detect_behaviour",
    "detect_failures",
    "episode_outcome",
    "format_metrics",
    "judge_failures",
    "levenshtein",
    "load_domain_rules",
    "merge_with_judge",
    "metrics_for_run",
    "pass_hat_k",
    "realism",
    "rules_for_run",
    "success",
    "tool_distr_entropy",
    "traj_dist",
    "transition_entropy",
]
