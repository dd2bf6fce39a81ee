// Package e2e holds raftlab's end-to-end tests. They are build-tagged, so a plain
// `go test ./...` compiles none of them:
//
//	go test -tags browser ./e2e/...   # headless Chromium against web/ (run `make wasm` first)
//	go test -tags desktop ./e2e/...   # the desktop app under an X display (see scripts/with-xvfb.sh)
//
// `make test` runs both. A test that cannot run here (no Chromium, no build of the app, no
// display) skips with the reason, except under CI=true, where it fails instead: see requireOrSkip.
// docs/testing.md describes the helpers.
package e2e
