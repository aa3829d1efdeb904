#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the hcube test VM initramfs (installed by mkinitramfs.sh, runs
# under busybox sh as PID 1).
#
# 1. loads the virtio/9p modules listed in /modules.list,
# 2. mounts the host's root filesystem (9p tag "hostroot", read-only) on
#    /newroot and the host's per-run output directory (9p tag "hostout",
#    read-write) on /newroot/tmp/out,
# 3. gives the new root fresh proc, sysfs, devtmpfs, devpts, debugfs, tracefs,
#    cgroup2, a tmpfs /run and writable overlays (host files + tmpfs on top) on
#    /tmp, /var/tmp and /root,
# 4. runs "bash /tmp/out/cmd.sh" inside "chroot /newroot" with stdout/stderr
#    going to /tmp/out/stdout and /tmp/out/stderr,
# 5. writes the exit status to /tmp/out/status and dmesg to /tmp/out/dmesg,
#    then powers the VM off.
#
# Parameters come from the kernel command line:
#   hcubevm.deadline=EPOCH  host wall-clock time at which the host kills the VM;
#                           the command is abandoned (and dmesg saved) shortly
#                           before it.
#   hcubevm.rootcache=MODE  9p cache mode of the host root (default: loose).
#   hcubevm.rwroot=1        make the whole root writable: an overlay of the
#                           host's root (lower, read-only 9p) and a tmpfs
#                           (upper), so that e.g. dpkg -i works; every write
#                           is gone at poweroff and the host sees none. The
#                           upper layer is visible read-only at
#                           /run/hcube-vm/root-upper.
#   hcubevm.debug=1         trace this script on the console.
#
# Anything that goes wrong before the command starts is reported on the
# console (the host's console.log) and the VM is powered off without a status
# file, which run-vm.sh reports as "command did not run".

PATH=/bin:/sbin
export PATH
umask 022

OUT=/newroot/tmp/out		# the output share, as seen from here
NEWROOT=/newroot

log() {
	echo "hcube-vm-init: $*"
}

poweroff_now() {
	sync
	# Unmount the output share so everything written reaches the host.
	umount "$OUT" 2>/dev/null
	poweroff -f
	# Should not be reached; make sure we never return to the kernel.
	echo o >/proc/sysrq-trigger
	while :; do sleep 1; done
}

die() {
	log "FATAL: $*"
	if grep -q " $OUT 9p " /proc/mounts 2>/dev/null; then
		echo "$*" >"$OUT/init-error" 2>/dev/null
		dmesg >"$OUT/dmesg" 2>/dev/null
	fi
	poweroff_now
}

mount -t proc -o nosuid,nodev,noexec proc /proc || die "cannot mount /proc"
mount -t sysfs -o nosuid,nodev,noexec sysfs /sys || die "cannot mount /sys"
mount -t devtmpfs -o mode=0755,nosuid devtmpfs /dev || die "cannot mount /dev"
# The kernel may not have found /dev/console in the archive; reopen it now.
exec </dev/console >/dev/console 2>&1

deadline=
rootcache=loose
rwroot=0
# shellcheck disable=SC2013  # the command line is split into words on purpose
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	hcubevm.deadline=*) deadline=${arg#*=} ;;
	hcubevm.rootcache=*) rootcache=${arg#*=} ;;
	hcubevm.rwroot=1) rwroot=1 ;;
	hcubevm.debug=1) PS4='+[$(cut -d" " -f1 /proc/uptime)] '; set -x ;;
	esac
done

# --- modules needed to reach the host -------------------------------------
while read -r ko; do
	[ -n "$ko" ] || continue
	out=$(insmod "/lib/modules/$ko" 2>&1) && continue
	# Already loaded (or built in) is fine.
	case "$out" in *"File exists"*) continue ;; esac
	die "insmod $ko failed: $out"
done </modules.list

# --- the host's root, read-only -------------------------------------------
P9="trans=virtio,version=9p2000.L,msize=262144"
mkdir -p "$NEWROOT" /ovl
# Upper and work directories of the overlays below, in guest RAM.
mount -t tmpfs -o mode=0755 tmpfs /ovl || die "mount /ovl"
if [ "$rwroot" = 1 ]; then
	# The host's root as the lower layer of an overlay on /newroot: writes
	# anywhere land in /ovl/root/upper.
	mkdir -p /hostroot /ovl/root/upper /ovl/root/work
	mount -t 9p -o "ro,$P9,cache=$rootcache" hostroot /hostroot ||
		die "cannot mount the host root (9p tag hostroot)"
	chmod "$(stat -c %a /hostroot)" /ovl/root/upper
	mount -t overlay -o "lowerdir=/hostroot,upperdir=/ovl/root/upper,workdir=/ovl/root/work" \
		overlay "$NEWROOT" || die "cannot mount the writable overlay on the host root"
else
	mount -t 9p -o "ro,$P9,cache=$rootcache" hostroot "$NEWROOT" ||
		die "cannot mount the host root (9p tag hostroot)"
fi

