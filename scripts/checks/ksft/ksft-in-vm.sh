#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/checks/ksft/install_test.sh, inside the VM: the kselftest tree it
# installed in DIR, run by DIR/run_kselftest.sh, checked by ktap_summary.
#   1. every test, no module and no HCUBE_KO: N results, each a SKIP,
#      and each test's own "1..0 # SKIP reason" nested in the output;
#   2. nl_test with HCUBE_KO: it passes, and the module is unloaded after;
#   3. the module loaded, no HCUBE_KO: nl_test passes, lifecycle_test (which
#      loads the module itself) skips, and the module is still loaded;
#   4. a copy of DIR without nl_test: the summary fails.
# Usage: ksft-in-vm.sh DIR N (N: the number of tests). Prints TAP.
#
# shellcheck disable=SC2015  # "A && ok || not_ok": ok returns 0
set -u
T=$1
N=$2
KO=$HCUBE_KO
# shellcheck source=selftests/lib/tap.sh
. "$(dirname "$0")/../../../selftests/lib/tap.sh"
# kselftest's runner writes each test's output to /dev/stdout, a link that
# the VM's /dev (devtmpfs, no udev) lacks: without it the output is lost
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout
TAP_OUT=/tmp/ksft.ktap
TAP_ERR=/tmp/ksft.err
TAP_SHOW="summary:/tmp/ksft.sum"
TAP_LINES=40
echo "TAP version 13"

# run [-m] ARGS...: DIR/run_kselftest.sh ARGS through a pipe; its summary in
# /tmp/ksft.sum, its status in rc
run() {
	"$T/run_kselftest.sh" "$@" 2>"$TAP_ERR" | cat >"$TAP_OUT"
	ktap_summary "$TAP_OUT" "$want" >/tmp/ksft.sum
	rc=$?
}
sum() { sed 's/^# summary: //' /tmp/ksft.sum | tail -1; }
loaded() { [ -d /sys/module/hcube ]; }

rmmod hcube 2>/dev/null
unset HCUBE_KO
want=$N
run
skips=$(grep -c '^ok [0-9]* selftests: hcube: .* # SKIP$' "$TAP_OUT")
why=$(grep -c '^# 1\.\.0 # SKIP .' "$TAP_OUT")
[ "$rc" = 0 ] && [ "$skips" = "$N" ] && [ "$why" = "$N" ] &&
	ok "no module, no HCUBE_KO: $(sum), each a SKIP with its reason in the output" ||
	not_ok "no module, no HCUBE_KO: $skips skips of $N, $why reasons"

want=1
HCUBE_KO=$KO run -t hcube:nl_test
# (a SKIP of nl_test's own subtests, nested as comments, is no skip of nl_test)
[ "$rc" = 0 ] && ! grep -q '^ok [0-9]* selftests: hcube: .* # SKIP$' "$TAP_OUT" && ! loaded &&
	ok "HCUBE_KO=$KO: nl_test loads the module, passes, unloads it ($(sum))" ||
	not_ok "HCUBE_KO: nl_test (status $rc, module $(loaded && echo still loaded || echo unloaded))"

insmod "$KO"
want=2
run -t hcube:nl_test -t hcube:lifecycle_test
[ "$rc" = 0 ] && grep -q '^ok 1 .*nl_test$' "$TAP_OUT" &&
	grep -q '^ok 2 .*lifecycle_test # SKIP$' "$TAP_OUT" && loaded &&
	ok "the module loaded, no HCUBE_KO: nl_test passes, lifecycle_test skips, the module stays ($(sum))" ||
	not_ok "the module loaded, no HCUBE_KO"
rmmod hcube

cp -a "$T" /tmp/broken
rm /tmp/broken/hcube/nl_test
T=/tmp/broken
want=1
run -t hcube:nl_test
[ "$rc" != 0 ] && ok "without the nl_test binary the summary fails: $(head -1 /tmp/ksft.sum)" ||
	not_ok "without the nl_test binary the summary passes"
tap_end
