"""The workshop system the desk's agent works through: `GarageEnvironment` and its write tools."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.garage import _seed
from benchmarks.domains.garage._system import (
    AddExtra,
    BookService,
    CancelBooking,
    DecideWork,
    DisputeLine,
    GarageSystem,
    MoveBooking,
    PayInvoice,
    UpdateContact,
    WarrantyClaim,
    money,
    norm_reg,
)
from vistasim.env import ToolFailure, tool


class GarageEnvironment(GarageSystem):
    """Kestrel Motors: customers, vehicles, bookings, quotes, parts, invoices, charges."""

    # -- bookings --------------------------------------------------------------------------
    @tool(
        "Book a service (interim, full, major) or an MOT for one of the customer's vehicles on "
        "a day with a free bay. price_pence is the price the desk quoted (paid on collection). "
        "Refuses a full day, a courtesy car when none is free, and collection beyond 10 miles. "
        "The system does not check the courtesy-car rules on licence or service type: the "
        "desk must."
    )
    def book_service(self, args: BookService) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        car = self._one(
            "SELECT * FROM vehicles WHERE registration = ? AND customer_id = ?",
            norm_reg(args.registration),
            c["customer_id"],
        )
        if car is None:
            raise ToolFailure(f"no vehicle {args.registration} on this account")
        kind = args.kind.strip().lower()
        if kind not in (*_seed.SERVICES, "mot"):
            raise ToolFailure("kind must be interim, full, major or mot")
        day = self._open_day(args.day).isoformat()
        if args.courtesy_car:
            self._car_free(day)
        if args.collection and c["distance_miles"] > _seed.COLLECTION_MILES:
            raise ToolFailure(f"collection is within {_seed.COLLECTION_MILES} miles only")
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        booking_id = f"KB{(last.fetchone()[0] or 3100) + 1}"
        price = args.price_pence + (_seed.COLLECTION_PENCE if args.collection else 0)
        self.db.execute(
            "INSERT INTO bookings VALUES (?,?,?,?,?,?,?,?,'confirmed')",
            (booking_id, c["customer_id"], car["registration"], kind, day, price,
             int(args.courtesy_car), int(args.collection)),
        )  # fmt: skip
        return {
            "booking_id": booking_id,
            "registration": car["registration"],
            "kind": kind,
            "day": day,
            "drop_off": "08:00",
            "price": money(price),
            "courtesy_car": args.courtesy_car,
            "collection": args.collection,
        }

    @tool(
        "Move a booking to another day with a free bay. late_fee_pence (the fee the desk quoted "
        "when drop-off is less than 24 hours away) is charged to the card."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._own_booking(c, args.booking_id)
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_id']} is already in the workshop")
        day = self._open_day(args.day, skip=b["booking_id"]).isoformat()
        if day == b["day"]:
            raise ToolFailure("that is the booking's current day")
        if b["courtesy_car"]:
            self._car_free(day, skip=b["booking_id"])
        self.db.execute("UPDATE bookings SET day = ? WHERE booking_id = ?", (day, b["booking_id"]))
        self._charge(c, "late_fee", args.late_fee_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "day": day, "late_fee": money(args.late_fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booking not yet in the workshop. late_fee_pence (the fee the desk quoted when "
        "drop-off is less than 24 hours away) is charged to the card."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._own_booking(c, args.booking_id)
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_id']} is already in the workshop")
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_id = ?", (b["booking_id"],)
        )
        self._charge(c, "late_fee", args.late_fee_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "late_fee": money(args.late_fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add a courtesy car or collection and delivery (£20.00, within 10 miles) to a booking. "
        "The system checks the fleet and the distance, not the licence or the service type."
    )
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._own_booking(c, args.booking_id)
        if args.extra == "courtesy_car":
            if b["courtesy_car"]:
                raise ToolFailure("a courtesy car is already on this booking")
            self._car_free(b["day"], skip=b["booking_id"])
            self.db.execute(
                "UPDATE bookings SET courtesy_car = 1 WHERE booking_id = ?", (b["booking_id"],)
            )
            return {"booking_id": b["booking_id"], "courtesy_car": True, "day": b["day"]}
        if args.extra != "collection":
            raise ToolFailure("extra must be courtesy_car or collection")
        if b["collection"]:
            raise ToolFailure("collection is already on this booking")
        if c["distance_miles"] > _seed.COLLECTION_MILES:
            raise ToolFailure(f"collection is within {_seed.COLLECTION_MILES} miles only")
        self.db.execute(
            "UPDATE bookings SET collection = 1, price_pence = price_pence + ? "
            "WHERE booking_id = ?",
            (_seed.COLLECTION_PENCE, b["booking_id"]),
        )
        return {"booking_id": b["booking_id"], "collection": True,
                "fee": money(_seed.COLLECTION_PENCE)}  # fmt: skip

    # -- extra work ------------------------------------------------------------------------
    @tool(
        "Approve or decline one line of extra work the mechanic quoted. Approving adds it to "
        "the bill. The system does not check safety-critical lines: the desk must not decline "
        "them."
    )
    def decide_work(self, args: DecideWork) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        line = self._one("SELECT * FROM quote_lines WHERE line_id = ?", args.line_id)
        if line is None:
            raise ToolFailure(f"no quote line {args.line_id}")
        b = self._own_booking(c, line["booking_id"])
        if line["status"] != "pending":
            raise ToolFailure(f"that line is already {line['status']}")
        decision = args.decision.strip().lower()
        if decision not in {"approve", "decline"}:
            raise ToolFailure("decision must be approve or decline")
        status = "approved" if decision == "approve" else "declined"
        self.db.execute(
            "UPDATE quote_lines SET status = ? WHERE line_id = ?", (status, args.line_id)
        )
        if status == "approved":
            self.db.execute(
                "UPDATE bookings SET price_pence = price_pence + ? WHERE booking_id = ?",
                (line["amount_pence"], b["booking_id"]),
            )
        bill = self._one("SELECT price_pence FROM bookings WHERE booking_id = ?", b["booking_id"])
        return {"line_id": args.line_id, "description": line["description"], "status": status,
                "amount": money(line["amount_pence"]),
                "bill_now": money((bill or {}).get("price_pence", 0))}  # fmt: skip

    # -- warranty --------------------------------------------------------------------------
    @tool(
        "Open a parts warranty claim: 12 months and 12,000 miles from fitting, not for wear "
        "items (pads, discs, wipers, tyres, bulbs, clutch)."
    )
    def claim_warranty(self, args: WarrantyClaim) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        part = self._one(
            "SELECT * FROM parts WHERE part_id = ? AND customer_id = ?",
            args.part_id.strip().upper(),
            c["customer_id"],
        )
        if part is None:
            raise ToolFailure(f"no part {args.part_id} on this account")
        if part["claim"]:
            raise ToolFailure("a claim is already open for that part")
        if any(w in part["description"].lower() for w in _seed.WEAR_ITEMS):
            raise ToolFailure(f"{part['description']} is a wear item: not under warranty")
        age = (self.now().date() - date.fromisoformat(part["fitted_on"])).days
        if age > _seed.WARRANTY_DAYS or args.mileage - part["fitted_miles"] > _seed.WARRANTY_MILES:
            raise ToolFailure("outside the warranty: 12 months and 12,000 miles from fitting")
        self.db.execute("UPDATE parts SET claim = 'open' WHERE part_id = ?", (part["part_id"],))
        return {"part_id": part["part_id"], "description": part["description"], "claim": "open"}

    # -- invoices --------------------------------------------------------------------------
    def _invoice(self, c: dict[str, Any], invoice_id: str) -> dict[str, Any]:
        inv = self._one(
            "SELECT * FROM invoices WHERE invoice_id = ? AND customer_id = ?",
            invoice_id.strip().upper(),
            c["customer_id"],
        )
        if inv is None:
            raise ToolFailure(f"no invoice {invoice_id} on this account")
        return inv

    @tool(
        "Pay an invoice by the card on file: amount_pence is what the desk quoted (the lines "
        "not disputed; a disputed line is on hold)."
    )
    def pay_invoice(self, args: PayInvoice) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        inv = self._invoice(c, args.invoice_id)
        if inv["status"] == "paid":
            raise ToolFailure(f"invoice {inv['invoice_id']} is already paid")
        if args.amount_pence <= 0:
            raise ToolFailure("the amount must be positive")
        self.db.execute(
            "UPDATE invoices SET status = 'paid' WHERE invoice_id = ?", (inv["invoice_id"],)
        )
        self._charge(c, "invoice_payment", args.amount_pence, inv["invoice_id"])
        return {"invoice_id": inv["invoice_id"], "paid": money(args.amount_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Dispute one invoice line, within 14 days of the invoice date; it goes on hold.")
    def dispute_line(self, args: DisputeLine) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        inv = self._invoice(c, args.invoice_id)
        line = self._one(
            "SELECT * FROM invoice_lines WHERE line_id = ? AND invoice_id = ?",
            args.line_id,
            inv["invoice_id"],
        )
        if line is None:
            raise ToolFailure(f"invoice {inv['invoice_id']} has no line {args.line_id}")
        if line["disputed"]:
            raise ToolFailure("that line is already disputed")
        age = (self.now().date() - date.fromisoformat(inv["issued"])).days
        if age > _seed.DISPUTE_DAYS:
            raise ToolFailure(f"invoice {inv['invoice_id']} is {age} days old: 14 days at most")
        self.db.execute(
            "UPDATE invoice_lines SET disputed = 1, dispute_reason = ? WHERE line_id = ?",
            (args.reason.strip() or "disputed by the customer", line["line_id"]),
        )
        return {"invoice_id": inv["invoice_id"], "line": line["description"],
                "amount": money(line["amount_pence"]), "status": "disputed"}  # fmt: skip

    # -- contact ---------------------------------------------------------------------------
    @tool("Change the contact phone number and/or email on the account.")
    def update_contact(self, args: UpdateContact) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        if not args.phone and not args.email:
            raise ToolFailure("give a phone number or an email")
        if args.phone:
            phone = re.sub(r"\s+", " ", args.phone.strip())
            if len(re.sub(r"\D", "", phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute(
                "UPDATE customers SET phone = ? WHERE customer_id = ?", (phone, c["customer_id"])
            )
        if args.email:
            if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", args.email.strip(), re.I):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute(
                "UPDATE customers SET email = ? WHERE customer_id = ?",
                (args.email.strip(), c["customer_id"]),
            )
        now = self._customer(c["customer_id"])
        return {"customer_id": now["customer_id"], "phone": now["phone"], "email": now["email"]}


def make_environment() -> GarageEnvironment:
    """A fresh workshop system, from the seed data."""
    return GarageEnvironment()


__all__ = ["GarageEnvironment", "make_environment", "money", "norm_reg"]
