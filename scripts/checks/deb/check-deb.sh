#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages, installed and purged in the test VM (make check-deb,
# after make deb): boots the VM with run-vm.sh --writable-root (an overlay
# over its root, so dpkg can write; everything is gone at poweroff and the
# host is never changed) and runs deb-in-vm.sh there: dpkg -i of
# hcube-dkms and hcube-tools, which makes DKMS build the module for the
# VM's kernel from the host's headers; modprobe hcube, hcubectl show,
# hcubectl -j stats, modprobe -r; dpkg --purge; then nothing may remain.
# The runner fails the run on any kernel splat. DKMS compiles the module
# under TCG: allow several minutes (HCUBE_DEB_TIMEOUT, default 2400 s). It
# builds for the VM's kernel only, unless HCUBE_DEB_ALL_KERNELS=1 (then
# also for the host's other kernels, e.g. PREEMPT_RT: twice the time).
#
# Usage: check-deb.sh [DEB_DIR]   (default build/deb, from make deb).
# Prints TAP.
set -u -o pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=${1:-build/deb}
kver=${KVER:-$(scripts/kver.sh)}
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
dkms_deb=$D/hcube-dkms_${ver}_all.deb
tools_deb=$D/hcube-tools_${ver}_${arch}.deb
SECONDS=0
# shellcheck source=selftests/lib/tap.sh
. selftests/lib/tap.sh
bail() { tap_bail "$@"; }

echo "TAP version 13"
[ -n "$kver" ] || bail "no kernel headers: run 'make deps'"
for f in "$dkms_deb" "$tools_deb"; do
	[ -f "$f" ] || bail "$f missing: run 'make deb'"
done
# the VM starts from the host's root: it must hold no hcube of its own
for p in hcube-dkms hcube-tools; do
	if dpkg-query -W "$p" >/dev/null 2>&1; then
		bail "$p is known to dpkg on this host: the VM would start with it"
	fi
done
for f in /usr/src/hcube-* /var/lib/dkms/hcube /lib/modules/*/updates/dkms/hcube.ko*; do
	[ -e "$f" ] && bail "$f exists on this host (check-dkms running?): the VM would start with it"
done
echo "# kernel $kver; $dkms_deb, $tools_deb"

# numbered TAP from deb-in-vm.sh's "ok"/"not ok" lines, as they come
vm_out=$(mktemp)
trap 'rm -f "$vm_out"' EXIT
scripts/vm/run-vm.sh --writable-root --cpus 2 --mem 1536 --kver "$kver" \
	--timeout "${HCUBE_DEB_TIMEOUT:-2400}" --env HCUBE_DEB_ALL_KERNELS -- \
	scripts/checks/deb/deb-in-vm.sh "$dkms_deb" "$tools_deb" 2>"$vm_out" |
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) not_ok "${line#not ok }" ;;
	*) echo "# $line" ;;
	esac
	# the counters live in this subshell: hand them over at its end
	echo "$n $fails" >"$vm_out.count"
done
rc=${PIPESTATUS[0]}
if [ -s "$vm_out.count" ]; then
	read -r n fails <"$vm_out.count"
	rm -f "$vm_out.count"
fi
sed 's/^/# /' "$vm_out"
if [ "$rc" -eq 0 ]; then
	ok "the VM ran deb-in-vm.sh to its end, and its kernel log has no splat ($SECONDS s)"
else
	not_ok "the VM: run-vm.sh exit status $rc (see its FAIL line above)"
fi

echo "1..$n"
echo "# check-deb: $((n - fails)) passed, $fails failed, ${SECONDS} s"
[ "$fails" -eq 0 ]
