"""The agenda user's memory: a stack of sub-goals, as plain JSON that snapshots hold."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from vistasim.scenario import Behaviour, BehaviourOp, Scalar


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AgendaEntry(_Strict):
    """One sub-goal on the agenda stack."""

    intent: str
    slots: dict[str, Scalar] = Field(default_factory=dict)
    task: str | None = None
    """Words for the request; the first entry uses the scenario's goal text."""
    behaviours: list[Behaviour] = Field(default_factory=list)
    """How the user plays this sub-goal (the scenario's `behaviours`)."""
    played: list[BehaviourOp] = Field(default_factory=list)
    """Behaviours already played (each is played once)."""
    api_tried: bool = False
    """The user already called the matching user-side API for this entry."""
    web_step: int = 0
    """Steps of the entry's web skill already taken."""
    web_off: bool = False
    """The web route failed for this entry: the user now asks in chat."""
    to_chat: bool = False
    """The user leaves the page for the chat at its next step (a DIVERT `chat_instead`): it asks
    for this sub-goal there in so many words."""
    resumed: bool = False
    """After hesitating (`then: confirm`) the user came back and said to go ahead."""
    web_facts: dict[str, str] = Field(default_factory=dict)
    """What the web skill's steps learned on the pages (`bind`), for its later steps."""
    asked: bool = False
    """The user already asked for this sub-goal (with another one: `combine`, `second_request`)."""
    fallback: str | None = None
    """What the goal allows when this sub-goal is not possible ("if not possible, ...")."""
    fallback_used: bool = False
    """The fallback is now the request: the first request's values are no longer checked."""
    alternative_asked: bool = False
    """After an unavailability the user asked once for another option."""
    refused_with: str | None = None
    """The unavailability it asked another option for (the stop reason if none comes)."""

    def pending(self, op: BehaviourOp) -> Behaviour | None:
        """The behaviour `op` of this entry, if it is still to be played."""
        if op in self.played:
            return None
        return next((b for b in self.behaviours if b.op == op), None)

    def has(self, op: BehaviourOp) -> Behaviour | None:
        """The behaviour `op` of this entry, played or not."""
        return next((b for b in self.behaviours if b.op == op), None)


class AgendaState(_Strict):
    """Everything the agenda policy remembers between steps (stored in snapshots)."""

    seed: int
    step: int = 0
    """Number of actions taken; with `seed` it seeds this step's RNG."""
    stack: list[AgendaEntry]
    """Sub-goals still to do, the current one first."""
    patience: int
    """Unhelpful agent turns still tolerated; the next one at 0 makes the user give up."""
    full_patience: int = 3
    """The persona's patience, restored when the user moves on to its next sub-goal."""
    greeted: bool = False
    pending_api: str | None = None
    """Name of the API called last step, whose result the next step reads."""
    rejected: list[str] = Field(default_factory=list)
    """Values the user objected to; proposing one again is an unhelpful turn."""
    unread: int = 0
    """Agent turns in a row the user could not read (no question, proposal, answer, refusal or
    report it recognises); at the policy's limit it stops: it could not follow the agent."""
    refusals: list[str] = Field(default_factory=list)
    """Refusals the user could not accept (its goal allows no other way), for the stop detail."""

    def with_entry(self, **changes: object) -> AgendaState:
        """This state with the current entry changed."""
        entry = self.stack[0].model_copy(update=changes)
        return self.model_copy(update={"stack": [entry, *self.stack[1:]]})

    def played(self, op: BehaviourOp) -> AgendaState:
        """This state with `op` marked as played on the current entry."""
        return self.with_entry(played=[*self.stack[0].played, op])

    def popped(self) -> AgendaState:
        """This state with the current entry done."""
        return self.model_copy(update={"stack": self.stack[1:]})
