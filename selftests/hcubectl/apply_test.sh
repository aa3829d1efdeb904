#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl apply FILE and hcubectl -batch FILE against the fake module
# (fakekernel.c) with its state kept in a file between runs
# (HCUBE_FAKE_STATE): apply changes only what differs and a second run
# changes nothing; marks set by hand are cleared, settings changed by hand
# put back; every kind of bad line is refused with its line number and
# nothing is sent; a refusal of the kernel midway is reported change by
# change; a batch stops at its first failing line, with FILE:LINE, after
# running the lines before it and none after. The state is read back with
# the fake's state file and with "hcubectl -j show" / "-j config show".
# Prints TAP.
#
# Usage: apply_test.sh HCUBECTL FAKEKERNEL_SO

set -u
BIN=${1:-build/hcubectl}
FAKE=$(readlink -f "${2:-build/hcubectl-test/fakekernel.so}")
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
tap_tmpdir

export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0:exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}
unset HCUBE_FAKE_LOADS HCUBE_FAKE_NOADMIN HCUBE_FAKE_UNLOAD HCUBE_FAKE_UNITS \
      HCUBE_FAKE_GONE HCUBE_FAKE_CGROOT HCUBE_FAKE_CHUNK
# A 3-cube without faults: vertex v has CPUs 2v and 2v+1 (0-15); the fake
# starts in mode llc with policy dem, auto on, threshold 3, cooldown 250.
export HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY='' HCUBE_FAKE_STATE=$tmp/state \
       HCUBE_FAKE_LOG=$tmp/log

fake() {
	tap_run env LD_PRELOAD="$FAKE" timeout 60 "$BIN" "$@"
}

# shellcheck source=../lib/hcube_state.sh
. "$(dirname "$0")/../lib/hcube_state.sh"
STATE_CMD=(env LD_PRELOAD="$FAKE" "$BIN")

# py NAME CODE: the JSON on stdout of the last run passes CODE (as "d")
py() {
	if python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$2" "$tmp/out" 2>"$tmp/py"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/#   python: /' "$tmp/py" | tail -3
	fi
}

# The mutating commands' numbers, from the uAPI header.
MUT=$(python3 - "$(dirname "$0")/../../uapi/linux/hcube.h" <<'PY'
import re, sys
body = re.search(r'enum hcube_cmd \{(.*?)\};', open(sys.argv[1]).read(), re.S).group(1)
names = re.findall(r'^\s*HCUBE_CMD_(\w+)', body, re.M)
print('|'.join(str(names.index(n)) for n in ('TOPO_SET', 'FAULT_ADD', 'FAULT_DEL', 'CONFIG_SET')))
PY
)

# mutations: the number of mutating requests (TOPO_SET, FAULT_ADD/DEL,
# CONFIG_SET) in the fake's log since it was emptied
mutations() {
	grep -cE "^cmd ($MUT) " "$tmp/log" 2>/dev/null
}

echo "TAP version 13"
tap_need_exec "$BIN"
tap_need_file "$FAKE"
[ -n "$MUT" ] || tap_bail "no command numbers in uapi/linux/hcube.h"
echo "# mutating commands: $MUT"
check_state "initial state" "mode=llc cpus= marked= policy=dem auto=True threshold=3 cooldown=250"

# ---- apply: first run, second run ----
cat >"$tmp/hcube.conf" <<'EOF'
# the test's configuration
mode cpu
policy mcwa
auto off
threshold 1
cooldown 1000

fault cpu 5      # CPU 5 reports machine checks
fault cpu 12
fault vertex 0b011
EOF
: >"$tmp/log"
fake -j apply "$tmp/hcube.conf"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then ok "apply: exit 0"; else not_ok "apply: exit 0 (rc $rc)"; fi
py "apply -j: each change, its line, old and new value, applied" "
c = d['changes']
assert d['dry_run'] is False and d['applied'] == 8 == d['total'] == len(c), d
k = [(x['key'], x['action'], x['old'], x['new'], x['cpu'], x['vertex'], x['line']) for x in c]
assert k == [('mode', 'set', 'llc', 'cpu', None, None, 2),
             ('policy', 'set', 'dem', 'mcwa', None, None, 3),
             ('auto', 'set', True, False, None, None, 4),
             ('threshold', 'set', 3, 1, None, None, 5),
             ('cooldown', 'set', 250, 1000, None, None, 6),
             ('fault', 'add', None, None, 5, None, 8),
             ('fault', 'add', None, None, 12, None, 9),
             ('fault', 'add', None, None, None, 3, 10)], k
