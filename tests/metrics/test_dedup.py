import json
import random

import numpy as np
import pytest

from vistasim.llm._embed import WordLlamaEmbedder
from vistasim.metrics import Failure, cluster_failures, merge_with_judge
from vistasim.testing import ScriptedLLM


@pytest.fixture(scope="module")
def embedder():
    return WordLlamaEmbedder()


def fail(description, *, kind="judge", label="x", episode="e1", scenario="s1", ids=(1,)):
    return Failure(
        episode_id=episode,
        scenario_id=scenario,
        kind=kind,
        label=label,
        description=description,
        event_ids=list(ids),
    )


PARAPHRASES = [
    fail("the agent cancelled the order without asking the user to confirm", episode="e1"),
    fail("agent canceled the order before getting confirmation from the customer", episode="e2"),
]
DISTINCT = fail("the agent refunded to the wrong payment method", episode="e3")


def test_paraphrased_judge_failures_merge(embedder):
    unique = cluster_failures([*PARAPHRASES, DISTINCT], embedder)
    assert sorted(len(u.episodes) for u in unique) == [1, 2]
    merged = next(u for u in unique if len(u.episodes) == 2)
    assert merged.episodes == ["e1", "e2"]


def test_distinct_templated_failures_stay_apart_even_when_worded_alike(embedder):
    failures = [
        fail(
            "criteria not met: required action cancel_order(order_id=W1) not taken",
            kind="criteria",
            label="criteria",
        ),
        fail(
            "criteria not met: required action return_items(order_id=W1) not taken",
            kind="criteria",
            label="criteria",
        ),
    ]
    assert len(cluster_failures(failures, embedder)) == 2


def test_same_flaw_on_other_ids_is_one_unique_failure_listing_all_evidence(embedder):
    failures = [
        fail(
            "agent tool cancel_order failed: order W1007 not found",
            kind="tool_error",
            label="cancel_order",
            episode="e1",
            scenario="s1",
            ids=[4],
        ),
        fail(
            "agent tool cancel_order failed: order W2001 not found",
            kind="tool_error",
            label="cancel_order",
            episode="e7",
            scenario="s2",
            ids=[40],
        ),
    ]
    [unique] = cluster_failures(failures, embedder)
    assert (unique.failures, unique.episodes, unique.scenarios) == (2, ["e1", "e7"], ["s1", "s2"])
    assert unique.event_ids == [4, 40]
    assert len(unique.variants) == 2


def test_agent_error_details_merge_by_meaning_but_not_across_causes(embedder):
    failures = [
        fail(
            "agent error: HTTP 500 internal server error",
            kind="agent_error",
            label="agent_error",
            episode="e1",
        ),
        fail(
            "agent error: HTTP 500: Internal Server Error (request 81f2)",
            kind="agent_error",
            label="agent_error",
            episode="e2",
        ),
        fail(
            "agent error: timed out after 30 s",
            kind="agent_error",
            label="agent_error",
            episode="e3",
        ),
    ]
    unique = cluster_failures(failures, embedder)
    assert sorted(u.episodes for u in unique) == [["e1", "e2"], ["e3"]]


def test_judge_failure_can_join_a_deterministic_one_and_keeps_its_name(embedder):
    policy = fail(
        "policy confirm-cancel violated: cancel the order only after the user confirms",
        kind="policy",
        label="confirm-cancel",
        episode="e1",
    )
    judged = fail("the agent cancelled the order without the user confirming", episode="e2")
    unique = cluster_failures([judged, policy], embedder)
    [merged] = [u for u in unique if len(u.episodes) == 2]
    assert (merged.kind, merged.label) == ("policy", "confirm-cancel")


def test_ids_are_stable_across_reruns_and_orders(embedder):
    failures = [*PARAPHRASES, DISTINCT, fail("agent error: boom", kind="agent_error")]
    first = cluster_failures(failures, embedder)
    shuffled = failures[:]
    random.Random(3).shuffle(shuffled)
    again = cluster_failures(shuffled, WordLlamaEmbedder())
    assert [u.model_dump() for u in again] == [u.model_dump() for u in first]
    assert all(u.id.startswith("F") and len(u.id) == 11 for u in first)


def test_without_embedder_only_identical_wording_is_folded():
    unique = cluster_failures([*PARAPHRASES, fail(PARAPHRASES[0].description, episode="e9")], None)
    assert sorted(u.failures for u in unique) == [1, 2]


def test_no_failures_gives_empty_catalogue(embedder):
    assert cluster_failures([], embedder) == []


class TableEmbedder:
    """Vectors chosen by hand, to pin the linkage rule."""

    name = "table"

    def __init__(self, table):
        self.table = table

    def embed(self, texts):
        rows = np.array([self.table[t] for t in texts], dtype=float)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_average_linkage_stops_when_the_mean_similarity_drops_below_threshold():
    # a~b (cos 0.8), b~c (cos 0.8) but a vs c is far: single linkage would chain all three.
    angle = np.arccos(0.8)
    table = {
        "a": [1.0, 0.0],
        "b": [np.cos(angle), np.sin(angle)],
        "c": [np.cos(2 * angle), np.sin(2 * angle)],
    }
    failures = [fail(t, episode=f"e-{t}") for t in "abc"]
    unique = cluster_failures(failures, TableEmbedder(table), threshold=0.7)
    assert sorted(len(u.episodes) for u in unique) == [1, 2]


async def test_llm_merge_folds_groups_in_one_call():
    unique = cluster_failures([*PARAPHRASES, DISTINCT], None)
    judge = ScriptedLLM([json.dumps({"groups": [[0, 1], [2]]})])
    merged, errors, calls = await merge_with_judge(unique, judge)
    assert (len(merged), errors, calls) == (2, [], 1)
    assert merged[0].failures == 2


async def test_llm_merge_with_bad_partition_is_repaired_then_left_unmerged():
    unique = cluster_failures([*PARAPHRASES, DISTINCT], None)
    bad = json.dumps({"groups": [[0, 1]]})
    judge = ScriptedLLM([bad, bad, bad])
    merged, errors, calls = await merge_with_judge(unique, judge)
    assert [u.id for u in merged] == [u.id for u in unique]
    assert calls == 3 and errors[0].judge == "merge"
    assert "exactly one group" in judge.requests[1].messages[-1].content


def test_criteria_checks_with_different_arguments_never_merge(embedder):
    failures = [
        fail(
            "criteria not met: forbidden action cancel_order(order_id=W1003)",
            kind="criteria",
            label="criteria",
            episode=f"e{i}",
            ids=[i],
        )  # fmt: skip
        for i in (1, 2)
    ]
    failures.append(
        fail(
            "criteria not met: forbidden action cancel_order(order_id=W1010)",
            kind="criteria",
            label="criteria",
            episode="e3",
            ids=[3],
        )  # fmt: skip
    )
    unique = cluster_failures(failures, embedder)
    assert sorted(u.episodes for u in unique) == [["e1", "e2"], ["e3"]]
    assert {e for u in unique for e in u.evidence} == {"e1", "e2", "e3"}


def test_one_named_cause_on_other_records_is_one_unique_failure(embedder):
    failures = [
        fail(
            "acted on a value the user had corrected",
            kind="behaviour",
            label="ignored-correction",
            episode=f"e{i}",
            ids=[i],
        )  # fmt: skip
        for i in (1, 2)
    ]
    [unique] = cluster_failures(failures, embedder)
    assert unique.evidence == {"e1": [1], "e2": [2]}
