"""The Harbourline desk bot as its developers meant it: a deterministic rule-based agent.

It verifies the guest (booking reference and last name, or email and date of birth) before it
discloses or changes anything, quotes the price or fee from the tools and asks for a yes before
every change, reports what the tools returned (refusals and errors included), never looks up a
booking that is not the guest's, and works through every request in a message, in order.
"""

from __future__ import annotations

from benchmarks.domains.hotel._tasks_contact import ContactTasks
from benchmarks.domains.hotel._tasks_extras import ExtraTasks
from benchmarks.domains.hotel._tasks_room import RoomTasks
from benchmarks.domains.hotel._tasks_stay import StayTasks


class CorrectHotelAgent(StayTasks, RoomTasks, ExtraTasks, ContactTasks):
    """Harbourline Hotels' reservations desk bot (one instance per conversation).

    `env` is the conversation's environment (vistasim passes it); without one a fresh
    `HotelEnvironment` is made, which is handy in tests.
    """
