"""Every task of every tau2 domain graded by both, with tau2's own loading and hashing.

Marked `tau2_full` (about 16 min on 2 shared cores): `pytest -m tau2_full tests/tau2`. The
default run (test_agreement.py) grades every airline, retail and mock task through shared
databases; this one builds every database the way tau2 does.
"""

from __future__ import annotations

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed (see README)")

from tests.tau2.agreement import check_task  # noqa: E402
from vistasim.tau2 import DOMAINS, tasks  # noqa: E402


@pytest.mark.tau2_full
@pytest.mark.parametrize(("domain", "task_id"), [(d, t) for d in DOMAINS for t in sorted(tasks(d))])
def test_reward_agrees_with_tau2_on_every_task(domain: str, task_id: str) -> None:
    check_task(domain, task_id)
