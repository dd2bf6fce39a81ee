#!/usr/bin/env bash
# Runs the Go tests of the given package patterns compiled for GOOS=js GOARCH=wasm, in Node.
#
# Usage: scripts/go-test-wasm.sh PATTERN... (for example ./raftcore/... ./viz/...)
#
# Node (/usr/bin/node or any node on PATH) runs the test binaries through
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

patterns=("$@")
errs=$(mktemp)
trap 'rm -f "$errs"' EXIT
# -e keeps packages with errors in the list, so that `go test` reports those errors.
pkgs=$(GOOS=js GOARCH=wasm "$GO" list -e -f '{{if or .GoFiles .TestGoFiles .XTestGoFiles .Error}}{{.ImportPath}}{{end}}' "${patterns[@]}" 2>"$errs") || {
	cat "$errs" >&2
	exit 1
}
if [ -s "$errs" ]; then
	# A pattern that matches nothing is a mistake in the caller, not an empty test run.
	cat "$errs" >&2
	exit 1
fi

# shellcheck disable=SC2086 # one package per word
PATH="$exec_dir:$PATH" GOOS=js GOARCH=wasm "$GO" test $pkgs
