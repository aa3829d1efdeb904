#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-mpi: libhcube-mpi on real MPI ranks of this machine
# (mpirun --oversubscribe), host only.
# - mpi_test (the core as oracle by count, the bound and the oracle by
#   weight, plan-only, the reports, bad input, the tolerance,
#   MPI_COMM_NULL, intercommunicators, every error's text) on P = 1..16
#   ranks;
# - the same under ASan + UBSan on a sample of P, with messages cut into
#   MPI pieces of 100 bytes, and with LeakSanitizer on two (only Open
#   MPI's own allocations are suppressed: lsan.supp);
# - what the scenarios exercised, summed over P: relayed SBN jobs,
#   evacuations at marking and at balancing, trees, detached vertices,
#   theta messages, SBN's job messages, the settle, messages in pieces;
# - farm (a task farm written from the public header only: items of
#   uneven size and cost, balanced by weight, a rank drained mid-run while
#   it keeps spawning work) on 3, 7 and 12 ranks, and with ASan on 5;
# - heavy: the settle's exchange on 4 ranks, a rank of heavy units only;
# - bytes: fewest bytes on 8 ranks, the same instance with and without a
#   sizer: at most 2/3 of the payload, a max/avg no worse;
# - big: one message of 2.2 GB (two units of 1.1 GB) on 2 ranks;
# - misuse: open before MPI_Init and after MPI_Finalize; a pack() or
#   unpack() that loses units aborts the job with the library's message;
# - the archive and the shared library export hcube_mpi_* only, the
#   shared library has its soname;
# - the library installed under a temporary prefix: an application built
#   with `pkg-config --cflags --libs hcube-mpi` (cc, not mpicc), one that
#   defines its own hm_log and hcube_plan_build linked against the shared
#   library and against the archive;
# - tools/hcube-mpi/example.c: Documentation/mpi.md prints it as it is;
#   its commands there, run as written (without this script's OMPI_
#   settings), print the output the document shows; built with mpicc
#   against the build tree it keeps every unit on 4 ranks; an unknown
#   policy makes every rank exit with 1 and the library's message;
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
ROOT=$(cd "$HERE/../.." && pwd)
DOC=$ROOT/Documentation/mpi.md
MPICC=${MPICC:-mpicc}
MAXP=${MPI_TEST_MAXP:-16}
SCEN=${MPI_TEST_SCENARIOS:-8}
# shellcheck source=../lib/tap.sh
. "$HERE/../lib/tap.sh"
tap_tmpdir

# Open MPI as root (CI), more ranks than cores, in a container: shared
# memory without the cross-memory-attach single copy (needs ptrace rights
# that containers often lack), and ranks that yield when they wait.
OMPI_ENV=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
	OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none)
export "${OMPI_ENV[@]}"
MPIRUN=(mpirun --oversubscribe)

echo "TAP version 13"
if ! command -v mpirun >/dev/null || ! command -v "$MPICC" >/dev/null; then
	not_ok "mpirun and $MPICC installed (run 'make deps')"
	tap_end
	exit 1
fi

# run_test NAME P LOG ARGS...: one mpirun; ok when it exits 0 with TAP
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
	ASAN_OPTIONS=detect_leaks=0 run_test "mpi_test under ASan+UBSan on $p ranks, messages in pieces of 100 bytes" \
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
cov=$(cat "$tmp"/plain-*.log | awk '/^# (weight )?coverage:/ {
	for (i = ($2 == "weight" ? 4 : 3); i < NF; i += 2) s[$i] += $(i + 1) }
	END { for (k in s) printf "%s=%d ", k, s[k] }')
