"""The ferry booking system the desk's agent works through: `FerryEnvironment` and its tools."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.ferry import _seed
from benchmarks.domains.ferry._system import (
    AddCabin,
    AddPets,
    ChangeName,
    ChangeSailing,
    FerrySystem,
    Ref,
    SetVehicle,
    UpdateEmail,
    money,
    norm_reg,
)
from vistasim.env import ToolFailure, tool


class FerryEnvironment(FerrySystem):
    """Tidewater Ferries: sailings, bookings, passengers, charges and refunds."""

    # -- changes ---------------------------------------------------------------------------
    @tool(
        "Move a booking to another sailing on the same route. Charges the fare difference "
        "for every passenger when the new fare is higher (a lower fare refunds nothing) and, "
        "for Standard and Saver fares, the £25.00 amendment fee unless waive_fee is true. The "
        "system does not check the free-amendment window: the desk must."
    )
    def change_sailing(self, args: ChangeSailing) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        old = self._not_departed(b)
        new = self._sailing(args.sailing_id)
        if new["route"] != old["route"]:
            raise ToolFailure("a booking can only move to a sailing on the same route")
        if new["sailing_id"] == old["sailing_id"]:
            raise ToolFailure("the booking is already on that sailing")
        if new["depart"] <= self.now().strftime(_seed.STAMP):
            raise ToolFailure("that sailing has already departed")
        if b["vehicle_reg"] and new["vehicle_left"] < 1:
            raise ToolFailure("no vehicle space left on that sailing")
        if b["cabin"] and new[f"{b['cabin']}_left"] < 1:
            raise ToolFailure(f"no {b['cabin']} cabin left on that sailing")
        pax = self.db.execute(
            "SELECT COUNT(*) FROM passengers WHERE booking_ref = ?", (b["booking_ref"],)
        ).fetchone()[0]
        diff = max(0, (new["fare_pence"] - old["fare_pence"]) * pax)
        fee = 0 if b["fare_type"] == "flexi" or args.waive_fee else _seed.AMEND_FEE_PENCE
        self.db.execute(
            "UPDATE bookings SET sailing_id = ? WHERE booking_ref = ?",
            (new["sailing_id"], b["booking_ref"]),
        )
        self._charge(b, "fare_difference", diff)
        self._charge(b, "amendment_fee", fee, paid=False)
        return {
            "booking_ref": b["booking_ref"],
            "old_sailing": old["sailing_id"],
            "sailing": self._sailing_view(new),
            "fare_difference": money(diff),
            "amendment_fee": money(fee),
            "total_charged": money(diff + fee),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Add a vehicle to a booking, or replace its vehicle (registration and length). Priced "
        "by length band: up to 5 m £60.00, 5 to 7 m £85.00, 7 to 10 m £120.00. A replacement "
        "in a dearer band charges the difference; a cheaper band refunds nothing."
    )
    def set_vehicle(self, args: SetVehicle) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        sailing = self._not_departed(b)
        banded = _seed.band(args.length_m)
        if args.length_m <= 0 or banded is None:
            raise ToolFailure("vehicles over 10 m must be booked by phone")
        name, price = banded
        if not b["vehicle_reg"] and sailing["vehicle_left"] < 1:
            raise ToolFailure("no vehicle space left on this sailing")
        charge = max(0, price - b["vehicle_pence"])
        if not b["vehicle_reg"]:
            self.db.execute(
                "UPDATE sailings SET vehicle_left = vehicle_left - 1 WHERE sailing_id = ?",
                (sailing["sailing_id"],),
            )
        reg = norm_reg(args.registration)
        self.db.execute(
            "UPDATE bookings SET vehicle_reg = ?, vehicle_length_m = ?, "
            "vehicle_pence = ? WHERE booking_ref = ?",
            (reg, args.length_m, max(price, b["vehicle_pence"]), b["booking_ref"]),
        )
        self._charge(b, "vehicle", charge)
        return {
            "booking_ref": b["booking_ref"],
            "registration": reg,
            "band": name,
            "charged": money(charge),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Take the vehicle off a booking. Flexi fares get the vehicle price back on the card; "
        "Standard and Saver get nothing back. Pets need the vehicle unless in a pet cabin."
    )
    def remove_vehicle(self, args: Ref) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        sailing = self._not_departed(b)
        if not b["vehicle_reg"]:
            raise ToolFailure("there is no vehicle on this booking")
        if b["pets"] and b["cabin"] != "pet":
            raise ToolFailure("the booking's pets travel in the vehicle: remove them first")
        back = b["vehicle_pence"] if b["fare_type"] == "flexi" else 0
        self.db.execute(
            "UPDATE bookings SET vehicle_reg = NULL, vehicle_length_m = NULL, "
            "vehicle_pence = 0 WHERE booking_ref = ?",
            (b["booking_ref"],),
        )
        self.db.execute(
            "UPDATE sailings SET vehicle_left = vehicle_left + 1 WHERE sailing_id = ?",
            (sailing["sailing_id"],),
        )
        self._charge(b, "refund", -back)
        return {
            "booking_ref": b["booking_ref"],
            "removed": b["vehicle_reg"],
            "refund": money(back),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Add a cabin on an overnight crossing: inside £79.00, outside (sea view) £99.00, "
        "pet-friendly £109.00, subject to availability."
    )
    def add_cabin(self, args: AddCabin) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        sailing = self._not_departed(b)
        kind = args.cabin_type.strip().lower()
        if kind not in _seed.CABINS:
            raise ToolFailure("cabin_type must be inside, outside or pet")
        if not sailing["overnight"]:
            raise ToolFailure("cabins are only on overnight crossings")
        if b["cabin"]:
            raise ToolFailure(f"the booking already has an {b['cabin']} cabin")
        if sailing[f"{kind}_left"] < 1:
            raise ToolFailure(f"no {kind} cabins left on this sailing")
        self.db.execute(
            f"UPDATE sailings SET {kind}_left = {kind}_left - 1 WHERE sailing_id = ?",
            (sailing["sailing_id"],),
        )
        self.db.execute(
            "UPDATE bookings SET cabin = ? WHERE booking_ref = ?", (kind, b["booking_ref"])
        )
        self._charge(b, "cabin", _seed.CABINS[kind])
        return {
            "booking_ref": b["booking_ref"],
            "cabin": kind,
            "charged": money(_seed.CABINS[kind]),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Add pets to a booking, £25.00 each. Pets travel in the booking's vehicle or a pet "
        "cabin. The system does not check the per-booking limit: the desk must."
    )
    def add_pets(self, args: AddPets) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_departed(b)
        if args.count < 1:
            raise ToolFailure("count must be at least 1")
        if not b["vehicle_reg"] and b["cabin"] != "pet":
            raise ToolFailure("pets can only travel in a vehicle or a pet cabin")
        price = _seed.PET_PENCE * args.count
        self.db.execute(
            "UPDATE bookings SET pets = pets + ? WHERE booking_ref = ?",
            (args.count, b["booking_ref"]),
        )
        self._charge(b, "pets", price)
        return {
            "booking_ref": b["booking_ref"],
            "pets": b["pets"] + args.count,
            "charged": money(price),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Change a passenger's name. Saver fares are non-transferable; Standard fares pay a "
        "£20.00 fee; Flexi is free."
    )
    def change_passenger_name(self, args: ChangeName) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_departed(b)
        if b["fare_type"] == "saver":
            raise ToolFailure("Saver fares are non-transferable: names cannot be changed")
        row = self._one(
            "SELECT * FROM passengers WHERE booking_ref = ? AND lower(name) = ?",
            b["booking_ref"],
            args.old_name.strip().lower(),
        )
        new = " ".join(args.new_name.split())
        if row is None:
            raise ToolFailure(f"no passenger {args.old_name} on this booking")
        if len(new.split()) < 2:
            raise ToolFailure("the new passenger's full name is needed")
        fee = _seed.NAME_FEE_PENCE if b["fare_type"] == "standard" else 0
        self.db.execute(
            "UPDATE passengers SET name = ? WHERE passenger_id = ?", (new, row["passenger_id"])
        )
        if row["name"] == b["lead_name"]:
            self.db.execute(
                "UPDATE bookings SET lead_name = ?, surname = ? WHERE booking_ref = ?",
                (new, new.split()[-1], b["booking_ref"]),
            )
        self._charge(b, "name_change_fee", fee, paid=False)
        return {
            "booking_ref": b["booking_ref"],
            "old_name": row["name"],
            "new_name": new,
            "fee": money(fee),
            "card_last4": b["card_last4"],
        }

    @tool(
        "Cancel a booking before departure. Flexi: everything paid back to the card. "
        "Standard: all back 14 or more days before departure, half inside 14 days. Saver: a "
        "travel voucher for everything paid 14 or more days before, nothing inside 14 days. "
        "Fees are never refunded."
    )
    def cancel_booking(self, args: Ref) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        sailing = self._not_departed(b)
        early = self._days_to_go(sailing) >= _seed.FULL_REFUND_DAYS
        paid, method = b["paid_pence"], "card"
        if b["fare_type"] == "flexi":
            back = paid
        elif b["fare_type"] == "standard":
            back = paid if early else paid // 2
        else:
            back, method = (paid if early else 0), "voucher"
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?", (b["booking_ref"],)
        )
        self._charge(b, "refund", -back, method, paid=False)
        return {
            "booking_ref": b["booking_ref"],
            "status": "cancelled",
            "refund": money(back),
            "method": method,
            "card_last4": b["card_last4"],
        }

    @tool("Change the booking's contact email.")
    def update_email(self, args: UpdateEmail) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        email = args.email.strip()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email, re.I):
            raise ToolFailure(f"{email!r} is not an email address")
        self.db.execute(
            "UPDATE bookings SET email = ? WHERE booking_ref = ?", (email, b["booking_ref"])
        )
        return {"booking_ref": b["booking_ref"], "email": email}


def make_environment() -> FerryEnvironment:
    """A fresh ferry system, from the seed data."""
    return FerryEnvironment()


__all__ = ["FerryEnvironment", "make_environment", "money", "norm_reg"]
