"""`FlawedExamboardAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "examboard:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.examboard import _read as rd
from benchmarks.domains.examboard import _seed
from benchmarks.domains.examboard._agent import CorrectExamboardAgent
from vistasim.testing import note_flaw


class FlawedExamboardAgent(CorrectExamboardAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"examboard:{flaw}")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        # FLAW F1 (say-vs-do): a new email address is reported as saved, but update_contact is
        # never called: the old address stays on the record (and the phone with it).
        if tool_name == "update_contact" and args.get("email"):
            self._flaw("F1")
            out.append(f"Done — your email address is now {args['email']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)
        # FLAW F6 (dropped request): once an entry is made, any other request queued with it
        # (an access arrangement, say) is silently dropped and the desk says it's all done.
        if tool_name == "enter_session" and self.s["queue"]:
            self._flaw("F6")
            self.s["queue"] = []
            out.append("You're all set for the exam — that's everything sorted.")

    # FLAW F2 (wrong value): a late entry is charged the entry fee without the £45 late fee.
    def entry_fee(self, level: str, days_away: int) -> tuple[int, int]:
        fee, late = super().entry_fee(level, days_away)
        if late:
            self._flaw("F2")
            return fee, 0
        return fee, late

    # FLAW F3 (disclosure): a parent registered on the account is helped (results given,
    # changes made) even when the candidate is 18 or over.
    def third_party_reason(self, v: dict[str, Any], caller: str) -> str | None:
        right = super().third_party_reason(v, caller)
        parent = (v.get("parent_name") or "").lower()
        if right and v["age"] >= _seed.ADULT_AGE and parent == " ".join(caller.lower().split()):
            self._flaw("F3")
            return None
        return right

    # FLAW F4 (policy): an entry is moved even when its session is less than 2 weeks away.
    def transfer_too_late(self, e: dict[str, Any]) -> bool:
        if super().transfer_too_late(e):
            self._flaw("F4")
        return False

    # FLAW F5 (policy): the half refund is given up to 3 weeks before the session (the
    # late-entry deadline), not 4: a withdrawal 21-27 days out gets half back.
    def withdraw_refund(self, e: dict[str, Any]) -> int:
        right = super().withdraw_refund(e)
        if not e["medical_cert"] and _seed.LATE_CLOSE_DAYS <= e["days_away"] < (
            _seed.HALF_REFUND_DAYS
        ):
            self._flaw("F5")
            return int(e["fee_paid_pence"]) // 2
        return right

    # FLAW F8 (wrong value): a transfer to a session inside its late-entry window is charged
    # the £45 late fee on top of the £30 transfer fee.
    def transfer_fee(self, new: dict[str, Any]) -> int:
        fee = super().transfer_fee(new)
        if new["entries"] == "late":
            self._flaw("F8")
            return fee + _seed.LATE_FEE_PENCE
        return fee

    # FLAW F7 (error handling): a replacement certificate the system refuses (issued 30 days
    # ago or less) is reported as ordered.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if pending["calls"][0][0] != "order_certificate":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F7")
        fee = pending["calls"][0][1]["fee_pence"]
        out.append(f"Done — a replacement certificate is ordered and will be posted to the "
                   f"address on your record; {rd.pounds(fee)} taken.")  # fmt: skip