assert all(x['status'] == 'applied' and x['error'] is None for x in c)
"
cnt=$(mutations)
if [ "$cnt" = 8 ]; then ok "apply: 8 requests that change state"; else not_ok "apply: $cnt requests that change state, want 8"; fi
WANT="mode=cpu cpus=5,12 marked=3 policy=mcwa auto=False threshold=1 cooldown=1000"
check_state "after apply" "$WANT"

: >"$tmp/log"
fake apply "$tmp/hcube.conf"
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$tmp/hcube.conf: nothing to change" ] &&
   [ ! -s "$tmp/err" ] && [ "$(mutations)" = 0 ]; then
	ok "apply again: 'nothing to change', exit 0, no request that changes state"
else
	not_ok "apply again: nothing to change (rc $rc, $(mutations) changes)"
fi
fake -j apply "$tmp/hcube.conf"
py "apply again -j: no change" "assert d['changes'] == [] and d['applied'] == 0 == d['total']"
check_state "after the second apply" "$WANT"

# ---- what an administrator changed by hand is put back ----
env LD_PRELOAD="$FAKE" "$BIN" fault add cpu 9
env LD_PRELOAD="$FAKE" "$BIN" fault del vertex 3
env LD_PRELOAD="$FAKE" "$BIN" config set policy optimal cooldown 20
check_state "changed by hand" "mode=cpu cpus=5,9,12 marked= policy=optimal auto=False threshold=1 cooldown=20"
fake -j apply --dry-run "$tmp/hcube.conf"
py "apply --dry-run -j: what would change, all planned" "
c = d['changes']
assert d['dry_run'] is True and d['applied'] == 0 and d['total'] == 4, d
k = [(x['key'], x['action'], x['cpu'], x['vertex'], x['line'], x['status']) for x in c]
assert k == [('policy', 'set', None, None, 3, 'planned'),
             ('cooldown', 'set', None, None, 6, 'planned'),
             ('fault', 'del', 9, None, None, 'planned'),
             ('fault', 'add', None, 3, 10, 'planned')], k
"
check_state "--dry-run changed nothing" "mode=cpu cpus=5,9,12 marked= policy=optimal auto=False threshold=1 cooldown=20"
fake apply "$tmp/hcube.conf"
if [ "$rc" -eq 0 ] && diff -u - "$tmp/out" >"$tmp/diff" <<EOF
policy: optimal -> mcwa ($tmp/hcube.conf:3)
cooldown: 20 -> 1000 ($tmp/hcube.conf:6)
fault cpu 9: cleared (not in $tmp/hcube.conf)
fault vertex 3: added ($tmp/hcube.conf:10)
$tmp/hcube.conf: 4 of 4 changes made
EOF
then
	ok "apply: the report names each change and where it comes from"
else
	TAP_SHOW="diff:$tmp/diff" not_ok "apply: the report (rc $rc)"
fi
check_state "the file's state again" "$WANT"

