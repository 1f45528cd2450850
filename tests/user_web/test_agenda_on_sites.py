"""The agenda user walks the built-in sites' real pages with the shipped web skills."""

from functools import cache

import pytest

from vistasim.browser import Navigate
from vistasim.domains import get_domain
from vistasim.user import Action, AgendaPolicy, Finish, Say, UserView, load_web_skills

from ._form_browser import FormBrowser


@cache
def scenarios(domain_name):
    return get_domain(domain_name).scenarios()


async def walk(domain_name: str, scenario_id: str, max_turns: int = 14):
    domain = get_domain(domain_name)
    scenario = next(s for s in scenarios(domain_name) if s.id == scenario_id)
    env = domain.make_environment()
    browser = FormBrowser(domain.make_web_app(env, None))
    policy = AgendaPolicy(web_skills=load_web_skills(domain.package))
    state = policy.initial_state(scenario, seed=0)
    actions: list[Action] = []
    error = None
    for turn in range(max_turns):
        view = UserView(
            scenario=scenario,
            transcript=(),
            turn=turn,
            max_turns=max_turns,
            page=browser.page,
            last_web_error=error,
        )
        action, state = await policy.next_action(view, state)
        actions.append(action)
        if isinstance(action, Finish | Say):
            break
        error = browser.act(action)
    return env, actions


def one(env, sql, *args):
    return env.db.execute(sql, args).fetchone()[0]


async def test_shop_cancel_is_done_on_the_real_order_page():
    env, actions = await walk("shop", "shop-cancel-pending-order")
    assert actions[-1] == Finish(reason="goal_met", text=actions[-1].text)
    assert one(env, "SELECT status FROM orders WHERE id = 'W1003'") == "cancelled"


async def test_shop_return_ticks_the_item_and_picks_the_refund_method():
    env, actions = await walk("shop", "shop-return-daypack-gift-card")
    assert isinstance(actions[-1], Finish)
    rows = env.db.execute(
        "SELECT i.status FROM order_items i JOIN variants v ON v.sku = i.sku"
        " JOIN products p ON p.id = v.product_id WHERE i.order_id = 'W1007'"
        " AND p.name = 'Trail Daypack'"
    ).fetchall()
    assert [r[0] for r in rows] == ["return_requested"]


async def test_shop_order_status_is_read_from_the_page():
    _, actions = await walk("shop", "shop-status-shipped")
    assert isinstance(actions[-1], Finish) and actions[-1].reason == "goal_met"
    assert not any(isinstance(a, Say) for a in actions)


async def test_shop_cancel_of_a_shipped_order_falls_back_to_chat():
    # W1006 has shipped: its page has no cancel button, so the user asks the agent instead.
    env, actions = await walk("shop", "shop-cancel-shipped-refused")
    assert actions[-2] == Navigate(url="http://testserver/orders/W1006")
    assert isinstance(actions[-1], Say) and "W1006" in actions[-1].text
    assert one(env, "SELECT status FROM orders WHERE id = 'W1006'") == "shipped"


@pytest.mark.parametrize(
    ("scenario_id", "sql", "expected"),
    [
        (
            "school-enroll-cs201-open-section",
            "SELECT status FROM enrollments WHERE student_id='S1001' AND section_id='CS201-B'",
            "enrolled",
        ),
        (
            "school-drop-hist240",
            "SELECT status FROM enrollments WHERE student_id='S1002' AND section_id='HIST240-A'",
            "dropped",
        ),
        (
            "school-reschedule-personal-fee",
            "SELECT session_id FROM exam_bookings WHERE student_id='S1001'"
            " AND exam_id='EX-MATH201-FIN' AND status='scheduled'",
            "EX-MATH201-FIN-3",
        ),
    ],
)
async def test_school_items_are_done_on_the_real_portal(scenario_id, sql, expected):
    env, actions = await walk("school", scenario_id)
    assert isinstance(actions[-1], Finish) and actions[-1].reason == "goal_met"
    assert one(env, sql) == expected
