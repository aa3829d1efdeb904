#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall into a temporary DESTDIR (make check-install):
# with PREFIX=/usr and with the default PREFIX, every file lands where it
# should, with its mode and content; the installed header compiles on its
# own, the installed tools run, the man pages open with man -l, and the
# installed completion passes completion_test.sh; then uninstall leaves no
# file behind. Prints TAP.
# Usage: install_test.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"
	[ -s "$tmp/log" ] && tail -20 "$tmp/log" | sed 's/^/#   /'
	return 0
}
step() {
	local name=$1
	shift
	if "$@" >"$tmp/log" 2>&1; then ok "$name"; else not_ok "$name"; fi
}

# want PATH MODE SOURCE: an installed file
want() {
	local f=$1 mode=$2 src=$3 got
	got=$(stat -c %a "$f" 2>/dev/null)
	if [ "$got" = "$mode" ] && cmp -s "$f" "$src"; then
		ok "installed ${f#"$dest"} (mode $mode)"
	else
		not_ok "installed ${f#"$dest"}: mode '${got:-missing}', want $mode, same as $src"
	fi
}

echo "TAP version 13"
for prefix in /usr ""; do
	dest=$tmp/root
	rm -rf "$dest"
	args=(DESTDIR="$dest" BUILD="$B")
	[ -n "$prefix" ] && args+=(PREFIX="$prefix")
	p=${prefix:-/usr/local}
	echo "# PREFIX=${prefix:-(default: /usr/local)}"
	step "make install DESTDIR=<tmp>${prefix:+ PREFIX=$prefix}" \
		make -s --no-print-directory install "${args[@]}"
	want "$dest$p/sbin/hcubectl" 755 "$B/hcubectl"
	want "$dest$p/bin/hcube-sim" 755 "$B/hcube-sim"
	want "$dest$p/share/man/man8/hcubectl.8" 644 Documentation/man/hcubectl.8
	want "$dest$p/share/man/man1/hcube-sim.1" 644 Documentation/man/hcube-sim.1
	want "$dest$p/share/bash-completion/completions/hcubectl" 644 \
		tools/hcubectl/hcubectl.bash-completion
	want "$dest$p/include/linux/hcube.h" 644 uapi/linux/hcube.h
	count=$(find "$dest" -type f | wc -l)
	if [ "$count" -eq 6 ]; then ok "6 files installed"; else not_ok "$count files installed, want 6"; fi

	if [ "$prefix" = /usr ]; then
		printf '#include <linux/hcube.h>\nint main(void) { return HCUBE_FAMILY_VERSION != 1 + 0 * HCUBE_CMD_MAX; }\n' >"$tmp/t.c"
		step "the installed header compiles alone" \
			cc -Wall -Werror -I"$dest$p/include" -o "$tmp/t" "$tmp/t.c"
		step "installed hcubectl --version" "$dest$p/sbin/hcubectl" --version
		step "installed hcube-sim --help" "$dest$p/bin/hcube-sim" --help
		for page in man8/hcubectl.8 man1/hcube-sim.1; do
			MANWIDTH=80 man --warnings -l "$dest$p/share/man/$page" >"$tmp/man" 2>"$tmp/log"
			if [ ! -s "$tmp/log" ] && grep -q NAME "$tmp/man"; then
				ok "man -l $page: no warning"
			else
				not_ok "man -l $page"
			fi
		done
		if selftests/install/completion_test.sh \
			"$dest$p/share/bash-completion/completions/hcubectl" \
			"$dest$p/sbin/hcubectl" >"$tmp/log" 2>&1; then
			ok "installed completion: $(tail -1 "$tmp/log" | sed 's/^# //')"
		else
			grep -A1 '^not ok' "$tmp/log" >"$tmp/log2"; mv "$tmp/log2" "$tmp/log"
			not_ok "installed completion"
		fi
	fi

	step "make uninstall" make -s --no-print-directory uninstall "${args[@]}"
	left=$(find "$dest" -type f -o -type l)
	if [ -z "$left" ]; then
		ok "uninstall left no file"
	else
		printf '%s\n' "$left" >"$tmp/log"
		not_ok "uninstall left files"
	fi
done
echo "1..$n"
echo "# install: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