# ---- bad lines: each named with its line, nothing applied ----
# bad FILE_LINE PATTERN: a file of good lines with this one at line 4
bad() {
	local line=$1 pat=$2
	printf 'fault cpu 2\nfault cpu 1\n\n%s\nthreshold 7\n' "$line" >"$tmp/bad.conf"
	: >"$tmp/log"
	fake apply "$tmp/bad.conf"
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(mutations)" = 0 ] &&
	   [ "$(head -1 "$tmp/err")" = "hcubectl: apply: $tmp/bad.conf:4: $pat" ] &&
	   [ "$(sed -n 2p "$tmp/err")" = "hcubectl: apply: $tmp/bad.conf: 1 bad line; nothing changed" ] &&
	   [ "$(wc -l <"$tmp/err")" = 2 ]; then
		ok "bad line '$line': refused at line 4, nothing sent"
	else
		not_ok "bad line '$line' (rc $rc, $(mutations) changes; want: $pat)"
	fi
}
bad 'frob 1' "unknown key 'frob' (mode, fault, policy, auto, threshold, cooldown, mce_ce_threshold, mce_ce_window, mce_uc, min_healthy_cpus, min_healthy_vertices)"
bad 'mode numa' "mode: unknown mode 'numa' (cpu, node, llc, custom CPULIST..., auto)"
bad 'mode' "mode: missing value (cpu, node, llc, custom CPULIST..., auto)"
bad 'mode cpu 0-3' "mode cpu takes no CPU list ('0-3')"
bad 'mode custom' "mode custom: missing CPULIST (one per vertex, like 0-3 4-7)"
bad 'mode custom 0-3 3-5' "mode custom: CPULISTs '0-3' and '3-5' share CPUs (groups are disjoint)"
bad 'mode custom 0-3 5-1' "mode custom: CPULIST '5-1' has a range that ends before it starts"
bad 'mode custom 0-3 x' "mode custom: CPULIST 'x' is not a cpulist like 0-3,8"
bad 'mode custom 0-3 9000' "mode custom: CPULIST '9000' names a CPU past the last one"
bad 'policy fastest' "policy: unknown policy 'fastest' (mcwa, dem, cwa, optimal, auto, rid, sid, sbn, sbn-cube, sbn-heur, pebble)"
bad 'policy' "policy: missing value"
bad 'policy dem mcwa' "policy: one value only"
bad 'auto yes' "auto: 'yes' is not on, off, 1 or 0"
bad 'threshold 1000001' "threshold: '1000001' is out of range (valid range 0..1000000)"
bad 'threshold -1' "threshold: '-1' is out of range (valid range 0..1000000)"
bad 'cooldown 9' "cooldown: '9' is out of range (valid range 10..3600000 milliseconds)"
bad 'cooldown 3600001' "cooldown: '3600001' is out of range (valid range 10..3600000 milliseconds)"
bad 'max_tasks 10' "max_tasks is a module parameter, read when the module loads: put 'options hcube max_tasks=...' in /etc/modprobe.d/hcube.conf"
bad 'births 10' "births is a module parameter, read when the module loads: put 'options hcube births=...' in /etc/modprobe.d/hcube.conf"
bad 'fault cpu' "fault: want 'fault cpu N' or 'fault vertex V'"
bad 'fault disk 1' "fault: want 'fault cpu N' or 'fault vertex V'"
bad 'fault cpu 1x' "fault cpu: '1x' is not a CPU number (0..8191)"
bad 'fault cpu 3 4' "fault cpu 3: unexpected '4' (one fault per line)"
bad 'fault cpu 1' "fault cpu 1 given twice (first on line 2)"
bad 'fault vertex 0101' "fault vertex: '0101' is ambiguous: write a binary label with 0b (0b0101), a decimal id without leading zeros"
bad 'fault vertex 1024' "fault vertex: 1024 is out of range (0..1023)"
bad "fault cpu '3" "a ' without its closing '"
# against the module's cube: known before anything is changed
bad 'fault cpu 16' "fault cpu 16: CPU 16 is in no vertex of the cube (its CPUs: 0-15)"
bad 'fault vertex 8' "fault vertex 8: out of range for this cube (valid range 0..7)"

# every CPU faulty: no healthy vertex at the end, refused whole (dry run too)
{ for c in $(seq 0 15); do echo "fault cpu $c"; done; } >"$tmp/all.conf"
for dry in "" --dry-run; do
	: >"$tmp/log"
	fake apply "$tmp/all.conf" $dry
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(mutations)" = 0 ] &&
	   [ "$(head -1 "$tmp/err")" = "hcubectl: apply: $tmp/all.conf:16: the faults leave no healthy vertex (every CPU of the cube, 0-15, faulty or in a vertex marked faulty)" ] &&
	   [ "$(sed -n 2p "$tmp/err")" = "hcubectl: apply: $tmp/all.conf: 1 bad line; nothing changed" ]; then
		ok "apply ${dry:+$dry }of a file that marks every CPU faulty: refused before any change"
	else
		not_ok "apply ${dry:+$dry }of every CPU faulty (rc $rc, $(mutations) changes)"
	fi
done
# the same with vertex marks: all eight vertices but one marked, its CPUs faulty
printf 'fault vertex %s\n' 0 1 2 3 4 5 6 >"$tmp/all.conf"
printf 'fault cpu 14\nfault cpu 15\n' >>"$tmp/all.conf"
fake apply "$tmp/all.conf" --dry-run
if [ "$rc" -eq 2 ] && grep -q "^hcubectl: apply: $tmp/all.conf:9: the faults leave no healthy vertex" "$tmp/err"; then
	ok "apply --dry-run: marked vertices and faulty CPUs that leave none: refused"
