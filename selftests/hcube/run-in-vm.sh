#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM, from the repository root: the lifecycle tests
# (which load and unload the module themselves), then the module loaded for
# the netlink, balancing and hcubectl tests. Prints KTAP: one line per test
# program, with the program's own TAP output nested under it as comments.
set -u
B=${HCUBE_BUILD:-build}
export HCUBE_KO=${HCUBE_KO:-./hcube.ko}
tests=(lifecycle_test load nl_test balance_test policies_test job_test job_stress_test security_test cpuset_test hcubectl_test.sh persist_test.sh nl_fuzz stress pyroute2_test.py policy_test.py
       ${HCUBE_EXTRA_TESTS:-} unload kmemleak)
n=0
fails=0

# a marker in the kernel log: what comes after it is the tests' doing
echo "hcube-selftests: start" >/dev/kmsg 2>/dev/null || true
echo "TAP version 13"
echo "1..${#tests[@]}"
echo "# topology: $(nproc) CPUs, $(ls -d /sys/devices/system/node/node* | wc -l) node(s), kernel $(uname -r)"
for t in "${tests[@]}"; do
	n=$((n + 1))
	case $t in
	load) out=$(insmod "$HCUBE_KO" 2>&1); rc=$? ;;
	unload) out=$(rmmod hcube 2>&1); rc=$? ;;
	kmemleak)
		# on kernels with kmemleak (the debug kernel): nothing of hcube's
		# may be left unreferenced after the unload
		k=/sys/kernel/debug/kmemleak
		if [ -w "$k" ]; then
			echo scan >"$k"; sleep 2; echo scan >"$k"
			out=$(awk '/^unreferenced object/ { if (blk ~ /hcube/) print blk; blk = "" }
				{ blk = blk $0 "\n" } END { if (blk ~ /hcube/) print blk }' "$k")
			rc=0
			[ -n "$out" ] && rc=1
			[ -z "$out" ] && out="kmemleak: no unreferenced object from hcube ($(grep -c '^unreferenced object' "$k") in all)"
		else
			out="kmemleak: not in this kernel, skipped"; rc=0
		fi ;;
	*.sh | *.py) out=$(timeout 600 "selftests/hcube/$t" "$B" 2>&1); rc=$? ;;
	nl_fuzz) out=$(timeout 600 "$B/selftests/$t" "${HCUBE_FUZZ_SECONDS:-10}" \
			"${HCUBE_FUZZ_SEED:-1}" 2>&1); rc=$? ;;
	stress) out=$(timeout 900 "$B/selftests/$t" "${HCUBE_STRESS_SECONDS:-15}" \
			"${HCUBE_STRESS_SEED:-1}" 2>&1); rc=$? ;;
	*) out=$(timeout 600 "$B/selftests/$t" 2>&1); rc=$? ;;
	esac
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
	if [ "$rc" -eq 0 ]; then
		echo "ok $n hcube: $t"
	else
		echo "not ok $n hcube: $t # exit status $rc"
		fails=$((fails + 1))
	fi
	if [ "$t" = load ] && [ "$rc" -ne 0 ]; then
		echo "# the module did not load: the remaining tests cannot run"
		exit 1
	fi
done
echo "# $fails of ${#tests[@]} failed"
[ "$fails" -eq 0 ]
