"""The practice system the desk's agent works through: `VetEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from benchmarks.domains.vet import _seed
from benchmarks.domains.vet._args import (
    BookAppointment,
    CancelAppointment,
    ClientArgs,
    FindSlots,
    InvoiceArgs,
    MoveAppointment,
    OrderRepeat,
    PayInvoice,
    RegisterPet,
    UpdateContact,
    VerifyOwner,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

VET_REASONS = {"check_up", "vaccination", "consultation"}
TREATED = {"dog", "cat", "rabbit", "guinea pig", "ferret"}
POSTCODE = re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$")


def money(pence: int) -> str:
    return f"£{pence / 100:.2f}"


def _squash(text: str | None) -> str:
    return re.sub(r"\s+", "", text or "").upper()


def _phone_digits(text: str | None) -> str:
    digits = re.sub(r"\D", "", text or "")
    if digits.startswith("44"):
        digits = "0" + digits[2:]
    return digits


def _format_phone(digits: str) -> str:
    return f"{digits[:5]} {digits[5:]}"


def _working_days_after(day: date, count: int) -> date:
    while count:
        day += timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


class VetEnvironment(SqliteEnvironment):
    """Meadowbank Veterinary Practice: owners, pets, the diary, repeats and invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "client_number": ["client number"],
        "postcode": ["postcode"],
        "phone": ["phone number", "mobile number"],
        "pet_name": ["pet's name", "pets' names", "one of your pets"],
        "name": ["name on the account", "full name"],
        "pet": ["which pet", "which of your pets"],
        "date": ["which day", "what day", "which date"],
        "time": ["what time", "which time"],
        "reason": ["what is the appointment for", "what's the appointment for"],
        "quantity": ["how many", "how much"],
        "amount": ["how much would you like to pay"],
        "invoice_id": ["invoice number"],
        "new_phone": ["new phone number", "new number"],
        "new_email": ["new email"],
        "new_address": ["new address"],
        "species": ["what kind of animal", "species"],
        "breed": ["breed"],
        "date_of_birth": ["date of birth", "when was", "born"],
        "new_pet_name": ["what's their name", "what is their name", "name of the new pet"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The practice's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _all(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args).fetchall()]

    def _client(self, client_number: str) -> dict[str, Any]:
        client = self._one("SELECT * FROM clients WHERE client_number = ?",
                           _squash(client_number))
        if client is None:
            raise ToolFailure(f"no client with number {client_number}")
        return client

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        rows = self.db.execute(f"SELECT {column} FROM {table}").fetchall()
        numbers = [int(re.sub(r"\D", "", r[0])) for r in rows if r[0].startswith(prefix)]
        return f"{prefix}{max([start - 1, *numbers]) + 1}"

    def _slot(self, slot_id: str) -> dict[str, Any]:
        slot = self._one(
            "SELECT s.*, st.name AS staff FROM slots s JOIN staff st ON st.staff_id = s.staff_id "
            "WHERE s.slot_id = ?", slot_id.strip().upper())
        if slot is None:
            raise ToolFailure(f"no slot {slot_id} in the diary")
        return slot

    def _starts(self, day: str, time: str) -> datetime:
        hour, minute = (int(x) for x in time.split(":"))
        return datetime.combine(date.fromisoformat(day), datetime.min.time(),
                                tzinfo=_seed.LONDON).replace(hour=hour, minute=minute)

    def _is_late(self, appointment: dict[str, Any]) -> bool:
        starts = self._starts(appointment["date"], appointment["time"])
        return starts - self.now() < timedelta(hours=24)

    def _booked(self, appointment_id: str) -> dict[str, Any]:
        appt = self._one("SELECT * FROM appointments WHERE appointment_id = ?",
                         appointment_id.strip().upper())
        if appt is None:
            raise ToolFailure(f"no appointment {appointment_id}")
        if appt["status"] != "booked":
            raise ToolFailure(f"appointment {appointment_id} is already {appt['status']}")
        return appt

    def _fee_invoice(self, appt: dict[str, Any], what: str) -> str:
        invoice_id = self._next_id("invoices", "invoice_id", "INV-", 4460)
        today = self.now().date()
        self.db.execute(
            "INSERT INTO invoices VALUES (?,?,?,?,?,?,?,0,'open')",
            (invoice_id, appt["client_number"], appt["pet_id"],
             f"Late {what} fee ({appt['date']} {appt['time']})", today.isoformat(),
             (today + timedelta(days=30)).isoformat(), _seed.LATE_FEE_PENCE))
        return invoice_id

    def _pet_row(self, pet_id: str) -> dict[str, Any]:
        pet = self._one("SELECT * FROM pets WHERE pet_id = ?", pet_id.strip().upper())
        if pet is None:
            raise ToolFailure(f"no pet {pet_id}")
        return pet

    # -- identity and account --------------------------------------------------------------
    @tool("Check who the owner is: client_number and postcode, or phone and pet_name. "
          "Returns the client number and name, or refuses when the details do not match.")
    def verify_owner(self, args: VerifyOwner) -> dict[str, Any]:
        if args.client_number and args.postcode:
            client = self._one("SELECT * FROM clients WHERE client_number = ?",
                               _squash(args.client_number))
            ok = client is not None and _squash(client["postcode"]) == _squash(args.postcode)
        elif args.phone and args.pet_name:
            client = self._one(
                "SELECT c.* FROM clients c JOIN pets p ON p.client_number = c.client_number "
                "WHERE lower(p.name) = lower(?) AND replace(c.phone, ' ', '') = ?",
                args.pet_name.strip(), _phone_digits(args.phone))
            ok = client is not None
        else:
            raise ToolFailure("verification needs client_number and postcode, "
                              "or phone and pet_name")
        if not ok or client is None:
            raise ToolFailure("verification failed: no client matches those details")
        return {"verified": True, "client_number": client["client_number"],
                "name": client["name"]}

    @tool("The owner's account: contact details, card on file, pets (with last check-up), "
          "active prescriptions and upcoming appointments.")
    def get_account(self, args: ClientArgs) -> dict[str, Any]:
        client = self._client(args.client_number)
        cn = client["client_number"]
        pets = self._all("SELECT pet_id, name, species, breed, sex, date_of_birth, last_checkup "
                         "FROM pets WHERE client_number = ? ORDER BY pet_id", cn)
        rx = self._all(
            "SELECT r.prescription_id, r.pet_id, p.name AS pet_name, m.name AS medication, "
            "m.unit, r.dose, r.max_per_repeat, r.repeats_left, m.price_pence_per_unit, m.stock "
            "FROM prescriptions r JOIN pets p ON p.pet_id = r.pet_id "
            "JOIN medications m ON m.med_code = r.med_code WHERE p.client_number = ? "
            "ORDER BY r.prescription_id", cn)
        for item in rx:
            item["price_per_unit"] = money(item.pop("price_pence_per_unit"))
        appts = self._all(
            "SELECT a.appointment_id, a.pet_id, p.name AS pet_name, a.kind, a.date, a.time, "
            "a.staff, a.reason FROM appointments a JOIN pets p ON p.pet_id = a.pet_id "
            "WHERE a.client_number = ? AND a.status = 'booked' ORDER BY a.date, a.time", cn)
        return {
            "client_number": cn, "name": client["name"], "address": client["address"],
            "postcode": client["postcode"], "phone": client["phone"], "email": client["email"],
            "card_on_file": f"{client['card_brand']} ending {client['card_last4']}, "
                            f"expires {client['card_expiry']}",
            "pets": pets, "prescriptions": rx, "appointments": appts,
        }

    # -- the diary -------------------------------------------------------------------------
    @tool("Free vet or nurse slots on one day of the diary (tomorrow to Saturday 28 November).")
    def find_slots(self, args: FindSlots) -> dict[str, Any]:
        try:
            day = date.fromisoformat(args.date.strip())
        except ValueError:
            raise ToolFailure(f"{args.date!r} is not a date (YYYY-MM-DD)") from None
        if day <= self.now().date():
            raise ToolFailure("the online diary starts tomorrow; for today, "
                              "call the practice on 0117 496 0321")
        if day > _seed.DIARY_LAST:
            raise ToolFailure("the diary is open up to Saturday 28 November 2026 only")
        if day.weekday() == 6:
            raise ToolFailure("the practice is closed on Sundays")
        free = self._all(
            "SELECT s.slot_id, s.time, st.name AS staff FROM slots s JOIN staff st "
            "ON st.staff_id = s.staff_id WHERE s.date = ? AND s.kind = ? AND s.status = 'open' "
            "ORDER BY s.time", day.isoformat(), args.kind)
        return {"date": day.isoformat(), "kind": args.kind, "free": free}

    @tool("Book a vet or nurse slot for one of the owner's pets. Vet reasons: check_up, "
          "vaccination, consultation; nurse reasons: nail_clip, weight_check, microchip, "
          "post_op_check.")
    def book_appointment(self, args: BookAppointment) -> dict[str, Any]:
        client = self._client(args.client_number)
        pet = self._pet_row(args.pet_id)
        if pet["client_number"] != client["client_number"]:
            raise ToolFailure(f"pet {args.pet_id} is not registered to {client['client_number']}")
        slot = self._slot(args.slot_id)
        needs = "vet" if args.reason in VET_REASONS else "nurse"
        if slot["kind"] != needs:
            raise ToolFailure(f"a {args.reason.replace('_', ' ')} needs a {needs} appointment; "
                              f"{slot['slot_id']} is a {slot['kind']} slot")
        if slot["status"] != "open":
            raise ToolFailure(f"the {slot['time']} slot on {slot['date']} is no longer free")
        clash = self._one("SELECT time FROM appointments WHERE pet_id = ? AND date = ? "
                          "AND status = 'booked'", pet["pet_id"], slot["date"])
        if clash:
            raise ToolFailure(f"{pet['name']} already has an appointment at {clash['time']} "
                              f"on {slot['date']}")
        appointment_id = self._next_id("appointments", "appointment_id", "A-", 7101)
        self.db.execute("UPDATE slots SET status = 'taken' WHERE slot_id = ?", (slot["slot_id"],))
        self.db.execute(
            "INSERT INTO appointments VALUES (?,?,?,?,?,?,?,?,?,'booked',?,NULL,0)",
            (appointment_id, pet["pet_id"], client["client_number"], slot["slot_id"],
             slot["kind"], slot["date"], slot["time"], slot["staff"], args.reason,
             self.now().date().isoformat()))
        return {"appointment_id": appointment_id, "pet": pet["name"], "kind": slot["kind"],
                "date": slot["date"], "time": slot["time"], "with": slot["staff"],
                "reason": args.reason}

    @tool("Move a booked appointment to another free slot of the same kind. Less than 24 hours "
          "before the appointment, a £15.00 late-change fee is invoiced.")
    def move_appointment(self, args: MoveAppointment) -> dict[str, Any]:
        appt = self._booked(args.appointment_id)
        slot = self._slot(args.slot_id)
        if slot["kind"] != appt["kind"]:
            raise ToolFailure(f"a {appt['kind']} appointment can only move to another "
                              f"{appt['kind']} slot")
        if slot["status"] != "open":
            raise ToolFailure(f"the {slot['time']} slot on {slot['date']} is no longer free")
        if self._starts(slot["date"], slot["time"]) <= self.now():
            raise ToolFailure("that slot is in the past")
        late = self._is_late(appt)
        fee_invoice = self._fee_invoice(appt, "change") if late else None
        self.db.execute("UPDATE slots SET status = 'open' WHERE slot_id = ?", (appt["slot_id"],))
        self.db.execute("UPDATE slots SET status = 'taken' WHERE slot_id = ?", (slot["slot_id"],))
        self.db.execute(
            "UPDATE appointments SET slot_id = ?, date = ?, time = ?, staff = ?, "
            "late_fee_pence = late_fee_pence + ? WHERE appointment_id = ?",
            (slot["slot_id"], slot["date"], slot["time"], slot["staff"],
             _seed.LATE_FEE_PENCE if late else 0, appt["appointment_id"]))
        pet = self._pet_row(appt["pet_id"])
        return {"appointment_id": appt["appointment_id"], "pet": pet["name"],
                "from": {"date": appt["date"], "time": appt["time"]},
                "to": {"date": slot["date"], "time": slot["time"], "with": slot["staff"]},
                "late_fee": money(_seed.LATE_FEE_PENCE if late else 0),
                "fee_invoice_id": fee_invoice}

    @tool("Cancel a booked appointment. Less than 24 hours before it starts, a £15.00 "
          "late-cancellation fee is invoiced.")
    def cancel_appointment(self, args: CancelAppointment) -> dict[str, Any]:
        appt = self._booked(args.appointment_id)
        late = self._is_late(appt)
        fee_invoice = self._fee_invoice(appt, "cancellation") if late else None
        self.db.execute("UPDATE slots SET status = 'open' WHERE slot_id = ?", (appt["slot_id"],))
        self.db.execute(
            "UPDATE appointments SET status = 'cancelled', cancelled_on = ?, "
            "late_fee_pence = late_fee_pence + ? WHERE appointment_id = ?",
            (self.now().date().isoformat(), _seed.LATE_FEE_PENCE if late else 0,
             appt["appointment_id"]))
        pet = self._pet_row(appt["pet_id"])
        return {"appointment_id": appt["appointment_id"], "pet": pet["name"],
                "date": appt["date"], "time": appt["time"], "status": "cancelled",
                "late_fee": money(_seed.LATE_FEE_PENCE if late else 0),
                "fee_invoice_id": fee_invoice}

    # -- repeat prescriptions --------------------------------------------------------------
    @tool("Order a repeat of a prescription (quantity in the prescription's unit, tablets or "
          "ml). The desk checks the check-up rule before ordering.")
    def order_repeat(self, args: OrderRepeat) -> dict[str, Any]:
        rx = self._one(
            "SELECT r.*, m.name AS medication, m.unit, m.price_pence_per_unit, m.stock "
            "FROM prescriptions r JOIN medications m ON m.med_code = r.med_code "
            "WHERE r.prescription_id = ?", args.prescription_id.strip().upper())
        if rx is None:
            raise ToolFailure(f"no prescription {args.prescription_id}")
        if rx["repeats_left"] <= 0:
            raise ToolFailure(f"no repeats left on {rx['prescription_id']}; the vet needs to "
                              "review the pet before prescribing again")
        if args.quantity <= 0:
            raise ToolFailure("quantity must be at least 1")
        if args.quantity > rx["max_per_repeat"]:
            raise ToolFailure(f"a repeat of {rx['medication']} is limited to "
                              f"{rx['max_per_repeat']} {rx['unit']}")
        order_id = self._next_id("repeat_orders", "order_id", "RO-", 9001)
        ready = _working_days_after(self.now().date(), 1 if rx["stock"] == "in_stock" else 3)
        price = args.quantity * rx["price_pence_per_unit"]
        self.db.execute(
            "INSERT INTO repeat_orders VALUES (?,?,?,?,?,?,?,'ordered')",
            (order_id, rx["prescription_id"], rx["pet_id"], args.quantity, price,
             self.now().date().isoformat(), ready.isoformat()))
        self.db.execute("UPDATE prescriptions SET repeats_left = repeats_left - 1 "
                        "WHERE prescription_id = ?", (rx["prescription_id"],))
        pet = self._pet_row(rx["pet_id"])
        return {"order_id": order_id, "pet": pet["name"], "medication": rx["medication"],
                "quantity": args.quantity, "unit": rx["unit"], "price": money(price),
                "ready_on": ready.isoformat(), "ready_from": "14:00",
                "repeats_left": rx["repeats_left"] - 1}

    # -- invoices --------------------------------------------------------------------------
    @tool("The owner's invoices with what is outstanding on each.")
    def list_invoices(self, args: ClientArgs) -> dict[str, Any]:
        client = self._client(args.client_number)
        rows = self._all(
            "SELECT i.*, p.name AS pet FROM invoices i LEFT JOIN pets p ON p.pet_id = i.pet_id "
            "WHERE i.client_number = ? ORDER BY i.issued_on, i.invoice_id",
            client["client_number"])
        invoices = [self._invoice_view(r) for r in rows]
        total = sum(r["amount_pence"] - r["paid_pence"] for r in rows)
        return {"client_number": client["client_number"], "invoices": invoices,
                "total_outstanding": money(total)}

    @tool("One invoice by its number.")
    def get_invoice(self, args: InvoiceArgs) -> dict[str, Any]:
        row = self._one(
            "SELECT i.*, p.name AS pet, c.name AS owner FROM invoices i "
            "JOIN clients c ON c.client_number = i.client_number "
            "LEFT JOIN pets p ON p.pet_id = i.pet_id WHERE i.invoice_id = ?",
            _squash(args.invoice_id).replace("INV", "INV-").replace("--", "-"))
        if row is None:
            raise ToolFailure(f"no invoice {args.invoice_id}")
        view = self._invoice_view(row)
        view.update(client_number=row["client_number"], owner=row["owner"])
        return view

    def _invoice_view(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"invoice_id": row["invoice_id"], "pet": row["pet"],
                "description": row["description"], "issued_on": row["issued_on"],
                "due_on": row["due_on"], "amount": money(row["amount_pence"]),
                "paid": money(row["paid_pence"]),
                "outstanding": money(row["amount_pence"] - row["paid_pence"]),
                "status": row["status"]}

    @tool("Take a payment towards an invoice from the owner's card on file (part payments "
          "allowed, never more than is outstanding).")
    def pay_invoice(self, args: PayInvoice) -> dict[str, Any]:
        invoice = self._one("SELECT * FROM invoices WHERE invoice_id = ?",
                            args.invoice_id.strip().upper())
        if invoice is None:
            raise ToolFailure(f"no invoice {args.invoice_id}")
        outstanding = invoice["amount_pence"] - invoice["paid_pence"]
        pence = round(args.amount * 100)
        if outstanding <= 0:
            raise ToolFailure(f"{invoice['invoice_id']} is already paid")
        if pence <= 0:
            raise ToolFailure("the amount must be more than £0.00")
        if pence > outstanding:
            raise ToolFailure(f"only {money(outstanding)} is outstanding on "
                              f"{invoice['invoice_id']}")
        client = self._client(invoice["client_number"])
        month, year = (int(x) for x in client["card_expiry"].split("/"))
        if (year, month) < (self.now().year, self.now().month):
            raise ToolFailure(f"payment declined: the card on file ({client['card_brand']} "
                              f"ending {client['card_last4']}) expired {client['card_expiry']}")
        payment_id = self._next_id("payments", "payment_id", "PAY-", 3101)
        self.db.execute("INSERT INTO payments VALUES (?,?,?,?,?)",
                        (payment_id, invoice["invoice_id"], pence, client["card_last4"],
                         self.now().date().isoformat()))
        paid = invoice["paid_pence"] + pence
        status = "paid" if paid >= invoice["amount_pence"] else "open"
        self.db.execute("UPDATE invoices SET paid_pence = ?, status = ? WHERE invoice_id = ?",
                        (paid, status, invoice["invoice_id"]))
        return {"payment_id": payment_id, "invoice_id": invoice["invoice_id"],
                "charged": money(pence),
                "card": f"{client['card_brand']} ending {client['card_last4']}",
                "outstanding": money(invoice["amount_pence"] - paid), "status": status}

    # -- contact details and new pets ------------------------------------------------------
    @tool("Change the owner's phone, email or address (a new address needs its postcode).")
    def update_contact(self, args: UpdateContact) -> dict[str, Any]:
        client = self._client(args.client_number)
        changes: dict[str, str] = {}
        if args.phone is not None:
            digits = _phone_digits(args.phone)
            if not re.fullmatch(r"0[127]\d{9}", digits):
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            changes["phone"] = _format_phone(digits)
        if args.email is not None:
            if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", args.email.strip().lower()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            changes["email"] = args.email.strip().lower()
        if args.address is not None or args.postcode is not None:
            postcode = _squash(args.postcode)
            if not args.address or not POSTCODE.fullmatch(postcode):
                raise ToolFailure("a new address needs the street address and a valid postcode")
            changes["address"] = args.address.strip()
            changes["postcode"] = f"{postcode[:-3]} {postcode[-3:]}"
        if not changes:
            raise ToolFailure("nothing to update: give a phone, email or address")
        sets = ", ".join(f"{k} = ?" for k in changes)
        self.db.execute(f"UPDATE clients SET {sets} WHERE client_number = ?",
                        (*changes.values(), client["client_number"]))
        now = self._client(client["client_number"])
        return {"client_number": now["client_number"], "updated": sorted(changes),
                "phone": now["phone"], "email": now["email"], "address": now["address"],
                "postcode": now["postcode"]}

    @tool("Register a new pet on the owner's account (dogs, cats, rabbits, guinea pigs and "
          "ferrets only).")
    def register_pet(self, args: RegisterPet) -> dict[str, Any]:
        client = self._client(args.client_number)
        species = args.species.strip().lower()
        if species not in TREATED:
            raise ToolFailure(f"Meadowbank does not treat {species}s: we see dogs, cats, "
                              "rabbits, guinea pigs and ferrets")
        try:
            born = date.fromisoformat(args.date_of_birth.strip())
        except ValueError:
            raise ToolFailure(f"{args.date_of_birth!r} is not a date (YYYY-MM-DD)") from None
        if born > self.now().date():
            raise ToolFailure("the date of birth is in the future")
        name = args.name.strip().title()
        if self._one("SELECT 1 FROM pets WHERE client_number = ? AND lower(name) = lower(?)",
                     client["client_number"], name):
            raise ToolFailure(f"a pet called {name} is already registered on this account")
        pet_id = self._next_id("pets", "pet_id", "P", 116)
        breed = (args.breed or "unknown").strip()
        self.db.execute(
            "INSERT INTO pets VALUES (?,?,?,?,?,?,?,NULL,?)",
            (pet_id, client["client_number"], name, species, breed, args.sex, born.isoformat(),
             self.now().date().isoformat()))
        return {"pet_id": pet_id, "name": name, "species": species, "breed": breed,
                "sex": args.sex, "date_of_birth": born.isoformat(),
                "client_number": client["client_number"]}


def make_environment() -> VetEnvironment:
    """A fresh practice, from the seed data."""
    return VetEnvironment()
