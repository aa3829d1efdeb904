#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/check-tree.py on a throw-away repository: each kind of reference a
# reader cannot follow, planted in a file of its own, must fail the check
# and be reported at its line; a file of paths that are fine must pass.
# The planted words are put together at run time, so that this file does
# not hold them.
set -u
. "$(dirname "$0")/../../../selftests/lib/tap.sh"
CHECK=$(cd "$(dirname "$0")/../../.." && pwd)/scripts/check-tree.py
tap_tmpdir
repo=$tmp/repo
mkdir "$repo" && git -C "$repo" init -q

p=paper w=work h=home d=data up=..
mkdir -p "$repo/scripts" "$repo/tools/x" "$repo/doc"
echo "# shared" >"$repo/scripts/Makefile.common"
echo "include ../../scripts/Makefile.common" >"$repo/tools/x/Makefile"

# expect STATUS PATTERN NAME: the check on the repository as it is exits
# with STATUS and prints a line matching PATTERN
expect() {
	git -C "$repo" add -A
	tap_run /usr/bin/python3 "$CHECK" "$repo"
	if [ "$rc" -eq "$1" ] && grep -q "$2" "$TAP_OUT"; then
		ok "$3"
	else
		not_ok "$3 (exit $rc)"
	fi
}

# planted FILE LINE: FILE holds LINE (after a first, clean line)
planted() {
	local f=$1 line=$2
	mkdir -p "$(dirname "$repo/$f")"
	printf 'a clean first line\n%s\n' "$line" >"$repo/$f"
	expect 1 "^not ok $f:2: " "fails on $f: $line"
	git -C "$repo" rm -q -f "$f"
}

planted doc/a.md "as $p 003 says"
planted doc/b.md "readings of ${p}s 001 and 003"
planted doc/c.c " * see ${p}-000, Section 6"
hex=11684efc16306ce7
planted doc/d.md "the text is in 000_$hex.txt"
planted tools/x/e.c " * the reading in /$w/shared/notes/sbn.md"
planted doc/f.sh "PAPERS=/$h/someone/papers"
planted g.md "The papers are in \`$up/shared/papers/\`"
planted doc/h.md "cp /$d/papers/x.txt ."
planted doc/i.md "see /$w for the papers"

# fine: system folders, relative paths, a Makefile example from two levels
# down, a placeholder, awk patterns, paper as a plain word
cat >"$repo/scripts/fine.sh" <<'FINE'
tar -xJf /usr/src/linux-source-6.1.tar.xz -C /tmp/x
make -C /lib/modules/6.1.0-56-amd64/build M=$PWD
grep Cpus_allowed_list /proc/self/status; cat /sys/devices/system/cpu/online
mv "$out"/src/*.deb "$out"/; ls build/hcube-sim tools/hcubectl
#   include $(dir $(lastword $(MAKEFILE_LIST)))../../scripts/Makefile.common
HCUBE_KO=/absolute/path/hcube.ko; awk '/MemTotal/ {print $2}' /proc/meminfo
echo "$HOME/.cache" /root/.cache/hcube-vm /var/tmp/hcube-fresh
# the paper's Example 2, 3 papers, 300 runs
FINE
expect 0 "^ok tree: " "passes on system paths, relative paths and plain words"

echo "1..$n"
echo "check_tree_test: $((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
