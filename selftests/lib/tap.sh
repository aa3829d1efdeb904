# SPDX-License-Identifier: GPL-2.0
# TAP counters for the shell tests: source it, then call ok/not_ok and
# end with "echo 1..$n" and the status of $fails.
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $1"
}