# the sanitizer flavour's pieces are 100 bytes: messages of 4 or more
pieces=$(cat "$tmp"/san-*.log | awk '/^# largest message packed:/ && $5 > 300 { n++ }
	END { print n + 0 }')
cov="$cov pieces=$pieces"
echo "# coverage over P = 1..$MAXP: $cov"
for k in relayed evac_mark evac_balance trees detached theta sbn_jobs sbn_settled settle_rounds \
	 zero_units big_units shifted pieces; do
	v=$(echo "$cov" | tr ' ' '\n' | sed -n "s/^$k=//p")
	if [ "${v:-0}" -gt 0 ]; then
		ok "the scenarios exercise $k ($v)"
	else
		not_ok "the scenarios exercise $k (${v:-0})"
	fi
done

# The task farm, from the public header only.
for p in 3 7 12; do
	run_test "farm on $p ranks (items of uneven size and cost, by weight, rank 2 drained)" \
		"$p" "$tmp/farm-$p.log" "$OUT/farm" 30
done
ASAN_OPTIONS=detect_leaks=0 run_test "farm under ASan+UBSan on 5 ranks" 5 "$tmp/farm-san.log" \
	"$OUT/farm-san" 24
t3=$(date +%s)

# The settle's exchange: heavy units on the busiest rank, light ones elsewhere.
run_test "heavy: a rank of heavy units only ends within 1.02 (the exchange)" 4 \
	"$tmp/heavy.log" "$OUT/heavy"

# Fewest bytes: cheap units of the weight needed, the balance no worse.
run_test "bytes: with a sizer at most 2/3 of the payload bytes, max/avg no worse, on 8 ranks" 8 \
	"$tmp/bytes.log" "$OUT/bytes" -v
sed -n 's/^# \(.* on 8 ranks:\)/# bytes: \1/p' "$tmp/bytes.log"

# One message above 2 GiB.
run_test "big: a message above 2 GiB on 2 ranks" 2 "$tmp/big.log" "$OUT/big"
sed -n 's/^# /# big: /p' "$tmp/big.log"
t4=$(date +%s)

# Misuse: E_MPI outside MPI's life; units lost by the application abort.
tap_run timeout 60 "${MPIRUN[@]}" -np 2 "$OUT/misuse" mpi-state
if [ "$rc" -eq 0 ] && [ "$(grep -c 'ok: MPI is not initialized' "$TAP_OUT")" = 2 ]; then
	ok "misuse: open before MPI_Init and after MPI_Finalize: HCUBE_MPI_E_MPI, no handle"
else
	not_ok "misuse: open before MPI_Init and after MPI_Finalize (exit $rc)"
fi
if [ "$rc" -eq 0 ] && [ "$(grep -c 'after finalize: every call MPI is not initialized' "$TAP_OUT")" = 2 ]; then
	ok "misuse: a handle left open across MPI_Finalize: every call, close too, HCUBE_MPI_E_MPI"
else
	not_ok "misuse: a handle left open across MPI_Finalize (exit $rc)"
fi
while IFS='|' read -r mode text; do
	tap_run timeout 60 "${MPIRUN[@]}" -np 2 "$OUT/misuse" "$mode"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "libhcube-mpi: rank [01]: $text" "$TAP_ERR" &&
	   ! grep -q 'success' "$TAP_OUT"; then
		ok "misuse: $mode: the job aborts (exit $rc) with \"$text\""
	else
		not_ok "misuse: $mode: exit $rc, \"$text\" wanted"
	fi
done <<'EOF'
query-takes|the application's pack() left 3 units of 6 when asked the size of 3
short-write|the application's pack() wrote 16 bytes for 3 units
unpack-fails|the application's unpack() failed for 3 units from rank 1
unpack-drops|the application's unpack() of 3 units left 2 in the queue
keeps-units|the application's pack_weight() left 1 of its units on faulty rank 1
EOF

# Only the API is visible.
syms=$(nm -g --defined-only "$OUT/libhcube-mpi.a" | awk 'NF == 3 { print $3 }' | sort)
dsyms=$(nm -D --defined-only "$OUT/libhcube-mpi.so.1" | awk '{ print $3 }' | sort)
api=$(sed -n 's/^HCUBE_MPI_API [^(]*[ *]\(hcube_mpi_[a-z_]*\)(.*/\1/p' "$OUT/include/hcube_mpi.h" | sort)
if [ -n "$api" ] && [ "$syms" = "$api" ] && [ "$dsyms" = "$api" ]; then
	ok "the archive and the shared library export the $(echo "$api" | wc -l) functions of hcube_mpi.h, nothing else"
else
	TAP_SHOW=
	not_ok "exports: archive: $(echo "$syms" | grep -cv '^hcube_mpi_') others, shared: $(echo "$dsyms" | grep -cv '^hcube_mpi_') others"
	comm -3 <(echo "$api") <(echo "$dsyms") | head | sed 's/^/# /'
fi
if readelf -d "$OUT/libhcube-mpi.so.1" | grep -q 'SONAME.*\[libhcube-mpi\.so\.1\]' &&
   [ "$(readlink "$OUT/libhcube-mpi.so")" = libhcube-mpi.so.1 ]; then
	ok "libhcube-mpi.so.1 has the soname libhcube-mpi.so.1; libhcube-mpi.so links to it"
else
	not_ok "the shared library's soname"
fi

# Installed under a temporary prefix: pkg-config, the shared library, the
# archive, an application with names of the library's own.
prefix=$tmp/prefix
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
tap_run make -s -C "$(dirname "$EXAMPLE")" install BUILD="$(dirname "$OUT")" PREFIX="$prefix"
if [ "$rc" -eq 0 ] && [ "$(pkg-config --modversion hcube-mpi 2>&1)" = \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/dkms.conf")" ]; then
	ok "make install PREFIX=<tmp>: pkg-config finds hcube-mpi $(pkg-config --modversion hcube-mpi)"
else
	not_ok "make install PREFIX=<tmp> and pkg-config --modversion hcube-mpi"
fi
flags=$(pkg-config --cflags --libs hcube-mpi)
tap_run cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/example-pc" "$EXAMPLE" $flags
if [ "$rc" -eq 0 ] && readelf -d "$tmp/example-pc" | grep -q 'NEEDED.*libhcube-mpi\.so\.1'; then
	ok "cc example.c \$(pkg-config --cflags --libs hcube-mpi): linked to libhcube-mpi.so.1"
else
	not_ok "cc example.c \$(pkg-config --cflags --libs hcube-mpi)"
fi
cat >"$tmp/own.c" <<'EOF'
/* An application with names the library uses inside. */
#include <stdio.h>
#include <hcube_mpi.h>
int hm_log(int x) { return x + 1; }
int hcube_plan_build(void) { return 41; }
static uint32_t cnt(void *q) { (void)q; return 0; }
static ssize_t pk(void *q, uint32_t n, void *b, size_t c) { (void)q; (void)n; (void)b; (void)c; return -1; }
static int up(void *q, uint32_t n, const void *b, size_t l) { (void)q; (void)n; (void)b; (void)l; return -1; }
int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = { .count = cnt, .pack = pk, .unpack = up };
	struct hcube_mpi *h;
	int err;

	MPI_Init(&argc, &argv);
	err = hcube_mpi_open(MPI_COMM_WORLD, &ops, NULL, &h);
	if (!err)
		err = hcube_mpi_balance(h, "optimal", NULL);
	printf("%d %d %s\n", hm_log(1), hcube_plan_build(), hcube_mpi_strerror(err));
	hcube_mpi_close(h);
	MPI_Finalize();
	return err;
}
EOF
for how in shared static; do
	if [ $how = shared ]; then
		libs=$(pkg-config --libs hcube-mpi)
	else
		libs="$prefix/lib/libhcube-mpi.a $(pkg-config --libs ompi-c)"
	fi
	# shellcheck disable=SC2086
	tap_run cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/own-$how" "$tmp/own.c" \
		$(pkg-config --cflags hcube-mpi) $libs
	[ "$rc" -eq 0 ] && tap_run env LD_LIBRARY_PATH="$prefix/lib" timeout 60 \
		"${MPIRUN[@]}" -np 2 "$tmp/own-$how"
	if [ "$rc" -eq 0 ] && [ "$(sort -u "$TAP_OUT")" = "2 41 success" ]; then
		ok "an application defining hm_log and hcube_plan_build links the installed $how library and runs"
	else
		not_ok "an application defining hm_log and hcube_plan_build, $how library (exit $rc)"
	fi
