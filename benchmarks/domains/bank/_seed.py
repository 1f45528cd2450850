"""Northbank's seed data: seven customers, ten cards, their transactions and fees."""

CUSTOMERS = [
    ("CU-101", "Marieke de Vries", "1984-05-17", "marieke.devries@example.nl", "+31 6 1234 5678",
     "Prinsengracht 263", "1016 GV", "Amsterdam"),
    ("CU-102", "Tomas Jansen", "1991-11-02", "tomas.jansen@example.nl", "+31 6 2345 6789",
     "Oudegracht 45", "3511 AB", "Utrecht"),
    ("CU-103", "Aisha Bakker", "1978-02-28", "aisha.bakker@example.nl", "+31 6 3456 7890",
     "Witte de Withstraat 12", "3012 BP", "Rotterdam"),
    ("CU-104", "Pieter Smit", "1976-09-14", "pieter.smit@example.nl", "+31 6 4567 8901",
     "Lange Voorhout 9", "2514 EA", "Den Haag"),
    ("CU-105", "Sven Mulder", "1969-12-30", "sven.mulder@example.nl", "+31 6 5678 9012",
     "Grote Markt 8", "9711 LV", "Groningen"),
    ("CU-106", "Lina Haddad", "2000-07-04", "lina.haddad@example.nl", "+31 6 6789 0123",
     "Stationsweg 3", "2312 AV", "Leiden"),
    ("CU-107", "Joost van Dijk", "1988-03-21", "joost.vandijk@example.nl", "+31 6 7890 1234",
     "Markt 1", "5611 EB", "Eindhoven"),
]
CARDS = [  # card_id, customer, last4, kind, status, reason, blocked_on, limit, max, expires
    ("CD-1", "CU-101", "4417", "debit", "active", None, None, 1000, 2500, "2028-09"),
    ("CD-2", "CU-101", "9051", "credit", "active", None, None, 3000, 5000, "2027-04"),
    ("CD-3", "CU-102", "2286", "debit", "active", None, None, 750, 2500, "2029-01"),
    ("CD-4", "CU-103", "7730", "debit", "active", None, None, 1500, 2500, "2028-02"),
    ("CD-5", "CU-104", "6192", "debit", "active", None, None, 1000, 2500, "2027-11"),
    ("CD-6", "CU-105", "3358", "debit", "blocked", "lost", "2026-03-06", 1000, 2500, "2028-06"),
    ("CD-7", "CU-105", "5524", "credit", "active", None, None, 2000, 6000, "2029-03"),
    ("CD-8", "CU-106", "8843", "debit", "blocked", "lost", "2026-03-09", 500, 1500, "2027-08"),
    ("CD-9", "CU-107", "1509", "debit", "active", None, None, 1000, 2500, "2028-12"),
    ("CD-10", "CU-107", "0274", "credit", "active", None, None, 2500, 5000, "2027-06"),
]
TRANSACTIONS = [
    ("T-5001", "CD-1", "2026-01-05", "Bol.com", 59.99),
    ("T-5002", "CD-1", "2026-02-24", "Zalando", 129.00),
    ("T-5003", "CD-1", "2026-03-02", "Zalando", 89.95),
    ("T-5004", "CD-1", "2026-03-04", "Tesco London", 18.20),
    ("T-5005", "CD-1", "2026-03-07", "Albert Heijn", 42.17),
    ("T-5006", "CD-1", "2026-03-08", "NS Reizigers", 23.40),
    ("T-5007", "CD-2", "2026-02-27", "KLM", 412.60),
    ("T-5008", "CD-3", "2026-03-06", "Spotify", 10.99),
    ("T-5009", "CD-3", "2026-03-06", "Spotify", 10.99),
    ("T-5010", "CD-3", "2026-03-08", "Jumbo", 31.45),
    ("T-5011", "CD-4", "2026-03-03", "Coolblue", 249.00),
    ("T-5012", "CD-5", "2026-03-05", "Shell Den Haag", 68.30),
    ("T-5013", "CD-7", "2026-02-20", "Booking.com", 540.00),
    ("T-5014", "CD-8", "2026-03-01", "HEMA", 12.50),
    ("T-5015", "CD-8", "2026-03-07", "Etos", 8.99),
    ("T-5016", "CD-9", "2026-03-09", "Thuisbezorgd", 27.80),
    ("T-5017", "CD-10", "2026-03-01", "Amazon.de", 74.99),
]
FEE_SCHEDULE = [
    ("REPL_STD", "Replacement card, standard delivery (5 working days); free when the card was "
     "reported stolen", 7.50, None),
    ("REPL_EXP", "Replacement card, express delivery (2 working days)", 20.00, None),
    ("ATM_EUR", "Cash withdrawal in the eurozone", 0.00, None),
    ("ATM_NONEUR", "Cash withdrawal outside the eurozone, per withdrawal", 3.50, None),
    ("FX", "Card payment in a currency other than EUR", None, 1.75),
    ("PIN_LETTER", "PIN reminder letter by post", 0.00, None),
    ("DISPUTE", "Disputing a card transaction", 0.00, None),
    ("ANNUAL_CREDIT", "Credit card annual fee", 30.00, None),
    ("LATE", "Credit card late payment", 15.00, None),
]
FEES = [
    ("F-1", "CD-1", "2026-03-04", "ATM_NONEUR", 3.50, "Cash withdrawal, London (GBP)"),
    ("F-2", "CD-1", "2026-03-04", "FX", 0.32, "Foreign currency payment, Tesco London"),
    ("F-3", "CD-10", "2026-01-15", "ANNUAL_CREDIT", 30.00, "Annual fee 2026"),
]

