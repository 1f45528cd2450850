-- The school's database: students, courses and sections, enrollments, exams, fees.
-- Money is in integer cents; dates are ISO strings (YYYY-MM-DD), times HH:MM.

CREATE TABLE students (
    student_id TEXT PRIMARY KEY,           -- S1001...
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    program TEXT NOT NULL,
    year INTEGER NOT NULL CHECK (year BETWEEN 1 AND 5),
    status TEXT NOT NULL CHECK (status IN ('active', 'on_leave', 'suspended')),
    international INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE courses (
    code TEXT PRIMARY KEY,                 -- CS101
    title TEXT NOT NULL,
    department TEXT NOT NULL,
    credits INTEGER NOT NULL CHECK (credits BETWEEN 1 AND 6),
    prerequisite TEXT REFERENCES courses(code),
    lab_fee_cents INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE sections (
    section_id TEXT PRIMARY KEY,           -- CS101-A
    course_code TEXT NOT NULL REFERENCES courses(code),
    instructor TEXT NOT NULL,
    days TEXT NOT NULL,                    -- Mon/Wed
    start_time TEXT NOT NULL,
    end_time TEXT NOT NULL,
    room TEXT NOT NULL,
    capacity INTEGER NOT NULL CHECK (capacity > 0)
);

CREATE TABLE enrollments (
    enrollment_id INTEGER PRIMARY KEY,
    student_id TEXT NOT NULL REFERENCES students(student_id),
    section_id TEXT NOT NULL REFERENCES sections(section_id),
    term TEXT NOT NULL,                    -- 2026-FA is the current term
    status TEXT NOT NULL CHECK (status IN ('enrolled', 'dropped', 'completed')),
    grade TEXT,
    changed_on TEXT NOT NULL
);

CREATE TABLE exams (
    exam_id TEXT PRIMARY KEY,              -- EX-CS101-FIN
    course_code TEXT NOT NULL REFERENCES courses(code),
    kind TEXT NOT NULL CHECK (kind IN ('placement', 'midterm', 'final'))
);

CREATE TABLE exam_sessions (
    session_id TEXT PRIMARY KEY,           -- EX-CS101-FIN-1
    exam_id TEXT NOT NULL REFERENCES exams(exam_id),
    date TEXT NOT NULL,
    start_time TEXT NOT NULL,
    room TEXT NOT NULL,
    capacity INTEGER NOT NULL CHECK (capacity > 0)
);

CREATE TABLE exam_bookings (
    booking_id INTEGER PRIMARY KEY,
    student_id TEXT NOT NULL REFERENCES students(student_id),
    exam_id TEXT NOT NULL REFERENCES exams(exam_id),
    session_id TEXT NOT NULL REFERENCES exam_sessions(session_id),
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled')),
    reschedule_count INTEGER NOT NULL DEFAULT 0,
    reschedule_reason TEXT
);

CREATE TABLE fees (
    fee_id TEXT PRIMARY KEY,               -- F-1001
    student_id TEXT NOT NULL REFERENCES students(student_id),
    kind TEXT NOT NULL CHECK (kind IN ('tuition', 'lab', 'late_payment', 'reschedule')),
    description TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    due_date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('unpaid', 'paid', 'waived', 'cancelled')),
    course_code TEXT REFERENCES courses(code)
);

CREATE TABLE fee_waivers (
    waiver_id INTEGER PRIMARY KEY,
    fee_id TEXT NOT NULL REFERENCES fees(fee_id),
    student_id TEXT NOT NULL REFERENCES students(student_id),
    channel TEXT NOT NULL CHECK (channel IN ('agent', 'portal')),
    reason TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('approved', 'pending', 'denied')),
    created_on TEXT NOT NULL
);

CREATE TABLE medical_notes (
    note_id TEXT PRIMARY KEY,              -- MN-4821
    student_id TEXT NOT NULL REFERENCES students(student_id),
    issued_on TEXT NOT NULL
);

CREATE TABLE escalations (
    ticket_id INTEGER PRIMARY KEY,
    student_id TEXT REFERENCES students(student_id),
    topic TEXT NOT NULL,
    summary TEXT NOT NULL,
    created_on TEXT NOT NULL
);

CREATE INDEX enrollments_student ON enrollments(student_id, status);
CREATE INDEX bookings_student ON exam_bookings(student_id, status);
CREATE INDEX fees_student ON fees(student_id);
