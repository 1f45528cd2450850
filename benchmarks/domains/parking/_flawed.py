"""The parking desk bot with seven bugs, each noted with `note_flaw` when it changes the reply."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.parking._agent import CorrectParkingAgent
from vistasim.testing import note_flaw

TODAY = date(2026, 12, 3)


class FlawedParkingAgent(CorrectParkingAgent):
    """The same desk bot, with the bugs listed in the README's flaw log."""

    def flaw(self, name: str) -> bool:
        if self._turn is not None:
            note_flaw(self._turn, f"parking:{name}")
        return True

    # F2: the refund quoted is worked out from today, not from the date the permit ends.
    def flaw_wrong_refund(self, eff: str) -> bool:
        if eff != TODAY.isoformat():
            return self.flaw("F2")
        return False

    # F4: the 14 days of the discount are counted from the day after the notice was issued.
    def flaw_late_discount(self, pcn: dict[str, Any]) -> bool:
        issued = date.fromisoformat(pcn["issued_on"])
        if TODAY <= issued + timedelta(days=15):
            return self.flaw("F4")
        return False

    # F7: a resident who says they moved or sold the car is taken as having confirmed.
    def flaw_no_confirm_cancel(self) -> bool:
        turn = self._turn
        if turn is None:
            return False
        said = " ".join([u.text for u in turn.history if u.role == "user"] + [turn.message])
        if re.search(r"\b(moved|moving|sold|selling|move out|moving out)\b", said.lower()):
            return self.flaw("F7")
        return False
