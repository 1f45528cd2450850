import json

import pytest

from vistasim.agent import Utterance
from vistasim.env import ToolOutcome
from vistasim.errors import SimulatorError
from vistasim.llm import ToolSpec
from vistasim.user import AgendaPolicy, CallApi, Finish, Say, UserPolicy, UserView

from ._driver import converse, make_scenario, scripted

ASK_ORDER = "Hi! I can help with orders. What's your order number?"
ASK_EMAIL = "Thanks. For verification, what's the email on the order?"
ASK_ITEM = "Order W1007 has 2 items: blender, toaster. Which item would you like to return?"
CONFIRM = "I'll start a return of the blender from order W1007. Shall I proceed (yes/no)?"
DONE = "Done — the return has been submitted and your refund is on its way."
CONFUSED = "Sorry, I didn't understand. Could you rephrase?"

RETURN_TOOL = ToolSpec(
    name="return_item",
    description="Start a return.",
    parameters={
        "type": "object",
        "properties": {"order_id": {"type": "string"}, "item": {"type": "string"}},
        "required": ["order_id", "item"],
    },
)


def test_agenda_policy_satisfies_the_user_policy_protocol():
    assert isinstance(AgendaPolicy(), UserPolicy)
    assert AgendaPolicy().name == "agenda"


async def test_full_conversation_gives_the_asked_facts_and_ends_goal_met():
    agent = scripted(ASK_ORDER, ASK_EMAIL, ASK_ITEM, CONFIRM, DONE)
    episode = await converse(AgendaPolicy(), make_scenario(), agent)
    said = episode.said
    assert "W1007" in said[1]
    assert "dana.reyes@example.com" in said[2]
    assert "blender" in said[3]
    assert said[4].lower().startswith("yes")
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"
    assert len(episode.actions) == 6


async def test_first_message_states_the_goal():
    episode = await converse(AgendaPolicy(), make_scenario(), scripted(DONE))
    assert "return the blender from order W1007" in episode.said[0]


async def test_wrong_order_id_in_a_confirmation_is_corrected():
    wrong = "I'll cancel order W1008. Shall I proceed (yes/no)?"
    right = "I'll cancel order W1007. Shall I proceed (yes/no)?"
    agent = scripted(wrong, right, "Order W1007 has been cancelled.")
    episode = await converse(AgendaPolicy(), make_scenario(), agent)
    correction = episode.said[1]
    assert "W1007" in correction and not correction.lower().startswith("yes")
    assert episode.said[2].lower().startswith("yes")
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"


async def test_done_message_about_the_wrong_order_is_corrected_not_accepted():
    agent = scripted("Order W1008 has been cancelled.", "Order W1007 has been cancelled.")
    episode = await converse(AgendaPolicy(), make_scenario(), agent)
    assert "W1007" in episode.said[1]
    assert episode.last == Finish(reason="goal_met", text=episode.last.text)


async def test_user_stops_when_patience_runs_out():
    scenario = make_scenario(persona={"name": "Dana", "style": {"patience": 2}})
    episode = await converse(AgendaPolicy(), scenario, scripted(CONFUSED))
    # opening, then one rephrase per unit of patience, then giving up
    assert len(episode.said) == 3
    assert isinstance(episode.last, Finish) and episode.last.reason == "user_stop"
    assert episode.last.text


async def test_rephrasing_restates_the_request_with_its_ids():
    scenario = make_scenario(goal="Return my blender.", persona={"name": "Dana"})
    episode = await converse(AgendaPolicy(), scenario, scripted(CONFUSED, DONE))
    assert episode.said[1] != episode.said[0]
    assert "W1007" in episode.said[1]


async def test_agent_repeating_itself_costs_patience():
    scenario = make_scenario(persona={"name": "Dana", "style": {"patience": 1}})
    episode = await converse(AgendaPolicy(), scenario, scripted(ASK_ORDER))
    assert "W1007" in episode.said[1]
    assert "W1007" in episode.said[2]  # answered again, but the repeat used up the patience
    assert isinstance(episode.last, Finish) and episode.last.reason == "user_stop"


async def test_asked_for_a_fact_it_does_not_hold_says_so():
    agent = scripted("Could you tell me your phone number?", DONE)
    episode = await converse(AgendaPolicy(), make_scenario(), agent)
    assert "don't have" in episode.said[1]


