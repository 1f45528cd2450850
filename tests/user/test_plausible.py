"""Only plausible other values: same type and unit, real where the environment has some, no past
dates, no near-duplicates; DIVERT candidates and `--perturb` draws get no other kind."""

from __future__ import annotations

from datetime import date

import pytest

from vistasim.divert import AgendaCandidates, CandidateContext
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy, UserView, ValuePool, implausible, other_value

TODAY = date(2026, 3, 16)
POOL = ValuePool(
    {
        "trains.departs": ("09:30", "09:31", "09:45", "10:15"),
        "trains.day": ("2026-03-01", "2026-03-10", "2026-03-20", "2026-03-25"),
        "fares.price": ("$50.00", "£45.00", "£46.00", "£60.00"),
        "orders.id": ("12:00", "W1007", "W1008"),
    }
)


@pytest.mark.parametrize(
    ("slot", "value", "expected"),
    [
        ("departure_time", "09:30", "10:15"),  # 09:31 and 09:45 mean the same train
        ("travel_date", "2026-03-20", "2026-03-25"),  # the 1st and the 10th are past
        ("price", "£45.00", "£60.00"),  # $50.00 is another unit, £46.00 the same amount
        ("order_id", "W1007", "W1008"),  # 12:00 sits in the column but is no order id
    ],
)
def test_another_value_is_a_real_plausible_one_from_the_environment(slot, value, expected):
    assert other_value(slot, value, pool=POOL, today=TODAY) == expected


@pytest.mark.parametrize(
    ("original", "other", "why"),
    [
        ("09:30", "09:31", "near-duplicate"),
        ("2026-03-20", "2026-03-10", "in the past"),
        ("£45.00", "$50.00", "unit"),
        ("£45.00", "£46.00", "near-duplicate"),
        ("W1007", "12:00", "same kind"),
        (3, "three", "same kind"),
    ],
)
def test_implausible_alternatives_are_refused_with_why(original, other, why):
    assert why in (implausible(original, other, TODAY) or "")


def test_without_a_real_value_a_made_up_one_is_still_plausible():
    made = other_value("travel_date", "2026-03-10", today=TODAY)
    assert made == "2026-03-17" and implausible("2026-03-10", made, TODAY) is None
    assert other_value("departure_time", "09:30") == "10:30"
    assert other_value("email", "ann@example.com", pool=POOL) is None  # identity: never changed


async def test_divert_candidates_say_only_plausible_values_drawn_from_the_environment():
    slots = {"departure_time": "09:30", "travel_date": "2026-03-20", "price": "£45.00"}
    scenario = Scenario(
        id="s", persona=Persona(name="Ann"), goal="Book the 09:30 train on 2026-03-20.",
        agenda=[AgendaItem(intent="book_train", slots=slots)],
    )  # fmt: skip
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=3)
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    original, _ = await policy.next_action(view, state)
    ctx = CandidateContext(
        persona="", goal=scenario.goal, original="", view=view, user_state=state,
        original_action={"kind": "say", "text": getattr(original, "text", "")},
        values=POOL, today=TODAY,
    )  # fmt: skip
    found, _ = await AgendaCandidates(policy).generate(ctx, 20)
    said = {}
    for candidate in found:
        op = candidate.source.split(":")[0]
        if op not in ("correct", "change_mind"):
            continue
        [behaviour] = [b for b in candidate.user_state["stack"][0]["behaviours"] if b["op"] == op]
        other = behaviour["wrong"] if op == "correct" else behaviour["first"]
        slot = behaviour["slot"]
        assert implausible(slots[slot], other, TODAY) is None, (candidate.source, other)
        said[candidate.source] = other
    # Every value slot got a value operation, each with a real value from the environment (a
    # candidate whose words repeat another's is left out, so not every operation shows).
    expected = {"departure_time": "10:15", "travel_date": "2026-03-25", "price": "£60.00"}
    assert {source.split(":")[1] for source in said} == set(expected)
    assert all(other == expected[source.split(":")[1]] for source, other in said.items())


@pytest.mark.parametrize(
    ("said", "other"),
    [("22 December", "23 December"), ("Friday 12 June", "13 June"),
     ("June 30th", "June 29th"), ("12th of June 2026", "13th of June 2026")],
)  # fmt: skip
def test_a_date_in_words_gets_another_day_not_an_amount_of_december(said, other):
    # "22 December" read as an amount in a unit of December became "27.50 December" (a
    # carhire change_mind branch asked to pick up on it).
    assert other_value("pickup_date", said) == other
    assert implausible(said, "27.50 December") is not None


def test_a_whole_number_without_a_currency_gets_a_whole_number():
    # A meter reading of 31877 was changed to "39846.25" and the agent could not read it.
    assert other_value("reading", "31877") == "39846"
    assert implausible("31877", "39846.25") is not None
    assert other_value("amount", "£50") == "£62.50"  # money keeps its pence
    assert implausible("£50", "£62.50") is None


@pytest.mark.parametrize("slot", ["registration", "vehicle_registration", "reg", "number_plate"])
def test_a_vehicle_that_proves_who_the_user_is_gets_no_other_value(slot):
    # Found on a valeting desk written blind: a branch's change of mind gave the user another
    # customer's registration (a real one, from the environment) for its own car, verification
    # failed on every try, and the correct refusal was judged a failure of the goal.
    pool = ValuePool({"vehicles.registration": ("EA67 NMB", "GJ20 KLM", "ZA70 QWE")})
    assert other_value(slot, "EA67 NMB", pool=pool) is None
