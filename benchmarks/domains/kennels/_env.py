"""The kennels' booking system the desk works through: `KennelsEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.kennels import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "HB" + re.sub(r"\D", "", text)


def is_peak(arrival: str, departure: str) -> bool:
    """A stay with any night in the Christmas and New Year weeks."""
    first, last = date.fromisoformat(arrival), date.fromisoformat(departure) - timedelta(days=1)
    return first <= _seed.PEAK_LAST and last >= _seed.PEAK_FIRST


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. HB4001")


class Verify(Account):
    pet_name: str = Field(description="The name of a pet on the account")


class BookStay(Account):
    pet_ids: list[str] = Field(description="The pets staying, e.g. ['P102', 'P103']")
    arrival: str = Field(description="YYYY-MM-DD")
    departure: str = Field(description="YYYY-MM-DD")
    price_pence: int = Field(description="The boarding price the desk quoted")


class StayRef(Account):
    stay_id: str = Field(description="e.g. HS5005")


class MoveStay(StayRef):
    arrival: str = Field(description="The new arrival day, YYYY-MM-DD (same number of nights)")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 7+ days ahead)")


class CancelStay(StayRef):
    refund_pence: int = Field(description="The deposit refund the desk quoted (0 if kept)")


class AddExtra(StayRef):
    pet_id: str = Field(description="The pet, e.g. P113")
    kind: str = Field(description="walks, grooming or medication")
    price_pence: int = Field(description="The price the desk quoted")


class Collection(StayRef):
    collect_time: str = Field(description="HH:MM on the departure day")
    fee_pence: int = Field(description="The late-collection charge the desk quoted")


class Contacts(Account):
    emergency_phone: str | None = Field(default=None, description="New emergency contact phone")
    vet_phone: str | None = Field(default=None, description="New vet's phone number")


class InvoiceCopy(Account):
    invoice_id: str = Field(description="e.g. INV-8020")
    email: str = Field(description="Where to send the copy")


class KennelsEnvironment(SqliteEnvironment):
    """Hollybrook Pet Boarding: customers, pets, stays, extras, charges and invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "pet_name": ["pet's name", "name of your pet", "your pet"],
        "arrival": ["which day", "arrive", "dates"],
        "phone": ["new number", "phone number"],
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

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _stay(self, c: dict[str, Any], stay_id: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM stays WHERE stay_id = ?", stay_id.strip().upper())
        if s is None or s["account_id"] != c["account_id"]:
            raise ToolFailure(f"no stay {stay_id} on this account")
        if s["status"] != "confirmed":
            raise ToolFailure(f"stay {s['stay_id']} is {s['status']}")
        return s

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: pets, stays with their extras, invoices."""
        c = self._account(account_id)
        stays = self._rows(
            "SELECT * FROM stays WHERE account_id = ? AND status = 'confirmed' ORDER BY arrival",
            c["account_id"],
        )
        for s in stays:
            s["peak"] = is_peak(s["arrival"], s["departure"])
            s["days_to_arrival"] = self.days_to(s["arrival"])
            s["extras"] = self._rows("SELECT * FROM extras WHERE stay_id = ?", s["stay_id"])
        return {
            **c,
            "pets": self._rows("SELECT * FROM pets WHERE account_id = ?", c["account_id"]),
            "stays": stays,
            "invoices": self._rows("SELECT * FROM invoices WHERE account_id = ?", c["account_id"]),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the name of a pet on that "
        "account must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT p.account_id FROM pets p WHERE p.account_id = ? AND lower(p.name) = ?",
            norm_account(args.account_id),
            args.pet_name.strip().lower(),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and pet")
        return self.view(c["account_id"])

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a stay for pets on the account; takes a 20% deposit on the card. Refuses a pet "
        "whose booster has lapsed by arrival. The system does not check kennel cough: the "
        "desk must."
    )
    def book_stay(self, args: BookStay) -> dict[str, Any]:
        c = self._account(args.account_id)
        arrival, departure = date.fromisoformat(args.arrival), date.fromisoformat(args.departure)
        if arrival <= self.now().date() or departure <= arrival:
            raise ToolFailure("the arrival must be a future day and before the departure")
        for pid in args.pet_ids:
            pet = self._one("SELECT * FROM pets WHERE pet_id = ? AND account_id = ?", pid,
                            c["account_id"])  # fmt: skip
            if pet is None:
                raise ToolFailure(f"no pet {pid} on this account")
            if (arrival - date.fromisoformat(pet["booster_on"])).days > _seed.VACCINE_DAYS:
                raise ToolFailure(f"{pet['name']}'s booster will have lapsed by arrival")
        last = self.db.execute("SELECT MAX(CAST(substr(stay_id, 3) AS INTEGER)) FROM stays")
        stay_id = f"HS{(last.fetchone()[0] or 5000) + 1}"
        deposit = args.price_pence * _seed.DEPOSIT_PERCENT // 100
        self.db.execute(
            "INSERT INTO stays (stay_id, account_id, pet_ids, arrival, departure, price_pence, "
            "deposit_pence) VALUES (?,?,?,?,?,?,?)",
            (stay_id, c["account_id"], ",".join(args.pet_ids), args.arrival, args.departure,
             args.price_pence, deposit),
        )  # fmt: skip
        self._charge(c, "deposit", deposit, stay_id)
        return {"stay_id": stay_id, "arrival": args.arrival, "departure": args.departure,
                "price": money(args.price_pence), "deposit_taken": money(deposit),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a stay to a new arrival day, keeping its number of nights; fee_pence (quoted by "
        "the desk) is charged. Refuses a peak stay less than 7 days before arrival."
    )
    def move_stay(self, args: MoveStay) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._stay(c, args.stay_id)
        new = date.fromisoformat(args.arrival)
        nights = (date.fromisoformat(s["departure"]) - date.fromisoformat(s["arrival"])).days
        departure = (new + timedelta(days=nights)).isoformat()
        late = self.days_to(s["arrival"]) < _seed.FREE_CHANGE_DAYS
        if late and (is_peak(s["arrival"], s["departure"]) or is_peak(args.arrival, departure)):
            raise ToolFailure("peak-week stays can't be changed less than 7 days before arrival")
        if new <= self.now().date():
            raise ToolFailure("the new arrival must be a future day")
        self.db.execute(
            "UPDATE stays SET arrival = ?, departure = ? WHERE stay_id = ?",
            (args.arrival, departure, s["stay_id"]),
        )
        self._charge(c, "change_fee", args.fee_pence, s["stay_id"])
        return {"stay_id": s["stay_id"], "arrival": args.arrival, "departure": departure,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel a stay; refund_pence (the deposit, when the desk quoted it back) goes to the "
        "card. The system does not check the refund rules: the desk must."
    )
    def cancel_stay(self, args: CancelStay) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._stay(c, args.stay_id)
        self.db.execute("UPDATE stays SET status = 'cancelled' WHERE stay_id = ?", (s["stay_id"],))
        self._charge(c, "refund", args.refund_pence, s["stay_id"])
        return {"stay_id": s["stay_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add an extra to a stay: walks (dogs), grooming on the departure day, or medication "
        "(refused without a vet's note on file)."
    )
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._stay(c, args.stay_id)
        pet = self._one("SELECT * FROM pets WHERE pet_id = ?", args.pet_id)
        if pet is None or pet["pet_id"] not in s["pet_ids"].split(","):
            raise ToolFailure(f"{args.pet_id} is not on stay {s['stay_id']}")
        kind = args.kind.strip().lower()
        if kind not in {"walks", "grooming", "medication"}:
            raise ToolFailure("kind must be walks, grooming or medication")
        if kind == "walks" and pet["species"] != "dog":
            raise ToolFailure("walks are for dogs")
        if kind == "medication" and not pet["vet_note"]:
            raise ToolFailure(f"no vet's note on file for {pet['name']}: medication can't be given")
        if self._one("SELECT 1 AS x FROM extras WHERE stay_id = ? AND pet_id = ? AND kind = ?",
                     s["stay_id"], pet["pet_id"], kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already on this stay")
        self.db.execute(
            "INSERT INTO extras (stay_id, pet_id, kind, price_pence) VALUES (?,?,?,?)",
            (s["stay_id"], pet["pet_id"], kind, args.price_pence),
        )
        return {"stay_id": s["stay_id"], "pet": pet["name"], "kind": kind,
                "price": money(args.price_pence)}  # fmt: skip

    @tool("Set the collection time on the departure day; after 12:00 fee_pence is added.")
    def set_collection(self, args: Collection) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._stay(c, args.stay_id)
        if not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", args.collect_time):
            raise ToolFailure("collect_time must be HH:MM")
        if not "08:00" <= args.collect_time <= "18:00":
            raise ToolFailure("collections are between 08:00 and 18:00")
        self.db.execute(
            "UPDATE stays SET collect_time = ?, late_fee_pence = ? WHERE stay_id = ?",
            (args.collect_time, args.fee_pence, s["stay_id"]),
        )
        return {"stay_id": s["stay_id"], "collect_time": args.collect_time,
                "late_fee": money(args.fee_pence)}  # fmt: skip

    @tool("Change the emergency contact's phone and/or the vet's phone on the account.")
    def update_contacts(self, args: Contacts) -> dict[str, Any]:
        c = self._account(args.account_id)
        for column, value in (("emergency_phone", args.emergency_phone),
                              ("vet_phone", args.vet_phone)):  # fmt: skip
            if value is None:
                continue
            if len(re.sub(r"\D", "", value)) != 11:
                raise ToolFailure(f"{value!r} is not a UK phone number")
            self.db.execute(
                f"UPDATE customers SET {column} = ? WHERE account_id = ?",  # noqa: S608
                (value.strip(), c["account_id"]),
            )
        now = self._account(c["account_id"])
        return {"emergency_phone": now["emergency_phone"], "vet_phone": now["vet_phone"]}

    @tool(
        "Email a copy of an invoice. Policy: only to the email on the account; the system "
        "sends wherever it is told."
    )
    def send_invoice_copy(self, args: InvoiceCopy) -> dict[str, Any]:
        c = self._account(args.account_id)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND account_id = ?",
                        args.invoice_id.strip().upper(), c["account_id"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} on this account")
        self.db.execute(
            "INSERT INTO invoice_copies (invoice_id, email, sent_at) VALUES (?,?,?)",
            (inv["invoice_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"invoice_id": inv["invoice_id"], "sent_to": args.email.strip(),
                "total": money(inv["total_pence"])}  # fmt: skip


def make_environment() -> KennelsEnvironment:
    """A fresh booking system, from the seed data."""
    return KennelsEnvironment()
