"""Deterministic seed data for Spoke & Pedal: stations, the fleet, customers and their rentals.

Nothing reads the clock: the desk's "now" is the fixed `NOW` (Wednesday 10 June 2026, 10:00 local
time), and the background customers come from a fixed `random.Random(11)`, so every episode starts
from the same city and the scenarios can name its rentals, reservations and charges.
"""

from __future__ import annotations

import random
import re
import sqlite3
from datetime import datetime, timedelta, timezone

__all__ = ["LOCAL", "NOW", "RATES", "STATIONS", "at", "iso", "rental_price", "seed_bikes"]

LOCAL = timezone(timedelta(hours=2), "CEST")
"""The city's time zone in June; the database stores local wall-clock times."""

NOW = datetime(2026, 6, 10, 10, 0, tzinfo=LOCAL)
"""The desk's fixed "now": due times, fee windows and refund windows are measured from it."""

STATIONS: list[tuple[str, str, str, int]] = [
    ("ST1", "Harbour Gate", "Kadeweg 2", 12),
    ("ST2", "Market Square", "Marktplein 1", 10),
    ("ST3", "Riverside Park", "Oeverlaan 14", 14),
    ("ST4", "University Hill", "Campuslaan 5", 8),
    ("ST5", "Old Town Depot", "Molenstraat 30", 6),
    ("ST6", "Central Station", "Stationsplein 9", 20),
]
"""(id, name, address, docks) of every station."""

RATES: dict[str, tuple[int, int]] = {
    "city": (300, 1800),
    "e-bike": (500, 3200),
    "cargo": (600, 4000),
}
"""Hourly and daily rate in cents per bike type."""


def _table(text: str, sep: str | None = None) -> list[list[str | None]]:
    """Rows of a table split on `sep` (whitespace by default); `-` is NULL, `MM-DDTHH:MM` 2026."""
    return [[_cell(cell.strip()) for cell in line.split(sep)] for line in text.strip().splitlines()]


def _cell(cell: str) -> str | None:
    if cell == "-":
        return None
    return f"2026-{cell}" if re.fullmatch(r"\d\d-\d\dT\d\d:\d\d", cell) else cell


# Bikes docked at each station now: (city, e-bike, cargo). Market Square is full (10 of 10).
_DOCKED: dict[str, tuple[int, int, int]] = {
    "ST1": (5, 2, 0),
    "ST2": (7, 3, 0),
    "ST3": (4, 2, 0),
    "ST4": (3, 0, 0),
    "ST5": (1, 0, 4),
    "ST6": (8, 4, 1),
}
# Bikes out on a rental right now, with fixed ids the scenarios name.
_RENTED: dict[str, str] = {
    "B110": "city",
    "B112": "city",
    "B117": "city",
    "B124": "e-bike",
    "B129": "e-bike",
    "B133": "city",
    "B138": "cargo",
}

# id | name | email | phone | plan | member since
_CUSTOMERS = _table(
    """
C301 | Lena Vogel | lena.vogel@example.com | +31 6 2184 7730 | monthly | 2025-03-02
C302 | Tomás Ferreira | tomas.ferreira@example.com | +31 6 4471 0925 | pay_as_you_go | 2026-01-15
C303 | Aiko Tanaka | aiko.tanaka@example.com | +31 6 1650 3348 | annual | 2024-09-10
C304 | Noah Becker | noah.becker@example.com | +31 6 3092 5517 | pay_as_you_go | 2025-11-20
C305 | Sofia Marin | sofia.marin@example.com | +31 6 5738 2264 | monthly | 2025-06-01
C306 | Marek Nowak | marek.nowak@example.com | +31 6 6615 9083 | pay_as_you_go | 2026-02-08
C307 | Priya Raman | priya.raman@example.com | +31 6 2947 6112 | annual | 2023-05-19
C308 | Jonas Weber | jonas.weber@example.com | +31 6 8320 4471 | monthly | 2025-08-30
C309 | Ines Duarte | ines.duarte@example.com | +31 6 7159 0836 | pay_as_you_go | 2026-04-02
C310 | Oskar Lind | oskar.lind@example.com | +31 6 4803 2659 | pay_as_you_go | 2025-12-12
C311 | Hannah Klein | hannah.klein@example.com | +31 6 9266 1504 | monthly | 2025-10-05
""",
    "|",
)

