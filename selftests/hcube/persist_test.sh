#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The persistent set-up against the real module, inside the test VM
# (issue 15 item 4): hcubectl apply makes the module's mode, settings and
# fault marks those of a configuration file, a second apply changes
# nothing, a bad file changes nothing; after rmmod and insmod the state is
# gone, and the command of hcube.service (its ExecStart line, taken from
# tools/hcubectl/systemd/hcube.service.in with this build's paths: the VM
# has no systemd) brings it back. Also: mode custom, a refusal of the kernel
# midway (a topology while a task is registered), and -batch stopping at
# its failing line. The state is read with hcubectl -j show and -j config
# show. It reloads the module, so it needs HCUBE_KO (else it is skipped);
# at exit the module is loaded, fresh, if it was at the start, else not.
# Prints TAP.
#
# Usage: persist_test.sh [DIR]   (DIR/hcubectl: default, beside this file)

set -u
B=${1:-$(dirname "$0")}
HC=$B/hcubectl
# shellcheck source=hcube_module.sh
. "$(dirname "$0")/hcube_module.sh"
if [ -z "${HCUBE_KO-}" ]; then
	printf 'TAP version 13\n1..0 # SKIP it reloads the module: HCUBE_KO is not set\n'
	exit 4
fi
hcube_module_need
KO=$HCUBE_KO
tmp=$(mktemp -d)
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
TAP_OUT=$tmp/out
TAP_ERR=$tmp/err
sleeper=

cleanup() {
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	"$HC" task del --all >/dev/null 2>&1
	rmmod hcube 2>/dev/null
	[ "$hcube_module_was" = 0 ] || insmod "$KO" || echo "# could not load $KO again"
	rm -rf "$tmp"
}
trap cleanup EXIT

run() {
	tap_run "$HC" "$@"
}

# shellcheck source=../lib/hcube_state.sh
. "$(dirname "$0")/hcube_state.sh"
STATE_CMD=("$HC")
STATE_GROUPS=1

reload() {
	"$HC" task del --all >/dev/null 2>&1
	rmmod hcube && insmod "$KO"
}

echo "TAP version 13"
[ -x "$HC" ] || { echo "Bail out! no $HC"; exit 1; }
[ -e /sys/module/hcube ] || { echo "Bail out! the module is not loaded"; exit 1; }
ncpu=$(nproc --all)
[ "$ncpu" -ge 8 ] || { echo "1..0 # SKIP needs 8 CPUs, has $ncpu"; exit 4; }
reload || { echo "Bail out! cannot reload the module"; exit 1; }
fresh=$(state)
echo "# fresh module: $fresh"

# The command of hcube.service, with this build's hcubectl and a
# configuration directory of the test's.
mkdir -p "$tmp/etc/hcube"
conf=$tmp/etc/hcube/hcube.conf
unit_cmd=$(sed -n 's/^ExecStart=//p' "$(dirname "$0")/hcube.service.in" |
	sed -e "s|@SBINDIR@|$B|g" -e "s|@SYSCONFDIR@|$tmp/etc|g")
echo "# the unit's command: $unit_cmd"
cat >"$conf" <<'EOF'
# the VM test's configuration
mode cpu
policy dem
auto on
threshold 2
cooldown 1500
fault cpu 5
fault cpu 6
fault vertex 0b011
EOF
# mode cpu: a vertex a CPU, in CPU order
WANT="mode=cpu groups=$(seq -s/ 0 $((ncpu - 1))) cpus=5,6 marked=3 policy=dem auto=True threshold=2 cooldown=1500"

run -j apply "$conf"
if [ "$rc" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = [(x['key'], x['action'], x['cpu'], x['vertex'], x['line'], x['status']) for x in d['changes']]
want = [('policy', 'set', None, None, 3, 'applied'), ('auto', 'set', None, None, 4, 'applied'),
        ('threshold', 'set', None, None, 5, 'applied'), ('cooldown', 'set', None, None, 6, 'applied'),
        ('fault', 'add', 5, None, 7, 'applied'), ('fault', 'add', 6, None, 8, 'applied'),
        ('fault', 'add', None, 3, 9, 'applied')]
if d['changes'][0]['key'] == 'mode':
    assert d['changes'][0]['new'] == 'cpu' and d['changes'][0]['line'] == 2
    k = k[1:]
assert k == want, k
assert d['applied'] == d['total'] == len(d['changes'])
" "$tmp/out" 2>"$tmp/py"; then
	ok "apply: each change applied, with its line"
else
	TAP_SHOW="python:$tmp/py" not_ok "apply (rc $rc)"
fi
check_state "after apply" "$WANT"
run apply "$conf"
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$conf: nothing to change" ] && [ ! -s "$tmp/err" ]; then
	ok "apply again: nothing to change"
else
	not_ok "apply again (rc $rc)"
fi

printf 'policy dem\nthreshold 2000000\nfault cpu 6\nfault cpu %s\n' "$ncpu" >"$tmp/bad.conf"
run apply "$tmp/bad.conf"
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] &&
   grep -qx "hcubectl: apply: $tmp/bad.conf:2: threshold: '2000000' is out of range (valid range 0..1000000)" "$tmp/err" &&
   [ "$(tail -1 "$tmp/err")" = "hcubectl: apply: $tmp/bad.conf: 1 bad line; nothing changed" ]; then
	ok "a bad line: named, nothing applied"