done

# The example: the document prints it as it is.
python3 - "$DOC" "$EXAMPLE" <<'PY' >"$tmp/doc.log" 2>&1
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

# Its commands, as a new user runs them (root, more ranks than cores),
# without this script's OMPI_ settings, from the top of a copy of the
# tree, against the library installed above: the document's output.
python3 - "$DOC" "$tmp/cmds.sh" "$tmp/want.txt" <<'PY'
import re, sys
part = open(sys.argv[1]).read().split("## The example", 1)[1]
cmds = re.search(r"<!-- run -->\n```sh\n(.*?)```", part, re.S).group(1)
want = re.search(r"<!-- output -->\n```\n(.*?)```", part, re.S).group(1)
open(sys.argv[2], "w").write(cmds)
open(sys.argv[3], "w").write(want)
PY
mkdir -p "$tmp/tree/tools/hcube-mpi" "$tmp/tree/build"
cp "$EXAMPLE" "$tmp/tree/tools/hcube-mpi/"
for v in "${OMPI_ENV[@]}"; do unset "${v%%=*}"; done
(cd "$tmp/tree" && env LD_LIBRARY_PATH="$prefix/lib" timeout 120 bash -e "$tmp/cmds.sh") \
	>"$tmp/got.txt" 2>"$tmp/cmds.err"