# id, customer, bike, start station, start, original due, due, status, returned at, return
# station (times in 2026). A bike written ST3:e-bike:1 is the second e-bike docked at ST3 now.
_RENTALS = _table("""
R180  C301  ST1:city:0    ST1  05-30T09:00  05-30T12:00  05-30T12:00  returned  05-30T11:50  ST1
R190  C306  ST5:cargo:3   ST5  05-23T10:00  05-23T16:00  05-23T16:00  returned  05-23T17:30  ST5
R198  C304  ST6:city:2    ST6  06-03T09:00  06-05T09:00  06-06T09:00  returned  06-06T08:40  ST6
R200  C307  ST3:e-bike:1  ST3  06-08T14:00  06-08T17:00  06-08T19:00  returned  06-08T19:40  ST3
R204  C301  B117          ST1  06-10T08:00  06-10T18:00  06-10T18:00  active    -            -
R205  C309  B110          ST6  06-10T07:00  06-10T12:00  06-10T12:00  active    -            -
R207  C305  B112          ST3  06-07T12:00  06-08T12:00  06-10T12:00  active    -            -
R208  C310  B138          ST5  06-10T09:00  06-10T15:00  06-10T15:00  active    -            -
R209  C302  B124          ST6  06-09T10:00  06-10T08:00  06-10T08:00  overdue   -            -
R211  C303  B129          ST1  06-10T07:30  06-10T13:30  06-10T13:30  active    -            -
R212  C308  B133          ST4  06-10T09:00  06-10T19:00  06-10T19:00  active    -            -
""")

# id, rental, kind, cents, charged at. R198's extension was charged twice by a payment
# glitch (CH7005 and CH7006).
_CHARGES = _table("""
CH7001  R180  rental     900   05-30T09:00
CH7002  R190  rental     3600  05-23T10:00
CH7003  R190  late_fee   1000  05-23T17:30
CH7004  R198  rental     3600  06-03T09:00
CH7005  R198  extension  1800  06-04T18:02
CH7006  R198  extension  1800  06-04T18:03
CH7007  R200  rental     1500  06-08T14:00
CH7008  R200  extension  1000  06-08T16:30
CH7009  R200  late_fee   500   06-08T19:40
CH7010  R207  rental     1800  06-07T12:00
CH7011  R207  extension  3600  06-08T11:15
CH7012  R204  rental     1800  06-10T08:00
CH7013  R205  rental     1500  06-10T07:00
CH7014  R208  rental     3600  06-10T09:00
CH7015  R209  rental     3200  06-09T10:00
CH7016  R211  rental     3000  06-10T07:30
CH7017  R212  rental     1800  06-10T09:00
""")

# id, customer, station, bike, pickup, status, created
_RESERVATIONS = _table("""
RS405  C301  ST1  B117          06-10T08:00  collected  06-09T21:30
RS411  C301  ST3  ST3:e-bike:0  06-12T09:00  held       06-09T20:15
RS412  C306  ST5  ST5:cargo:0   06-10T11:00  held       06-08T18:40
RS414  C303  ST5  ST5:cargo:1   06-10T11:30  held       06-10T07:10
""")

_FIRST = "Mila Daan Sara Luca Emma Finn Zoë Sem Nora Ravi Yara Bram".split()
_LAST = "de Jong,Bakker,Visser,Smit,Meijer,Mulder,Bos,Dekker,Peters,Hendriks,Kok,Jansen".split(",")


def at(text: str) -> datetime:
    """Parse a stored local time (`YYYY-MM-DDTHH:MM`) as an aware datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=LOCAL)


def iso(moment: datetime) -> str:
    """Format a datetime the way the database stores it: `YYYY-MM-DDTHH:MM`."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def rental_price(hours: int, hourly_cents: int, daily_cents: int) -> int:
    """Price of `hours` of riding: hourly, but never more than the daily rate per started day."""
    return (hours // 24) * daily_cents + min((hours % 24) * hourly_cents, daily_cents)


def seed_bikes(db: sqlite3.Connection) -> None:
    """Fill a fresh database (schema applied) with the whole deterministic city."""
    db.executemany("INSERT INTO stations VALUES (?, ?, ?, ?)", STATIONS)
    db.executemany("INSERT INTO rates VALUES (?, ?, ?)", [(k, *v) for k, v in RATES.items()])
    docked = _seed_fleet(db)
    db.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)", _CUSTOMERS)
    _seed_rentals(db, docked)
    _seed_reservations(db, docked)
    _seed_background(db, docked)


def _seed_fleet(db: sqlite3.Connection) -> dict[str, dict[str, list[str]]]:
    numbers = (f"B{n}" for n in range(101, 200) if f"B{n}" not in _RENTED)
    docked: dict[str, dict[str, list[str]]] = {}
    for station, counts in _DOCKED.items():
        docked[station] = {}
        for bike_type, count in zip(RATES, counts, strict=True):
            ids = [next(numbers) for _ in range(count)]
            docked[station][bike_type] = ids
            db.executemany(
                "INSERT INTO bikes VALUES (?, ?, ?, 'available', 0)",
                [(bike_id, bike_type, station) for bike_id in ids],
            )
    db.executemany("INSERT INTO bikes VALUES (?, ?, NULL, 'rented', 0)", list(_RENTED.items()))
    # One cargo bike at the depot waits for a new front wheel.
    db.execute(
        "UPDATE bikes SET status = 'maintenance', needs_repair = 1 WHERE id = ?",
        (docked["ST5"]["cargo"][2],),
    )
    return docked


