#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) a 6.1 debug kernel from Debian's linux-source-6.1: KASAN,
# lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_LIST, mce-inject, on
# x86_64_defconfig + kvm_guest.config. It is cached outside the repository
# (HCUBE_DEBUG_KERNEL_DIR, default ~/.cache/hcube/debug-kernel) and its few
# modules are installed under /lib/modules/<version> so the test VM, which
# runs on the host's root, finds them. Prints the kernel version, or with
# --image the path of the kernel image.
set -euo pipefail
DIR=${HCUBE_DEBUG_KERNEL_DIR:-$HOME/.cache/hcube/debug-kernel}
TAR=${KSRC_TAR:-/usr/src/linux-source-6.1.tar.xz}
SRC=$DIR/linux-source-6.1
# bump CONFIG_VERSION when the configuration below changes
CONFIG_VERSION=3
STAMP=$DIR/.built-v$CONFIG_VERSION

if [ -e "$STAMP" ]; then
	if [ "${1:-}" = --image ]; then
		echo "$SRC/arch/x86/boot/bzImage"
	else
		cat "$STAMP"
	fi
	exit 0
fi
mkdir -p "$DIR"
if [ ! -e "$SRC/Makefile" ]; then
	echo "debug-kernel: extracting $TAR" >&2
	tar -xJf "$TAR" -C "$DIR"
fi
cd "$SRC"
make -s x86_64_defconfig kvm_guest.config >&2
c=scripts/config
$c --set-str LOCALVERSION "-hcube-debug"
$c -d LOCALVERSION_AUTO
for opt in KASAN KASAN_GENERIC KASAN_INLINE PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
	DEBUG_KMEMLEAK DEBUG_LIST DEBUG_PLIST NUMA NUMA_EMU MODULES MODULE_UNLOAD \
	HOTPLUG_CPU CGROUPS CPUSETS SMP DEBUG_FS FTRACE FUNCTION_TRACER \
	NET_9P NET_9P_VIRTIO 9P_FS 9P_FS_POSIX_ACL VIRTIO_PCI OVERLAY_FS \
	DEVTMPFS DEVTMPFS_MOUNT TMPFS BLK_DEV_INITRD RD_GZIP \
	GENERIC_NETLINK DEBUG_OBJECTS DEBUG_OBJECTS_FREE USER_NS PID_NS; do
	$c -e "$opt"
done
# mce-inject, for mce_test's storms on the debug kernel too
$c -e X86_MCE -m X86_MCE_INJECT
$c -d DEBUG_KMEMLEAK_DEFAULT_OFF
$c --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536
for opt in DEBUG_INFO DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_BTF \
	DRM SOUND WLAN USB_SUPPORT WIRELESS MODULE_SIG; do
	$c -d "$opt"
done
make -s olddefconfig >&2
echo "debug-kernel: building in $SRC (about 15 minutes on 2 cores)" >&2
make -s -j"$(nproc)" bzImage modules >&2
make -s modules_prepare >&2
ver=$(make -s kernelrelease)
make -s INSTALL_MOD_STRIP=1 modules_install >&2
# the build tree stays where it is: /lib/modules/VER/build points to it
echo "$ver" >"$STAMP"
if [ "${1:-}" = --image ]; then
	echo "$SRC/arch/x86/boot/bzImage"
else
	echo "$ver"
fi
