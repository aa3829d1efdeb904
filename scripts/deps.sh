#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs: the first word of each
# line of scripts/deps-demo.list (what `make demo` needs) and
# scripts/deps.list (the rest: tests, benchmarks, packaging), which also
# say what uses each one. Without recommendations
# (--no-install-recommends). Idempotent: when all are present it only
# checks and returns.
#
# Usage: scripts/deps.sh [demo]
#   demo   only scripts/deps-demo.list (`make demo`)
# HCUBE_DEPS_LIST, when set, names the list files instead (space-separated).
set -eu

HERE=$(dirname "$0")
case ${1:-all} in
demo) LISTS="$HERE/deps-demo.list" ;;
all) LISTS="$HERE/deps-demo.list $HERE/deps.list" ;;
*) echo "usage: $0 [demo]" >&2; exit 2 ;;
esac
LISTS=${HCUBE_DEPS_LIST:-$LISTS}
# shellcheck disable=SC2086
PKGS=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/^[[:space:]]*\([^[:space:]]*\).*/\1/' $LISTS)
[ -n "$PKGS" ] || { echo "deps: no package in $LISTS" >&2; exit 1; }

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
npkg() { dpkg-query -W -f='${Status}\n' | grep -c '^install ok installed$' || true; }
n0=$(npkg)
t0=$(date +%s)
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
echo "deps: $(($(npkg) - n0)) packages installed in $(($(date +%s) - t0)) s"
