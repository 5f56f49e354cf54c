#!/usr/bin/env bash
# Prints the directory of a git >= 2.42 (building one when the machine's is older), for the
# conformance and e2e suites that run Kargo's git steps.
#
# Kargo v1.11.2's git-clone step with `create: true` on a branch that does not exist yet runs
# `git worktree add --orphan` (pkg/controller/git/work_tree.go), which git 2.42 added; Debian
# bookworm has 2.39. The Debian package registry serves trixie's source package of git 2.47.3,
# which this script fetches with a private apt configuration (the machine's own apt sources are not
# touched) and builds with https support (libcurl) into $GIT_TOOLS_DIR (default .tools/), where
# the next run finds it. Progress goes to stderr; stdout is the directory alone.
#
# usage: PATH="$(scripts/git-for-kargo.sh):$PATH"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=${GIT_TOOLS_DIR:-$root/.tools}
version=2.47.3
prefix="$tools/git-$version"

new_enough() { # <git binary>
  local v
  v=$("$1" --version 2>/dev/null | awk '{print $3}') || return 1
  [ -n "$v" ] && [ "$(printf '%s\n2.42.0\n' "$v" | sort -V | head -1)" = 2.42.0 ]
}

if new_enough "$(command -v git)"; then
  dirname "$(command -v git)"
  exit 0
fi
# one build at a time per tools directory: CI's conformance and e2e jobs start together and share it
mkdir -p "$tools"
exec 9>"$tools/.git-for-kargo.lock"
flock 9
if [ -x "$prefix/bin/git" ] && new_enough "$prefix/bin/git"; then
  echo "$prefix/bin"
  exit 0
fi

echo "git-for-kargo: $(git --version) is older than 2.42; building git $version from Debian trixie's source into $prefix (about 3 minutes on 2 cores)" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" >"$work/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update >&2
(cd "$work/src" && apt-get "${apt_opts[@]}" -qq source --download-only "git=1:$version-0+deb13u1" >&2 \
  || apt-get "${apt_opts[@]}" -qq source --download-only git >&2)
tarball=$(ls "$work"/src/git_"$version".orig.tar.* 2>/dev/null | head -1)
[ -n "$tarball" ] || { echo "git-for-kargo: trixie no longer serves git $version's source: $(ls "$work/src")" >&2; exit 1; }
tar -xf "$tarball" -C "$work/src"
# https transport (the e2e suite's Git server) needs libcurl's headers
if ! dpkg -s libcurl4-openssl-dev >/dev/null 2>&1; then
  echo "git-for-kargo: installing libcurl4-openssl-dev" >&2
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >&2) \
    || (apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >&2)
fi
make -C "$work/src/git-$version" -j"$(nproc)" prefix="$prefix" \
  NO_TCLTK=1 NO_GETTEXT=1 NO_PERL=1 NO_PYTHON=1 INSTALL_SYMLINKS=1 install >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log" >&2; echo "git-for-kargo: building git $version failed" >&2; exit 1; }
new_enough "$prefix/bin/git" || { echo "git-for-kargo: the built git is not >= 2.42" >&2; exit 1; }
echo "git-for-kargo: built $("$prefix/bin/git" --version) in $prefix" >&2
echo "$prefix/bin"
