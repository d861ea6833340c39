#!/bin/sh
# The commit a pacelab build is made from, printed on one line: HEAD's short hash, with "+dirty" when the sources the
# jar is compiled from differ from that commit — a changed, staged, deleted or untracked file under a module's
# src/main, a pom.xml or .mvn/ (documents, tests and results do not go into the jar and do not count) — or
# "unknown (…)" saying why there is none. ./pacelab passes it to Maven as -Dpacelab.build.commit when it builds the
# jar; lab's build-commit.properties (SourceCommit) carries it into the jar, so results name the build that ran them
# and not whatever the checkout's HEAD is by then.
# Usage: scripts/build-commit.sh [DIR]   (DIR: the checkout, default the one this script is in)
dir="${1:-$(dirname "$0")/..}"
if ! command -v git >/dev/null 2>&1; then
  echo "unknown (git is not installed)"; exit 0
fi
if ! head="$(git -C "$dir" rev-parse --short=7 HEAD 2>/dev/null)"; then
  echo "unknown ($dir is not a git checkout with a commit)"; exit 0
fi
if ! changes="$(git -C "$dir" status --porcelain --untracked-files=all -- ':(glob)**/src/main/**' ':(glob)**/pom.xml' \
      ':(glob).mvn/**' 2>/dev/null)"; then
  echo "$head (whether its sources were changed is unknown: git status failed)"; exit 0
fi
if [ -n "$changes" ]; then
  echo "$head+dirty"
else
  echo "$head"
fi
