#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl against a fake hcube module (fakekernel.c, LD_PRELOAD'ed):
# the whole netlink path without the kernel module - requests, replies,
# dumps, big messages, extended-ack errors named by attribute, events - and
# every command's -j output parsed back with python3. The rebalance plans
# of the fake come from the project's core, so hcubectl's JSON must agree
# with "hcube-sim plan --json" on the same cube. Prints TAP.
#
# Usage: fake_test.sh HCUBECTL FAKEKERNEL_SO HCUBE_SIM
#   (an ASan build of hcubectl works too: the script lets the fake load
#   after the ASan runtime)

set -u
BIN=${1:-build/hcubectl}
FAKE=$(readlink -f "${2:-build/hcubectl-test/fakekernel.so}")
SIM=${3:-build/hcube-sim}
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
tap_tmpdir

export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0:exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}
unset HCUBE_FAKE_DIM HCUBE_FAKE_LOADS HCUBE_FAKE_FAULTY HCUBE_FAKE_NOADMIN HCUBE_FAKE_ISOLATED \
      HCUBE_FAKE_UNLOAD HCUBE_FAKE_LOG HCUBE_FAKE_UNITS HCUBE_FAKE_GONE HCUBE_FAKE_CGROOT \
      HCUBE_FAKE_EVENT_POLICY

# fake ARGS...: hcubectl on the fake module, output in $tmp/out, $tmp/err
fake() {
	tap_run env LD_PRELOAD="$FAKE" timeout 60 "$BIN" "$@"
}

# expect_ok NAME PYTHON ARGS...: exit 0, nothing on stderr, and the python
# code (stdout parsed into "d") passes
expect_ok() {
	local name=$1 code=$2
	shift 2
	fake "$@"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] &&
	   python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$code" "$tmp/out" 2>"$tmp/py"; then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
		sed 's/^/#   python: /' "$tmp/py" | tail -3
	fi
}

# expect_err NAME LINE ARGS...: exit 1, nothing on stdout, stderr is LINE
expect_err() {
	local name=$1 line=$2
	shift 2
	fake "$@"
	if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$line" ]; then
		ok "$name"
	else
		not_ok "$name (rc $rc, want: $line)"
	fi
}

echo "TAP version 13"
tap_need_exec "$BIN" "$SIM"
tap_need_file "$FAKE"

# ---- show: the paper's Example 2 (4-cube, 5 marked, 6 faulty CPUs, 8
# offline, 10 absent) ----
EX2_LOADS=6,2,4,20,4,0,0,10,0,10,0,5,15,12,14,18
"$SIM" plan --dim 4 --loads $EX2_LOADS --faulty 5,6,8,10 --json >"$tmp/sim.json"
expect_ok "show -j: summary, vertices, states, trees as hcube-sim's" "
sim = json.load(open('$tmp/sim.json'))
assert d['mode'] == 'llc' and d['dim'] == 4 and d['nvertices'] == 16
assert d['healthy'] == 12 and d['attached'] == 12 and d['generation'] == 42
assert d['balancing_subcube'] == 'X0X1' == sim['balancing_subcube']
assert d['tree_depth'] == 2 and d['cb_base'] == 0b0001 and d['cb_mask'] == 0b1010
v = d['vertices']
assert [x['id'] for x in v] == list(range(16))
assert [x['label'] for x in v][:3] == ['0000', '0001', '0010']
st = {x['id']: x['state'] for x in v}
assert st[5] == st[6] == 'faulty' and st[8] == 'offline' and st[10] == 'absent'
assert sum(s == 'healthy' for s in st.values()) == 12
assert v[5]['marked'] and not v[6]['marked'] and v[6]['faulty_cpus'] == '12-13'
assert v[8]['offline_cpus'] == '16-17' and v[10]['cpus'] == ''
assert v[3]['cpus'] == '6-7' == v[3]['usable_cpus'] and v[3]['load'] == 20
assert [x['id'] for x in v if x['in_cb']] == [1, 3, 9, 11]
assert d['parent'] == sim['parent'] == [x['parent'] for x in v], d['parent']
assert v[0b1100]['dist'] == 2 and v[5]['dist'] is None and v[0]['omega'] == 2
assert d['detached'] == sim['detached'] == [] and d['absent'] == [10]
assert [x['load'] for x in v] == sim['loads_before']
# pebble clusters: the 3-cubes 0xxx and 1xxx, lowest healthy label each
assert d['cluster_dim'] == 3 and d['controllers'] == [0, 9], d['controllers']
assert [x['id'] for x in v if x['controller']] == [0, 9]
" -j show

fake show
if [ "$rc" -eq 0 ] && grep -q '^absent (no CPU group): 1010$' "$tmp/out" &&
   grep -qE '^0101 +5 +faulty .* marked faulty$' "$tmp/out" &&
   grep -q '^  1001 (C_b)  load 10' "$tmp/out" &&
   grep -q '^    1101  load 12' "$tmp/out" && grep -q '^      1100  load 15' "$tmp/out" &&
   grep -q '^pebble clusters of 3 dimensions, controllers: 0000 1001$' "$tmp/out" &&
   grep -qE '^1001 +9 +healthy .* yes$' "$tmp/out"; then
	ok "show: table, absent labels, trees"
else
	not_ok "show: table, absent labels, trees (rc $rc)"
fi

expect_ok "-p show: the same object, indented" "
assert d['dim'] == 4 and len(d['vertices']) == 16
assert open(sys.argv[1]).read().count(chr(10)) > 100
" -p show

