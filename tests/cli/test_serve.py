import socket
import subprocess
import sys
import time
import urllib.request

import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("domain", ["shop", "school"])
def test_serve_starts_the_domain_site_on_loopback(domain):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "vistasim.cli", "serve", domain, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert "data-semantic-id" in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_unknown_domain_lists_the_known_ones():
    result = subprocess.run(
        [sys.executable, "-m", "vistasim.cli", "serve", "bank"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "known domains: school, shop" in result.stderr
