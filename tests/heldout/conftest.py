"""Fixtures: a fresh shop or school environment with its held-out agent."""

from __future__ import annotations

import pytest
from benchmarks.heldout.school_agent import HeldoutSchoolAgent
from benchmarks.heldout.shop_agent import HeldoutShopAgent

from tests.heldout.helpers import Conversation
from vistasim.domains import get_domain


@pytest.fixture
def shop() -> Conversation:
    env = get_domain("shop").make_environment()
    return Conversation(agent=HeldoutShopAgent(env=env), env=env)


@pytest.fixture
def school() -> Conversation:
    env = get_domain("school").make_environment()
    return Conversation(agent=HeldoutSchoolAgent(env=env), env=env)