mount -t proc -o nosuid,nodev,noexec proc "$NEWROOT/proc" || die "mount proc"
mount -t sysfs -o nosuid,nodev,noexec sysfs "$NEWROOT/sys" || die "mount sysfs"
mount -t devtmpfs -o mode=0755,nosuid devtmpfs "$NEWROOT/dev" || die "mount devtmpfs"
mkdir -p "$NEWROOT/dev/pts" "$NEWROOT/dev/shm"
# What udev would add: bash's <(...) and tools that use it (dkms) need /dev/fd.
ln -sfn /proc/self/fd "$NEWROOT/dev/fd"
ln -sfn /proc/self/fd/0 "$NEWROOT/dev/stdin"
ln -sfn /proc/self/fd/1 "$NEWROOT/dev/stdout"
ln -sfn /proc/self/fd/2 "$NEWROOT/dev/stderr"
mount -t devpts -o nosuid,noexec,gid=5,mode=620,ptmxmode=666 devpts "$NEWROOT/dev/pts" ||
	die "mount devpts"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs "$NEWROOT/dev/shm" || die "mount /dev/shm"
mount -t tmpfs -o nosuid,nodev,mode=0755 tmpfs "$NEWROOT/run" || die "mount /run"
if [ "$rwroot" = 1 ]; then
	# What the command changed on the root, read-only, for tests that
	# check what an installation leaves behind.
	up=$NEWROOT/run/hcube-vm/root-upper
	mkdir -p "$up"
	mount -o bind /ovl/root/upper "$up" ||
		die "cannot bind the root overlay's upper layer on /run/hcube-vm/root-upper"
	mount -o remount,bind,ro "$up" || die "cannot make $up read-only"
fi
# debugfs first: on 6.1 it auto-mounts tracefs at /sys/kernel/debug/tracing.
mount -t debugfs -o nosuid,nodev,noexec debugfs "$NEWROOT/sys/kernel/debug" ||
	die "mount debugfs"
mount -t tracefs -o nosuid,nodev,noexec tracefs "$NEWROOT/sys/kernel/tracing" ||
	die "mount tracefs"
mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$NEWROOT/sys/fs/cgroup" ||
	die "mount cgroup2"
if [ -d "$NEWROOT/sys/fs/bpf" ]; then
	mount -t bpf -o nosuid,nodev,noexec bpf "$NEWROOT/sys/fs/bpf" 2>/dev/null
fi

# Writable directories: the host's files stay visible (read-only, through
# 9p) and writes land in a guest-private tmpfs, via overlayfs.  Falls back to
# an empty tmpfs if overlayfs cannot be used.  With hcubevm.rwroot=1 the
# root overlay already makes them writable.
n=0
dirs="/tmp /var/tmp /root"
[ "$rwroot" = 1 ] && dirs=
for dir in $dirs; do
	n=$((n + 1))
	[ -d "$NEWROOT$dir" ] || continue
	mode=$(stat -c %a "$NEWROOT$dir" 2>/dev/null) || mode=1777
	mkdir -p "/ovl/$n/upper" "/ovl/$n/work"
	chmod "$mode" "/ovl/$n/upper"
	if ! mount -t overlay -o "lowerdir=$NEWROOT$dir,upperdir=/ovl/$n/upper,workdir=/ovl/$n/work" \
		overlay "$NEWROOT$dir"; then
		log "warning: overlayfs on $dir failed, using an empty tmpfs"
		mount -t tmpfs -o "nosuid,nodev,mode=$mode" tmpfs "$NEWROOT$dir" ||
			die "mount tmpfs on $dir"
	fi
done

mkdir -p "$OUT" || die "mkdir $OUT"
mount -t 9p -o "rw,$P9,cache=none" hostout "$OUT" ||
	die "cannot mount the output share (9p tag hostout)"
[ -f "$OUT/cmd.sh" ] || die "no cmd.sh in the output share"

# --- run the command --------------------------------------------------------
# Leave some time before the host's deadline to save dmesg and power off.
now=$(date +%s)
budget=
if [ -n "$deadline" ]; then
	budget=$((deadline - now - 15))
	[ "$budget" -ge 1 ] || budget=1
fi

hostname hcube-vm 2>/dev/null
echo 1 >/proc/sys/kernel/sysrq 2>/dev/null
echo "$now $(cut -d" " -f1 /proc/uptime)" >"$OUT/started"

# setsid: the command gets its own session, not PID 1's console. In a mount
# namespace of its own the host's root is moved onto /, as switch_root does,
# so that the command is not chrooted as far as the kernel can tell (a
# chrooted caller gets no user namespace); PID 1 keeps the initramfs.
cd "$NEWROOT" || die "cd $NEWROOT"
setsid unshare -m /bin/sh -c 'mount -o move . / && exec chroot . "$@"' root \
	/usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 \
	HCUBE_VM=1 HCUBE_VM_OUT=/tmp/out \
	/bin/bash /tmp/out/cmd.sh \
	</dev/null >"$OUT/stdout" 2>"$OUT/stderr" &
cmdpid=$!
cd /

if [ -n "$budget" ]; then
	(
		sleep "$budget"
		[ -e "$OUT/status" ] && exit 0
		log "command still running after ${budget}s, giving up"
		echo "$budget" >"$OUT/guest-timeout"
		# Show what is stuck in the kernel (tasks in D state).
		echo w >/proc/sysrq-trigger
		sleep 1
		dmesg >"$OUT/dmesg"
		poweroff_now
	) &
fi

wait "$cmdpid"
status=$?
echo "$status" >"$OUT/status"
dmesg >"$OUT/dmesg"
poweroff_now
