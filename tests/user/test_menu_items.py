"""A list of services with brackets and no comma before its last "and"."""

from vistasim.user import AgendaPolicy

from ._driver import converse, make_scenario, scripted

MENU = ("Sorry, I didn't quite follow. I can help with your rentals (due times, costs, "
        "extensions, returns), reservations, damage reports, refunds and station availability. "
        "What would you like to do?")  # fmt: skip


async def test_the_user_picks_only_its_own_item_of_a_list_joined_by_and():
    # Bikes, every seed of the fifth session: "I'd like help with refunds and station
    # availability", and the agent started on a refund.
    availability = make_scenario(
        goal="Find out whether there are e-bikes free at Central Station right now.",
        knowledge={}, hidden={}, agenda=[],
    )  # fmt: skip
    ep = await converse(AgendaPolicy(), availability, scripted(MENU, "4 e-bikes are free."))
    assert "station availability" in ep.said[1] and "refund" not in ep.said[1], ep.said


async def test_an_item_with_commas_in_brackets_stays_one_item():
    due = make_scenario(
        goal="Find out when rental R204 is due back.",
        knowledge={"rental_id": "R204"}, hidden={}, agenda=[],
    )  # fmt: skip
    ep = await converse(AgendaPolicy(), due, scripted(MENU, "R204 is due at 18:00."))
    assert "rentals (due times, costs, extensions, returns)" in ep.said[1], ep.said
