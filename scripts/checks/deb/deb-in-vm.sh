#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the test VM, for check-deb.sh (run-vm.sh --writable-root): install
# hcube-dkms and hcube-tools with dpkg -i, so that DKMS builds the module
# for this kernel; modprobe hcube, use the installed hcubectl, modprobe -r;
# dpkg --purge both; then nothing of theirs may remain: no path of the two
# .debs that was not there before, no DKMS tree, sources or built module,
# no entry in dpkg's status, and nothing named hcube among the files the
# whole run wrote to the root (the overlay's upper layer).
#
# Usage: deb-in-vm.sh HCUBE_DKMS_DEB HCUBE_TOOLS_DEB
# Prints "ok TEXT", "not ok TEXT" and "# comment" lines (check-deb.sh numbers
# them). Exits 0 when it got to the end, 1 when it had to stop early.
set -u
dkms_deb=${1:?usage: deb-in-vm.sh HCUBE_DKMS_DEB HCUBE_TOOLS_DEB}
tools_deb=${2:?usage: deb-in-vm.sh HCUBE_DKMS_DEB HCUBE_TOOLS_DEB}
pkgs=(hcube-dkms hcube-tools)
kver=$(uname -r)
upper=/run/hcube-vm/root-upper
ver=$(dpkg-deb -f "$dkms_deb" Version)
tmp=$(mktemp -d)
SECONDS=0
# shellcheck source=selftests/hcube/hcube_module.sh
. "$(dirname "$0")/../../../selftests/hcube/hcube_module.sh"

ok() { echo "ok $*"; }
not_ok() { echo "not ok $*"; }
comment() { sed 's/^/# /' "$@"; }
stop() { echo "not ok $*"; echo "# stopped early"; exit 1; }

# check NAME CMD...: ok if CMD succeeds; else not ok, with its output
check() {
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		ok "$name"
	else
		not_ok "$name (exit status $?)"
		tail -30 "$tmp/out" | comment
		return 1
	fi
}

# What of hcube is on the system, one line per thing (empty: nothing).
hcube_traces() {
	local f p
	[ -e /sys/module/hcube ] && echo "module loaded: /sys/module/hcube"
	for f in /var/lib/dkms/hcube /usr/src/hcube-* /lib/modules/*/updates/dkms/hcube.ko* \
		/var/lib/dpkg/info/hcube-*; do
		[ -e "$f" ] || [ -L "$f" ] && echo "file: $f"
	done
	grep -l -w hcube /lib/modules/*/modules.dep 2>/dev/null | sed 's/^/depmod knows hcube: /'
	[ -n "$(dkms status hcube 2>/dev/null)" ] && echo "dkms status: $(dkms status hcube)"
	for p in "${pkgs[@]}"; do
		dpkg-query -W "$p" >/dev/null 2>&1 && echo "dpkg knows $p: $(dpkg-query -W -f='${Status}' "$p")"
	done
	grep -q '^Package: hcube-' /var/lib/dpkg/status && echo "in /var/lib/dpkg/status: $(grep '^Package: hcube-' /var/lib/dpkg/status | tr '\n' ' ')"
}

echo "# kernel $kver, $(nproc) CPUs, hcube $ver"
[ -d "$upper" ] || stop "$upper missing: run with run-vm.sh --writable-root"
[ "$(id -u)" -eq 0 ] || stop "must run as root"

# --- before ------------------------------------------------------------------------
hcube_traces >"$tmp/before"
if [ -s "$tmp/before" ]; then
	not_ok "before: no trace of hcube on the system"
	comment "$tmp/before"
	stop "the system is not clean before the test (check-dkms running on the host?)"
fi
ok "before: no hcube module, DKMS tree, sources or package on the system"
# every path in the two packages, and whether it exists now
for deb in "$dkms_deb" "$tools_deb"; do
	dpkg-deb --fsys-tarfile "$deb" | tar -t
done | sed 's|^\./|/|; s|/$||' | grep -v '^/\?$' | sort -u >"$tmp/paths"
while read -r p; do
	[ -e "$p" ] || [ -L "$p" ] && echo "$p"
done <"$tmp/paths" >"$tmp/existed"
echo "# the packages hold $(wc -l <"$tmp/paths") paths; $(wc -l <"$tmp/existed") exist before (shared directories)"

# --- install --------------------------------------------------------------------------
# DKMS's postinst builds for the running kernel and for the newest one in
# /boot, here the host's PREEMPT_RT kernel: a second compile under TCG that
# checks nothing more. Unless HCUBE_DEB_ALL_KERNELS=1, the other kernels'
# /boot/config-* are hidden (in the overlay) as on a machine with one kernel.
if [ "${HCUBE_DEB_ALL_KERNELS:-0}" != 1 ]; then
	for f in /boot/config-*; do
		[ "$f" = "/boot/config-$kver" ] || { rm -f "$f" && echo "# hidden from DKMS: $f"; }
	done
fi
# dpkg's output, each line with the seconds since the start of the step
stamped() {
	local t0=$SECONDS line
	"$@" 2>&1 | while IFS= read -r line; do echo "[$((SECONDS - t0)) s] $line"; done
	return "${PIPESTATUS[0]}"
}
export DEBIAN_FRONTEND=noninteractive
t0=$SECONDS
if stamped dpkg -i "$dkms_deb" "$tools_deb" >"$tmp/install"; then
	ok "dpkg -i $(basename "$dkms_deb") $(basename "$tools_deb") ($((SECONDS - t0)) s)"
	comment "$tmp/install"
