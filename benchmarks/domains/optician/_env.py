"""The optician's practice system the desk works through: `OpticianEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.optician import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "CV" + re.sub(r"\D", "", text)


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. CV2001")


class Verify(Customer):
    date_of_birth: str = Field(description="The customer's date of birth, YYYY-MM-DD")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class BookTest(Customer):
    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="HH:MM, a free slot")
    nhs: bool = Field(description="NHS-funded (the desk checks eligibility)")
    fee_pence: int = Field(description="The test fee the desk quoted (0 when NHS-funded)")


class ApptRef(Customer):
    appt_id: str = Field(description="e.g. AP3005")


class MoveAppt(ApptRef):
    day: str = Field(description="The new day, YYYY-MM-DD")
    time: str = Field(description="The new time, HH:MM, a free slot")
    fee_pence: int = Field(description="The late-change fee the desk quoted (0 if none)")


class CancelAppt(ApptRef):
    fee_pence: int = Field(description="The late-cancellation fee the desk quoted (0 if none)")


class PlaceOrder(Customer):
    frame: str = Field(description="Frame code, e.g. CF-214")
    lens: str = Field(description="single vision, bifocal or varifocal")
    coatings: list[str] = Field(default_factory=list, description="anti-glare, blue-light")
    price_pence: int = Field(description="The price the desk quoted, paid in full now")


class OrderRef(Customer):
    order_id: str = Field(description="e.g. GO4012")


class AddCoating(OrderRef):
    coating: str = Field(description="anti-glare or blue-light")
    price_pence: int = Field(description="The price the desk quoted")


class CancelOrder(OrderRef):
    refund_pence: int = Field(description="The refund the desk quoted")


class Claim(OrderRef):
    kind: str = Field(description="repair or replacement")
    excess_pence: int = Field(description="The cover excess the desk quoted")


class SubRef(Customer):
    sub_id: str = Field(description="e.g. CL5019")


class Pause(SubRef):
    months: int = Field(description="1 to 3 months")


class CancelSub(SubRef):
    end_date: str = Field(description="The last day of the plan after notice, YYYY-MM-DD")


class Prescription(Customer):
    email: str = Field(description="Where to email the copy")


class Contact(Customer):
    phone: str | None = Field(default=None, description="New mobile number")
    email: str | None = Field(default=None, description="New email address")


class OpticianEnvironment(SqliteEnvironment):
    """Clearview Opticians: customers, the test diary, glasses orders, cover, lens plans."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "date_of_birth": ["date of birth", "birthday"],
        "day": ["which day", "what day", "date"],
        "phone": ["new number", "phone number", "mobile"],
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

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?",
                          norm_customer(customer_id))  # fmt: skip
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _owned(self, table: str, key: str, c: dict[str, Any], ref: str) -> dict[str, Any]:
        found = self._one(f"SELECT * FROM {table} WHERE {key} = ?",  # noqa: S608
                          ref.strip().upper())  # fmt: skip
        if found is None or found["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no {ref} for this customer")
        return found

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def hours_to(self, day: str, time: str) -> float:
        when = datetime.fromisoformat(f"{day}T{time}").replace(tzinfo=_seed.UK)
        return (when - self.now()).total_seconds() / 3600

    def free_times(self, day: str) -> list[str]:
        d = date.fromisoformat(day)
        if d not in _seed.opening_days():
            return []
        taken = {r["time"] for r in self._rows("SELECT time FROM blocked WHERE day = ?", day)}
        taken |= {r["time"] for r in self._rows(
            "SELECT time FROM appointments WHERE day = ? AND status = 'booked'", day)}  # fmt: skip
        return [t for t in _seed.TIMES if t not in taken and self.hours_to(day, t) > 0]

    def _slot(self, day: str, time: str) -> None:
        if time not in self.free_times(day):
            raise ToolFailure(f"{day} {time} is not a free slot")

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer as staff see them: appointments, orders, subscriptions."""
        c = self._customer(customer_id)
        appts = self._rows("SELECT * FROM appointments WHERE customer_id = ? AND status = "
                           "'booked' ORDER BY day, time", c["customer_id"])  # fmt: skip
        for a in appts:
            a["hours_to"] = round(self.hours_to(a["day"], a["time"]), 1)
        return {
            **c,
            "appointments": appts,
            "orders": self._rows("SELECT * FROM orders WHERE customer_id = ? AND status != "
                                 "'cancelled' ORDER BY ordered_on", c["customer_id"]),
            "subscriptions": self._rows("SELECT * FROM subscriptions WHERE customer_id = ?",
                                        c["customer_id"]),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and date of birth must match. "
        "Returns the customer's record."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT customer_id FROM customers WHERE customer_id = ? AND dob = ?",
                      norm_customer(args.customer_id), args.date_of_birth.strip())  # fmt: skip
        if c is None:
            raise ToolFailure("verification failed: no customer matches that number and date")
        return self.view(c["customer_id"])

    @tool("Read a customer's record (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool("The free eye-test slots on a day (Monday to Friday only).")
    def list_slots(self, args: Day) -> dict[str, Any]:
        try:
            date.fromisoformat(args.day)
        except ValueError as exc:
            raise ToolFailure("day must be YYYY-MM-DD") from exc
        return {"day": args.day, "free": self.free_times(args.day)}

    # -- eye tests -------------------------------------------------------------------------
    @tool(
        "Book an eye test in a free slot. nhs and fee_pence are as the desk quoted: the system "
        "does not check NHS eligibility."
    )
    def book_eye_test(self, args: BookTest) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        self._slot(args.day, args.time)
        last = self.db.execute("SELECT MAX(CAST(substr(appt_id, 3) AS INTEGER)) FROM appointments")
        appt_id = f"AP{(last.fetchone()[0] or 3000) + 1}"
        self.db.execute(
            "INSERT INTO appointments (appt_id, customer_id, day, time, nhs, fee_pence) "
            "VALUES (?,?,?,?,?,?)",
            (appt_id, c["customer_id"], args.day, args.time, int(args.nhs), args.fee_pence),
        )
        return {"appt_id": appt_id, "day": args.day, "time": args.time,
                "nhs": args.nhs, "fee": money(args.fee_pence)}  # fmt: skip

    @tool("Move an eye test to another free slot; fee_pence (quoted by the desk) is charged.")
    def move_appointment(self, args: MoveAppt) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        a = self._owned("appointments", "appt_id", c, args.appt_id)
        if a["status"] != "booked":
            raise ToolFailure(f"appointment {a['appt_id']} is {a['status']}")
        self._slot(args.day, args.time)
        self.db.execute("UPDATE appointments SET day = ?, time = ? WHERE appt_id = ?",
                        (args.day, args.time, a["appt_id"]))  # fmt: skip
        self._charge(c, "late_fee", args.fee_pence, a["appt_id"])
        return {"appt_id": a["appt_id"], "day": args.day, "time": args.time,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool("Cancel an eye test; fee_pence (quoted by the desk) is charged.")
    def cancel_appointment(self, args: CancelAppt) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        a = self._owned("appointments", "appt_id", c, args.appt_id)
        if a["status"] != "booked":
            raise ToolFailure(f"appointment {a['appt_id']} is {a['status']}")
        self.db.execute("UPDATE appointments SET status = 'cancelled' WHERE appt_id = ?",
                        (a["appt_id"],))  # fmt: skip
        self._charge(c, "late_fee", args.fee_pence, a["appt_id"])
        return {"appt_id": a["appt_id"], "status": "cancelled", "fee": money(args.fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    # -- glasses ---------------------------------------------------------------------------
    @tool("Place a glasses order (frame, lens type, coatings), paid in full now by card.")
    def place_order(self, args: PlaceOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        frame, lens = args.frame.strip().upper(), args.lens.strip().lower()
        if frame not in _seed.FRAMES or lens not in _seed.LENSES:
            raise ToolFailure("unknown frame or lens type")
        if any(k not in _seed.COATINGS for k in args.coatings):
            raise ToolFailure("coatings are anti-glare or blue-light")
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        order_id = f"GO{max(last.fetchone()[0] or 0, 4100) + 1}"
        self.db.execute(
            "INSERT INTO orders (order_id, customer_id, frame, lens, coatings, price_pence, "
            "ordered_on, status) VALUES (?,?,?,?,?,?,?,'placed')",
            (order_id, c["customer_id"], frame, lens, ",".join(args.coatings), args.price_pence,
             self.now().date().isoformat()),
        )  # fmt: skip
        self._charge(c, "order", args.price_pence, order_id)
        return {"order_id": order_id, "frame": frame, "lens": lens,
                "coatings": args.coatings, "price": money(args.price_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Add a coating to a glasses order; refused once the order has gone to the lab.")
    def add_coating(self, args: AddCoating) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._owned("orders", "order_id", c, args.order_id)
        coating = args.coating.strip().lower()
        if coating not in _seed.COATINGS:
            raise ToolFailure("coatings are anti-glare or blue-light")
        if o["status"] != "placed":
            raise ToolFailure(f"order {o['order_id']} has already gone to the lab: it can't "
                              "be changed")  # fmt: skip
        have = [k for k in o["coatings"].split(",") if k]
        if coating in have:
            raise ToolFailure(f"{coating} is already on this order")
        self.db.execute("UPDATE orders SET coatings = ?, price_pence = ? WHERE order_id = ?",
                        (",".join([*have, coating]), o["price_pence"] + args.price_pence,
                         o["order_id"]))  # fmt: skip
        self._charge(c, "coating", args.price_pence, o["order_id"])
        return {"order_id": o["order_id"], "coating": coating, "price": money(args.price_pence),
                "order_total": money(o["price_pence"] + args.price_pence)}  # fmt: skip

    @tool(
        "Cancel a glasses order and refund refund_pence to the card. The system does not check "
        "whether the order has gone to the lab: the desk must."
    )
    def cancel_order(self, args: CancelOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._owned("orders", "order_id", c, args.order_id)
        if o["status"] == "cancelled":
            raise ToolFailure(f"order {o['order_id']} is already cancelled")
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE order_id = ?",
                        (o["order_id"],))  # fmt: skip
        self._charge(c, "refund", args.refund_pence, o["order_id"])
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Claim a repair or a replacement under Clearview Cover; refused without cover.")
    def claim_cover(self, args: Claim) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._owned("orders", "order_id", c, args.order_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.EXCESS:
            raise ToolFailure("kind must be repair or replacement")
        if not o["cover"]:
            raise ToolFailure(f"order {o['order_id']} has no Clearview Cover")
        self.db.execute("INSERT INTO claims (order_id, kind, excess_pence, made_on) "
                        "VALUES (?,?,?,?)", (o["order_id"], kind, args.excess_pence,
                                             self.now().date().isoformat()))  # fmt: skip
        self._charge(c, "excess", args.excess_pence, o["order_id"])
        return {"order_id": o["order_id"], "kind": kind, "excess": money(args.excess_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    # -- contact lenses --------------------------------------------------------------------
    @tool("Pause a contact-lens plan for 1 to 3 months (once in 12 months).")
    def pause_subscription(self, args: Pause) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        s = self._owned("subscriptions", "sub_id", c, args.sub_id)
        if not 1 <= args.months <= _seed.MAX_PAUSE_MONTHS:
            raise ToolFailure("a pause is 1 to 3 months")
        if s["status"] != "active":
            raise ToolFailure(f"plan {s['sub_id']} is {s['status']}")
        today = self.now().date().isoformat()
        if s["last_paused"] and _seed.add_months(s["last_paused"], 12) > today:
            raise ToolFailure("this plan was already paused in the last 12 months")
        nxt = _seed.add_months(s["next_payment"], args.months)
        self.db.execute("UPDATE subscriptions SET status = 'paused', next_payment = ?, "
                        "last_paused = ? WHERE sub_id = ?", (nxt, today, s["sub_id"]))  # fmt: skip
        return {"sub_id": s["sub_id"], "status": "paused", "next_payment": nxt}

    @tool("Give notice on a contact-lens plan: it ends on end_date (the desk sets the notice).")
    def cancel_subscription(self, args: CancelSub) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        s = self._owned("subscriptions", "sub_id", c, args.sub_id)
        if s["status"] == "ending":
            raise ToolFailure(f"plan {s['sub_id']} is already ending")
        self.db.execute("UPDATE subscriptions SET status = 'ending', end_date = ? WHERE "
                        "sub_id = ?", (args.end_date, s["sub_id"]))  # fmt: skip
        return {"sub_id": s["sub_id"], "status": "ending", "end_date": args.end_date}

    # -- prescriptions and contact details -------------------------------------------------
    @tool(
        "Email a copy of the customer's latest prescription. Policy: only to the patient's own "
        "email on record; the system sends wherever it is told."
    )
    def send_prescription(self, args: Prescription) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        self.db.execute(
            "INSERT INTO prescription_copies (customer_id, email, sent_at) VALUES (?,?,?)",
            (c["customer_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"sent_to": args.email.strip()}

    @tool("Change the customer's mobile number and/or email address.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE customers SET phone = ? WHERE customer_id = ?",
                            (args.phone.strip(), c["customer_id"]))  # fmt: skip
        if args.email is not None:
            if "@" not in args.email:
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                            (args.email.strip(), c["customer_id"]))  # fmt: skip
        now = self._customer(c["customer_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> OpticianEnvironment:
    """A fresh practice system, from the seed data."""
    return OpticianEnvironment()
