#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan kernel logs (dmesg output or a serial console log) for splats: WARN()s,
# BUG()s, oopses, panics, lockdep/RCU reports, sanitizer reports, lockups,
# stalls and hung tasks.  Prints each offending line (marked ">>") with some
# context and exits 1 if there is any, 0 if the log is clean.
#
# Usage: check-dmesg.sh [-B N] [-A N] [-q] [--ignore RE]... [--from RE] FILE...
#   -B N, -A N   lines of context before/after each hit (default 3/15)
#   -q           print nothing, only set the exit status
#   --ignore RE  ignore a report whose line matches the extended regex RE
#                (matched against the line without its timestamp), together
#                with the rest of that report (up to its "</TASK>" or
#                "---[ end trace" line); repeatable.  Also taken from
#                $HCUBE_DMESG_IGNORE (one regex per line).
#   --from RE    count only reports after the first line matching RE (also
#                $HCUBE_DMESG_FROM); earlier ones are shown, not counted
#   FILE         "-" reads standard input
# Exit status: 0 clean, 1 splat found, 2 usage error or unreadable file.
#
# Lines are matched after removing the "<level>", "[  time]" and "[T123]"
# prefixes.  Matching is case-sensitive and anchored on word boundaries where
# a word could occur inside an unrelated one (e.g. "BUG:" but not "DEBUG:").
# Known-benign lines that contain a trigger word are listed in BENIGN below.

set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")

# Extended regexes (POSIX awk syntax: no \b, no {n}); one per line.
PATTERNS='(^|[^A-Za-z0-9_])WARNING:
(^|[^A-Za-z0-9_])BUG:
^BUG [^ ]+ \((Not tainted|Tainted)
kernel BUG at
(^|[^A-Za-z0-9_])Oops([^A-Za-z0-9_]|$)
general protection fault
invalid opcode: [0-9a-f]
stack segment: [0-9a-f]
double fault
Kernel panic
Unable to handle kernel
Kernel stack is corrupted
corrupted stack end detected
possible circular locking dependency
possible recursive locking
possible irq lock inversion
inconsistent lock state
inconsistent \{[A-Z_-]+\} -> \{[A-Z_-]+\} usage
bad unlock balance
held lock freed
lock held when returning to user space
suspicious RCU usage
(^|[^A-Za-z0-9_])lockdep([^A-Za-z0-9_]|$)
DEBUG_LOCKS_WARN_ON
turning off the locking correctness validator
sleeping function called from invalid context
scheduling while atomic
refcount_t:
list_add corruption
list_del corruption
UBSAN:
KASAN:
KFENCE:
KCSAN:
kmemleak: [0-9]+ new suspected memory leak
unreferenced object 0x
ODEBUG: [a-z_]+ [a-z_]+ \(
Bad page state
Bad page map
Bad rss-counter
Call Trace:
(^|[^A-Za-z0-9_])RIP: [0-9a-f]+:
hung_task
blocked for more than [0-9]+ seconds
soft lockup
hard LOCKUP
detected stalls
detected stall on CPU
self-detected stall
detected expedited stalls
rcu: INFO:
(^|[^A-Za-z0-9_])INFO: rcu_
Uhhuh. NMI received
invoked oom-killer
page allocation failure'

# Lines that match a pattern above but are not kernel splats.
BENIGN='^(Spectre V1|Spectre V2|Spectre BHI|RETBleed|Speculative Store Bypass|Speculative Return Stack Overflow|SRSO|MDS|TAA|MMIO Stale Data|SRBDS|GDS|L1TF|Register File Data Sampling|RFDS|ITS|BHI|VMSCAPE|Transient Scheduler Attacks|TSA|x86/bugs) *: 
^traps: .*\[[0-9]+\] general protection fault ip:
^traps: .*\[[0-9]+\] trap (invalid opcode|stack segment|divide error|int3) ip:
^rcu:[[:space:]]+RCU lockdep checking is enabled\.$'

before=3
after=15
quiet=0
declare -a files=() ignores=()

usage() {
	sed -n '/^# Usage:/,/^# Exit status:/s/^# \{0,1\}//p' "$SELF" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	-B) [ $# -ge 2 ] || usage; before=$2; shift 2 ;;
	-A) [ $# -ge 2 ] || usage; after=$2; shift 2 ;;
	-q) quiet=1; shift ;;
	--ignore) [ $# -ge 2 ] || usage; ignores+=("$2"); shift 2 ;;
	--from) [ $# -ge 2 ] || usage; from_re=$2; shift 2 ;;
	-h | --help) usage ;;
	--) shift; files+=("$@"); break ;;
	-?*) usage ;;
	*) files+=("$1"); shift ;;
	esac
