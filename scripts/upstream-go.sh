#!/usr/bin/env bash
# Fills .upstream-go/ with the nested Go modules of Kargo v1.11.2 and Argo CD v3.5.1 that the Go
# module proxy does not serve, so that the replace lines of the project's Go modules
# (conformance/*, e2e/*) resolve on any machine:
#
#   github.com/akuity/kargo/api                     => .upstream-go/kargo-v1.11.2/api
#   github.com/akuity/kargo/pkg/x/client/generated  => .upstream-go/kargo-v1.11.2/pkg/x/client/generated
#   github.com/argoproj/argo-cd/gitops-engine       => .upstream-go/argo-cd-v3.5.1/gitops-engine
#
# Upstream's own go.mod files resolve them the same way (`replace ... => ./api`). The source is
# ../shared/upstream-go when it sits beside the clone (the maintainers' machines and CI), else a
# shallow clone of the pinned tag from GitHub (UPSTREAM_GIT_BASE overrides https://github.com).
# Either way every directory must have the git tree id of that path at the tag, so what is built is
# exactly upstream's. Nothing here is committed (.gitignore); run it again to refill.
#
# usage: scripts/upstream-go.sh [--quiet]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.upstream-go"
shared="$root/../shared/upstream-go"
base=${UPSTREAM_GIT_BASE:-https://github.com}
quiet=${1:-}

# folder | repository | tag | commit | path | git tree id of the path at the tag
pins=(
  "kargo-v1.11.2|akuity/kargo|v1.11.2|20c56384dc3aa29911368fa9c0916e8f4a541252|api|80dee92d3d1520a3be626f895bf6a6383c5b8956"
  "kargo-v1.11.2|akuity/kargo|v1.11.2|20c56384dc3aa29911368fa9c0916e8f4a541252|pkg/x/client/generated|0fc2b81cf26712a29f0db21eb435d3d0a0d7c4dc"
  "argo-cd-v3.5.1|argoproj/argo-cd|v3.5.1|109ca7ca71139e514114499d294a492e7910a965|gitops-engine|7f55b5d68be17a20e25047863b65502c22cbfd27"
)

say() { [ "$quiet" = --quiet ] || echo "upstream-go: $*" >&2; }
die() { echo "upstream-go: $*" >&2; exit 1; }

# the git tree id of a directory's files, as `git rev-parse <tag>:<path>` gives it in a clone
tree_id() {
  local dir=$1 scratch
  scratch=$(mktemp -d)
  git init -q --bare "$scratch/git"
  (
    cd "$dir"
    export GIT_DIR="$scratch/git" GIT_INDEX_FILE="$scratch/index" GIT_WORK_TREE="$dir"
    git add -A --force .
    git write-tree
  )
  rm -rf "$scratch"
}

verified() { # <dir> <tree id>
  [ -d "$1" ] && [ "$(tree_id "$1")" = "$2" ]
}

# one filler at a time: CI's conformance and e2e jobs start together on the same clone
mkdir -p "$dest"
exec 9>"$dest/.lock"
flock 9

for pin in "${pins[@]}"; do
  IFS='|' read -r folder repo tag commit path tree <<<"$pin"
  target="$dest/$folder/$path"
  if verified "$target" "$tree"; then
    say "$folder/$path is in place (tree $tree)"
    continue
  fi
  rm -rf "$target"
  mkdir -p "$(dirname "$target")"
  if [ -d "$shared/$folder/$path" ]; then
    say "copying $folder/$path from $shared"
    cp -R "$shared/$folder/$path" "$target"
  else
    clone="$dest/.clones/$folder"
    if [ ! -d "$clone" ]; then
      say "cloning $base/$repo at $tag (no $shared beside the clone)"
      git clone -q --depth 1 --branch "$tag" --no-checkout "$base/$repo" "$clone" \
        || die "could not clone $base/$repo at $tag; with no network, put the folders of $shared beside the clone"
    fi
    [ "$(git -C "$clone" rev-parse "$tag^{commit}")" = "$commit" ] || die "$repo $tag is not commit $commit"
    mkdir -p "$target"
    git -C "$clone" archive "$tag" "$path" | tar -x -C "$target" --strip-components="$(tr -cd / <<<"$path/" | wc -c)"
  fi
  verified "$target" "$tree" || die "$folder/$path does not have the git tree id $tree of $repo $tag:$path; remove $dest and run again"
  say "$folder/$path verified (tree $tree)"
done
rm -rf "$dest/.clones"
