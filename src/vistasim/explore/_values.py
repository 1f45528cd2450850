"""What the environment tells the user's operations: the values it holds, and the day it is.

A value said wrongly or asked for first must be a real other value where one exists (another
order of the shop, another train of the timetable), and never a day already past. The tables
read are those the scenario's criteria name: the ones that matter to it, in any environment.
"""

from __future__ import annotations

import logging
import re
from datetime import date
from typing import TYPE_CHECKING

from vistasim.dates import environment_now, today_of
from vistasim.env import Environment
from vistasim.explore._watch import WatchedEnvironment
from vistasim.scenario import Scenario

if TYPE_CHECKING:
    from vistasim.user import ValuePool

__all__ = ["today_for", "value_pool"]

logger = logging.getLogger(__name__)

_RECORD_SLOT = re.compile(r"_id$")


def value_pool(env: Environment | None, scenario: Scenario) -> ValuePool:
    """The values of the tables the scenario's criteria name, as the environment holds them now.

    A slot that names a record (`rental_id`) also reads its table (`rentals`) when the
    environment has one: a question about a rental names no table in its criteria, yet the
    other rental a user could mean is a real one of the environment, not a made-up number.
    """
    from vistasim.user import ValuePool  # the agenda user's operations: perturbed runs only

    if env is None:
        return ValuePool()
    tables = dict.fromkeys(c.table for c in scenario.criteria.state)
    for item in scenario.agenda:
        for slot in item.slots:
            stem = _RECORD_SLOT.sub("", slot)
            if stem != slot and stem:
                tables.setdefault(f"{stem}s", None)
    rows = {}
    for table in tables:
        try:
            rows[table] = env.select(table, {})
        except Exception:  # a table the environment cannot list: no values from it
            logger.debug("no values from table %r", table, exc_info=True)
    return ValuePool.from_rows(rows)


def today_for(env: Environment | None, scenario: Scenario) -> date | None:
    """The environment's day (its `now()`), else the scenario's `today` fact, else unknown."""
    inner = env.inner if isinstance(env, WatchedEnvironment) else env
    now = environment_now(inner) if inner is not None else None
    return today_of(now, None, {**scenario.hidden, **scenario.knowledge})
