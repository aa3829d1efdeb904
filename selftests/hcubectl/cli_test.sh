#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl from the command line, without the module: every command's
# --help, every kind of bad usage (exit 2, one line on stderr, nothing on
# stdout), and every command that needs the kernel failing with the one
# "module is not loaded" line (exit 1). Prints TAP; exits 1 if a check failed.
#
# Usage: cli_test.sh [HCUBECTL...]   (default: build/hcubectl)
#   Each binary given is tested in turn (e.g. a plain and an ASan+UBSan build).
#
# When the hcube module is loaded (/sys/module/hcube exists), the "not
# loaded" checks are skipped.

set -u
BINS=("$@")
[ ${#BINS[@]} -gt 0 ] || BINS=(build/hcubectl)
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
tap_tmpdir

# Sanitizers must fail the run, and leaks count.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}

NOT_LOADED='hcubectl: the hcube module is not loaded (genl family "hcube" not found); load it with insmod hcube.ko'

run() {
	tap_run "$BIN" "$@"
}

# expect_help ARGS...: exit 0, a usage text on stdout, nothing on stderr
expect_help() {
	run "$@"
	if [ "$rc" -eq 0 ] && grep -q '^usage: hcubectl' "$tmp/out" && [ ! -s "$tmp/err" ]; then
		ok "help: hcubectl $*"
	else
		not_ok "help: hcubectl $* (rc $rc)"
	fi
}

# expect_usage PATTERN ARGS...: exit 2, nothing on stdout, exactly one line
# on stderr that starts with "hcubectl: " and matches PATTERN (grep -E)
expect_usage() {
	local pat=$1 lines
	shift
	run "$@"
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   grep -q '^hcubectl: ' "$tmp/err" && grep -qE -- "$pat" "$tmp/err"; then
		ok "usage error: hcubectl $*"
	else
		not_ok "usage error: hcubectl $* (rc $rc, $lines stderr lines, want /$pat/)"
	fi
}

# expect_system LINE ARGS...: exit 1, nothing on stdout, exactly LINE on stderr
# (after "hcubectl: ")
expect_system() {
	local line="hcubectl: $1"
	shift
	run "$@"
	if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$line" ]; then
		ok "system error: hcubectl $*"
	else
		not_ok "system error: hcubectl $* (rc $rc, want: $line)"
	fi
}

# expect_not_loaded ARGS...: exit 1, nothing on stdout, exactly the one line
expect_not_loaded() {
	run "$@"
	if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   [ "$(cat "$tmp/err")" = "$NOT_LOADED" ]; then
		ok "not loaded: hcubectl $*"
	else
		not_ok "not loaded: hcubectl $* (rc $rc)"
	fi
}

echo "TAP version 13"
for BIN in "${BINS[@]}"; do
	echo "# binary: $BIN"
	if [ ! -x "$BIN" ]; then
		not_ok "$BIN is not an executable"
		continue
	fi

	# ---- help ----
	expect_help --help
	expect_help -h
	expect_help help
	expect_help -j --help
	# Every command the top-level help lists has its own --help.
	cmds=$("$BIN" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p')
	if [ "$(echo "$cmds" | wc -w)" -ge 8 ]; then
		ok "help lists $(echo "$cmds" | wc -w) commands: $(echo $cmds)"
	else
		not_ok "help lists the commands (found: $(echo $cmds))"
	fi
	for c in $cmds; do
		expect_help "$c" --help
		expect_help "$c" -h
		expect_help help "$c"
	done
	for sub in "fault add" "fault del" "task add" "task del" "task list" \
		   "config show" "config set" "topology set"; do
		# shellcheck disable=SC2086
		expect_help $sub --help
	done
	# help is a command of the list, describes itself, and prints what
	# --help prints, of hcubectl and of a command or subcommand
	case " $(echo $cmds) " in
	*" help "*) ok "help lists help" ;;
	*) not_ok "help lists help (found: $(echo $cmds))" ;;
	esac
	run help help
	if [ "$rc" -eq 0 ] && grep -q '^usage: hcubectl \[-j\] \[-p\] help \[COMMAND' "$tmp/out"; then
		ok "help help: the usage of help"
	else
		not_ok "help help: the usage of help (rc $rc)"
	fi
	for words in "" "show" "task" "task add" "config set"; do
		# shellcheck disable=SC2086  # the words
		if [ "$("$BIN" help $words 2>&1)" = "$("$BIN" $words --help 2>&1)" ]; then
			ok "help $words: as $words --help"
		else
			not_ok "help $words: differs from $words --help"
		fi
	done
	expect_usage "task: unknown command 'frob'" help task frob
	expect_help -j rebalance --dry-run --help
	expect_help show -j --help
	expect_help task add 1 2 --help
	run --version
	if [ "$rc" -eq 0 ] && grep -q '^hcubectl' "$tmp/out"; then
		ok "--version"
	else
		not_ok "--version (rc $rc)"
	fi

	# ---- bad usage: exit 2, one line ----
	expect_usage 'missing command'
	expect_usage 'missing command' -j
	expect_usage "unknown command 'frobnicate'" frobnicate
	expect_usage "unknown command 'frobnicate'" -j -p frobnicate
	expect_usage "unknown option '-x'" -x show
	expect_usage "unknown option '--bogus'" --bogus show
	expect_usage "unknown command 'nope'" help nope
	expect_usage "show: unexpected argument 'extra'" show extra
	expect_usage "show: unknown option '--bogus'" show --bogus
	expect_usage "show: unknown option '-x'" show -j -x
	expect_usage "unknown command 'frobnicate'" frobnicate -j

	expect_usage 'fault: missing command' fault
	expect_usage "fault: unknown command 'frob'" fault frob
	expect_usage "fault add: missing 'cpu N' or 'vertex V'" fault add
	expect_usage 'fault add: missing CPU number' fault add cpu
	expect_usage 'fault del: missing vertex' fault del vertex
	expect_usage "'abc' is not a CPU number" fault add cpu abc
	expect_usage "'1x' is not a CPU number" fault add cpu 1x
	expect_usage "'' is not a CPU number" fault add cpu ''
	expect_usage "'\+1' is not a CPU number" fault add cpu +1
	expect_usage "'99999999999' is not a CPU number" fault add cpu 99999999999
	expect_usage "unknown option '-1'" fault add cpu -1
	expect_usage "unexpected argument '2'" fault add cpu 1 2
	expect_usage "'disk' is neither 'cpu' nor 'vertex'" fault add disk 1
	expect_usage "vertex '0b102' is not a vertex id" fault add vertex 0b102
	expect_usage "vertex '0b' is not a vertex id" fault del vertex 0b
	expect_usage "vertex 'five' is not a vertex id" fault del vertex five
	expect_usage "vertex '0101' is ambiguous" fault add vertex 0101
	expect_usage "more than 32 binary digits" fault add vertex 0b101010101010101010101010101010101
	expect_usage "vertex '4294967296' is out of range" fault add vertex 4294967296

	expect_usage 'task: missing command' task
	expect_usage "task: unknown command 'kill'" task kill 1
	expect_usage 'task add: missing PID' task add
	expect_usage "task add: unknown option '--threads'" task add 1 --threads
	expect_usage "task add: 'x12' is not a pid" task add x12
	expect_usage "task add: '12x' is not a pid" task add 1 12x
	expect_usage 'task add: pid 0 is not a process' task add 0
	expect_usage "option '--vertex' needs an argument" task add 1 --vertex
	expect_usage "--vertex: 'foo' is not a vertex id" task add 1 --vertex foo
	expect_usage "task add: unknown option '--all'" task add --all
	expect_usage 'task del: missing PID \(or --all\)' task del
	expect_usage 'task del: --all takes no PID' task del --all 5
	expect_usage 'task del: --all and --tree' task del --all --tree
	expect_usage "task del: 'abc' is not a pid" task del abc
	expect_usage "task list: unexpected argument 'extra'" task list extra
	# registration units (issue 12)
	expect_usage 'task add: --tree and --thread do not go together' task add 1 --tree --thread
	expect_usage 'task add: missing PID \(or --cgroup PATH\)' task add --tree
	expect_usage "task add: option '--cgroup' needs an argument" task add --cgroup
	expect_usage 'task add: --cgroup takes no PID' task add 1 --cgroup x
	expect_usage 'task add: --cgroup and --thread do not go together' task add --cgroup x --thread
	expect_usage "task add: '7x' is not a pid" task add 7x --tree
	expect_usage 'task del: --tree and --thread do not go together' task del 1 --thread --tree
	expect_usage 'task del: --all and --tree do not go together' task del --all --tree
	expect_usage 'task del: --all and --cgroup do not go together' task del --all --cgroup x
	expect_usage 'task del: --cgroup takes no PID' task del 5 --cgroup x
	expect_usage "task del: unknown option '--vertex'" task del 5 --vertex 1

	expect_usage "rebalance: unknown policy 'foo' \(mcwa, dem, cwa, optimal, auto, rid, sid, sbn, sbn-cube, sbn-heur, pebble\)" rebalance --policy foo
	expect_usage "rebalance: unknown policy 'MCWA'" rebalance --policy MCWA
	expect_usage "option '--policy' needs an argument" rebalance --policy
	expect_usage "rebalance: unexpected argument 'now'" rebalance now
	expect_usage "rebalance: unknown option '--wet-run'" rebalance --wet-run
	expect_usage "rebalance: --transfers lists the last rebalance's plan: --policy needs --dry-run" \
		rebalance --transfers --policy dem

	expect_usage "stats: unexpected argument 'all'" stats all

	expect_usage 'config: missing command' config
	expect_usage "config: unknown command 'get'" config get
	expect_usage "config show: unexpected argument 'policy'" config show policy
	expect_usage 'config set: missing KEY VALUE' config set
	expect_usage "config set: unknown key 'foo'" config set foo 1
	expect_usage "config set: missing value for 'threshold'" config set threshold
	expect_usage "threshold: 'abc' is not a non-negative integer" config set threshold abc
	expect_usage "threshold: '99999999999' is not a non-negative integer" config set threshold 99999999999
	expect_usage "cooldown: '1.5' is not a non-negative integer" config set cooldown 1.5
	expect_usage "unknown option '-5'" config set threshold -5
	expect_usage "auto: 'maybe' is not on, off, 1 or 0" config set auto maybe
	expect_usage "config set: unknown policy 'foo'" config set policy foo
	expect_usage 'config set: max_tasks is read-only' config set max_tasks 5
	expect_usage "config set: 'threshold' given twice" config set threshold 1 threshold 2
	expect_usage "config set: missing value for 'auto'" config set threshold 1 auto

	expect_usage 'topology: missing command' topology
	expect_usage "topology: unknown command 'get'" topology get
	expect_usage 'topology set: missing mode' topology set
	expect_usage "topology set: unknown mode 'numa'" topology set numa
	expect_usage 'topology set: mode cpu takes no CPU list' topology set cpu 0-3
	expect_usage 'topology set: custom needs one CPULIST per vertex' topology set custom
	expect_usage "CPULIST '3-1' has a range that ends before it starts" topology set custom 0-1 3-1
	expect_usage "CPULIST 'a' is not a cpulist" topology set custom 0-3 a
	expect_usage "CPULIST '0,,1' is not a cpulist" topology set custom 0,,1
	expect_usage "CPULIST '0-' is not a cpulist" topology set custom 0-
	expect_usage "CPULIST '0-7:3/2' is not a cpulist" topology set custom 0-7:3/2
	expect_usage "topology set: CPULIST 2 is empty" topology set custom 0-1 2-3 '' 4,6
	expect_usage "topology set: CPULIST 0 is empty" topology set custom ''
	# shellcheck disable=SC2046
	run topology set custom $(seq 0 1024)
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -q 'topology set: custom takes at most 1024 CPULISTs' "$tmp/err"; then
		ok "usage error: hcubectl topology set custom 0 1 ... 1024 (1025 groups)"
	else
		not_ok "usage error: hcubectl topology set custom 0 1 ... 1024 (rc $rc)"
	fi

	# --cgroup is read before the kernel is asked: errors without the module
	expect_system "task add: --cgroup /nonexistent-hcube-cgroup: No such file or directory" \
		task add --cgroup /nonexistent-hcube-cgroup
	expect_system "task del: --cgroup $tmp: not a cgroup v2 directory" task del --cgroup "$tmp"
	mkdir -p "$tmp/cg"
	expect_system "task add: --cgroup $tmp/cg: not a cgroup v2 directory" -j task add --cgroup "$tmp/cg"

	# apply and -batch (issue 15)
	expect_usage 'apply: missing FILE' apply
	expect_usage "apply: unexpected argument 'b'" apply a b
	expect_usage "apply: unknown option '--force'" apply a --force
	expect_usage "option '--batch' needs an argument" -batch
	expect_usage "option '-b' needs an argument" -b
	expect_usage "-batch FILE takes no command \('show'\)" -batch x show
	expect_system "batch: $tmp/none: No such file or directory" -b "$tmp/none"
	expect_system "apply: $tmp/none: No such file or directory" apply "$tmp/none"
	printf 'policy dem\nfault cpu 1\n' >"$tmp/ok.conf"
	printf 'frobnicate\nshow\n' >"$tmp/batch"
	expect_usage "^hcubectl: $tmp/batch:1: unknown command 'frobnicate'" -b "$tmp/batch"
	printf '\n# only comments\n   \n' >"$tmp/batch"
	run --batch "$tmp/batch"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then
		ok "a batch of comments and blank lines: nothing to do, exit 0"
	else
		not_ok "a batch of comments and blank lines (rc $rc)"
	fi

	expect_usage "monitor: --count: '0' is not a positive integer" monitor --count 0
	expect_usage "monitor: --count: 'x' is not a positive integer" monitor --count x
	expect_usage "monitor: unexpected argument 'now'" monitor now

	expect_usage "top: --frames: '0' is not a number of frames \\(valid range 1\\.\\.4294967295\\)" top -n 0
	expect_usage "top: --frames: 'x' is not a number of frames" top --frames x
	expect_usage "top: --frames: '-1' is not a number of frames" top -n -1
	expect_usage "top: --delay: '0' is not a number of seconds \\(valid range 0\\.1\\.\\.3600\\)" top -n 1 -d 0
	expect_usage "top: --delay: '0.09' is not a number of seconds" top -n 1 -d 0.09
	expect_usage "top: --delay: '3601' is not a number of seconds" top -n 1 --delay 3601
	expect_usage "top: --delay: 'nan' is not a number of seconds" top -n 1 -d nan
	expect_usage "top: --delay: '2s' is not a number of seconds" top -n 1 -d 2s
	expect_usage "top: no JSON output" -j top -n 1
	expect_usage "top: no JSON output" top -n 1 --pretty
	expect_usage "top: unexpected argument 'now'" top now
	# stdout is a file here: the full screen needs a terminal
	expect_usage "top: the full-screen view needs a terminal" top
	expect_usage "top: the full-screen view needs a terminal" top -d 1

	# ---- commands that need the kernel ----
	if [ -e /sys/module/hcube ]; then
		echo "# SKIP the hcube module is loaded: no 'not loaded' checks"
	else
		expect_not_loaded show
		expect_not_loaded -j show
		expect_not_loaded show -j
		expect_not_loaded show --pretty
		expect_not_loaded -p show
		expect_not_loaded stats
		expect_not_loaded config show
		expect_not_loaded config set threshold 5
		expect_not_loaded config set policy dem auto off cooldown 100
		expect_not_loaded fault add cpu 0
		expect_not_loaded fault del vertex 0b1
		expect_not_loaded fault add vertex 3
		expect_not_loaded task add 1
		expect_not_loaded task add 1 2 --vertex 0b11
		expect_not_loaded task del 1
		expect_not_loaded task del --all
		expect_not_loaded task add 1 --tree --vertex 0b1
		expect_not_loaded task add 1 --thread
		expect_not_loaded task del 1 2 --tree
		expect_not_loaded -j task del 1 --thread
		expect_not_loaded task list
		expect_not_loaded -j task list
		expect_not_loaded rebalance
		expect_not_loaded rebalance --dry-run --policy dem
		expect_not_loaded topology set cpu
		expect_not_loaded topology set custom 0-1 2-3 4,6
		expect_not_loaded monitor
		expect_not_loaded -j monitor --count 1
		expect_not_loaded monitor --json --count 1
		expect_not_loaded apply "$tmp/ok.conf"
		expect_not_loaded apply --dry-run "$tmp/ok.conf"
		# a batch of commands that fail for want of the module: the first stops it
		printf '# nothing\n\nshow\nstats\n' >"$tmp/batch"
		expect_system "$tmp/batch:3: the hcube module is not loaded (genl family \"hcube\" not found); load it with insmod hcube.ko" \
			-batch "$tmp/batch"
		expect_not_loaded top -n 1
		expect_not_loaded top --frames 3 --delay 0.5
	fi
done

tap_end
