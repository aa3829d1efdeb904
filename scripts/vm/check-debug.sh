#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM suite on a debug kernel (make check-debug-std, check-debug-rt):
# builds the kernel once (scripts/debug-kernel.sh, cached), hcube.ko for it,
# then runs scripts/vm/run-vm-tests.sh on it with the debug run's settings.
# Usage: check-debug.sh [--rt] OUTDIR [CPUSxNODES ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
rt=()
if [ "${1:-}" = --rt ]; then
	rt=(--rt)
	shift
fi
out=${1:?usage: $0 [--rt] OUTDIR [CPUSxNODES ...]}
shift
v=$(scripts/debug-kernel.sh "${rt[@]}")
ko=$(scripts/build-module-for.sh "$v" "$out")
KVER=$v HCUBE_KO=$ko HCUBE_VM_TIMEOUT=${HCUBE_VM_TIMEOUT:-3600} \
HCUBE_VM_KERNEL=$(scripts/debug-kernel.sh "${rt[@]}" --image) \
HCUBE_DMESG_FROM='hcube-selftests: start' \
HCUBE_STRESS_SECONDS=${HCUBE_STRESS_SECONDS:-30} \
HCUBE_FUZZ_SECONDS=${HCUBE_FUZZ_SECONDS:-20} \
	exec scripts/vm/run-vm-tests.sh "$@"
