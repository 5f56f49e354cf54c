#!/usr/bin/env bash
# Builds the Go parsers the library ships (see README.md), byte for byte the same on every
# machine: the Go toolchain of go.mod's toolchain line (GOTOOLCHAIN fetches it from the Go module
# proxy when the installed Go is another version), the module versions go.sum pins, no file
# paths, no VCS stamp, no build id. The package ships the module Brotli-compressed
# (parsers.wasm.br: 1.4 MB instead of 8.2 MB, 0.6 MB less in the npm tarball than the plain
# module); the loader decompresses it once.
#
# usage: go/parsers/build.sh                 writes go/parsers/parsers.wasm.br
#        go/parsers/build.sh --wasm FILE     writes the plain module to FILE (CI compares it with
#                                            the committed one, decompressed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
toolchain=$(awk '$1 == "toolchain" { print $2 }' go.mod)
[ -n "$toolchain" ] || { echo "go/parsers/build.sh: go.mod has no toolchain line" >&2; exit 1; }
build() {
  GOTOOLCHAIN=$toolchain GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS="-mod=readonly -modcacherw -trimpath -buildvcs=false" \
    go build -buildmode=c-shared -ldflags="-s -w -buildid=" -o "$1" .
}
if [ "${1:-}" = --wasm ]; then
  build "$2"
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
build "$scratch/parsers.wasm"
node -e '
const fs = require("fs"), zlib = require("zlib");
const raw = fs.readFileSync(process.argv[1]);
const c = zlib.constants;
fs.writeFileSync(process.argv[2], zlib.brotliCompressSync(raw, { params: {
  [c.BROTLI_PARAM_QUALITY]: 11, [c.BROTLI_PARAM_LGWIN]: 24, [c.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
' "$scratch/parsers.wasm" "$here/parsers.wasm.br"
