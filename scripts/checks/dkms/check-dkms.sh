#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DKMS packaging, end to end (make check-dkms): as root on the host,
# against Debian's installed headers (KVER, from scripts/kver.sh), run
#
#   dkms add build/dkms/hcube-VERSION
#   dkms build hcube/VERSION -k KVER
#   dkms install hcube/VERSION -k KVER
#
# check that the module is in /lib/modules/KVER/updates/dkms and that
# modinfo finds it there, then boot the test VM (which sees the host's
# /lib/modules), `modprobe hcube` and check in dkms-in-vm.sh that the loaded
# module is that file and answers hcubectl. At exit, even on failure,
# `dkms remove hcube/VERSION --all` and /usr/src/hcube-VERSION go.
#
# While the module is installed, `modprobe hcube` and the genetlink family
# alias load it on that kernel; the window is the length of one VM boot.
# It refuses to run if hcube is already in the DKMS tree or in /usr/src, so
# an administrator's installation is never touched; what a killed run left
# (marked with a file of its own) is removed first.
#
# Usage: check-dkms.sh [BUILD_DIR]   (needs BUILD_DIR/dkms/hcube-VERSION
#        from `make dkms-src` and BUILD_DIR/hcubectl). Prints TAP.
set -u
cd "$(dirname "$0")/../../.." || exit 1
B=${1:-build}
kver=${KVER:-$(scripts/kver.sh)}
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
stage=$B/dkms/hcube-$ver
dest=/lib/modules/$kver/updates/dkms/hcube.ko
added=0
SECONDS=0
# shellcheck source=selftests/lib/tap.sh
. selftests/lib/tap.sh
bail() { tap_bail "$@"; }

# run NAME CMD...: one step; its output is shown as TAP comments on failure
run() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$name ($SECONDS s)"
	else
		not_ok "$name: exit status $rc"
		printf '%s\n' "$out" | tail -30 | sed 's/^/# /'
	fi
	return $rc
}

tmp=
cleanup() {
	[ -n "$tmp" ] && rm -rf "$tmp"
	[ $added -eq 1 ] || return 0
	dkms remove "hcube/$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/hcube-$ver"
	added=0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "TAP version 13"
[ "$(id -u)" -eq 0 ] || bail "must run as root (dkms writes /usr/src, /var/lib/dkms, /lib/modules)"
command -v dkms >/dev/null || bail "dkms is not installed: run 'make deps'"
[ -n "$kver" ] || bail "no kernel headers: run 'make deps'"
[ -n "$ver" ] || bail "no PACKAGE_VERSION in dkms.conf"
[ -f "$stage/dkms.conf" ] || bail "$stage/dkms.conf missing: run 'make dkms-src'"
[ -x "$B/hcubectl" ] || bail "$B/hcubectl missing: run 'make tools'"
# a copy of the staged tree with a marker file: a run that was killed left
# /usr/src/hcube-VERSION with it, which the next run may clean up
marker=CHECK-DKMS-LEFTOVER
if [ -e "/usr/src/hcube-$ver/$marker" ]; then
	echo "# removing what an interrupted check-dkms left"
	dkms remove "hcube/$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/hcube-$ver"
fi
if [ -n "$(dkms status hcube 2>/dev/null)" ] || [ -e "/usr/src/hcube-$ver" ]; then
	bail "hcube is already known to dkms or in /usr/src/hcube-$ver: not touching it"
fi
tmp=$(mktemp -d)
cp -r "$stage" "$tmp/" || bail "cannot copy $stage"
echo "made by scripts/checks/dkms/check-dkms.sh, removed at its end" >"$tmp/hcube-$ver/$marker"
echo "# kernel $kver, hcube $ver"

added=1
run "dkms add $stage" dkms add "$tmp/hcube-$ver" || exit 1
run "dkms build hcube/$ver -k $kver" dkms build "hcube/$ver" -k "$kver" || exit 1
run "dkms install hcube/$ver -k $kver" dkms install "hcube/$ver" -k "$kver" || exit 1

if [ -f "$dest" ]; then
	ok "installed as $dest"
else
	not_ok "installed as $dest: no such file"
	find "/lib/modules/$kver" -name 'hcube.ko*' | sed 's/^/# found: /'
fi
found=$(modinfo -k "$kver" -n hcube 2>&1)
if [ "$found" = "$dest" ]; then
	ok "modinfo -k $kver finds $found"
else
	not_ok "modinfo -k $kver -n hcube: '$found', expected $dest"
fi
status=$(dkms status "hcube/$ver" -k "$kver" 2>&1)
case $status in
*installed*) ok "dkms status: $status" ;;
*) not_ok "dkms status: '$status'" ;;
esac

# the VM boots the same kernel and sees this /lib/modules
out=$(scripts/vm/run-vm.sh --cpus 4 --kver "$kver" --timeout 300 \
	--env HCUBE_DKMS_KO="$dest" -- scripts/checks/dkms/dkms-in-vm.sh "$B" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then
	ok "in the VM: modprobe hcube loads the DKMS module and it works ($SECONDS s)"
else
	not_ok "in the VM: exit status $rc"
fi

run "dkms remove hcube/$ver --all" dkms remove "hcube/$ver" --all
rm -rf "/usr/src/hcube-$ver"
added=0
if [ ! -e "$dest" ] && ! modinfo -k "$kver" -n hcube >/dev/null 2>&1 &&
   [ -z "$(dkms status hcube 2>/dev/null)" ]; then
	ok "removed: no hcube.ko for $kver, nothing in dkms status"
else
	not_ok "removed: something is left"
fi

echo "1..$n"
echo "# check-dkms: $((n - fails)) passed, $fails failed, ${SECONDS} s"
[ $fails -eq 0 ]
