"""Builders for the bike-desk tests: a chat driver and a plain reading of scenario criteria."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bikes import BikeDeskAgent, BikeEnvironment, make_environment

from vistasim.agent import Reply, Turn, Utterance
from vistasim.events import ToolCall
from vistasim.scenario import ActionCriterion, Scenario, load_scenarios

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "bikes" / "scenarios.yaml"

LENA = "lena.vogel@example.com"
TOMAS = "tomas.ferreira@example.com"
AIKO = "aiko.tanaka@example.com"
NOAH = "noah.becker@example.com"
SOFIA = "sofia.marin@example.com"
MAREK = "marek.nowak@example.com"
PRIYA = "priya.raman@example.com"
JONAS = "jonas.weber@example.com"
INES = "ines.duarte@example.com"
OSKAR = "oskar.lind@example.com"
HANNAH = "hannah.klein@example.com"


def scenarios() -> dict[str, Scenario]:
    return {s.id: s for s in load_scenarios(SCENARIOS)}


class Chat:
    """One conversation with a desk agent over a fresh environment, history passed each turn."""

    def __init__(self, agent_cls: type = BikeDeskAgent, *, episode_id: str = "bikes-test"):
        self.env: BikeEnvironment = make_environment()
        self.agent = agent_cls(env=self.env)
        self.episode_id = episode_id
        self.history: list[Utterance] = []
        self.replies: list[Reply] = []

    async def say(self, message: str) -> Reply:
        turn = Turn(episode_id=self.episode_id, message=message, history=tuple(self.history))
        reply = await self.agent.respond(turn)
        self.history += [
            Utterance(role="user", text=message),
            Utterance(role="agent", text=reply.text),
        ]
        self.replies.append(reply)
        return reply

    async def run(self, *messages: str) -> list[Reply]:
        return [await self.say(m) for m in messages]

    @property
    def calls(self) -> list[ToolCall]:
        return [c for r in self.replies for c in r.tool_calls]

    def called(self, name: str) -> list[ToolCall]:
        return [c for c in self.calls if c.name == name]

    @property
    def text(self) -> str:
        return "\n".join(r.text for r in self.replies)


def _matches(call: ToolCall, criterion: ActionCriterion) -> bool:
    if call.name != criterion.tool:
        return False
    if criterion.match == "exact":
        return call.args == criterion.args
    return all(call.args.get(k) == v for k, v in criterion.args.items())


def failed_criteria(scenario: Scenario, chat: Chat) -> list[str]:
    """Every criterion of `scenario` that does not hold at the end of `chat` (empty: all hold)."""
    problems: list[str] = []
    for s in scenario.criteria.state:
        rows = chat.env.select(s.table, dict(s.where))
        if s.count is not None and len(rows) != s.count:
            problems.append(f"state {s.table} {s.where}: {len(rows)} rows, expected {s.count}")
        if s.expect and not rows:
            problems.append(f"state {s.table} {s.where}: no rows")
        for row in rows:
            for key, value in s.expect.items():
                if row[key] != value:
                    problems.append(f"state {s.table} {s.where}: {key}={row[key]!r} != {value!r}")
    for a in scenario.criteria.actions:
        if not any(_matches(c, a) and c.error is None for c in chat.calls):
            problems.append(f"missing action {a.tool} {a.args}")
    for f in scenario.criteria.forbidden_actions:
        if any(_matches(c, f) for c in chat.calls):
            problems.append(f"forbidden action {f.tool} {f.args}")
    said = [r.text.lower() for r in chat.replies]
    for st in scenario.criteria.statements:
        if st.contains_any and not any(n.lower() in t for t in said for n in st.contains_any):
            problems.append(f"no statement with any of {st.contains_any}")
        for needle in st.contains_all:
            if not any(needle.lower() in t for t in said):
                problems.append(f"no statement with {needle!r}")
    return problems
