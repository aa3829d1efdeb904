#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make soak`: selftests/soak/soak-in-vm.sh in an 8-CPU, 2-node VM, first on
# the debug kernel (KASAN, lockdep, kmemleak, DEBUG_ATOMIC_SLEEP, built once
# by scripts/debug-kernel.sh), then on Debian's standard 6.1 kernel. Each
# VM's KTAP goes to $SOAK_OUT/<kernel>.txt and the figures to the terminal;
# a failed check, a kernel splat or a timeout fails the run.
#
# Environment (defaults in brackets):
#   SOAK_KERNELS           which runs ["debug standard"]
#   SOAK_DEBUG_SECONDS     the debug run's length [1800]
#   SOAK_SECONDS           the standard run's length [1800]
#   SOAK_MESSAGES          nl_fuzz messages the standard run sends at least [1000000]
#   HCUBE_SOAK_MIX, HCUBE_SOAK_FUZZ, HCUBE_SOAK_STRESS: a round's parts, s [240, 60, 60]
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${SOAK_OUT:-build/soak}
mkdir -p "$out"
topo=${SOAK_TOPO:-8x2}
rc=0
for k in ${SOAK_KERNELS-debug standard}; do
	envs=(--env HCUBE_KO --env HCUBE_SOAK_SECONDS --env HCUBE_SOAK_MESSAGES
	      --env HCUBE_SOAK_MIX --env HCUBE_SOAK_FUZZ --env HCUBE_SOAK_STRESS)
	if [ "$k" = debug ]; then
		v=$(scripts/debug-kernel.sh) || exit 1
		ko=$(scripts/build-module-for.sh "$v" build/debug) || exit 1
		secs=${SOAK_DEBUG_SECONDS:-1800}
		msgs=0
		export HCUBE_VM_KERNEL HCUBE_DMESG_FROM
		HCUBE_VM_KERNEL=$(scripts/debug-kernel.sh --image)
		HCUBE_DMESG_FROM='hcube-selftests: start'
	else
		v=$(scripts/kver.sh)
		ko=./hcube.ko
		secs=${SOAK_SECONDS:-1800}
		msgs=${SOAK_MESSAGES:-1000000}
		unset HCUBE_VM_KERNEL HCUBE_DMESG_FROM
	fi
	echo "# === soak on $v: at least $secs s, $msgs messages ==="
	# a round may run over by its length; nl_fuzz's messages may take longer
	HCUBE_KO=$ko HCUBE_SOAK_SECONDS=$secs HCUBE_SOAK_MESSAGES=$msgs KVER=$v \
		scripts/vm/run-vm.sh --cpus "${topo%x*}" --nodes "${topo#*x}" --mem 2048 \
		--timeout "$((secs * 3 + 3600))" --append "oops=panic" "${envs[@]}" \
		-- selftests/soak/soak-in-vm.sh >"$out/$k.txt" 2>"$out/$k.err"
	r=$?
	grep -e '^not ok' -e '^# soak' -e '^# [0-9]* of' "$out/$k.txt"
	tail -3 "$out/$k.err"
	if [ $r != 0 ]; then
		echo "# FAILED: soak on $v (status $r; $out/$k.txt)"
		rc=1
	fi
done
exit $rc
