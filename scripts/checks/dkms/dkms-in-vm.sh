#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the test VM, for check-dkms.sh: the host has just installed hcube
# with DKMS as HCUBE_DKMS_KO. `modprobe hcube` must load that file (the same
# GNU build id, /sys/module/hcube present) and hcubectl must see the cube.
# Usage: dkms-in-vm.sh [BUILD_DIR]
set -u
B=${1:-build}
ko=${HCUBE_DKMS_KO:?}
rc=0
# shellcheck source=selftests/hcube/hcube_module.sh
. "$(dirname "$0")/../../../selftests/hcube/hcube_module.sh"

fail() { echo "FAIL: $*"; rc=1; }

echo "kernel $(uname -r), $(nproc) CPUs"
[ -e /sys/module/hcube ] && fail "hcube is loaded before modprobe"
path=$(modinfo -n hcube 2>&1)
[ "$path" = "$ko" ] || fail "modinfo -n hcube: '$path', expected $ko"
modprobe hcube || { echo "FAIL: modprobe hcube"; exit 1; }
[ -d /sys/module/hcube ] || fail "no /sys/module/hcube after modprobe"
# the loaded module is that file: the same GNU build id
if hcube_module_is "$ko"; then
	echo "loaded: $ko (build id $hcube_module_id)"
else
	fail "build id: the loaded module's is '$hcube_module_id', not that of $ko"
fi
dmesg | grep -E 'hcube: .* groups on a' | tail -1
if out=$("$B/hcubectl" show 2>&1); then
	printf '%s\n' "$out" | head -6
else
	fail "hcubectl show: $out"
fi
rmmod hcube || fail "rmmod hcube"
[ $rc -eq 0 ] && echo "dkms module: ok"
exit $rc
