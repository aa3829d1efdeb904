#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's commands on a fresh Debian 12 (`make check-fresh`): a clean
# bookworm made with debootstrap (cached, copied afresh for every run), the
# repository's committed HEAD cloned into it, `make` installed (the one thing
# a fresh machine lacks to run the README), then in a chroot: make deps
# timed, or the README's commands (FRESH_TARGETS, default "demo check").
# The VMs run inside the chroot on its own /boot kernel, its root over 9p.
#
# Usage: scripts/check-fresh.sh [--deps-only] [--deps-from REV]
#   --deps-only      time `make deps` and count the packages, nothing else
#   --deps-from REV  use REV's scripts/deps.sh and lists (e.g. main, to compare)
# Environment: FRESH_TARGETS (make targets run in order, default
# "demo check"), FRESH_MAKEFLAGS (e.g. "VM_TOPOS=8x2"), HCUBE_FRESH_DIR
# (default /var/tmp/hcube-fresh), HCUBE_FRESH_MIRROR (default
# http://deb.debian.org/debian). Needs root, debootstrap, unshare, git.
#
# Safety: every mount (proc, sysfs, a tmpfs /dev of its own with a few
# device nodes and a new devpts instance) is made inside a private mount
# namespace that ends with the run, never a bind of the host's /, /dev or
# /sys. Before a root is deleted, /proc/mounts must show nothing under it
# and no process may run in it; it is deleted with rm --one-file-system.
set -euo pipefail
# The whole script is one { } block: bash reads it all before it runs, so
# an edit of this file during a run (which lasts long) cannot change it.
{
die() { echo "check-fresh: $*" >&2; exit 1; }
say() { echo "check-fresh: $*" >&2; }

deps_only=0
deps_from=""
while [ $# -gt 0 ]; do
	case $1 in
	--deps-only) deps_only=1 ;;
	--deps-from) deps_from=${2:?--deps-from needs a revision}; shift ;;
	*) die "unknown option '$1' (valid: --deps-only, --deps-from REV)" ;;
	esac
	shift
done

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, mounts)"
for t in debootstrap unshare chroot git mknod; do
	command -v "$t" >/dev/null || die "'$t' not found (apt-get install debootstrap util-linux git)"
done

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
rev=$(git -C "$repo" rev-parse HEAD)
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] ||
	say "note: uncommitted changes in $repo are not tested (HEAD $rev is)"
DIR=${HCUBE_FRESH_DIR:-/var/tmp/hcube-fresh}
MIRROR=${HCUBE_FRESH_MIRROR:-http://deb.debian.org/debian}
TARGETS=${FRESH_TARGETS:-demo check}
base=$DIR/base
root=$DIR/root
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd -P)
base=$DIR/base
root=$DIR/root

# mounted DIR: is anything mounted at or below DIR (in this namespace)?
mounted() {
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/mounts
}

