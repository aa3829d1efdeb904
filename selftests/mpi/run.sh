#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-mpi: libhcube-mpi on real MPI ranks of this machine
# (mpirun --oversubscribe), host only.
# - mpi_test (the core as oracle, payload checks, message counts, bad
#   input) on P = 1..16 ranks;
# - the same under ASan + UBSan on a sample of P, and with LeakSanitizer
#   on two (only Open MPI's own allocations are suppressed: lsan.supp);
# - what the scenarios exercised, summed over P: relayed SBN jobs,
#   evacuations at marking and at balancing, trees, detached vertices,
#   theta messages, SBN's job messages;
# - tools/hcube-mpi/example.c built with mpicc against the built library
#   and against an installed copy, run on 4 ranks: units and their sum
#   kept, rank 1 (faulty) empty, the healthy ranks within one unit;
#   an unknown policy makes it fail with the library's message; the
#   program printed in Documentation/mpi.md is this file;
# - with HCUBE_SIM given, hcube-mpi-exp (the experiment driver) on small
#   instances: without balancing it reproduces hcube-sim's runs exactly,
#   with balancing every job runs exactly once.
#
# usage: run.sh BUILD_DIR EXAMPLE_C [HCUBE_SIM]   (BUILD_DIR: build/hcube-mpi)
# environment: MPICC (mpicc), MPI_TEST_MAXP (16), MPI_TEST_SCENARIOS (8)
set -u
OUT=$(cd "$1" && pwd)
EXAMPLE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
SIM=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
MPICC=${MPICC:-mpicc}
MAXP=${MPI_TEST_MAXP:-16}
SCEN=${MPI_TEST_SCENARIOS:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/tap.sh
. "$HERE/../lib/tap.sh"

# Open MPI as root (CI), more ranks than cores, in a container: shared
# memory without the cross-memory-attach single copy (needs ptrace rights
# that containers often lack), and ranks that yield when they wait.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN=(mpirun --oversubscribe)

echo "TAP version 13"
if ! command -v mpirun >/dev/null || ! command -v "$MPICC" >/dev/null; then
	not_ok "mpirun and $MPICC installed (run 'make deps')"
	echo "1..$n"
	exit 1
fi

# run_test NAME P LOG ARGS...: one mpirun; ok when it exits 0
run_test() {
	local name=$1 p=$2 log=$3 rc
	shift 3
	timeout 600 "${MPIRUN[@]}" -np "$p" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^1\.\.' "$log" && ! grep -q '^not ok' "$log"; then
		ok "$name: $(grep -c '^ok' "$log") checks"
	else
		not_ok "$name (exit $rc)"
		grep -E '^not ok|ERROR|libhcube-mpi|runtime error' "$log" | head -20 | sed 's/^/# /'
	fi
}

t0=$(date +%s)
for p in $(seq 1 "$MAXP"); do
	run_test "mpi_test on $p ranks" "$p" "$tmp/plain-$p.log" \
		"$OUT/mpi_test" --scenarios "$SCEN"
done
t1=$(date +%s)

# ASan + UBSan (UBSan aborts on the first error: -fno-sanitize-recover).
for p in 2 3 5 8; do
	[ "$p" -le "$MAXP" ] || continue
	ASAN_OPTIONS=detect_leaks=0 run_test "mpi_test under ASan+UBSan on $p ranks" \
		"$p" "$tmp/san-$p.log" "$OUT/mpi_test-san" --scenarios 4
done
# LeakSanitizer needs the slow unwinder to see through Open MPI's frames
# (built without frame pointers) and match the suppressions.
for p in 1 4; do
	ASAN_OPTIONS=fast_unwind_on_malloc=0 \
	LSAN_OPTIONS="suppressions=$HERE/lsan.supp:print_suppressions=0" \
		run_test "mpi_test under LeakSanitizer on $p ranks" "$p" "$tmp/lsan-$p.log" \
		"$OUT/mpi_test-san" --scenarios 2
done
t2=$(date +%s)

# What the scenarios exercised, over all P.
cov=$(cat "$tmp"/plain-*.log | awk '/^# coverage:/ {
	for (i = 3; i < NF; i += 2) s[$i] += $(i + 1) }
	END { for (k in s) printf "%s=%d ", k, s[k] }')
echo "# coverage over P = 1..$MAXP: $cov"
for k in relayed evac_mark evac_balance trees detached theta sbn_jobs; do
	v=$(echo "$cov" | tr ' ' '\n' | sed -n "s/^$k=//p")
	if [ "${v:-0}" -gt 0 ]; then
		ok "the scenarios exercise $k ($v)"
	else
		not_ok "the scenarios exercise $k (${v:-0})"
	fi
done

# The example, against the built library and against an installed copy.
example_runs() {
	local what=$1 bin=$2 log=$tmp/example.log
	if ! timeout 120 "${MPIRUN[@]}" -np 4 "$bin" >"$log" 2>&1; then
		not_ok "example ($what) runs on 4 ranks"
		sed 's/^/# /' "$log" | head
		return
	fi
	# rank R before|after[ (faulty)]: N units, sum S
	if awk '
		/^rank [0-9]+ before:/ { nb++; ub += $4; sb += $7 }
		/^rank [0-9]+ after/ {
			na++; ua += $(NF - 3); sa += $NF
			if ($2 == 1) { if ($0 !~ /faulty\): 0 units/) bad = "rank 1 not empty" }
			else { u = $(NF - 3); if (lo == "" || u < lo) lo = u; if (u > hi) hi = u }
		}
		END {
			if (nb != 4 || na != 4) bad = "lines"
			if (ub != ua || sb != sa) bad = "units or sum changed"
			if (hi - lo > 1) bad = "not balanced"
			if (bad) { print bad; exit 1 }
		}' "$log" >"$tmp/why"; then
		ok "example ($what): 4 ranks, units and their sum kept, rank 1 faulty and empty, the others within one unit"
	else
		not_ok "example ($what): $(cat "$tmp/why")"
		sed 's/^/# /' "$log"
	fi
}

