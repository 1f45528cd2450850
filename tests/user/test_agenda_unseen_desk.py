"""The agenda user on a phone desk's phrasing it was not written for: "mobile number" for its
`phone_number`, "a date of birth isn't enough" ruling a fact out, a list of services after a
misunderstanding, and a goal that allows its request only if it is free."""

from vistasim.llm import ToolSpec
from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

VERIFY = (
    "First I need to verify you: what's the mobile number on the account, and your 4-digit "
    "account PIN?"
)

VERIFY_TOOL = ToolSpec(
    name="verify_account",
    description="Verify the account holder.",
    parameters={"type": "object", "properties": {"phone_number": {"type": "string"},
                                                 "account_pin": {"type": "string"}}},
)


def phone_desk(goal: str, **knowledge: str) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "phone-desk",
            "persona": {
                "name": "Hannah Lewis",
                "profile": "27, doctor, short messages",
                "style": {"verbosity": "low", "patience": 3, "formality": "casual"},
            },
            "goal": goal,
            "knowledge": knowledge,
        }
    )


async def test_a_phone_number_is_given_when_the_mobile_number_is_asked_for():
    scenario = phone_desk(
        "Add a roaming pass for my trip.", phone_number="07700 900246", account_pin="7715"
    )
    ep = await converse(AgendaPolicy(), scenario, scripted(VERIFY), max_turns=2)
    assert "07700 900246" in ep.said[1] and "7715" in ep.said[1]


async def test_a_fact_the_agent_rules_out_is_not_offered_and_the_missing_one_is_owned_up_to():
    scenario = phone_desk(
        "Get a replacement SIM sent to me.", phone_number="07700 900789",
        date_of_birth="1992-07-21",
    )
    ask = ("For a replacement SIM I need your 4-digit account PIN (a date of birth isn't enough "
           "for SIM changes). What's your PIN?")
    ep = await converse(
        AgendaPolicy(), scenario, scripted(ask), agent_tools=(VERIFY_TOOL,), max_turns=2
    )
    assert "1992" not in ep.said[1] and "21/07" not in ep.said[1]
    assert "don't have" in ep.said[1]


async def test_after_a_misunderstanding_the_user_names_the_listed_service_that_is_its_request():
    scenario = phone_desk(
        "I'm moving to another network and keeping my number. Get me the code I need.",
        phone_number="07700 900888",
    )
    menu = ("Sorry, I'm not sure what you need. I can help with your bill, changing plan, "
            "PAC codes for switching network, and replacement SIMs. What would you like to do?")
    ep = await converse(AgendaPolicy(), scenario, scripted(menu), max_turns=2)
    assert ep.said[1].startswith("I'd like help with PAC codes for switching network.")


async def test_a_request_allowed_only_if_free_is_declined_at_a_fee_and_that_meets_the_goal():
    scenario = phone_desk(
        "Tell me whether cancelling my line costs anything. Only cancel it if there is no fee.",
        phone_number="07700 900456", account_pin="5521",
    )
    offer = ("Cancelling now means an early termination fee of £270.00. Do you want me to "
             "cancel the line and accept that fee?")
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=3)
    assert not any(s.lower().startswith("yes") for s in ep.said)
    assert "270.00" in ep.said[1] or "nothing" in ep.said[1]
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_the_same_request_is_accepted_when_it_costs_nothing():
    scenario = phone_desk(
        "Only cancel my line if there is no fee.", phone_number="07700 900456",
        account_pin="5521",
    )
    offer = "Your contract has ended, so there's no fee. Shall I cancel the line?"
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))