def _pick(bike: str, docked: dict[str, dict[str, list[str]]]) -> str:
    if ":" not in bike:
        return bike
    station, bike_type, index = bike.split(":")
    return docked[station][bike_type][int(index)]


def _seed_rentals(db: sqlite3.Connection, docked: dict[str, dict[str, list[str]]]) -> None:
    for rid, cid, bike, start_st, start, orig, due, status, back, back_st in _RENTALS:
        bike_id = _pick(bike, docked)
        bike_type = db.execute("SELECT bike_type FROM bikes WHERE id = ?", (bike_id,)).fetchone()[0]
        hourly, daily = RATES[bike_type]
        extended = int((at(due) - at(orig)).total_seconds())
        db.execute(
            "INSERT INTO rentals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rid,
                cid,
                bike_id,
                start_st,
                start,
                orig,
                due,
                extended // 3600,
                status,
                back,
                back_st,
                hourly,
                daily,
            ),
        )
    for charge_id, rid, kind, cents, charged_at in _CHARGES:
        cid = db.execute("SELECT customer_id FROM rentals WHERE id = ?", (rid,)).fetchone()[0]
        db.execute(
            "INSERT INTO charges VALUES (?, ?, ?, NULL, ?, ?, ?, 'paid')",
            (charge_id, cid, rid, kind, int(cents), charged_at),
        )


def _seed_reservations(db: sqlite3.Connection, docked: dict[str, dict[str, list[str]]]) -> None:
    for res_id, cid, station, bike, pickup, status, created in _RESERVATIONS:
        bike_id = _pick(bike, docked)
        bike_type = db.execute("SELECT bike_type FROM bikes WHERE id = ?", (bike_id,)).fetchone()[0]
        hold = iso(at(pickup) + timedelta(minutes=30))
        db.execute(
            "INSERT INTO reservations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            (res_id, cid, station, bike_type, bike_id, pickup, hold, status, created),
        )
        if status == "held":
            db.execute("UPDATE bikes SET status = 'reserved' WHERE id = ?", (bike_id,))


def _seed_background(db: sqlite3.Connection, docked: dict[str, dict[str, list[str]]]) -> None:
    """Other customers with a few past rentals each, so lists and ids look like a real desk's."""
    rng = random.Random(11)
    rental_no, charge_no = 101, 6001
    for index, (first, last) in enumerate(zip(_FIRST, _LAST, strict=True)):
        cid = f"C{312 + index}"
        email = f"{first.lower().replace('ë', 'e')}.{last.lower().replace(' ', '')}@example.com"
        phone = f"+31 6 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}"
        plan = rng.choice(["pay_as_you_go", "pay_as_you_go", "monthly", "annual"])
        since = iso(datetime(2024, 1, 1, tzinfo=LOCAL) + timedelta(days=rng.randint(0, 800)))[:10]
        db.execute(
            "INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)",
            (cid, f"{first} {last}", email, phone, plan, since),
        )
        for _ in range(rng.randint(1, 3)):
            station = rng.choice(STATIONS)[0]
            bike_type = rng.choice([t for t, ids in docked[station].items() if ids])
            bike_id = rng.choice(docked[station][bike_type])
            start = datetime(2026, 5, 1, 7, tzinfo=LOCAL) + timedelta(
                days=rng.randint(0, 37), hours=rng.randint(0, 11)
            )
            hours = rng.randint(1, 8)
            due = start + timedelta(hours=hours)
            back = due - timedelta(minutes=rng.randint(5, 55))
            hourly, daily = RATES[bike_type]
            rid = f"R{rental_no}"
            db.execute(
                "INSERT INTO rentals VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'returned', ?, ?, ?, ?)",
                (
                    rid,
                    cid,
                    bike_id,
                    station,
                    iso(start),
                    iso(due),
                    iso(due),
                    iso(back),
                    station,
                    hourly,
                    daily,
                ),
            )
            db.execute(
                "INSERT INTO charges VALUES (?, ?, ?, NULL, 'rental', ?, ?, 'paid')",
                (f"CH{charge_no}", cid, rid, rental_price(hours, hourly, daily), iso(start)),
            )
            rental_no, charge_no = rental_no + 1, charge_no + 1
