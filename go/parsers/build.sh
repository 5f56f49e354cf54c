#!/usr/bin/env bash
# Builds parsers.wasm, the Go parsers the library ships (see README.md), byte for byte the same on
# every machine: the Go toolchain of go.mod's toolchain line (GOTOOLCHAIN fetches it from the Go
# module proxy when the installed Go is another version), the module versions go.sum pins, no
# file paths, no VCS stamp, no build id.
#
# usage: go/parsers/build.sh [OUT]   (default: go/parsers/parsers.wasm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/parsers.wasm}
cd "$here"
toolchain=$(awk '$1 == "toolchain" { print $2 }' go.mod)
[ -n "$toolchain" ] || { echo "go/parsers/build.sh: go.mod has no toolchain line" >&2; exit 1; }
export GOTOOLCHAIN=$toolchain GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0
export GOFLAGS="-mod=readonly -modcacherw -trimpath -buildvcs=false"
go build -buildmode=c-shared -ldflags="-s -w -buildid=" -o "$out" .
