import json
from collections.abc import Callable

from pydantic import JsonValue

from vistasim.agent import Utterance
from vistasim.browser import Click, ElementView, Navigate, PageView, TypeText, WebStep
from vistasim.domains import get_domain
from vistasim.env import ToolOutcome
from vistasim.llm import ToolSpec
from vistasim.scenario import Scenario
from vistasim.user import (
    Action,
    AgendaPolicy,
    CallApi,
    Finish,
    Say,
    UserView,
    load_web_skills,
)

from ._site import ORIGIN, ShopSite, cancel_scenario

SHOP_SKILLS = load_web_skills(get_domain("shop").package)
CANCEL_API = ToolSpec(
    name="cancel_order",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
)


async def drive(
    policy: AgendaPolicy,
    scenario: Scenario,
    site: ShopSite | None,
    *,
    agent: Callable[[str], str] = lambda text: "Sorry, I can't help with that.",
    api_tools: tuple[ToolSpec, ...] = (),
    max_turns: int = 12,
) -> tuple[list[Action], list[JsonValue]]:
    """Play an episode the way the runner does in ui/hybrid mode (chat through the widget)."""
    state = policy.initial_state(scenario, seed=3)
    transcript: tuple[Utterance, ...] = ()
    actions: list[Action] = []
    states = [state]
    web_error: str | None = None
    outcome: ToolOutcome | None = None
    for turn in range(max_turns):
        view = UserView(
            scenario=scenario,
            transcript=transcript,
            turn=turn,
            max_turns=max_turns,
            api_tools=api_tools,
            last_api_result=outcome,
            page=site.current if site is not None else None,
            last_web_error=web_error,
        )
        action, state = await policy.next_action(view, state)
        json.dumps(state)
        actions.append(action)
        states.append(state)
        web_error, outcome = None, None
        if isinstance(action, Finish):
            break
        if isinstance(action, Say):
            transcript += (Utterance(role="user", text=action.text),)
            transcript += (Utterance(role="agent", text=agent(action.text)),)
        elif isinstance(action, CallApi):
            outcome = ToolOutcome(result={"status": "cancelled"})
        else:
            assert site is not None
            web_error = site.act(action)
    return actions, states


def web_steps(actions: list[Action]) -> list[WebStep]:
    return [a for a in actions if not isinstance(a, Say | CallApi | Finish)]


async def test_agenda_user_cancels_through_the_web_skill_step_by_step():
    site = ShopSite()
    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), cancel_scenario(), site)
    assert actions[:-1] == [
        Navigate(url=f"{ORIGIN}/login"),
        TypeText(target="login-email", text="dana@example.com"),
        Click(target="login-submit"),
        Navigate(url=f"{ORIGIN}/orders/W1003"),
        Click(target="cancel-order"),
    ]
    assert actions[-1] == Finish(reason="goal_met", text=actions[-1].text)
    assert site.cancelled


async def test_web_skill_step_index_is_kept_in_the_json_state():
    _, states = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), cancel_scenario(), ShopSite())
    assert [s["stack"][0]["web_step"] for s in states[1:4]] == [1, 2, 3]


async def test_missing_element_falls_back_to_chat_through_the_widget():
    site = ShopSite(broken=True)
    actions, states = await drive(
        AgendaPolicy(web_skills=SHOP_SKILLS),
        cancel_scenario(),
        site,
        agent=lambda text: "Done, order W1003 has been cancelled.",
    )
    assert len(web_steps(actions)) == 4  # logged in and opened the order: no cancel button there
    fallback = actions[4]
    assert isinstance(fallback, Say)
    assert "cancel order w1003" in fallback.text.casefold()
    assert states[5]["stack"][0]["web_off"] is True
    assert isinstance(actions[5], Finish) and actions[5].reason == "goal_met"


async def test_web_error_reported_by_the_browser_falls_back_to_chat():
    class FailingSite(ShopSite):
        def act(self, step):
            super().act(step)
            return "navigation to http://127.0.0.1:8765/login timed out"

    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), cancel_scenario(), FailingSite())
    assert isinstance(actions[0], Navigate)
    assert isinstance(actions[1], Say)


