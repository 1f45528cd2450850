"""The practice system the desk's agent works through: `DentalEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from benchmarks.domains.dental import _seed
from benchmarks.domains.dental._args import (
    AppointmentArgs,
    BookAppointment,
    CancelAppointment,
    FindSlots,
    InvoiceArgs,
    MoveAppointment,
    PatientArgs,
    StartPaymentPlan,
    UpdateEmail,
    VerifyPatient,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

STAMP = _seed.STAMP


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 4 else squashed


class DentalEnvironment(SqliteEnvironment):
    """Brightsmile Dental: patients, slots, appointments, treatment plans, invoices, charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "date_of_birth": ["date of birth", "when were you born"],
        "postcode": ["postcode", "post code"],
        "appointment_date": ["which day", "what day", "which date"],
        "appointment_time": ["what time", "which time"],
        "new_date": ["which day would you like to move", "new day", "new date"],
        "new_time": ["new time", "which time would you like instead"],
        "appointment_id": ["appointment reference", "which appointment"],
        "symptoms": ["what's the problem", "are you in pain", "what's happened"],
        "months": ["how many months", "over how many months"],
        "email": ["new email", "email address"],
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

    def _stamp(self) -> str:
        return self.now().strftime(STAMP)

    def _patient(self, patient_id: str) -> dict[str, Any]:
        patient = self._one("SELECT * FROM patients WHERE patient_id = ?", patient_id.strip())
        if patient is None:
            raise ToolFailure(f"no patient {patient_id}")
        return patient

    def _appointment(self, appointment_id: str) -> dict[str, Any]:
        digits = re.sub(r"\D", "", appointment_id)
        appt = self._one("SELECT * FROM appointments WHERE appointment_id = ?", f"A-{digits}")
        if appt is None:
            raise ToolFailure(f"no appointment {appointment_id}")
        return appt

    def _free_slot(self, slot_id: str) -> dict[str, Any]:
        slot = self._one("SELECT * FROM slots WHERE slot_id = ?", slot_id.strip().upper())
        if slot is None:
            raise ToolFailure(f"no slot {slot_id}")
        if slot["taken"]:
            raise ToolFailure(f"slot {slot['slot_id']} is already taken")
        if slot["start_at"] <= self._stamp():
            raise ToolFailure("that slot is in the past")
        return slot

    def _charge(self, patient_id: str, kind: str, pence: int, card: str, ref: str) -> None:
        if pence:
            self.db.execute("INSERT INTO charges (patient_id, kind, amount_pence, card_last4, "
                            "ref, created_at) VALUES (?,?,?,?,?,?)",
                            (patient_id, kind, pence, card, ref, self._stamp()))

    def _view(self, appt: dict[str, Any]) -> dict[str, Any]:
        return {k: appt[k] for k in ("appointment_id", "kind", "clinician", "start_at", "reason",
                                     "status")}

    # -- identity and lookups --------------------------------------------------------------
    @tool("Check who the patient is from their date of birth and postcode. Returns the patient "
          "id and name.")
    def verify_patient(self, args: VerifyPatient) -> dict[str, Any]:
        try:
            born = date.fromisoformat(args.date_of_birth.strip()).isoformat()
        except ValueError:
            raise ToolFailure("date_of_birth must be YYYY-MM-DD") from None
        patient = self._one("SELECT * FROM patients WHERE date_of_birth = ? AND postcode = ?",
                            born, norm_postcode(args.postcode))
        if patient is None:
            raise ToolFailure("verification failed: those details do not match a patient")
        return {"verified": True, "patient_id": patient["patient_id"], "name": patient["name"]}

    @tool("A patient's record: band (nhs / private), email, card on file, appointments, "
          "treatment plans, invoices, and the staff note (internal: never read it out).")
    def get_patient(self, args: PatientArgs) -> dict[str, Any]:
        patient = self._patient(args.patient_id)
        pid = patient["patient_id"]
        appts = [self._view(dict(r)) for r in self.db.execute(
            "SELECT * FROM appointments WHERE patient_id = ? ORDER BY start_at", (pid,))]
        plans = [dict(r) for r in self.db.execute(
            "SELECT plan_id, description, band, total_pence, status, months, deposit_pence, "
            "monthly_pence FROM treatment_plans WHERE patient_id = ?", (pid,))]
        invoices = [dict(r) for r in self.db.execute(
            "SELECT invoice_id, description, amount_pence, paid_pence, refunded_pence, "
            "card_last4 FROM invoices WHERE patient_id = ?", (pid,))]
        return {"patient_id": pid, "name": patient["name"], "email": patient["email"],
                "band": patient["band"], "card_last4": patient["card_last4"],
                "appointments": appts, "treatment_plans": plans, "invoices": invoices,
                "staff_note": patient["staff_note"]}

    @tool("One appointment by its reference, with the patient's name. No ownership check: the "
          "desk must only read out the verified patient's own.")
    def get_appointment(self, args: AppointmentArgs) -> dict[str, Any]:
        appt = self._appointment(args.appointment_id)
        name = self._patient(appt["patient_id"])["name"]
        return {**self._view(appt), "patient_id": appt["patient_id"], "patient_name": name}

    @tool("Free slots of one kind on one day. Emergency slots exist for today only.")
    def find_slots(self, args: FindSlots) -> dict[str, Any]:
        try:
            day = date.fromisoformat(args.date.strip())
        except ValueError:
            raise ToolFailure("date must be YYYY-MM-DD") from None
        rows = self.db.execute(
            "SELECT slot_id, clinician, start_at FROM slots WHERE kind = ? AND taken = 0 AND "
            "start_at LIKE ? AND start_at > ? ORDER BY start_at, clinician",
            (args.kind, f"{day.isoformat()}%", self._stamp())).fetchall()
        return {"kind": args.kind, "date": day.isoformat(),
                "free": [{"slot_id": r["slot_id"], "time": r["start_at"][11:],
                          "clinician": r["clinician"]} for r in rows]}

    # -- changes ---------------------------------------------------------------------------
    @tool("Book a free slot for a patient. Nothing is charged now; the visit is paid on the day.")
    def book_appointment(self, args: BookAppointment) -> dict[str, Any]:
        patient = self._patient(args.patient_id)
        slot = self._free_slot(args.slot_id)
        if slot["kind"] == "emergency" and self._one(
                "SELECT 1 FROM appointments WHERE patient_id = ? AND kind = 'emergency' AND "
                "status = 'booked' AND start_at LIKE ?", patient["patient_id"],
                f"{slot['start_at'][:10]}%"):
            raise ToolFailure("the patient already has an emergency slot today")
        number = self.db.execute("SELECT COUNT(*) FROM appointments").fetchone()[0] + 1001
        aid = f"A-{number}"
        self.db.execute("INSERT INTO appointments (appointment_id, patient_id, slot_id, kind, "
                        "clinician, start_at, reason, status) VALUES (?,?,?,?,?,?,?,'booked')",
                        (aid, patient["patient_id"], slot["slot_id"], slot["kind"],
                         slot["clinician"], slot["start_at"], args.reason.strip()))
        self.db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        price = _seed.VISIT_PENCE[(slot["kind"], patient["band"])]
        return {"appointment_id": aid, "kind": slot["kind"], "clinician": slot["clinician"],
                "start_at": slot["start_at"], "price_at_visit": money(price)}

    @tool("Move an appointment to another free slot of the same kind. late_fee charges the "
          "£25.00 fee to the card on file; the system does not check the 24 hours: the desk must.")
    def move_appointment(self, args: MoveAppointment) -> dict[str, Any]:
        appt = self._appointment(args.appointment_id)
        if appt["status"] != "booked":
            raise ToolFailure(f"appointment {appt['appointment_id']} is {appt['status']}")
        slot = self._free_slot(args.slot_id)
        if slot["kind"] != appt["kind"]:
            raise ToolFailure(f"a {appt['kind']} appointment needs a {appt['kind']} slot")
        aid = appt["appointment_id"]
        self.db.execute("UPDATE slots SET taken = 0 WHERE slot_id = ?", (appt["slot_id"],))
        self.db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        fee = _seed.LATE_FEE_PENCE if args.late_fee else 0
        self.db.execute("UPDATE appointments SET slot_id = ?, clinician = ?, start_at = ?, "
                        "late_fee_pence = late_fee_pence + ? WHERE appointment_id = ?",
                        (slot["slot_id"], slot["clinician"], slot["start_at"], fee, aid))
        card = self._patient(appt["patient_id"])["card_last4"]
        self._charge(appt["patient_id"], "late_fee", fee, card, aid)
        return {"appointment_id": aid, "old_start": appt["start_at"],
                "start_at": slot["start_at"], "clinician": slot["clinician"],
                "late_fee_charged": money(fee), "card_last4": card}

    @tool("Cancel an appointment. late_fee charges the £25.00 fee to the card on file; the "
          "system does not check the 24 hours: the desk must.")
    def cancel_appointment(self, args: CancelAppointment) -> dict[str, Any]:
        appt = self._appointment(args.appointment_id)
        if appt["status"] != "booked":
            raise ToolFailure(f"appointment {appt['appointment_id']} is {appt['status']}")
        aid = appt["appointment_id"]
        fee = _seed.LATE_FEE_PENCE if args.late_fee else 0
        self.db.execute("UPDATE appointments SET status = 'cancelled', late_fee_pence = ?, "
                        "cancelled_at = ? WHERE appointment_id = ?", (fee, self._stamp(), aid))
        self.db.execute("UPDATE slots SET taken = 0 WHERE slot_id = ?", (appt["slot_id"],))
        card = self._patient(appt["patient_id"])["card_last4"]
        self._charge(appt["patient_id"], "late_fee", fee, card, aid)
        return {"appointment_id": aid, "status": "cancelled", "late_fee_charged": money(fee),
                "card_last4": card}

    @tool("Put a quoted private treatment plan of £300.00 or more on a payment plan over 3, 6 "
          "or 10 months: a 20% deposit is charged today to the card on file, the rest monthly.")
    def start_payment_plan(self, args: StartPaymentPlan) -> dict[str, Any]:
        plan = self._one("SELECT * FROM treatment_plans WHERE plan_id = ?",
                         args.plan_id.strip().upper())
        if plan is None:
            raise ToolFailure(f"no treatment plan {args.plan_id}")
        if plan["status"] != "quoted":
            raise ToolFailure(f"plan {plan['plan_id']} is already {plan['status']}")
        if plan["band"] != "private":
            raise ToolFailure("NHS charges cannot go on a payment plan")
        if plan["total_pence"] < _seed.PLAN_MINIMUM_PENCE:
            raise ToolFailure("payment plans are for treatment of £300.00 or more")
        if args.months not in _seed.PLAN_MONTHS:
            raise ToolFailure("a payment plan runs over 3, 6 or 10 months")
        deposit = round(plan["total_pence"] * _seed.DEPOSIT_SHARE)
        monthly = -(-(plan["total_pence"] - deposit) // args.months)
        self.db.execute("UPDATE treatment_plans SET status = 'payment_plan', months = ?, "
                        "deposit_pence = ?, monthly_pence = ? WHERE plan_id = ?",
                        (args.months, deposit, monthly, plan["plan_id"]))
        card = self._patient(plan["patient_id"])["card_last4"]
        self._charge(plan["patient_id"], "deposit", deposit, card, plan["plan_id"])
        first = (self.now().date().replace(day=1) + timedelta(days=32)).replace(day=1)
        return {"plan_id": plan["plan_id"], "total": money(plan["total_pence"]),
                "deposit_charged": money(deposit), "months": args.months,
                "monthly": money(monthly), "first_payment": first.isoformat(),
                "card_last4": card}

    @tool("Refund what was overpaid on an invoice, to the card it was paid with (never another "
          "card). Refuses when that card has expired: the practice manager then arranges it.")
    def refund_credit(self, args: InvoiceArgs) -> dict[str, Any]:
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ?",
                        args.invoice_id.strip().upper())
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id}")
        credit = inv["paid_pence"] - inv["amount_pence"] - inv["refunded_pence"]
        if credit <= 0:
            raise ToolFailure(f"invoice {inv['invoice_id']} has no credit to refund")
        if inv["card_expired"]:
            raise ToolFailure(f"the original card ending {inv['card_last4']} has expired; the "
                              "practice manager must arrange this refund")
        self.db.execute("UPDATE invoices SET refunded_pence = refunded_pence + ? WHERE "
                        "invoice_id = ?", (credit, inv["invoice_id"]))
        self._charge(inv["patient_id"], "refund", -credit, inv["card_last4"], inv["invoice_id"])
        return {"invoice_id": inv["invoice_id"], "refunded": money(credit),
                "card_last4": inv["card_last4"], "arrives": "within 5 working days"}

    @tool("Change the patient's contact email.")
    def update_email(self, args: UpdateEmail) -> dict[str, Any]:
        email = args.email.strip().lower()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
            raise ToolFailure(f"{args.email!r} is not an email address")
        self._patient(args.patient_id)
        self.db.execute("UPDATE patients SET email = ? WHERE patient_id = ?",
                        (email, args.patient_id.strip()))
        return {"patient_id": args.patient_id.strip(), "email": email}


def make_environment() -> DentalEnvironment:
    """A fresh desk, from the seed data."""
    return DentalEnvironment()
