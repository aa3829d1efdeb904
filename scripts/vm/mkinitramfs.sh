#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the initramfs of the hcube test VM: busybox-static, the modules needed
# to mount the host's root filesystem over virtio-9p (plus overlayfs), and
# vm-init.sh as /init.  The result is cached and only rebuilt when an input
# changes (this script, vm-init.sh, busybox, the module files, the kernel
# version).  Prints the path of the image on stdout.
#
# Usage: mkinitramfs.sh [-k KVER] [-o OUTPUT] [-b BASEDIR] [-f] [-q] [-K]
#   -k KVER    kernel version (default: $KVER, else the only kernel under
#              /lib/modules; if there are several, the newest of the plain
#              "-amd64" flavour, e.g. 6.1.0-56-amd64 rather than
#              6.1.0-56-rt-amd64)
#   -b BASEDIR take the modules from BASEDIR/lib/modules/KVER (default: /;
#              like modprobe -d, e.g. for a kernel that is not installed)
#   -o OUTPUT  image to write (default:
#              $HCUBE_VM_CACHE/initramfs-KVER.cpio.gz, where HCUBE_VM_CACHE
#              defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/hcube-vm)
#   -f         rebuild even if the cached image is up to date
#   -q         no progress messages
#   -K         only print the kernel version that would be used, and exit
#
# Needs: busybox-static, cpio, kmod, gzip (xz/zstd only for compressed modules).

set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SELF")
INIT_SRC="$HERE/vm-init.sh"

# Modules (with their dependencies) the init needs before it can reach the
# host root.  Order matters only between these roots; modprobe orders deps.
ROOT_MODULES=(virtio_pci 9pnet_virtio 9p overlay)
# Loaded too when the kernel has them: mce-inject, for the tests that
# inject machine checks (selftests/hcube/mce_test.c).
OPTIONAL_MODULES=(mce-inject)

kver=${KVER:-}
output=
basedir=
print_kver=0
force=0
quiet=0

usage() {
	sed -n '/^# Usage:/,/^# Needs:/s/^# \{0,1\}//p' "$SELF" >&2
	exit 2
}

msg() {
	[ "$quiet" = 1 ] || echo "mkinitramfs: $*" >&2
}

die() {
	echo "mkinitramfs: error: $*" >&2
	exit 1
}

while getopts "k:o:b:fqKh" opt; do
	case "$opt" in
	k) kver=$OPTARG ;;
	b) basedir=$(readlink -f "$OPTARG") ;;
	o) output=$OPTARG ;;
	f) force=1 ;;
	q) quiet=1 ;;
	K) print_kver=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage

# The default kernel: never `uname -r` (the host may run another kernel).
if [ -z "$kver" ]; then
	mapfile -t kvers < <(find "$basedir/lib/modules" -mindepth 1 -maxdepth 1 -type d \
		-exec test -e '{}/modules.dep' ';' -printf '%f\n' 2>/dev/null | sort -V)
	case ${#kvers[@]} in
	0) die "no kernel modules under $basedir/lib/modules (install linux-image-amd64)" ;;
	1) kver=${kvers[0]} ;;
	*)
		for v in "${kvers[@]}"; do
			case "$v" in
			*-rt-amd64 | *-cloud-amd64) ;;
			*-amd64) kver=$v ;;	# sorted: the newest wins
			esac
		done
		[ -n "$kver" ] ||
			die "several kernels under $basedir/lib/modules (${kvers[*]}): set KVER or use -k"
		;;
	esac
fi
if [ "$print_kver" = 1 ]; then
	echo "$kver"
	exit 0
fi
moddir=$basedir/lib/modules/$kver
[ -e "$moddir/modules.dep" ] || die "$moddir/modules.dep not found"

if [ -z "$output" ]; then
	cache=${HCUBE_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/hcube-vm}
	if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
		cache=${TMPDIR:-/tmp}/hcube-vm-cache-$(id -u)
	fi
	output=$cache/initramfs-$kver.cpio.gz
fi
output=$(readlink -m "$output")
mkdir -p "$(dirname "$output")"

for tool in busybox cpio gzip modprobe sha256sum flock; do
	command -v "$tool" >/dev/null || die "'$tool' not found (install busybox-static cpio gzip kmod coreutils util-linux)"
