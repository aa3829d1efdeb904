#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check-ksft`: the kselftest entry point of selftests/hcube. On the
# host: `make -C selftests/hcube install` into a temporary directory (and
# its objects into another: none in the sources), the installed tree
# (run_kselftest.sh, the runner, kselftest-list.txt against the test
# sources, settings, config, the files the tests use), the tree run by
# run_kselftest.sh with no module (every test skipped) and ktap_summary
# failing on a broken tree or a short run. Then in a VM (unless
# KSFT_NO_VM=1): scripts/checks/ksft/ksft-in-vm.sh runs the same tree.
# Usage: install_test.sh BUILD_DIR. Prints TAP.
#
# shellcheck disable=SC2015  # "A && ok || not_ok": ok returns 0
set -u
cd "$(dirname "$0")/../../.." || exit 2
BUILD=$(realpath "${1:-build}")
# shellcheck source=selftests/lib/tap.sh
. "$(dirname "$0")/../../../selftests/lib/tap.sh"
TMPDIR=$BUILD tap_tmpdir	# in build/: the VM sees it (its /tmp may be empty)
T=$tmp/ksft
echo "TAP version 13"

# the tests, from the sources (not from the Makefile under test)
expected=$(cd selftests/hcube && printf '%s\n' ./*_test.c nl_fuzz.c stress.c ./*_test.sh ./*_test.py |
	sed 's|^\./||; s/\.c$//' | sort)
nexp=$(echo "$expected" | wc -l)

before=$(git status --porcelain --ignored selftests)
tap_run make -s -C selftests/hcube BUILD="$BUILD" OUTPUT="$tmp/obj" install INSTALL_PATH="$T"
[ "$rc" = 0 ] && ok "make -C selftests/hcube install INSTALL_PATH=DIR OUTPUT=DIR2" ||
	not_ok "make -C selftests/hcube install (status $rc)"
after=$(git status --porcelain --ignored selftests)
[ "$before" = "$after" ] && ok "nothing new in the source tree" ||
	{ TAP_SHOW=; not_ok "the build wrote into the sources: $(diff <(echo "$before") <(echo "$after") | tail -3)"; }
bad=
for f in run_kselftest.sh kselftest/runner.sh kselftest/prefix.pl kselftest/module.sh; do
	[ -x "$T/$f" ] || bad="$bad $f"
done
[ -z "$bad" ] && ok "the kernel's runner installed: run_kselftest.sh, kselftest/" ||
	not_ok "missing or not executable:$bad"
listed=$(sed -n 's/^hcube://p' "$T/kselftest-list.txt" | sort)
if [ "$listed" = "$expected" ] && [ "$(wc -l <"$T/kselftest-list.txt")" = "$nexp" ]; then
	ok "kselftest-list.txt: the $nexp tests of selftests/hcube, as hcube:TEST"
else
	not_ok "kselftest-list.txt differs from the sources: $(diff <(echo "$expected") <(echo "$listed") | grep '^[<>]' | tr '\n' ' ')"
fi
bad=
for t in $expected; do
	[ -x "$T/hcube/$t" ] || bad="$bad $t"
done
[ -z "$bad" ] && ok "every listed test is an executable in DIR/hcube" || not_ok "not installed:$bad"
bad=
for f in tap.sh hcube_state.sh hcube_module.sh hcube_module.py hcubectl hcube-sim cpu-on-off-test.sh hcube.yaml hcube.h config; do
	[ -s "$T/hcube/$f" ] || bad="$bad $f"
done
[ -z "$bad" ] && ok "the files the tests use are installed beside them" || not_ok "missing:$bad"
timeout=$(sed -n 's/^timeout=//p' "$T/hcube/settings")
[ "${timeout:-0}" -ge 600 ] 2>/dev/null && ok "settings: timeout=$timeout" ||
	not_ok "settings: timeout '$timeout', want at least 600 s (the slowest tests under TCG)"
[ "$("$T/run_kselftest.sh" -l)" = "$(cat "$T/kselftest-list.txt")" ] &&
	ok "run_kselftest.sh -l lists kselftest-list.txt" || not_ok "run_kselftest.sh -l"

# The host has no hcube module (it cannot load modules): every test skips.
"$T/run_kselftest.sh" | cat >"$tmp/host.ktap"
TAP_OUT=$tmp/host.ktap
if ktap_summary "$tmp/host.ktap" "$nexp" >"$tmp/sum" &&
   [ "$(grep -c '^ok [0-9]* selftests: hcube: .* # SKIP$' "$tmp/host.ktap")" = "$nexp" ] &&
   [ "$(grep -c '^# 1\.\.0 # SKIP .' "$tmp/host.ktap")" = "$nexp" ]; then
	ok "no module, no HCUBE_KO: $(sed 's/^# summary: //' "$tmp/sum"), each a SKIP with its reason"
else
	TAP_SHOW="summary:$tmp/sum"; not_ok "no module: the run is not $nexp skips"
fi
TAP_SHOW=

# ktap_summary can fail: a test removed from the tree, a short run, a
# plan other than what was asked for.
cp -a "$T" "$tmp/broken"
rm "$tmp/broken/hcube/nl_test"
"$tmp/broken/run_kselftest.sh" -t hcube:nl_test | cat >"$tmp/broken.ktap"
ktap_summary "$tmp/broken.ktap" 1 >"$tmp/sum" && not_ok "a removed test binary passes the summary" ||
	ok "a removed test binary fails the summary ($(grep -v ' tests: ' "$tmp/sum" | head -1))"
sed '$d' "$tmp/host.ktap" >"$tmp/short.ktap"
ktap_summary "$tmp/short.ktap" "$nexp" >/dev/null && not_ok "a run short of its last result passes" ||
	ok "a run short of its last result fails the summary"
ktap_summary "$tmp/host.ktap" $((nexp + 1)) >/dev/null && not_ok "a plan short of a test passes" ||
	ok "a plan other than the tests asked for fails the summary"

if [ "${KSFT_NO_VM:-0}" != 1 ]; then
	ko=$(realpath -e "${HCUBE_KO:-hcube.ko}") || exit 1
	TAP_OUT=$tmp/vm.out
	TAP_ERR=$tmp/vm.err
	tap_run env HCUBE_KO="$ko" KVER="${KVER:-$(scripts/kver.sh)}" scripts/vm/run-vm.sh \
		--cpus 4 --nodes 2 --mem 1024 --timeout 900 --env HCUBE_KO \
		-- scripts/checks/ksft/ksft-in-vm.sh "$T" "$nexp"
	sed 's/^/# vm: /' "$tmp/vm.out"
	TAP_OUT=
	if [ "$rc" = 0 ] && [ "$(grep -c '^ok' "$tmp/vm.out")" -gt 0 ] && ! grep -q '^not ok' "$tmp/vm.out"; then
		ok "in a VM: the $(grep -c '^ok' "$tmp/vm.out") checks of ksft-in-vm.sh"
	else
		not_ok "in a VM: ksft-in-vm.sh (status $rc)"
	fi
fi
tap_end