async def test_hidden_fact_is_given_only_when_asked():
    scenario = make_scenario(persona={"name": "Dana", "style": {"verbosity": "high"}})
    agent = scripted(ASK_ORDER, "What's wrong with the blender?", DONE)
    episode = await converse(AgendaPolicy(), scenario, agent)
    assert all("cracked" not in text for text in episode.said[:2])
    assert "glass jar arrived cracked" in episode.said[2]


async def test_domain_lexicon_extends_the_default():
    scenario = make_scenario(knowledge={"booking_ref": "BK-5521"}, agenda=[])
    agent = scripted("Please give me your confirmation code.", DONE)
    lexicon = {"booking_ref": ["confirmation code"]}
    episode = await converse(AgendaPolicy(), scenario, agent, lexicon=lexicon)
    assert "BK-5521" in episode.said[1]


async def test_scenario_without_agenda_uses_goal_and_knowledge():
    scenario = make_scenario(agenda=[])
    episode = await converse(AgendaPolicy(), scenario, scripted(ASK_EMAIL, DONE))
    assert "return the blender" in episode.said[0]
    assert "dana.reyes@example.com" in episode.said[1]
    assert episode.last.kind == "finish"


async def test_next_agenda_item_is_requested_after_the_first_is_done():
    agenda = [
        {"intent": "return_item", "slots": {"order_id": "W1007", "item": "blender"}},
        {"intent": "cancel_order", "slots": {"order_id": "W2000"}},
    ]
    agent = scripted(DONE, "Order W2000 has been cancelled.")
    episode = await converse(AgendaPolicy(), make_scenario(agenda=agenda), agent)
    assert "cancel order W2000" in episode.said[1]
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"


async def test_api_intent_is_called_with_slots_filtered_to_the_schema():
    scenario = make_scenario(
        agenda=[
            {
                "intent": "return_item",
                "slots": {"order_id": "W1007", "item": "blender", "refund_to": "card"},
            }
        ]
    )
    calls = []

    def api(name, args):
        calls.append((name, args))
        return ToolOutcome(result={"return_id": "R1"})

    episode = await converse(
        AgendaPolicy(), scenario, scripted(DONE), api=api, api_tools=(RETURN_TOOL,)
    )
    assert episode.actions[0] == CallApi(
        name="return_item", args={"order_id": "W1007", "item": "blender"}
    )
    assert calls == [("return_item", {"order_id": "W1007", "item": "blender"})]
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"


async def test_api_named_by_the_api_slot_is_called():
    tool = ToolSpec(name="start_return", parameters={"properties": {"order_id": {}}})
    scenario = make_scenario(
        agenda=[{"intent": "return_item", "slots": {"order_id": "W1007", "api": "start_return"}}]
    )
    episode = await converse(
        AgendaPolicy(),
        scenario,
        scripted(DONE),
        api=lambda n, a: ToolOutcome(result="ok"),
        api_tools=(tool,),
    )
    assert episode.actions[0] == CallApi(name="start_return", args={"order_id": "W1007"})


async def test_failing_api_falls_back_to_asking_the_agent():
    def api(name, args):
        return ToolOutcome(error="returns window closed for online requests")

    agent = scripted(CONFIRM, DONE)
    episode = await converse(
        AgendaPolicy(), make_scenario(), agent, api=api, api_tools=(RETURN_TOOL,)
    )
    assert isinstance(episode.actions[0], CallApi)
    fallback = episode.actions[1]
    assert isinstance(fallback, Say)
    assert "returns window closed" in fallback.text
    assert "return the blender" in fallback.text
    assert sum(isinstance(a, CallApi) for a in episode.actions) == 1
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"


async def test_same_seed_gives_the_same_actions():
    agent = scripted(ASK_ORDER, ASK_EMAIL, ASK_ITEM, CONFIRM, DONE)
    first = await converse(AgendaPolicy(), make_scenario(), agent, seed=7)
    second = await converse(AgendaPolicy(), make_scenario(), agent, seed=7)
    assert first.actions == second.actions


async def test_other_seed_gives_other_wording_with_the_same_facts():
    agent = scripted(ASK_ORDER, ASK_EMAIL, ASK_ITEM, CONFIRM, DONE)
    first = await converse(AgendaPolicy(), make_scenario(), agent, seed=1)
    second = await converse(AgendaPolicy(), make_scenario(), agent, seed=2)
    assert first.said != second.said
    for fact, turn in (("W1007", 1), ("dana.reyes@example.com", 2), ("blender", 3)):
        assert fact in first.said[turn] and fact in second.said[turn]
    assert first.last.kind == second.last.kind == "finish"


