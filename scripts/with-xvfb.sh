#!/usr/bin/env bash
# Runs a command with an X display.
#
# Usage: scripts/with-xvfb.sh COMMAND [ARG...]
#
# With DISPLAY set, the command runs as it is. Otherwise this starts
# `Xvfb :N -screen 0 1280x800x24 -nolisten tcp` on the first free display number from 99,
# runs the command with DISPLAY=:N, stops Xvfb and exits with the command's status.
set -euo pipefail

if [ $# -eq 0 ]; then
	echo "usage: $0 COMMAND [ARG...]" >&2
	exit 2
fi

if [ -n "${DISPLAY:-}" ]; then
	exec "$@"
fi

if ! command -v Xvfb >/dev/null 2>&1; then
	echo "with-xvfb.sh: Xvfb not found and DISPLAY is not set (Debian package xvfb; run \`make deps\`)" >&2
	exit 1
fi

n=99
while [ -e "/tmp/.X${n}-lock" ] || [ -e "/tmp/.X11-unix/X${n}" ]; do
	n=$((n + 1))
	if [ "$n" -gt 199 ]; then
		echo "with-xvfb.sh: no free X display number between 99 and 199" >&2
		exit 1
	fi
done

log=$(mktemp "${TMPDIR:-/tmp}/xvfb.XXXXXX.log")
Xvfb ":${n}" -screen 0 1280x800x24 -nolisten tcp >"$log" 2>&1 &
xvfb_pid=$!

stop_xvfb() {
	if kill -0 "$xvfb_pid" 2>/dev/null; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -f "$log"
}
trap stop_xvfb EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Wait for the server socket (bounded: 100 × 0.1 s).
for _ in $(seq 100); do
	if [ -S "/tmp/.X11-unix/X${n}" ]; then
		break
	fi
	if ! kill -0 "$xvfb_pid" 2>/dev/null; then
		echo "with-xvfb.sh: Xvfb :${n} exited:" >&2
		cat "$log" >&2
		exit 1
	fi
	sleep 0.1
done
if [ ! -S "/tmp/.X11-unix/X${n}" ]; then
	echo "with-xvfb.sh: Xvfb :${n} did not open its socket" >&2
	cat "$log" >&2
	exit 1
fi

echo "with-xvfb.sh: started Xvfb on :${n}"
status=0
DISPLAY=":${n}" "$@" || status=$?
exit "$status"