rc=$?
export "${OMPI_ENV[@]}"
if [ "$rc" -eq 0 ] && cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
	ok "Documentation/mpi.md's commands for the example, run as written: its output"
else
	TAP_SHOW="commands:$tmp/cmds.sh stderr:$tmp/cmds.err got:$tmp/got.txt"
	not_ok "Documentation/mpi.md's commands for the example (exit $rc)"
	TAP_SHOW=
fi
# Against the built tree with mpicc, on 4 ranks: rank R before|after[ (faulty)]: N units, sum S
tap_run "$MPICC" -std=gnu11 -Wall -Wextra -Werror -o "$tmp/example-tree" "$EXAMPLE" \
	-I "$OUT/include" "$OUT/libhcube-mpi.a"
[ "$rc" -eq 0 ] && tap_run timeout 120 "${MPIRUN[@]}" -np 4 "$tmp/example-tree"
if [ "$rc" -eq 0 ] && awk '
	/^rank [0-9]+ before:/ { nb++; ub += $4; sb += $7 }
	/^rank [0-9]+ after/ {
		na++; ua += $(NF - 3); sa += $NF
		if ($2 == 1) { if ($0 !~ /faulty\): 0 units/) bad = 1 }
		else { u = $(NF - 3); if (lo == "" || u < lo) lo = u; if (u > hi) hi = u }
	}
	END { exit (nb != 4 || na != 4 || ub != ua || sb != sa || hi - lo > 1 || bad) }' "$TAP_OUT"; then
	ok "example built with $MPICC against the build tree, on 4 ranks: units and their sum kept, rank 1 faulty and empty, the others within one unit"
else
	not_ok "example built with $MPICC against the build tree, on 4 ranks (exit $rc)"
fi
tap_run env LD_LIBRARY_PATH="$prefix/lib" timeout 60 "${MPIRUN[@]}" -np 2 "$tmp/example-pc" nosuch
if [ "$rc" -eq 1 ] && [ "$(grep -c "unknown policy 'nosuch'" "$TAP_ERR")" = 1 ]; then
	ok "example with an unknown policy: exit status 1, the library's message once"
else
	not_ok "example with an unknown policy: exit status $rc"
fi

# The experiment driver against hcube-sim on the same instances.
# exp_run NAME P ARGS...: hcube-mpi-exp on P ranks, into $tmp/NAME.csv and .err
exp_run() {
	local name=$1 p=$2
	shift 2
	timeout 300 "${MPIRUN[@]}" -np "$p" "$OUT/hcube-mpi-exp" "$@" \
		>"$tmp/$name.csv" 2>"$tmp/$name.err"
}
# exp_check NAME TEXT ARGS...: ok TEXT when the Python on stdin, given
# $tmp/NAME.csv and ARGS, passes; else not ok, with the driver's output
exp_check() {
	local name=$1 text=$2
	shift 2
	if python3 - "$tmp/$name.csv" "$@"; then
		ok "$text"
	else
		not_ok "${text%%:*}"
		sed 's/^/# /' "$tmp/$name.csv" "$tmp/$name.err" | head -20
	fi
}
if [ -n "$SIM" ] && [ -x "$SIM" ]; then
	"$SIM" sbn --procs 4 --runs 1 --policy nobal,sbn --quiet --out "$tmp/sbn" \
		--jobs-out "$tmp/jobs"
	exp_run exp 4 sbn --jobs "$tmp/jobs" --scenario light --runs 1 \
		--policy none,dem,sbn
	exp_check exp "hcube-mpi-exp sbn: no balancing reproduces hcube-sim's run exactly; DEM and SBN run every job once" \
		"$tmp/sbn/sbn.csv" <<'PY'
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
	"$SIM" run --dim 3 --faults 2 --runs 2 --policy none --instance-out "$tmp/inst" \
		--csv >"$tmp/sim0.csv"
	exp_run exp0 8 p000 --instances "$tmp/inst" --dim 3 --faults 2 --runs 2 \
		--policy none,mcwa,dem
	exp_check exp0 "hcube-mpi-exp p000: no balancing reproduces hcube-sim's makespan; MCWA and DEM run every task once, faster" \
		"$tmp/sim0.csv" "$tmp/exp0.err" <<'PY'
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
fi
t5=$(date +%s)

echo "# mpi_test $((t1 - t0)) s, sanitizers $((t2 - t1)) s, farm $((t3 - t2)) s, big $((t4 - t3)) s, the rest $((t5 - t4)) s"
tap_end
