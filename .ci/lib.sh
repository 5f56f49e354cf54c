# Helpers for the jobs in .ci/jobs/ (each job sources this file).
#
# .ci/run gives every job:
#   CI_ROOT     the clone under test (the job starts there)
#   CI_SCRATCH  this run's scratch directory (removed at the end), with the download caches:
#               npm_config_cache, PIP_CACHE_DIR, MAVEN_REPO, GOMODCACHE, GOCACHE
#   CI_JOB_DIR  a directory of the job's own inside the scratch
#   CI_LOGS     where the jobs' logs go
# A job runs on its own too: `CI_ROOT=$PWD CI_SCRATCH=$(mktemp -d) .ci/jobs/<name>` (the caches
# then default to the scratch as well).
set -euo pipefail
: "${CI_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${CI_SCRATCH:=$(mktemp -d)}"
: "${CI_JOB_DIR:=$CI_SCRATCH/jobs/$(basename "$0")}"
: "${CI_LOGS:=$CI_SCRATCH/logs}"
: "${CI_NODE:=24}"
: "${MAVEN_REPO:=$CI_SCRATCH/cache/m2}"
: "${GOMODCACHE:=$CI_SCRATCH/cache/go/mod}"
: "${GOCACHE:=$CI_SCRATCH/cache/go/build}"
export CI_ROOT CI_SCRATCH CI_JOB_DIR CI_LOGS CI_NODE MAVEN_REPO GOMODCACHE GOCACHE
export GOFLAGS="${GOFLAGS:--modcacherw}" GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
# Maven's local repository for every mvn, jsii-pacmak's included
export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Dmaven.repo.local=$MAVEN_REPO"
mkdir -p "$CI_JOB_DIR" "$CI_LOGS"
cd "$CI_ROOT"

CI_JOB_NAME=$(basename "$0")
CI_JOB_T0=$SECONDS

fail() {
  echo "FAIL ($CI_JOB_NAME): $*" >&2
  exit 1
}

# section <title>: what the job checks next, and the seconds the job has taken so far
section() {
  echo "== [$((SECONDS - CI_JOB_T0)) s] $*"
}

# timed <command...>: runs it and prints its seconds; returns the command's status (called left of
# ||, where set -e is off, a failure must not hide behind the echo's success)
timed() {
  local start=$SECONDS rc=0
  "$@" || rc=$?
  echo "-- $((SECONDS - start)) s: $*"
  return "$rc"
}

# ci_clone <dir>: a clone of the committed HEAD in <dir>, with the installed node_modules of
# CI_ROOT hard-linked into it (what `npm ci` writes from the same lockfile): a job that edits or
# generates files does it there, never in CI_ROOT, where other jobs run at the same time
ci_clone() {
  local dir=$1
  mkdir -p "$(dirname "$dir")"
  git clone -q "$CI_ROOT" "$dir"
  [ -d "$CI_ROOT/node_modules" ] || fail "$CI_ROOT/node_modules is missing: the install job runs first"
  cp -al "$CI_ROOT/node_modules" "$dir/node_modules"
}

# expected_output <dir>: what examples/consumer/main.ts writes with the built library (lib/),
# the reference every language's example must match byte for byte
expected_output() {
  local out=$1
  [ -f "$CI_ROOT/lib/src/index.js" ] || fail "lib/ is missing: the build job runs first"
  # the example imports 'cdk8s-gitops-platform': inside the project that resolves to the project
  # itself (package.json's exports), i.e. the compiled lib/ the packages are made of
  (cd "$CI_ROOT/examples/consumer" && CDK8S_OUTDIR="$out" npx tsx main.ts) || fail "examples/consumer/main.ts did not synthesize"
  ls "$out"/*.k8s.yaml >/dev/null || fail "examples/consumer/main.ts wrote no manifests"
}

# validate <dir> <what>: the test kit's validate command (of the built library) finds nothing in <dir>
validate() {
  node "$CI_ROOT/lib/src/cli/main.js" validate "$1" || fail "$2: the test kit finds problems in $1"
}

# ci_node <major>: the bin directory of Node <major> (the npm package node@<major>, a Node binary
# for this platform), installed into the run's scratch the first time
ci_node() {
  local major=$1 dir="$CI_SCRATCH/node/$1"
  if [ ! -x "$dir/node_modules/.bin/node" ]; then
    mkdir -p "$dir"
    timed npm install --silent --no-save --no-package-lock --prefix "$dir" "node@$major" >&2 || fail "npm install node@$major failed"
  fi
  "$dir/node_modules/.bin/node" --version | grep -q "^v$major\." || fail "node@$major did not install a Node $major binary"
  echo "$dir/node_modules/.bin"
}

# doc_commands <page> <key>: runs the shell blocks of <page> marked `<!-- run: <key> -->` (the
# commands the page tells a reader to run) in the current directory, as one script, each command echoed
# (test/docs.test.ts holds every shell block of the docs to such a job)
doc_commands() {
  local page=$1 key=$2 script="$CI_JOB_DIR/$2.doc.sh"
  awk -v marker="<!-- run: $key -->" '
    $0 == marker { want = 1; next }
    want && $0 == "```sh" { inblock = 1; next }
    inblock && $0 == "```" { inblock = 0; want = 0; next }
    inblock { print; next }
    want && NF { want = 0 }
  ' "$CI_ROOT/$page" >"$script"
  [ -s "$script" ] || fail "$page has no shell block marked <!-- run: $key -->"
  # returns the commands' status (a caller may want to report before it fails)
  timed bash -euxo pipefail "$script" || { echo "FAIL ($CI_JOB_NAME): the commands of $page ($key) failed" >&2; return 1; }
}

# on_exit: every job prints its own time last
trap 'echo "== $CI_JOB_NAME: $((SECONDS - CI_JOB_T0)) s"' EXIT
