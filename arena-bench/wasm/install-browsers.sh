#!/usr/bin/env bash
# Installs what the browser half of the Wasm benchmark needs: Debian's
# headless-capable Chromium and Firefox ESR, and puppeteer-core (which drives
# them; it downloads no browser) from package-lock.json.
#
#   bash arena-bench/wasm/install-browsers.sh [--selftest]
#
# --selftest then runs `node browsers.mjs --selftest` in both browsers.
# Safe to run again: installed packages are left as they are.
set -euo pipefail
cd "$(dirname "$0")"

need=()
for pkg in chromium firefox-esr; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    need+=("$pkg")
  fi
done
if ((${#need[@]})); then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  # The package lists may be missing or older than the mirror's files.
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
fi

if ! command -v npm >/dev/null; then
  echo "install-browsers.sh: npm not found; Node 18 or later with npm is needed" >&2
  exit 1
fi
PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund

if [ "${1:-}" = --selftest ]; then
  node browsers.mjs --selftest
fi
