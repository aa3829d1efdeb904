# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What fake_test.sh and top_test.sh share: a program that runs until a
# signal ends it, signalled once it is waiting. Source it after tap.sh.

# signal_round SIG N COUNT NAME CMD...: CMD in the background, its stdout
# in $tmp/out and its stderr in $tmp/err (both emptied first: an earlier
# round's lines must not count, were the shell to look before CMD opens
# them); SIG once the function COUNT prints N or more (at most 30 s: slow
# under ASan on a loaded machine). The test NAME passes when CMD then
# exits with status 0, COUNT prints N and nothing went to stderr. (Its
# locals must not be tap.sh's globals: n counts the tests.)
signal_round() {
	local sig=$1 want=$2 count=$3 name=$4 pid
	shift 4
	# shellcheck disable=SC2154 # tap_tmpdir sets it
	: >"$tmp/out"
	: >"$tmp/err"
	"$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 300); do
		[ "$("$count")" -ge "$want" ] && break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$("$count")" -eq "$want" ] && [ ! -s "$tmp/err" ]; then
		ok "$name"
	else
		not_ok "$name (rc $rc)"
	fi
}
