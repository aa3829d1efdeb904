#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a throw-away qemu (TCG) VM that boots the distribution
# kernel and sees the host's root filesystem read-only over virtio-9p, so
# host tools, the repository and freshly built modules are all usable inside.
#
# Usage: run-vm.sh [options] -- command [args...]
#
#   --cpus N          vCPUs (default 4; $HCUBE_VM_CPUS)
#   --nodes M         NUMA nodes = sockets, N must be a multiple of M
#                     (default 1; $HCUBE_VM_NODES)
#   --mem MB          guest memory, split evenly between nodes
#                     (default 512; $HCUBE_VM_MEM)
#   --timeout SEC     wall-clock limit for the whole VM, boot included
#                     (default 900; $HCUBE_VM_TIMEOUT)
#   --kver VER        kernel version (default: $KVER, else the only kernel
#                     under /lib/modules, or the newest plain "-amd64" one)
#   --kernel PATH     kernel image (default /boot/vmlinuz-VER; $HCUBE_VM_KERNEL)
#   --out DIR         keep the run's files in DIR (default: a fresh temporary
#                     directory, removed at exit)
#   --keep            keep the temporary directory and print its path
#   --cwd DIR         working directory of the command (default: the
#                     repository root)
#   --env NAME[=VAL]  set NAME in the command's environment (without =VAL:
#                     the host's value); repeatable
#   --append ARGS     extra kernel command line arguments ($HCUBE_VM_APPEND)
#   --dmesg-ignore RE ignore kernel reports whose first line matches the
#                     extended regex RE (see check-dmesg.sh); repeatable
#   --no-dmesg-check  do not fail on kernel warnings/oopses in dmesg
#   --writable-root   make the whole root filesystem writable in the VM: an
#                     overlay with a tmpfs on top of the host's root, so that
#                     e.g. dpkg -i works; writes are gone at poweroff
#   --console         also copy the kernel console to stderr, live
#   --tcg-thread T    "single" (default: all vCPUs run round-robin on one
#                     host thread) or "multi" (one host thread per vCPU: real
#                     parallelism, but slower to boot on a 2-core host and it
#                     occasionally froze the guest while ftrace patched code)
#                     ($HCUBE_VM_TCG_THREAD)
#   -h, --help        this help
#
# The command runs as root under bash inside "chroot" of the host's root, with
# PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin, HOME=/root,
# HCUBE_VM=1 and HCUBE_VM_OUT=/tmp/out (a directory shared read-write with the
# host: files the command writes there end up in the run directory).  /tmp,
# /var/tmp and /root are writable (overlays, discarded at poweroff), the rest
# of the host's filesystem is read-only (unless --writable-root).  Its stdout and stderr are streamed to
# this script's stdout and stderr; the kernel console goes to console.log.
#
# Exit status: the command's, unless
#   124  the VM ran out of time (the command did not finish),
#   125  the command did not run (VM failed to start or to boot),
#   1    (or the command's non-zero status) the kernel log has a splat,
#   2    bad usage.
# The run directory holds: cmd.sh, stdout, stderr, status, dmesg, console.log,
# qemu.log.

set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SELF")
REPO=$(cd "$HERE/../.." && pwd -P)

cpus=${HCUBE_VM_CPUS:-4}
nodes=${HCUBE_VM_NODES:-1}
mem=${HCUBE_VM_MEM:-512}
timeout=${HCUBE_VM_TIMEOUT:-900}
kver=${KVER:-}
kernel=${HCUBE_VM_KERNEL:-}
append=${HCUBE_VM_APPEND:-}
qemu=${HCUBE_VM_QEMU:-qemu-system-x86_64}
tcg_thread=${HCUBE_VM_TCG_THREAD:-single}
outdir=
keep=0
cwd=$REPO
dmesg_check=1
console=0
rwroot=0
declare -a envs=() ignores=()

usage() {
	sed -n '/^# Usage:/,/^# qemu.log/s/^# \{0,1\}//p' "$SELF"
	exit "${1:-2}"
}

say() {
	echo "run-vm: $*" >&2
}

die() {
	say "error: $*"
	exit "${2:-2}"
}

