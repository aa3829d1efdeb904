# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What fake_test.sh and top_test.sh share: a program that runs until a
# signal ends it, signalled once it is waiting.

# signal_round SIG N COUNT CMD...: CMD in the background, its stdout in
# $tmp/out and its stderr in $tmp/err (both emptied first: an earlier
# round's lines must not count, were the shell to look before CMD opens
# them); SIG once the function COUNT prints N or more (at most 30 s: slow
# under ASan on a loaded machine); its exit status in $rc.
signal_round() {
	local sig=$1 n=$2 count=$3 pid
	shift 3
	# shellcheck disable=SC2154 # tap_tmpdir sets it
	: >"$tmp/out"
	: >"$tmp/err"
	"$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 300); do
		[ "$("$count")" -ge "$n" ] && break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	wait "$pid"
	# shellcheck disable=SC2034 # the caller reads it
	rc=$?
}
