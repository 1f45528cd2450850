"""Wayfarer Coach Holidays: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). A booking is identified by
its reference (WF and five digits) and the lead passenger's surname; only the lead passenger
changes a booking or hears about the other passengers on it.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

PICKUP_FREE_DAYS = 14  # a pick-up change 14+ days before departure is free
PICKUP_FEE_PENCE = 1500
SINGLE_PENCE = 2500  # a single-room supplement, per night
INSURANCE_PENCE = 3900  # per person
INSURANCE_DAYS = 7  # insurance is sold up to 7 days before departure
FRONT_ROWS_LAST_SEAT = 12  # rows 1-3, four seats a row
SEAT_PENCE = 1000  # per front-row seat; other seats are free
SEATS_ON_COACH = 48
NAME_CHANGE_PENCE = 2500
NAME_CHANGE_DAYS = 7  # names change up to 7 days before departure, never the lead passenger's
DEPOSIT_PENCE = 10000  # per person: kept on a cancellation more than 60 days out
DEPOSIT_BAND_DAYS = 60  # more than 60 days: the deposit is kept
HALF_BAND_DAYS = 30  # 30-60 days: 50% of the price is kept; under 30: nothing is refunded

SCHEMA_SQL = """
CREATE TABLE tours (
    tour_code TEXT PRIMARY KEY,               -- LKD
    name TEXT NOT NULL,
    departure TEXT NOT NULL,                  -- the coach leaves in the morning
    nights INTEGER NOT NULL,
    price_pp_pence INTEGER NOT NULL,          -- today's price a person
    seats_left INTEGER NOT NULL,
    singles_left INTEGER NOT NULL             -- the hotel's single rooms still free
);
CREATE TABLE pickups (
    tour_code TEXT NOT NULL,
    town TEXT NOT NULL,
    point TEXT NOT NULL,
    time TEXT NOT NULL,
    PRIMARY KEY (tour_code, town)
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- WF30101
    tour_code TEXT NOT NULL REFERENCES tours(tour_code),
    pickup TEXT NOT NULL,                     -- a town on the tour's route
    price_pence INTEGER NOT NULL,             -- the tour price for everyone on the booking
    paid_pence INTEGER NOT NULL,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE passengers (
    passenger_id TEXT PRIMARY KEY,            -- P401
    booking_ref TEXT NOT NULL,
    name TEXT NOT NULL,
    lead INTEGER NOT NULL DEFAULT 0,
    insured INTEGER NOT NULL DEFAULT 0,
    single_room INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    tour_code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    booking_ref TEXT NOT NULL,
    passenger_id TEXT NOT NULL,
    PRIMARY KEY (tour_code, seat)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,  -- pickup_fee, single, insurance, seats, name_change, passenger, refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# tour, name, departure, nights, price a person, seats left, single rooms left
TOURS = [
    ("CTW", "Cotswolds Christmas Lights", "2026-12-10", 3, 28900, 6, 2),
    ("SNW", "Snowdonia Winter Break", "2026-12-18", 3, 24900, 10, 3),
    ("HOG", "Edinburgh Hogmanay", "2026-12-29", 4, 39900, 4, 0),
    ("BTH", "Bath and Wells Spa Break", "2027-01-20", 2, 19900, 12, 2),
    ("IOW", "Isle of Wight Spring Gardens", "2027-02-08", 3, 29900, 0, 1),
    ("LKD", "Lake District in Spring", "2027-03-01", 5, 45900, 14, 4),
    ("CRN", "Cornish Gardens", "2027-04-12", 5, 52900, 20, 0),
    ("YDL", "Yorkshire Dales Winter Walks", "2026-12-05", 4, 32900, 8, 1),
]

# tour, town, point, time
PICKUPS = [
    ("CTW", "Leeds", "Leeds Coach Station", "07:00"),
    ("CTW", "Wakefield", "Wakefield Westgate", "07:30"),
    ("CTW", "Sheffield", "Sheffield Interchange", "08:15"),
    ("CTW", "Chesterfield", "Chesterfield Station", "08:45"),
    ("CTW", "Nottingham", "Nottingham Broad Marsh", "09:30"),
    ("SNW", "Manchester", "Manchester Shudehill", "08:00"),
    ("SNW", "Warrington", "Warrington Bank Quay", "08:40"),
    ("SNW", "Chester", "Chester Station", "09:20"),
    ("SNW", "Wrexham", "Wrexham General", "09:50"),
    ("HOG", "Newcastle", "Newcastle Haymarket", "07:30"),
    ("HOG", "Morpeth", "Morpeth Bus Station", "08:00"),
    ("HOG", "Alnwick", "Alnwick Greenwell Road", "08:30"),
    ("HOG", "Berwick", "Berwick-upon-Tweed Station", "09:15"),
    ("BTH", "Birmingham", "Birmingham Digbeth", "08:00"),
    ("BTH", "Worcester", "Worcester Foregate Street", "08:45"),
    ("BTH", "Cheltenham", "Cheltenham Royal Well", "09:30"),
    ("BTH", "Gloucester", "Gloucester Transport Hub", "09:50"),
    ("IOW", "Reading", "Reading Station", "08:00"),
    ("IOW", "Basingstoke", "Basingstoke Bus Station", "08:40"),
    ("IOW", "Winchester", "Winchester Broadway", "09:15"),
    ("IOW", "Southampton", "Southampton Coach Station", "09:45"),
    ("LKD", "Leicester", "Leicester St Margaret's", "07:00"),
    ("LKD", "Nottingham", "Nottingham Broad Marsh", "07:45"),
    ("LKD", "Sheffield", "Sheffield Interchange", "08:30"),
    ("LKD", "Leeds", "Leeds Coach Station", "09:30"),
    ("LKD", "Skipton", "Skipton Bus Station", "10:15"),
    ("CRN", "Swindon", "Swindon Bus Station", "07:30"),
    ("CRN", "Bristol", "Bristol Bus Station", "08:30"),
    ("CRN", "Taunton", "Taunton Castle Way", "09:30"),
    ("CRN", "Exeter", "Exeter Coach Station", "10:30"),
    ("YDL", "Hull", "Hull Paragon Interchange", "07:30"),
    ("YDL", "York", "York Rougier Street", "08:30"),
    ("YDL", "Harrogate", "Harrogate Bus Station", "09:15"),
]

# booking, tour, pick-up town, paid in full (else the £100 deposit a person), card, passengers
# (the first is the lead); phones and emails follow from the lead's name and the reference
BOOKINGS = [
    ("WF30101", "LKD", "Leeds", True, "4417", ["Helen Carter"]),
    ("WF30102", "LKD", "Sheffield", True, "2290", ["Margaret Owens"]),
    ("WF30103", "CRN", "Bristol", True, "8823", ["David Nolan", "Susan Nolan"]),
    ("WF30104", "BTH", "Birmingham", True, "6610", ["Margaret Ellis", "Jane Doyle"]),
    ("WF30105", "SNW", "Chester", True, "3051", ["Robert Lane", "Carol Lane"]),
    ("WF30106", "CTW", "Wakefield", True, "7702", ["Brian Walsh", "Eileen Walsh"]),
    ("WF30107", "LKD", "Leicester", True, "1189", ["Anita Shah", "Ravi Shah"]),
    ("WF30108", "CRN", "Taunton", True, "5534", ["Graham Pike", "Linda Pike"]),
    ("WF30109", "LKD", "Skipton", True, "9046", ["Peter Greaves"]),
    ("WF30110", "SNW", "Manchester", True, "2718", ["Sandra Kay", "Tom Kay"]),
    ("WF30111", "YDL", "Hull", True, "6284", ["Alan Rigby", "June Rigby"]),
    ("WF30112", "BTH", "Birmingham", True, "3141", ["Keith Moran"]),
    ("WF30113", "BTH", "Worcester", True, "8080", ["Joyce Barker", "Frank Barker"]),
    ("WF30114", "LKD", "Nottingham", True, "4242", ["Maureen Hill", "Dennis Hill"]),
    ("WF30115", "BTH", "Cheltenham", True, "5150", ["Patricia Moss", "Eileen Ward"]),
    ("WF30116", "CTW", "Sheffield", True, "6006", ["Colin Webb", "Barbara Webb"]),
    ("WF30117", "CRN", "Exeter", True, "7117", ["Rita Dunn", "George Dunn"]),
    ("WF30118", "BTH", "Gloucester", True, "1212", ["Gordon Fairley", "Ann Fairley"]),
    ("WF30119", "HOG", "Newcastle", True, "3434", ["Irene Cross"]),
    ("WF30120", "LKD", "Leicester", False, "5656", ["Derek Sutton", "Val Sutton"]),
    ("WF30121", "IOW", "Winchester", False, "7878", ["Lorna Gibb"]),
    ("WF30122", "CRN", "Swindon", True, "9090", ["Stuart Crane"]),
    ("WF30123", "SNW", "Warrington", True, "1357", ["Marion Hardy", "Ken Hardy"]),
    ("WF30130", "CRN", "Bristol", True, "2468", ["Owen Reece", "Mair Reece"]),
    ("WF30131", "LKD", "Leeds", True, "1122", ["Harold Finch", "Edna Finch"]),
]

# seats already chosen: booking, seats (in passenger order)
SEATS = [
    ("WF30130", [2, 7]),
    ("WF30131", [1, 5]),
    ("WF30117", [30, 31]),
    ("WF30123", [9, 10]),
]
# fmt: on


def price_pp(tour: str) -> int:
    return next(t[4] for t in TOURS if t[0] == tour)


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO tours VALUES (?,?,?,?,?,?,?)", TOURS)
    db.executemany("INSERT INTO pickups VALUES (?,?,?,?)", PICKUPS)
    number = 400
    ids: dict[str, list[str]] = {}
    for ref, tour, pickup, full, card, names in BOOKINGS:
        price = price_pp(tour) * len(names)
        paid = price if full else DEPOSIT_PENCE * len(names)
        lead = names[0].lower().replace(" ", ".")
        db.execute(
            "INSERT INTO bookings (booking_ref, tour_code, pickup, price_pence, paid_pence, phone, "
            "email, card_last4) VALUES (?,?,?,?,?,?,?,?)",
            (ref, tour, pickup, price, paid, f"07700 900{ref[-3:]}", f"{lead}@example.com", card),
        )
        for i, name in enumerate(names):
            number += 1
            ids.setdefault(ref, []).append(f"P{number}")
            db.execute(
                "INSERT INTO passengers (passenger_id, booking_ref, name, lead) VALUES (?,?,?,?)",
                (f"P{number}", ref, name, int(i == 0)),
            )
    for ref, seats in SEATS:
        tour = next(b[1] for b in BOOKINGS if b[0] == ref)
        for seat, pid in zip(seats, ids[ref], strict=False):
            db.execute("INSERT INTO seats VALUES (?,?,?,?)", (tour, seat, ref, pid))