async def test_resuming_from_a_stored_state_continues_identically():
    agent = scripted(ASK_ORDER, ASK_EMAIL, ASK_ITEM, CONFIRM, DONE)
    scenario = make_scenario()
    episode = await converse(AgendaPolicy(), scenario, agent, seed=3)
    # Replay step 2 from its snapshot (state after two actions, transcript of two exchanges).
    state = json.loads(json.dumps(episode.states[2]))
    view = UserView(scenario=scenario, transcript=episode.transcript[:4], turn=2, max_turns=12)
    action, _ = await AgendaPolicy().next_action(view, state)
    assert action == episode.actions[2]


async def test_the_profile_is_never_said_aloud_and_high_verbosity_says_more():
    chatty = make_scenario(
        persona={"name": "Dana", "profile": "a retired teacher", "style": {"verbosity": "high"}}
    )
    terse = make_scenario(
        persona={"name": "Dana", "profile": "a retired teacher", "style": {"verbosity": "low"}}
    )
    long = await converse(AgendaPolicy(), chatty, scripted(DONE))
    short = await converse(AgendaPolicy(), terse, scripted(DONE))
    assert not any("retired teacher" in said for said in (*long.said, *short.said))
    assert len(short.said[0]) < len(long.said[0])


@pytest.mark.parametrize(
    ("formality", "expected"),
    [("formal", ("Good", "Hello, I hope")), ("casual", ("Hey", "Hi", "Hiya"))],
)
async def test_formality_changes_the_greeting(formality, expected):
    scenario = make_scenario(persona={"name": "Dana", "style": {"formality": formality}})
    for seed in range(4):
        episode = await converse(AgendaPolicy(), scenario, scripted(DONE), seed=seed)
        assert episode.said[0].startswith(expected)


async def test_state_not_made_by_the_policy_is_rejected():
    view = UserView(scenario=make_scenario(), transcript=(), turn=0, max_turns=3)
    with pytest.raises(SimulatorError, match="initial_state"):
        await AgendaPolicy().next_action(view, {"bogus": 1})


async def test_missing_agent_reply_counts_as_no_progress():
    policy = AgendaPolicy()
    scenario = make_scenario(persona={"name": "Dana", "style": {"patience": 1}})
    state = policy.initial_state(scenario, seed=0)
    transcript = (Utterance(role="user", text="hello"),)
    view = UserView(scenario=scenario, transcript=transcript, turn=1, max_turns=5)
    state = {**state, "greeted": True}
    first, state = await policy.next_action(view, state)
    second, _ = await policy.next_action(view, state)
    assert isinstance(first, Say)
    assert isinstance(second, Finish) and second.reason == "user_stop"


async def test_domain_lexicon_listing_confirm_as_a_slot_still_confirms():
    lexicon = {"confirm": ["shall i proceed", "yes/no", "confirm"]}
    agent = scripted("I'll cancel order W1007. Shall I proceed (yes/no)?", DONE)
    episode = await converse(AgendaPolicy(), make_scenario(), agent, lexicon=lexicon)
    assert episode.said[1].lower().startswith("yes")


@pytest.mark.parametrize(("verbosity", "volunteers"), [("low", False), ("high", True)])
async def test_first_message_volunteers_facts_by_verbosity(verbosity, volunteers):
    persona = {"name": "Dana", "style": {"verbosity": verbosity}}
    scenario = make_scenario(persona=persona, goal="Return my blender.")
    for seed in range(4):
        episode = await converse(AgendaPolicy(), scenario, scripted(DONE), seed=seed)
        opening = episode.said[0]
        gave = any(fact in opening for fact in ("W1007", "dana.reyes@example.com"))
        assert gave is volunteers


async def test_the_same_done_line_completes_each_agenda_item():
    agenda = [
        {"intent": "return_item", "slots": {"order_id": "W1007", "item": "blender"}},
        {"intent": "cancel_order", "slots": {"order_id": "W2000"}},
    ]
    agent = scripted("Your request has been processed.")
    episode = await converse(AgendaPolicy(), make_scenario(agenda=agenda), agent)
    assert len(episode.said) == 2
    assert isinstance(episode.last, Finish) and episode.last.reason == "goal_met"
