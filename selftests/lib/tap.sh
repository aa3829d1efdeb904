# SPDX-License-Identifier: GPL-2.0
# TAP for the shell tests: source it, call ok, not_ok and skip, and end with
# tap_end (or "echo 1..$n" and the status of $fails).
#
# A failing test shows what the command under test printed: run it with
# tap_run (its stdout goes to $TAP_OUT, its stderr to $TAP_ERR, its status
# to $rc), or list other files in TAP_SHOW as "label:file ...". not_ok
# prints the first $TAP_LINES (5) lines of each, stderr first, and the last
# ones of the files in TAP_SHOW_TAIL (a traceback's end); 400 characters a
# line at most.
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

skip() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $1"
	tap_show
}

# tap_bail MESSAGE: stop here; what follows cannot run ("Bail out!").
tap_bail() {
	echo "Bail out! $*"
	exit 1
}

# tap_need_exec FILE...: bail out unless every FILE is an executable.
tap_need_exec() {
	local f
	for f; do
		[ -x "$f" ] || tap_bail "$f is not an executable"
	done
}

# tap_need_file FILE...: bail out unless every FILE is readable.
tap_need_file() {
	local f
	for f; do
		[ -r "$f" ] || tap_bail "$f is not readable"
	done
}

# The output of the command under test, as TAP comments.
tap_show() {
	local item file
	for item in ${TAP_ERR:+stderr:$TAP_ERR} ${TAP_OUT:+stdout:$TAP_OUT} ${TAP_SHOW-}; do
		file=${item#*:}
		[ -s "$file" ] && head -n "${TAP_LINES:-5}" "$file" |
			sed "s/^/#   ${item%%:*}: /" | cut -c1-400
	done
	for item in ${TAP_SHOW_TAIL-}; do
		file=${item#*:}
		[ -s "$file" ] && tail -n "${TAP_LINES:-5}" "$file" |
			sed "s/^/#   ${item%%:*}: /" | cut -c1-400
	done
	return 0
}

# tap_run CMD...: run CMD, its output where tap_show finds it.
tap_run() {
	"$@" >"$TAP_OUT" 2>"$TAP_ERR"
	rc=$?
}

# A temporary directory, $tmp, removed when the script exits (only by the
# script itself: not by a forked child that a signal hits before it
# execs); the output of tap_run goes there.
tap_tmpdir() {
	tmp=$(mktemp -d)
	tap_pid=$$
	trap '[ "$BASHPID" = "$tap_pid" ] && rm -rf "$tmp"' EXIT
	TAP_OUT=$tmp/out
	TAP_ERR=$tmp/err
}

# tap_usage_error NAME PATTERN CMD...: CMD refuses its arguments as a
# command-line tool should: exit status 2, nothing on stdout, exactly one
# line on stderr, matching the extended regex PATTERN (needs tap_tmpdir).
tap_usage_error() {
	local name=$1 pat=$2 lines
	shift 2
	tap_run "$@"
	lines=$(wc -l <"$TAP_ERR")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qE -- "$pat" "$TAP_ERR" &&
	   [ ! -s "$TAP_OUT" ]; then
		ok "error: $name"
	else
		not_ok "error: $name (exit status $rc, $lines lines on stderr)"
	fi
}

# The plan, a summary of failures; returns 1 if a test failed.
tap_end() {
	echo "1..$n"
	if [ "$fails" -gt 0 ]; then
		echo "# $fails of $n failed"
		return 1
	fi
	return 0
}

# ktap_summary FILE [N]: the results of run_kselftest.sh's KTAP in FILE
# (its own lines; a test's output is nested under "# "). Prints "# summary:
# T tests: P passed, S skipped, F failed"; returns 1 when FILE has not
# exactly one plan, the results are not numbered 1..plan, one is "not ok",
# or N is given and is not the plan.
ktap_summary() {
	awk -v want="${2-}" '
	function bad(msg) { print "# summary: " msg; err = 1 }
	/^1\.\.[0-9]+/ { plans++; plan = substr($1, 4) + 0; next }
	/^(not )?ok [0-9]+/ {
		num = $1 == "not" ? $3 : $2
		if (num != ++seen)
			bad("result " num " where " seen " was due")
		if ($1 == "not")
			failed++
		else if ($0 ~ /# SKIP/)
			skipped++
		else
			passed++
	}
	END {
		if (plans != 1)
			bad(plans + 0 " plans, not one")
		if (seen != plan)
			bad(seen + 0 " results for a plan of " plan + 0)
		if (want != "" && plan != want)
			bad("a plan of " plan + 0 " where " want " tests were asked for")
		if (failed)
			bad(failed " failed")
		printf "# summary: %d tests: %d passed, %d skipped, %d failed\n",
			seen, passed, skipped, failed
		exit err
	}' "$1"
}
