"""Deterministic seed data for the school: a realistic term, generated in code.

A dozen hand-written "anchor" students carry the situations the scenarios rely on (a financial
hold, a missing prerequisite, two exams at the same time, a used goodwill waiver...); the rest are
drawn from a fixed `random.Random(0)`, so every build of the database is identical.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from datetime import date, timedelta

from vistasim.domains.school._catalog import (
    ANCHORS,
    COURSES,
    FIRST,
    FULL_SECTIONS,
    FULL_SIZE,
    INSTRUCTORS,
    LAST,
    PLACEMENT,
    PROGRAMS,
    SLOTS,
)
from vistasim.domains.school._rules import TERM


def seed_school(db: sqlite3.Connection) -> None:
    """Fill an empty school database (schema applied) with the deterministic seed."""
    rng = random.Random(0)
    _insert_courses(db, rng)
    students = _insert_students(db, rng)
    _insert_enrollments(db, rng, students)
    _fill_sections(db)
    _insert_exams(db)
    _book_exams(db)
    _insert_fees(db, rng, students)
    _insert_specials(db)


def _insert_courses(db: sqlite3.Connection, rng: random.Random) -> None:
    for index, (code, title, dept, credits, prereq, lab, sections) in enumerate(COURSES):
        db.execute(
            "INSERT INTO courses VALUES (?, ?, ?, ?, ?, ?)",
            (code, title, dept, credits, prereq, lab),
        )
        for n in range(sections):
            days, start, end = SLOTS[(index * 3 + n * 5) % len(SLOTS)]
            db.execute(
                "INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    f"{code}-{'ABC'[n]}",
                    code,
                    rng.choice(INSTRUCTORS),
                    days,
                    start,
                    end,
                    f"{rng.choice(('Hall', 'Science', 'Arts', 'Library'))} {rng.randint(101, 420)}",
                    rng.choice((30, 35, 40, 45)),
                ),
            )


def _insert_students(db: sqlite3.Connection, rng: random.Random) -> list[str]:
    ids = []
    for sid, name, program, year, status, intl, _done, _now in ANCHORS:
        db.execute(
            "INSERT INTO students VALUES (?, ?, ?, ?, ?, ?, ?)",
            (sid, name, _email(name), program, year, status, intl),
        )
        ids.append(sid)
    names = [f"{f} {ln}" for f, ln in zip(FIRST, LAST, strict=True)]
    rng.shuffle(names)
    for number, name in enumerate(names, start=1013):
        status = "suspended" if number == 1030 else "on_leave" if number == 1024 else "active"
        db.execute(
            "INSERT INTO students VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                f"S{number}",
                name,
                _email(name),
                rng.choice(PROGRAMS),
                rng.randint(1, 4),
                status,
                int(rng.random() < 0.15),
            ),
        )
        ids.append(f"S{number}")
    return ids


def _email(name: str) -> str:
    return name.lower().replace(" ", ".").replace("'", "") + "@uni.example.edu"


def _insert_enrollments(db: sqlite3.Connection, rng: random.Random, students: list[str]) -> None:
    for sid, _name, _p, _y, _s, _i, done, current in ANCHORS:
        for code, grade in done:
            _enroll(db, sid, f"{code}-A", "2026-SP", "completed", grade, "2026-05-15")
        for section in current:
            _enroll(db, sid, section, TERM, "enrolled", None, "2026-08-20")
    intro = [c[0] for c in COURSES if c[4] is None]
    sections = [r[0] for r in db.execute("SELECT section_id FROM sections ORDER BY section_id")]
    for sid in students[len(ANCHORS) :]:
        for code in rng.sample(intro, 2):
            grade = rng.choice(("A", "A-", "B+", "B", "B-", "C+", "C", "F"))
            _enroll(db, sid, f"{code}-A", "2026-SP", "completed", grade, "2026-05-15")
        status = db.execute("SELECT status FROM students WHERE student_id=?", (sid,)).fetchone()[0]
        if status != "active":
            continue
        taken: set[tuple[str, str]] = set()
        codes: set[str] = set()
        for section in rng.sample(sections, 8):
            code = section.rsplit("-", 1)[0]
            slot = _slot(db, section)
            if code in codes or slot in taken or len(codes) == 4 or section in FULL_SECTIONS:
                continue
            taken.add(slot)
            codes.add(code)
            _enroll(db, sid, section, TERM, "enrolled", None, "2026-08-21")


def _slot(db: sqlite3.Connection, section: str) -> tuple[str, str]:
    row = db.execute("SELECT days, start_time FROM sections WHERE section_id=?", (section,))
    days, start = row.fetchone()
    return days, start


def _enroll(
    db: sqlite3.Connection,
    sid: str,
    section: str,
    term: str,
    status: str,
    grade: str | None,
    on: str,
) -> None:
    db.execute(
        "INSERT INTO enrollments (student_id, section_id, term, status, grade, changed_on)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (sid, section, term, status, grade, on),
    )


def _fill_sections(db: sqlite3.Connection) -> None:
    # Small seminar-sized sections, seeded exactly full, so "section full" is a real outcome.
    fillers = [
        r[0]
        for r in db.execute(
            "SELECT student_id FROM students WHERE status='active' AND student_id > 'S1012'"
            " ORDER BY student_id"
        )
    ]
    for section in FULL_SECTIONS:
        code = section.rsplit("-", 1)[0]
        for sid in fillers:
            if _seated(db, section) >= FULL_SIZE:
                break
            if not _clashes(db, sid, code, _slot(db, section)):
                _enroll(db, sid, section, TERM, "enrolled", None, "2026-08-21")
        db.execute(
            "UPDATE sections SET capacity=? WHERE section_id=?", (_seated(db, section), section)
        )


def _seated(db: sqlite3.Connection, section: str) -> int:
    query = "SELECT COUNT(*) FROM enrollments WHERE section_id=? AND status='enrolled'"
    count: int = db.execute(query, (section,)).fetchone()[0]
    return count


def _clashes(db: sqlite3.Connection, sid: str, code: str, slot: tuple[str, str]) -> bool:
    rows = db.execute(
        "SELECT s.course_code, s.days, s.start_time FROM enrollments e"
        " JOIN sections s ON s.section_id = e.section_id"
        " WHERE e.student_id=? AND e.status='enrolled'",
        (sid,),
    ).fetchall()
    return any(c == code or (d, t) == slot for c, d, t in rows)


def _insert_exams(db: sqlite3.Connection) -> None:
    for index, (code, _t, _d, credits, _p, _l, _s) in enumerate(COURSES):
        kinds = ["final"] + (["midterm"] if credits == 4 else [])
        kinds += ["placement"] if code in PLACEMENT else []
        for kind in kinds:
            exam_id = f"EX-{code}-{kind[:3].upper()}"
            db.execute("INSERT INTO exams VALUES (?, ?, ?)", (exam_id, code, kind))
            for number, (day, start, capacity) in enumerate(_sessions(kind, index), start=1):
                db.execute(
                    "INSERT INTO exam_sessions VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        f"{exam_id}-{number}",
                        exam_id,
                        day.isoformat(),
                        start,
                        f"Exam Hall {'ABC'[index % 3]}",
                        capacity,
                    ),
                )


def _sessions(kind: str, index: int) -> list[tuple[date, str, int]]:
    if kind == "placement":
        return [(date(2026, 9, 16), "10:00", 200), (date(2026, 9, 25), "10:00", 40)]
    if kind == "midterm":
        main = date(2026, 10, 19) + timedelta(days=index % 5)
        return [(main, "09:00", 200), (date(2026, 10, 28) + timedelta(days=index % 3), "14:00", 30)]
    main = date(2026, 12, 7) + timedelta(days=index % 5)
    start = "09:00" if index % 2 == 0 else "14:00"
    return [
        (main, start, 200),
        (date(2026, 12, 16) + timedelta(days=index % 3), "09:00", 30),
        (date(2026, 12, 18), "14:00", 30),
    ]


def _book_exams(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT e.student_id, x.exam_id FROM enrollments e"
        " JOIN sections s ON s.section_id = e.section_id"
        " JOIN exams x ON x.course_code = s.course_code"
        " WHERE e.status = 'enrolled' ORDER BY e.enrollment_id, x.exam_id"
    ).fetchall()
    for student_id, exam_id in rows:
        db.execute(
            "INSERT INTO exam_bookings (student_id, exam_id, session_id, status)"
            " VALUES (?, ?, ?, 'scheduled')",
            (student_id, exam_id, f"{exam_id}-1"),
        )


def _insert_fees(db: sqlite3.Connection, rng: random.Random, students: list[str]) -> None:
    counter = iter(range(1001, 10000))
    anchors = {anchor[0] for anchor in ANCHORS}
    for sid in students:
        status = db.execute("SELECT status FROM students WHERE student_id=?", (sid,)).fetchone()[0]
        if status == "active":
            _student_fees(db, rng, counter, sid, anchor=sid in anchors)


def _student_fees(
    db: sqlite3.Connection, rng: random.Random, counter: Iterator[int], sid: str, *, anchor: bool
) -> None:
    paid = "unpaid" if sid in ("S1004", "S1027") else "paid"
    _fee(db, next(counter), sid, "tuition", "Fall 2026 tuition", 480000, "2026-09-01", paid)
    labs = db.execute(
        "SELECT c.code, c.lab_fee_cents FROM enrollments e"
        " JOIN sections s ON s.section_id = e.section_id"
        " JOIN courses c ON c.code = s.course_code"
        " WHERE e.student_id=? AND e.status='enrolled' AND c.lab_fee_cents > 0",
        (sid,),
    ).fetchall()
    for code, cents in labs:
        state = rng.choice(("paid", "unpaid"))
        _fee(db, next(counter), sid, "lab", f"{code} lab fee", cents, "2026-10-01", state, code)
    if sid in ("S1002", "S1009") or (not anchor and rng.random() < 0.2):
        state = "waived" if sid == "S1009" else "unpaid"
        late = ("late_payment", "Late tuition payment", 5000, "2026-10-01", state)
        _fee(db, next(counter), sid, *late)
    if sid == "S1009":
        spring = ("reschedule", "Exam reschedule (BIO101 final, spring)", 2500, "2026-10-01")
        _fee(db, next(counter), sid, *spring, "unpaid")


def _fee(
    db: sqlite3.Connection,
    number: int,
    sid: str,
    kind: str,
    description: str,
    cents: int,
    due: str,
    status: str,
    course: str | None = None,
) -> None:
    db.execute(
        "INSERT INTO fees VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (f"F-{number}", sid, kind, description, cents, due, status, course),
    )


def _insert_specials(db: sqlite3.Connection) -> None:
    # Hannah's PSYC250 and STAT200 finals clash: a genuine "conflict" reschedule.
    clash = db.execute(
        "SELECT date, start_time FROM exam_sessions WHERE session_id='EX-STAT200-FIN-1'"
    ).fetchone()
    db.execute(
        "UPDATE exam_sessions SET date=?, start_time=? WHERE session_id='EX-PSYC250-FIN-1'",
        tuple(clash),
    )
    # Jonas already used his one reschedule on the MATH210 final.
    db.execute(
        "UPDATE exam_bookings SET session_id='EX-MATH210-FIN-2', reschedule_count=1,"
        " reschedule_reason='personal' WHERE student_id='S1010' AND exam_id='EX-MATH210-FIN'"
    )
    waived = db.execute(
        "SELECT fee_id FROM fees WHERE student_id='S1009' AND kind='late_payment'"
    ).fetchone()[0]
    db.execute(
        "INSERT INTO fee_waivers (fee_id, student_id, channel, reason, status, created_on)"
        " VALUES (?, 'S1009', 'agent', 'First late payment, goodwill', 'approved', '2026-09-05')",
        (waived,),
    )
    db.executemany(
        "INSERT INTO medical_notes VALUES (?, ?, ?)",
        [
            ("MN-4821", "S1003", "2026-09-12"),
            ("MN-3307", "S1005", "2026-08-10"),
            ("MN-5519", "S1011", "2026-09-13"),
        ],
    )
    # The HIST110 final's first make-up session is already full.
    db.execute("UPDATE exam_sessions SET capacity=1 WHERE session_id='EX-HIST110-FIN-2'")
    db.execute(
        "UPDATE exam_bookings SET session_id='EX-HIST110-FIN-2', reschedule_count=1,"
        " reschedule_reason='medical' WHERE booking_id = (SELECT MIN(booking_id) FROM exam_bookings"
        " WHERE exam_id='EX-HIST110-FIN' AND student_id > 'S1012')"
    )
