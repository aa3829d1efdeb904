#!/bin/sh
# Install every Debian package the project needs: the first word of each
# line of scripts/deps.list, which also says what uses each one. Without
# recommendations (--no-install-recommends). Idempotent: when all are
# present it only checks and returns.
set -eu

LIST=${HCUBE_DEPS_LIST:-$(dirname "$0")/deps.list}
PKGS=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/^[[:space:]]*\([^[:space:]]*\).*/\1/' "$LIST")
[ -n "$PKGS" ] || { echo "deps: no package in $LIST" >&2; exit 1; }

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
