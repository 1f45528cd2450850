"""The agenda user when a question comes back: the bare value, not the same words again.

Found on an escape-room desk written blind: a chatty user's "Absolutely. The full name is Laura
Bishop. Anything else you need from me?" was not read as a name, and each time the desk asked
again the user wrapped the name in the same pleasantries, until the chat ran out.
"""

from vistasim.llm import ToolSpec
from vistasim.scenario import Behaviour, Scenario
from vistasim.user import AgendaPolicy
from vistasim.user._agenda_ops import Operation, apply_operation

from ._driver import converse, scripted

NAME = "What's the lead booker's full name?"
AGES = ("Will anyone in the team be under 16? If so, how many — and will an adult (18 or over) "
        "be playing with them?")  # fmt: skip


ORDER = ToolSpec(
    name="place_order",
    description="Place a flower order with its card message.",
    parameters={"type": "object", "properties": {"card_message": {"type": "string"}}},
)


def chatty(goal: str, **knowledge: object) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "escape-desk",
            "persona": {
                "name": "Laura Bishop",
                "profile": "41, chatty",
                "style": {"verbosity": "high", "patience": 4, "formality": "neutral"},
            },
            "goal": goal,
            "knowledge": knowledge,
        }
    )


async def test_a_question_asked_again_after_its_answer_gets_the_bare_value():
    scenario = chatty("Book The Lab for four of us on Sunday 3 January at 11am.",
                      full_name="Laura Bishop", email="laura.bishop@example.com")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(NAME, NAME, NAME), max_turns=4)
    assert "full name is Laura Bishop" in ep.said[0]  # said with its words once, unasked
    assert ep.said[1:] == ["Laura Bishop", "Laura Bishop", "Laura Bishop"]  # no "Again, ..."


async def test_a_new_question_still_gets_the_personas_words():
    scenario = chatty("Book The Lab for four of us on Sunday 3 January at 11am.",
                      full_name="Laura Bishop", email="laura.bishop@example.com")  # fmt: skip
    email = "Thanks. And the lead booker's email address?"
    ep = await converse(AgendaPolicy(), scenario, scripted(NAME, email), max_turns=3)
    assert "laura.bishop@example.com" in ep.said[2]
    assert ep.said[2] != "laura.bishop@example.com"


async def test_a_question_of_ages_is_answered_from_the_ages_the_user_holds():
    scenario = chatty("Book The Vault for four of us on Tuesday 5 January at 2pm, please.",
                      ages="None of us — we're all adults.", players=4)  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(AGES), max_turns=2)
    assert "we're all adults" in ep.said[1]


async def test_a_count_is_said_with_its_noun():
    scenario = chatty("Book The Vault on Tuesday 5 January at 2pm, please.", players=4)
    ep = await converse(AgendaPolicy(), scenario, scripted("How many players?"), max_turns=2)
    assert "4 players" in ep.said[0] and "players is" not in ep.said[0]


async def test_words_to_be_written_down_are_given_alone():
    # Found on a florist desk written blind: "What would you like the card to say? (Or say no
    # card.)" got "Sure, no problem. No card, thanks. Hope that helps.", all of it taken as
    # the card's message.
    scenario = chatty("Send a large bouquet of roses to my mum on Saturday 12 December.",
                      recipient="Jean Harris", card_message="no card, thanks")  # fmt: skip
    who = "Who is the recipient?"
    ask = "What would you like the card message to say? (Or say no card.)"
    ep = await converse(AgendaPolicy(), scenario, scripted(who, ask), agent_tools=(ORDER,),
                        max_turns=3)  # fmt: skip
    assert "Jean Harris" in ep.said[1]
    assert ep.said[2] == "no card, thanks"


async def test_a_change_pending_on_another_fact_still_gets_the_bare_value():
    # Escape rooms, a branch: a change of mind drawn for the day kept the user wrapping the
    # name it was asked for again in pleasantries until the chat ran out.
    class Drawn(AgendaPolicy):
        def initial_state(self, scenario, seed=0):
            state = super().initial_state(scenario, seed=seed)
            change = Behaviour.model_validate({"op": "change_mind", "slot": "day",
                                               "first": "Saturday 2 January"})  # fmt: skip
            return apply_operation(state, Operation(source="drawn", behaviour=change))

    scenario = chatty("Book The Lab for four of us on Sunday 3 January at 11am.",
                      full_name="Laura Bishop", day="Sunday 3 January")  # fmt: skip
    ep = await converse(Drawn(), scenario, scripted(NAME, NAME, NAME), max_turns=3)
    assert ep.said[2] == "Laura Bishop", ep.said
