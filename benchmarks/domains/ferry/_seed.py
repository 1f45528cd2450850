"""Tidewater Ferries: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Tuesday 8 December 2026, 09:00 (UK, GMT). Three ports: Poole,
Cherbourg and St Malo. Poole-Cherbourg is a day crossing (two sailings each way a day);
Poole-St Malo is overnight (one sailing each way a night). Sailings run 1 December 2026 to
31 January 2027. Booking references are FB and four digits; the lead passenger's surname is
the second identity fact.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

AMEND_FEE_PENCE = 2500  # Standard and Saver: a change of sailing
FREE_AMEND_DAYS = 30  # ... free when the current sailing is 30+ days away
NAME_FEE_PENCE = 2000  # Standard: a passenger name change (Saver: not allowed)
PET_PENCE = 2500  # each pet, per booking
MAX_PETS = 2  # per booking
FULL_REFUND_DAYS = 14  # Standard: full refund 14+ days before departure, else half
PEAK = (date(2026, 12, 18), date(2027, 1, 3))  # inclusive; fares +£15.00 a passenger
PEAK_PENCE = 1500
# vehicle length bands: (up to metres, name, price in pence per booking)
BANDS = [
    (5.0, "car up to 5 m", 6000),
    (7.0, "vehicle 5 to 7 m", 8500),
    (10.0, "vehicle 7 to 10 m", 12000),
]
CABINS = {"inside": 7900, "outside": 9900, "pet": 10900}
CABIN_NAMES = {
    "inside": "inside cabin",
    "outside": "outside (sea-view) cabin",
    "pet": "pet-friendly cabin",
}

# route code: from, to, overnight, [(departure, arrival, passenger fare in pence)]
ROUTES = {
    "PC": ("Poole", "Cherbourg", False, [("08:30", "13:00", 4500), ("14:30", "19:00", 3900)]),
    "CP": ("Cherbourg", "Poole", False, [("10:00", "13:30", 4500), ("18:30", "22:00", 3900)]),
    "PS": ("Poole", "St Malo", True, [("20:15", "08:15", 5900)]),
    "SP": ("St Malo", "Poole", True, [("21:00", "07:30", 5900)]),
}
FIRST_DAY, LAST_DAY = date(2026, 12, 1), date(2027, 1, 31)
SOLD_OUT = {"SP-20261227-2100": {"outside_left": 0}, "PS-20261223-2015": {"pet_left": 0}}

SCHEMA_SQL = """
CREATE TABLE sailings (
    sailing_id TEXT PRIMARY KEY,              -- PC-20261215-0830
    route TEXT NOT NULL,                      -- PC / CP / PS / SP
    origin TEXT NOT NULL,
    destination TEXT NOT NULL,
    depart TEXT NOT NULL,                     -- YYYY-MM-DD HH:MM (local)
    arrive TEXT NOT NULL,                     -- HH:MM (next morning when overnight)
    overnight INTEGER NOT NULL,
    fare_pence INTEGER NOT NULL,              -- per passenger
    vehicle_left INTEGER NOT NULL,
    inside_left INTEGER NOT NULL,
    outside_left INTEGER NOT NULL,
    pet_left INTEGER NOT NULL
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- FB1243
    lead_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    fare_type TEXT NOT NULL,                  -- flexi / standard / saver
    sailing_id TEXT NOT NULL REFERENCES sailings(sailing_id),
    status TEXT NOT NULL DEFAULT 'active',    -- active / cancelled
    vehicle_reg TEXT,                         -- AB12 CDE
    vehicle_length_m REAL,
    vehicle_pence INTEGER NOT NULL DEFAULT 0,
    cabin TEXT,                               -- inside / outside / pet
    pets INTEGER NOT NULL DEFAULT 0,
    paid_pence INTEGER NOT NULL,              -- fares and extras paid (not fees)
    booked_on TEXT NOT NULL
);
CREATE TABLE passengers (
    passenger_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,   -- fare_difference / amendment_fee / vehicle / cabin / pets /
                          -- name_change_fee / refund
    amount_pence INTEGER NOT NULL,            -- negative: money back
    method TEXT NOT NULL,                     -- card / voucher
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# ref, lead, email, card, fare type, sailing, passengers, vehicle reg, length, cabin, pets
BOOKINGS = [
    ("FB1234", "Margaret Ellis", "m.ellis@example.com", "6120", "standard", "CP-20261220-1000",
     ["Margaret Ellis"], None, None, None, 0),
    ("FB1243", "Daniel Okafor", "daniel.okafor@example.com", "4471", "standard",
     "PC-20261215-0830", ["Daniel Okafor", "Ruth Okafor"], "KX19 PLM", 4.5, None, 0),
    ("FB2051", "Sian Morgan", "sian.morgan@example.com", "9052", "standard", "PC-20270115-1430",
     ["Sian Morgan"], None, None, None, 0),
    ("FB2117", "Arjun Mehta", "arjun.mehta@example.com", "2287", "flexi", "CP-20261228-1830",
     ["Arjun Mehta", "Leela Mehta"], None, None, None, 0),
    ("FB2260", "Claire Dubois", "claire.dubois@example.com", "6630", "standard",
     "PS-20261222-2015", ["Claire Dubois", "Marc Dubois"], "WD68 HHN", 4.6, None, 0),
    ("FB2302", "Liam Byrne", "liam.byrne@example.com", "3174", "standard", "PS-20270109-2015",
     ["Liam Byrne", "Aoife Byrne"], "LB17 KWE", 4.3, None, 0),
    ("FB2345", "Nadia Rossi", "nadia.rossi@example.com", "8802", "saver", "SP-20261227-2100",
     ["Nadia Rossi"], "NR66 TLA", 4.2, None, 0),
    ("FB2410", "Owen Hughes", "owen.hughes@example.com", "5519", "flexi", "PC-20261230-0830",
     ["Owen Hughes", "Carys Hughes"], "OH20 DGS", 4.8, None, 0),
    ("FB2488", "Priya Shah", "priya.shah@example.com", "7043", "standard", "CP-20270103-1000",
     ["Priya Shah", "Dev Shah"], "PS19 CTE", 4.7, None, 1),
    ("FB2533", "Ellen Walsh", "ellen.walsh@example.com", "1198", "standard", "PC-20270112-0830",
     ["Ellen Walsh", "Mark Walsh"], None, None, None, 0),
    ("FB2579", "Tariq Aziz", "tariq.aziz@example.com", "4725", "saver", "PS-20261218-2015",
     ["Tariq Aziz", "Sami Aziz"], "TA68 ZIZ", 4.4, "inside", 0),
    ("FB2614", "Fiona Reid", "fiona.reid@example.com", "3360", "standard", "PC-20270122-1430",
     ["Fiona Reid", "Alan Reid"], "FR15 EID", 4.5, None, 0),
    ("FB2650", "George Lamb", "george.lamb@example.com", "2091", "standard", "CP-20261216-1830",
     ["George Lamb", "Ann Lamb"], None, None, None, 0),
    ("FB2687", "Helen Clarke", "helen.clarke@example.com", "6684", "standard",
     "PC-20261205-0830", ["Helen Clarke"], None, None, None, 0),
    ("FB2733", "Ian Fox", "ian.fox@example.com", "9127", "saver", "PC-20270108-0830",
     ["Ian Fox"], "IF70 XOF", 4.0, None, 0),
    ("FB2771", "Jess Adams", "jess.adams@example.com", "5038", "flexi", "PC-20261219-1430",
     ["Jess Adams"], None, None, None, 0),
    ("FB2809", "Kamal Hussain", "kamal.hussain@example.com", "2745", "standard",
     "PS-20261219-2015", ["Kamal Hussain", "Zara Hussain"], "KH18 SUN", 4.6, None, 0),
    ("FB2850", "Mia Novak", "mia.novak@example.com", "8816", "standard", "CP-20270106-1000",
     ["Mia Novak"], None, None, None, 0),
    ("FB2902", "Noel Grant", "noel.grant@example.com", "4402", "flexi", "PC-20270105-0830",
     ["Noel Grant"], "NG19 RNT", 4.3, None, 0),
    ("FB3310", "Laura Bennett", "laura.bennett@example.com", "6159", "standard",
     "PS-20261223-2015", ["Laura Bennett", "Tom Bennett"], "RV18 OPS", 4.4, None, 0),
]
# fmt: on


def band(length_m: float) -> tuple[str, int] | None:
    """The length band's name and price; None when longer than the desk can book."""
    for limit, name, pence in BANDS:
        if length_m <= limit + 1e-9:
            return name, pence
    return None


def fare(day: date, base: int) -> int:
    return base + (PEAK_PENCE if PEAK[0] <= day <= PEAK[1] else 0)


def sailings() -> list[tuple]:
    rows = []
    day = FIRST_DAY
    while day <= LAST_DAY:
        for code, (origin, dest, night, times) in ROUTES.items():
            for dep, arr, base in times:
                sid = f"{code}-{day:%Y%m%d}-{dep.replace(':', '')}"
                left = {
                    "vehicle_left": 60,
                    "inside_left": 12 if night else 0,
                    "outside_left": 6 if night else 0,
                    "pet_left": 2 if night else 0,
                }
                left.update(SOLD_OUT.get(sid, {}))
                rows.append(
                    (
                        sid,
                        code,
                        origin,
                        dest,
                        f"{day.isoformat()} {dep}",
                        arr,
                        int(night),
                        fare(day, base),
                        left["vehicle_left"],
                        left["inside_left"],
                        left["outside_left"],
                        left["pet_left"],
                    )
                )
        day += timedelta(days=1)
    return rows


def seed(db: sqlite3.Connection) -> None:
    rows = sailings()
    db.executemany("INSERT INTO sailings VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    fares = {r[0]: r[7] for r in rows}
    for ref, lead, email, card, kind, sid, people, reg, length, cabin, pets in BOOKINGS:
        vehicle = band(length)[1] if length else 0
        paid = (
            fares[sid] * len(people) + vehicle + (CABINS[cabin] if cabin else 0) + pets * PET_PENCE
        )
        db.execute(
            "INSERT INTO bookings (booking_ref, lead_name, surname, email, card_last4, "
            "fare_type, sailing_id, vehicle_reg, vehicle_length_m, vehicle_pence, cabin, "
            "pets, paid_pence, booked_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                ref,
                lead,
                lead.split()[-1],
                email,
                card,
                kind,
                sid,
                reg,
                length,
                vehicle,
                cabin,
                pets,
                paid,
                "2026-10-01",
            ),
        )
        db.executemany(
            "INSERT INTO passengers (booking_ref, name) VALUES (?,?)", [(ref, p) for p in people]
        )