need_arg() {
	[ $# -ge 2 ] || die "option $1 needs an argument"
}

is_uint() {
	[[ $1 =~ ^[0-9]+$ ]]
}

while [ $# -gt 0 ]; do
	case "$1" in
	--cpus) need_arg "$@"; cpus=$2; shift 2 ;;
	--nodes) need_arg "$@"; nodes=$2; shift 2 ;;
	--mem) need_arg "$@"; mem=$2; shift 2 ;;
	--timeout) need_arg "$@"; timeout=$2; shift 2 ;;
	--kver) need_arg "$@"; kver=$2; shift 2 ;;
	--kernel) need_arg "$@"; kernel=$2; shift 2 ;;
	--out) need_arg "$@"; outdir=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--cwd) need_arg "$@"; cwd=$2; shift 2 ;;
	--env) need_arg "$@"; envs+=("$2"); shift 2 ;;
	--append) need_arg "$@"; append="$append $2"; shift 2 ;;
	--dmesg-ignore) need_arg "$@"; ignores+=("$2"); shift 2 ;;
	--no-dmesg-check) dmesg_check=0; shift ;;
	--writable-root) rwroot=1; shift ;;
	--console) console=1; shift ;;
	--tcg-thread) need_arg "$@"; tcg_thread=$2; shift 2 ;;
	-h | --help) usage 0 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (the command goes after --)" ;;
	esac
