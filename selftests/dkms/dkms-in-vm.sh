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

fail() { echo "FAIL: $*"; rc=1; }

echo "kernel $(uname -r), $(nproc) CPUs"
[ -e /sys/module/hcube ] && fail "hcube is loaded before modprobe"
path=$(modinfo -n hcube 2>&1)
[ "$path" = "$ko" ] || fail "modinfo -n hcube: '$path', expected $ko"
modprobe hcube || { echo "FAIL: modprobe hcube"; exit 1; }
[ -d /sys/module/hcube ] || fail "no /sys/module/hcube after modprobe"
# the loaded module is that file: the same GNU build id
want=$(readelf -n "$ko" | awk '/Build ID:/ { print $3 }')
got=$(od -An -tx1 -v /sys/module/hcube/notes/.note.gnu.build-id 2>/dev/null |
	tr -d ' \n' | cut -c33-)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	echo "loaded: $ko (build id $got)"
else
	fail "build id: loaded '$got', $ko has '$want'"
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
