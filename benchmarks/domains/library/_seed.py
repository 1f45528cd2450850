"""Riverside City Libraries: the schema and the seed data (patrons, titles, copies, loans...)."""

from __future__ import annotations

import sqlite3

SCHEMA_SQL = """
CREATE TABLE branches (branch_id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE patrons (
    patron_id TEXT PRIMARY KEY, card_number TEXT NOT NULL UNIQUE, pin TEXT NOT NULL,
    name TEXT NOT NULL, date_of_birth TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL,
    notice_channel TEXT NOT NULL, pay_card_last4 TEXT, pay_card_expiry TEXT
);
CREATE TABLE cards (
    card_number TEXT PRIMARY KEY, patron_id TEXT NOT NULL REFERENCES patrons(patron_id),
    status TEXT NOT NULL, issued_on TEXT NOT NULL
);
CREATE TABLE titles (
    title_id TEXT PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL, year INTEGER NOT NULL
);
CREATE TABLE copies (
    copy_id TEXT PRIMARY KEY, title_id TEXT NOT NULL REFERENCES titles(title_id),
    branch_id TEXT NOT NULL REFERENCES branches(branch_id), status TEXT NOT NULL
);
CREATE TABLE loans (
    loan_id TEXT PRIMARY KEY, patron_id TEXT NOT NULL REFERENCES patrons(patron_id),
    copy_id TEXT NOT NULL REFERENCES copies(copy_id), loaned_on TEXT NOT NULL,
    due_date TEXT NOT NULL, renewals INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE holds (
    hold_id TEXT PRIMARY KEY, patron_id TEXT NOT NULL REFERENCES patrons(patron_id),
    title_id TEXT NOT NULL REFERENCES titles(title_id),
    pickup_branch TEXT NOT NULL REFERENCES branches(branch_id),
    status TEXT NOT NULL, placed_on TEXT NOT NULL
);
CREATE TABLE fines (
    fine_id TEXT PRIMARY KEY, patron_id TEXT NOT NULL REFERENCES patrons(patron_id),
    kind TEXT NOT NULL, description TEXT NOT NULL, amount_pence INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, created_on TEXT NOT NULL,
    waived_on TEXT, waive_reason TEXT
);
CREATE TABLE payments (
    payment_id TEXT PRIMARY KEY, fine_id TEXT NOT NULL REFERENCES fines(fine_id),
    amount_pence INTEGER NOT NULL, card_last4 TEXT NOT NULL, paid_on TEXT NOT NULL
);
"""

BRANCHES = [
    ("CEN", "Central Library"), ("NOR", "Northgate Library"), ("HAR", "Harbour Road Library"),
]

PATRONS = [
    ("P1", "RL-20417", "4821", "Maya Patel", "1988-03-14", "maya.patel@example.com",
     "07700 900417", "email", "4421", "2028-04"),
    ("P2", "RL-20533", "1173", "Tom Okafor", "1975-09-02", "tom.okafor@example.com",
     "07700 900533", "email", "9012", "2027-11"),
    ("P3", "RL-20688", "9035", "Grace Lindqvist", "1992-12-21", "grace.l@example.com",
     "07700 900688", "sms", "3307", "2029-01"),
    ("P4", "RL-20741", "3310", "Daniel Reyes", "1969-06-30", "d.reyes@example.com",
     "07700 900741", "post", "5550", "2026-09"),
    ("P5", "RL-20802", "7752", "Aisha Khan", "2001-01-09", "aisha.khan@example.com",
     "07700 900802", "email", "1188", "2027-06"),
    ("P6", "RL-20915", "6604", "Owen Brooks", "1983-04-18", "owen.brooks@example.com",
     "07700 900915", "email", "7734", "2028-02"),
    ("P7", "RL-21026", "2289", "Lena Fischer", "1957-11-25", "lena.fischer@example.com",
     "07700 901026", "post", "6021", "2027-03"),
    ("P8", "RL-21138", "5147", "Sam Whitaker", "1995-07-07", "sam.w@example.com",
     "07700 901138", "sms", "8846", "2028-08"),
]

