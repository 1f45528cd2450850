"""Our tau2 reward equals tau2's own evaluator's, task by task, on gold and mutated calls.

The default run grades every task of mock, airline and retail and a spread sample of telecom,
with airline's and retail's databases shared copy-on-write and hashed from cached pieces
(`fastdb.fast_tau2`; test_fastdb.py proves it gives tau2's states and hashes): tau2's own loading
rebuilds and hashes the database several times per grading, and every task of every domain that
way took about 16 min on the 2 shared cores here. test_agreement_full.py, marked `tau2_full`
(`pytest -m tau2_full tests/tau2`, deselected by default), grades every task of every domain
with tau2's own loading and hashing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed (see README)")

from tests.tau2.agreement import check_task  # noqa: E402
from tests.tau2.fastdb import fast_tau2  # noqa: E402
from vistasim.tau2 import tasks  # noqa: E402

TELECOM_SAMPLE = 6


def _cases() -> list[tuple[str, str]]:
    every = [(d, t) for d in ("mock", "airline", "retail") for t in sorted(tasks(d))]
    telecom = sorted(tasks("telecom"))
    step = max(1, len(telecom) // TELECOM_SAMPLE)
    return every + [("telecom", t) for t in telecom[::step][:TELECOM_SAMPLE]]


@pytest.fixture(scope="module")
def shared_databases() -> Iterator[None]:
    with fast_tau2():
        yield


@pytest.mark.parametrize(("domain", "task_id"), _cases())
def test_reward_agrees_with_tau2(shared_databases: None, domain: str, task_id: str) -> None:
    check_task(domain, task_id)
