#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) a 6.1 debug kernel from Debian's linux-source-6.1: KASAN,
# lockdep (PROVE_LOCKING, so PROVE_RCU), DEBUG_ATOMIC_SLEEP, kmemleak,
# DEBUG_LIST, mce-inject, on x86_64_defconfig + kvm_guest.config.
#
# With --rt the same debug options on a PREEMPT_RT kernel. Debian builds its
# 6.1 RT kernel with patches that only its source package carries (no binary
# package ships them), so this one is built from Debian's linux-source-6.12
# (bookworm-backports' kernel), where PREEMPT_RT is part of the kernel: what
# it is for, a probe or a spinlock section that allocates or sleeps, is the
# same on both.
#
# It is cached outside the repository (HCUBE_DEBUG_KERNEL_DIR, default
# ~/.cache/hcube/debug-kernel, or ~/.cache/hcube/debug-kernel-rt for --rt)
# and its few modules are installed under /lib/modules/<version> so the test
# VM, which runs on the host's root, finds them. Prints the kernel version,
# or with --image the path of the kernel image.
#
# Usage: debug-kernel.sh [--rt] [--image]
set -euo pipefail
RT=0
IMAGE=0
for a in "$@"; do
	case $a in
	--rt) RT=1 ;;
	--image) IMAGE=1 ;;
	*) echo "usage: $0 [--rt] [--image]" >&2; exit 2 ;;
	esac
done
if [ $RT = 1 ]; then
	DIR=${HCUBE_DEBUG_RT_KERNEL_DIR:-$HOME/.cache/hcube/debug-kernel-rt}
	LOCALVERSION=-hcube-debug-rt
	KSRC=linux-source-6.12
else
	DIR=${HCUBE_DEBUG_KERNEL_DIR:-$HOME/.cache/hcube/debug-kernel}
	LOCALVERSION=-hcube-debug
	KSRC=linux-source-6.1
fi
TAR=/usr/src/$KSRC.tar.xz
SRC=$DIR/$KSRC
# bump CONFIG_VERSION when the configuration below changes
CONFIG_VERSION=4
STAMP=$DIR/.built-v$CONFIG_VERSION

print() {
	if [ $IMAGE = 1 ]; then
		echo "$SRC/arch/x86/boot/bzImage"
	else
		cat "$STAMP"
	fi
}

[ -e "$STAMP" ] && { print; exit 0; }
mkdir -p "$DIR"
if [ ! -e "$SRC/Makefile" ]; then
	echo "debug-kernel: extracting $TAR" >&2
	tar -xJf "$TAR" -C "$DIR"
fi
cd "$SRC"
make -s x86_64_defconfig kvm_guest.config >&2
c=scripts/config
$c --set-str LOCALVERSION "$LOCALVERSION"
$c -d LOCALVERSION_AUTO
for opt in KASAN KASAN_GENERIC KASAN_INLINE PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
	DEBUG_KMEMLEAK DEBUG_LIST DEBUG_PLIST NUMA NUMA_EMU MODULES MODULE_UNLOAD \
	HOTPLUG_CPU CGROUPS CPUSETS SMP DEBUG_FS FTRACE FUNCTION_TRACER \
	NET_9P NET_9P_VIRTIO 9P_FS 9P_FS_POSIX_ACL VIRTIO_PCI OVERLAY_FS \
	DEVTMPFS DEVTMPFS_MOUNT TMPFS BLK_DEV_INITRD RD_GZIP \
	GENERIC_NETLINK DEBUG_OBJECTS DEBUG_OBJECTS_FREE USER_NS PID_NS \
	IO_URING; do
	$c -e "$opt"
done
if [ $RT = 1 ]; then
	# PREEMPT_RT needs EXPERT in 6.12
	$c -e EXPERT -d PREEMPT_NONE -d PREEMPT_VOLUNTARY -d PREEMPT -e PREEMPT_RT
fi
# mce-inject, for mce_test's storms on the debug kernel too
$c -e X86_MCE -m X86_MCE_INJECT
$c -d DEBUG_KMEMLEAK_DEFAULT_OFF
$c --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536
for opt in DEBUG_INFO DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_BTF \
	DRM SOUND WLAN USB_SUPPORT WIRELESS MODULE_SIG; do
	$c -d "$opt"
done
make -s olddefconfig >&2
if [ $RT = 1 ] && ! grep -q '^CONFIG_PREEMPT_RT=y' .config; then
	echo "debug-kernel: PREEMPT_RT did not survive olddefconfig" >&2
	exit 1
fi
for opt in KASAN PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP; do
	grep -q "^CONFIG_$opt=y" .config ||
		{ echo "debug-kernel: CONFIG_$opt is off after olddefconfig" >&2; exit 1; }
done
echo "debug-kernel: building in $SRC (about 15 minutes on 2 cores)" >&2
make -s -j"$(nproc)" bzImage modules >&2
make -s modules_prepare >&2
ver=$(make -s kernelrelease)
make -s INSTALL_MOD_STRIP=1 modules_install >&2
# the build tree stays where it is: /lib/modules/VER/build points to it
echo "$ver" >"$STAMP"
print