else
	not_ok "apply --dry-run: marked vertices and faulty CPUs (rc $rc)"
fi
printf 'fault vertex %s\n' 0 1 2 3 4 5 6 >"$tmp/all.conf"
fake apply "$tmp/all.conf" --dry-run
if [ "$rc" -eq 0 ]; then
	ok "apply --dry-run: one vertex left healthy: accepted"
else
	not_ok "apply --dry-run: one vertex left healthy (rc $rc)"
fi

printf 'policy dem\n\npolicy mcwa\n' >"$tmp/bad.conf"
fake apply "$tmp/bad.conf"
if [ "$rc" -eq 2 ] && [ "$(head -1 "$tmp/err")" = "hcubectl: apply: $tmp/bad.conf:3: policy given twice (first on line 1)" ]; then
	ok "a setting given twice: refused at its second line"
else
	not_ok "a setting given twice (rc $rc)"
fi

# several bad lines: each is named
printf 'policy x\nfault cpu 99\nauto maybe\n' >"$tmp/bad.conf"
fake apply "$tmp/bad.conf"
if [ "$rc" -eq 2 ] && grep -q "^hcubectl: apply: $tmp/bad.conf:1: policy: unknown policy 'x'" "$tmp/err" &&
   grep -q "^hcubectl: apply: $tmp/bad.conf:3: auto: 'maybe'" "$tmp/err" &&
   grep -q "^hcubectl: apply: $tmp/bad.conf: 2 bad lines; nothing changed$" "$tmp/err"; then
	ok "two bad lines: both named (the cube is not read before the file is clean)"
else
	not_ok "two bad lines (rc $rc)"
fi
check_state "no bad file changed anything" "$WANT"

fake apply "$tmp/nonexistent.conf"
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: apply: $tmp/nonexistent.conf: No such file or directory" ]; then
	ok "apply of a missing file: exit 1, one line"
else
	not_ok "apply of a missing file (rc $rc)"
fi

# ---- stdin, an empty file, custom groups, auto ----
printf 'fault cpu 5\nfault cpu 12\nfault vertex 3\n' >"$tmp/faults"
tap_run env LD_PRELOAD="$FAKE" "$BIN" apply - <"$tmp/faults"
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "<stdin>: nothing to change" ]; then
	ok "apply -: the file on stdin"
else
	not_ok "apply - (rc $rc)"
fi
fake apply /dev/null
check_state "apply /dev/null: every mark cleared, settings left alone" \
	"mode=cpu cpus= marked= policy=mcwa auto=False threshold=1 cooldown=1000"
fake apply "$tmp/hcube.conf"
check_state "and back" "$WANT"

custom="mode custom 0-1 2-3 4-5 6-7 8-9 10,11 12-13 14-15"
printf '%s\nfault cpu 5\nfault cpu 12\n' "$custom" >"$tmp/custom.conf"
fake -j apply "$tmp/custom.conf"
py "mode custom: the groups, and the vertex mark the new topology drops" "
c = d['changes']
assert [(x['key'], x['old'], x['new']) for x in c] == [
    ('mode', 'cpu', 'custom 0-1 2-3 4-5 6-7 8-9 10,11 12-13 14-15')], c
assert d['applied'] == 1
"
check_state "custom" "mode=custom cpus=5,12 marked= policy=mcwa auto=False threshold=1 cooldown=1000"
fake apply "$tmp/custom.conf"
if [ "$rc" -eq 0 ] && grep -q 'nothing to change' "$tmp/out"; then
	ok "mode custom again: the same groups (10,11 is 10-11): nothing to change"
else
	not_ok "mode custom again (rc $rc)"
fi

# mode auto: node when the CPUs span 2+ NUMA nodes, else cpu (this host's)
nodes=0
for f in /sys/devices/system/node/node*/cpulist; do
	[ -r "$f" ] && grep -q '^[0-9]' "$f" && nodes=$((nodes + 1))
done
want_mode=cpu
[ "$nodes" -ge 2 ] && want_mode=node
printf 'mode llc\nfault cpu 5\nfault cpu 12\n' >"$tmp/llc.conf"
fake apply "$tmp/llc.conf"
if [ "$rc" -eq 0 ] && [ "$(head -1 "$tmp/out")" = "mode: custom 0-1 2-3 4-5 6-7 8-9 10-11 12-13 14-15 -> llc ($tmp/llc.conf:1)" ]; then
	ok "custom -> llc: the report has the groups the module had"