TITLES = [
    ("T101", "The Midnight Library", "Matt Haig", 2020),
    ("T102", "Braiding Sweetgrass", "Robin Wall Kimmerer", 2013),
    ("T103", "Klara and the Sun", "Kazuo Ishiguro", 2021),
    ("T104", "Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", 2022),
    ("T105", "The Thursday Murder Club", "Richard Osman", 2020),
    ("T106", "Lessons in Chemistry", "Bonnie Garmus", 2022),
    ("T107", "Demon Copperhead", "Barbara Kingsolver", 2022),
    ("T108", "The Seven Moons of Maali Almeida", "Shehan Karunatilaka", 2022),
    ("T109", "Piranesi", "Susanna Clarke", 2020),
    ("T110", "Hamnet", "Maggie O'Farrell", 2020),
    ("T111", "Where the Crawdads Sing", "Delia Owens", 2018),
    ("T112", "The Salt Path", "Raynor Winn", 2018),
    ("T113", "Sapiens", "Yuval Noah Harari", 2011),
    ("T114", "Atomic Habits", "James Clear", 2018),
    ("T115", "The Body", "Bill Bryson", 2019),
    ("T116", "Educated", "Tara Westover", 2018),
    ("T117", "Normal People", "Sally Rooney", 2018),
    ("T118", "Shuggie Bain", "Douglas Stuart", 2020),
    ("T119", "The Lincoln Highway", "Amor Towles", 2021),
    ("T120", "Project Hail Mary", "Andy Weir", 2021),
    ("T121", "The Secret History", "Donna Tartt", 1992),
    ("T122", "Small Things Like These", "Claire Keegan", 2021),
    ("T123", "Prophet Song", "Paul Lynch", 2023),
    ("T124", "Yellowface", "R. F. Kuang", 2023),
    ("T125", "The Covenant of Water", "Abraham Verghese", 2023),
    ("T126", "Babel", "R. F. Kuang", 2022),
    ("T127", "The Marriage Portrait", "Maggie O'Farrell", 2022),
    ("T128", "Wolf Hall", "Hilary Mantel", 2009),
    ("T129", "Cloud Cuckoo Land", "Anthony Doerr", 2021),
    ("T130", "The Road", "Cormac McCarthy", 2006),
]

# Copies on loan, by copy id (the rest are on the shelf). Titles not listed in
# SPECIAL_COPIES get one copy at each branch.
SPECIAL_COPIES = {
    "T101": ["CEN"], "T102": ["NOR"], "T103": ["HAR"], "T104": ["CEN", "NOR"],
    "T105": ["HAR"], "T106": ["NOR"], "T107": ["CEN"], "T109": ["HAR"], "T113": ["CEN"],
    "T114": ["NOR"], "T116": ["CEN"], "T117": ["HAR"], "T119": ["NOR"], "T120": ["CEN"],
    "T121": ["CEN"], "T124": ["NOR"], "T125": ["HAR"], "T126": ["CEN"], "T129": ["NOR"],
    "T130": ["HAR"],
}
ON_LOAN = {
    "C-T101-CEN", "C-T102-NOR", "C-T103-HAR", "C-T104-NOR", "C-T105-HAR", "C-T106-NOR",
    "C-T107-CEN", "C-T109-HAR", "C-T113-CEN", "C-T114-NOR", "C-T116-CEN", "C-T117-HAR",
    "C-T119-NOR", "C-T120-CEN", "C-T121-CEN", "C-T124-NOR", "C-T125-HAR", "C-T126-CEN",
    "C-T129-NOR", "C-T130-HAR",
}

