#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-slurm: the SPANK plugin with a real Slurm (munged, slurmctld,
# slurmd) in a VM of 8 CPUs and 2 NUMA nodes, its root made writable for
# Slurm's configuration, spool and user (slurm-in-vm.sh, TAP). The module
# (HCUBE_KO, default ./hcube.ko), hcubectl, hcube.so and spank_job come
# from the build tree BUILD_DIR; with HCUBE_SLURM_DEB=build/deb/hcube-slurm_...deb
# (after make deb) the plugin comes from that package instead.
# Usage: check-slurm.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build}
exec scripts/vm/run-vm.sh --cpus 8 --nodes 2 --mem 1024 --writable-root \
	--timeout "${HCUBE_SLURM_TIMEOUT:-1500}" --append "oops=panic" \
	--env HCUBE_KO --env HCUBE_SLURM_REPS --env HCUBE_SLURM_DEB -- \
	selftests/slurm/slurm-in-vm.sh "$B"