else
	not_ok "custom -> llc: the report (rc $rc)"
fi
check_state "mode llc" "mode=llc cpus=5,12 marked= policy=mcwa auto=False threshold=1 cooldown=1000"
printf 'mode auto\nfault cpu 5\nfault cpu 12\n' >"$tmp/auto.conf"
fake -j apply "$tmp/auto.conf"
py "mode auto is $want_mode on this host ($nodes NUMA nodes with CPUs)" "
assert [(x['key'], x['new']) for x in d['changes']] == [('mode', '$want_mode')], d['changes']
"

# ---- the kernel refuses a change midway ----
# Vertex 7 is offline, which a file cannot know: the file leaves vertex 6
# healthy as far as it can tell, and the kernel refuses to mark it.
fake apply "$tmp/hcube.conf"
printf 'policy dem\nfault cpu 5\nfault cpu 12\nfault vertex 3\n' >"$tmp/all.conf"
for v in 0 1 2 4 5 6; do echo "fault vertex $v"; done >>"$tmp/all.conf"
echo "fault cpu 1" >>"$tmp/all.conf"
HCUBE_FAKE_OFFLINE=7 fake -j apply "$tmp/all.conf"
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: apply: $tmp/all.conf:10: fault add: vertex 6: Device or resource busy: HCUBE_A_VERTEX_ID: marking the vertex faulty would leave no healthy vertex" ]; then
	ok "the last healthy vertex: the kernel's error, with FILE:LINE, exit 1"
else
	not_ok "the last healthy vertex (rc $rc)"
fi
py "the report says what was applied, what failed and what was not tried" "
st = [(x['key'], x['vertex'], x['cpu'], x['status']) for x in d['changes']]
assert st[0] == ('policy', None, None, 'applied'), st
assert [s[3] for s in st[1:6]] == ['applied'] * 5, st
assert st[6] == ('fault', 6, None, 'failed') and st[7] == ('fault', None, 1, 'skipped'), st
assert d['applied'] == 6 and d['total'] == 8
assert 'no healthy vertex' in d['changes'][6]['error']
"
check_state "applied up to the refusal" \
	"mode=cpu cpus=5,12 marked=0,1,2,3,4,5 policy=dem auto=False threshold=1 cooldown=1000"
fake apply "$tmp/hcube.conf"
check_state "and back" "$WANT"

# without CAP_NET_ADMIN: the first change is refused, nothing is made
printf 'policy cwa\nfault cpu 1\n' >"$tmp/two.conf"
tap_run env HCUBE_FAKE_NOADMIN=1 LD_PRELOAD="$FAKE" "$BIN" apply "$tmp/two.conf"
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: apply: $tmp/two.conf:1: config set: Operation not permitted (this command needs CAP_NET_ADMIN)" ] &&
   grep -qx "policy: mcwa -> cwa ($tmp/two.conf:1) (failed)" "$tmp/out" &&
   grep -qx "fault cpu 1: added ($tmp/two.conf:2) (not tried)" "$tmp/out" &&
   grep -qx "fault cpu 5: cleared (not in $tmp/two.conf) (not tried)" "$tmp/out" &&
   grep -qx "$tmp/two.conf: 0 of 5 changes made" "$tmp/out"; then
	ok "without CAP_NET_ADMIN: refused, the report says nothing was made"
else
	not_ok "without CAP_NET_ADMIN (rc $rc)"
fi
check_state "unchanged" "$WANT"

# ---- -batch ----
cat >"$tmp/batch" <<'EOF'
# a comment, then a blank line

