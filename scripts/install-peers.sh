#!/usr/bin/env bash
# Installs the Debian packages of the third-party peers and tools pacelab's tests and studies use:
# ngtcp2 (gtlsserver/gtlsclient), tshark and tcpdump, nginx and curl (TCP/TLS baseline), iproute2, openssl
# (test certificates), fontconfig and DejaVu fonts (report figures drawn by JFreeChart), and chromium (the HTTP/3
# browser client of 'pacelab run'; the largest one, about 100 MB to download and a minute or two to install), and
# slurm-wlm with munge (the single-node Slurm of scripts/slurm-local.sh, which the Slurm executor's tests start).
# 'pacelab peers install' installs the peers' packages the same way.
# Does nothing for packages already installed; needs root for apt-get (otherwise it says what is missing).
set -euo pipefail
packages=(ngtcp2-client ngtcp2-server tshark tcpdump nginx curl iproute2 openssl fontconfig fonts-dejavu-core chromium slurm-wlm munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} == 0 )); then
  exit 0
fi
if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "pacelab: peers not installed (${missing[*]}); run as root to install them with apt-get. Interop tests will be skipped (or fail when CI=true)." >&2
  exit 0
fi
echo "pacelab: installing ${missing[*]} ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