done
[ $# -gt 0 ] || die "no command given (usage: run-vm.sh [options] -- command [args...])"

# --- validate ------------------------------------------------------------------
if ! is_uint "$cpus" || [ "$cpus" -lt 1 ] || [ "$cpus" -gt 255 ]; then
	die "--cpus must be 1..255"
fi
if ! is_uint "$nodes" || [ "$nodes" -lt 1 ]; then
	die "--nodes must be >= 1"
fi
[ $((cpus % nodes)) -eq 0 ] || die "--cpus ($cpus) must be a multiple of --nodes ($nodes)"
is_uint "$mem" || die "--mem must be a number of MiB"
[ $((mem % nodes)) -eq 0 ] || die "--mem ($mem) must be a multiple of --nodes ($nodes)"
[ $((mem / nodes)) -ge 64 ] || die "--mem: at least 64 MiB per node"
if ! is_uint "$timeout" || [ "$timeout" -lt 10 ]; then
	die "--timeout must be >= 10 seconds"
fi
case "$tcg_thread" in multi | single) ;; *) die "--tcg-thread must be multi or single" ;; esac
[ -d "$cwd" ] || die "--cwd $cwd: no such directory"
cwd=$(cd "$cwd" && pwd -P)
for e in "${envs[@]}"; do
	[[ ${e%%=*} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "--env $e: bad variable name"
done
for re in "${ignores[@]}"; do
	grc=0
	grep -Eq -- "$re" </dev/null 2>/dev/null || grc=$?
	[ "$grc" -le 1 ] || die "--dmesg-ignore '$re': bad regex"
done
command -v "$qemu" >/dev/null || die "$qemu not found (install qemu-system-x86)"
for tool in timeout tail awk; do
	command -v "$tool" >/dev/null || die "'$tool' not found"
done

if [ -z "$kver" ]; then
	kver=$("$HERE/mkinitramfs.sh" -K) || die "no default kernel: use --kver"
fi
[ -d "/lib/modules/$kver" ] || die "/lib/modules/$kver not found (install linux-image-amd64)"
kernel=${kernel:-/boot/vmlinuz-$kver}
[ -r "$kernel" ] || die "kernel image $kernel not readable"

initrd=$("$HERE/mkinitramfs.sh" -q -k "$kver") || die "building the initramfs failed" 125

# --- run directory ---------------------------------------------------------------
if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	outdir=$(cd "$outdir" && pwd -P)
	rm -f "$outdir"/{cmd.sh,stdout,stderr,status,dmesg,started,console.log,qemu.log,guest-timeout,init-error}
	keep=1
else
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/hcube-vm.XXXXXX")
	outdir=$(cd "$outdir" && pwd -P)
fi

qpid=
declare -a helpers=()
# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	for p in "${helpers[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ "$keep" = 1 ]; then
		say "run files kept in $outdir"
	else
		rm -rf "$outdir"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

# The script run by bash inside the VM.
{
	echo "# generated by run-vm.sh"
	for e in "${envs[@]}"; do
		if [[ $e == *=* ]]; then
			printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"
		elif [ -n "${!e+set}" ]; then
			printf 'export %s=%q\n' "$e" "${!e}"
		fi
	done
	printf 'cd -- %q || exit 125\n' "$cwd"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$outdir/cmd.sh"
: >"$outdir/stdout"
: >"$outdir/stderr"
: >"$outdir/console.log"

# --- qemu ------------------------------------------------------------------------------
qesc() { # escape a value for qemu's "key=value,..." option syntax
	printf '%s' "${1//,/,,}"
}

start=$(date +%s.%N)
deadline=$(( ${start%.*} + timeout ))
cores=$((cpus / nodes))
declare -a qargs=(
	-accel "tcg,thread=$tcg_thread"
	-machine q35
	-cpu max
	-m "$mem"
	-smp "$cpus,sockets=$nodes,cores=$cores,threads=1"
)
if [ "$nodes" -gt 1 ]; then
	for ((n = 0; n < nodes; n++)); do
		qargs+=(-object "memory-backend-ram,id=mem$n,size=$((mem / nodes))M"
			-numa "node,nodeid=$n,memdev=mem$n,cpus=$((n * cores))-$(((n + 1) * cores - 1))")
	done
fi
# Console output is only a log: keep it complete (debug level) unless told
# otherwise with --append loglevel=N.  Stall detectors get some slack because
# TCG vCPUs can be starved for seconds on a busy host.  lpj= skips the
# per-CPU delay-loop calibration, which is slow and noisy under TCG (x86
# delays use the TSC anyway).  Later --append arguments override these.
cmdline="console=ttyS0,115200 loglevel=7 log_buf_len=4M panic=-1 lpj=10000000"
cmdline+=" rcupdate.rcu_cpu_stall_timeout=60 watchdog_thresh=30"
cmdline+=" hcubevm.deadline=$deadline"
[ "$rwroot" = 0 ] || cmdline+=" hcubevm.rwroot=1"
cmdline+="${append:+ $append}"
qargs+=(
	-kernel "$kernel"
	-initrd "$initrd"
	-append "$cmdline"
	-nodefaults -display none -no-reboot
	-monitor none
	-chardev "file,id=con,path=$(qesc "$outdir/console.log")"
	-serial chardev:con
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"
	-fsdev "local,id=hostout,path=$(qesc "$outdir"),security_model=none,multidevs=remap"
	-device "virtio-9p-pci,fsdev=hostout,mount_tag=hostout"
)

say "booting $kver: $cpus cpus, $nodes node(s), ${mem} MiB, timeout ${timeout}s"
timeout -k 10 "$timeout" "$qemu" "${qargs[@]}" </dev/null >"$outdir/qemu.log" 2>&1 &
qpid=$!

tail -n +1 -s 0.2 -f --pid="$qpid" "$outdir/stdout" &
helpers+=($!)
tail -n +1 -s 0.2 -f --pid="$qpid" "$outdir/stderr" >&2 &
helpers+=($!)
if [ "$console" = 1 ]; then
	tail -n +1 -s 0.2 -f --pid="$qpid" "$outdir/console.log" >&2 &
	helpers+=($!)
fi

boot_time=
while kill -0 "$qpid" 2>/dev/null; do
	if [ -z "$boot_time" ] && [ -e "$outdir/started" ]; then
		boot_time=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	fi
	sleep 0.2
done
qrc=0
wait "$qpid" || qrc=$?
qpid=
for p in "${helpers[@]}"; do
	wait "$p" 2>/dev/null || true
done
helpers=()
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

# --- verdict --------------------------------------------------------------------------
show_console() {
	say "last lines of the kernel console:"
	tail -n 40 "$outdir/console.log" | sed 's/^/  | /' >&2
}

rc=0
status=
if [ -s "$outdir/status" ]; then
	status=$(tr -d '[:space:]' <"$outdir/status")
	is_uint "$status" || status=
fi
if [ -s "$outdir/qemu.log" ]; then
	say "qemu output:"
	sed 's/^/  | /' "$outdir/qemu.log" >&2
fi

# The console's tail helps when the VM died or hung, unless the splat check
# below shows the interesting part of it anyway.
want_console=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	say "FAIL: VM timed out after ${timeout}s and was killed"
	want_console=1
	rc=124
elif [ -e "$outdir/guest-timeout" ]; then
	say "FAIL: command still running when the time ran out (--timeout $timeout)"
	rc=124
elif [ "$qrc" -ne 0 ] && [ -z "$status" ]; then
	say "FAIL: qemu exited with status $qrc"
	rc=125
elif [ -z "$status" ]; then
	if [ -s "$outdir/init-error" ]; then
		say "FAIL: VM setup failed: $(cat "$outdir/init-error")"
	elif [ -e "$outdir/started" ]; then
		say "FAIL: the VM went down while the command was running (kernel panic?)"
	else
		say "FAIL: the command did not run (the VM did not boot to it)"
	fi
	want_console=1
	rc=125
else
	rc=$status
fi

# Kernel splats: in dmesg if the VM got to save it, else in the console log.
if [ "$dmesg_check" = 1 ]; then
	log=dmesg
	[ -s "$outdir/$log" ] || log=console.log
	declare -a cargs=()
	for re in "${ignores[@]}"; do cargs+=(--ignore "$re"); done
	if ! (cd "$outdir" && "$HERE/check-dmesg.sh" "${cargs[@]}" "$log") >&2; then
		say "FAIL: kernel splat in $log (see above)"
		[ "$rc" -ne 0 ] || rc=1
		[ "$log" = dmesg ] || want_console=0
	fi
fi
[ "$want_console" = 0 ] || show_console

say "$cpus cpus/$nodes nodes: boot ${boot_time:-?}s, total ${elapsed}s, command status ${status:-none}, exit $rc"
exit "$rc"
