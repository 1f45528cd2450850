"""A small clinic appointment desk, written for these tests only (not a shipped domain).

Eight tools whose argument names the agenda user learns its lexicon from (`date_of_birth`,
`appointment_id`, `channel`...), and a clock: `now()` is Thursday 12 March 2026, 09:00, so
"next Thursday" is 19 March and "Friday 20 March" is not.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from vistasim.env import SqliteEnvironment, ToolFailure, tool
from vistasim.scenario import Scenario

NOW = datetime(2026, 3, 12, 9, 0)  # noqa: DTZ001 - the desk's local wall clock

SCHEMA = """
CREATE TABLE patients (id TEXT PRIMARY KEY, name TEXT, date_of_birth TEXT, phone TEXT);
CREATE TABLE slots (id TEXT PRIMARY KEY, doctor TEXT, starts_at TEXT, free INTEGER);
CREATE TABLE appointments (id TEXT PRIMARY KEY, patient_id TEXT, slot_id TEXT, status TEXT);
CREATE TABLE reminders (appointment_id TEXT, channel TEXT);
"""


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FindPatient(_Args):
    name: str
    date_of_birth: str


class ListSlots(_Args):
    doctor: str
    date: str


class Book(_Args):
    patient_id: str
    slot_id: str


class AppointmentArgs(_Args):
    appointment_id: str


class Reschedule(_Args):
    appointment_id: str
    slot_id: str


class Reminder(_Args):
    appointment_id: str
    channel: str


class Empty(_Args):
    pass


class ClinicDesk(SqliteEnvironment):
    """Patients, free slots, appointments and reminders of one clinic."""

    SCHEMA_SQL = SCHEMA

    def seed(self, db):  # type: ignore[no-untyped-def]
        db.execute("INSERT INTO patients VALUES ('P1', 'Ana Ruiz', '1969-11-02', '555-0142')")
        db.executemany(
            "INSERT INTO slots VALUES (?, ?, ?, 1)",
            [("S1", "Dr Lee", "2026-03-19T10:00"), ("S2", "Dr Lee", "2026-03-20T10:00")],
        )
        db.execute("INSERT INTO appointments VALUES ('A1001', 'P1', 'S2', 'booked')")

    def now(self) -> datetime:
        """The desk's clock: every episode starts on the same morning."""
        return NOW

    @tool("Find a patient by name and date of birth.")
    def find_patient(self, args: FindPatient):  # type: ignore[no-untyped-def]
        row = self.db.execute(
            "SELECT id FROM patients WHERE name = ? AND date_of_birth = ?",
            (args.name, args.date_of_birth),
        ).fetchone()
        if row is None:
            raise ToolFailure("no such patient")
        return {"patient_id": row["id"]}

    @tool("Free slots of a doctor on a date.")
    def list_slots(self, args: ListSlots):  # type: ignore[no-untyped-def]
        rows = self.db.execute(
            "SELECT id, starts_at FROM slots WHERE doctor = ? AND starts_at LIKE ? AND free = 1",
            (args.doctor, f"{args.date}%"),
        )
        return [dict(r) for r in rows]

    @tool("Book a slot for a patient.")
    def book_appointment(self, args: Book):  # type: ignore[no-untyped-def]
        self.db.execute("UPDATE slots SET free = 0 WHERE id = ?", (args.slot_id,))
        self.db.execute(
            "INSERT INTO appointments VALUES ('A1002', ?, ?, 'booked')",
            (args.patient_id, args.slot_id),
        )
        return {"appointment_id": "A1002"}

    @tool("Cancel an appointment.")
    def cancel_appointment(self, args: AppointmentArgs):  # type: ignore[no-untyped-def]
        self.db.execute(
            "UPDATE appointments SET status = 'cancelled' WHERE id = ?", (args.appointment_id,)
        )
        return {"status": "cancelled"}

    @tool("Move an appointment to another slot.")
    def reschedule_appointment(self, args: Reschedule):  # type: ignore[no-untyped-def]
        self.db.execute(
            "UPDATE appointments SET slot_id = ? WHERE id = ?", (args.slot_id, args.appointment_id)
        )
        return {"status": "moved"}

    @tool("Send an appointment reminder by sms or email.")
    def send_reminder(self, args: Reminder):  # type: ignore[no-untyped-def]
        self.db.execute("INSERT INTO reminders VALUES (?, ?)", (args.appointment_id, args.channel))
        return {"sent": True}

    @tool("One appointment.")
    def get_appointment(self, args: AppointmentArgs):  # type: ignore[no-untyped-def]
        row = self.db.execute("SELECT * FROM appointments WHERE id = ?", (args.appointment_id,))
        return dict(row.fetchone() or {})

    @tool("Opening hours.")
    def clinic_hours(self, args: Empty):  # type: ignore[no-untyped-def]
        return {"open": "08:00", "close": "18:00"}


TOOLS = tuple(ClinicDesk().agent_tools())


def patient(goal: str, **fields: object) -> Scenario:
    """A clinic scenario: Ana Ruiz, whose date of birth is in her knowledge."""
    data: dict[str, object] = {
        "id": "clinic",
        "persona": {"name": "Ana Ruiz", "style": {"verbosity": "low", "patience": 3}},
        "goal": goal,
        "knowledge": {"name": "Ana Ruiz", "date_of_birth": "1969-11-02"},
    }
    data.update(fields)
    return Scenario.model_validate(data)
