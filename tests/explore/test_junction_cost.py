"""What a branch at a junction would replay: the agent tokens its parent spent after it."""

from vistasim.events import AgentReply, RequestDigest, Snapshot, UserMessage
from vistasim.explore._junctions import junctions, tokens_after
from vistasim.store import StoredEvent


def _stored(i: int, event) -> StoredEvent:
    return StoredEvent(id=i, parent_id=i - 1 or None, episode_id="e", turn=0, created_at=0.0,
                       event=event)  # fmt: skip


def _reply(text: str, tokens: int) -> AgentReply:
    digest = RequestDigest(input_tokens=tokens, output_tokens=10, head_tokens=5, prefix=[])
    return AgentReply(text=text, requests=[digest])


def test_a_later_junction_replays_fewer_agent_tokens():
    path = [
        _stored(1, Snapshot(turn=0)),
        _stored(2, UserMessage(text="Hi, cancel order W1001.")),
        _stored(3, _reply("What's your email?", 100)),
        _stored(4, Snapshot(turn=1)),
        _stored(5, UserMessage(text="ann@example.com")),
        _stored(6, _reply("Shall I cancel W1001?", 300)),
        _stored(7, Snapshot(turn=2)),
        _stored(8, UserMessage(text="Yes.")),
        _stored(9, _reply("Done.", 500)),
        _stored(10, Snapshot(turn=3)),
    ]
    costs = [tokens_after(path, snapshot) for _, snapshot, _ in junctions(path)]
    assert costs == [930, 820, 510]  # input + output of every reply after the junction
