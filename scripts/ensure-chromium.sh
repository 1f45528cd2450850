#!/usr/bin/env bash
# Find a Chromium for vistasim's browser channel, or install one, and say what was done.
# Order: $VISTASIM_CHROMIUM, a system Chromium, Playwright's own; else install the Debian package
# when apt-get is there and we are root, else run Playwright's own installer.
set -u
VENV_PY="${1:-.venv/bin/python}"

found() { echo "chromium: using $1 ($2)"; exit 0; }

if [ -n "${VISTASIM_CHROMIUM:-}" ] && [ -x "$VISTASIM_CHROMIUM" ]; then found "$VISTASIM_CHROMIUM" "VISTASIM_CHROMIUM"; fi
for name in chromium chromium-browser google-chrome google-chrome-stable; do
  if path=$(command -v "$name" 2>/dev/null); then found "$path" "system"; fi
done
for path in "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium-*/chrome-linux*/chrome; do
  if [ -x "$path" ]; then found "$path" "Playwright's own"; fi
done

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "chromium: not found; installing the Debian package (apt-get install chromium)..."
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
    found "$(command -v chromium)" "installed from Debian packages"
  fi
  echo "chromium: apt-get install failed"
fi
echo "chromium: not found; trying Playwright's own installer ($VENV_PY -m playwright install chromium)..."
if "$VENV_PY" -m playwright install chromium; then
  echo "chromium: installed by Playwright"
  exit 0
fi
echo "chromium: none available. The demo falls back to chat mode. To get the browser channel," \
     "install Chromium (Debian: apt-get install chromium) or set VISTASIM_CHROMIUM to its path."
exit 0