if "$MPICC" -std=gnu11 -Wall -Wextra -Werror -I"$OUT/include" -o "$tmp/example" \
	"$EXAMPLE" -L"$OUT" -lhcube-mpi 2>"$tmp/cc.log"; then
	ok "example builds with $MPICC against $OUT"
	example_runs "built library" "$tmp/example"
	if timeout 60 "${MPIRUN[@]}" -np 2 "$tmp/example" nosuch >"$tmp/bad.log" 2>&1; then
		not_ok "example with an unknown policy fails"
	elif grep -q "unknown policy 'nosuch'" "$tmp/bad.log"; then
		ok "example with an unknown policy fails with the library's message"
	else
		not_ok "example with an unknown policy: $(head -c 200 "$tmp/bad.log")"
	fi
else
	not_ok "example builds with $MPICC against $OUT"
	sed 's/^/# /' "$tmp/cc.log"
fi
make -s -C "$(dirname "$EXAMPLE")" install BUILD="$(dirname "$OUT")" DESTDIR="$tmp/inst" \
	PREFIX=/usr >/dev/null
if "$MPICC" -std=gnu11 -Wall -Wextra -Werror -I"$tmp/inst/usr/include" \
	-o "$tmp/example-inst" "$EXAMPLE" -L"$tmp/inst/usr/lib" -lhcube-mpi 2>"$tmp/cc.log"; then
	ok "example builds against the installed header and library"
	example_runs "installed library" "$tmp/example-inst"
else
	not_ok "example builds against the installed header and library"
	sed 's/^/# /' "$tmp/cc.log"
