#!/usr/bin/env bash
# Installs the Debian packages raftlab's targets need, and only those that are missing.
#
# Usage: scripts/deps.sh [GROUP...]
#   web      brotli (optional: without it `make release` skips the .br file)
#   browser  chromium, brotli (browser end-to-end tests)
#   desktop  gcc and the X11/GL headers Ebiten's cgo build needs
#   xvfb     xvfb, imagemagick and xdotool (desktop smoke test under a virtual display)
#   node     nodejs, unless a `node` is already on PATH (GOOS=js tests run in Node)
#   all      every group above (the default)
#
# As root with apt-get available, missing packages are installed with one `apt-get update`
# followed by one `apt-get install`. Otherwise the script prints the command to run and fails
# if a required package is missing. When everything is present it only runs one dpkg-query.
set -euo pipefail

groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
	groups=(all)
fi

required=()
optional=()
for g in "${groups[@]}"; do
	case "$g" in
	web) optional+=(brotli) ;;
	browser) required+=(chromium brotli poppler-utils) ;;
	desktop) required+=(gcc libc6-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev) ;;
	xvfb) required+=(xvfb imagemagick xdotool) ;;
	node) command -v node >/dev/null 2>&1 || required+=(nodejs) ;;
	all)
		required+=(chromium xvfb imagemagick brotli poppler-utils gcc libc6-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev xdotool)
		command -v node >/dev/null 2>&1 || required+=(nodejs)
		;;
	*)
		echo "deps.sh: unknown group '$g' (known: web browser desktop xvfb node all)" >&2
		exit 2
		;;
	esac
done

# Prints the packages among "$@" that dpkg does not report as installed.
missing_of() {
	[ $# -gt 0 ] || return 0
	local installed
	installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "$@" 2>/dev/null | awk '$2 ~ /^ii/ {print $1}' | sed 's/:.*//' || true)
	local p
	for p in "$@"; do
		if ! grep -qx -- "$p" <<<"$installed"; then
			echo "$p"
		fi
	done
}

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps.sh: this is not a Debian-based system; install the equivalents of:" >&2
	echo "  ${required[*]} ${optional[*]}" >&2
	[ ${#required[@]} -eq 0 ] && exit 0 || exit 1
fi

mapfile -t miss_req < <(missing_of "${required[@]}" | sort -u)
mapfile -t miss_opt < <(missing_of "${optional[@]}" | sort -u)
# Drop optional packages that are also required (already listed once).
if [ ${#miss_req[@]} -gt 0 ] && [ ${#miss_opt[@]} -gt 0 ]; then
	mapfile -t miss_opt < <(printf '%s\n' "${miss_opt[@]}" | grep -vxF -f <(printf '%s\n' "${miss_req[@]}") || true)
fi
missing=("${miss_req[@]}" "${miss_opt[@]}")

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	still=$(missing_of "${missing[@]}")
	if [ -n "$still" ]; then
		echo "deps.sh: still missing after apt-get install: $still" >&2
		exit 1
	fi
	exit 0
fi

if [ ${#miss_opt[@]} -gt 0 ]; then
	echo "deps.sh: optional packages not installed: ${miss_opt[*]}" >&2
fi
if [ ${#miss_req[@]} -gt 0 ]; then
	echo "deps.sh: required packages not installed: ${miss_req[*]}" >&2
	echo "deps.sh: install them as root with:" >&2
	echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps.sh: install them as root with: apt-get update && apt-get install -y ${missing[*]}" >&2
exit 0
