#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-guide: the admin guide's real output against the program's.
# Boots the test VM twice (8 CPUs in 2 NUMA nodes; the second with CPUs 6
# and 7 isolated), runs scripts/admin-session-in-vm.sh in each with the
# tree's hcube.ko and BUILD's hcubectl, keeps the output in
# BUILD/docs/guide-*.txt, and compares it with the guide's
# ".. hcube-output:" blocks and hcubectl(8)'s example output
# (check_guide.py); then the guide's picture, hcube-cube.svg, drawn by dot
# from the session's show --dot --plan (HCUBE_GUIDE_UPDATE=1 writes it and
# its source into the guide). Prints TAP; exit status 1 on any failure.
#
# Usage: check-guide.sh [BUILD]     (KVER: the kernel to boot)
set -u
cd "$(dirname "$0")/../../.." || exit 1
BUILD=$(readlink -f "${1:-build}")
OUT=$BUILD/docs
mkdir -p "$OUT"
for f in hcube.ko "$BUILD/hcubectl"; do
	[ -e "$f" ] || { echo "not ok 1 check-guide: $f is missing (make module tools)"; exit 1; }
done

# part NAME VM-OPTIONS...: one VM, its output in $OUT/guide-NAME.txt
part() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	scripts/vm/run-vm.sh --cpus 8 --nodes 2 --timeout 600 \
		--env HCUBE_BUILD="$BUILD" "$@" -- \
		scripts/admin-session-in-vm.sh "$name" \
		>"$OUT/guide-$name.txt" 2>"$OUT/guide-$name.err"
	rc=$?
	echo "# check-guide: VM of part $name: status $rc, $(( $(date +%s) - t0 )) s"
	if [ "$rc" -ne 0 ]; then
		echo "not ok 1 check-guide: the VM of part $name failed (status $rc)"
		sed 's/^/#   /' "$OUT/guide-$name.err" | tail -20
		exit 1
	fi
}

part session --writable-root
part isolation --append "isolcpus=6,7 nohz_full=6,7"

# The files the session printed ("=== hcube-file: NAME" to "=== hcube-file-end"):
# out of the capture, into $OUT/NAME.
awk -v out="$OUT" '
	/^=== hcube-file: / { f = out "/" $3; printf "" >f; next }
	/^=== hcube-file-end$/ { close(f); f = ""; next }
	f { print >>f; next }
	{ print }' "$OUT/guide-session.txt" >"$OUT/guide-session.blocks"
mv "$OUT/guide-session.blocks" "$OUT/guide-session.txt"

# The guide's picture: the Graphviz source of the session's show --dot
# --plan, and its SVG by dot. HCUBE_GUIDE_UPDATE=1 writes both into the
# guide; else they must be the guide's.
pic=0
G=Documentation/admin-guide
if ! dot -Tsvg "$OUT/hcube-cube.dot" -o "$OUT/hcube-cube.svg" 2>"$OUT/dot.err"; then
	echo "not ok 1 check-guide: dot cannot draw the session's hcube-cube.dot"
	sed 's/^/#   /' "$OUT/dot.err"
	exit 1
fi
if [ "${HCUBE_GUIDE_UPDATE:-0}" = 1 ]; then
	cp "$OUT/hcube-cube.dot" "$OUT/hcube-cube.svg" "$G/"
	echo "# check-guide: $G/hcube-cube.dot and .svg written"
fi
for f in hcube-cube.dot hcube-cube.svg; do
	if ! diff -u "$G/$f" "$OUT/$f" >"$OUT/$f.diff"; then
		echo "# check-guide: $G/$f differs from the session's (HCUBE_GUIDE_UPDATE=1 to take it):"
		head -20 "$OUT/$f.diff" | sed 's/^/#   /'
		pic=1
	fi
done
/usr/bin/python3 scripts/checks/docs/check_guide.py "$OUT/guide-session.txt" "$OUT/guide-isolation.txt"
rc=$?
if [ "$pic" = 1 ]; then
	echo "# check-guide: FAILED: the guide's picture is not the session's"
	exit 1
fi
echo "# check-guide: the guide's picture is the session's (hcube-cube.dot, hcube-cube.svg by dot)"
exit $rc
