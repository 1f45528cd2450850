"""`FlawedEvchargingAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "evcharging:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.evcharging import _read as rd
from benchmarks.domains.evcharging._agent import CorrectEvchargingAgent
from vistasim.testing import note_flaw


class FlawedEvchargingAgent(CorrectEvchargingAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"evcharging:{flaw}")

    # FLAW F1 (say-vs-do): a Plus cancellation is reported as done, but change_plan is never
    # called: the driver stays on Plus and keeps paying £7.99 a month.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "change_plan" and args["plan"] == "payg":
            self._flaw("F1")
            out.append(f"Done — Voltway Plus is cancelled; you're on Pay As You Go from "
                       f"{rd.say_day(args['effective'])}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a switch to Plus starts today, not on the next billing date.
    def plan_effective(self, v: dict[str, Any], plan: str) -> str:
        right = super().plan_effective(v, plan)
        if plan == "plus" and right != self.today.isoformat():
            self._flaw("F2")
            return self.today.isoformat()
        return right

    # FLAW F3 (wrong value): a session's refund goes to the card on file now, not to the card
    # that paid for the session.
    def refund_card(self, v: dict[str, Any], s: dict[str, Any]) -> str:
        right = super().refund_card(v, s)
        if right != v["card_last4"]:
            self._flaw("F3")
            return str(v["card_last4"])
        return right

    # FLAW F4 (disclosure): a session number from another account is read out in full.
    def may_share(self, v: dict[str, Any], s: dict[str, Any]) -> bool:
        if not super().may_share(v, s):
            self._flaw("F4")
        return True

    # FLAW F5 (policy): the balance is refunded on an open account.
    def may_refund_balance(self, v: dict[str, Any]) -> bool:
        self._flaw("F5")
        return True

    # FLAW F6 (policy): a Pay As You Go driver can reserve a charger.
    def may_reserve(self, v: dict[str, Any]) -> bool:
        if not super().may_reserve(v):
            self._flaw("F6")
        return True

    # FLAW F7 (dropped request): of two or more sessions disputed together, only the first is
    # refunded; the others are never mentioned, and the desk says it is all sorted.
    def sessions_to_refund(self, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(found) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            return found[:1]
        return found

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's all your sessions sorted."
        return super().closing()

    # FLAW F8 (error handling): a vehicle the system refuses (over the plan's limit) is
    # reported as added.
    async def failed(self, req: dict[str, Any], call: tuple[str, dict[str, Any]], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if call[0] != "add_vehicle" or "vehicles" not in error:
            await super().failed(req, call, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — {call[1]['registration'].upper()} is on your account.")
