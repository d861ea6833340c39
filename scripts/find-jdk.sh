# Sourced by ./pacelab and ./run-tests: sets JAVA_HOME to a JDK >= 25 (JAVA_HOME, then /usr/lib/jvm/*25*,
# then javac on PATH) or returns 1.
# The feature version of the java binary $1: from the JDK's release file (JAVA_VERSION="25.0.3"), which every JDK
# image has beside bin/, else by asking the JVM (a JVM start: 0.1-0.3 s of every ./pacelab command's wall time on a
# shared 2-core machine, docs/benchmarks.md "Simulator", 2026-12-03 evening).
pacelab_java_major() {
  local v= release
  release="$(dirname "$(dirname "$1")")/release"
  if [[ -f "$release" ]]; then
    v="$(sed -n 's/^JAVA_VERSION="\([0-9][0-9.]*\).*"$/\1/p' "$release" | head -n 1)"
    [[ "$v" == 1.* ]] && v="${v#1.}"   # 1.8.0_x: Java 8
    v="${v%%.*}"
  fi
  if [[ ! "$v" =~ ^[0-9]+$ ]]; then
    v="$("$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}')" || true
    v="${v#1.}"; v="${v%%.*}"
  fi
  echo "${v:-0}"
}

pacelab_find_jdk() {
  local cand j
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" && -x "$JAVA_HOME/bin/javac" ]] && (( $(pacelab_java_major "$JAVA_HOME/bin/java") >= 25 )); then
    return 0
  fi
  for cand in /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    if [[ -x "$cand/bin/java" && -x "$cand/bin/javac" ]] && (( $(pacelab_java_major "$cand/bin/java") >= 25 )); then
      export JAVA_HOME="$cand"; return 0
    fi
  done
  if command -v javac >/dev/null 2>&1; then
    j="$(readlink -f "$(command -v javac)")"; j="$(dirname "$(dirname "$j")")"
    if (( $(pacelab_java_major "$j/bin/java") >= 25 )); then export JAVA_HOME="$j"; return 0; fi
  fi
  echo "pacelab: no JDK 25 or newer found (looked at JAVA_HOME, /usr/lib/jvm/*25*, and javac on PATH); install one, e.g. Temurin 25." >&2
  return 1
}
