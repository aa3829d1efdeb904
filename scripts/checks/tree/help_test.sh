#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make help` lists every target a Makefile of the top level defines (a
# rule whose name is a plain word, in Makefile and the files it includes),
# each once, with a line that says what it does: a target added without
# its "## target: what it does" line fails here. The targets are the
# indented lines; the others are the headings, one per file (Makefile,
# mk/*.mk).
set -u
cd "$(dirname "$0")/../../.." || exit 2
files=$(make -s --no-print-directory -pnq help 2>/dev/null |
	sed -n 's/^MAKEFILE_LIST := //p' | tr ' ' '\n' | grep -v '^$' | sort -u)
[ -n "$files" ] || files=Makefile
defined=$(grep -ho '^[a-z][a-z0-9.-]*:' $files | grep -v ':=' | tr -d : | sort -u)
listed=$(make -s --no-print-directory help | awk '/^  / {print $1}')
bad=0
# report FORMAT NAMES: one "not ok" line per name (FORMAT's %s, each time)
report() {
	local t
	for t in $2; do
		echo "not ok make help: ${1//%s/$t}"
		bad=1
	done
}
report "target '%s' has no '## %s: ...' line" \
	"$(comm -23 <(echo "$defined") <(sort -u <<<"$listed"))"
report "'%s' is listed but no rule defines it" \
	"$(comm -13 <(echo "$defined") <(sort -u <<<"$listed"))"
dups=$(sort <<<"$listed" | uniq -d)
[ -z "$dups" ] || report "listed twice: %s" "$(echo $dups)"
[ $bad = 0 ] && echo "ok make help: $(wc -w <<<"$listed") targets, each with a line"
exit $bad
