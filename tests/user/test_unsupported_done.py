"""A report of the request done "earlier in this chat" when nothing in the chat did it."""

from vistasim.user import AgendaPolicy, Finish
from vistasim.user._reading import refusal

from ._driver import converse, make_scenario, scripted

_TV = make_scenario(
    id="ins-claim-tv",
    goal="Claim for my TV: I knocked it off the stand on Sunday and cracked the screen.",
    knowledge={"policy_number": "HH-105233", "postcode": "HU1 2PB"},
    hidden={},
    agenda=[],
)
_VERIFY = "First, to check it's you, could you give me your policy number and postcode?"
_NO_CLAIMS = ("Thank you, Aaron, that's policy HH-105233 confirmed. There are no open claims "
              "on your policy. Is there anything else I can help with?")  # fmt: skip
_EARLIER = "That's already been done earlier in this chat. Is there anything else I can help with?"


async def test_a_claim_of_done_earlier_in_the_chat_that_nothing_in_it_shows_is_disputed():
    # Insurance desk (written blind), every seed of the fifth session: the user said "Awesome,
    # thanks!" to it, and the episode stopped as if the goal were met.
    ep = await converse(AgendaPolicy(), _TV, scripted(_VERIFY, _NO_CLAIMS, _EARLIER, "Filed."))
    disputed = ep.said[3].lower()
    assert not isinstance(ep.actions[3], Finish), ep.said
    assert "tv" in disputed and any(w in disputed for w in ("hasn't", "has not", "haven't")), (
        ep.said
    )


async def test_a_disputed_claim_repeated_costs_patience_until_the_user_gives_up():
    ep = await converse(AgendaPolicy(), _TV, scripted(_VERIFY, _NO_CLAIMS, _EARLIER))
    assert isinstance(ep.last, Finish) and ep.last.reason != "goal_met", ep.actions


async def test_done_earlier_in_the_chat_is_accepted_when_the_chat_showed_it():
    filed = "I've filed claim CL-7781 for the TV. Anything else?"
    ep = await converse(AgendaPolicy(), _TV, scripted(_VERIFY, filed, _EARLIER))
    assert isinstance(ep.actions[2], Finish) or "tv" not in ep.said[2].lower(), ep.said


async def test_done_earlier_in_the_chat_is_accepted_after_a_refusal_it_may_mean():
    # "I can't find a claim CL-55019 on your policy, so I can't give details of it", then
    # "That's already been done earlier in this chat": something was answered there.
    refused = "I can't find a claim CL-55019 on your policy, so I can't give details of it."
    ep = await converse(AgendaPolicy(), _TV, scripted(_VERIFY, refused, _EARLIER))
    assert all("hasn't been done" not in s and "haven't done" not in s for s in ep.said), ep.said


async def test_i_havent_done_it_with_a_reason_is_a_refusal():
    # "I don't have that on hand" was the user's reply to it (insurance, correct agent).
    refused = ("I haven't opened a new claim: claim CL-55012 for escape of water is already "
               "open on this policy. Please tell your claims handler about the new damage. "
               "Is there anything else I can help with?")  # fmt: skip
    assert refusal(refused) is not None
    assert refusal("I haven't found your account: could you check the email?") is None
    ep = await converse(AgendaPolicy(), _TV, scripted(_VERIFY, refused))
    assert isinstance(ep.actions[2], Finish) and "refused" in ep.actions[2].text, ep.actions
