#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel version the project builds and tests against: the newest
# version that has both Debian's headers (/lib/modules/V/build) and its image
# (/boot/vmlinuz-V). Never `uname -r`: the host may run another kernel.
# $1 selects a flavour suffix (default "amd64"; "rt-amd64" for PREEMPT_RT).
flavour=${1:-amd64}
for d in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
	case $d in
	*-"$flavour") ;;
	*) continue ;;
	esac
	[ "$flavour" = amd64 ] && case $d in *-rt-amd64) continue ;; esac
	if [ -e "/lib/modules/$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$d" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kver.sh: no kernel with both headers and image for flavour $flavour (run 'make deps')" >&2
exit 1