fault add cpu 1          # a comment after a command
config   set  policy   "sbn-cube"
-j config show
fault add cpu 1
fault add cpu 2
EOF
: >"$tmp/log"
fake -batch "$tmp/batch"
if [ "$rc" -eq 1 ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: $tmp/batch:6: fault add: cpu 1: File exists: HCUBE_A_CPU: the CPU is already marked faulty" ] &&
   python3 -c "import json, sys; assert json.load(open(sys.argv[1]))['policy'] == 'sbn-cube'" "$tmp/out"; then
	ok "-batch: stops at line 6 with FILE:LINE and the kernel's error, exit 1"
else
	not_ok "-batch: stops at line 6 (rc $rc)"
fi
check_state "-batch: lines 3-5 ran, line 7 did not" \
	"mode=cpu cpus=1,5,12 marked=3 policy=sbn-cube auto=False threshold=1 cooldown=1000"
cnt=$(mutations)
if [ "$cnt" = 3 ]; then ok "-batch: 3 requests that change state (lines 3, 4, 6)"; else not_ok "-batch: $cnt requests that change state, want 3"; fi

printf 'fault del cpu 1\nfault dell cpu 1\nfault add cpu 2\n' >"$tmp/batch"
fake -b "$tmp/batch"
if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "hcubectl: $tmp/batch:2: fault: unknown command 'dell' (add, del) (try 'hcubectl fault --help')" ]; then
	ok "-b: a usage error stops the batch with FILE:LINE, exit 2"
else
	not_ok "-b: a usage error (rc $rc)"
fi
check_state "-b: line 1 ran, line 3 did not" \
	"mode=cpu cpus=5,12 marked=3 policy=sbn-cube auto=False threshold=1 cooldown=1000"

tap_run env LD_PRELOAD="$FAKE" "$BIN" --batch - \
	< <(printf 'config set policy mcwa\nconfig set threshold 2000000\nconfig set threshold 5\n')
if [ "$rc" -eq 1 ] && grep -q "^hcubectl: <stdin>:2: config set: threshold 2000000: Numerical result out of range" "$tmp/err"; then
	ok "--batch -: from stdin, the kernel's range error at <stdin>:2"
else
	not_ok "--batch - (rc $rc)"
fi
check_state "--batch -: line 1 ran" \
	"mode=cpu cpus=5,12 marked=3 policy=mcwa auto=False threshold=1 cooldown=1000"

printf 'show\n--batch other\n' >"$tmp/batch"
fake -batch "$tmp/batch"
if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "hcubectl: $tmp/batch:2: -batch inside a batch file (try 'hcubectl --help')" ]; then
	ok "-batch: no -batch inside a batch"
else
	not_ok "-batch inside a batch (rc $rc)"
fi
printf 'config show\nconfig set policy "dem\n' >"$tmp/batch"
fake -batch "$tmp/batch"
if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "hcubectl: $tmp/batch:2: a \" without its closing \"" ] &&
   grep -q '^policy' "$tmp/out"; then
	ok "-batch: an unclosed quote at line 2, after line 1 ran"
else
	not_ok "-batch: an unclosed quote (rc $rc)"
fi
tap_run env LD_PRELOAD="$FAKE" "$BIN" -batch - < <(printf 'apply -\n')
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: <stdin>:1: apply: -: stdin is the batch file; name a file" ]; then
	ok "-batch -: apply - refused (stdin is the batch)"
else
	not_ok "-batch -: apply - (rc $rc)"
fi
printf 'apply %s\n' "$tmp/hcube.conf" >"$tmp/batch"
fake -batch "$tmp/batch"
check_state "-batch: a line that applies the configuration" "$WANT"
# ---- the machine-check settings ----
printf 'mce_ce_window 0\n' >"$tmp/mce.conf"
fake apply "$tmp/mce.conf"
if [ "$rc" -eq 2 ] && grep -q "mce_ce_window: '0' is out of range (valid range 1..2592000 seconds)" "$tmp/err"; then
	ok "apply: mce_ce_window 0 refused with its range"
else
	not_ok "apply: mce_ce_window 0 (rc $rc)"
fi
cat >"$tmp/mce.conf" <<'EOF'
mode cpu
mce_ce_threshold 18
mce_ce_window 3600
mce_uc on
fault cpu 5
fault cpu 12
fault vertex 0b011
EOF
fake -j apply "$tmp/mce.conf"
py "apply -j: the three machine-check settings, from their defaults" "
k = [(x['key'], x['old'], x['new'], x['status']) for x in d['changes']]
assert k == [('mce_ce_threshold', 0, 18, 'applied'), ('mce_ce_window', 86400, 3600, 'applied'),
             ('mce_uc', False, True, 'applied')], k
"
fake -j config show
py "config show -j: the machine-check settings apply set" "
assert (d['mce_ce_threshold'], d['mce_ce_window'], d['mce_uc']) == (18, 3600, True), d
"
tap_end
