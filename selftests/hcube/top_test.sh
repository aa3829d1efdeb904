#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl top in a real terminal against the real module, inside the test
# VM: top runs in a detached tmux pane (120x40) and the test reads the
# screen with capture-pane. It registers sleep processes on two vertices
# and checks the screen's rows against what it registered (and against
# /proc/PID/status); then it marks the CPU of one of them faulty and waits
# for the screen to change by itself (top runs with -d 3600: only an event
# can redraw it): the vertex faulty with no load, its tasks on other
# vertices (where /proc says they are), the rebalance's trigger "fault".
# q must end top with status 0. Last, top as an unprivileged user: the
# module refuses it the events group, and the status line says so.
#
# Run as root, one of the kselftests of selftests/hcube (the module from
# HCUBE_KO, or loaded already). It needs no task registered;
# it sets mode cpu and auto off, and at exit (even on failure) unregisters
# its tasks, clears its fault, and puts back the mode and the configuration
# it found. Prints TAP; exits 1 if a check failed.
#
# Usage: top_test.sh [DIR]   (DIR/hcubectl: default, beside this file)

set -u
B=${1:-$(dirname "$0")}
HC=$(readlink -f "$B/hcubectl")
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=hcube_module.sh
. "$(dirname "$0")/hcube_module.sh"
hcube_module_need
tap_tmpdir
TAP_SHOW_TAIL="python:$tmp/py"
export T=$tmp TMUX_TMPDIR=$tmp
# the VM runs commands with TERM=dumb; tmux's client wants a real one
[ "${TERM:-dumb}" = dumb ] && export TERM=xterm
TM=(tmux -L hcube-top-test -f /dev/null)
kids=()
fault_cpu=
mode0=
SECONDS=0

# hc ARGS...: hcubectl, stdout in $tmp/out, stderr in $tmp/err, status in rc
hc() {
	tap_run "$HC" "$@"
}

# check NAME: the python code on stdin passes; its traceback in $tmp/py
check() {
	if python3 - 2>"$tmp/py"; then
		ok "$1"
	else
		not_ok "$1"
	fi
}

# screen: the pane's lines, trailing blanks cut, in $tmp/screen
screen() {
	"${TM[@]}" capture-pane -p -t top 2>/dev/null | sed 's/ *$//' >"$tmp/screen"
}

# wait_for SECONDS PYTHON: until the python condition on the screen's rows
# holds (rows(): {label: row}, lines: the screen), at most SECONDS
wait_for() {
	local end=$((SECONDS + $1))
	while [ "$SECONDS" -le "$end" ]; do
		screen
		python3 - "$2" <<'PY' 2>"$tmp/py" && return 0
import os, re, sys
sys.path.insert(0, os.environ["T"])
from rows import rows, lines
assert eval("(" + sys.argv[1] + ")"), "not yet"
PY
		sleep 0.5
	done
	return 1
}

