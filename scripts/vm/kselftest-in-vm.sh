#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM, from the repository root: the kernel selftests as
# `make selftests` installed them in build/kselftest, through the kernel's
# run_kselftest.sh. Arguments: the tests, as -t hcube:TEST (default: those
# in $HCUBE_TESTS, else all). Prints run_kselftest.sh's KTAP; its top-level
# results decide the status: one per test asked for, none "not ok".
#
# The module is not loaded: each test that needs it loads it from HCUBE_KO
# (default ./hcube.ko) and unloads it at its end. HCUBE_FUZZ_SECONDS and
# HCUBE_STRESS_SECONDS (and _SEED) give nl_fuzz's and stress's arguments.
set -u
B=${HCUBE_BUILD:-build}
K=$B/kselftest
HCUBE_KO=$(realpath -e "${HCUBE_KO:-./hcube.ko}") || exit 1
export HCUBE_KO
# the kernel's YNL CLI for ynl_test.py (make ynl; make selftests makes it)
if [ -d "$B/ynl-6.12" ]; then
	HCUBE_YNL=$(realpath "$B/ynl-6.12")
	export HCUBE_YNL
fi
export KSELFTEST_NL_FUZZ_ARGS="${HCUBE_FUZZ_SECONDS:-10} ${HCUBE_FUZZ_SEED:-1}"
export KSELFTEST_STRESS_ARGS="${HCUBE_STRESS_SECONDS:-15} ${HCUBE_STRESS_SEED:-1}"
# shellcheck source=selftests/lib/tap.sh
. "$(dirname "$0")/../../selftests/lib/tap.sh"
# kselftest's runner writes each test's output to /dev/stdout, a link that
# the VM's /dev (devtmpfs, no udev) lacks: without it the output is lost
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout

args=("$@")
if [ ${#args[@]} -eq 0 ]; then
	for t in ${HCUBE_TESTS-}; do
		args+=(-t "$t")
	done
fi
want=0
for a in "${args[@]}"; do
	[ "$a" = -t ] && want=$((want + 1))
done
[ "$want" = 0 ] && want=$(grep -c . "$K/kselftest-list.txt")

# a marker in the kernel log: what comes after it is the tests' doing
echo "hcube-selftests: start" >/dev/kmsg 2>/dev/null || true
out=$(mktemp)
last=$SECONDS
# through a pipe: the runner appends to /dev/stdout, which must not be a
# file; each test's time follows its result, as a comment
"$K/run_kselftest.sh" "${args[@]}" | while IFS= read -r line; do
	printf '%s\n' "$line"
	case $line in
	"ok "* | "not ok "*)
		echo "# time: $((SECONDS - last)) s"
		last=$SECONDS
		;;
	esac
done | tee "$out"
echo "# topology: $(nproc) CPUs, $(ls -d /sys/devices/system/node/node* | wc -l) node(s), kernel $(uname -r)"
ktap_summary "$out" "$want"
