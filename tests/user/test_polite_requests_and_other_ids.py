"""A polite question that asks for a service, and another record's id beside the user's own."""

from datetime import UTC, datetime

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UTC)
GROOM = Scenario.model_validate(
    {"id": "groom", "persona": {"name": "Ben Ortiz", "style": {"patience": 4}},
     "goal": "Could Poppy have a groom on the day I collect her?",
     "knowledge": {"account_id": "HB4013", "pet_name": "Poppy"}}
)  # fmt: skip
PROPOSAL = ("Thank you, Ben — I've found your account. To add a groom on the departure day for "
            "Poppy on Poppy's stay HS5013 (Saturday 9 January to Monday 11 January): £30.00, "
            "paid on collection. Shall I add it?")  # fmt: skip


async def test_a_polite_question_for_a_service_is_a_request_it_says_yes_to():
    # Found on a kennels desk written blind: "Could Poppy have a groom on the day I collect
    # her?" was read as a question, so the proposal "answered" it and the user left without
    # a yes; and the stay's id HS5013 was objected to as a wrong account number ("No, not
    # HS5013 — it's account number HB4013"): same shape, another letter prefix, another record.
    ep = await converse(AgendaPolicy(), GROOM, scripted(PROPOSAL, "Done — groom added."), now=NOW)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_an_id_of_the_users_own_kind_is_still_objected_to():
    wrong = PROPOSAL.replace("Poppy's stay HS5013", "account HB4031's stay HS5013")
    ep = await converse(AgendaPolicy(), GROOM, scripted(wrong, "Okay."), now=NOW)
    assert ep.said[1].lower().startswith("no") and "HB4013" in ep.said[1], ep.said


async def test_the_name_of_one_of_your_pets_is_asked_for_the_pet_name():
    contact = Scenario.model_validate(
        {"id": "contact", "persona": {"name": "Ann Lee", "style": {"patience": 4}},
         "goal": "Update my emergency contact's number — my brother's new mobile is 07700 "
                 "900456.",
         "knowledge": {"account_id": "HB4018", "pet_name": "Hazel", "phone": "07700 900456"}}
    )  # fmt: skip
    ep = await converse(AgendaPolicy(), contact,
                        scripted("What's your account number?",
                                 "Thank you. And the name of one of your pets?", "Okay."),
                        now=NOW)  # fmt: skip
    assert "Hazel" in ep.said[2], ep.said
