"""Riverside Swim School: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 23 February 2027, 09:00 (UK, GMT): week 7 of the Spring 1
term (eight weekly lessons from Monday 11 January). Spring 2 starts on Monday 15 March and is
open for booking. Families are identified by their family account number (RS and four digits)
and the postcode on the account; only a parent or guardian named on the account is helped.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 2, 23, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

WEEKS = 8  # lessons in a term, one a week
CAPACITY = 8  # swimmers in a class at most
LOW_PRICE, HIGH_PRICE = 7200, 8400  # a term: Stage 1-3, Stage 4-7
SIBLING_PERCENT = 10  # off for a second child booked onto a term, and each one after
MAX_MAKEUPS = 2  # make-up lessons per child a term
LAST_MOVE_WEEK = 4  # a class move is never made after week 4 of the term
REFUND_BEFORE_WEEK = 3  # a withdrawal told before week 3 gets the lessons left back
ADMIN_FEE = 1000  # taken off a withdrawal refund
ASSESS_FROM_WEEK = 7  # assessments in the last two weeks of term
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def term_price(stage: int) -> int:
    return LOW_PRICE if stage <= 3 else HIGH_PRICE


SCHEMA_SQL = """
CREATE TABLE accounts (
    account_id TEXT PRIMARY KEY,              -- RS2001
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE guardians (
    guardian_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    name TEXT NOT NULL,
    relation TEXT NOT NULL                    -- parent / guardian
);
CREATE TABLE children (
    child_id TEXT PRIMARY KEY,                -- K201
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    name TEXT NOT NULL,
    born TEXT NOT NULL,
    stage INTEGER NOT NULL                    -- 1 to 7
);
CREATE TABLE medical_notes (
    note_id INTEGER PRIMARY KEY,
    child_id TEXT NOT NULL,
    note TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE terms (
    term_id TEXT PRIMARY KEY,                 -- SP1
    name TEXT NOT NULL,
    starts TEXT NOT NULL                      -- the Monday of week 1
);
CREATE TABLE classes (
    class_id TEXT PRIMARY KEY,                -- SP2-3B
    term_id TEXT NOT NULL,
    stage INTEGER NOT NULL,
    weekday INTEGER NOT NULL,                 -- 0 Monday ... 6 Sunday
    start_time TEXT NOT NULL,                 -- HH:MM, lessons last 30 minutes
    teacher TEXT NOT NULL,
    capacity INTEGER NOT NULL
);
CREATE TABLE enrolments (
    enrolment_id TEXT PRIMARY KEY,            -- EN7001
    child_id TEXT NOT NULL,
    class_id TEXT NOT NULL,
    term_id TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- what was paid for the term
    status TEXT NOT NULL DEFAULT 'active'     -- active / withdrawn
);
CREATE TABLE absences (
    absence_id INTEGER PRIMARY KEY,
    child_id TEXT NOT NULL,
    enrolment_id TEXT NOT NULL,
    lesson_date TEXT NOT NULL,
    reason TEXT NOT NULL,                     -- illness / holiday / other
    reported_at TEXT NOT NULL                 -- when the school was told
);
CREATE TABLE makeups (
    makeup_id INTEGER PRIMARY KEY,
    child_id TEXT NOT NULL,
    absence_id INTEGER NOT NULL,
    class_id TEXT NOT NULL,
    lesson_date TEXT NOT NULL,
    booked_at TEXT NOT NULL
);
CREATE TABLE assessments (
    assessment_id INTEGER PRIMARY KEY,
    child_id TEXT NOT NULL,
    enrolment_id TEXT NOT NULL,
    requested_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- term_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

TERMS = [("SP1", "Spring 1", "2027-01-11"), ("SP2", "Spring 2", "2027-03-15")]

# stage, weekday, start, teacher; each term runs the same timetable, A and B per stage
PLAN = [
    (1, 0, "16:00", "Kate"), (1, 5, "09:00", "Tom"),
    (2, 1, "16:30", "Kate"), (2, 5, "09:30", "Tom"),
    (3, 2, "16:30", "Ravi"), (3, 5, "10:00", "Tom"),
    (4, 0, "17:00", "Ravi"), (4, 3, "17:00", "Kate"),
    (5, 1, "17:30", "Ravi"), (5, 5, "10:30", "Jo"),
    (6, 2, "17:30", "Jo"), (6, 5, "11:00", "Jo"),
    (7, 3, "18:00", "Jo"),
]  # fmt: skip


def class_ids() -> list[tuple[str, str, int, int, str, str]]:
    out = []
    for term_id, _name, _starts in TERMS:
        letters: dict[int, int] = {}
        for stage, weekday, start, teacher in PLAN:
            letters[stage] = letters.get(stage, 0) + 1
            cid = f"{term_id}-{stage}{'AB'[letters[stage] - 1]}"
            out.append((cid, term_id, stage, weekday, start, teacher))
    return out


def lesson_day(starts: str, weekday: int, week: int) -> date:
    return date.fromisoformat(starts) + timedelta(days=7 * (week - 1) + weekday)


# fmt: off
# account, postcode, email, phone, card; guardians: account, name, relation
ACCOUNTS = [
    ("RS2001", "RG1 4AB", "sarah.mitchell@example.com", "07700 900101", "4417"),
    ("RS2002", "RG2 7DN", "james.okoro@example.com", "07700 900102", "2290"),
    ("RS2003", "RG4 6QE", "priya.nair@example.com", "07700 900103", "8823"),
    ("RS2004", "RG1 8JX", "mark.bell@example.com", "07700 900104", "6610"),
    ("RS2005", "RG30 2LS", "claire.dunn@example.com", "07700 900105", "3051"),
    ("RS2006", "RG5 3PT", "tom.walsh@example.com", "07700 900106", "7702"),
    ("RS2007", "RG2 0HW", "anna.clarke@example.com", "07700 900107", "1189"),
    ("RS2008", "RG6 1AZ", "rachel.green@example.com", "07700 900108", "5534"),
    ("RS2009", "RG31 5BB", "david.shaw@example.com", "07700 900109", "9046"),
    ("RS2010", "RG4 9ER", "emma.lewis@example.com", "07700 900110", "2718"),
    ("RS2011", "RG1 3YL", "paul.ward@example.com", "07700 900111", "6284"),
    ("RS2012", "RG7 1TU", "sophie.turner@example.com", "07700 900112", "3141"),
    ("RS2013", "RG2 8SS", "chris.evans@example.com", "07700 900113", "8080"),
    ("RS2014", "RG6 4NP", "laura.king@example.com", "07700 900114", "4242"),
    ("RS2015", "RG4 5GG", "helen.carter@example.com", "07700 900115", "5150"),
    ("RS2016", "RG30 1CD", "ian.price@example.com", "07700 900116", "6006"),
    ("RS2017", "RG1 2FF", "nadia.ahmed@example.com", "07700 900117", "7117"),
    ("RS2018", "RG5 4HH", "gary.hill@example.com", "07700 900118", "1212"),
    ("RS2019", "RG2 6KK", "kate.morris@example.com", "07700 900119", "3434"),
    ("RS2020", "RG6 7MM", "lucy.hart@example.com", "07700 900120", "5656"),
    ("RS2021", "RG31 4RR", "ruth.young@example.com", "07700 900121", "7878"),
    ("RS2022", "RG4 8WW", "olivia.brown@example.com", "07700 900122", "9090"),
    ("RS2023", "RG4 7PL", "ben.carter@example.com", "07700 900123", "1357"),
]
GUARDIANS = [
    ("RS2001", "Sarah Mitchell", "parent"), ("RS2002", "James Okoro", "parent"),
    ("RS2002", "Ngozi Okoro", "parent"), ("RS2003", "Priya Nair", "parent"),
    ("RS2004", "Mark Bell", "parent"), ("RS2005", "Claire Dunn", "parent"),
    ("RS2006", "Tom Walsh", "parent"), ("RS2007", "Anna Clarke", "parent"),
    ("RS2008", "Rachel Green", "parent"), ("RS2009", "David Shaw", "parent"),
    ("RS2010", "Emma Lewis", "parent"), ("RS2011", "Paul Ward", "parent"),
    ("RS2012", "Sophie Turner", "parent"), ("RS2013", "Chris Evans", "guardian"),
    ("RS2014", "Laura King", "parent"), ("RS2015", "Helen Carter", "parent"),
    ("RS2016", "Ian Price", "parent"), ("RS2017", "Nadia Ahmed", "parent"),
    ("RS2018", "Gary Hill", "parent"), ("RS2019", "Kate Morris", "parent"),
    ("RS2019", "Ben Morris", "parent"), ("RS2020", "Lucy Hart", "parent"),
    ("RS2021", "Ruth Young", "parent"), ("RS2022", "Olivia Brown", "parent"),
    ("RS2023", "Ben Carter", "parent"),
]  # fmt: skip

# child, account, name, born, stage
CHILDREN = [
    ("K201", "RS2001", "Ella", "2019-05-14", 2),
    ("K202", "RS2002", "Amara", "2020-02-03", 2),
    ("K203", "RS2002", "Tobi", "2016-09-21", 5),
    ("K204", "RS2003", "Arjun", "2017-07-30", 4),
    ("K205", "RS2003", "Diya", "2021-01-12", 1),
    ("K206", "RS2004", "Oliver", "2018-11-02", 3),
    ("K207", "RS2005", "Lily", "2019-08-19", 2),
    ("K208", "RS2006", "Jack", "2017-03-08", 4),
    ("K209", "RS2007", "Noah", "2019-12-01", 2),
    ("K210", "RS2008", "Freya", "2018-06-25", 3),
    ("K211", "RS2009", "Harry", "2020-10-10", 1),
    ("K212", "RS2010", "Alfie", "2016-04-17", 5),
    ("K213", "RS2011", "Leo", "2017-09-09", 4),
    ("K214", "RS2012", "Mia", "2018-02-27", 3),
    ("K215", "RS2013", "Sam", "2016-12-12", 4),
    ("K216", "RS2014", "Oscar", "2020-03-03", 2),
    ("K217", "RS2015", "Daisy", "2015-05-05", 6),
    ("K218", "RS2015", "Rosie", "2019-01-20", 3),
    ("K219", "RS2016", "Isla", "2016-08-08", 5),
    ("K220", "RS2017", "Zain", "2021-04-04", 1),
    ("K221", "RS2018", "Evie", "2019-10-30", 2),
    ("K222", "RS2019", "Poppy", "2018-07-07", 3),
    ("K223", "RS2020", "Max", "2017-01-15", 4),
    ("K224", "RS2021", "Ruby", "2020-12-24", 1),
    ("K225", "RS2022", "Finn", "2015-11-11", 6),
    ("K226", "RS2023", "Georgia", "2014-09-01", 7),
]

# enrolment, child, class, price paid (the term is the class's)
ENROLMENTS = [
    ("EN7001", "K201", "SP1-2B", 7200), ("EN7002", "K202", "SP2-2B", 7200),
    ("EN7003", "K203", "SP1-5A", 8400), ("EN7004", "K204", "SP2-4A", 8400),
    ("EN7005", "K206", "SP1-3A", 7200), ("EN7006", "K207", "SP2-2A", 7200),
    ("EN7007", "K208", "SP1-4A", 8400), ("EN7008", "K209", "SP1-2A", 7200),
    ("EN7009", "K210", "SP1-3A", 7200), ("EN7010", "K211", "SP1-1A", 7200),
    ("EN7011", "K212", "SP1-5A", 8400), ("EN7012", "K213", "SP1-4A", 8400),
    ("EN7013", "K214", "SP1-3B", 7200), ("EN7014", "K215", "SP1-4B", 8400),
    ("EN7015", "K215", "SP2-4B", 8400), ("EN7016", "K216", "SP2-2A", 7200),
    ("EN7017", "K217", "SP2-6A", 8400), ("EN7018", "K218", "SP2-3A", 6480),
    ("EN7019", "K219", "SP1-5B", 8400), ("EN7020", "K220", "SP1-1B", 7200),
    ("EN7021", "K221", "SP1-2A", 7200), ("EN7022", "K222", "SP2-3A", 7200),
    ("EN7023", "K223", "SP1-4A", 8400), ("EN7024", "K224", "SP1-1A", 7200),
    ("EN7025", "K225", "SP1-6A", 8400), ("EN7026", "K226", "SP1-7A", 8400),
]  # fmt: skip

# absence: child, enrolment, lesson day, reason, when the school was told
ABSENCES = [
    (1, "K209", "EN7008", "2027-02-16", "illness", "2027-02-16 08:10"),
    (2, "K210", "EN7009", "2027-02-17", "illness", "2027-02-17 18:05"),
    (3, "K211", "EN7010", "2027-02-15", "holiday", "2027-02-08 19:30"),
    (4, "K212", "EN7011", "2027-01-19", "illness", "2027-01-19 07:50"),
    (5, "K212", "EN7011", "2027-02-02", "illness", "2027-02-02 12:15"),
    (6, "K212", "EN7011", "2027-02-16", "illness", "2027-02-16 09:05"),
    (7, "K213", "EN7012", "2027-02-15", "illness", "2027-02-15 07:45"),
    (8, "K224", "EN7024", "2027-01-25", "illness", "2027-01-25 08:30"),
    (9, "K225", "EN7025", "2027-02-17", "illness", "2027-02-17 07:20"),
]
# make-ups already booked: child, absence, class, day
MAKEUPS = [
    (1, "K212", 4, "SP1-5B", "2027-01-23"),
    (2, "K212", 5, "SP1-5B", "2027-02-06"),
    (3, "K224", 8, "SP1-1B", "2027-01-30"),
]
# other families' swimmers in each class (they fill places; SP2-3B is full, and SP1-4B is
# full on Thursday 25 February with a make-up booked into its one free place)
FILLERS = {
    "SP1-1A": 4, "SP1-1B": 5, "SP1-2A": 4, "SP1-2B": 4, "SP1-3A": 4, "SP1-3B": 4,
    "SP1-4A": 3, "SP1-4B": 6, "SP1-5A": 4, "SP1-5B": 5, "SP1-6A": 5, "SP1-6B": 3,
    "SP1-7A": 5, "SP2-1A": 2, "SP2-1B": 3, "SP2-2A": 2, "SP2-2B": 3, "SP2-3A": 2,
    "SP2-3B": 8, "SP2-4A": 2, "SP2-4B": 3, "SP2-5A": 3, "SP2-5B": 4, "SP2-6A": 2,
    "SP2-6B": 2, "SP2-7A": 3,
}
FIRST_NAMES = ["Ava", "Ben", "Cara", "Dev", "Erin", "Felix", "Grace", "Hugo", "Ivy", "Jake",
               "Kai", "Lara", "Milo", "Nina", "Omar", "Pia", "Quinn", "Reece", "Sana", "Theo"]
# fmt: on


def _fillers() -> tuple[list[tuple], list[tuple], list[tuple], list[tuple]]:
    """Other families: one account, one child and one enrolment per filled place."""
    accounts, children, enrolments, guardians = [], [], [], []
    stages = {cid: stage for cid, _t, stage, *_ in class_ids()}
    n = 0
    for cid, count in FILLERS.items():
        for _ in range(count):
            n += 1
            acc, kid = f"RS{9000 + n}", f"K{900 + n}"
            first = FIRST_NAMES[n % len(FIRST_NAMES)]
            accounts.append((acc, "RG9 9ZZ", f"family{n}@example.net", f"07700 9{n:05d}", "0000"))
            guardians.append((acc, f"Parent {n}", "parent"))
            children.append((kid, acc, first, "2018-01-01", stages[cid]))
            enrolments.append((f"EN{8000 + n}", kid, cid, term_price(stages[cid])))
    return accounts, children, enrolments, guardians


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    f_accounts, f_children, f_enrolments, f_guardians = _fillers()
    db.executemany("INSERT INTO accounts VALUES (?,?,?,?,?)", ACCOUNTS + f_accounts)
    db.executemany(
        "INSERT INTO guardians (account_id, name, relation) VALUES (?,?,?)",
        GUARDIANS + f_guardians,
    )
    db.executemany("INSERT INTO children VALUES (?,?,?,?,?)", CHILDREN + f_children)
    db.executemany("INSERT INTO terms VALUES (?,?,?)", TERMS)
    db.executemany(
        "INSERT INTO classes VALUES (?,?,?,?,?,?,?)",
        [(*c, CAPACITY) for c in class_ids()],
    )
    db.executemany(
        "INSERT INTO enrolments (enrolment_id, child_id, class_id, term_id, price_pence) "
        "VALUES (?,?,?,?,?)",
        [(e, k, c, c.split("-")[0], p) for e, k, c, p in ENROLMENTS + f_enrolments],
    )
    db.executemany("INSERT INTO absences VALUES (?,?,?,?,?,?)", ABSENCES)
    # the make-up that fills SP1-4B on Thursday 25 February: a Stage 4 swimmer of SP1-4A
    filler = next(e for e in f_enrolments if e[2] == "SP1-4A")
    db.execute(
        "INSERT INTO absences VALUES (?,?,?,?,?,?)",
        (10, filler[1], filler[0], "2027-02-15", "illness", "2027-02-15 08:00"),
    )
    db.executemany(
        "INSERT INTO makeups VALUES (?,?,?,?,?,?)",
        [(*m, "2027-01-20 10:00") for m in MAKEUPS]
        + [(4, filler[1], 10, "SP1-4B", "2027-02-25", "2027-02-16 10:00")],
    )
