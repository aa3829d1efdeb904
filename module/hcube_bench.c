// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the phases of a rebalance, timed for `make bench` only.
 *
 * Built into the module only with HCUBE_BENCH_PHASES=y (Kbuild), which
 * tools/bench builds as a second module beside the real one. After
 * each rebalance that moved tasks it logs one line, "hcube: bench phases:"
 * and key=value pairs in nanoseconds, that bench-in-vm.sh collects. The
 * clock is read around every set_cpus_allowed_ptr() call too (set_cpus_ns),
 * which the real module does not do: its own rebalance time is measured
 * without this file. The clock is local_clock(), the TSC: the bench VM's
 * clocksource is the HPET, and under TCG a read of it (ktime_get_ns()) is
 * a device access that costs a good part of a move.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/clock.h>
#include "hcube.h"

/* Under hcube.lock, like the rebalance it times. */
static struct {
	u64 start, at[HCUBE_BENCH_NPHASES];
	u64 set_cpus_ns;
	u32 set_cpus_calls;
	u64 part_ns[HCUBE_BENCH_NPARTS];
	u32 part_calls[HCUBE_BENCH_NPARTS];
} hcube_bench;

void hcube_bench_start(void)
{
	memset(&hcube_bench, 0, sizeof(hcube_bench));
	hcube_bench.start = local_clock();
}

void hcube_bench_mark(enum hcube_bench_phase ph)
{
	hcube_bench.at[ph] = local_clock();
}

u64 hcube_bench_now(void)
{
	return local_clock();
}

void hcube_bench_part(enum hcube_bench_part part, u64 since)
{
	hcube_bench.part_ns[part] += local_clock() - since;
	hcube_bench.part_calls[part]++;
}

int hcube_bench_set_cpus_allowed(struct task_struct *p, const struct cpumask *mask)
{
	u64 t0 = local_clock();
	int err = set_cpus_allowed_ptr(p, mask);

	hcube_bench.set_cpus_ns += local_clock() - t0;
	hcube_bench.set_cpus_calls++;
	return err;
}

/* The phases between marks; a phase not reached counts 0. */
static u64 hcube_bench_span(enum hcube_bench_phase ph)
{
	u64 from = ph ? hcube_bench.at[ph - 1] : hcube_bench.start;

	return hcube_bench.at[ph] && from ? hcube_bench.at[ph] - from : 0;
}

void hcube_bench_report(struct hcube *hc, u32 moved)
{
	pr_info("bench phases: tasks=%u moved=%u evacuate_ns=%llu plan_ns=%llu routes_ns=%llu moves_ns=%llu set_cpus_ns=%llu set_cpus_calls=%u verify_ns=%llu verify_calls=%u cs_read_ns=%llu cs_reads=%u prepare_ns=%llu prepare_calls=%u\n",
		hc->ntasks, moved, hcube_bench_span(HCUBE_BENCH_EVACUATE),
		hcube_bench_span(HCUBE_BENCH_PLAN),
		hcube_bench_span(HCUBE_BENCH_ROUTES),
		hcube_bench_span(HCUBE_BENCH_MOVES),
		hcube_bench.set_cpus_ns, hcube_bench.set_cpus_calls,
		hcube_bench.part_ns[HCUBE_BENCH_VERIFY],
		hcube_bench.part_calls[HCUBE_BENCH_VERIFY],
		hcube_bench.part_ns[HCUBE_BENCH_CS_READ],
		hcube_bench.part_calls[HCUBE_BENCH_CS_READ],
		hcube_bench.part_ns[HCUBE_BENCH_PREPARE],
		hcube_bench.part_calls[HCUBE_BENCH_PREPARE]);
}
