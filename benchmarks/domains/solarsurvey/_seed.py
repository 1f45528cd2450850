"""Brightroof Solar: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 12 January 2027, 10:00 (UK, GMT). Home surveys run in a
morning (09:00-12:00) or an afternoon (13:00-16:00) window on the days a surveyor covers the
property's postcode district. Customers are identified by their customer number (BR and four
digits) and the postcode of the property.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 1, 12, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# prices in pence; the list changed on 1 January 2027 (a quote keeps the list of its day)
PRICE_CHANGE = date(2027, 1, 1)
OLD_PRICES = {"panel": 18000, "string": 85000, "hybrid": 130000, "micro": 5500,
              "5kWh": 245000, "10kWh": 395000, "scaffold": 35000}  # fmt: skip
PRICES = {"panel": 19500, "string": 90000, "hybrid": 140000, "micro": 6000,
          "5kWh": 260000, "10kWh": 420000, "scaffold": 38000}  # fmt: skip
INVERTERS = ("string", "hybrid", "micro")  # micro: one microinverter per panel
BATTERIES = ("none", "5kWh", "10kWh")
DEPOSIT_PERCENT = 10  # taken to confirm an installation
HOLD_DAYS = 30  # a quote's price is held for 30 days from the day it was issued
LEAD_DAYS = 21  # an installation is at least 21 days after the survey
COOLING_OFF_DAYS = 14  # the deposit back in full within 14 days of confirming
FREE_MOVE_HOURS = 24  # a survey moved 24+ hours before its window starts is free
LATE_MOVE_PENCE = 4500  # otherwise the surveyor's wasted slot is charged
WINDOWS = {"morning": ("09:00", "12:00"), "afternoon": ("13:00", "16:00")}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def price_list(issued: date) -> dict[str, int]:
    """The price list a quote issued on `issued` uses."""
    return PRICES if issued >= PRICE_CHANGE else OLD_PRICES


def system_price(panels: int, inverter: str, battery: str, elevations: int, issued: date) -> int:
    """Panels, the inverter (per panel for microinverters), a battery, scaffolding per elevation."""
    p = price_list(issued)
    inverter_pence = p["micro"] * panels if inverter == "micro" else p[inverter]
    battery_pence = 0 if battery == "none" else p[battery]
    return p["panel"] * panels + inverter_pence + battery_pence + p["scaffold"] * elevations


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- BR2001
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,                   -- BS7 8QT; the district (BS7) is the survey area
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE surveyors (
    surveyor_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    areas TEXT NOT NULL,                      -- postcode districts, "BS6,BS7,BS9"
    weekdays TEXT NOT NULL                    -- 0 = Monday, "0,2,4"
);
CREATE TABLE surveys (
    survey_id TEXT PRIMARY KEY,               -- SV3003
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    day TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- morning / afternoon
    surveyor_id TEXT NOT NULL REFERENCES surveyors(surveyor_id),
    status TEXT NOT NULL DEFAULT 'booked',    -- booked / done
    elevations INTEGER,                       -- after the survey: elevations to scaffold
    max_panels INTEGER                        -- after the survey: what the roof layout takes
);
CREATE TABLE quotes (
    quote_id TEXT PRIMARY KEY,                -- Q7011
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    survey_id TEXT NOT NULL REFERENCES surveys(survey_id),
    issued TEXT NOT NULL,
    panels INTEGER NOT NULL,
    inverter TEXT NOT NULL,                   -- string / hybrid / micro
    battery TEXT NOT NULL,                    -- none / 5kWh / 10kWh
    elevations INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'       -- open / accepted
);
CREATE TABLE install_days (
    day TEXT PRIMARY KEY,                     -- weekdays only; weekends are closed
    crews INTEGER NOT NULL                    -- installation crews working that day
);
CREATE TABLE jobs (
    job_id TEXT PRIMARY KEY,                  -- J9016
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    quote_id TEXT NOT NULL REFERENCES quotes(quote_id),
    install_date TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    deposit_pence INTEGER NOT NULL,
    confirmed_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / installed / cancelled
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / move_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE paperwork (
    paperwork_id INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
SURVEYORS = [
    ("S1", "Tom Reed", "BS6,BS7,BS9", "0,2,4"),
    ("S2", "Anika Das", "BS3,BS4,BS5", "1,3"),
    ("S3", "Lewis Hart", "BA1,BA2", "2,3,4"),
]

# customer, name, street address, postcode, card; email and phone follow from them
PEOPLE = [
    ("BR2001", "Helen Carter", "22 Ashley Road", "BS7 8QT", "4417"),
    ("BR2002", "Marcus Bell", "9 Church Road", "BS5 6HL", "2290"),
    ("BR2003", "Sophie Turner", "41 Cotham Brow", "BS6 5QT", "8823"),
    ("BR2004", "David Okoro", "7 Lansdown Place", "BA1 4RT", "6610"),
    ("BR2005", "Laura Jenkins", "18 Wells Road", "BS4 2NP", "3051"),
    ("BR2006", "Ravi Mehta", "3 Stoke Lane", "BS9 3AB", "7702"),
    ("BR2007", "Claire Dawson", "56 North Street", "BS3 1LD", "1189"),
    ("BR2008", "Peter Lowe", "12 Widcombe Hill", "BA2 3HW", "5534"),
    ("BR2009", "Anna Fraser", "30 Filton Avenue", "BS7 0JR", "9046"),
    ("BR2010", "Gareth Pryce", "5 Redland Grove", "BS6 7EE", "2718"),
    ("BR2011", "Nicola Shaw", "64 Fishponds Road", "BS5 9PL", "6284"),
    ("BR2012", "Imran Ali", "21 Shirehampton Road", "BS9 1FG", "3141"),
    ("BR2013", "Beth Morgan", "15 Julian Road", "BA1 2JQ", "8080"),
    ("BR2014", "Simon Price", "88 Coronation Road", "BS3 4TT", "4242"),
    ("BR2015", "Rachel Green", "2 Sandy Park Road", "BS4 7DL", "5150"),
    ("BR2016", "Owen Hughes", "47 Muller Road", "BS7 4LN", "6006"),
    ("BR2017", "Janet Foster", "10 Entry Hill", "BA2 5RS", "7117"),
    ("BR2018", "Alan Brooks", "6 Coombe Lane", "BS9 2HX", "1212"),
    ("BR2019", "Maria Lopez", "33 Chandos Road", "BS6 2PP", "3434"),
    ("BR2020", "Keith Dunn", "19 Talbot Road", "BS4 3QS", "5656"),
    ("BR2021", "Fiona Walsh", "4 Weston Park", "BA1 6NB", "7878"),
    ("BR2022", "Ben Nash", "12 Rose Green Road", "BS5 2WE", "9090"),
    ("BR2023", "Nadia Patel", "14 Rose Green Road", "BS5 2WF", "1357"),
    ("BR2024", "Chris Evans", "27 Bloomfield Road", "BA2 1DD", "2468"),
    ("BR2025", "Lucy King", "8 Gloucester Road", "BS7 6RA", "9753"),
]
CUSTOMERS = [
    (c, n, a, pc, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(c[-2:])}",
     card)
    for c, n, a, pc, card in PEOPLE
]  # fmt: skip

# survey, customer, day, slot (morning or afternoon), surveyor, status, elevations, max panels
SURVEYS = [
    ("SV3003", "BR2003", "2027-01-13", "morning", "S1", "booked", None, None),
    ("SV3004", "BR2004", "2027-01-13", "morning", "S3", "booked", None, None),
    ("SV3005", "BR2005", "2027-01-21", "morning", "S2", "booked", None, None),
    ("SV3006", "BR2006", "2027-01-06", "morning", "S1", "done", 1, 14),
    ("SV3007", "BR2007", "2027-01-05", "afternoon", "S2", "done", 1, 16),
    ("SV3008", "BR2008", "2027-01-07", "morning", "S3", "done", 1, 16),
    ("SV3009", "BR2009", "2027-01-08", "afternoon", "S1", "done", 2, 18),
    ("SV3010", "BR2010", "2027-01-04", "morning", "S1", "done", 1, 12),
    ("SV3011", "BR2011", "2027-01-05", "morning", "S2", "done", 1, 14),
    ("SV3012", "BR2012", "2027-01-06", "afternoon", "S1", "done", 1, 16),
    ("SV3013", "BR2013", "2027-01-08", "morning", "S3", "done", 1, 12),
    ("SV3014", "BR2014", "2026-11-24", "morning", "S2", "done", 1, 12),
    ("SV3015", "BR2015", "2026-11-26", "afternoon", "S2", "done", 1, 10),
    ("SV3016", "BR2016", "2026-12-14", "morning", "S1", "done", 1, 14),
    ("SV3017", "BR2017", "2026-11-19", "morning", "S3", "done", 2, 16),
    ("SV3018", "BR2018", "2026-10-14", "morning", "S1", "done", 1, 12),
    ("SV3019", "BR2019", "2026-10-16", "afternoon", "S1", "done", 1, 10),
    ("SV3020", "BR2020", "2027-01-07", "morning", "S2", "done", 1, 12),
    ("SV3021", "BR2021", "2027-01-06", "morning", "S3", "done", 1, 14),
    ("SV3023", "BR2023", "2027-01-07", "afternoon", "S2", "done", 1, 16),
    ("SV3024", "BR2024", "2027-01-07", "afternoon", "S3", "done", 1, 14),
    ("SV3025", "BR2025", "2027-01-20", "afternoon", "S1", "booked", None, None),
]

# quote, customer, survey, issued, panels, inverter, battery, status (elevations from the
# survey, the price from the list of the day it was issued)
QUOTES = [
    ("Q7011", "BR2011", "SV3011", "2027-01-06", 10, "string", "none", "open"),
    ("Q7012", "BR2012", "SV3012", "2027-01-07", 12, "hybrid", "10kWh", "open"),
    ("Q7013", "BR2013", "SV3013", "2027-01-11", 10, "string", "none", "open"),
    ("Q7014", "BR2014", "SV3014", "2026-12-02", 10, "string", "none", "open"),
    ("Q7015", "BR2015", "SV3015", "2026-12-04", 8, "hybrid", "none", "open"),
    ("Q7016", "BR2016", "SV3016", "2026-12-21", 12, "string", "none", "accepted"),
    ("Q7017", "BR2017", "SV3017", "2026-11-25", 12, "hybrid", "none", "accepted"),
    ("Q7018", "BR2018", "SV3018", "2026-10-20", 10, "hybrid", "5kWh", "accepted"),
    ("Q7019", "BR2019", "SV3019", "2026-10-22", 8, "string", "none", "accepted"),
    ("Q7020", "BR2020", "SV3020", "2027-01-07", 10, "string", "none", "accepted"),
    ("Q7021", "BR2021", "SV3021", "2027-01-08", 10, "hybrid", "5kWh", "open"),
    ("Q7023", "BR2023", "SV3023", "2027-01-09", 14, "hybrid", "none", "open"),
]

# job, customer, quote, installation day, confirmed on, status (price from the quote)
JOBS = [
    ("J9016", "BR2016", "Q7016", "2027-02-15", "2027-01-05", "booked"),
    ("J9017", "BR2017", "Q7017", "2027-01-27", "2026-12-10", "booked"),
    ("J9018", "BR2018", "Q7018", "2026-12-18", "2026-10-28", "installed"),
    ("J9019", "BR2019", "Q7019", "2026-12-15", "2026-10-30", "installed"),
    ("J9020", "BR2020", "Q7020", "2027-02-18", "2027-01-08", "booked"),
]

# installation days: two crews every weekday to the end of March, but these
CREWS = {"2027-02-15": 1, "2027-03-15": 0}  # one crew (booked by J9016); a training day
# fmt: on


def install_calendar() -> list[tuple[str, int]]:
    day, last, out = date(2027, 1, 13), date(2027, 3, 31), []
    while day <= last:
        if day.weekday() < 5:
            out.append((day.isoformat(), CREWS.get(day.isoformat(), 2)))
        day += timedelta(days=1)
    return out


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO surveyors VALUES (?,?,?,?)", SURVEYORS)
    db.executemany("INSERT INTO surveys VALUES (?,?,?,?,?,?,?,?)", SURVEYS)
    elevations = {s[0]: s[6] for s in SURVEYS}
    quotes = {}
    for qid, cid, sid, issued, panels, inverter, battery, status in QUOTES:
        price = system_price(panels, inverter, battery, elevations[sid], date.fromisoformat(issued))
        quotes[qid] = price
        db.execute(
            "INSERT INTO quotes VALUES (?,?,?,?,?,?,?,?,?,?)",
            (qid, cid, sid, issued, panels, inverter, battery, elevations[sid], price, status),
        )
    db.executemany("INSERT INTO install_days VALUES (?,?)", install_calendar())
    for jid, cid, qid, day, confirmed, status in JOBS:
        price = quotes[qid]
        db.execute(
            "INSERT INTO jobs VALUES (?,?,?,?,?,?,?,?)",
            (jid, cid, qid, day, price, price * DEPOSIT_PERCENT // 100, confirmed, status),
        )
