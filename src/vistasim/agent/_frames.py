"""Point at the user's own line when their code fails inside vistasim.

A Python agent that raises, or an agent module that fails to import, leaves a traceback whose
innermost frames are often the user's dependencies, and whose outer frames are vistasim's and
importlib's. What the user needs is their own line: the innermost frame of a file that is neither
vistasim's, nor the standard library's, nor an installed package's.
"""

from __future__ import annotations

import sysconfig
import traceback
from functools import cache
from pathlib import Path

__all__ = ["user_frame"]


def user_frame(exc: BaseException) -> str | None:
    """Return `path:line` of the user's innermost frame in `exc`'s traceback, if there is one.

    The path is relative to the working directory when it lies inside it. A `SyntaxError` points
    at the line that does not parse.
    """
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f"{_shown(exc.filename)}:{exc.lineno}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    own = [f for f in frames if _is_users(f.filename)]
    outside = [f for f in frames if not _under(f.filename, _vistasim_dir())]
    chosen = (own or outside or [None])[-1]
    if chosen is None or chosen.lineno is None:
        return None
    return f"{_shown(chosen.filename)}:{chosen.lineno}"


def _is_users(filename: str) -> bool:
    return not any(_under(filename, root) for root in (_vistasim_dir(), *_library_dirs()))


@cache
def _vistasim_dir() -> Path:
    return Path(__file__).resolve().parents[1]


@cache
def _library_dirs() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple({Path(paths[name]).resolve() for name in names if name in paths})


def _under(filename: str, root: Path) -> bool:
    try:
        Path(filename).resolve().relative_to(root)
    except ValueError:
        return False
    return True


def _shown(filename: str) -> str:
    path = Path(filename).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
