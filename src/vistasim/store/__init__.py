"""The SQLite run store: schema, writes per turn, read-only views and exports."""

from vistasim.store._branches import NewBranch
from vistasim.store._export import export_run
from vistasim.store._group import Append
from vistasim.store._read import paused_gc, read_run_view
from vistasim.store._store import EpisodePlan, RunRow, Store, blob_hash, open_store
from vistasim.store._tally import RunTally, read_tally
from vistasim.store._view import (
    BranchCandidate,
    BranchStatus,
    BranchView,
    EpisodeStatus,
    EpisodeView,
    RunView,
    StoredEvent,
)

__all__ = [
    "Append",
    "BranchCandidate",
    "BranchStatus",
    "BranchView",
    "EpisodePlan",
    "NewBranch",
    "EpisodeStatus",
    "EpisodeView",
    "RunRow",
    "RunTally",
    "RunView",
    "Store",
    "StoredEvent",
    "blob_hash",
    "export_run",
    "open_store",
    "paused_gc",
    "read_run_view",
    "read_tally",
]