async def test_page_that_never_shows_the_result_falls_back_to_chat():
    class SilentSite(ShopSite):
        def act(self, step):
            error = super().act(step)
            if isinstance(step, Click) and step.target == "cancel-order":
                self.current = PageView(url=f"{ORIGIN}/orders/W1003", text="Something happened.")
            return error

    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), cancel_scenario(), SilentSite())
    assert len(web_steps(actions)) == 5
    assert isinstance(actions[5], Say)


async def test_hybrid_prefers_the_api_over_the_web_skill():
    actions, _ = await drive(
        AgendaPolicy(web_skills=SHOP_SKILLS),
        cancel_scenario(),
        ShopSite(),
        api_tools=(CANCEL_API,),
    )
    assert actions[0] == CallApi(name="cancel_order", args={"order_id": "W1003"})
    assert isinstance(actions[1], Finish)
    assert web_steps(actions) == []


async def test_intent_without_a_web_skill_chats_in_ui_mode():
    scenario = cancel_scenario(
        agenda=[{"intent": "update_address", "slots": {"order_id": "W1003", "address": "1 Elm"}}]
    )
    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), scenario, ShopSite())
    assert isinstance(actions[0], Say)


async def test_user_without_the_facts_a_route_needs_chats_instead():
    scenario = cancel_scenario(knowledge={})  # no email: cannot log in
    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), scenario, ShopSite())
    assert isinstance(actions[0], Say)
    assert "website" not in actions[0].text


async def test_without_a_page_the_skill_is_not_used():
    actions, _ = await drive(AgendaPolicy(web_skills=SHOP_SKILLS), cancel_scenario(), None)
    assert isinstance(actions[0], Say)


async def test_second_agenda_item_uses_the_web_after_the_first_is_done_in_chat():
    scenario = cancel_scenario(
        agenda=[
            {"intent": "update_address", "slots": {"order_id": "W1003", "address": "1 Elm St"}},
            {"intent": "cancel_order", "slots": {"order_id": "W1003"}},
        ]
    )
    site = ShopSite()
    actions, _ = await drive(
        AgendaPolicy(web_skills=SHOP_SKILLS),
        scenario,
        site,
        agent=lambda text: "Done, the address has been updated.",
    )
    assert isinstance(actions[0], Say)
    assert web_steps(actions)[-1] == Click(target="cancel-order")
    assert site.cancelled and isinstance(actions[-1], Finish)


async def test_same_view_and_state_give_the_same_web_action():
    policy = AgendaPolicy(web_skills=SHOP_SKILLS)
    first, _ = await drive(policy, cancel_scenario(), ShopSite())
    second, _ = await drive(policy, cancel_scenario(), ShopSite())
    assert first == second


async def test_select_step_picks_the_closest_option_of_the_page():
    scenario = cancel_scenario(
        agenda=[
            {
                "intent": "return_item",
                "slots": {
                    "order_id": "W1007",
                    "item": "daypack",
                    "reason": "too small",
                    "refund_to": "store gift card",
                },
            }
        ]
    )
    order = PageView(
        url=f"{ORIGIN}/orders/W1007",
        elements=(
            ElementView(id="return-item-WAL-1", role="checkbox", label="Return Leather Wallet"),
            ElementView(id="return-item-DAY-2", role="checkbox", label="Return Trail Daypack"),
            ElementView(id="return-reason", role="textbox", label="Reason"),
            ElementView(
                id="return-refund-to",
                role="combobox",
                label="Refund to",
                options=("Original payment", "Store gift card"),
            ),
            ElementView(id="return-submit", role="button", label="Return selected items"),
        ),
    )
    policy = AgendaPolicy(web_skills=SHOP_SKILLS)
    state = policy.initial_state(scenario, seed=1)
    state["stack"][0]["web_step"] = 4  # logged in and on the order page
    taken = []
    for _ in range(4):
        view = UserView(scenario=scenario, transcript=(), turn=4, max_turns=12, page=order)
        action, state = await policy.next_action(view, state)
        taken.append(action)
    assert [a.target for a in taken] == [
        "return-item-DAY-2",
        "return-reason",
        "return-refund-to",
        "return-submit",
    ]
    assert taken[2].value == "Store gift card"