fi
python3 - "$HERE/../../Documentation/mpi.md" "$EXAMPLE" <<'PY' >"$tmp/doc.log" 2>&1
import re, sys
doc, src = open(sys.argv[1]).read(), open(sys.argv[2]).read()
part = doc.split("## The example", 1)[1]
block = re.search(r"```c\n(.*?)```", part, re.S).group(1)
sys.exit(0 if block == src else 1)
PY
if [ $? -eq 0 ]; then
	ok "Documentation/mpi.md prints the example as it is"
else
	not_ok "Documentation/mpi.md prints the example as it is"
fi

# The experiment driver against hcube-sim on the same instances.
if [ -n "$SIM" ] && [ -x "$SIM" ]; then
	"$SIM" sbn --procs 4 --runs 1 --policy nobal,sbn --quiet --out "$tmp/sbn" \
		--jobs-out "$tmp/jobs"
	timeout 300 "${MPIRUN[@]}" -np 4 "$OUT/hcube-mpi-exp" sbn --jobs "$tmp/jobs" \
		--scenario light --runs 1 --policy none,dem,sbn >"$tmp/exp.csv" 2>"$tmp/exp.err"
	if python3 - "$tmp/exp.csv" "$tmp/sbn/sbn.csv" <<'PY'
import csv, sys
mpi = {r["policy"]: r for r in csv.DictReader(open(sys.argv[1]))}
sim = {(r["scenario"], r["policy"]): r for r in csv.DictReader(open(sys.argv[2]))}
a, b = mpi["none"], sim[("light", "nobal")]
assert (a["completion"], a["idle_range"], a["jobs"]) == \
       (b["completion"], b["idle_range"], b["jobs"]), (a, b)
for p in ("dem", "sbn"):
    r = mpi[p]
    assert r["executed"] == r["jobs"] and int(r["operations"]) > 0, r
    assert int(r["jobs_transferred"]) > 0 and int(r["messages"]) > 0, r
PY
	then
		ok "hcube-mpi-exp sbn: no balancing reproduces hcube-sim's run exactly; DEM and SBN run every job once"
	else
		not_ok "hcube-mpi-exp sbn"
		sed 's/^/# /' "$tmp/exp.csv" "$tmp/exp.err" | head -20
	fi
	"$SIM" run --dim 3 --faults 2 --runs 2 --policy none --instance-out "$tmp/inst" \
		--csv >"$tmp/sim0.csv"
	timeout 300 "${MPIRUN[@]}" -np 8 "$OUT/hcube-mpi-exp" p000 --instances "$tmp/inst" \
		--dim 3 --faults 2 --runs 2 --policy none,mcwa,dem >"$tmp/exp0.csv" \
		2>"$tmp/exp0.err"
	if python3 - "$tmp/exp0.csv" "$tmp/sim0.csv" "$tmp/exp0.err" <<'PY'
import csv, sys
mpi = list(csv.DictReader(open(sys.argv[1])))
sim = {r["run"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert open(sys.argv[3]).read() == "", "complaints on stderr"
assert len(mpi) == 6 and len(sim) == 2, (len(mpi), len(sim))
for none in (r for r in mpi if r["policy"] == "none"):
    s = sim[none["run"]]
    assert none["makespan"] == s["makespan"] == s["t_nobal"], (none, s)
for r in mpi:
    assert r["executed"] == r["tasks"] == "800" and r["healthy"] == "6", r
    if r["policy"] != "none":
        assert int(r["rounds"]) > 0 and float(r["speedup"]) > 1, r
PY
	then
		ok "hcube-mpi-exp p000: no balancing reproduces hcube-sim's makespan; MCWA and DEM run every task once, faster"
	else
		not_ok "hcube-mpi-exp p000"
		sed 's/^/# /' "$tmp/exp0.csv" "$tmp/exp0.err" | head -20
	fi
fi
t3=$(date +%s)

echo "# mpi_test $((t1 - t0)) s, sanitizers $((t2 - t1)) s, example $((t3 - t2)) s"
echo "1..$n"
[ "$fails" -eq 0 ]