else
	not_ok "a bad line (rc $rc)"
fi
printf 'policy mcwa\nfault cpu 6\nfault cpu %s\n' "$ncpu" >"$tmp/bad.conf"
run apply "$tmp/bad.conf"
if [ "$rc" -eq 2 ] && grep -qx "hcubectl: apply: $tmp/bad.conf:3: fault cpu $ncpu: CPU $ncpu is in no vertex of the cube (its CPUs: 0-$((ncpu - 1)))" "$tmp/err"; then
	ok "a CPU the cube does not have: named, nothing applied"
else
	not_ok "a CPU the cube does not have (rc $rc)"
fi
check_state "the bad files changed nothing" "$WANT"

# ---- reload: the state is gone, the unit's command brings it back ----
reload
check_state "after rmmod and insmod: the fresh module" "$fresh"
# shellcheck disable=SC2086  # the unit's command line, split as systemd does
tap_run $unit_cmd
if [ "$rc" -eq 0 ] && grep -q "changes made$" "$tmp/out"; then
	ok "the unit's command after the reload: $(tail -1 "$tmp/out")"
else
	not_ok "the unit's command after the reload (rc $rc)"
fi
check_state "restored" "$WANT"
# shellcheck disable=SC2086
tap_run $unit_cmd
if [ "$rc" -eq 0 ] && grep -q "nothing to change$" "$tmp/out"; then
	ok "the unit's command once more: nothing to change"
else
	not_ok "the unit's command once more (rc $rc)"
fi

# ---- custom groups ----
printf 'mode custom 0-1 2,3 4-5 6-7\nfault cpu 5\n' >"$tmp/custom.conf"
run apply "$tmp/custom.conf"
check_state "mode custom: 4 groups, the marks of the old vertices gone" \
	"mode=custom groups=0-1/2-3/4-5/6-7 cpus=5 marked= policy=dem auto=True threshold=2 cooldown=1500"
run apply "$tmp/custom.conf"
if [ "$rc" -eq 0 ] && grep -q "nothing to change$" "$tmp/out"; then
	ok "mode custom again: nothing to change (2,3 is 2-3)"
else
	not_ok "mode custom again (rc $rc)"
fi

# ---- the kernel refuses midway: a topology while a task is registered ----
sleep 1000 &
sleeper=$!
"$HC" task add "$sleeper" >/dev/null
run -j apply "$conf"
if [ "$rc" -eq 1 ] &&
   grep -q "^hcubectl: apply: $conf:2: topology set: mode cpu: Device or resource busy: HCUBE_A_MODE: tasks are registered" "$tmp/err" &&
   python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
st = [x['status'] for x in d['changes']]
assert d['changes'][0]['key'] == 'mode' and st[0] == 'failed', st
assert set(st[1:]) == {'skipped'} and d['applied'] == 0, st
" "$tmp/out" 2>"$tmp/py"; then
	ok "a topology while a task is registered: EBUSY at line 2, nothing else tried"
else
	TAP_SHOW="python:$tmp/py" not_ok "a topology while a task is registered (rc $rc)"
fi
check_state "unchanged by the refused apply" \
	"mode=custom groups=0-1/2-3/4-5/6-7 cpus=5 marked= policy=dem auto=True threshold=2 cooldown=1500"
"$HC" task del --all
kill "$sleeper"
wait "$sleeper" 2>/dev/null
sleeper=

# ---- -batch ----
printf '# set-up\nfault add cpu 1\nfault add cpu 1\nfault add cpu 2\n' >"$tmp/batch"
run -batch "$tmp/batch"
if [ "$rc" -eq 1 ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: $tmp/batch:3: fault add: cpu 1: File exists: HCUBE_A_CPU: the CPU is already marked faulty" ]; then
	ok "-batch: stops at line 3 with the kernel's error"
else
	not_ok "-batch (rc $rc)"
fi
check_state "-batch: line 2 ran, line 4 did not" \
	"mode=custom groups=0-1/2-3/4-5/6-7 cpus=1,5 marked= policy=dem auto=True threshold=2 cooldown=1500"

# back to the file's state, the way the unit does it
# shellcheck disable=SC2086
tap_run $unit_cmd
cp "$tmp/out" "$tmp/report"
check_state "the unit's command undoes the by-hand changes" "$WANT"
sed 's/^/# /' "$tmp/report"
tap_end
