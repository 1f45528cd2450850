import subprocess
import sys

import vistasim


def test_all_is_sorted_and_small():
    assert vistasim.__all__ == sorted(vistasim.__all__)
    assert len(vistasim.__all__) <= 16


def test_every_public_name_resolves():
    for name in vistasim.__all__:
        assert getattr(vistasim, name) is not None


def test_import_does_not_load_heavy_dependencies():
    code = (
        "import sys, vistasim; "
        "heavy = [m for m in ('openai', 'playwright', 'wordllama', 'pyarrow', 'httpx2', 'rich')"
        " if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