# A detached vertex: 0111 with its neighbours 0011, 0101, 0110, 1111 gone.
HCUBE_FAKE_FAULTY=3,5,6,15 fake -j show
if [ "$rc" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['detached'] == [7], d['detached']
v = d['vertices'][7]
assert v['detached'] and v['dist'] is None and v['parent'] == -1
" "$tmp/out"; then
	ok "show -j: a detached vertex"
else
	not_ok "show -j: a detached vertex"
fi
HCUBE_FAKE_FAULTY=3,5,6,15 fake show
if grep -q '^detached (healthy, no healthy path to C_b; their tasks stay): 0111$' "$tmp/out" &&
   grep -qE '^0111 +7 +healthy .* DETACHED$' "$tmp/out"; then
	ok "show: a detached vertex called out"
else
	not_ok "show: a detached vertex called out"
fi

# Isolated CPUs (isolcpus=): 5 of vertex 10 and both of 11, which is isolated.
# Every vertex has "isolated_cpus" ("" for none); the notes list them.
HCUBE_FAKE_DIM=2 HCUBE_FAKE_ISOLATED=5,6,7 fake -j show
if [ "$rc" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
v = d['vertices']
assert [x['isolated_cpus'] for x in v] == ['', '', '5', '6-7'], v
assert [x['state'] for x in v] == ['healthy'] * 3 + ['isolated']
assert v[2]['usable_cpus'] == '4' and v[3]['usable_cpus'] == ''
assert d['healthy'] == 3
" "$tmp/out"; then
	ok "show -j: isolated_cpus, an isolated vertex"
else
	not_ok "show -j: isolated_cpus, an isolated vertex (rc $rc)"
fi
HCUBE_FAKE_DIM=2 HCUBE_FAKE_ISOLATED=5,6,7 fake show
if [ "$rc" -eq 0 ] && grep -qE '^10 +2 +healthy +4-5 +4 .* isolated cpus 5$' "$tmp/out" &&
   grep -qE '^11 +3 +isolated +6-7 +- .* isolated cpus 6-7$' "$tmp/out" &&
   ! grep -qE '^0[01] .*isolated' "$tmp/out"; then
	ok "show: isolated CPUs in the notes, an isolated vertex"
else
	not_ok "show: isolated CPUs in the notes, an isolated vertex (rc $rc)"
fi

# ---- rebalance: the module's plan against hcube-sim's, same cube ----
compare_plan() {	# NAME SIM_ARGS -- HCUBECTL_ENV...
	local name=$1 simargs=$2
	shift 2
	# shellcheck disable=SC2086
	"$SIM" plan $simargs --json >"$tmp/sim.json" || { not_ok "$name: hcube-sim failed"; return; }
	env "$@" LD_PRELOAD="$FAKE" timeout 60 "$BIN" -j rebalance --dry-run \
		--policy "$(python3 -c "import json; print(json.load(open('$tmp/sim.json'))['policy'])")" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	# every transfer, by the dump of --transfers
	env "$@" LD_PRELOAD="$FAKE" timeout 60 "$BIN" -j rebalance --dry-run --transfers \
		--policy "$(python3 -c "import json; print(json.load(open('$tmp/sim.json'))['policy'])")" \
		>"$tmp/all" 2>>"$tmp/err" || rc=1
	if [ "$rc" -eq 0 ] && python3 - "$tmp/out" "$tmp/sim.json" "$tmp/all" 2>"$tmp/py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
a = json.load(open(sys.argv[3]))
assert d['dry_run'] is True and d['trigger'] == 'admin'
for k in ('policy', 'dim', 'balancing_subcube', 'tree_depth', 'loads_before',
          'steps', 'migrations', 'comm_steps'):
    assert d[k] == s[k], (k, d[k], s[k])
# the report lists the first 512 (report_transfers) and says when it cut
if len(s['transfers']) > 512:
    assert d['transfers'] == s['transfers'][:512] and d['transfers_cut'] is True
else:
    assert d['transfers'] == s['transfers'] and 'transfers_cut' not in d
assert d['ntransfers'] == len(s['transfers'])
assert d['stopped_short'] is s['stopped_short'], (d['stopped_short'], s['stopped_short'])
assert a == {'dry_run': True, 'transfers': s['transfers'], 'ntransfers': len(s['transfers'])}, a
assert d['loads_plan'] == s['loads_after']
assert d['loads_after'] == d['loads_before']    # a dry run moves nothing
assert d['failures'] == [] and d['changed'] == []
assert isinstance(d['duration_ns'], int)
PY
	then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
		sed 's/^/#   python: /' "$tmp/py" | tail -3
	fi
}
compare_plan "rebalance -j --dry-run mcwa = hcube-sim (Example 2)" \
	"--dim 4 --loads $EX2_LOADS --faulty 5,6,8,10 --policy mcwa"
compare_plan "rebalance -j --dry-run dem = hcube-sim (Example 2)" \
	"--dim 4 --loads $EX2_LOADS --faulty 5,6,8,10 --policy dem"
B3=5,5,5,5,5,5,5,5
compare_plan "rebalance -j --dry-run dem of a balanced cube = hcube-sim (no transfer)" \
	"--dim 3 --loads $B3 --policy dem" HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$B3
HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$B3 fake rebalance --dry-run --policy dem
if [ "$rc" -eq 0 ] && grep -A1 '^transfers:$' "$tmp/out" | grep -q '^  none$'; then
	ok "rebalance: a plan without transfers prints none"
else
	not_ok "rebalance: a plan without transfers (rc $rc)"
fi
L3=19,11,2,9,0,9,10,4
compare_plan "rebalance -j --dry-run cwa = hcube-sim (Example 1)" \
	"--dim 3 --loads $L3 --policy cwa" HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$L3
# every other policy on Example 2's cube, and the fields they add
for pol in optimal auto rid sid sbn sbn-cube sbn-heur pebble; do
	compare_plan "rebalance -j --dry-run $pol = hcube-sim (Example 2)" \
		"--dim 4 --loads $EX2_LOADS --faulty 5,6,8,10 --policy $pol"
done
fake -j rebalance --dry-run --policy auto
if [ "$rc" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['policy'] == 'auto' and d['applied'] in ('dem', 'mcwa', 'optimal'), d['applied']
assert d['imbalance'] == 0 and d['contended'] is None and isinstance(d['messages'], int)
" "$tmp/out"; then
	ok "rebalance -j --policy auto: the policy it applied, imbalance 0"
else
	not_ok "rebalance -j --policy auto: applied (rc $rc)"
fi
fake rebalance --dry-run --policy pebble
if [ "$rc" -eq 0 ] && grep -q '^rebalance (dry run): policy pebble, trigger admin$' "$tmp/out" &&
   grep -qE '^messages [0-9]+, imbalance [0-9]+, contended receivers [0-9]+$' "$tmp/out"; then
	ok "rebalance --policy pebble: messages, imbalance, contended receivers"
else
	not_ok "rebalance --policy pebble: text (rc $rc)"
fi
fake rebalance --dry-run --policy auto
if [ "$rc" -eq 0 ] &&
   grep -qE '^rebalance \(dry run\): policy auto, trigger admin, applied (dem|mcwa|optimal)$' "$tmp/out"; then
	ok "rebalance --policy auto: the applied policy in the first line"
else
	not_ok "rebalance --policy auto: text (rc $rc)"
fi
# 10-cubes. Loads below 40: DEM plans fewer than 4096 transfers (one
# attribute, a ~40 KB reply); below 200 more (about 5700: two attributes, a
# reply over 64 KB, which no single attribute could hold).
F10=3,64,65,500,1000
for max in 40 200; do
	L10=$(python3 -c "import random; r = random.Random(5); f = {$F10}
print(','.join('0' if v in f else str(r.randrange($max)) for v in range(1024)))")
	for pol in mcwa dem; do
		compare_plan "rebalance -j --dry-run $pol = hcube-sim (10-cube, loads < $max)" \
			"--dim 10 --loads $L10 --faulty $F10 --policy $pol" \
			HCUBE_FAKE_DIM=10 HCUBE_FAKE_FAULTY=$F10 HCUBE_FAKE_LOADS="$L10"
	done
done
HCUBE_FAKE_DIM=10 HCUBE_FAKE_FAULTY=$F10 HCUBE_FAKE_LOADS="$L10" \
HCUBE_FAKE_REPORT_TRANSFERS=65536 fake -j rebalance --dry-run --policy dem
if [ "$rc" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['ntransfers'] == len(d['transfers']) > 4096, d['ntransfers']
assert 'transfers_cut' not in d
" "$tmp/out"; then
	ok "rebalance -j: a plan of more than 4096 transfers, one nest each (report_transfers=65536)"
else
	not_ok "rebalance -j: more than 4096 transfers (rc $rc)"
fi
# a cut list in text: the first ones, and how to get them all
HCUBE_FAKE_REPORT_TRANSFERS=2 fake rebalance --dry-run --policy mcwa
if [ "$rc" -eq 0 ] && grep -q '^  step 1: 1100->1101 5 1110->1111 4$' "$tmp/out" &&
   ! grep -q 'step 2' "$tmp/out" &&
   grep -qx '  (the first 2 of 10 transfers: the list was cut; all of them: hcubectl rebalance --transfers --dry-run --policy mcwa)' "$tmp/out" &&
   grep -q '^transfers 10, ' "$tmp/out"; then
	ok "rebalance: a cut transfer list says so, and how to list them all"
else
	not_ok "rebalance: a cut transfer list (rc $rc)"
fi
HCUBE_FAKE_REPORT_TRANSFERS=2 fake rebalance --transfers --dry-run --policy mcwa
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "transfers:
  step 1: 1100->1101 5 1110->1111 4
  step 2: 1101->1001 7 1111->1011 12
  step 3: 1001->0001 7 1011->0011 7
  step 4: 0011->0001 11
  step 5: 0001->0000 10 0011->0010 6
  step 6: 0000->0100 6
transfers 10" ]; then
	ok "rebalance --transfers: every transfer, by step"
else
	not_ok "rebalance --transfers (rc $rc)"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
fi
# Never worse: on 0,9,...,9 Das et al.'s cube variant would leave a vertex
# above 9; the core cuts it and the report says so, in JSON and in text;
# mcwa on the same cube runs whole and says nothing of it
S3=0,9,9,9,9,9,9,9
compare_plan "rebalance -j --dry-run sbn-cube that stops short = hcube-sim" \
	"--dim 3 --loads $S3 --policy sbn-cube" HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$S3
for pol in sbn-cube mcwa; do
	HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$S3 fake -j rebalance --dry-run --policy $pol &&
		cp "$tmp/out" "$tmp/$pol.json"
	HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=$S3 fake rebalance --dry-run --policy $pol &&
		cp "$tmp/out" "$tmp/$pol.txt"
done
if python3 - "$tmp/sbn-cube.json" "$tmp/mcwa.json" 2>"$tmp/py" <<'PY' &&
import json, sys
s, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert s['stopped_short'] is True and max(s['loads_plan']) <= max(s['loads_before']) == 9, s
assert m['stopped_short'] is False and max(m['loads_plan']) == 8, m
PY
   grep -qx "stopped short: the policy's whole operation would have left a higher" "$tmp/sbn-cube.txt" &&
   ! grep -q 'stopped short' "$tmp/mcwa.txt"; then
	ok "rebalance: a plan the core stopped short says so (-j: stopped_short), a whole one does not"
else
	not_ok "rebalance: stopped short"
	sed 's/^/#   /' "$tmp/py" "$tmp/sbn-cube.txt" | tail -6
fi
fake rebalance --policy mcwa
if [ "$rc" -eq 0 ] && ! grep -q 'the list was cut' "$tmp/out"; then
	ok "rebalance: a whole transfer list says nothing of a cut"
else
	not_ok "rebalance: a whole transfer list (rc $rc)"
fi

fake rebalance --policy mcwa
if [ "$rc" -eq 0 ] && grep -q '^rebalance: policy mcwa, trigger admin$' "$tmp/out" &&
   grep -q '^balancing subcube X0X1, tree depth 2$' "$tmp/out" &&
   grep -q '^  step 3: 1001->0001 7 1011->0011 7$' "$tmp/out" &&
   grep -q '^  step 4: 0011->0001 11$' "$tmp/out" &&
   grep -q '^  0011: 20 -> 10 -> 10$' "$tmp/out" &&
   grep -q '^  pid 4242 (stuck) vertex 0000: Operation not permitted$' "$tmp/out" &&
   grep -q '^  pid 4343 (pinned) vertex 0001 changed cpus 0 (was 0-31)$' "$tmp/out"; then
	ok "rebalance: text report (paper's Table 5 transfers, failures, changed)"
else
	not_ok "rebalance: text report (rc $rc)"
fi
expect_ok "rebalance -j: applied report with failures and changed tasks" "
assert d['dry_run'] is False and d['loads_after'] == d['loads_plan']
assert d['failed'] == 1 and d['exited'] == 2 and d['evacuated'] == 0
assert d['failures'] == [{'pid': 4242, 'comm': 'stuck', 'vertex': 0, 'label': '0000',
                          'error': -1, 'error_str': 'Operation not permitted'}], d['failures']
assert d['changed'][0]['state'] == 'changed' and d['changed'][0]['orig_cpus'] == '0-31'
assert d['duration_ns'] == 123456
" -j rebalance

# ---- tasks ----
expect_ok "task add -j: the counts, and one object per task a pid names" "
assert (d['registered'], d['exited'], d['refused']) == (2, 0, 0), d
t = d['tasks']
assert [(x['pid'], x['tgid']) for x in t] == [(10, 10), (11, 11)]
assert [x['label'] for x in t] == ['0000', '0001'] and t[0]['state'] == 'active'
" -j task add 10 11
expect_ok "task add -j --vertex 0b0111: registered there, the named one listed" "
assert d['registered'] == 1 and [t['pid'] for t in d['tasks']] == [10], d
assert {t['vertex'] for t in d['tasks']} == {7}
" -j task add 10 --vertex 0b0111
fake task add 5 888888 6
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: task add: pid 888888: $(python3 -c 'import os; print(os.strerror(1))')" ] &&
   [ "$(grep -c '^registered pid [56] (worker) vertex' "$tmp/out")" -eq 2 ]; then
	ok "task add: a task the kernel refused: its pid, stderr, status 1; the others printed"
else
	not_ok "task add: a task the kernel refused (rc $rc)"
fi
fake -j task add 5 888888 6
if [ "$rc" -eq 1 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['refused'] == 1 and d['registered'] == 2, d
t = d['tasks']
assert [x['pid'] for x in t] == [5, 888888, 6], d
assert t[1] == {'pid': 888888, 'error': -1, 'error_str': 'Operation not permitted'}, t[1]
assert 'error' not in t[0] and t[2]['label'] == '0001'
" "$tmp/out"; then
	ok "task add -j: the refused task is an object with its error"
else
	not_ok "task add -j: the refused task (rc $rc)"
fi
expect_ok "task list -j: comm made valid UTF-8, state, cpus" "
assert [t['pid'] for t in d] == [100, 101, 200, 300]
assert d[1]['tgid'] == 100 and d[2]['state'] == 'changed'
assert d[2]['comm'] == 'bad???name', d[2]['comm']
assert d[3]['comm'] == 'caf\u00e9' and d[3]['orig_cpus'] == '' and d[3]['label'] == '1111'
" -j task list
fake task list
if [ "$rc" -eq 0 ] && [ "$(head -1 "$tmp/out")" = "PID  TGID  COMM        VERTEX  STATE    CPUS   ORIG CPUS" ] &&
   grep -q '^300   300  café        1111    active   30-31  -$' "$tmp/out"; then
	ok "task list: table (aligned by characters)"
else
	not_ok "task list: table"
fi
expect_ok "task del -j: {}" "assert d == {}" -j task del 10 11
expect_ok "task del --all -j: {}" "assert d == {}" -j task del --all

# ---- registration units (issue 12); the fake is a test double of them ----
# sent: what the fake logged of the last requests (HCUBE_FAKE_LOG)
sent() {
	grep -o 'pids.*' "$tmp/log" | tr '\n' ';'
}
unit_case() {	# NAME WANT_LOG PYTHON ARGS...: the request sent and the -j output
	local name=$1 want=$2 code=$3
	shift 3
	rm -f "$tmp/log"
	HCUBE_FAKE_LOG=$tmp/log expect_ok "$name" "$code" "$@"
	if [ "$(sent)" = "$want" ]; then
		ok "$name: sent $want"
	else
		not_ok "$name: sent '$(sent)', want '$want'"
	fi
}
JOB="[500, 501, 502]"
TREE="[500, 501, 502, 510, 530, 520, 521]"
unit_case "task add 500 (a job, the default): no HCUBE_A_UNIT (old modules work)" \
	"pids unit none;pids 500 unit none;" "
assert d['registered'] == 1, d
assert [t['pid'] for t in d['tasks']] == [500] and 'unit' not in d['tasks'][0], d
" -j task add 500
unit_case "task add 500 --tree: HCUBE_UNIT_TREE, the process and its descendants" \
	"pids unit none;pids 500 unit tree;" "
assert d['registered'] == len($TREE) and [t['pid'] for t in d['tasks']] == [500], d
assert {(t['origin'], t['unit']) for t in d['tasks']} == {('admin', 'job')}, d
" -j task add 500 --tree
unit_case "task add 501 --thread --vertex 0b0111: HCUBE_UNIT_THREAD, that thread" \
	"pids unit none;pids 501 unit thread;" "
assert d == {'registered': 1, 'exited': 0, 'refused': 0,
             'tasks': [{'pid': 501, 'tgid': 500, 'comm': 'job', 'vertex': 7, 'label': '0111',
                        'state': 'active', 'cpus': '14-15', 'orig_cpus': '0-31',
                        'origin': 'admin', 'unit': 'thread'}]}, d
" -j task add 501 --thread --vertex 0b0111
unit_case "task del 500 --tree -j: {}, HCUBE_UNIT_TREE" "pids 500 unit tree;" \
	"assert d == {}" -j task del 500 --tree
unit_case "task del 501 502 --thread -j: {}, HCUBE_UNIT_THREAD" "pids 501,502 unit thread;" \
	"assert d == {}" -j task del 501 502 --thread
unit_case "task del 500 -j: {}, no unit" "pids 500 unit none;" \
	"assert d == {}" -j task del 500
fake task add 500 --tree
if [ "$rc" -eq 0 ] && [ "$(grep -c '^registered pid 5[0-3][0-9] ' "$tmp/out")" -eq 1 ] &&
   grep -q '^registered pid 500 (job) vertex ' "$tmp/out" &&
   grep -q "^registered 7 tasks in all: 'hcubectl task list' lists them$" "$tmp/out"; then
	ok "task add --tree: a line for the named task, and the count"
else
	not_ok "task add --tree: text (rc $rc)"
fi

# --cgroup: a cgroup v2 hierarchy the fake mounts at $tmp/cg (mountinfo, statfs)
mkdir -p "$tmp/cg/jobs/a" "$tmp/cg/empty" "$tmp/cg/nocg" "$tmp/notcg"
printf '500\n600\n601\n' >"$tmp/cg/jobs/a/cgroup.procs"
: >"$tmp/cg/empty/cgroup.procs"
echo 1 >"$tmp/notcg/cgroup.procs"
seq 1000 1069 | mkdir -p "$tmp/cg/many" && seq 1000 1069 >"$tmp/cg/many/cgroup.procs"
export HCUBE_FAKE_CGROOT=$tmp/cg
unit_case "task add --cgroup jobs/a (relative to the cgroup2 mount): its pids, HCUBE_UNIT_TREE" \
	"pids unit none;pids 500,600,601 unit tree;" "
assert d['registered'] == len($TREE) + 2, d
assert [t['pid'] for t in d['tasks']] == [500, 600, 601], d
" -j task add --cgroup jobs/a
unit_case "task add --cgroup ABSOLUTE --vertex 3" \
	"pids unit none;pids 500,600,601 unit tree;" "
assert {t['vertex'] for t in d['tasks']} == {3} and d['registered'] == 9, d
" -j task add --cgroup "$tmp/cg/jobs/a" --vertex 3
rm -f "$tmp/log"
HCUBE_FAKE_GONE=600 HCUBE_FAKE_LOG=$tmp/log fake -j task add --cgroup /jobs/a
if [ "$rc" -eq 0 ] && [ "$(sent)" = "pids unit none;pids 500,600,601 unit tree;pids 500,601 unit tree;" ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: task add: --cgroup /jobs/a: 1 of its processes exited before the request; skipped" ] &&
   python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['registered'] == len($TREE) + 1 and [t['pid'] for t in d['tasks']] == [500, 601], d
" "$tmp/out"; then
	ok "task add --cgroup /jobs/a (as /proc/PID/cgroup says): a process gone (ESRCH) is dropped, the request sent again, the skip said"
else
	not_ok "task add --cgroup: a process gone (rc $rc, sent $(sent))"
fi
rm -f "$tmp/log"
HCUBE_FAKE_GONE=601,500 HCUBE_FAKE_LOG=$tmp/log fake -j task del --cgroup jobs/a
if [ "$rc" -eq 0 ] && [ "$(sent)" = "pids 500,600,601 unit tree;pids 600,601 unit tree;pids 600 unit tree;" ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: task del: --cgroup jobs/a: 2 of its processes were not registered or had exited; skipped" ] &&
   python3 -c "import json, sys; assert json.load(open(sys.argv[1])) == {}" "$tmp/out"; then
	ok "task del --cgroup: pids not registered (ENOENT) dropped one by one, the request sent again"
else
	not_ok "task del --cgroup: not registered (rc $rc, sent $(sent))"
fi
HCUBE_FAKE_GONE=500,600,601 expect_err "task add --cgroup: every process gone: the kernel's error for the last" \
	"hcubectl: task add: pid 601: $(python3 -c 'import os; print(os.strerror(3))'): HCUBE_A_PID: no such process in the caller's pid namespace" \
	task add --cgroup jobs/a
rm -f "$tmp/log"
HCUBE_FAKE_GONE=$(seq -s, 1000 1065) HCUBE_FAKE_LOG=$tmp/log fake task add --cgroup many
if [ "$rc" -eq 1 ] && [ "$(grep -c 'unit tree' "$tmp/log")" -eq 65 ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: task add: pid 1064: $(python3 -c 'import os; print(os.strerror(3))'): HCUBE_A_PID: no such process in the caller's pid namespace" ]; then
	ok "task add --cgroup: the retries are bounded (64 pids dropped, then the error)"
else
	not_ok "task add --cgroup: bounded retries (rc $rc, $(grep -c 'unit tree' "$tmp/log") requests)"
fi
expect_err "task add --cgroup: an empty cgroup" \
	"hcubectl: task add: --cgroup $tmp/cg/empty: the cgroup is empty (no process in cgroup.procs)" \
	task add --cgroup empty
expect_err "task del --cgroup: no cgroup.procs" \
	"hcubectl: task del: --cgroup $tmp/cg/nocg: no cgroup.procs in it" task del --cgroup nocg
expect_err "task add --cgroup: not a cgroup v2 directory" \
	"hcubectl: task add: --cgroup $tmp/notcg: not a cgroup v2 directory" -j task add --cgroup "$tmp/notcg"
expect_err "task add --cgroup: no such cgroup" \
	"hcubectl: task add: --cgroup $tmp/cg/nope: $(python3 -c 'import os; print(os.strerror(2))')" \
	task add --cgroup nope
unset HCUBE_FAKE_CGROOT

# task list: how each task was added, its unit and its creator
expect_ok "task list -j: origin, unit, creator null from a module without units" "
assert all((t['origin'], t['unit'], t['creator']) == (None, None, None) for t in d), d
" -j task list
HCUBE_FAKE_UNITS=1 expect_ok "task list -j: origin, unit, creator" "
assert [(t['pid'], t['origin'], t['unit'], t['creator']) for t in d] == [
    (100, 'admin', 'job', None), (101, 'thread', 'job', 100), (200, 'admin', 'thread', None),
    (300, 'fork', 'job', 100)], d
" -j task list
HCUBE_FAKE_UNITS=1 fake task list
if [ "$rc" -eq 0 ] &&
   [ "$(head -1 "$tmp/out")" = "PID  TGID  COMM        VERTEX  STATE    ORIGIN  UNIT    CREATOR  CPUS   ORIG CPUS" ] &&
   grep -q '^101   100  stress      0001    active   thread  job     100      2-3    0-31$' "$tmp/out" &&
   grep -q '^200   200  bad???name  0011    changed  admin   thread  -        5      0-31$' "$tmp/out"; then
	ok "task list: origin, unit and creator columns when the module reports them"
else
	not_ok "task list: units columns (rc $rc)"
fi

# ---- other commands ----
expect_ok "stats -j: every counter" "
keys = ['rebalances', 'auto_rebalances', 'dry_runs', 'migrations', 'moved',
        'failures', 'evacuations', 'exited', 'changed', 'registered',
        'unregistered', 'tasks', 'adopted', 'refused', 'released', 'events_lost',
        'revoked', 'mce_records', 'mce_marks', 'mce_outside', 'mce_offline',
        'mce_ignored', 'mce_refused', 'mce_memory', 'mce_bus', 'mce_shared_cache',
        'mce_firmware', 'mce_other']
assert list(d) == keys, list(d)
assert [d[k] for k in keys] == [1000 * i + 7 for i in range(2, 30)]
" -j stats
fake stats
if [ "$rc" -eq 0 ] && [ "$(sed -n '13,17p' "$tmp/out")" = "adopted          14007
refused          15007
released         16007
events_lost      17007
revoked          18007" ] && [ "$(tail -n 11 "$tmp/out")" = "mce_records      19007
mce_marks        20007
mce_outside      21007
mce_offline      22007
mce_ignored      23007
mce_refused      24007
mce_memory       25007
mce_bus          26007
mce_shared_cache 27007
mce_firmware     28007
mce_other        29007" ]; then
	ok "stats: the counters of new threads and children and of machine checks, as text"
else
	not_ok "stats: text (rc $rc)"
fi
expect_ok "config show -j" "
assert d == {'policy': 'dem', 'auto': True, 'threshold': 3, 'cooldown_ms': 250,
             'max_tasks': 4096, 'mce_ce_threshold': 0, 'mce_ce_window': 86400,
             'mce_uc': False}, d
" -j config show
expect_ok "config set -j: {}" "assert d == {}" -j config set policy cwa auto off threshold 9 cooldown 10
expect_ok "fault add -j: {}" "assert d == {}" -j fault add cpu 31
expect_ok "fault del vertex -j: {}" "assert d == {}" -j fault del vertex 0b1111
expect_ok "topology set -j: {}" "assert d == {}" -j topology set node
expect_ok "topology set custom -j: {}" "assert d == {}" -j topology set custom 0-3 4-7 8,10
expect_ok "topology set custom -j: one group (a 0-cube)" "assert d == {}" -j topology set custom 0-31

# ---- kernel errors: one line, the attribute named, the kernel's range ----
ERANGE_S=$(python3 -c 'import os; print(os.strerror(34))')
EINVAL_S=$(python3 -c 'import os; print(os.strerror(22))')
ENODEV_S=$(python3 -c 'import os; print(os.strerror(19))')
expect_err "fault add cpu: out of range" \
	"hcubectl: fault add: cpu 99: $ERANGE_S: integer out of range (valid range 0..39)" \
	fault add cpu 99
expect_err "fault del cpu: in range, not present" \
	"hcubectl: fault del: cpu 35: $ENODEV_S: HCUBE_A_CPU: the CPU is not present (see /sys/devices/system/cpu/present)" \
	fault del cpu 35
expect_err "fault add vertex: out of range for this cube, named" \
	"hcubectl: fault add: vertex 16: $ERANGE_S: HCUBE_A_VERTEX_ID: vertex id out of range for this cube (valid range 0..15)" \
	fault add vertex 16
expect_err "fault add vertex: out of the policy's range" \
	"hcubectl: fault add: vertex 0b10000000000: $ERANGE_S: integer out of range (valid range 0..1023)" \
	fault add vertex 0b10000000000
expect_err "task add --vertex: out of range for this cube" \
	"hcubectl: task add: vertex 99: $ERANGE_S: HCUBE_A_VERTEX_ID: vertex id out of range for this cube (valid range 0..15)" \
	task add 5 --vertex 99
expect_err "task add: the third pid of four named" \
	"hcubectl: task add: pid 999999: $(python3 -c 'import os; print(os.strerror(3))'): HCUBE_A_PID: no such process in the caller's pid namespace" \
	task add 5 6 999999 7
expect_err "task add: pid range" \
	"hcubectl: task add: pid 4194305: $ERANGE_S: integer out of range (valid range 1..4194304)" \
	-j task add 5 4194305
expect_err "task add --vertex: not healthy" \
	"hcubectl: task add: vertex 0b0101: $EINVAL_S: HCUBE_A_VERTEX_ID: the vertex is not healthy" \
	task add 5 --vertex 0b0101
expect_err "task del: not registered" \
	"hcubectl: task del: pid 999999: $(python3 -c 'import os; print(os.strerror(2))'): HCUBE_A_PID: the task is not registered" \
	task del 1 999999
expect_err "config set threshold: the kernel's range" \
	"hcubectl: config set: threshold 2000000: $ERANGE_S: integer out of range (valid range 0..1000000)" \
	config set threshold 2000000
expect_err "config set cooldown: the second key named" \
	"hcubectl: config set: cooldown 5: $ERANGE_S: integer out of range (valid range 10..3600000)" \
	config set policy dem cooldown 5
expect_err "topology set custom: the group named" \
	"hcubectl: topology set: group 2 ('3,8'): $EINVAL_S: HCUBE_A_GROUP: CPUs already in another group" \
	topology set custom 0-3 4-7 3,8
expect_err "topology set custom: CPUs not present" \
	"hcubectl: topology set: group 1 ('30-33'): $EINVAL_S: HCUBE_A_GROUP: CPUs that are not present" \
	topology set custom 0-3 30-33
expect_err "rebalance cwa on a faulty cube" \
	"hcubectl: rebalance: policy cwa: $EINVAL_S: HCUBE_A_REPORT_POLICY: cwa needs a fault-free cube (every vertex healthy); use mcwa" \
	-j rebalance --dry-run --policy cwa
HCUBE_FAKE_NOADMIN=1 expect_err "EPERM without CAP_NET_ADMIN" \
	"hcubectl: task del: $(python3 -c 'import os; print(os.strerror(1))') (this command needs CAP_NET_ADMIN)" \
	task del --all

# ---- monitor ----
expect_events() {	# NAME ARGS...
	local name=$1
	shift
	fake "$@"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && python3 - "$tmp/out" 2>"$tmp/py" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert [e['event'] for e in ev] == ['fault'] * 4 + ['topology', 'task', 'rebalance',
                                                  'controller', 'unknown'], ev
f = ev[0]
assert (f['what'], f['cpu'], f['vertex'], f['label'], f['state'], f['reason']) == \
       ('added', 3, 1, '0001', 'faulty', 'admin'), f
assert f['dim'] == 4 and f['healthy'] == 12 and f['balancing_subcube'] == 'X0X1'
assert ev[1] == {'event': 'fault', 'what': 'cleared', 'vertex': 15, 'label': '1111',
                 'state': 'healthy', 'reason': 'admin'}, ev[1]
assert [(e['what'], e['cpu'], e['vertex'], e['state'], e['reason']) for e in ev[2:4]] == \
       [('offline', 5, 2, 'offline', 'hotplug'), ('online', 5, 2, 'healthy', 'hotplug')]
assert ev[4]['dim'] == 4 and ev[4]['reason'] == 'hotplug'
assert ev[4]['balancing_subcube'] == 'X0X1'
assert ev[5]['pid'] == 777 and ev[5]['state'] == 'exited' and ev[5]['reason'] == 'exited'
r = ev[6]
assert r['trigger'] == 'auto' and r['dry_run'] is False and len(r['loads_before']) == 16
assert r['ntransfers'] == len(r['transfers']) > 0 and r['balancing_subcube'] == 'X0X1'
assert r['failures'][0]['pid'] == 4242 and r['changed'][0]['pid'] == 4343
assert r['applied'] == 'mcwa' and r['imbalance'] == 0 and isinstance(r['messages'], int)
assert r['contended'] is None
assert ev[7] == {'event': 'controller', 'cluster': 0, 'cluster_dim': 3, 'old': 1, 'new': 2,
                 'reason': 'admin', 'generation': 43}, ev[7]
assert ev[8] == {'event': 'unknown', 'cmd': 99}
PY
	then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
		sed 's/^/#   python: /' "$tmp/py" | tail -3
	fi
}
expect_events "monitor -j --count 9: one JSON object per line" -j monitor --count 9
expect_events "monitor -p --count 9: still one object per line" -p monitor --count 9
HCUBE_FAKE_UNITS=1 fake -j monitor --count 11
if [ "$rc" -eq 0 ] && python3 - "$tmp/out" 2>"$tmp/py" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])][-3:]
assert [(e['event'], e['pid'], e['reason'], e['creator']) for e in ev] == [
    ('task', 801, 'fork', 800), ('task', 802, 'thread', 801), ('task', 803, 'refused', 800)], ev
assert ev[0]['origin'] == 'fork' and ev[1]['origin'] == 'thread' and ev[1]['tgid'] == 801
assert 'origin' not in ev[2] and 'vertex' not in ev[2] and ev[2]['cpus'] == '0-31'
PY
then
	ok "monitor -j: a new child, a new thread and a refused one, with their creator"
else
	not_ok "monitor -j: fork, thread, refused (rc $rc)"
	sed 's/^/#   python: /' "$tmp/py" | tail -3
fi
HCUBE_FAKE_UNITS=1 fake monitor --count 11
if [ "$rc" -eq 0 ] && [ "$(tail -n 3 "$tmp/out")" = "task: pid 801 (worker) vertex 0001 active cpus 2-3 (was 0-31) (fork, creator 800)
task: pid 802 (worker) tgid 801 vertex 0001 active cpus 2-3 (was 0-31) (thread, creator 801)
task: pid 803 (worker) cpus 0-31 (refused, creator 800)" ]; then
	ok "monitor: fork, thread and refused with the creator's pid, as text"
else
	not_ok "monitor: fork, thread, refused as text (rc $rc)"
fi
fake monitor --count 4
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "fault: added cpu 3, vertex 0001, now faulty (admin); mode llc, \
4-cube, 12 of 16 vertices healthy, 12 attached, 4 tasks, balancing subcube X0X1, tree depth 2, generation 42
fault: cleared vertex 1111, now healthy (admin)
fault: offline cpu 5, vertex 0010, now offline (hotplug); mode llc, 4-cube, 12 of 16 vertices \
healthy, 12 attached, 4 tasks, balancing subcube X0X1, tree depth 2, generation 42
fault: online cpu 5, vertex 0010, now healthy (hotplug); mode llc, 4-cube, 12 of 16 vertices \
healthy, 12 attached, 4 tasks, balancing subcube X0X1, tree depth 2, generation 42" ]; then
	ok "monitor --count 4: text lines"
else
	not_ok "monitor --count 4: text lines (rc $rc)"
fi
fake monitor --count 8
if [ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "controller: cluster 0 0001 -> 0010 (admin)" ] &&
   grep -q "^rebalance policy mcwa trigger auto C_b X0X1 .* imbalance 0 " "$tmp/out" &&
   ! grep -q "stopped-short" "$tmp/out"; then
	ok "monitor: a controller change and a rebalance's imbalance, as text"
else
	not_ok "monitor: controller and rebalance text (rc $rc)"
	tail -n 2 "$tmp/out" | sed 's/^/#   /'
fi
# the event of a rebalance the core stopped short says so, in -j and in text
for j in -j ""; do
	# shellcheck disable=SC2086
	HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= HCUBE_FAKE_LOADS=0,9,9,9,9,9,9,9 \
	HCUBE_FAKE_EVENT_POLICY=sbn-cube fake $j monitor --count 7
	cp "$tmp/out" "$tmp/mon$j"
done
if [ "$rc" -eq 0 ] && grep -q '^rebalance policy sbn-cube trigger auto .* stopped-short duration ' "$tmp/mon" &&
   python3 -c "
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][6]
assert r['event'] == 'rebalance' and r['policy'] == 'sbn-cube' and r['stopped_short'] is True, r
" "$tmp/mon-j"; then
	ok "monitor: a rebalance the core stopped short says so (-j: stopped_short)"
else
	not_ok "monitor: stopped short (rc $rc)"
	grep '^rebalance' "$tmp/mon" | sed 's/^/#   /'
fi
HCUBE_FAKE_UNLOAD=1 fake monitor --count 100 -j
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 9 ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: monitor: the hcube module was unloaded" ]; then
	ok "monitor: the events, then the module unloaded: status 1 (-j after the command)"
else
	not_ok "monitor: the module unloaded (rc $rc)"
fi
# shellcheck source=signal_round.sh
. "$(dirname "$0")/signal_round.sh"
out_lines() { wc -l <"$tmp/out"; }
for sig in TERM INT; do
	# signalled once it is waiting: after its 9 events
	signal_round "$sig" 9 out_lines "monitor: SIG$sig ends it with status 0, output flushed" \
		env LD_PRELOAD="$FAKE" "$BIN" -j monitor
done

tap_end
