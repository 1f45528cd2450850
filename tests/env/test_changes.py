"""State digests: what a call changed, record by record, asked of the environment itself."""

import anyio
from pydantic import BaseModel

from vistasim.env import SqliteEnvironment, ToolFailure, ToolOutcome, state_changes, tool
from vistasim.events import ToolCall
from vistasim.explore import WatchedEnvironment, attach_changes


class NoteArgs(BaseModel):
    note_id: str
    body: str = ""


class Notes(SqliteEnvironment):
    SCHEMA_SQL = """
    CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, seen INTEGER DEFAULT 0);
    CREATE TABLE log (line TEXT);
    """

    def seed(self, db):
        db.execute("INSERT INTO notes VALUES ('n1', 'hello', 0)")

    @tool("Read a note.")
    def read_note(self, args: NoteArgs):
        row = self.db.execute("SELECT * FROM notes WHERE id = ?", (args.note_id,)).fetchone()
        if row is None:
            raise ToolFailure(f"no note {args.note_id}")
        return dict(row)

    @tool("A read that records who looked: a write although it is named like a read.")
    def get_note_logged(self, args: NoteArgs):
        self.db.execute("INSERT INTO log VALUES (?)", (args.note_id,))
        return self.read_note(args)

    @tool("Edit a note.")
    def edit_note(self, args: NoteArgs):
        self.db.execute("UPDATE notes SET body = ? WHERE id = ?", (args.body, args.note_id))
        if args.body == "":
            raise ToolFailure("a note cannot be empty")
        return {"ok": True}


def test_a_sqlite_diff_names_table_key_operation_and_fields():
    env = Notes()
    before = env.snapshot()
    env.db.execute("UPDATE notes SET body = 'hi' WHERE id = 'n1'")
    env.db.execute("INSERT INTO notes (id, body) VALUES ('n2', 'x')")
    env.db.execute("INSERT INTO log VALUES ('a')")
    changes = state_changes(env, before, env.snapshot())
    assert [(c.table, c.key, c.op, c.fields) for c in changes] == [
        ("log", "1", "insert", []),
        ("notes", "n2", "insert", []),
        ("notes", "n1", "update", ["body"]),
    ]
    env.db.execute("DELETE FROM notes WHERE id = 'n2'")
    assert state_changes(env, before, before) == []


def test_an_environment_without_a_diff_reports_that_something_changed():
    class Opaque:
        pass

    assert [c.table for c in state_changes(Opaque(), b"a", b"b")] == ["*"]
    assert state_changes(Opaque(), b"a", b"a") == []


def test_the_watched_environment_records_writes_by_what_changed_not_by_name():
    async def play():
        env = WatchedEnvironment(Notes())
        await env.call_tool("read_note", {"note_id": "n1"})
        await env.call_tool("get_note_logged", {"note_id": "n1"})
        await env.call_tool("edit_note", {"note_id": "n1", "body": ""})  # refused: rolled back
        await env.call_tool("edit_note", {"note_id": "n1", "body": "new"})
        return env.take_calls("agent")

    seen = anyio.run(play)
    assert [(s.name, [c.table for c in s.changes]) for s in seen] == [
        ("read_note", []),
        ("get_note_logged", ["log"]),
        ("edit_note", []),
        ("edit_note", ["notes"]),
    ]


def test_reported_calls_get_the_changes_the_environment_saw_and_unreported_ones_are_added():
    async def play():
        env = WatchedEnvironment(Notes())
        await env.call_tool("edit_note", {"note_id": "n1", "body": "new"})
        await env.call_tool("get_note_logged", {"note_id": "n1"})
        return env.take_calls("agent")

    seen = anyio.run(play)
    reported = [
        ToolCall(name="edit_note", args={"note_id": "n1", "body": "new"}),
        ToolCall(name="cancel_elsewhere", args={}),  # a tool that runs outside the environment
    ]
    events = attach_changes(reported, seen)
    assert [(e.name, None if e.changes is None else len(e.changes)) for e in events] == [
        ("edit_note", 1),
        ("cancel_elsewhere", None),
        ("get_note_logged", 1),
    ]
    assert events[2].result == {"id": "n1", "body": "new", "seen": 0}


def test_user_side_calls_are_kept_apart_from_the_agents():
    async def play():
        env = WatchedEnvironment(Notes())
        outcome = await env.call_user_api("nothing_here", {})
        return outcome, env.take_calls("agent"), env.take_calls("user")

    outcome, agent_calls, user_calls = anyio.run(play)
    assert isinstance(outcome, ToolOutcome) and outcome.error
    assert agent_calls == [] and [c.name for c in user_calls] == ["nothing_here"]
