#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-guide: the admin guide's real output against the program's.
# Boots the test VM twice (8 CPUs in 2 NUMA nodes; the second with CPUs 6
# and 7 isolated), runs scripts/admin-session-in-vm.sh in each with the
# tree's hcube.ko and BUILD's hcubectl, keeps the output in
# BUILD/docs/guide-*.txt, and compares it with the guide's
# ".. hcube-output:" blocks and hcubectl(8)'s example output
# (check_guide.py). Prints TAP; exit status 1 on any failure.
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
/usr/bin/python3 scripts/checks/docs/check_guide.py "$OUT/guide-session.txt" "$OUT/guide-isolation.txt"