done
[ ${#files[@]} -gt 0 ] || usage
[[ $before =~ ^[0-9]+$ && $after =~ ^[0-9]+$ ]] || usage
for f in "${files[@]}"; do
	[ "$f" = - ] || [ -r "$f" ] || { echo "check-dmesg: cannot read $f" >&2; exit 2; }
done

ignore_list=
if [ -n "${HCUBE_DMESG_IGNORE:-}" ]; then
	ignore_list=$HCUBE_DMESG_IGNORE
fi
for re in "${ignores[@]}"; do
	ignore_list+=${ignore_list:+$'\n'}$re
done

# --from RE (or HCUBE_DMESG_FROM): count only reports after the first line
# matching RE; earlier ones (say, a debug kernel's early boot) are shown
# but do not fail the check.
from_re=${from_re:-${HCUBE_DMESG_FROM:-}}

# Regexes go through the environment: awk -v would interpret backslashes.
export CD_PATTERNS=$PATTERNS CD_BENIGN=$BENIGN CD_IGNORE=$ignore_list CD_FROM=$from_re

rc=0
for f in "${files[@]}"; do
	name=$f
	[ "$f" = - ] && { name="<stdin>"; f=/dev/stdin; }
	frc=0
	awk -v before="$before" -v after="$after" -v quiet="$quiet" -v name="$name" '
	function load(str, arr,    n, i, tmp, k) {
		n = split(str, tmp, "\n")
		k = 0
		for (i = 1; i <= n; i++)
			if (tmp[i] != "")
				arr[++k] = tmp[i]
		return k
	}
	function matches_any(s, arr, n,    i) {
		for (i = 1; i <= n; i++)
			if (s ~ arr[i])
				return 1
		return 0
	}
	function emit(nr, text, mark) {
		if (quiet)
			return
		if (printed >= maxprint) {
			if (!truncated)
				print "  ... (more output cut)"
			truncated = 1
			return
		}
		if (last_printed && nr > last_printed + 1)
			print "  --"
		printf "%s %s:%d: %s\n", mark, name, nr, text
		last_printed = nr
		printed++
	}
	BEGIN {
		np = load(ENVIRON["CD_PATTERNS"], pat)
		nb = load(ENVIRON["CD_BENIGN"], benign)
		ni = load(ENVIRON["CD_IGNORE"], ign)
		maxprint = 400
		hits = 0; suppress = 0; pending = 0; last_printed = 0
		from = ENVIRON["CD_FROM"]
		started = from == ""
		early = 0
	}
	{
		sub(/\r+$/, "")
		line = $0
		# Strip "<4>", "[   12.345678]", "[T123]"/"[C1]" prefixes.
		s = line
		sub(/^<[0-9]+>/, "", s)
		sub(/^\[ *[0-9]+\.[0-9]+\] ?/, "", s)
		sub(/^\[ *[TC][0-9]+\] ?/, "", s)

		hit = 0
		if (matches_any(s, pat, np) && !matches_any(s, benign, nb))
			hit = 1
		if (!started && from != "" && s ~ from)
			started = 1
		if (hit && !started) {
			early++
			if (!quiet)
				printf "-- %s:%d: (before the start marker, not counted) %s\n", name, NR, line
			hit = 0
		}
		if (ni && matches_any(s, ign, ni)) {
			suppress = 200		# until the end of this report
			hit = 0
		}
		if (suppress) {
			hit = 0
			suppress--
			if (s ~ /<\/TASK>|---\[ end trace|---\[ end Kernel panic/)
				suppress = 0
		}

		if (hit) {
			hits++
			# context before the hit
			for (i = NR - before; i < NR; i++)
				if (i > last_printed && i >= 1 && (i in ring))
					emit(i, ring[i], "  ")
			emit(NR, line, ">>")
			pending = after
		} else if (pending > 0) {
			emit(NR, line, "  ")
			pending--
		}
		ring[NR] = line
		delete ring[NR - before - 1]
	}
	END {
		if (hits) {
			if (!quiet)
				printf "check-dmesg: %s: %d suspicious line(s)\n", name, hits
			exit 1
		}
		exit 0
	}' "$f" || frc=$?
	case "$frc" in
	0) ;;
	1) rc=1 ;;
	*) echo "check-dmesg: failed to scan $name" >&2; exit 2 ;;
	esac
done
exit "$rc"
