"""The judge's verdicts on an environment's natural-language assertions, at an episode's end.

Some benchmark tasks are graded in part on statements about the conversation ("the agent told
the customer the refund takes five days") that no state check can decide: tau2's
`nl_assertions`. An environment that has such statements for its task says so with
`natural_language_assertions()`; the run's `judge` role model then grades each against the
transcript, and the environment's own judgment takes the verdicts. Without a judge, or when the
judge gives no usable answer, the episode is left unjudged with the reason: a guessed verdict
would be worse than none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from vistasim.agent import Utterance
from vistasim.errors import ModelError
from vistasim.events import Stop, StopReason
from vistasim.explore._live import Episode
from vistasim.llm import ChatMessage, ChatModel, ChatRequest, InvalidOutputError, complete_json

__all__ = ["AssertionGrade", "AssertionVerdicts", "grade_assertions", "judge_assertions"]

_FINISHED = (StopReason.GOAL_MET, StopReason.USER_STOP)
"""Conversations that ended as conversations do; one cut off (turn limit, timeout, an error) is
not graded on what was said: tau2 scores it 0 without asking."""

_SYSTEM = (
    "You grade a customer-service conversation against expected outcomes. For each expected "
    "outcome, in the order given, decide whether the agent's side of the conversation satisfies "
    "it, and say why in one sentence. Judge only from the conversation. Reply with a JSON "
    'object: {"results": [{"outcome": "<the expected outcome>", "reasoning": "<why>", '
    '"met": true or false}, ...]}, one result per expected outcome.'
)


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="ignore")

    outcome: str
    reasoning: str = ""
    met: bool


class AssertionVerdicts(BaseModel):
    """The judge's answer: one result per expected outcome, in their order."""

    model_config = ConfigDict(extra="ignore")

    results: list[_Verdict]


@dataclass(frozen=True)
class AssertionGrade:
    """The judge's verdicts, one per assertion, or None and why there are none."""

    verdicts: list[bool] | None
    why_none: str = ""


async def grade_assertions(
    ep: Episode, transcript: Sequence[Utterance], stop: Stop
) -> tuple[AssertionGrade | None, Stop]:
    """The judge's verdicts on the episode environment's assertions, if it has any to grade.

    Returns the grade (None: nothing to grade) and the stop, which becomes an infrastructure
    error when the judge's provider failed after its retries.
    """
    ask = getattr(ep.env, "natural_language_assertions", None)
    assertions = ask() if callable(ask) else []
    if not assertions or stop.reason not in _FINISHED:
        return None, stop
    try:
        verdicts, why = await judge_assertions(ep.judge, assertions, transcript)
    except ModelError as exc:
        return None, Stop(reason=StopReason.INFRA_ERROR, detail=f"judging the assertions: {exc}")
    return AssertionGrade(verdicts, why), stop


async def judge_assertions(
    judge: ChatModel | None, assertions: Sequence[str], transcript: Sequence[Utterance]
) -> tuple[list[bool] | None, str]:
    """One verdict per assertion, or None and why there is none.

    The conversation is sent as `user:`/`assistant:` lines in the user message: what the agent
    said is material to grade, never the judge's instructions.

    Raises:
        ModelError: the judge's provider failed after its retries.
    """
    if judge is None:
        return None, "no judge model: add [models.judge] to grade natural-language assertions"
    lines = [f"{'assistant' if u.role == 'agent' else 'user'}: {u.text}" for u in transcript]
    request = ChatRequest(
        messages=[
            ChatMessage(role="system", content=_SYSTEM),
            ChatMessage(
                role="user",
                content="Conversation:\n" + "\n".join(lines) + "\n\nExpected outcomes (JSON):\n"
                + json.dumps(list(assertions), ensure_ascii=False),
            ),
        ],
        temperature=0.0,
    )
    try:
        answer, _calls = await complete_json(judge, request, AssertionVerdicts)
    except InvalidOutputError as exc:  # it answered, never in shape
        return None, f"the judge gave no verdicts on the natural-language assertions: {exc}"
    if len(answer.results) != len(assertions):
        return None, (
            f"the judge graded {len(answer.results)} of {len(assertions)} natural-language "
            "assertions"
        )
    return [result.met for result in answer.results], ""
