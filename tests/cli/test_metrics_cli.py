import json

from click.testing import CliRunner

from vistasim.cli import cli
from vistasim.store import open_store
from vistasim.testing import FakeOpenAIServer

KEYS = {"transition_entropy", "tool_distr_entropy", "traj_dist", "realism", "cost",
        "unique_failures", "success_rate", "pass_hat_k"}  # fmt: skip


def _invoke(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout  # progress goes to stderr


def _demo(tmp_path):
    store = str(tmp_path / "v.db")
    output = _invoke("demo", "--store", store, "--rollouts", "1", "--mode", "chat")
    return store, output.split("run ", 1)[1].split(":", 1)[0]


def test_metrics_json_has_stable_keys_and_is_stored_with_the_run(tmp_path):
    store, run_id = _demo(tmp_path)
    report = json.loads(_invoke("metrics", run_id, "--store", store, "--json"))
    assert KEYS <= set(report)
    assert report["realism"]["computed"] is False
    assert 0 <= report["transition_entropy"] <= 1 and report["unique_failures"] >= 3
    with open_store(store) as db:
        assert db.get_metrics(run_id, str(report["metrics_version"])) == report
    again = json.loads(_invoke("metrics", run_id, "--store", store, "--json"))
    assert again == report


def test_metrics_table_names_the_metrics(tmp_path):
    store, run_id = _demo(tmp_path)
    table = _invoke("metrics", run_id, "--store", store)
    assert "transition_entropy" in table and "Unique failures" in table
    assert "agent reply time (s)" in table  # the demo's rule agent makes no model calls


def judge(request: dict) -> str:
    rubric = {"score": 3, "reason": "Sounds like a real customer."}
    return json.dumps({"human_likeness": rubric, "coherence": rubric, "goal_consistency": rubric})


def test_metrics_with_a_judge_over_http_computes_realism_in_one_call_per_episode(tmp_path):
    store, run_id = _demo(tmp_path)
    with FakeOpenAIServer(responder=judge).in_thread() as server:
        output = _invoke("metrics", run_id, "--store", store, "--json", "--judge", "judge-model",
                         "--judge-base-url", server.base_url)  # fmt: skip
        calls = server.count
    report = json.loads(output)
    assert report["realism"]["computed"] is True
    assert calls == report["episodes"] == 9
    with open_store(store) as db:
        roles = db.db.execute("SELECT role, COUNT(*) FROM model_calls GROUP BY role").fetchall()
    assert [tuple(r) for r in roles] == [("judge", 9)]
