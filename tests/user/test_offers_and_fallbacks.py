"""The agenda user on a parking desk: an offer is no report, a refusal may give its reason first,
and a fallback that asks is answered by the refusal itself."""

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

VERIFY = "Could you give me your permit number, plus the postcode and surname on the account?"


def parking(goal: str) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "parking-desk",
            "persona": {"name": "Grace Okafor", "profile": "34",
                        "style": {"verbosity": "medium", "patience": 3}},
            "goal": goal,
            "knowledge": {"permit_number": "RP-5101", "postcode": "WB3 7QT",
                          "surname": "Okafor", "books": 2},
        }
    )  # fmt: skip


async def test_an_offer_within_the_fallback_is_taken_not_read_as_done():
    scenario = parking(
        "I need two books of visitor passes. If I can't have two, I'll take as many as I'm allowed."
    )
    offer = ("Your household has 10 passes left this year, so I can't sell 2 books (20 passes). "
             "I can sell you 1 book (10 passes) for £25.00, charged to your card ending 4412. "
             "Would you like that?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(VERIFY, offer, "Done: 1 book bought."))
    assert ep.said[2].lower().startswith("yes"), ep.said  # not "the books is 2", not goodbye
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_a_refusal_that_gives_its_reason_first_answers_a_fallback_that_asks_when():
    scenario = parking(
        "I want to renew my resident permit now. If it's too early, just tell me when I can."
    )
    refused = ("Renewal only opens 30 days before the end date, on Friday 1 January 2027. I can't "
               "renew it yet; you're welcome to come back from that date.")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(VERIFY, refused))
    assert len(ep.said) == 2  # it asks nothing again
    assert isinstance(ep.last, Finish) and ep.last.reason == "refused"  # accepted, as it allows
