"""The housing association's repairs system the desk works through: `RepairsEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.repairs import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "OH" + re.sub(r"\D", "", text)


def norm_address(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def slot_start(slot: dict[str, Any]) -> datetime:
    hour = int(_seed.WINDOWS[slot["window"]][0][:2])
    return datetime.fromisoformat(slot["day"]).replace(hour=hour, tzinfo=_seed.UK)


class Tenancy(BaseModel):
    tenancy_ref: str = Field(description="The tenancy reference, e.g. OH20101")


class Verify(Tenancy):
    date_of_birth: str = Field(description="The caller's date of birth, YYYY-MM-DD")


class Address(BaseModel):
    address: str = Field(description="A property's address, e.g. 'Flat 2, 8 Hazel Court'")


class FindSlots(BaseModel):
    trade: str = Field(description="plumbing, electrical, joinery, heating, glazing or surveyor")
    first_day: str = Field(description="YYYY-MM-DD")
    last_day: str = Field(description="YYYY-MM-DD")


class ReportRepair(Tenancy):
    problem: str = Field(description="What is wrong and where, in a few words")
    trade: str = Field(description="plumbing, electrical, joinery, heating or glazing")
    priority: str = Field(description="emergency, urgent or routine")
    slot_id: str = Field(description="A free slot of that trade, e.g. PL-1211-AM")
    reported_by: str = Field(description="The caller's name")
    recharge_pence: int = Field(default=0, description="The recharge quoted and accepted, or 0")


class RepairRef(Tenancy):
    repair_id: str = Field(description="e.g. RP7005")


class Reschedule(RepairRef):
    slot_id: str = Field(description="The new slot, same trade")


class Access(Tenancy):
    call_ahead_phone: str = Field(description="The number contractors ring before arriving")


class Vulnerability(Tenancy):
    kind: str = Field(description="age, disability, health or young_child")


class Inspection(Tenancy):
    slot_id: str = Field(description="A free surveyor slot, e.g. SV-1210-AM")
    rooms: str = Field(description="The rooms affected, e.g. 'bathroom, bedroom'")


class Complaint(Tenancy):
    summary: str = Field(description="What the complaint is about")
    respond_by: str = Field(description="The stage 1 response date the desk told, YYYY-MM-DD")


class Escalate(Tenancy):
    complaint_id: str = Field(description="e.g. CP3017")
    respond_by: str = Field(description="The stage 2 response date the desk told, YYYY-MM-DD")


class RepairsEnvironment(SqliteEnvironment):
    """Oakmere Homes: tenancies, household members, contractors' slots, repairs, complaints."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "tenancy_ref": ["tenancy reference", "tenancy number"],
        "date_of_birth": ["date of birth"],
        "problem": ["what's the problem", "what is wrong", "what needs repairing"],
        "new_date": ["which day", "instead"],
        "call_ahead_phone": ["which number", "ring before"],
        "rooms": ["which rooms"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _tenancy(self, ref: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM tenancies WHERE tenancy_ref = ?", norm_ref(ref))
        if found is None:
            raise ToolFailure(f"no tenancy {ref}")
        return found

    def _slot(self, slot_id: str) -> dict[str, Any]:
        slot = self._one("SELECT * FROM slots WHERE slot_id = ?", slot_id.strip().upper())
        if slot is None:
            raise ToolFailure(f"no slot {slot_id}")
        if slot["taken"]:
            raise ToolFailure(f"slot {slot['slot_id']} is already taken")
        return slot

    def _repair(self, t: dict[str, Any], repair_id: str) -> dict[str, Any]:
        r = self._one("SELECT * FROM repairs WHERE repair_id = ?", repair_id.strip().upper())
        if r is None or r["tenancy_ref"] != t["tenancy_ref"]:
            raise ToolFailure(f"no repair {repair_id} on this tenancy")
        if r["status"] != "booked":
            raise ToolFailure(f"repair {r['repair_id']} is {r['status']}")
        return r

    def _not_dispatched(self, r: dict[str, Any]) -> dict[str, Any]:
        current = self._one("SELECT * FROM slots WHERE slot_id = ?", r["slot_id"])
        if current and slot_start(current) - self.now() < timedelta(hours=_seed.CHANGE_HOURS):
            raise ToolFailure(
                "the appointment starts within 24 hours and the contractor has been dispatched: "
                "it can't be changed or cancelled here"
            )
        return current or {}

    def target(self, priority: str) -> datetime:
        """The latest start an appointment of this priority may have."""
        today = self.now().date()
        if priority == "emergency":
            return self.now() + timedelta(hours=_seed.EMERGENCY_HOURS)
        if priority == "urgent":
            day = _seed.add_working_days(today, _seed.URGENT_WORKING_DAYS)
        else:
            day = today + timedelta(days=_seed.ROUTINE_DAYS)
        return datetime.combine(day, datetime.max.time(), tzinfo=_seed.UK)

    def view(self, ref: str) -> dict[str, Any]:
        """The tenancy as staff see it: household (no dates of birth), repairs, complaints."""
        t = self._tenancy(ref)
        repairs = self._rows(
            "SELECT r.*, s.day, s.window FROM repairs r LEFT JOIN slots s USING (slot_id) "
            "WHERE r.tenancy_ref = ? AND r.status = 'booked' ORDER BY s.day",
            t["tenancy_ref"],
        )
        return {
            **t,
            "household": self._rows(
                "SELECT person_id, name, role FROM people WHERE tenancy_ref = ?", t["tenancy_ref"]
            ),
            "repairs": repairs,
            "inspections": self._rows(
                "SELECT i.*, s.day, s.window FROM inspections i JOIN slots s USING (slot_id) "
                "WHERE i.tenancy_ref = ?",
                t["tenancy_ref"],
            ),
            "complaints": self._rows(
                "SELECT * FROM complaints WHERE tenancy_ref = ? ORDER BY opened", t["tenancy_ref"]
            ),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the tenancy reference and the caller's own date of birth "
        "must match a person on that tenancy. Returns the caller (name, role) and the tenancy."
    )
    def verify_caller(self, args: Verify) -> dict[str, Any]:
        person = self._one(
            "SELECT * FROM people WHERE tenancy_ref = ? AND date_of_birth = ?",
            norm_ref(args.tenancy_ref),
            args.date_of_birth.strip(),
        )
        if person is None:
            raise ToolFailure("verification failed: nobody on that tenancy matches those details")
        return {"caller": person["name"], "role": person["role"], "person_id": person["person_id"],
                "tenancy": self.view(person["tenancy_ref"])}  # fmt: skip

    @tool("Read a tenancy (staff view, after verify_caller only).")
    def get_tenancy(self, args: Tenancy) -> dict[str, Any]:
        return self.view(args.tenancy_ref)

    @tool("Find the tenancy at an address (staff only: never a way to identify a caller).")
    def find_tenancy(self, args: Address) -> dict[str, Any]:
        wanted = norm_address(args.address)
        for t in self._rows("SELECT tenancy_ref, address FROM tenancies"):
            if norm_address(t["address"]) == wanted:
                return t
        raise ToolFailure(f"no tenancy at {args.address}")

    @tool("Free slots of a trade between two days (inclusive), earliest first.")
    def find_slots(self, args: FindSlots) -> dict[str, Any]:
        trade = args.trade.strip().lower()
        if trade not in _seed.TRADES.values():
            raise ToolFailure(f"no trade {args.trade!r}")
        slots = self._rows(
            "SELECT slot_id, day, window FROM slots WHERE trade = ? AND taken = 0 AND day >= ? "
            "AND day <= ? ORDER BY day, CASE window WHEN 'EM' THEN 0 WHEN 'AM' THEN 1 ELSE 2 END",
            trade,
            args.first_day,
            args.last_day,
        )
        for s in slots:
            s["hours"] = "–".join(_seed.WINDOWS[s["window"]])
        return {"trade": trade, "slots": slots}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Report a repair and book it into a contractor's slot. Refuses a slot of another trade, "
        "an emergency slot for a non-emergency, and a slot after the priority's target. The "
        "system does not check who is calling, the priority or the recharge: the desk must."
    )
    def report_repair(self, args: ReportRepair) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        priority, trade = args.priority.strip().lower(), args.trade.strip().lower()
        if priority not in {"emergency", "urgent", "routine"}:
            raise ToolFailure("priority must be emergency, urgent or routine")
        slot = self._slot(args.slot_id)
        if slot["trade"] != trade or trade == "surveyor":
            raise ToolFailure(f"slot {slot['slot_id']} is not a {trade} slot")
        if slot["window"] == "EM" and priority != "emergency":
            raise ToolFailure("emergency slots are kept for emergency repairs")
        due = self.target(priority)
        if slot_start(slot) > due:
            raise ToolFailure(f"slot {slot['slot_id']} is after the {priority} target")
        last = self.db.execute("SELECT MAX(CAST(substr(repair_id, 3) AS INTEGER)) FROM repairs")
        repair_id = f"RP{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO repairs (repair_id, tenancy_ref, problem, trade, priority, due_by, "
            "slot_id, reported_by, recharge_pence) VALUES (?,?,?,?,?,?,?,?,?)",
            (repair_id, t["tenancy_ref"], args.problem.strip(), trade, priority,
             due.date().isoformat(), slot["slot_id"], args.reported_by.strip(),
             args.recharge_pence),
        )  # fmt: skip
        self.db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        if args.recharge_pence:
            pay_by = self.now().date() + timedelta(days=_seed.RECHARGE_PAY_DAYS)
            self.db.execute(
                "INSERT INTO recharges (tenancy_ref, repair_id, amount_pence, due, created_at) "
                "VALUES (?,?,?,?,?)",
                (t["tenancy_ref"], repair_id, args.recharge_pence, pay_by.isoformat(),
                 self.now().strftime(_seed.STAMP)),
            )  # fmt: skip
        return {"repair_id": repair_id, "trade": trade, "priority": priority,
                "day": slot["day"], "window": slot["window"],
                "hours": "–".join(_seed.WINDOWS[slot["window"]]),
                "recharge": money(args.recharge_pence)}  # fmt: skip

    @tool(
        "Move a repair's appointment to another free slot of the same trade. Refuses an "
        "appointment starting within 24 hours (the contractor is dispatched) and a slot more "
        "than 28 days ahead."
    )
    def reschedule_repair(self, args: Reschedule) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        r = self._repair(t, args.repair_id)
        self._not_dispatched(r)
        slot = self._slot(args.slot_id)
        if slot["trade"] != r["trade"] or slot["window"] == "EM":
            raise ToolFailure(f"slot {slot['slot_id']} is not a {r['trade']} appointment slot")
        limit = self.now().date() + timedelta(days=_seed.MAX_AHEAD_DAYS)
        if date.fromisoformat(slot["day"]) > limit:
            raise ToolFailure("appointments can't be moved more than 28 days ahead")
        self.db.execute("UPDATE slots SET taken = 0 WHERE slot_id = ?", (r["slot_id"],))
        self.db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        self.db.execute(
            "UPDATE repairs SET slot_id = ? WHERE repair_id = ?", (slot["slot_id"], r["repair_id"])
        )
        return {"repair_id": r["repair_id"], "day": slot["day"], "window": slot["window"],
                "hours": "–".join(_seed.WINDOWS[slot["window"]])}  # fmt: skip

    @tool("Cancel a repair and free its slot. Refuses one starting within 24 hours.")
    def cancel_repair(self, args: RepairRef) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        r = self._repair(t, args.repair_id)
        self._not_dispatched(r)
        self.db.execute("UPDATE slots SET taken = 0 WHERE slot_id = ?", (r["slot_id"],))
        self.db.execute(
            "UPDATE repairs SET status = 'cancelled' WHERE repair_id = ?", (r["repair_id"],)
        )
        return {"repair_id": r["repair_id"], "status": "cancelled"}

    @tool("Set the number contractors ring before arriving (the access arrangements).")
    def update_access(self, args: Access) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        if len(re.sub(r"\D", "", args.call_ahead_phone)) != 11:
            raise ToolFailure(f"{args.call_ahead_phone!r} is not a UK phone number")
        self.db.execute(
            "UPDATE tenancies SET call_ahead_phone = ? WHERE tenancy_ref = ?",
            (args.call_ahead_phone.strip(), t["tenancy_ref"]),
        )
        return {"tenancy_ref": t["tenancy_ref"], "call_ahead_phone": args.call_ahead_phone.strip()}

    @tool("Add a vulnerability note to the tenancy: age, disability, health or young_child.")
    def add_vulnerability(self, args: Vulnerability) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        kind = args.kind.strip().lower()
        if kind not in _seed.VULNERABILITIES:
            raise ToolFailure("kind must be age, disability, health or young_child")
        kinds = [k for k in t["vulnerability"].split(",") if k]
        if kind not in kinds:
            kinds.append(kind)
        self.db.execute(
            "UPDATE tenancies SET vulnerability = ? WHERE tenancy_ref = ?",
            (",".join(kinds), t["tenancy_ref"]),
        )
        return {"tenancy_ref": t["tenancy_ref"], "vulnerability": ",".join(kinds)}

    @tool(
        "Book a free damp-and-mould inspection in a surveyor's slot; refuses a slot more than "
        "10 working days away."
    )
    def book_inspection(self, args: Inspection) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        slot = self._slot(args.slot_id)
        if slot["trade"] != "surveyor":
            raise ToolFailure(f"slot {slot['slot_id']} is not a surveyor's slot")
        last = _seed.add_working_days(self.now().date(), _seed.DAMP_WORKING_DAYS)
        if date.fromisoformat(slot["day"]) > last:
            raise ToolFailure("damp inspections are booked within 10 working days")
        count = self.db.execute("SELECT COUNT(*) FROM inspections").fetchone()[0]
        inspection_id = f"DM{901 + count}"
        self.db.execute(
            "INSERT INTO inspections (inspection_id, tenancy_ref, rooms, slot_id) VALUES (?,?,?,?)",
            (inspection_id, t["tenancy_ref"], args.rooms.strip(), slot["slot_id"]),
        )
        self.db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        return {"inspection_id": inspection_id, "day": slot["day"], "window": slot["window"],
                "hours": "–".join(_seed.WINDOWS[slot["window"]]),
                "rooms": args.rooms.strip()}  # fmt: skip

    @tool(
        "Log a stage 1 complaint with the response date the desk told the tenant. The system "
        "does not work out the date: the desk must."
    )
    def log_complaint(self, args: Complaint) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        last = self.db.execute("SELECT MAX(CAST(substr(complaint_id, 3) AS INTEGER)) FROM "
                               "complaints")  # fmt: skip
        complaint_id = f"CP{(last.fetchone()[0] or 3000) + 1}"
        self.db.execute(
            "INSERT INTO complaints VALUES (?,?,?,?,?,?,?)",
            (complaint_id, t["tenancy_ref"], args.summary.strip(), 1,
             self.now().date().isoformat(), args.respond_by, "open"),
        )  # fmt: skip
        return {"complaint_id": complaint_id, "stage": 1, "respond_by": args.respond_by}

    @tool(
        "Escalate a complaint to stage 2 with the response date the desk told. Refuses a stage 1 "
        "complaint still waiting for its response before its date."
    )
    def escalate_complaint(self, args: Escalate) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        c = self._one("SELECT * FROM complaints WHERE complaint_id = ? AND tenancy_ref = ?",
                      args.complaint_id.strip().upper(), t["tenancy_ref"])  # fmt: skip
        if c is None:
            raise ToolFailure(f"no complaint {args.complaint_id} on this tenancy")
        if c["stage"] != 1:
            raise ToolFailure(f"complaint {c['complaint_id']} is already at stage {c['stage']}")
        if c["status"] == "open" and c["respond_by"] >= self.now().date().isoformat():
            raise ToolFailure("the stage 1 response is not yet due")
        self.db.execute(
            "UPDATE complaints SET stage = 2, status = 'open', respond_by = ? "
            "WHERE complaint_id = ?",
            (args.respond_by, c["complaint_id"]),
        )
        return {"complaint_id": c["complaint_id"], "stage": 2, "respond_by": args.respond_by}


def make_environment() -> RepairsEnvironment:
    """A fresh repairs system, from the seed data."""
    return RepairsEnvironment()
