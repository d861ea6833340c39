#!/usr/bin/env bash
# QUIC Interop Runner entry point for pacelab (copy into an endpoint image next to the pacelab checkout).
# The runner sets ROLE, TESTCASE, REQUESTS, SSLKEYLOGFILE and QLOGDIR and mounts /www, /downloads, /certs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# the runner's setup script (routes, etc.) when present
if [[ -x /setup.sh ]]; then /setup.sh; fi
exec "$here/pacelab" endpoint "$@"
