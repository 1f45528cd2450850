"""Willow Pharmacy's refill desk as a vistasim environment: one SQLite database and its tools.

Every change, and every disclosure of a patient's own record, needs the patient verified in this
conversation with `verify_patient`. The staff lookup `get_prescription` shows any prescription
once someone is verified: the desk must check it belongs to the verified patient before saying
anything about it (see policy.md).
"""

from __future__ import annotations

import math
import sqlite3
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.pharmacy._args import (
    BookArgs,
    DeliveryArgs,
    NoArgs,
    OrderArgs,
    PhoneArgs,
    RefillArgs,
    RxArgs,
    SlotQuery,
    StatusArgs,
    TransferArgs,
    VerifyArgs,
)
from benchmarks.domains.pharmacy._seed import (
    DELIVERY_FEE_USD,
    LAST_BOOKABLE,
    NOW,
    NOW_TIME,
    READY_AFTER_MINUTES,
    SCHEMA_SQL,
    TODAY,
    seed_database,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

__all__ = ["NOW", "PharmacyEnvironment", "make_environment"]

class PharmacyEnvironment(SqliteEnvironment):
    """Willow Pharmacy: patients, prescriptions, refill orders, branches and pick-up slots."""

    SCHEMA_SQL = SCHEMA_SQL

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill the database with the fixed seed data."""
        seed_database(db)

    # ---- helpers -------------------------------------------------------------------------

    def _one(self, sql: str, *params: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, params).fetchone()
        return dict(row) if row is not None else None

    def _verified(self) -> str:
        row = self._one("SELECT verified_patient_id FROM session WHERE id = 1")
        if row is None or row["verified_patient_id"] is None:
            raise ToolFailure("Patient not verified: call verify_patient first")
        return str(row["verified_patient_id"])

    def _branch(self, text: str) -> dict[str, Any]:
        key = text.strip().lower()
        for row in self.db.execute("SELECT * FROM branches"):
            names = {row["branch_id"].lower(), row["name"].lower()}
            if key in names or key.replace(" branch", "") in names:
                return dict(row)
        raise ToolFailure(f"Unknown branch {text!r}; branches: Elm Street, Riverside, Harbor Point")

    def _own_rx(self, rx_id: str) -> dict[str, Any]:
        patient = self._verified()
        rx = self._one("SELECT * FROM prescriptions WHERE rx_id = ?", rx_id.strip().upper())
        if rx is None:
            raise ToolFailure(f"No prescription {rx_id}")
        if rx["patient_id"] != patient:
            raise ToolFailure(f"{rx['rx_id']} is not on the verified patient's profile")
        return rx

    def _own_order(self, order_id: str) -> dict[str, Any]:
        patient = self._verified()
        order = self._one("SELECT * FROM refill_orders WHERE order_id = ?", order_id.upper())
        if order is None:
            raise ToolFailure(f"No refill order {order_id}")
        if order["patient_id"] != patient:
            raise ToolFailure(f"{order['order_id']} is not on the verified patient's profile")
        if order["status"] not in ("pending", "ready"):
            raise ToolFailure(f"Refill {order['order_id']} is {order['status'].replace('_', ' ')}")
        return order

    def _release_slot(self, order: dict[str, Any]) -> None:
        if order["fulfilment"] == "pickup" and order["pickup_date"]:
            self.db.execute(
                "UPDATE pickup_slots SET booked = booked - 1 WHERE branch_id = ? AND "
                "slot_date = ? AND slot_time = ? AND booked > 0",
                (order["branch_id"], order["pickup_date"], order["pickup_time"]),
            )

    def _rx_view(self, rx: dict[str, Any]) -> dict[str, Any]:
        return {
            "rx_id": rx["rx_id"], "drug": rx["drug"], "strength": rx["strength"],
            "form": rx["form"], "quantity": rx["quantity"], "days_supply": rx["days_supply"],
            "refills_left": rx["refills_left"], "expires_on": rx["expires_on"],
            "prescriber": rx["prescriber"], "controlled": bool(rx["controlled"]),
            "schedule": rx["schedule"], "branch": self._branch(rx["branch_id"])["name"],
            "last_filled_on": rx["last_filled_on"],
            "refill_eligible_on": eligible_on(rx).isoformat(), "copay_usd": rx["copay_usd"],
        }

    def _order_view(self, order: dict[str, Any]) -> dict[str, Any]:
        rx = self._one("SELECT drug, strength FROM prescriptions WHERE rx_id = ?", order["rx_id"])
        view = {k: order[k] for k in (
            "order_id", "rx_id", "status", "fulfilment", "pickup_date", "pickup_time",
            "delivery_address", "delivery_date", "delivery_fee_usd", "copay_usd", "ready_at")}
        view["drug"] = f"{rx['drug']} {rx['strength']}" if rx else None
        view["branch"] = self._branch(order["branch_id"])["name"]
        return view

    # ---- agent tools ---------------------------------------------------------------------

    @tool("Verify the patient in this conversation by last name and date of birth.")
    def verify_patient(self, args: VerifyArgs) -> dict[str, Any]:
        """Check identity; later tools act for this patient."""
        row = self._one(
            "SELECT patient_id, first_name, last_name FROM patients WHERE lower(last_name) = ?"
            " AND date_of_birth = ?", args.last_name.strip().lower(), args.date_of_birth)
        if row is None:
            raise ToolFailure("No patient record matches that last name and date of birth")
        self.db.execute("UPDATE session SET verified_patient_id = ? WHERE id = 1",
                        (row["patient_id"],))
        return {"verified": True, **row}

    @tool("The verified patient's profile: contact details, prescriptions and refill orders.")
    def get_profile(self, args: NoArgs) -> dict[str, Any]:
        """Everything on the verified patient's own record."""
        pid = self._verified()
        patient = self._one("SELECT * FROM patients WHERE patient_id = ?", pid) or {}
        rxs = self.db.execute("SELECT * FROM prescriptions WHERE patient_id = ? ORDER BY rx_id",
                              (pid,)).fetchall()
        orders = self.db.execute("SELECT * FROM refill_orders WHERE patient_id = ? ORDER BY "
                                 "order_id", (pid,)).fetchall()
        return {
            "patient_id": pid, "name": f"{patient['first_name']} {patient['last_name']}",
            "phone": patient["phone"], "address": patient["address"],
            "home_branch": self._branch(patient["home_branch"])["name"],
            "prescriptions": [self._rx_view(dict(r)) for r in rxs],
            "refill_orders": [self._order_view(dict(o)) for o in orders],
        }

    @tool("Staff lookup of any prescription by number (shows the patient it belongs to). "
          "Only share details with the patient it belongs to.")
    def get_prescription(self, args: RxArgs) -> dict[str, Any]:
        """Look a prescription up by number."""
        self._verified()
        rx = self._one("SELECT * FROM prescriptions WHERE rx_id = ?", args.rx_id.strip().upper())
        if rx is None:
            raise ToolFailure(f"No prescription {args.rx_id}")
        owner = self._one("SELECT * FROM patients WHERE patient_id = ?", rx["patient_id"]) or {}
        return {**self._rx_view(rx), "patient_id": rx["patient_id"],
                "patient_name": f"{owner['first_name']} {owner['last_name']}",
                "patient_date_of_birth": owner["date_of_birth"]}

    @tool("Request a refill of one of the verified patient's prescriptions, for pick-up at the "
          "branch holding it. Refused with no refills left, an expired prescription, a refill "
          "already open, or too early.")
    def request_refill(self, args: RefillArgs) -> dict[str, Any]:
        """Open a refill order (pending, ready two hours later)."""
        rx = self._own_rx(args.rx_id)
        rid = rx["rx_id"]
        if rx["expires_on"] < TODAY.isoformat():
            raise ToolFailure(f"{rid} expired on {rx['expires_on']}; a new prescription is "
                              "needed from the prescriber")
        if rx["refills_left"] <= 0:
            raise ToolFailure(f"{rid} has no refills left; the prescriber must authorise a new "
                              "prescription")
        open_order = self._one("SELECT order_id FROM refill_orders WHERE rx_id = ? AND status IN"
                               " ('pending', 'ready')", rid)
        if open_order:
            raise ToolFailure(f"{rid} already has an open refill, {open_order['order_id']}")
        eligible = eligible_on(rx)
        if eligible > TODAY and not args.override_early:
            kind = "controlled substance, 90%" if rx["controlled"] else "75%"
            raise ToolFailure(f"Too early to refill {rid}: eligible from {eligible.isoformat()} "
                              f"({kind} of the {rx['days_supply']}-day supply must have passed)")
        number = self._one("SELECT count(*) AS n FROM refill_orders")["n"]  # type: ignore[index]
        order_id = f"RF{7101 + number}"
        ready = _add_minutes(NOW_TIME, READY_AFTER_MINUTES)
        self.db.execute(
            "INSERT INTO refill_orders (order_id, rx_id, patient_id, status, fulfilment,"
            " branch_id, copay_usd, ready_at, created_at, prev_last_filled_on) VALUES"
            " (?, ?, ?, 'pending', 'pickup', ?, ?, ?, ?, ?)",
            (order_id, rid, rx["patient_id"], rx["branch_id"], rx["copay_usd"],
             f"{TODAY.isoformat()} {ready}", NOW, rx["last_filled_on"]))
        self.db.execute("UPDATE prescriptions SET refills_left = refills_left - 1, "
                        "last_filled_on = ? WHERE rx_id = ?", (TODAY.isoformat(), rid))
        order = self._one("SELECT * FROM refill_orders WHERE order_id = ?", order_id) or {}
        return {**self._order_view(order), "refills_left": rx["refills_left"] - 1}

    @tool("Open and full pick-up times at a branch on a date (15-minute slots).")
    def find_pickup_slots(self, args: SlotQuery) -> dict[str, Any]:
        """List a day's pick-up slots; no verification needed."""
        branch = self._branch(args.branch)
        day = date.fromisoformat(args.pickup_date)
        if not TODAY <= day <= LAST_BOOKABLE:
            raise ToolFailure(f"Pick-up can be booked from {TODAY.isoformat()} to "
                              f"{LAST_BOOKABLE.isoformat()}")
        rows = self.db.execute(
            "SELECT slot_time, booked < capacity AS open FROM pickup_slots WHERE branch_id = ? "
            "AND slot_date = ? ORDER BY slot_time", (branch["branch_id"], args.pickup_date))
        rows = rows.fetchall()
        if not rows:
            raise ToolFailure(f"{branch['name']} is closed on {day.strftime('%A')}s")
        return {"branch": branch["name"], "date": args.pickup_date,
                "weekday": day.strftime("%A"),
                "open_times": [r["slot_time"] for r in rows if r["open"]],
                "full_times": [r["slot_time"] for r in rows if not r["open"]]}

    @tool("Book (or move) the pick-up time of one of the verified patient's refill orders.")
    def book_pickup(self, args: BookArgs) -> dict[str, Any]:
        """Reserve a 15-minute slot at the branch preparing the order."""
        order = self._own_order(args.order_id)
        branch = self._branch(args.branch)
        if branch["branch_id"] != order["branch_id"]:
            held = self._branch(order["branch_id"])["name"]
            raise ToolFailure(f"{order['order_id']} is being prepared at {held}; pick-up can "
                              f"only be booked there")
        slot = self._one("SELECT * FROM pickup_slots WHERE branch_id = ? AND slot_date = ? AND "
                         "slot_time = ?", branch["branch_id"], args.pickup_date, args.pickup_time)
        if slot is None:
            raise ToolFailure(f"No pick-up slot at {args.pickup_time} on {args.pickup_date} at "
                              f"{branch['name']}")
        if f"{args.pickup_date} {args.pickup_time}" < order["ready_at"]:
            raise ToolFailure(f"{order['order_id']} will be ready from {order['ready_at']}")
        if slot["just_taken"]:
            raise ToolFailure(f"The {args.pickup_time} slot on {args.pickup_date} was just booked "
                              "by another patient")
        if slot["booked"] >= slot["capacity"]:
            raise ToolFailure(f"The {args.pickup_time} slot on {args.pickup_date} is full")
        self._release_slot(order)
        self.db.execute("UPDATE pickup_slots SET booked = booked + 1 WHERE branch_id = ? AND "
                        "slot_date = ? AND slot_time = ?",
                        (branch["branch_id"], args.pickup_date, args.pickup_time))
        self.db.execute("UPDATE refill_orders SET fulfilment = 'pickup', pickup_date = ?, "
                        "pickup_time = ?, delivery_address = NULL, delivery_date = NULL, "
                        "delivery_fee_usd = 0 WHERE order_id = ?",
                        (args.pickup_date, args.pickup_time, order["order_id"]))
        return self._order_view(self._one("SELECT * FROM refill_orders WHERE order_id = ?",
                                          order["order_id"]) or {})

    @tool(f"Switch a refill order to home delivery to the patient's address (fee "
          f"${DELIVERY_FEE_USD:.2f}). Controlled substances cannot be delivered.")
    def arrange_delivery(self, args: DeliveryArgs) -> dict[str, Any]:
        """Deliver the order to the address on file on the next business day."""
        order = self._own_order(args.order_id)
        rx = self._one("SELECT * FROM prescriptions WHERE rx_id = ?", order["rx_id"]) or {}
        if rx["controlled"]:
            raise ToolFailure("Controlled substances cannot be delivered; they must be picked up "
                              "in person with photo ID")
        patient = self._one("SELECT address FROM patients WHERE patient_id = ?",
                            order["patient_id"]) or {}
        ready_day = date.fromisoformat(order["ready_at"][:10])
        delivery = max(ready_day, TODAY) + timedelta(days=1)
        delivery += timedelta(days=1) if delivery.weekday() == 6 else timedelta(0)
        fee = 0.0 if args.waive_fee else DELIVERY_FEE_USD
        self._release_slot(order)
        self.db.execute("UPDATE refill_orders SET fulfilment = 'delivery', pickup_date = NULL, "
                        "pickup_time = NULL, delivery_address = ?, delivery_date = ?, "
                        "delivery_fee_usd = ? WHERE order_id = ?",
                        (patient["address"], delivery.isoformat(), fee, order["order_id"]))
        return self._order_view(self._one("SELECT * FROM refill_orders WHERE order_id = ?",
                                          order["order_id"]) or {})

    @tool("Transfer one of the verified patient's prescriptions to another branch. Controlled "
          "substances cannot be transferred.")
    def transfer_prescription(self, args: TransferArgs) -> dict[str, Any]:
        """Move where future refills are prepared."""
        rx = self._own_rx(args.rx_id)
        branch = self._branch(args.to_branch)
        if rx["controlled"]:
            raise ToolFailure(f"{rx['rx_id']} is a controlled substance and cannot be "
                              "transferred; the prescriber must send a new prescription")
        if rx["branch_id"] == branch["branch_id"]:
            raise ToolFailure(f"{rx['rx_id']} is already held at {branch['name']}")
        if rx["expires_on"] < TODAY.isoformat():
            raise ToolFailure(f"{rx['rx_id']} expired on {rx['expires_on']}")
        open_order = self._one("SELECT order_id FROM refill_orders WHERE rx_id = ? AND status IN"
                               " ('pending', 'ready')", rx["rx_id"])
        if open_order:
            raise ToolFailure(f"{rx['rx_id']} has an open refill {open_order['order_id']}; "
                              "cancel it or pick it up before transferring")
        self.db.execute("UPDATE prescriptions SET branch_id = ? WHERE rx_id = ?",
                        (branch["branch_id"], rx["rx_id"]))
        return {"rx_id": rx["rx_id"], "from": self._branch(rx["branch_id"])["name"],
                "to": branch["name"]}

    @tool("Cancel one of the verified patient's pending or ready refill orders.")
    def cancel_refill(self, args: OrderArgs) -> dict[str, Any]:
        """Cancel the order, free its slot and give the refill back."""
        order = self._own_order(args.order_id)
        self._release_slot(order)
        self.db.execute("UPDATE refill_orders SET status = 'cancelled' WHERE order_id = ?",
                        (order["order_id"],))
        self.db.execute("UPDATE prescriptions SET refills_left = refills_left + 1, "
                        "last_filled_on = ? WHERE rx_id = ?",
                        (order["prev_last_filled_on"], order["rx_id"]))
        return {"order_id": order["order_id"], "status": "cancelled"}

    @tool("Change the phone number that gets the verified patient's pick-up notices.")
    def update_phone(self, args: PhoneArgs) -> dict[str, Any]:
        """Store a 10-digit number as NNN-NNN-NNNN."""
        pid = self._verified()
        digits = "".join(c for c in args.phone if c.isdigit())
        digits = digits[1:] if len(digits) == 11 and digits.startswith("1") else digits
        if len(digits) != 10:
            raise ToolFailure(f"{args.phone!r} is not a 10-digit phone number")
        new = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
        old = (self._one("SELECT phone FROM patients WHERE patient_id = ?", pid) or {})["phone"]
        self.db.execute("UPDATE patients SET phone = ? WHERE patient_id = ?", (new, pid))
        return {"old_phone": old, "phone": new}

    # ---- user-side API -------------------------------------------------------------------

    @tool("The Willow app's refill status view.", side="user")
    def app_refill_status(self, args: StatusArgs) -> dict[str, Any]:
        """What the patient sees in the app for one refill order."""
        order = self._one(
            "SELECT o.* FROM refill_orders o JOIN patients p ON p.patient_id = o.patient_id "
            "WHERE o.order_id = ? AND lower(p.last_name) = ?",
            args.order_id.strip().upper(), args.last_name.strip().lower())
        if order is None:
            raise ToolFailure("No refill with that number under that last name")
        return self._order_view(order)


def eligible_on(rx: dict[str, Any]) -> date:
    """First day a refill may be requested: 75% (controlled: 90%) of the supply used."""
    share = 0.9 if rx["controlled"] else 0.75
    return date.fromisoformat(rx["last_filled_on"]) + timedelta(
        days=math.ceil(rx["days_supply"] * share))


def _add_minutes(hh_mm: str, minutes: int) -> str:
    total = int(hh_mm[:2]) * 60 + int(hh_mm[3:]) + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def make_environment() -> PharmacyEnvironment:
    """A fresh Willow Pharmacy environment, from the seed data."""
    return PharmacyEnvironment()
