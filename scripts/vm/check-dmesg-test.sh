#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of check-dmesg.sh: clean kernel logs (real boots of the test VM
# under TCG, in testdata/) must pass, and each hand-written splat sample below
# must be caught, also when buried in a clean log, with CRLF line ends or
# without timestamps.  Prints one "ok"/"not ok" line per check and a final
# "N passed, N failed" line; exits 1 if any check failed.

set -euo pipefail

HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
CHECK=${CHECK_DMESG:-$HERE/check-dmesg.sh}
DATA=$HERE/testdata
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-dmesg-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
n=0

result() { # result OK|FAIL description [details-file]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		pass=$((pass + 1))
		echo "ok $n - $2"
	else
		fail=$((fail + 1))
		echo "not ok $n - $2"
		if [ -n "${3:-}" ] && [ -s "$3" ]; then
			sed 's/^/#   /' "$3"
		fi
	fi
}

# expect STATUS DESCRIPTION [check-dmesg args...]
expect() {
	local want=$1 desc=$2 got=0
	shift 2
	"$CHECK" "$@" >"$tmp/out" 2>&1 || got=$?
	if [ "$got" = "$want" ]; then
		result OK "$desc"
	else
		echo "expected exit $want, got $got" >>"$tmp/out"
		result FAIL "$desc" "$tmp/out"
	fi
}

# --- clean logs -------------------------------------------------------------------
clean_logs=("$DATA"/clean-*.log)
[ -e "${clean_logs[0]}" ] || { echo "no clean logs in $DATA" >&2; exit 1; }
for f in "${clean_logs[@]}"; do
	expect 0 "clean: $(basename "$f")" "$f"
done
expect 0 "clean: benign lines that contain trigger words" "$DATA/benign-lines.log"

# --from: a report before the start marker is shown but not counted
printf '%s\n' '[    1.0] BUG: KASAN: wild-memory-access in do_raw_spin_lock+0x11f/0x270' \
	'[    9.0] hcube-selftests: start' '[   10.0] all fine' >"$tmp/early.log"
expect 1 "--from: without it an early report counts" "$tmp/early.log"
HCUBE_DMESG_FROM='hcube-selftests: start' expect 0 "--from: an early report does not count" "$tmp/early.log"
printf '%s\n' '[   11.0] BUG: KASAN: use-after-free in hcube_reap+0x1/0x2' >>"$tmp/early.log"
HCUBE_DMESG_FROM='hcube-selftests: start' expect 1 "--from: a later report still counts" "$tmp/early.log"
base=${clean_logs[0]}

# --- splat samples (hand-written in the kernel's formats) -----------------------
# Each sample is a heredoc; the first line is the one that must be reported.
splat() { # splat NAME  (sample on stdin)
	local name=$1
	cat >"$tmp/$name.sample"
	local first
	first=$(head -n1 "$tmp/$name.sample")

	# 1. alone
	expect 1 "splat $name: alone" "$tmp/$name.sample"
	# 2. in the middle of a clean boot log, and reported with its line
	{ head -n 200 "$base"; cat "$tmp/$name.sample"; tail -n +201 "$base"; } >"$tmp/$name.log"
	local got=0
	"$CHECK" "$tmp/$name.log" >"$tmp/out" 2>&1 || got=$?
	if [ "$got" = 1 ] && grep -qF -- ">> $tmp/$name.log:201: $first" "$tmp/out"; then
		result OK "splat $name: in a clean log, first line reported"
	else
		echo "exit $got; wanted line 201 '$first' reported" >>"$tmp/out"
		result FAIL "splat $name: in a clean log, first line reported" "$tmp/out"
	fi
	# 3. serial console flavour: CRLF line ends
	sed 's/$/\r/' "$tmp/$name.log" >"$tmp/$name.crlf"
	expect 1 "splat $name: CRLF console log" "$tmp/$name.crlf"
	# 4. no timestamps (dmesg -t), read from stdin
	sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$tmp/$name.sample" >"$tmp/$name.notime"
	expect 1 "splat $name: no timestamps, stdin" - <"$tmp/$name.notime"
}

splat warn <<'EOF'
[   12.345678] WARNING: CPU: 3 PID: 412 at drivers/hcube/core.c:88 hcube_attach+0x5c/0x90 [hcube]
[   12.345700] Modules linked in: hcube(OE+) overlay 9p fscache netfs
[   12.345711] CPU: 3 PID: 412 Comm: insmod Tainted: G           OE      6.1.0-56-amd64 #1  Debian 6.1.192-2
[   12.345722] RIP: 0010:hcube_attach+0x5c/0x90 [hcube]
[   12.345733] Call Trace:
[   12.345744]  <TASK>
[   12.345755]  do_one_initcall+0x59/0x220
[   12.345766]  </TASK>
[   12.345777] ---[ end trace 0000000000000000 ]---
EOF