else
	not_ok "dpkg -i: exit status $?"
	tail -40 "$tmp/install" | comment
	stop "installation failed"
fi
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>&1)
	if [ "$st" = "install ok installed $ver" ]; then
		ok "dpkg: $p is installed ($ver)"
	else
		not_ok "dpkg: $p: '$st', want 'install ok installed $ver'"
	fi
done
# dpkg --verify prints one line per file that differs from its md5sum
dpkg --verify hcube-dkms hcube-tools >"$tmp/verify" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/verify" ]; then
	ok "dpkg --verify: the installed files are those of the packages"
else
	not_ok "dpkg --verify: exit status $rc"
	head -20 "$tmp/verify" | comment
fi
status=$(dkms status "hcube/$ver" -k "$kver" 2>&1)
case $status in
*installed*) ok "dkms status: $status" ;;
*) not_ok "dkms status hcube/$ver -k $kver: '$status'" ;;
esac
dkms status hcube 2>&1 | comment
ko=/lib/modules/$kver/updates/dkms/hcube.ko
found=$(modinfo -n hcube 2>&1)
if [ -f "$ko" ] && [ "$found" = "$ko" ]; then
	ok "DKMS built and installed $ko; modinfo finds it"
else
	not_ok "modinfo -n hcube: '$found', want $ko"
fi

# --- use ----------------------------------------------------------------------------------
check "modprobe hcube" modprobe hcube
if hcube_module_is "$ko"; then
	ok "the loaded module is the DKMS-built $ko (build id $hcube_module_id)"
else
	not_ok "build id: the loaded module's is '$hcube_module_id', not that of $ko"
fi
if [ "$(command -v hcubectl)" = /usr/sbin/hcubectl ]; then
	ok "hcubectl is the installed /usr/sbin/hcubectl"
else
	not_ok "command -v hcubectl: '$(command -v hcubectl)', want /usr/sbin/hcubectl"
fi
if check "hcubectl show" hcubectl show; then
	head -4 "$tmp/out" | comment
fi
if hcubectl -j stats >"$tmp/stats" 2>&1 &&
	n=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and d, "not a non-empty object"
print(len(d))' "$tmp/stats" 2>"$tmp/err"); then
	ok "hcubectl -j stats: a JSON object with $n members"
else
	not_ok "hcubectl -j stats does not parse"
	cat "$tmp/stats" "$tmp/err" 2>/dev/null | tail -10 | comment
fi
check "hcube-sim plan --dim 2 --loads 4,0,0,0" hcube-sim plan --dim 2 --loads 4,0,0,0
page=$(man -w hcubectl 2>&1)
if [ "$page" = /usr/share/man/man8/hcubectl.8.gz ]; then
	ok "man -w hcubectl: $page"
else
	not_ok "man -w hcubectl: '$page', want /usr/share/man/man8/hcubectl.8.gz"
fi
printf '#include <linux/hcube.h>\nint x = HCUBE_FAMILY_VERSION;\n' >"$tmp/h.c"
check "the installed <linux/hcube.h> compiles" cc -Wall -Werror -c -o "$tmp/h.o" "$tmp/h.c"
check "modprobe -r hcube" modprobe -r hcube
if [ -e /sys/module/hcube ]; then not_ok "/sys/module/hcube is gone"; else ok "/sys/module/hcube is gone"; fi

# --- purge ----------------------------------------------------------------------------------
t0=$SECONDS
if stamped dpkg --purge hcube-tools hcube-dkms >"$tmp/purge"; then
	ok "dpkg --purge hcube-tools hcube-dkms ($((SECONDS - t0)) s)"
	comment "$tmp/purge"
else
	not_ok "dpkg --purge: exit status $?"
	tail -30 "$tmp/purge" | comment
fi
hcube_traces >"$tmp/after"
if [ -s "$tmp/after" ]; then
	not_ok "after purge: no package, DKMS tree, sources, module or depmod entry left"
	comment "$tmp/after"
else
	ok "after purge: no package, DKMS tree, sources, module or depmod entry left"
fi
while read -r p; do
	[ -e "$p" ] || [ -L "$p" ] && echo "$p"
done <"$tmp/paths" >"$tmp/exists"
if cmp -s "$tmp/existed" "$tmp/exists"; then
	ok "after purge: of the packages' $(wc -l <"$tmp/paths") paths exactly the $(wc -l <"$tmp/existed") that were there before exist"
else
	not_ok "after purge: the packages' paths differ from before"
	diff "$tmp/existed" "$tmp/exists" | grep '^[<>]' | sed 's/^>/left:/; s/^</gone:/' | head -30 | comment
fi
# everything the run wrote to the root, but /tmp (this script's files)
(cd "$upper" && find . -path ./tmp -prune -o -print | sed 's|^\.||' | grep -v '^$' | sort) >"$tmp/written"
grep -i hcube "$tmp/written" >"$tmp/named"
if [ -s "$tmp/named" ]; then
	not_ok "after purge: nothing named hcube among the $(wc -l <"$tmp/written") paths written to the root"
	head -30 "$tmp/named" | comment
else
	ok "after purge: nothing named hcube among the $(wc -l <"$tmp/written") paths written to the root"
fi
echo "# files the run changed on the root (overlay upper layer, /tmp aside):"
(cd "$upper" && find . -path ./tmp -prune -o ! -type d -print) | sed 's|^\.||' | sort | head -40 | comment
echo "# deb-in-vm: done in $SECONDS s"