done
busybox=$(command -v busybox)
busybox=$(readlink -f "$busybox")
# busybox-static installs /bin/busybox; the dynamic "busybox" package would
# not run in the initramfs, which has no libc.
if LC_ALL=C ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked (install busybox-static)"
fi

# --- module list (in load order) ------------------------------------------
declare -a mods=()
declare -A seen=()
# add_deps: the modules of modprobe's --show-depends output on stdin, once each
add_deps() {
	local kind path
	while read -r kind path _; do
		# "builtin NAME" lines need nothing; "insmod PATH [params]" do.
		[ "$kind" = insmod ] || continue
		[ -n "${seen[$path]:-}" ] && continue
		seen[$path]=1
		mods+=("$path")
	done
}
for m in "${ROOT_MODULES[@]}"; do
	deps=$(modprobe ${basedir:+-d "$basedir"} -S "$kver" --show-depends "$m" 2>&1) ||
		die "modprobe -S $kver --show-depends $m: $deps"
	add_deps <<<"$deps"
done
for m in "${OPTIONAL_MODULES[@]}"; do
	deps=$(modprobe ${basedir:+-d "$basedir"} -S "$kver" --show-depends "$m" 2>/dev/null) || continue
	add_deps <<<"$deps"
done

# --- cache check -------------------------------------------------------------
stamp() {
	{
		echo "kver $kver"
		sha256sum "$SELF" "$INIT_SRC" "$busybox"
		for f in "${mods[@]}"; do sha256sum "$f"; done
	} | sha256sum | cut -d' ' -f1
}

exec 9>"$output.lock"
flock 9
want=$(stamp)
if [ "$force" = 0 ] && [ -s "$output" ] && [ -f "$output.stamp" ] &&
	[ "$(cat "$output.stamp")" = "$want" ]; then
	msg "up to date: $output"
	echo "$output"
	exit 0
fi

# --- build -------------------------------------------------------------------
msg "building $output for $kver"
stage=$(mktemp -d "${TMPDIR:-/tmp}/hcube-initramfs.XXXXXX")
trap 'rm -rf "$stage" "$output.tmp.$$"' EXIT

mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,run,newroot,ovl,lib/modules}
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -sf busybox "$stage/bin/$applet"
done
install -m 0755 "$INIT_SRC" "$stage/init"
# The kernel opens /dev/console for init before devtmpfs is mounted.  If mknod
# is not allowed here, /init reopens the console after mounting devtmpfs.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || msg "note: cannot mknod /dev/console"
mknod -m 666 "$stage/dev/null" c 1 3 2>/dev/null || true

: >"$stage/modules.list"
for path in "${mods[@]}"; do
	name=$(basename "$path")
	case "$name" in
	*.ko) cp "$path" "$stage/lib/modules/$name" ;;
	*.ko.xz) xz -dc "$path" >"$stage/lib/modules/${name%.xz}" ;;
	*.ko.zst) zstd -qdc "$path" >"$stage/lib/modules/${name%.zst}" ;;
	*.ko.gz) gzip -dc "$path" >"$stage/lib/modules/${name%.gz}" ;;
	*) die "unknown module file type: $path" ;;
	esac
	name=${name%.xz}
	name=${name%.zst}
	name=${name%.gz}
	echo "$name" >>"$stage/modules.list"
done
msg "modules: $(tr '\n' ' ' <"$stage/modules.list")"

# Sanity checks: everything the init needs is in the image.
[ -x "$stage/init" ] || die "no /init"
for applet in sh mount insmod chroot setsid unshare poweroff dmesg stat sleep date grep umount; do
	[ -e "$stage/bin/$applet" ] || die "busybox lacks '$applet'"
done
for m in "${ROOT_MODULES[@]}"; do
	grep -q "^${m//_/[-_]}\.ko$" "$stage/modules.list" ||
		modprobe ${basedir:+-d "$basedir"} -S "$kver" --show-depends "$m" | grep -q "^builtin" ||
		die "module $m missing from the image"
done

(
	cd "$stage"
	find . -mindepth 1 -printf '%P\0' | LC_ALL=C sort -z |
		cpio --null --create --format=newc --owner=0:0 --reproducible --quiet
) | gzip -9n >"$output.tmp.$$"
mv -f "$output.tmp.$$" "$output"
echo "$want" >"$output.stamp"
msg "wrote $output ($(du -k "$output" | cut -f1) KiB)"
echo "$output"
