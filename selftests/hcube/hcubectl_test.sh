#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl against the real hcube module, as a kselftest (run_kselftest.sh
# runs it as root from its installed directory; the module loaded, or
# HCUBE_KO: hcube_module.sh). Every command is driven and its
# -j output parsed back with python3, then checked against what hcubectl does
# not say: /proc/PID/status Cpus_allowed_list, /sys/devices/system/{cpu,node},
# nproc, hcube-sim's plans, the kernel's own ranges. Prints TAP; exits 1 if a
# check failed.
#
# It takes the cube as it finds it (earlier tests may leave it in cpu mode),
# checks it, then sets the default mode (node with 2+ NUMA nodes, else cpu).
# At exit, even on failure, the module is left clean: tasks unregistered,
# every fault cleared, the default topology, the configuration it found; the
# test's processes are killed. It takes 10-20 s in the TCG VMs (an exec costs
# ~0.1 s there, python3's start ~0.4 s: one python3 process does all checks).
#
# Usage: hcubectl_test.sh [DIR]   (default: the script's directory, where
#        kselftest installs hcubectl and hcube-sim)
#
# shellcheck disable=SC2034  # variables reach the python checks through $VARS

set -u
B=${1:-$(dirname "$0")}
HC=$B/hcubectl
SIM=$B/hcube-sim
tmp=$(mktemp -d)
export HT=$tmp
main_pid=$$
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=hcube_module.sh
. "$(dirname "$0")/hcube_module.sh"
TAP_OUT=$tmp/out
TAP_ERR=$tmp/err
TAP_SHOW_TAIL="python:$tmp/py"
TAP_LINES=4
children=()		# the test's processes (sleep, monitor)
marked_cpus=()		# CPUs this script marked faulty, to clear at exit
marked_vertices=()
default_mode=
cleaned=0
SECONDS=0

