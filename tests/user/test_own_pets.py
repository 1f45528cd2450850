"""The user's own pet, named by the agent or by the user."""

from vistasim.user import AgendaPolicy, Finish
from vistasim.user._reading import refusal

from ._driver import converse, make_scenario, scripted

_BOOSTER = make_scenario(
    id="vet-book-booster-friday",
    goal="Book my dog Bella in for her annual booster this Friday at half past ten. "
    "I don't have my client number to hand.",
    knowledge={"phone": "07700 900926", "pet_name": "Bella", "date": "this Friday"},
    hidden={},
    agenda=[],
)
_BOOKED = ("Done — Bella is booked in for a vaccination with Dr Priya Shah on Friday 13 November "
           "at 10:30am (appointment A-7101). Is there anything else I can help with?")  # fmt: skip


def test_a_pet_booked_in_is_a_booking_made_not_a_slot_taken():
    # Vet desk (written blind): the user stopped on "the agent refused: Done — Bella is booked
    # in ...", a slot taken by someone else.
    assert refusal(_BOOKED) is None
    assert refusal("Sorry, 10:30 is already booked. 11:00 is free.") is not None


async def test_after_a_pet_is_booked_in_the_user_is_done():
    offer = "I can book Bella in on Friday 13 November at 10:30am. Shall I book that?"
    ep = await converse(AgendaPolicy(), _BOOSTER, scripted(offer, _BOOKED))
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.actions


async def test_a_pets_name_is_not_said_as_the_users_own_name():
    # "And what's the name of one of your pets?" got "My name is Bella".
    asks = "No problem — could you give me the name of one of your pets?"
    for seed in range(4):
        ep = await converse(AgendaPolicy(), _BOOSTER, scripted(asks, "Thanks."), seed=seed)
        said = ep.said[1].lower()
        own = said.replace("pet's name: bella", "")  # the pet's name labelled as the pet's
        assert "bella" in said and "my name is" not in said and "name: bella" not in own, said


_KITTEN = make_scenario(
    id="vet-register-kitten-and-vaccinate",
    goal="Register our new kitten Mochi and book her first vaccination on Tuesday the 17th, "
    "in the morning.",
    knowledge={"phone": "07700 900926", "pet_name": "Bella", "new_pet_name": "Mochi",
               "species": "cat"},
    hidden={},
    agenda=[],
)  # fmt: skip


async def test_a_proposal_for_another_of_the_users_pets_is_objected_to():
    # "Done — Mochi is registered. I can book Bella in for a vaccination ... Shall I book that?"
    # got "Yep, go ahead" (vet, flawed agent, every seed): Bella only proved who the owner is.
    offer = ("Done — Mochi is registered on your account (pet number P116). I can book Bella in "
             "for a vaccination on Tuesday 17 November at 9:30am. Shall I book that?")  # fmt: skip
    ep = await converse(AgendaPolicy(), _KITTEN, scripted(offer, "Booked."))
    said = ep.said[1]
    assert "Mochi" in said and "Bella" in said and not said.lower().startswith("yep"), ep.said
    right = offer.replace("book Bella in", "book Mochi in")
    ep = await converse(AgendaPolicy(), _KITTEN, scripted(right, "Booked."))
    assert "Bella" not in ep.said[1], ep.said
