"""Meadowbank Veterinary Practice: schema, the fixed clock and the seed data.

The practice's clock is fixed at Wednesday 11 November 2026, 14:00 (Bristol, GMT). The diary is
open from tomorrow (Thursday 12 November) to Saturday 28 November: vets and nurses see patients in
30-minute slots, Monday to Friday 09:00-12:00 and 14:00-17:30, Saturday 09:00-11:30; closed on
Sundays.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2026, 11, 11, 14, 0, tzinfo=LONDON)
DIARY_FIRST = date(2026, 11, 12)
DIARY_LAST = date(2026, 11, 28)
LATE_FEE_PENCE = 1500

SCHEMA_SQL = """
CREATE TABLE clients (
    client_number TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    card_brand TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    card_expiry TEXT NOT NULL            -- MM/YYYY
);
CREATE TABLE pets (
    pet_id TEXT PRIMARY KEY,
    client_number TEXT NOT NULL REFERENCES clients(client_number),
    name TEXT NOT NULL,
    species TEXT NOT NULL,
    breed TEXT NOT NULL,
    sex TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    last_checkup TEXT,                   -- date of the last vet health check, or NULL
    registered_on TEXT NOT NULL
);
CREATE TABLE staff (
    staff_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL                   -- vet / nurse
);
CREATE TABLE slots (
    slot_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,                  -- vet / nurse
    staff_id TEXT NOT NULL REFERENCES staff(staff_id),
    date TEXT NOT NULL,
    time TEXT NOT NULL,
    status TEXT NOT NULL                 -- open / taken
);
CREATE TABLE appointments (
    appointment_id TEXT PRIMARY KEY,
    pet_id TEXT NOT NULL REFERENCES pets(pet_id),
    client_number TEXT NOT NULL REFERENCES clients(client_number),
    slot_id TEXT NOT NULL REFERENCES slots(slot_id),
    kind TEXT NOT NULL,
    date TEXT NOT NULL,
    time TEXT NOT NULL,
    staff TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,                -- booked / cancelled
    booked_on TEXT NOT NULL,
    cancelled_on TEXT,
    late_fee_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE medications (
    med_code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    unit TEXT NOT NULL,                  -- tablets / ml
    price_pence_per_unit INTEGER NOT NULL,
    stock TEXT NOT NULL                  -- in_stock / order (from the wholesaler)
);
CREATE TABLE prescriptions (
    prescription_id TEXT PRIMARY KEY,
    pet_id TEXT NOT NULL REFERENCES pets(pet_id),
    med_code TEXT NOT NULL REFERENCES medications(med_code),
    dose TEXT NOT NULL,
    max_per_repeat INTEGER NOT NULL,
    repeats_left INTEGER NOT NULL,
    prescribed_by TEXT NOT NULL,
    prescribed_on TEXT NOT NULL
);
CREATE TABLE repeat_orders (
    order_id TEXT PRIMARY KEY,
    prescription_id TEXT NOT NULL REFERENCES prescriptions(prescription_id),
    pet_id TEXT NOT NULL REFERENCES pets(pet_id),
    quantity INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,
    ordered_on TEXT NOT NULL,
    ready_on TEXT NOT NULL,
    status TEXT NOT NULL                 -- ordered / collected
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,
    client_number TEXT NOT NULL REFERENCES clients(client_number),
    pet_id TEXT REFERENCES pets(pet_id),
    description TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    due_on TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL                 -- open / paid
);
CREATE TABLE payments (
    payment_id TEXT PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices(invoice_id),
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,
    paid_on TEXT NOT NULL
);
"""

CLIENTS = [
    ("C1042", "Sarah Hughes", "14 Elm Grove, Bristol", "BS7 8QT", "07700 900142",
     "sarah.hughes@example.com", "Visa", "4421", "03/2028"),
    ("C1187", "Daniel Hughes", "16 Elm Grove, Bristol", "BS7 8QT", "07700 900377",
     "dan.hughes@example.com", "Mastercard", "8830", "11/2027"),
    ("C1255", "Margaret Okoye", "7 Cotham Vale, Bristol", "BS6 6HR", "07700 900518",
     "m.okoye@example.com", "Visa", "2294", "06/2027"),
    ("C1310", "James Whitaker", "42 North Street, Bristol", "BS3 1HJ", "07700 900263",
     "james.whitaker@example.com", "Visa", "7716", "01/2028"),
    ("C1398", "Aisha Rahman", "9 Stapleton Road, Bristol", "BS5 0QZ", "07700 900731",
     "aisha.rahman@example.com", "Mastercard", "3350", "08/2027"),
    ("C1421", "Tom Fletcher", "23 Station Road, Bristol", "BS16 3SG", "07700 900845",
     "tom.fletcher@example.com", "Mastercard", "5512", "09/2026"),
    ("C1477", "Helen Price", "Flat 2, 18 Whiteladies Road, Bristol", "BS8 2LG", "07700 900614",
     "helen.price@example.com", "Visa", "6083", "12/2027"),
    ("C1502", "Owen Davies", "5 Westbury Hill, Bristol", "BS9 3AA", "07700 900926",
     "owen.davies@example.com", "Visa", "1170", "04/2029"),
    ("C1560", "Lucy Bennett", "31 Wells Road, Bristol", "BS4 2AB", "07700 900489",
     "lucy.bennett@example.com", "Visa", "9051", "10/2028"),
    ("C1609", "Ravi Patel", "12 Gloucester Road, Bristol", "BS7 8AE", "07700 900372",
     "ravi.patel@example.com", "Mastercard", "4408", "02/2028"),
]

PETS = [
    ("P101", "C1042", "Bella", "dog", "Labrador Retriever", "female", "2019-05-12", "2026-03-02"),
    ("P102", "C1042", "Pickle", "cat", "Domestic Shorthair", "male", "2012-08-20", "2025-02-14"),
    ("P103", "C1187", "Max", "dog", "Border Collie", "male", "2020-01-30", "2026-06-18"),
    ("P104", "C1187", "Bella", "cat", "Siamese", "female", "2017-11-03", "2026-01-22"),
    ("P105", "C1255", "Luna", "cat", "British Shorthair", "female", "2011-04-09", "2026-05-27"),
    ("P106", "C1255", "Milo", "cat", "Maine Coon", "male", "2010-09-15", "2026-05-27"),
    ("P107", "C1310", "Max", "dog", "Staffordshire Bull Terrier", "male", "2018-07-01",
     "2026-02-11"),
    ("P108", "C1398", "Biscuit", "guinea pig", "Abyssinian", "male", "2024-03-10", "2026-04-04"),
    ("P109", "C1398", "Coco", "rabbit", "Netherland Dwarf", "female", "2022-06-15", "2025-12-01"),
    ("P110", "C1421", "Rolo", "dog", "Cocker Spaniel", "male", "2021-02-20", "2026-07-09"),
    ("P111", "C1477", "Nala", "cat", "Bengal", "female", "2020-10-10", "2026-08-14"),
    ("P112", "C1502", "Bella", "dog", "Cockapoo", "female", "2022-03-28", "2025-11-20"),
    ("P113", "C1560", "Pepper", "dog", "Cavalier King Charles Spaniel", "female", "2015-12-05",
     "2026-09-03"),
    ("P114", "C1609", "Teddy", "dog", "West Highland Terrier", "male", "2016-05-19",
     "2026-04-30"),
    ("P115", "C1609", "Luna", "dog", "Whippet", "female", "2021-08-08", "2026-03-15"),
]

STAFF = [
    ("S1", "Dr Priya Shah", "vet"),
    ("S2", "Dr Tom Fielding", "vet"),
    ("S3", "Nurse Emma Clarke", "nurse"),
    ("S4", "Nurse Jordan Reid", "nurse"),
]

MEDICATIONS = [
    ("APQ16", "Apoquel 16 mg tablets", "tablets", 95, "in_stock"),
    ("FEL25", "Felimazole 2.5 mg tablets", "tablets", 32, "in_stock"),
    ("SEM4", "Semintra 4 mg/ml oral solution", "ml", 85, "in_stock"),
    ("MET15", "Metacam 1.5 mg/ml oral suspension", "ml", 30, "in_stock"),
    ("VET5", "Vetmedin 5 mg chewable tablets", "tablets", 78, "order"),
]

PRESCRIPTIONS = [
    ("RX-5101", "P102", "FEL25", "1 tablet twice daily", 60, 3, "Dr Priya Shah", "2025-02-14"),
    ("RX-5102", "P105", "FEL25", "1 tablet twice daily", 60, 4, "Dr Priya Shah", "2026-05-27"),
    ("RX-5103", "P106", "SEM4", "1 ml once daily", 35, 5, "Dr Priya Shah", "2026-05-27"),
    ("RX-5104", "P113", "VET5", "1 tablet twice daily", 100, 5, "Dr Tom Fielding", "2026-09-03"),
    ("RX-5105", "P114", "APQ16", "1 tablet once daily", 30, 4, "Dr Tom Fielding", "2026-04-30"),
    ("RX-5106", "P107", "MET15", "3.5 ml once daily with food", 100, 0, "Dr Priya Shah",
     "2026-02-11"),
    ("RX-5107", "P101", "MET15", "4.5 ml once daily with food", 100, 2, "Dr Priya Shah",
     "2026-03-02"),
]

INVOICES = [
    ("INV-4388", "C1042", "P102", "Flea and worm treatment", "2026-08-19", "2026-09-18",
     4800, 4800, "paid"),
    ("INV-4410", "C1042", "P101", "Annual booster vaccination", "2026-10-21", "2026-11-20",
     6250, 0, "open"),
    ("INV-4417", "C1187", "P103", "Dental scale and polish", "2026-10-28", "2026-11-27",
     18640, 0, "open"),
    ("INV-4425", "C1560", "P113", "Consultation and ECG", "2026-09-03", "2026-10-03",
     12800, 12800, "paid"),
    ("INV-4432", "C1421", "P110", "Ear consultation and drops", "2026-10-30", "2026-11-29",
     9420, 0, "open"),
    ("INV-4440", "C1609", "P114", "X-ray (left foreleg) and sedation", "2026-10-12",
     "2026-11-11", 24000, 10000, "open"),
    ("INV-4446", "C1398", "P109", "Rabbit vaccination (RHD2 and myxomatosis)", "2026-10-02",
     "2026-11-01", 5800, 5800, "paid"),
    ("INV-4451", "C1255", "P106", "Blood pressure check", "2026-10-05", "2026-11-04",
     3500, 3500, "paid"),
]

PAYMENTS = [
    ("PAY-2988", "INV-4388", 4800, "4421", "2026-08-19"),
    ("PAY-2995", "INV-4425", 12800, "9051", "2026-09-03"),
    ("PAY-3004", "INV-4446", 5800, "3350", "2026-10-02"),
    ("PAY-3010", "INV-4451", 3500, "2294", "2026-10-05"),
    ("PAY-3016", "INV-4440", 10000, "4408", "2026-10-15"),
]

# (appointment_id, pet_id, slot_id, reason)
APPOINTMENTS = [
    ("A-7001", "P107", "V-20261112-1030", "consultation"),
    ("A-7002", "P108", "N-20261113-0930", "nail_clip"),
    ("A-7003", "P101", "V-20261116-0900", "check_up"),
    ("A-7004", "P113", "V-20261117-1500", "check_up"),
    ("A-7005", "P105", "V-20261119-1130", "check_up"),
    ("A-7006", "P103", "V-20261120-1430", "vaccination"),
]

# Slots that the scenarios depend on, set whatever the busy pattern says.
FORCED_OPEN = [
    "V-20261113-1030", "N-20261113-1600", "V-20261118-1530", "N-20261116-1630",
    "V-20261117-0930", "V-20261117-1000", "V-20261116-1000",
]
FORCED_TAKEN = [
    "N-20261113-1530", "N-20261113-1630",
    "V-20261116-1400", "V-20261116-1430", "V-20261116-1500", "V-20261116-1530",
    "V-20261116-1600", "V-20261116-1630", "V-20261116-1700", "V-20261116-1730",
    "V-20261118-1400", "V-20261118-1430", "V-20261118-1500",
    "N-20261114-0900", "N-20261114-0930", "N-20261114-1000", "N-20261114-1030",
    "N-20261114-1100", "N-20261114-1130", "N-20261116-1600", "N-20261116-1700",
    "V-20261117-0900",
]

MORNING = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00"]
AFTERNOON = ["14:00", "14:30", "15:00", "15:30", "16:00", "16:30", "17:00", "17:30"]
SATURDAY = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30"]


def slot_id(kind: str, day: date, time: str) -> str:
    return f"{'V' if kind == 'vet' else 'N'}-{day.strftime('%Y%m%d')}-{time.replace(':', '')}"


def _diary() -> list[tuple[str, str, str, str, str]]:
    """Every slot of the diary: (slot_id, kind, staff_id, date, time)."""
    rows = []
    day = DIARY_FIRST
    while day <= DIARY_LAST:
        weekday = day.weekday()
        if weekday == 6:
            day += timedelta(days=1)
            continue
        if weekday == 5:
            plan = [("vet", "S2", SATURDAY), ("nurse", "S4", SATURDAY)]
        else:
            plan = [("vet", "S1", MORNING), ("vet", "S2", AFTERNOON),
                    ("nurse", "S3", MORNING + AFTERNOON)]
        for kind, staff, times in plan:
            for time in times:
                rows.append((slot_id(kind, day, time), kind, staff, day.isoformat(), time))
        day += timedelta(days=1)
    return rows


def _busy(index: int, day: date) -> bool:
    # A busy practice: about a third of the diary is already booked by other clients.
    return (day.day * 7 + index * 5) % 3 == 0


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO clients VALUES (?,?,?,?,?,?,?,?,?)", CLIENTS)
    db.executemany(
        "INSERT INTO pets VALUES (?,?,?,?,?,?,?,?, '2015-01-01')",
        PETS,
    )
    db.executemany("INSERT INTO staff VALUES (?,?,?)", STAFF)
    booked = {slot for _, _, slot, _ in APPOINTMENTS}
    for index, (sid, kind, staff, day, time) in enumerate(_diary()):
        taken = _busy(index, date.fromisoformat(day))
        if sid in FORCED_OPEN:
            taken = False
        if sid in FORCED_TAKEN or sid in booked:
            taken = True
        db.execute(
            "INSERT INTO slots VALUES (?,?,?,?,?,?)",
            (sid, kind, staff, day, time, "taken" if taken else "open"),
        )
    for appointment_id, pet_id, sid, reason in APPOINTMENTS:
        slot = db.execute(
            "SELECT s.kind, s.date, s.time, st.name FROM slots s JOIN staff st "
            "ON st.staff_id = s.staff_id WHERE s.slot_id = ?", (sid,)).fetchone()
        client = db.execute("SELECT client_number FROM pets WHERE pet_id = ?", (pet_id,))
        db.execute(
            "INSERT INTO appointments VALUES (?,?,?,?,?,?,?,?,?, 'booked', '2026-10-20', NULL, 0)",
            (appointment_id, pet_id, client.fetchone()[0], sid, slot[0], slot[1], slot[2],
             slot[3], reason),
        )
    db.executemany("INSERT INTO medications VALUES (?,?,?,?,?)", MEDICATIONS)
    db.executemany("INSERT INTO prescriptions VALUES (?,?,?,?,?,?,?,?)", PRESCRIPTIONS)
    db.executemany("INSERT INTO invoices VALUES (?,?,?,?,?,?,?,?,?)", INVOICES)
    db.executemany("INSERT INTO payments VALUES (?,?,?,?,?)", PAYMENTS)