splat null-deref <<'EOF'
[   20.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   20.000002] #PF: supervisor read access in kernel mode
[   20.000003] Oops: 0000 [#1] PREEMPT SMP NOPTI
EOF

splat oops <<'EOF'
[   20.000003] Oops: 0000 [#1] PREEMPT SMP NOPTI
[   20.000004] CPU: 1 PID: 99 Comm: test Tainted: G           OE      6.1.0-56-amd64 #1
EOF

splat gpf <<'EOF'
[   30.100000] general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] PREEMPT SMP NOPTI
EOF

splat kernel-bug <<'EOF'
[   31.000000] kernel BUG at drivers/hcube/plan.c:140!
[   31.000001] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
EOF

splat panic <<'EOF'
[   40.000000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b
[   40.000001] ---[ end Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b ]---
EOF

splat lockdep-circular <<'EOF'
[   50.000000] WARNING: possible circular locking dependency detected
[   50.000001] 6.1.0-56-amd64 #1 Tainted: G           OE
[   50.000002] ------------------------------------------------------
EOF

splat lockdep-circular-bare <<'EOF'
[   50.000000] possible circular locking dependency detected
EOF

splat lockdep-recursive <<'EOF'
[   50.100000] possible recursive locking detected
EOF

splat lockdep-irq-inversion <<'EOF'
[   50.200000] INFO: possible irq lock inversion dependency detected
EOF

splat lockdep-inconsistent <<'EOF'
[   50.300000] inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.
[   50.300001] WARNING: inconsistent lock state
EOF

splat lockdep-off <<'EOF'
[   50.400000] INFO: lockdep is turned off.
EOF

splat lockdep-debug-locks <<'EOF'
[   50.500000] DEBUG_LOCKS_WARN_ON(lock->magic != lock)
EOF

splat rcu-suspicious <<'EOF'
[   51.000000] WARNING: suspicious RCU usage
[   51.000001] 6.1.0-56-amd64 #1 Tainted: G           OE
[   51.000002] -----------------------------
[   51.000003] drivers/hcube/core.c:200 suspicious rcu_dereference_check() usage!
EOF

splat rcu-suspicious-bare <<'EOF'
[   51.000000] suspicious RCU usage.
EOF

splat might-sleep <<'EOF'
[   52.000000] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580
[   52.000001] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 77, name: test
EOF

splat might-sleep-bare <<'EOF'
[   52.000000] sleeping function called from invalid context at mm/slab.h:723
EOF

splat sched-atomic <<'EOF'
[   53.000000] BUG: scheduling while atomic: test/77/0x00000002
EOF

splat refcount <<'EOF'
[   54.000000] refcount_t: underflow; use-after-free.
EOF

splat list-add <<'EOF'
[   55.000000] list_add corruption. prev->next should be next (ffff888004a5c2b8), but was 0000000000000000. (prev=ffff888004a5c2b8).
EOF

splat list-del <<'EOF'
[   55.100000] list_del corruption, ffff888004a5c2b8->next is LIST_POISON1 (dead000000000100)
EOF

splat ubsan <<'EOF'
[   56.000000] UBSAN: array-index-out-of-bounds in drivers/hcube/topo.c:42:17
[   56.000001] index 8 is out of range for type 'int [8]'
EOF

splat kasan <<'EOF'
[   57.000000] BUG: KASAN: slab-use-after-free in hcube_release+0x21/0x60 [hcube]
EOF

splat kasan-bare <<'EOF'
[   57.000000] KASAN: null-ptr-deref in range [0x0000000000000000-0x0000000000000007]
EOF

splat kmemleak <<'EOF'
[   58.000000] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
EOF

splat kmemleak-object <<'EOF'
unreferenced object 0xffff888003a1c000 (size 64):
  comm "insmod", pid 88, jiffies 4294893210 (age 12.340s)
EOF

splat slub <<'EOF'
[   59.000000] BUG kmalloc-64 (Tainted: G           OE     ): Poison overwritten
EOF

splat soft-lockup <<'EOF'
[   60.000000] watchdog: BUG: soft lockup - CPU#2 stuck for 23s! [test:99]
EOF

splat soft-lockup-bare <<'EOF'
[   60.000000] soft lockup - CPU#2 stuck for 23s!
EOF

splat hard-lockup <<'EOF'
[   60.500000] Watchdog detected hard LOCKUP on cpu 1
EOF

splat hung-task <<'EOF'
[  121.000000] INFO: task test:99 blocked for more than 120 seconds.
[  121.000001]       Tainted: G           OE      6.1.0-56-amd64 #1 Debian 6.1.192-2
[  121.000002] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
EOF

splat hung-task-name <<'EOF'
[  121.000002] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
EOF

splat rcu-stall <<'EOF'
[   70.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
[   70.000001] rcu: 	2-...0: (1 GPs behind) idle=94ec/1/0x4000000000000000 softirq=582/583 fqs=2625
EOF

splat rcu-sched-stall <<'EOF'
[   70.000000] INFO: rcu_sched detected stalls on CPUs/tasks:
EOF

splat rcu-self-stall <<'EOF'
[   70.000000] rcu: INFO: rcu_preempt self-detected stall on CPU
EOF

splat rcu-exp-stall <<'EOF'
[   70.000000] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 3-... } 21004 jiffies s: 101 root: 0x8/.
EOF

splat call-trace <<'EOF'
[   80.000000] Call Trace:
[   80.000001]  <TASK>
[   80.000002]  dump_stack_lvl+0x44/0x5c
[   80.000003]  </TASK>
EOF

splat rip <<'EOF'
[   80.100000] RIP: 0010:hcube_plan_build+0x1a/0x2b0 [hcube]
EOF

splat stack-protector <<'EOF'
[   81.000000] Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: hcube_ioctl+0x1f2/0x200 [hcube]
EOF

splat bad-page <<'EOF'
[   82.000000] BUG: Bad page state in process test  pfn:12345
EOF

splat oom <<'EOF'
[   83.000000] test invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0
EOF

splat odebug <<'EOF'
[   84.000000] ODEBUG: free active (active state 0) object: 00000000a1b2c3d4 object type: timer_list hint: hcube_timer_fn+0x0/0x40 [hcube]
EOF

splat user-written-bug <<'EOF'
[   85.000000] hcube: BUG: plan table inconsistent
EOF

splat workqueue-lockup <<'EOF'
[   86.000000] BUG: workqueue lockup - pool cpus=1 node=0 flags=0x0 nice=0 stuck for 33s!
EOF

# --- ignoring an expected report ----------------------------------------------
cat >"$tmp/expected-warn.log" <<'EOF'
[   10.000000] hcube_test: provoking a warning on purpose
[   10.000001] ------------[ cut here ]------------
[   10.000002] WARNING: CPU: 0 PID: 90 at drivers/hcube/test.c:12 hcube_test_warn+0x9/0x20 [hcube_test]
[   10.000003] Modules linked in: hcube_test(OE+)
[   10.000004] RIP: 0010:hcube_test_warn+0x9/0x20 [hcube_test]
[   10.000005] Call Trace:
[   10.000006]  <TASK>
[   10.000007]  do_one_initcall+0x59/0x220
[   10.000008]  </TASK>
[   10.000009] ---[ end trace 0000000000000000 ]---
[   10.500000] hcube_test: done
EOF
expect 1 "expected WARN without --ignore is reported" "$tmp/expected-warn.log"
expect 0 "expected WARN with --ignore is not reported" \
	--ignore 'at drivers/hcube/test\.c:[0-9]+ hcube_test_warn' "$tmp/expected-warn.log"
{ cat "$tmp/expected-warn.log"; cat "$tmp/warn.sample"; } >"$tmp/expected-and-real.log"
expect 1 "--ignore does not hide a later, different WARN" \
	--ignore 'hcube_test_warn' "$tmp/expected-and-real.log"
got=0
HCUBE_DMESG_IGNORE='hcube_test_warn' "$CHECK" "$tmp/expected-warn.log" >"$tmp/out" 2>&1 || got=$?
if [ "$got" = 0 ]; then
	result OK "HCUBE_DMESG_IGNORE works"
else
	result FAIL "HCUBE_DMESG_IGNORE works" "$tmp/out"
fi

# --- options and errors -------------------------------------------------------------
got=0
out=$("$CHECK" -q "$tmp/warn.sample" 2>&1) || got=$?
if [ "$got" = 1 ] && [ -z "$out" ]; then
	result OK "-q: silent, exit 1"
else
	result FAIL "-q: silent, exit 1"
fi
expect 1 "several files: one dirty" "$base" "$tmp/warn.sample"
expect 2 "unreadable file" "$tmp/does-not-exist"
expect 2 "no file given"
expect 0 "empty log" /dev/null

echo "check-dmesg-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
