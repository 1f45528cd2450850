"""Brightsmile Dental: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Tuesday 8 December 2026, 10:00 (UK, GMT). Appointments are 30
minutes. The practice is open Monday to Friday, 09:00-17:00.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

LATE_FEE_PENCE = 2500            # cancelling or moving within 24 hours
DEPOSIT_SHARE = 0.20             # payment plans: 20 % deposit taken today
PLAN_MONTHS = (3, 6, 10)
PLAN_MINIMUM_PENCE = 30000       # private plans of £300.00 or more
# What a visit costs, paid at the visit (nothing is charged when booking).
VISIT_PENCE = {
    ("dentist", "nhs"): 2740, ("dentist", "private"): 5500,
    ("hygiene", "nhs"): 7500, ("hygiene", "private"): 7500,       # hygiene is private only
    ("emergency", "nhs"): 2740, ("emergency", "private"): 9500,
}
CLINICIANS = {"dentist": ("Dr Anita Patel", "Dr Owen Hughes"), "hygiene": ("Amy Clarke",),
              "emergency": ("Dr Owen Hughes",)}
TIMES = {
    "Dr Anita Patel": ("09:00", "09:30", "10:00", "11:00", "14:00", "14:30", "15:30"),
    "Dr Owen Hughes": ("09:00", "10:30", "14:00", "16:00"),
    "Amy Clarke": ("09:00", "10:00", "11:30", "14:00", "14:30", "15:00"),
}
EMERGENCY_TIMES = ("11:30", "16:30")   # released at 08:00 each weekday, for that day only


def at(stamp: str) -> datetime:
    """A stored 'YYYY-MM-DD HH:MM' (UK time) as an aware datetime."""
    return datetime.strptime(stamp, STAMP).replace(tzinfo=UK)


SCHEMA_SQL = """
CREATE TABLE patients (
    patient_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,         -- YYYY-MM-DD
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    band TEXT NOT NULL,                  -- nhs / private
    card_last4 TEXT NOT NULL,            -- card on file
    staff_note TEXT NOT NULL DEFAULT ''  -- internal: never read out
);
CREATE TABLE slots (
    slot_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,                  -- dentist / hygiene / emergency
    clinician TEXT NOT NULL,
    start_at TEXT NOT NULL,              -- YYYY-MM-DD HH:MM, UK time
    taken INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE appointments (
    appointment_id TEXT PRIMARY KEY,
    patient_id TEXT NOT NULL REFERENCES patients(patient_id),
    slot_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    clinician TEXT NOT NULL,
    start_at TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,                -- booked / cancelled / attended
    late_fee_pence INTEGER NOT NULL DEFAULT 0,
    cancelled_at TEXT
);
CREATE TABLE treatment_plans (
    plan_id TEXT PRIMARY KEY,
    patient_id TEXT NOT NULL REFERENCES patients(patient_id),
    description TEXT NOT NULL,
    band TEXT NOT NULL,                  -- nhs_band_1 / nhs_band_2 / nhs_band_3 / private
    total_pence INTEGER NOT NULL,
    status TEXT NOT NULL,                -- quoted / payment_plan / paid
    months INTEGER NOT NULL DEFAULT 0,
    deposit_pence INTEGER NOT NULL DEFAULT 0,
    monthly_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,
    patient_id TEXT NOT NULL REFERENCES patients(patient_id),
    description TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,            -- the card it was paid with
    card_expired INTEGER NOT NULL DEFAULT 0,
    refunded_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    patient_id TEXT NOT NULL,
    kind TEXT NOT NULL,                  -- late_fee / deposit / refund
    amount_pence INTEGER NOT NULL,       -- negative for a refund
    card_last4 TEXT NOT NULL,
    ref TEXT NOT NULL,                   -- appointment, plan or invoice
    created_at TEXT NOT NULL
);
"""

# id, name, born, postcode, email, band, card, staff note
PATIENTS = [
    ("P01", "Helen Carter", "1984-03-12", "BS6 5QT", "helen.carter@example.com", "private",
     "4821", ""),
    ("P02", "David Carter", "1982-07-30", "BS6 5QT", "d.carter@example.com", "private", "7710",
     "Very anxious about injections: book long slots, offer numbing gel."),
    ("P03", "Aisha Rahman", "1991-11-05", "BS7 8HL", "aisha.rahman@example.com", "nhs", "3307",
     ""),
    ("P04", "George Whitfield", "1958-02-19", "BS9 3DW", "g.whitfield@example.com", "nhs",
     "1946", "Warfarin: check INR before extractions."),
    ("P05", "Megan Price", "1996-06-24", "BS3 1PJ", "megan.price@example.com", "private", "6102",
     ""),
    ("P06", "Tom Becker", "1979-09-02", "BS8 4RE", "tom.becker@example.com", "private", "4410",
     ""),
    ("P07", "Sofia Marin", "1988-01-15", "BS5 6LN", "sofia.marin@example.com", "nhs", "2258", ""),
    ("P08", "Kwame Mensah", "1975-12-01", "BS16 2AX", "kwame.mensah@example.com", "private",
     "5539", ""),
    ("P09", "Lucy Ford", "2001-04-09", "BS2 9TY", "lucy.ford@example.com", "nhs", "8864", ""),
    ("P10", "Rajesh Iyer", "1969-10-28", "BS4 7GG", "rajesh.iyer@example.com", "private", "1173",
     "Two missed appointments in 2026: discharge warning letter sent 2 Nov."),
]

# id, patient, kind, clinician, start, reason, status
APPOINTMENTS = [
    ("A-1001", "P01", "hygiene", "Amy Clarke", "2026-12-15 10:00", "scale and polish", "booked"),
    ("A-1002", "P02", "dentist", "Dr Anita Patel", "2026-12-11 14:00", "check-up", "booked"),
    ("A-1003", "P04", "dentist", "Dr Owen Hughes", "2026-12-09 09:00", "check-up", "booked"),
    ("A-1004", "P05", "dentist", "Dr Anita Patel", "2026-12-11 09:00", "check-up", "booked"),
    ("A-1005", "P06", "hygiene", "Amy Clarke", "2026-12-16 11:30", "scale and polish", "booked"),
    ("A-1006", "P07", "dentist", "Dr Anita Patel", "2026-12-17 10:00", "two fillings",
     "booked"),
    ("A-1007", "P09", "dentist", "Dr Owen Hughes", "2026-12-08 16:00", "check-up", "booked"),
    ("A-1008", "P03", "hygiene", "Amy Clarke", "2026-11-20 10:00", "scale and polish",
     "attended"),
    ("A-1009", "P10", "dentist", "Dr Anita Patel", "2026-12-14 11:00", "crown preparation",
     "booked"),
]

# id, patient, description, band, total
PLANS = [
    ("TP-501", "P08", "Implant, lower left molar (implant, abutment and crown)", "private",
     240000),
    ("TP-502", "P07", "Two fillings, upper right", "nhs_band_2", 7530),
    ("TP-503", "P03", "Crown, lower right first molar", "nhs_band_3", 32670),
    ("TP-504", "P10", "Root canal and porcelain crown, upper left premolar", "private", 115000),
    ("TP-505", "P01", "Tooth whitening (home trays)", "private", 35000),
]

# id, patient, description, issued, amount, paid, card, card expired
INVOICES = [
    ("INV-7001", "P06", "Hygiene visit 14 October 2026", "2026-10-14", 7500, 15000, "4410", 0),
    ("INV-7002", "P10", "Consultation 3 September 2026", "2026-09-03", 6000, 12000, "9032", 1),
    ("INV-7003", "P04", "NHS band 1 check-up 2 November 2026", "2026-11-02", 2740, 0, "1946", 0),
    ("INV-7004", "P05", "Private check-up 2 June 2026", "2026-06-02", 5500, 5500, "6102", 0),
]


def slot_id(kind: str, clinician: str, stamp: str) -> str:
    initials = "".join(w[0] for w in clinician.replace("Dr ", "").split())
    return f"{kind[0].upper()}{initials}-{stamp[5:7]}{stamp[8:10]}-{stamp[11:13]}{stamp[14:16]}"


def all_slots() -> list[tuple[str, str, str, str]]:
    """Slots from today to Friday 18 December (weekdays), and today's emergency slots."""
    out = []
    day = NOW.date()
    while day <= date(2026, 12, 18):
        if day.weekday() < 5:
            for kind in ("dentist", "hygiene"):
                for clinician in CLINICIANS[kind]:
                    for hhmm in TIMES[clinician]:
                        stamp = f"{day.isoformat()} {hhmm}"
                        out.append((slot_id(kind, clinician, stamp), kind, clinician, stamp))
        day += timedelta(days=1)
    for hhmm in EMERGENCY_TIMES:
        stamp = f"{NOW.date().isoformat()} {hhmm}"
        out.append((slot_id("emergency", "Dr Owen Hughes", stamp), "emergency",
                    "Dr Owen Hughes", stamp))
    return out


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO patients VALUES (?,?,?,?,?,?,?,?)", PATIENTS)
    db.executemany("INSERT INTO slots (slot_id, kind, clinician, start_at) VALUES (?,?,?,?)",
                   all_slots())
    for aid, patient, kind, clinician, start, reason, status in APPOINTMENTS:
        sid = slot_id(kind, clinician, start)
        db.execute("INSERT INTO appointments (appointment_id, patient_id, slot_id, kind, "
                   "clinician, start_at, reason, status) VALUES (?,?,?,?,?,?,?,?)",
                   (aid, patient, sid, kind, clinician, start, reason, status))
        db.execute("UPDATE slots SET taken = 1 WHERE slot_id = ?", (sid,))
    db.executemany("INSERT INTO treatment_plans (plan_id, patient_id, description, band, "
                   "total_pence, status) VALUES (?,?,?,?,?,'quoted')", PLANS)
    db.executemany("INSERT INTO invoices (invoice_id, patient_id, description, issued_on, "
                   "amount_pence, paid_pence, card_last4, card_expired) VALUES (?,?,?,?,?,?,?,?)",
                   INVOICES)
