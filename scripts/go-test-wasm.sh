#!/usr/bin/env bash
# Runs the Go tests of the given package patterns compiled for GOOS=js GOARCH=wasm, in Node.
#
# Usage: scripts/go-test-wasm.sh PATTERN... (for example ./raftcore/... ./viz/...)
#
# Patterns that match no package yet are left out, so the script works while the tree
# is still growing. Node (/usr/bin/node or any node on PATH) runs the test binaries through
# $(go env GOROOT)/lib/wasm/go_js_wasm_exec.
set -euo pipefail

GO=${GO:-go}
if [ $# -eq 0 ]; then
	echo "usage: $0 PATTERN..." >&2
	exit 2
fi
if ! command -v node >/dev/null 2>&1; then
	echo "go-test-wasm.sh: node not found; the GOOS=js tests need Node.js (Debian package nodejs)" >&2
	exit 1
fi

goroot=$("$GO" env GOROOT)
exec_dir="$goroot/lib/wasm"
if [ ! -x "$exec_dir/go_js_wasm_exec" ]; then
	echo "go-test-wasm.sh: $exec_dir/go_js_wasm_exec not found" >&2
	exit 1
fi

# Leave out patterns whose directory does not exist (git keeps no empty directories).
patterns=()
for p in "$@"; do
	dir=${p%/...}
	if [ -d "$dir" ]; then
		patterns+=("$p")
	fi
done
if [ ${#patterns[@]} -eq 0 ]; then
	echo "go-test-wasm.sh: none of $* exists yet; nothing to test under GOOS=js"
	exit 0
fi

errs=$(mktemp)
trap 'rm -f "$errs"' EXIT
# -e keeps packages with errors in the list, so that `go test` reports those errors.
pkgs=$(GOOS=js GOARCH=wasm "$GO" list -e -f '{{if or .GoFiles .TestGoFiles .XTestGoFiles .Error}}{{.ImportPath}}{{end}}' "${patterns[@]}" 2>"$errs") || {
	cat "$errs" >&2
	exit 1
}
grep -v 'matched no packages' "$errs" >&2 || true

if [ -z "$pkgs" ]; then
	echo "go-test-wasm.sh: no packages match ${patterns[*]} yet; nothing to test under GOOS=js"
	exit 0
fi

# shellcheck disable=SC2086 # one package per word
PATH="$exec_dir:$PATH" GOOS=js GOARCH=wasm "$GO" test $pkgs
