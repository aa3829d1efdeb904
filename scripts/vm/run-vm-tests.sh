#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel selftests in qemu (TCG), on Debian's 6.1 kernel, for several
# topologies: in each VM the tree `make selftests` installed in
# build/kselftest runs through the kernel's run_kselftest.sh
# (scripts/vm/kselftest-in-vm.sh). Each VM's KTAP goes to stdout; a failed
# test, a KTAP summary short of a test, a kernel splat in dmesg or a timeout
# fails the run (run-vm.sh checks dmesg). HCUBE_TESTS="hcube:nl_test ..."
# runs only those tests.
# Usage: run-vm-tests.sh [CPUSxNODES ...]   (default: 8x2 6x1 16x4), then
# a VM with isolated CPUs for the isolation test.
set -u
cd "$(dirname "$0")/../.."
topos=("$@")
[ ${#topos[@]} -eq 0 ] && topos=(8x2 6x1 16x4)
rc=0
for t in "${topos[@]}"; do
	cpus=${t%x*}
	nodes=${t#*x}
	echo "# === VM: $cpus CPUs, $nodes NUMA node(s) ==="
	if ! scripts/vm/run-vm.sh --cpus "$cpus" --nodes "$nodes" --mem 1024 \
		--timeout "${HCUBE_VM_TIMEOUT:-900}" \
		--append "oops=panic" --env HCUBE_TESTS --env HCUBE_KO \
		--env HCUBE_FUZZ_SECONDS --env HCUBE_STRESS_SECONDS \
		-- scripts/vm/kselftest-in-vm.sh; then
		echo "# FAILED: $cpus CPUs, $nodes node(s)"
		rc=1
	fi
done
# One more VM, booted with isolated CPUs: only the isolation test, which
# loads and unloads the module itself (HCUBE_VM_ISOLATION=0 skips it).
if [ "${HCUBE_VM_ISOLATION:-1}" = 1 ]; then
	echo "# === VM: 8 CPUs, 2 NUMA nodes, CPUs 6-7 isolated (isolcpus=, nohz_full=) ==="
	if ! scripts/vm/run-vm.sh --cpus 8 --nodes 2 --mem 1024 \
		--timeout "${HCUBE_VM_TIMEOUT:-900}" \
		--append "oops=panic isolcpus=6,7 nohz_full=6,7" --env HCUBE_KO \
		-- scripts/vm/kselftest-in-vm.sh -t hcube:isolation_test; then
		echo "# FAILED: isolated CPUs"
		rc=1
	fi
fi
exit $rc
