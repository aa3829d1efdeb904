#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Last of the list, after the other tests have unloaded the module: on a
# kernel with kmemleak (the debug kernel), no unreferenced object was
# allocated by hcube. Skipped (exit 4) on a kernel without it.
set -u
k=/sys/kernel/debug/kmemleak
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
echo "TAP version 13"
if [ ! -w "$k" ]; then
	echo "1..0 # SKIP no kmemleak in this kernel ($k)"
	exit 4
fi
echo scan >"$k"
sleep 2
echo scan >"$k"
leaks=$(awk '/^unreferenced object/ { if (blk ~ /hcube/) print blk; blk = "" }
	{ blk = blk $0 "\n" } END { if (blk ~ /hcube/) print blk }' "$k")
all=$(grep -c '^unreferenced object' "$k")
if [ -z "$leaks" ]; then
	ok "kmemleak: no unreferenced object from hcube ($all in all)"
else
	printf '%s\n' "$leaks" | sed 's/^/# /'
	not_ok "kmemleak: unreferenced objects from hcube ($all in all)"
fi
tap_end