# in_use DIR: does a process run with its root at or below DIR?
in_use() {
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case $r in "$1" | "$1"/*) echo "${p#/proc/}"; return 0 ;; esac
	done
	return 1
}

safe_rm() {
	local d=$1 pid
	[ -e "$d" ] || return 0
	case $d in "$DIR"/?*) ;; *) die "refusing to delete '$d' (not under $DIR)" ;; esac
	if mounted "$d"; then
		die "something is mounted under $d (see /proc/mounts): not deleting it"
	fi
	if pid=$(in_use "$d"); then
		die "process $pid runs inside $d: not deleting it"
	fi
	rm -rf --one-file-system "$d"
}

# A pristine bookworm, made once; debootstrap's own mounts stay in a private
# namespace too.
if [ ! -e "$base/.hcube-fresh-base" ]; then
	safe_rm "$base.tmp"
	say "debootstrap bookworm into $base (once)"
	unshare --mount --propagation private -- \
		debootstrap --arch=amd64 bookworm "$base.tmp" "$MIRROR" >"$DIR/debootstrap.log" 2>&1 ||
		{ tail -20 "$DIR/debootstrap.log" >&2; die "debootstrap failed (log: $DIR/debootstrap.log)"; }
	mounted "$base.tmp" && die "debootstrap left mounts under $base.tmp"
	cat >"$base.tmp/etc/apt/sources.list" <<-EOF
	deb $MIRROR bookworm main
	deb $MIRROR bookworm-updates main
	deb http://deb.debian.org/debian-security bookworm-security main
	EOF
	touch "$base.tmp/.hcube-fresh-base"
	mv "$base.tmp" "$base"
fi

safe_rm "$root"
say "fresh root $root from $base"
cp -a "$base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# no daemon starts in the chroot (the usual chroot policy)
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

git clone -q --no-hardlinks "$repo" "$root/root/hcube"
git -C "$root/root/hcube" checkout -q --detach "$rev"
if [ -n "$deps_from" ]; then
	git -C "$repo" show "$deps_from:scripts/deps.sh" >"$root/root/hcube/scripts/deps.sh" ||
		die "no scripts/deps.sh at '$deps_from'"
	# and its lists: deps.list, and deps-demo.list where REV has one
	for f in deps.list deps-demo.list; do
		rm -f "$root/root/hcube/scripts/$f"
		git -C "$repo" show "$deps_from:scripts/$f" >"$root/root/hcube/scripts/$f" 2>/dev/null ||
			rm -f "$root/root/hcube/scripts/$f"
	done
	say "scripts/deps.sh and its lists from $deps_from"
fi

cat >"$root/root/fresh-run.sh" <<'EOF'
#!/bin/bash
set -euo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive
res=/root/fresh-results.txt
note() { echo "fresh: $*"; echo "$*" >>"$res"; }
npkg() { dpkg-query -W -f='${Status}\n' | grep -c '^install ok installed$'; }
cd /root/hcube
note "HEAD $(git -C /root/hcube rev-parse HEAD 2>/dev/null || cat .git/HEAD), kernel of the host $(uname -r)"
note "debootstrap base: $(npkg) packages"
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends make >/dev/null
note "with make: $(npkg) packages"
if [ "$DEPS_ONLY" = 1 ]; then
	n0=$(npkg); t0=$SECONDS
	make deps 2>&1 | tee /root/deps.log
	t=$((SECONDS - t0))
	note "make deps: ${t} s, $(($(npkg) - n0)) packages more, $(grep -c '^Setting up' /root/deps.log) 'Setting up' lines"
	exit 0
fi
for t in $TARGETS; do
	t0=$SECONDS
	rc=0
	# shellcheck disable=SC2086
	make $FRESH_MAKEFLAGS "$t" 2>&1 | tee "/root/make-$t.log" || rc=$?
	note "make $FRESH_MAKEFLAGS $t: exit $rc, $((SECONDS - t0)) s, $(npkg) packages installed"
	if grep -q '^deps: [0-9]* packages installed' "/root/make-$t.log"; then
		note "  in it $(grep -h '^deps: [0-9]* packages installed' "/root/make-$t.log"), $(grep -c '^Setting up' "/root/make-$t.log") 'Setting up' lines"
	fi
	[ "$rc" -eq 0 ] || exit "$rc"
done
EOF
chmod 755 "$root/root/fresh-run.sh"

say "running in the chroot: $([ $deps_only = 1 ] && echo "make deps" || echo "make $TARGETS")"
rc=0
DEPS_ONLY=$deps_only TARGETS=$TARGETS FRESH_MAKEFLAGS=${FRESH_MAKEFLAGS:-} \
unshare --mount --propagation private -- /bin/bash -euo pipefail -c '
	R=$0
	mount -t proc proc "$R/proc"
	mount -t sysfs sysfs "$R/sys"
	mount -t tmpfs -o mode=755,nosuid,size=64m hcube-fresh-dev "$R/dev"
	while read -r name major minor; do
		mknod -m 666 "$R/dev/$name" c "$major" "$minor"
	done <<-DEVS
	null 1 3
	zero 1 5
	full 1 7
	random 1 8
	urandom 1 9
	tty 5 0
	DEVS
	mkdir "$R/dev/pts" "$R/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$R/dev/pts"
	ln -s pts/ptmx "$R/dev/ptmx"
	mount -t tmpfs -o mode=1777,nosuid,nodev hcube-fresh-shm "$R/dev/shm"
	ln -s /proc/self/fd "$R/dev/fd"
	ln -s /proc/self/fd/0 "$R/dev/stdin"
	ln -s /proc/self/fd/1 "$R/dev/stdout"
	ln -s /proc/self/fd/2 "$R/dev/stderr"
	exec chroot "$R" /root/fresh-run.sh
'  "$root" || rc=$?

mounted "$root" && die "mounts left under $root after the run (see /proc/mounts)"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
cp "$root/root/fresh-results.txt" "$DIR/results-$stamp.txt" 2>/dev/null || true
say "results ($DIR/results-$stamp.txt; the root stays in $root until the next run):"
cat "$DIR/results-$stamp.txt" >&2 || true
[ "$rc" -eq 0 ] || die "failed (exit $rc)"
say "ok"
exit 0
}
