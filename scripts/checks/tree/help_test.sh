#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make help` lists every target a Makefile of the top level defines (a
# rule whose name is a plain word, in Makefile and the files it includes),
# each once, with a line that says what it does: a target added without
# its "## target: what it does" line fails here.
set -u
cd "$(dirname "$0")/../../.." || exit 2
files=$(make -s --no-print-directory -pnq help 2>/dev/null |
	sed -n 's/^MAKEFILE_LIST := //p' | tr ' ' '\n' | grep -v '^$' | sort -u)
[ -n "$files" ] || files=Makefile
defined=$(grep -ho '^[a-z][a-z0-9.-]*:' $files | grep -v ':=' | tr -d : | sort -u)
listed=$(make -s --no-print-directory help | awk '{print $1}')
bad=0
for t in $defined; do
	if ! grep -qx -- "$t" <<<"$listed"; then
		echo "not ok make help: target '$t' has no '## $t: ...' line"
		bad=1
	fi
done
dups=$(sort <<<"$listed" | uniq -d)
if [ -n "$dups" ]; then
	echo "not ok make help: listed twice: $dups"
	bad=1
fi
for t in $listed; do
	if ! grep -qx -- "$t" <<<"$defined"; then
		echo "not ok make help: '$t' is listed but no rule defines it"
		bad=1
	fi
done
[ $bad = 0 ] && echo "ok make help: $(wc -w <<<"$listed") targets, each with a line"
exit $bad
