from tests.metrics._builders import agent, api, episode, make_run, model_call, stop, user
from vistasim.events import AgentReply, WebAction
from vistasim.metrics import cost
from vistasim.metrics._cost import distribution


def test_tokens_calls_and_dollars_are_summed_per_role():
    run = make_run(
        [
            episode("e1", "s1", [], model_calls=[model_call("user", 100, 10, 0.01, cached=40)]),
            episode(
                "e2",
                "s1",
                [],
                model_calls=[model_call("user", 50, 5, 0.02), model_call("agent", 200, 20, 0.5)],
            ),
        ]
    )
    report = cost(run)
    user_cost = report.by_role["user"]
    assert (user_cost.calls, user_cost.input_tokens, user_cost.output_tokens) == (2, 150, 15)
    assert user_cost.cached_tokens == 40
    assert abs(report.total.cost_usd - 0.53) < 1e-12
    assert report.total.calls == 3


def test_per_episode_token_distribution():
    run = make_run(
        [
            episode("e1", "s1", [], model_calls=[model_call("agent", 90, 10, 0.0)]),
            episode("e2", "s1", [], model_calls=[model_call("agent", 280, 20, 0.0)]),
        ]
    )
    tokens = cost(run).tokens
    assert (tokens.total, tokens.mean, tokens.p50, tokens.max) == (400, 200, 200, 300)


def test_wall_time_uses_episode_start_and_end():
    run = make_run(
        [
            episode("e1", "s1", [], started_at=10.0, ended_at=13.0),
            episode("e2", "s1", [], started_at=10.0, ended_at=11.0),
            episode("e3", "s1", []),
        ]
    )
    wall = cost(run).wall_time_s
    assert (wall.total, wall.max, wall.p50) == (4.0, 3.0, 2.0)


def test_wall_time_is_absent_without_timestamps():
    assert cost(make_run([episode("e1", "s1", [])])).wall_time_s is None


def test_actions_are_counted_per_channel():
    events = [
        user("hi"),
        agent("hello"),
        WebAction(action="click", target="buy"),
        api("reschedule_exam", exam="E1"),
        user("thanks"),
        stop(),
    ]
    actions = cost(make_run([episode("e1", "s1", events)])).actions
    assert (actions["user_message"].total, actions["web_action"].total) == (2, 1)
    assert actions["api_call"].total == 1


def test_errored_episodes_still_count_in_cost():
    run = make_run(
        [episode("e1", "s1", [], status="errored", model_calls=[model_call("user", 10, 1, 0.1)])]
    )
    assert cost(run).total.cost_usd == 0.1


def test_distribution_percentiles_interpolate():
    d = distribution([float(i) for i in range(1, 101)])
    assert (d.p50, round(d.p95, 2), d.max) == (50.5, 95.05, 100.0)


def test_distribution_of_nothing_is_zero():
    assert distribution([]).mean == 0.0


def test_cache_hits_count_as_calls_but_spend_no_tokens():
    from dataclasses import replace

    hit = replace(model_call("user", 100, 10, 0.0), cache_hit=True)
    run = make_run([episode("e1", "s1", [], model_calls=[hit, model_call("user", 5, 1, 0.001)])])
    report = cost(run)
    user_cost = report.by_role["user"]
    assert (user_cost.calls, user_cost.cache_hits) == (2, 1)
    assert (user_cost.input_tokens, user_cost.output_tokens) == (5, 1)
    assert report.tokens.total == 6


def test_latency_is_summarised_per_role_without_cache_hits():
    calls = [model_call("user", 10, 1, 0.0, latency_s=s) for s in (0.1, 0.2, 0.3, 0.4, 2.0)]
    calls += [model_call("agent", 10, 1, 0.0, latency_s=1.5)]
    calls += [model_call("agent", 10, 1, 0.0, latency_s=0.0, cache_hit=True)]
    latency = cost(make_run([episode("e1", "s1", [], model_calls=calls)])).latency_s
    assert set(latency) == {"user", "agent"}
    assert (latency["user"].p50, round(latency["user"].p95, 2)) == (0.3, 1.68)
    assert (latency["agent"].p50, latency["agent"].p95) == (1.5, 1.5)


def test_agent_reply_time_is_read_from_the_replies_of_any_agent():
    replies = [AgentReply(text="hi", latency_s=0.5), AgentReply(text="ok", latency_s=1.5)]
    report = cost(make_run([episode("e1", "s1", [user("a"), replies[0], user("b"), replies[1]])]))
    assert report.latency_s == {}  # a rule agent: no model calls
    assert (report.reply_latency_s.p50, report.reply_latency_s.max) == (1.0, 1.5)
