#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) a 6.1 debug kernel from Debian's linux-source-6.1: KASAN,
# lockdep (PROVE_LOCKING, so PROVE_RCU), DEBUG_ATOMIC_SLEEP, kmemleak,
# DEBUG_LIST, mce-inject, on x86_64_defconfig + kvm_guest.config.
#
# With --rt the same debug options on Debian's 6.1 PREEMPT_RT kernel: the
# same linux-source-6.1 with the RT patches of Debian's source package
# (debian/patches-rt of linux_<version>.debian.tar.xz, fetched once and
# checked against its SHA-256; a patch the newer source already carries is
# skipped). It must be 6.1: from 6.2 on, set_cpus_allowed_ptr() keeps a
# task within what sched_setaffinity() last gave it (user_cpus_ptr), so a
# kernel of another version tests another module.
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
	DIR=${HCUBE_DEBUG_RT_KERNEL_DIR:-$HOME/.cache/hcube/debug-kernel-rt-6.1}
	LOCALVERSION=-hcube-debug-rt
	KSRC=linux-source-6.1
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
# Debian's RT patches for 6.1, from its source package (the newest that
# the mirror still served in November 2026; snapshot.debian.org keeps it
# by its SHA-1 once the mirror drops it)
RT_DEB=linux_6.1.164-1.debian.tar.xz
RT_SHA=7eceed389147fe334a6df3071e2f6b7963b9ac2ec3b6387fd34a26aae0e8fda7
RT_URLS="https://deb.debian.org/debian-security/pool/updates/main/l/linux/$RT_DEB
https://snapshot.debian.org/file/79cb09784f3aa13ad8c700563f42e2b842f0ca7b"
# in 6.1.192 already, in another form (its lockdep part reverses cleanly,
# its debugobjects hunk does not)
RT_UPSTREAM=0056-debugobjects-locking-Annotate-debug_object_fill_pool.patch
if [ $RT = 1 ] && [ ! -e "$DIR/.rt-patched" ]; then
	if ! echo "$RT_SHA  $DIR/$RT_DEB" | sha256sum -c --quiet 2>/dev/null; then
		for u in $RT_URLS; do
			echo "debug-kernel: fetching $u" >&2
			curl -fsSL -o "$DIR/$RT_DEB" "$u" && break
		done
		echo "$RT_SHA  $DIR/$RT_DEB" | sha256sum -c --quiet
	fi
	tar -xJf "$DIR/$RT_DEB" -C "$DIR" debian/patches-rt
	while read -r p; do
		case $p in '' | \#*) continue ;; esac
		f=$DIR/debian/patches-rt/$p
		if patch -d "$SRC" -p1 -s -F3 --dry-run -f <"$f" >/dev/null 2>&1; then
			patch -d "$SRC" -p1 -s -F3 -f <"$f" >&2
		elif patch -d "$SRC" -p1 -s -R --dry-run -f <"$f" >/dev/null 2>&1 ||
		     [ "$p" = "$RT_UPSTREAM" ]; then
			echo "debug-kernel: $p is in the source already" >&2
		else
			echo "debug-kernel: $p does not apply to $KSRC" >&2
			exit 1
		fi
	done <"$DIR/debian/patches-rt/series"
	touch "$DIR/.rt-patched"
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
	# PREEMPT_RT needs EXPERT
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