cleanup() {
	[ "${cleaned-}" = 1 ] && return
	cleaned=1
	"${TM[@]}" kill-server 2>/dev/null
	"$HC" task del --all >/dev/null 2>&1
	[ -n "$fault_cpu" ] && "$HC" fault del cpu "$fault_cpu" >/dev/null 2>&1
	[ -n "$mode0" ] && "$HC" topology set "$mode0" >/dev/null 2>&1
	# shellcheck disable=SC2046  # the words of the line: key value ...
	[ -s "$tmp/config0" ] && "$HC" config set $(cat "$tmp/config0") >/dev/null 2>&1
	if [ ${#kids[@]} -gt 0 ]; then
		kill "${kids[@]}" 2>/dev/null
		wait "${kids[@]}" 2>/dev/null
	fi
}
trap 'cleanup; [ "$BASHPID" = "$tap_pid" ] && { hcube_module_restore; rm -rf "$tmp"; }' EXIT
trap 'exit 1' INT TERM

# The screen's rows: a VERTEX line, then "LABEL ID STATE CPUS USABLE LOAD
# [BAR] C_B PARENT DIST [NOTES]" until a blank line.
cat >"$tmp/rows.py" <<'PY'
import os, re
lines = open(os.environ["T"] + "/screen").read().split("\n")


def rows():
    out = {}
    try:
        hi = next(i for i, l in enumerate(lines) if l.startswith("VERTEX "))
    except StopIteration:
        return out
    b0, b1 = lines[hi].index("LOAD BAR"), lines[hi].index("C_B")
    for l in lines[hi + 1:]:
        if not re.match(r"[01]+ ", l):
            break
        f = (l[:b0] + " " + l[b1:]).split()
        out[f[0]] = dict(id=int(f[1]), state=f[2], cpus=f[3], usable=f[4], load=int(f[5]),
                         bar=l[b0:b1].rstrip(), cb=f[6] == "yes", notes=" ".join(f[9:]))
    return out
PY

echo "TAP version 13"
if ! command -v tmux >/dev/null; then
	skip "top in a terminal" "tmux is not installed"
	tap_end
	exit
fi

# ---- the cube as the test wants it: mode cpu, auto off, no task ----
hc -j show
cp "$tmp/out" "$tmp/show0.json"
hc -j config show
cp "$tmp/out" "$tmp/config.json"
if ! python3 - >"$tmp/setup" 2>"$tmp/py" <<'PY'
import json, os
s = json.load(open(os.environ["T"] + "/show0.json"))
c = json.load(open(os.environ["T"] + "/config.json"))
assert s["ntasks"] == 0, "tasks are registered: this test needs none"
print(s["mode"])
print("policy", c["policy"], "auto", "on" if c["auto"] else "off",
      "threshold", c["threshold"], "cooldown", c["cooldown_ms"])
PY
then
	echo "Bail out! the cube is not as this test needs it: $(tail -n 1 "$tmp/py")"
	exit 1
fi
mode0=$(sed -n 1p "$tmp/setup")
sed -n 2p "$tmp/setup" >"$tmp/config0"
hc topology set cpu
rc1=$rc
hc config set auto off policy mcwa
if [ "$rc1" -eq 0 ] && [ "$rc" -eq 0 ]; then
	ok "setup: mode cpu (was $mode0), auto off, policy mcwa"
else
	not_ok "setup: mode cpu, auto off"
	exit 1
fi
hc -j show
cp "$tmp/out" "$tmp/show1.json"

# Two vertices get tasks: A (6 sleeps) and B (2); the CPU of A will fail.
python3 - >"$tmp/ab" 2>"$tmp/py" <<'PY'
import json, os
s = json.load(open(os.environ["T"] + "/show1.json"))
v = [x for x in s["vertices"] if x["state"] == "healthy"]
assert len(v) >= 4, "needs 4 healthy vertices"
a, b = v[1], v[-1]
print(a["id"], a["label"], a["cpus"], b["id"], b["label"], b["cpus"], s["dim"])
PY
read -r A LA CA B LB CB DIM <"$tmp/ab"
export A LA CA B LB CB DIM
for _ in $(seq 8); do
	sleep 1000 &
	kids+=($!)
done
hc task add "${kids[@]:0:6}" --vertex "$A"
rc1=$rc
hc task add "${kids[@]:6:2}" --vertex "$B"
if [ "$rc1" -eq 0 ] && [ "$rc" -eq 0 ]; then
	ok "6 tasks on vertex $LA (cpu $CA), 2 on $LB (cpu $CB)"
else
	not_ok "registering the tasks"
fi
export PIDS="${kids[*]}"

# ---- top in a 120x40 pane; only events redraw it (-d 3600) ----
"${TM[@]}" new-session -d -s top -x 120 -y 40 \
	"$HC top -d 3600; echo EXIT=\$?; sleep 3600"
"${TM[@]}" set-option -g status off >/dev/null
if wait_for 60 'rows().get(os.environ["LA"], {}).get("load") == 6'; then
	ok "top shows the vertices ($((SECONDS)) s)"
else
	not_ok "top shows no vertex with load 6 after 60 s"
	head -n 20 "$tmp/screen" | sed 's/^/#   /'
fi
check "top: each vertex's state, CPUs and the loads the test registered" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["T"])
from rows import rows, lines
r = rows()
s = json.load(open(os.environ["T"] + "/show1.json"))
want = {v["label"]: v for v in s["vertices"] if v["state"] != "absent"}
assert set(r) == set(want), (sorted(r), sorted(want))
la, lb = os.environ["LA"], os.environ["LB"]
for l, v in want.items():
    assert r[l]["state"] == "healthy" and r[l]["cpus"] == v["cpus"], (l, r[l], v)
    assert r[l]["load"] == {la: 6, lb: 2}.get(l, 0), (l, r[l])
# the bars: 6 fills it; 2 is a third of it, rounded half up
w = r[la]["bar"].count("#")
assert 10 <= w <= 50 and r[lb]["bar"].count("#") == (2 * 2 * w + 6) // 12, (w, r[lb])
assert all(r[l]["bar"].count("#") == 0 for l in r if l not in (la, lb))
# what the kernel says: the tasks run on their vertex's CPU
pids = [int(p) for p in os.environ["PIDS"].split()]
for k, p in enumerate(pids):
    st = open("/proc/%d/status" % p).read()
    cpus = [x.split()[1] for x in st.splitlines() if x.startswith("Cpus_allowed_list")][0]
    assert cpus == (os.environ["CA"] if k < 6 else os.environ["CB"]), (p, cpus)
st = [l for l in lines if l.strip()][-1]
assert st.startswith("q quit, r refresh") and "updates: on events and every 3600 s" in st, st
PY

# ---- a fault: the screen changes by itself ----
fault_cpu=$CA
hc fault add cpu "$CA"
if [ "$rc" -eq 0 ]; then
	ok "fault add cpu $CA (vertex $LA)"
else
	not_ok "fault add cpu $CA"
fi
if wait_for 60 'rows().get(os.environ["LA"], {}).get("state") == "faulty" and
    rows()[os.environ["LA"]]["load"] == 0 and
    any(l.startswith("last rebalance ") and "trigger fault" in l for l in lines)'; then
	ok "top redrew on the events: vertex $LA faulty, load 0, a rebalance by the fault ($((SECONDS)) s)"
else
	not_ok "top did not show vertex $LA faulty after 60 s"
	grep -E "^($LA|last) " "$tmp/screen" | sed 's/^/#   /'
fi
check "top after the fault: the 8 tasks on the healthy vertices, where /proc has them" <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["T"])
from rows import rows, lines
r = rows()
la, ca = os.environ["LA"], os.environ["CA"]
assert r[la]["usable"] == "-" and r[la]["bar"] == "", r[la]
assert "faulty cpus %s" % ca in r[la]["notes"], r[la]
assert sum(x["load"] for x in r.values()) == 8, {l: x["load"] for l, x in r.items()}
# each task's vertex: the one whose CPUs are its affinity; count them
by_cpus = {x["cpus"]: l for l, x in r.items()}
count = {}
for p in os.environ["PIDS"].split():
    st = open("/proc/%s/status" % p).read()
    cpus = [x.split()[1] for x in st.splitlines() if x.startswith("Cpus_allowed_list")][0]
    assert cpus != ca and cpus in by_cpus, (p, cpus)
    count[by_cpus[cpus]] = count.get(by_cpus[cpus], 0) + 1