# hc ARGS...: hcubectl; stdout in $tmp/out, stderr in $tmp/err, status in
# rc. (No timeout of its own: every exec costs ~0.1 s in a TCG VM, and
# settings gives the whole script its timeout.)
hc() {
	: >"$tmp/py"
	"$HC" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# The shell variables the python checks see as E["NAME"].
VARS="D NV NH VF CF NF VV KM VM CM G0 G1 NDRY NPROC MON POL"

# py CODE: run CODE in the python checker (lib.py, one process for the whole
# test: python starts slowly in a TCG VM), with d = the last stdout parsed;
# its output (or traceback) in $tmp/py. Status 0 if CODE passed.
py() {
	local v status cnt lines=()
	for v in $VARS; do
		lines+=("E[\"$v\"] = \"${!v-}\"")
	done
	mapfile -t -O ${#lines[@]} lines <<<"$1"
	if ! { printf '%s\n' "${#lines[@]}" "${lines[@]}" 1>&"${PYS[1]}"; } 2>/dev/null ||
	   ! read -r status cnt <&"${PYS[0]}"; then
		echo "the python checker is gone" >"$tmp/py"
		return 1
	fi
	: >"$tmp/py"
	while [ "$cnt" -gt 0 ] && IFS= read -r v <&"${PYS[0]}"; do
		printf '%s\n' "$v" >>"$tmp/py"
		cnt=$((cnt - 1))
	done
	return "$status"
}

# expect_ok NAME CODE ARGS...: hcubectl ARGS exits 0, says nothing on stderr,
# and CODE passes
expect_ok() {
	local name=$1 code=$2
	shift 2
	hc "$@"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && py "$code"; then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
	fi
}

# check NAME CODE: CODE passes (no hcubectl run; the saved outputs, /proc...)
check() {
	: >"$tmp/err"
	: >"$tmp/out"
	if py "$2"; then
		ok "$1"
	else
		not_ok "$1"
	fi
}

# expect_err NAME REGEX ARGS...: hcubectl ARGS exits 1, prints nothing on
# stdout and one line on stderr that matches REGEX (grep -E)
expect_err() {
	local name=$1 re=$2
	shift 2
	local -a lines=()
	hc "$@"
	mapfile -t lines <"$tmp/err"
	if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ ${#lines[@]} -eq 1 ] &&
	   [[ ${lines[0]} =~ $re ]]; then
		ok "$name"
	else
		not_ok "$name (rc $rc, want /$re/)"
	fi
}

# save NAME: keep the last stdout as $tmp/NAME.json (J("NAME") in python)
save() {
	py "shutil.copyfile(os.path.join(T, 'out'), os.path.join(T, '$1.json'))"
}

# getv "NAME..." EXPR: set the shell variables NAME... to the value of a
# python expression (a tuple's items, in order; the checker's context)
getv() {
	local -a _vals=()
	py "_v = ($2)
print(*(_v if isinstance(_v, tuple) else (_v,)))" && read -r -a _vals <"$tmp/py"
	local _i=0 _name
	for _name in $1; do
		printf -v "$_name" '%s' "${_vals[_i]-}"
		_i=$((_i + 1))
	done
}

rm_from() {	# NAME VALUE: remove VALUE from the array NAME
	local -n arr=$1
	local i
	for i in "${!arr[@]}"; do
		[ "${arr[$i]}" = "$2" ] && unset 'arr[i]'
	done
	arr=("${arr[@]}")
}

# Give the module back as it was found; kill the test's processes.
cleanup() {
	local c v
	[ "$cleaned" = 1 ] && return
	cleaned=1
	local fcpus=() fvertices=() conf=()
	"$HC" task del --all >/dev/null 2>&1
	# The faults this script marked, and any other show reports (the cube
	# had none: a check says so).
	"$HC" -j show >"$tmp/final.json" 2>/dev/null
	py '_f = J("final")["vertices"]
print(" ".join(str(c) for v in _f for c in sorted(cpus(v["faulty_cpus"]))))
print(" ".join(str(v["id"]) for v in _f if v["marked"]))' &&
		{ read -r -a fcpus; read -r -a fvertices; } <"$tmp/py"
	for c in "${marked_cpus[@]}" "${fcpus[@]}"; do
		"$HC" fault del cpu "$c" >/dev/null 2>&1
	done
	for v in "${marked_vertices[@]}" "${fvertices[@]}"; do
		"$HC" fault del vertex "$v" >/dev/null 2>&1
	done
	marked_cpus=()
	marked_vertices=()
	[ -n "$default_mode" ] && "$HC" topology set "$default_mode" >/dev/null 2>&1
	if [ -s "$tmp/config0.json" ] && py '_c = J("config0")
print("policy", _c["policy"], "auto", "on" if _c["auto"] else "off", "threshold",
      _c["threshold"], "cooldown", _c["cooldown_ms"])'; then
		read -r -a conf <"$tmp/py"
		"$HC" config set "${conf[@]}" >/dev/null 2>&1
	fi
	if [ ${#children[@]} -gt 0 ]; then
		kill "${children[@]}" 2>/dev/null
		wait "${children[@]}" 2>/dev/null
	fi
}

# shellcheck disable=SC2317  # (called from a trap)
stop_checker() {
	if [ -n "${PYS_PID-}" ]; then
		kill "$PYS_PID" 2>/dev/null
		wait "$PYS_PID" 2>/dev/null
	fi
}

# shellcheck disable=SC2317  # (a trap)
on_exit() {
	[ "$BASHPID" = "$main_pid" ] || return
	cleanup
	stop_checker
	rm -rf "$tmp"
	hcube_module_restore || exit 1
}
hcube_module_need
trap on_exit EXIT
trap 'exit 1' INT TERM

echo "TAP version 13"
tap_need_exec "$HC" "$SIM"
command -v python3 >/dev/null || tap_bail "no python3"

# What the checks know besides hcubectl's output.
cat >"$tmp/lib.py" <<'PY'
import contextlib, glob, io, json, math, os, shutil, sys, time, traceback

T = os.environ["HT"]
E = os.environ


def cpus(s):
    """A kernel cpulist ("0-3,8") as a frozenset."""
    r = set()
    for part in s.strip().split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        r.update(range(int(a), int(b or a) + 1))
    return frozenset(r)


def readf(p):
    with open(p) as f:
        return f.read().strip()


def allowed(pid):
    """The task's affinity, from /proc."""
    for line in open("/proc/%d/status" % pid):
        if line.startswith("Cpus_allowed_list:"):
            return cpus(line.split(":", 1)[1])
    raise AssertionError("pid %d: no Cpus_allowed_list" % pid)


present = cpus(readf("/sys/devices/system/cpu/present"))
possible = cpus(readf("/sys/devices/system/cpu/possible"))
online = cpus(readf("/sys/devices/system/cpu/online"))
nodes = []      # the CPUs of each NUMA node that has some
for p in sorted(glob.glob("/sys/devices/system/node/node[0-9]*"),
                key=lambda p: int(p.rsplit("node", 1)[1])):
    c = cpus(readf(p + "/cpulist")) & present
    if c:
        nodes.append(c)


def J(name):
    with open(os.path.join(T, name + ".json")) as f:
        return json.load(f)


def ints(name):
    try:
        return [int(x) for x in readf(os.path.join(T, name)).split()]
    except FileNotFoundError:
        return []


def origs():
    """The test processes' affinity before registration."""
    r = {}
    if os.path.exists(os.path.join(T, "orig")):
        for line in open(os.path.join(T, "orig")):
            pid, _, lst = line.partition(" ")
            r[int(pid)] = cpus(lst)
    return r


def usable(show):
    """Healthy vertex id -> its usable CPUs."""
    return {v["id"]: cpus(v["usable_cpus"]) for v in show["vertices"]
            if v["state"] == "healthy"}


def where(show, pid):
    """The healthy vertex whose usable CPUs are the task's affinity (/proc)."""
    a = allowed(pid)
    m = [v for v, c in usable(show).items() if c == a]
    assert len(m) == 1, ("pid %d: affinity %s is no vertex's" % (pid, sorted(a)))
    return m[0]


def attached(show):
    return [v["id"] for v in show["vertices"]
            if v["state"] == "healthy" and not v["detached"]]


def counts(show, pids):
    """Tasks per attached healthy vertex, from /proc."""
    c = {v: 0 for v in attached(show)}
    for p in pids:
        c[where(show, p)] += 1
    return c


def within_one(c):
    assert max(c.values()) - min(c.values()) <= 1, ("loads not within 1", c)


def label(v, dim):
    return format(v, "0%db" % dim) if dim else ""


def check_cube(d, mode):
    """show -j against the cube hcube builds in @mode from /sys: its groups
    (known for cpu and node), n = ceil(log2(groups)), labels, absent ones."""
    groups = (nodes if mode == "node" else
              [frozenset([c]) for c in sorted(present)] if mode == "cpu" else None)
    vs = d["vertices"]
    real = [cpus(v["cpus"]) for v in vs if v["state"] != "absent"]
    ng = len(groups) if groups is not None else len(real)
    dim = math.ceil(math.log2(ng)) if ng > 1 else 0
    assert d["mode"] == mode, (d["mode"], mode)
    assert d["dim"] == dim and d["nvertices"] == 2 ** dim == len(vs), \
        (d["dim"], dim, d["nvertices"])
    assert [v["id"] for v in vs] == list(range(2 ** dim))
    assert [v["label"] for v in vs] == [label(i, dim) for i in range(2 ** dim)]
    if groups is not None:
        assert sorted(map(sorted, real)) == sorted(map(sorted, groups)), real
    allc = [c for r in real for c in r]
    assert all(real) and len(allc) == len(set(allc)), "disjoint, non-empty groups"
    assert set(allc) <= present
    if mode != "custom":
        assert sorted(allc) == sorted(present), ("each present CPU in one vertex", allc)
    absent = [v["id"] for v in vs if v["state"] == "absent"]
    assert d["absent"] == absent == list(range(ng, 2 ** dim)), (d["absent"], absent)
    assert all(v["cpus"] == "" for v in vs if v["state"] == "absent")


def serve():
    """Requests on stdin: a line count, then the code. Replies: "STATUS
    COUNT", then COUNT lines (what the code printed, or the traceback)."""
    base = dict(globals())
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        code = "".join(sys.stdin.readline() for _ in range(int(line)))
        g = dict(base, E=dict(os.environ), kids=ints("kids"), orig=origs())
        try:
            with open(os.path.join(T, "out")) as f:
                g["d"] = json.load(f)
        except (OSError, ValueError):
            g["d"] = None
        buf = io.StringIO()
        status = 0
        try:
            with contextlib.redirect_stdout(buf):
                exec(code, g)
        except BaseException:
            status = 1
            buf.write(traceback.format_exc())
        text = buf.getvalue()
        if text and not text.endswith("\n"):
            text += "\n"
        sys.stdout.write("%d %d\n%s" % (status, text.count("\n"), text))
        sys.stdout.flush()


serve()
PY
coproc PYS { exec python3 -u "$tmp/lib.py"; }

# strerror() as hcubectl prints it
py 'for e in (34, 22, 17, 2, 3, 1, 19):
    print(os.strerror(e))'
{
	read -r ERANGE_S; read -r EINVAL_S; read -r EEXIST_S; read -r ENOENT_S
	read -r ESRCH_S; read -r EPERM_S; read -r ENODEV_S
} <"$tmp/py"
nnodes='' maxcpu='' notpresent=''
getv "nnodes maxcpu notpresent" 'len(nodes), max(possible), min(possible - present, default=-1)'
[ -n "$nnodes" ] || { echo "Bail out! the python checker does not work: $(<"$tmp/py")"; exit 1; }
if [ "$nnodes" -ge 2 ]; then default_mode=node; else default_mode=cpu; fi
echo "# $(nproc) CPUs online, $nnodes NUMA node(s) with CPUs: default mode $default_mode"

# ---- the cube as found, then the default one ----
NPROC=$(nproc)
expect_ok "show -j: the cube as found: n = ceil(log2(groups)), each present CPU in one vertex" '
assert int(E["NPROC"]) == len(online) == len(present), "every present CPU online"
check_cube(d, d["mode"])
print("# found: mode %s, %d tasks, faulty CPUs [%s], marked vertices %s" % (
    d["mode"], d["ntasks"], ",".join(v["faulty_cpus"] for v in d["vertices"] if v["faulty_cpus"]),
    [v["id"] for v in d["vertices"] if v["marked"]]))
' -j show
while IFS= read -r l; do [[ $l == "# "* ]] && echo "$l"; done <"$tmp/py"
save found
# Earlier tests leave the cube as they like it (nl_fuzz, stress, pyroute2:
# cpu mode): make it the default one. Faults or tasks found are cleared.
py '_f = J("found")["vertices"]
print(" ".join(str(c) for v in _f for c in sorted(cpus(v["faulty_cpus"]))))
print(" ".join(str(v["id"]) for v in _f if v["marked"]))
print(J("found")["ntasks"])'
{ read -r -a fcpus; read -r -a fvertices; read -r ntasks; } <"$tmp/py"
[ "${ntasks:-0}" -gt 0 ] && "$HC" task del --all
for c in "${fcpus[@]}"; do "$HC" fault del cpu "$c"; done
for v in "${fvertices[@]}"; do "$HC" fault del vertex "$v"; done
expect_ok "topology set $default_mode -j: {} (the default mode)" 'assert d == {}' \
	-j topology set "$default_mode"
expect_ok "show -j: the default cube ($default_mode with 2+ NUMA nodes, else cpu) from /sys, all healthy" '
check_cube(d, "node" if len(nodes) >= 2 else "cpu")
vs = d["vertices"]
assert d["healthy"] == len(vs) - len(d["absent"]) and d["ntasks"] == 0, (d["healthy"], d["ntasks"])
assert all(v["state"] == "healthy" and cpus(v["usable_cpus"]) == cpus(v["cpus"]) and
           not v["marked"] and v["faulty_cpus"] == "" for v in vs if v["state"] != "absent")
assert sum(v["in_cb"] for v in vs) >= 1 and d["detached"] == []
' -j show
save show0

hc -j config show
save config0
if [ "$rc" -eq 0 ] && py '
assert set(d) == {"policy", "auto", "threshold", "cooldown_ms", "max_tasks",
                  "mce_ce_threshold", "mce_ce_window", "mce_uc"}, d
assert d["policy"] in ("mcwa", "dem", "cwa") and isinstance(d["auto"], bool)
assert 0 <= d["threshold"] <= 1000000 and 10 <= d["cooldown_ms"] <= 3600000
'; then
	ok "config show -j: the configuration found (restored at exit)"
else
	not_ok "config show -j: the configuration found"
	rm -f "$tmp/config0.json"
fi

hc show
if [ "$rc" -eq 0 ] && grep -q "^mode $default_mode, " "$tmp/out" && grep -q '^VERTEX ' "$tmp/out"; then
	ok "show: text (summary line, vertex table)"
else
	not_ok "show: text (rc $rc)"
fi

# ---- topology ----
expect_ok "topology set cpu -j: {}" 'assert d == {}' -j topology set cpu
expect_ok "show -j: mode cpu, one vertex per present CPU, n = ceil(log2(CPUs))" '
check_cube(d, "cpu")
assert d["healthy"] == len(present) and d["ntasks"] == 0
' -j show
save show1
getv "D NV NH FAULTY" 'J("show1")["dim"], J("show1")["nvertices"], J("show1")["healthy"],
",".join(str(v["id"]) for v in J("show1")["vertices"] if v["state"] != "healthy")'
echo "# cpu mode: a $D-cube, $NV vertices, $NH healthy; not healthy: ${FAULTY:-none}"

getv "G0 G1" '(lambda c: (",".join(map(str, c[:len(c) // 2])),
                          ",".join(map(str, c[len(c) // 2:]))))(sorted(present))'
expect_ok "topology set custom $G0 $G1 -j: {}" 'assert d == {}' -j topology set custom "$G0" "$G1"
expect_ok "show -j: custom, a 1-cube of the two groups given, in order" '
check_cube(d, "custom")
assert d["dim"] == 1 and d["healthy"] == 2
assert [cpus(v["cpus"]) for v in d["vertices"]] == [cpus(E["G0"]), cpus(E["G1"])]
' -j show
expect_err "topology set custom: overlapping groups, the group named" \
	"^hcubectl: topology set: group 1 \('$G1,$G0'\): $EINVAL_S: HCUBE_A_GROUP: CPUs already in another group$" \
	topology set custom "$G0" "$G1,$G0"
expect_ok "topology set cpu -j: {} (again)" 'assert d == {}' -j topology set cpu

# ---- tasks ----
K=$((NH + 3))
for ((i = 0; i < K; i++)); do
	sleep 1000 &
	children+=($!)
done
kids=("${children[@]}")
echo "${kids[*]}" >"$tmp/kids"
# their affinity now (this script's), given back at the end
py 'with open(os.path.join(T, "orig"), "w") as f:
    for p in kids:
        f.write("%d %s\n" % (p, ",".join(map(str, sorted(allowed(p))))))'
hc -j stats
save stats0

expect_ok "task add ${K} PIDs --vertex 0 -j: each registered on vertex 0 (/proc: its CPUs)" '
assert (d["registered"], d["exited"], d["refused"]) == (len(kids), 0, 0), d
d = d["tasks"]
assert [t["pid"] for t in d] == kids, d
v0 = usable(J("show1"))[0]
for t in d:
    assert "error" not in t and t["vertex"] == 0 and t["label"] == label(0, int(E["D"])), t
    assert t["state"] == "active" and cpus(t["cpus"]) == v0 == allowed(t["pid"]), t
    assert cpus(t["orig_cpus"]) == orig[t["pid"]], t
' -j task add "${kids[@]}" --vertex 0
expect_ok "task list -j: the tasks, comm, tgid, vertex, cpus (= /proc), orig_cpus" '
assert sorted(t["pid"] for t in d) == sorted(kids), d
for t in d:
    assert t["comm"] == "sleep" and t["tgid"] == t["pid"] and t["vertex"] == 0, t
    assert t["state"] == "active" and cpus(t["cpus"]) == allowed(t["pid"]), t
    assert cpus(t["orig_cpus"]) == orig[t["pid"]], t
' -j task list
hc task list
if [ "$rc" -eq 0 ] && [ "$(grep -c ' sleep ' "$tmp/out")" -eq "$K" ] && head -1 "$tmp/out" | grep -q '^ *PID'; then
	ok "task list: text table"
else
	not_ok "task list: text table (rc $rc)"
fi
expect_ok "stats -j: registered +$K, tasks $K" '
s0 = J("stats0")
assert d["registered"] - s0["registered"] == len(kids) and d["tasks"] == len(kids), d
' -j stats

# ---- plans: dry runs against hcube-sim ----
faulty_arg=()
[ -n "$FAULTY" ] && faulty_arg=(--faulty "$FAULTY")
# sim_compare NAME POLICY: the dry run in $tmp/out against hcube-sim's plan
sim_compare() {
	local name=$1 pol=$2 loads
	save "dry_$pol"
	getv loads '",".join(map(str, J("dry_'"$pol"'")["loads_before"]))'
	if ! "$SIM" plan --dim "$D" --loads "$loads" "${faulty_arg[@]}" --policy "$pol" --json \
		>"$tmp/sim_$pol.json" 2>"$tmp/err"; then
		not_ok "$name: hcube-sim failed"
		return
	fi
	check "$name" '
r, s = J("dry_'"$pol"'"), J("sim_'"$pol"'")
for k in ("policy", "dim", "balancing_subcube", "tree_depth", "loads_before", "transfers",
          "steps", "migrations", "comm_steps"):
    assert r[k] == s[k], (k, r[k], s[k])
assert r["loads_plan"] == s["loads_after"], (r["loads_plan"], s["loads_after"])
'
}
expect_ok "rebalance -j --dry-run --policy dem: transfers planned, nothing moved (/proc)" '
K = len(kids)
assert d["dry_run"] is True and d["policy"] == "dem" and d["trigger"] == "admin", d
assert d["dim"] == int(E["D"]) and d["balancing_subcube"] is None
assert d["loads_before"] == [K] + [0] * (int(E["NV"]) - 1) == d["loads_after"]
assert sum(d["loads_plan"]) == K and len(d["transfers"]) == d["ntransfers"] > 0
assert d["moved_tasks"] == 0 and d["failed"] == 0 and d["failures"] == []
v0 = usable(J("show1"))[0]
assert all(allowed(p) == v0 for p in kids), "a dry run moved a task"
' -j rebalance --dry-run --policy dem
sim_compare "rebalance --dry-run --policy dem = hcube-sim plan (transfers, loads_plan)" dem
expect_ok "rebalance -j --dry-run: the default policy (mcwa), a balancing subcube" '
assert d["dry_run"] is True and d["policy"] == "mcwa" and d["balancing_subcube"]
assert len(d["balancing_subcube"]) == int(E["D"]) and d["tree_depth"] is not None
assert d["ntransfers"] == len(d["transfers"]) > 0 and max(d["loads_plan"]) - min(
    d["loads_plan"][v] for v in attached(J("show1"))) <= 1
' -j rebalance --dry-run
sim_compare "rebalance --dry-run (mcwa) = hcube-sim plan" mcwa
if [ -n "$FAULTY" ]; then
	expect_err "rebalance --policy cwa on a cube with absent vertices: the kernel's refusal" \
		"^hcubectl: rebalance: policy cwa: $EINVAL_S: HCUBE_A_REPORT_POLICY: cwa needs a fault-free cube" \
		rebalance --dry-run --policy cwa
else
	expect_ok "rebalance -j --dry-run --policy cwa (a fault-free cube)" \
		'assert d["policy"] == "cwa" and d["dry_run"] is True' -j rebalance --dry-run --policy cwa
	sim_compare "rebalance --dry-run --policy cwa = hcube-sim plan" cwa
fi
hc rebalance --dry-run --policy dem
if [ "$rc" -eq 0 ] && grep -q '^rebalance (dry run): policy dem, trigger admin$' "$tmp/out" &&
   grep -q '^  step 1:' "$tmp/out"; then
	ok "rebalance --dry-run: text report"
else
	not_ok "rebalance --dry-run: text report (rc $rc)"
fi
# dem, mcwa, dem (text), and cwa unless the kernel refused it
NDRY=4
[ -n "$FAULTY" ] && NDRY=3
expect_ok "stats -j: $NDRY dry runs counted, no rebalance" '
s0 = J("stats0")
assert d["rebalances"] == s0["rebalances"], d
assert d["dry_runs"] - s0["dry_runs"] == int(E["NDRY"]), (d, s0)
' -j stats
save stats1

# ---- the other policies, by name ----
for pol in optimal auto pebble sbn-cube; do
	POL=$pol
	expect_ok "rebalance -j --dry-run --policy $pol: applied, messages, imbalance" '
pol = E["POL"]
assert d["policy"] == pol and d["dry_run"] is True and d["moved_tasks"] == 0, d
assert isinstance(d["messages"], int) and isinstance(d["imbalance"], int)
if pol == "auto":
    assert d["applied"] in ("dem", "mcwa", "optimal"), d["applied"]
else:
    assert d["applied"] == pol, d["applied"]
if pol in ("optimal", "auto"):
    assert d["imbalance"] == 0, d["imbalance"]
assert (d["contended"] is not None) == (pol == "pebble"), d["contended"]
assert sum(d["loads_plan"]) == sum(d["loads_before"])
' -j rebalance --dry-run --policy "$pol"
	sim_compare "rebalance --dry-run --policy $pol = hcube-sim plan" "$pol"
done
expect_ok "config set policy sbn-heur -j: {}" 'assert d == {}' -j config set policy sbn-heur
expect_ok "config show -j: policy sbn-heur" 'assert d["policy"] == "sbn-heur", d' -j config show
expect_ok "config set policy mcwa -j: {} (back)" 'assert d == {}' -j config set policy mcwa
hc rebalance --policy sbn_cube
if [ "$rc" -eq 2 ] && grep -q "unknown policy 'sbn_cube'" "$tmp/err"; then
	ok "rebalance --policy sbn_cube: not a policy name (status 2)"
else
	not_ok "rebalance --policy sbn_cube (rc $rc)"
fi
expect_ok "show -j: each cluster's controller, its lowest healthy label" '
cd = d["cluster_dim"]
assert cd == min(d["dim"], 3) and len(d["controllers"]) == d["nvertices"] >> cd, d["controllers"]
for c, ctl in enumerate(d["controllers"]):
    hv = [v["id"] for v in d["vertices"] if v["id"] >> cd == c and v["state"] == "healthy"]
    assert ctl == (min(hv) if hv else None), (c, ctl, hv)
assert [v["id"] for v in d["vertices"] if v["controller"]] == [c for c in d["controllers"] if c is not None]
' -j show
# the dry runs above are counted: the next checks start from here
hc -j stats
save stats1

# ---- rebalance ----
expect_ok "rebalance -j: tasks moved, loads as planned" '
assert d["dry_run"] is False and d["policy"] == "mcwa" and d["trigger"] == "admin", d
assert d["failed"] == 0 and d["exited"] == 0 and d["failures"] == [] and d["changed"] == []
assert d["loads_after"] == d["loads_plan"] and d["moved_tasks"] > 0
' -j rebalance
save reb
hc -j show
save show2
hc -j task list
save tl2
check "after rebalance: each task's affinity (/proc) = usable_cpus of its vertex in task list" '
sh, tl = J("show2"), J("tl2")
assert sorted(t["pid"] for t in tl) == sorted(kids)
for t in tl:
    assert allowed(t["pid"]) == usable(sh)[t["vertex"]], (t, sorted(allowed(t["pid"])))
    assert where(sh, t["pid"]) == t["vertex"] and t["state"] == "active"
'
check "after rebalance: loads (/proc) within 1 across healthy vertices, = loads_after, = show" '
sh, r = J("show2"), J("reb")
c = counts(sh, kids)
within_one(c)
assert all(r["loads_after"][v] == n == sh["vertices"][v]["load"] for v, n in c.items()), (c, r)
assert r["moved_tasks"] == len(kids) - c[0], (r["moved_tasks"], c)
'
expect_ok "stats -j: rebalances +1, moved and migrations as the report" '
s1, r = J("stats1"), J("reb")
assert d["rebalances"] - s1["rebalances"] == 1 and d["dry_runs"] == s1["dry_runs"], d
assert d["moved"] - s1["moved"] == r["moved_tasks"]
assert d["migrations"] - s1["migrations"] == r["migrations"]
' -j stats
save stats2

# ---- faults ----
# The vertex with the most tasks, and its CPU.
getv "VF CF NF" '(lambda c: (lambda v: (v, min(usable(J("show2"))[v]), c[v]))(
    max(c, key=lambda v: (c[v], v))))(counts(J("show2"), kids))'
expect_ok "fault add cpu $CF -j: {}" 'assert d == {}' -j fault add cpu "$CF"
[ "$rc" -eq 0 ] && marked_cpus+=("$CF")
expect_ok "show -j: cpu $CF faulty, its vertex $VF faulty, one healthy vertex fewer" '
v = d["vertices"][int(E["VF"])]
assert v["state"] == "faulty" and cpus(v["faulty_cpus"]) == {int(E["CF"])}, v
assert v["usable_cpus"] == "" and not v["marked"] and v["load"] == 0
assert d["healthy"] == int(E["NH"]) - 1, d["healthy"]
' -j show
save show3
check "after fault add cpu $CF: no task may run on it (/proc), loads within 1" '
sh = J("show3")
c = counts(sh, kids)
assert int(E["VF"]) not in c and all(int(E["CF"]) not in allowed(p) for p in kids)
within_one(c)
'
expect_ok "stats -j: the $NF tasks of vertex $VF evacuated, a rebalance after the fault" '
s2 = J("stats2")
assert d["evacuations"] - s2["evacuations"] == int(E["NF"]), (d, s2)
assert d["rebalances"] - s2["rebalances"] == 1, (d, s2)
' -j stats
expect_err "fault add cpu $CF again: the kernel's message (already marked faulty)" \
	"^hcubectl: fault add: cpu $CF: $EEXIST_S: HCUBE_A_CPU: the CPU is already marked faulty$" \
	fault add cpu "$CF"
expect_ok "fault del cpu $CF -j: {}" 'assert d == {}' -j fault del cpu "$CF"
[ "$rc" -eq 0 ] && rm_from marked_cpus "$CF"
expect_ok "show -j: vertex $VF healthy again" '
v = d["vertices"][int(E["VF"])]
assert v["state"] == "healthy" and v["faulty_cpus"] == "" and cpus(v["usable_cpus"]) == {int(E["CF"])}
assert d["healthy"] == int(E["NH"])
' -j show
expect_err "fault del cpu $CF again: not marked faulty" \
	"^hcubectl: fault del: cpu $CF: $ENOENT_S: HCUBE_A_CPU: the CPU is not marked faulty$" \
	fault del cpu "$CF"

hc -j task list
save tl4
hc -j show
save show4
getv "VV VL" '(lambda v: (v, "0b" + label(v, J("show4")["dim"])))(where(J("show4"), kids[0]))'
expect_ok "fault add vertex $VL (binary label) -j: {}" 'assert d == {}' -j fault add vertex "$VL"
[ "$rc" -eq 0 ] && marked_vertices+=("$VV")
expect_ok "show -j: vertex $VV marked faulty; no task on its CPUs (/proc)" '
v = d["vertices"][int(E["VV"])]
assert v["state"] == "faulty" and v["marked"] and v["usable_cpus"] == "" and v["load"] == 0, v
gone = cpus(v["cpus"])
assert all(not (allowed(p) & gone) for p in kids), "a task still on the faulty vertex"
within_one(counts(d, kids))
' -j show
expect_err "fault add vertex $VV again: already marked faulty" \
	"^hcubectl: fault add: vertex $VV: $EEXIST_S: HCUBE_A_VERTEX_ID: the vertex is already marked faulty$" \
	fault add vertex "$VV"
expect_ok "fault del vertex $VV -j: {}" 'assert d == {}' -j fault del vertex "$VV"
[ "$rc" -eq 0 ] && rm_from marked_vertices "$VV"
expect_ok "show -j: vertex $VV healthy, not marked" '
v = d["vertices"][int(E["VV"])]
assert v["state"] == "healthy" and not v["marked"] and d["healthy"] == int(E["NH"]), v
' -j show

# ---- the kernel's refusals: its message and range on stderr, status 1 ----
expect_err "fault add vertex 999: out of range for this cube (valid range 0..$((NV - 1)))" \
	"^hcubectl: fault add: vertex 999: $ERANGE_S: HCUBE_A_VERTEX_ID: vertex id out of range for this cube \(valid range 0\.\.$((NV - 1))\)$" \
	fault add vertex 999
expect_err "fault add vertex 5000: the policy's range (0..1023)" \
	"^hcubectl: fault add: vertex 5000: $ERANGE_S: integer out of range \(valid range 0\.\.1023\)$" \
	fault add vertex 5000
expect_err "fault add cpu $((maxcpu + 1)): integer out of range (0..$maxcpu, /sys possible)" \
	"^hcubectl: fault add: cpu $((maxcpu + 1)): $ERANGE_S: integer out of range \(valid range 0\.\.$maxcpu\)$" \
	fault add cpu $((maxcpu + 1))
if [ "$notpresent" -ge 0 ]; then
	expect_err "fault add cpu $notpresent: possible, not present (ENODEV)" \
		"^hcubectl: fault add: cpu $notpresent: $ENODEV_S: HCUBE_A_CPU: the CPU is not present \(valid range 0\.\.$maxcpu\)$" \
		fault add cpu "$notpresent"
else
	skip "fault add cpu: possible but not present (ENODEV)" "every possible CPU is present"
fi
expect_err "task add --vertex 999: out of range for this cube" \
	"^hcubectl: task add: vertex 999: $ERANGE_S: HCUBE_A_VERTEX_ID: vertex id out of range for this cube \(valid range 0\.\.$((NV - 1))\)$" \
	task add "${kids[0]}" --vertex 999
expect_err "task add 4194305: the pid range (1..4194304)" \
	"^hcubectl: task add: pid 4194305: $ERANGE_S: integer out of range \(valid range 1\.\.4194304\)$" \
	task add 4194305
expect_err "task add 4194304: no such process" \
	"^hcubectl: task add: pid 4194304: $ESRCH_S: HCUBE_A_PID: no such process" \
	task add 4194304
expect_err "task add ${kids[0]} again: already registered" \
	"^hcubectl: task add: pid ${kids[0]}: $EEXIST_S: HCUBE_A_PID: the task is already registered$" \
	task add "${kids[0]}"
expect_err "task add 2 (kthreadd): a kernel thread" \
	"^hcubectl: task add: pid 2: .*(kernel thread|PF_NO_SETAFFINITY)" \
	task add 2

# ---- monitor: a fault, a task, a rebalance ----
sleep 1000 &
children+=($!)
KM=$!
py 'with open(os.path.join(T, "orig"), "a") as f:
    f.write("%d %s\n" % (int(E["KM"]), ",".join(map(str, sorted(allowed(int(E["KM"])))))))'
getv "VM CM" '(lambda v: (v, min(usable(J("show4"))[v])))(sorted(usable(J("show4")))[-1])'
"$HC" -j monitor --count 4 >"$tmp/mon.out" 2>"$tmp/mon.err" &
mon=$!
children+=("$mon")	# killed at exit if it is still waiting
# Until it has joined its groups (/proc/net/netlink: NETLINK_GENERIC, the
# portid's low 22 bits its pid, groups not 0), at most 3 s.
MON=$mon
py 'for _ in range(60):
    if any(f[1] == "16" and int(f[2]) % 4194304 == int(E["MON"]) and int(f[3], 16)
           for f in (l.split() for l in list(open("/proc/net/netlink"))[1:])):
        break
    time.sleep(0.05)
else:
    print("# monitor: its group membership did not show in /proc/net/netlink; 3 s passed")' &&
	[ -s "$tmp/py" ] && cat "$tmp/py"
hc fault add cpu "$CM"
[ "$rc" -eq 0 ] && marked_cpus+=("$CM")
hc task add "$KM"
hc rebalance
for ((i = 0; i < 100; i++)); do
	kill -0 "$mon" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$mon" 2>/dev/null; then
	kill "$mon"
	echo "# monitor: still waiting after 10 s; killed" >>"$tmp/mon.err"
fi
wait "$mon"
mrc=$?
cp "$tmp/mon.out" "$tmp/out"
cp "$tmp/mon.err" "$tmp/err"
if [ "$mrc" -eq 0 ] && [ ! -s "$tmp/mon.err" ] && py '
ev = [json.loads(l) for l in open(os.path.join(T, "mon.out"))]
assert [e["event"] for e in ev] == ["fault", "rebalance", "task", "rebalance"], ev
f = ev[0]
assert (f["what"], f["cpu"], f["vertex"], f["state"], f["reason"]) == \
       ("added", int(E["CM"]), int(E["VM"]), "faulty", "admin"), f
assert f["label"] == label(int(E["VM"]), int(E["D"])) and f["dim"] == int(E["D"])
assert f["healthy"] == int(E["NH"]) - 1 and f["mode"] == "cpu", f
assert ev[1]["trigger"] == "fault" and ev[1]["dry_run"] is False, ev[1]
t = ev[2]
assert (t["pid"], t["comm"], t["state"], t["reason"]) == (int(E["KM"]), "sleep", "active", "added"), t
r = ev[3]
assert r["trigger"] == "admin" and r["policy"] == "mcwa" and len(r["loads_before"]) == int(E["NV"])
assert r["ntransfers"] == len(r["transfers"]) and r["loads_after"][int(E["VM"])] == 0
'; then
	ok "monitor -j --count 4: fault (what added), rebalance (trigger fault), task (added), rebalance"
else
	not_ok "monitor -j --count 4 (rc $mrc)"
fi
expect_ok "fault del cpu $CM" 'assert d is None' fault del cpu "$CM"
[ "$rc" -eq 0 ] && rm_from marked_cpus "$CM"

# ---- task del ----
expect_ok "task del $KM -j: {}; its affinity given back (/proc)" '
assert d == {} and allowed(int(E["KM"])) == orig[int(E["KM"])], sorted(allowed(int(E["KM"])))
' -j task del "$KM"
expect_err "task del $KM again: not registered" \
	"^hcubectl: task del: pid $KM: $ENOENT_S: HCUBE_A_PID: the task is not registered$" \
	task del "$KM"
expect_ok "task del --all -j: {}; each task's original affinity back (/proc)" '
assert d == {}
for p in kids:
    assert allowed(p) == orig[p], (p, sorted(allowed(p)), sorted(orig[p]))
' -j task del --all
expect_ok "task list -j: []" 'assert d == []' -j task list
expect_ok "stats -j: unregistered +$((K + 1)), registered +$((K + 1)), no task" '
s0 = J("stats0")
assert d["unregistered"] - s0["unregistered"] == len(kids) + 1, (d, s0)
assert d["registered"] - s0["registered"] == len(kids) + 1 and d["tasks"] == 0, (d, s0)
' -j stats
hc stats
if [ "$rc" -eq 0 ] && grep -qE '^registered +[0-9]+$' "$tmp/out" && grep -qE '^tasks +0$' "$tmp/out"; then
	ok "stats: text"
else
	not_ok "stats: text (rc $rc)"
fi

# ---- config ----
expect_ok "config set auto on -j: {}" 'assert d == {}' -j config set auto on
expect_ok "config set threshold 2 -j: {}" 'assert d == {}' -j config set threshold 2
expect_ok "config show -j: auto on, threshold 2, the rest unchanged" '
c0 = J("config0")
assert d["auto"] is True and d["threshold"] == 2, d
assert (d["policy"], d["cooldown_ms"], d["max_tasks"]) == \
       (c0["policy"], c0["cooldown_ms"], c0["max_tasks"]), (d, c0)
' -j config show
expect_err "config set threshold 99999999: the kernel's range" \
	"^hcubectl: config set: threshold 99999999: $ERANGE_S: integer out of range \(valid range 0\.\.1000000\)$" \
	config set threshold 99999999
expect_err "config set cooldown 5: the kernel's range" \
	"^hcubectl: config set: cooldown 5: $ERANGE_S: integer out of range \(valid range 10\.\.3600000\)$" \
	config set policy dem cooldown 5
expect_ok "config set policy dem cooldown 500" 'assert d is None' config set policy dem cooldown 500
expect_ok "config show -j: the refused sets changed nothing; policy dem, cooldown 500" '
assert (d["policy"], d["auto"], d["threshold"], d["cooldown_ms"]) == ("dem", True, 2, 500), d
' -j config show
hc config show
if [ "$rc" -eq 0 ] && grep -qE '^policy +dem$' "$tmp/out" && grep -qE '^auto +on$' "$tmp/out"; then
	ok "config show: text"
else
	not_ok "config show: text (rc $rc)"
fi

# ---- without CAP_NET_ADMIN ----
NB=$HC
if ! setpriv --reuid=65534 --regid=65534 --clear-groups "$NB" --version >/dev/null 2>&1; then
	mkdir -p "$tmp/nobody" && cp "$HC" "$tmp/nobody/" && chmod 755 "$tmp" "$tmp/nobody"
	NB=$tmp/nobody/hcubectl
fi
unpriv() {
	: >"$tmp/py"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NB" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}
unpriv fault add cpu "$CM"
if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] &&
   [ "$(<"$tmp/err")" = "hcubectl: fault add: $EPERM_S (this command needs CAP_NET_ADMIN)" ]; then
	ok "unprivileged fault add: Operation not permitted, CAP_NET_ADMIN named, status 1"
else
	not_ok "unprivileged fault add (rc $rc)"
fi
unpriv -j show
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && py '
assert d["dim"] == int(E["D"]) and d["mode"] == "cpu" and d["healthy"] == int(E["NH"]), d
assert d["vertices"][int(E["VM"])]["faulty_cpus"] == "", "the refused fault changed something"
'; then
	ok "unprivileged show -j works; the refused fault add changed nothing"
else
	not_ok "unprivileged show -j (rc $rc)"
fi
unpriv -j task list
if [ "$rc" -eq 0 ] && py 'assert d == []'; then
	ok "unprivileged task list -j works"
else
	not_ok "unprivileged task list -j (rc $rc)"
fi
unpriv rebalance --dry-run
if [ "$rc" -eq 1 ] && grep -q "CAP_NET_ADMIN" "$tmp/err"; then
	ok "unprivileged rebalance --dry-run: refused (CAP_NET_ADMIN)"
else
	not_ok "unprivileged rebalance --dry-run (rc $rc)"
fi

# ---- the state given back ----
cleanup
check "cleanup: the test's processes are gone" '
assert all(not os.path.exists("/proc/%d" % p) for p in kids + [int(E["KM"])])
'
expect_ok "cleanup: show -j: the default topology again, nothing faulty, no task" '
s0 = J("show0")
for k in ("mode", "dim", "nvertices", "healthy", "absent"):
    assert d[k] == s0[k], (k, d[k], s0[k])
assert d["ntasks"] == 0 and not any(v["marked"] or v["faulty_cpus"] for v in d["vertices"])
assert [v["cpus"] for v in d["vertices"]] == [v["cpus"] for v in s0["vertices"]]
' -j show
expect_ok "cleanup: config show -j: the configuration found" 'assert d == J("config0"), (d, J("config0"))' \
	-j config show

echo "# hcubectl_test: ${SECONDS}s"
tap_end