LOANS = [
    ("L5001", "P1", "C-T101-CEN", "2026-10-19", "2026-11-09", 0),
    ("L5002", "P1", "C-T102-NOR", "2026-09-03", "2026-11-12", 2),
    ("L5003", "P1", "C-T103-HAR", "2026-10-20", "2026-11-10", 0),
    ("L5004", "P2", "C-T113-CEN", "2026-10-28", "2026-11-18", 0),
    ("L5005", "P2", "C-T120-CEN", "2026-09-30", "2026-11-11", 1),
    ("L5006", "P3", "C-T109-HAR", "2026-10-30", "2026-11-20", 0),
    ("L5007", "P4", "C-T116-CEN", "2026-10-19", "2026-11-09", 0),
    ("L5008", "P4", "C-T119-NOR", "2026-10-05", "2026-11-16", 1),
    ("L5009", "P5", "C-T117-HAR", "2026-10-23", "2026-11-13", 0),
    ("L5010", "P6", "C-T130-HAR", "2026-11-03", "2026-11-24", 0),
    ("L5011", "P8", "C-T114-NOR", "2026-10-29", "2026-11-19", 0),
]

HOLDS = [
    ("H701", "P5", "T103", "NOR", "waiting", "2026-10-28"),
    ("H702", "P5", "T124", "CEN", "waiting", "2026-10-30"),
    ("H703", "P4", "T105", "HAR", "waiting", "2026-10-01"),
    ("H704", "P4", "T106", "NOR", "waiting", "2026-10-08"),
    ("H705", "P4", "T107", "CEN", "waiting", "2026-10-12"),
    ("H706", "P4", "T121", "CEN", "waiting", "2026-10-20"),
    ("H707", "P4", "T125", "HAR", "waiting", "2026-10-25"),
    ("H708", "P2", "T126", "CEN", "waiting", "2026-11-01"),
]

FINES = [
    ("F901", "P6", "overdue", "The Salt Path, returned 15 days late", 375, 50, "open",
     "2026-10-14", None, None),
    ("F902", "P7", "overdue", "Hamnet, returned 24 days late", 500, 0, "open",
     "2026-10-22", None, None),
    ("F903", "P8", "overdue", "Shuggie Bain, returned 8 days late", 200, 0, "open",
     "2026-10-30", None, None),
    ("F904", "P8", "overdue", "Normal People, returned 12 days late", 300, 0, "waived",
     "2026-02-20", "2026-03-02", "hospital_stay"),
    ("F905", "P4", "overdue", "Hamnet, returned 5 days late", 125, 0, "open",
     "2026-09-12", None, None),
    ("F906", "P1", "overdue", "Piranesi, returned 3 days late", 75, 0, "open",
     "2026-10-02", None, None),
    ("F907", "P2", "overdue", "The Body, returned 6 days late", 150, 0, "open",
     "2026-10-26", None, None),
    ("F908", "P5", "overdue", "Lessons in Chemistry, returned 4 days late", 100, 0, "open",
     "2026-11-02", None, None),
]


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data."""
    db.executemany("INSERT INTO branches VALUES (?, ?)", BRANCHES)
    db.executemany("INSERT INTO patrons VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", PATRONS)
    db.executemany(
        "INSERT INTO cards VALUES (?, ?, 'active', '2024-01-15')",
        [(p[1], p[0]) for p in PATRONS],
    )
    db.executemany("INSERT INTO titles VALUES (?, ?, ?, ?)", TITLES)
    for title_id, *_ in TITLES:
        for branch in SPECIAL_COPIES.get(title_id, ["CEN", "NOR", "HAR"]):
            copy_id = f"C-{title_id}-{branch}"
            status = "on_loan" if copy_id in ON_LOAN else "on_shelf"
            db.execute("INSERT INTO copies VALUES (?, ?, ?, ?)",
                       (copy_id, title_id, branch, status))
    db.executemany("INSERT INTO loans VALUES (?, ?, ?, ?, ?, ?)", LOANS)
    db.executemany("INSERT INTO holds VALUES (?, ?, ?, ?, ?, ?)", HOLDS)
    db.executemany("INSERT INTO fines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", FINES)