assert count == {l: x["load"] for l, x in r.items() if x["load"]}, (count, r)
ev = [l for l in lines if l.startswith("last event ")]
assert ev, lines
PY

"${TM[@]}" send-keys -t top q
if wait_for 30 'any(l == "EXIT=0" for l in lines) and not rows()'; then
	ok "q: top exits with status 0, the screen is restored"
else
	not_ok "q: no EXIT=0 after 30 s"
	grep -v '^$' "$tmp/screen" | tail -n 5 | sed 's/^/#   /'
fi
pane=$("${TM[@]}" display-message -p -t top '#{pane_pid}')
if [ -n "$pane" ] && ! pgrep -P "$pane" -x hcubectl >/dev/null; then
	ok "q: no hcubectl left under the pane"
else
	not_ok "q: hcubectl still runs under the pane ($pane)"
fi
"${TM[@]}" kill-server 2>/dev/null

# ---- without CAP_NET_ADMIN: the module refuses the events group ----
if command -v setpriv >/dev/null; then
	tap_run setpriv --reuid=65534 --regid=65534 --clear-groups "$HC" top -n 2 -d 0.5
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] &&
	   [ "$(grep -c '^hcubectl top - ' "$tmp/out")" -eq 2 ] &&
	   grep -qx 'updates: every 0.5 s; no events: joining the group "events" needs CAP_NET_ADMIN' \
		"$tmp/out" && grep -qx 'last rebalance: not known without the events' "$tmp/out"; then
		ok "top as uid 65534: two frames by the periodic refresh; the status line says why"
	else
		not_ok "top as uid 65534 (rc $rc)"
	fi
else
	skip "top as uid 65534" "no setpriv"
fi

cleanup
hc -j show
check "cleanup: the mode found, nothing faulty, no task" <<'PY'
import json, os
s0 = json.load(open(os.environ["T"] + "/show0.json"))
s = json.load(open(os.environ["T"] + "/out"))
assert s["mode"] == s0["mode"] and s["ntasks"] == 0, s
assert not any(v["marked"] or v["faulty_cpus"] for v in s["vertices"])
PY
echo "# top_test: ${SECONDS}s"
tap_end
