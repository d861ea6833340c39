#!/usr/bin/env bash
# Installs the third-party peers and tools pacelab's tests and studies use.
# 1. Debian packages: ngtcp2 (gtlsserver/gtlsclient), tshark and tcpdump, nginx and curl (TCP/TLS baseline), iproute2,
#    openssl (test certificates), fontconfig and DejaVu fonts (report figures drawn by JFreeChart), chromium (the
#    HTTP/3 browser client of 'pacelab run'; the largest one, about 100 MB to download and a minute or two to install),
#    slurm-wlm with munge (the single-node Slurm of scripts/slurm-local.sh, which the Slurm executor's tests start),
#    and what the peers pacelab builds need: a C toolchain, CMake, OpenSSL's headers and pkg-config (picoquic), Python 3
#    with its headers (aioquic), Go and Debian's quic-go 0.29 (quic-go), git (to fetch pinned upstream sources when the
#    network allows). 'pacelab peers install' installs the peers' packages the same way.
#    Does nothing for packages already installed; needs root for apt-get (otherwise it says what is missing).
# 2. The peers pacelab builds from pinned sources into the per-user peer cache ('pacelab peers install picoquic aioquic
#    quic-go'; reused when built): sources from PACELAB_PEER_SOURCES, else ../shared/peer-sources beside the repository
#    (as CI has them), else upstream. A peer that cannot be built is reported here; its tests then skip, or fail when CI=true.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(ngtcp2-client ngtcp2-server tshark tcpdump nginx curl iproute2 openssl fontconfig fonts-dejavu-core chromium slurm-wlm munge
  build-essential cmake libssl-dev pkg-config python3 python3-dev golang-go golang-github-lucas-clemente-quic-go-dev git)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} > 0 )); then
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "pacelab: peers not installed (${missing[*]}); run as root to install them with apt-get. Interop tests will be skipped (or fail when CI=true)." >&2
  else
    echo "pacelab: installing ${missing[*]} ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
fi

if [[ -z "${PACELAB_PEER_SOURCES:-}" && -d "$root/../shared/peer-sources" ]]; then
  PACELAB_PEER_SOURCES="$(cd "$root/../shared/peer-sources" && pwd)"
  export PACELAB_PEER_SOURCES
fi
if ! "$root/pacelab" peers install picoquic aioquic quic-go >&2; then
  echo "pacelab: a peer pacelab builds could not be built (see above); its tests will be skipped (or fail when CI=true)." >&2
fi
