// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: CPUs that announce their failure with machine checks. A notifier
 * on the kernel's MCE decode chain sees every logged machine-check record
 * (in process context, from the MCE core's work, after the record was
 * queued): it counts, per CPU, the corrected errors of a sliding window,
 * notes an uncorrected recoverable one, and when a CPU should be marked
 * faulty (mce_ce_threshold errors within mce_ce_window seconds, or an
 * uncorrected recoverable error with mce_uc on) it records that and kicks
 * the worker. The worker marks it (hcube_mce_apply(), hcube_cpu.c) the
 * way FAULT_ADD does. The notifier takes only hcube_mce.lock, never
 * hcube.lock, and does not sleep.
 *
 * Only the core's own errors count against the CPU that logged them
 * (hcube_mca_classify(), module/core/hcube_mca.c): a memory controller's
 * bank is logged by the CPU that polls it, a firmware-first memory error
 * by the CPU that handled the notification, and a bad DIMM must not
 * evacuate a CPU. The other records are counted by why, against no CPU.
 *
 * The window of a CPU is a ring of the times of its last mce_ce_threshold
 * corrected errors: the CPU is due when the ring is full and its oldest
 * entry is at most mce_ce_window old. Only x86 kernels with
 * CONFIG_X86_MCE have the chain; elsewhere the settings are refused
 * (hcube_mce_available()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#ifdef CONFIG_X86_MCE
#include <asm/mce.h>
#endif
#include "hcube.h"
#include "hcube_mca.h"

/* One CPU, under hcube_mce.lock. */
struct hcube_mce_cpu {
	u64 records;		/* every record of the CPU's own errors */
	u64 status;		/* MCi_STATUS of the last one */
	u32 bank;		/* and its bank */
	u32 head, n;		/* the ring: n times, the oldest at head */
	bool due_uc;		/* an uncorrected recoverable error asks for a mark */
	bool marked, uc;	/* a machine check marked it; for a UC error */
	u32 mark_count, mark_window;	/* the count that marked it, its window */
};

struct hcube_mce {
	struct notifier_block nb;
	struct hcube *hc;
	bool registered;
	spinlock_t lock;	/* guards what follows, to the counters */
	struct hcube_mce_cpu *cpu;	/* nr_cpu_ids entries */
	u64 *ring;		/* threshold entries per CPU: boottime, ns */
	u32 threshold;		/* mce_ce_threshold; 0: no window kept */
	u32 window;		/* mce_ce_window, seconds */
	bool uc;		/* mce_uc */
	cpumask_var_t due;	/* CPUs a machine check asks to mark */
	/* counted by the notifier, without hcube.lock */
	atomic64_t records, outside, offline, ignored;
	atomic64_t notcore[HCUBE_MCA_NCLASSES];	/* by class; CORE unused */
	u64 marks, refused;	/* under hcube.lock */
};

/**
 * hcube_mce_available() - whether this kernel has machine-check records
 *
 * Return: true on x86 kernels with CONFIG_X86_MCE.
 */
bool hcube_mce_available(void)
{
	return IS_ENABLED(CONFIG_X86_MCE);
}

/* The errors of @c's ring at most @window seconds old at @now. */
static u32 hcube_mce_in_window(struct hcube_mce *mc, unsigned int cpu, u64 now)
{
	struct hcube_mce_cpu *c = &mc->cpu[cpu];
	const u64 *ring = mc->ring + (size_t)cpu * mc->threshold;
	u64 win = (u64)mc->window * NSEC_PER_SEC;
	u32 i, k = 0;

	for (i = 0; i < c->n; i++)
		if (now - ring[(c->head + i) % mc->threshold] <= win)
			k++;
	return k;
}

#ifdef CONFIG_X86_MCE
/* A corrected error of @cpu at @now: true when the CPU is due. */
static bool hcube_mce_add_ce(struct hcube_mce *mc, unsigned int cpu, u64 now)
{
	struct hcube_mce_cpu *c = &mc->cpu[cpu];
	u64 *ring = mc->ring + (size_t)cpu * mc->threshold;

	if (c->n < mc->threshold) {
		ring[(c->head + c->n) % mc->threshold] = now;
		c->n++;
	} else {
		ring[c->head] = now;
		c->head = (c->head + 1) % mc->threshold;
	}
	return c->n == mc->threshold &&
	       now - ring[c->head] <= (u64)mc->window * NSEC_PER_SEC;
}

/*
 * On AMD SMCA, the kind of unit of the record's bank, from the kernel's
 * table of the CPU's banks (read from their IPID registers at boot); the
 * error code alone decides elsewhere.
 */
static enum hcube_mca_unit hcube_mce_unit(const struct mce *m)
{
#ifdef CONFIG_X86_MCE_AMD
	if ((m->cpuvendor != X86_VENDOR_AMD && m->cpuvendor != X86_VENDOR_HYGON) ||
	    !cpu_feature_enabled(X86_FEATURE_SMCA))
		return HCUBE_MCA_UNIT_NONE;
	/* a firmware report may name no CPU (extcpu -1) */
	if (m->extcpu >= nr_cpu_ids || !cpu_possible(m->extcpu))
		return HCUBE_MCA_UNIT_OTHER;
	switch (smca_get_bank_type(m->extcpu, m->bank)) {
	case SMCA_LS:
	case SMCA_LS_V2:
	case SMCA_IF:
	case SMCA_L2_CACHE:
	case SMCA_DE:
	case SMCA_EX:
	case SMCA_FP:
		return HCUBE_MCA_UNIT_CORE;
	case SMCA_L3_CACHE:
		return HCUBE_MCA_UNIT_L3;
	case SMCA_UMC:
	case SMCA_UMC_V2:
		return HCUBE_MCA_UNIT_MEMORY;
	case SMCA_CS:
	case SMCA_CS_V2:
	case SMCA_PIE:
	case SMCA_XGMI_PCS:
	case SMCA_GMI_PCS:
	case SMCA_XGMI_PHY:
	case SMCA_WAFL_PHY:
	case SMCA_GMI_PHY:
		return HCUBE_MCA_UNIT_FABRIC;
	case SMCA_NBIO:
	case SMCA_PCIE:
	case SMCA_PCIE_V2:
	case SMCA_NBIF:
	case SMCA_SHUB:
	case SMCA_SATA:
	case SMCA_USB:
		return HCUBE_MCA_UNIT_IO;
	default:	/* PB, PSP, SMU, MP5, MPDMA, reserved, unpopulated */
		return HCUBE_MCA_UNIT_OTHER;
	}
#else
	return HCUBE_MCA_UNIT_NONE;
#endif
}

/* Whose fault @m is: HCUBE_MCA_CORE when it counts against its CPU. */
static enum hcube_mca_class hcube_mce_class(const struct mce *m)
{
	struct hcube_mca_rec r = {
		.status = m->status,
		.tsc = m->tsc,
		.bank = m->bank,
		.severity = m->severity,
		.unit = hcube_mce_unit(m),
	};

	return hcube_mca_classify(&r);
}

/*
 * The decode chain's callback, for every record logged: process context
 * (the MCE core's work), but it only records, under hcube_mce.lock.
 */
static int hcube_mce_notify(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct hcube_mce *mc = container_of(nb, struct hcube_mce, nb);
	struct hcube *hc = mc->hc;
	struct mce *m = data;
	enum hcube_mca_class class;
	unsigned int cpu;
	bool due = false;

	if (!m)
		return NOTIFY_DONE;
	class = hcube_mce_class(m);
	if (class != HCUBE_MCA_CORE) {
		/* not the core's: whatever CPU logged it, it is not at fault */
		atomic64_inc(&mc->notcore[class]);
		goto out;
	}
	cpu = m->extcpu;
	if (cpu >= nr_cpu_ids ||
	    READ_ONCE(hc->cpu_vertex[cpu]) == HCUBE_NO_VERTEX) {
		atomic64_inc(&mc->outside);
		goto out;
	}
	spin_lock(&mc->lock);
	mc->cpu[cpu].records++;
	mc->cpu[cpu].status = m->status;
	mc->cpu[cpu].bank = m->bank;
	if (READ_ONCE(hc->stopping) || cpumask_test_cpu(cpu, hc->faulty)) {
		/* unloading, or nothing left to mark */
		atomic64_inc(&mc->ignored);
	} else if (!cpu_online(cpu)) {
		atomic64_inc(&mc->offline);
	} else if (mce_is_correctable(m)) {
		due = mc->threshold && hcube_mce_add_ce(mc, cpu, ktime_get_boottime_ns());
	} else if (!(m->status & MCI_STATUS_PCC) && mc->uc) {
		mc->cpu[cpu].due_uc = true;
		due = true;
	}
	if (due)
		cpumask_set_cpu(cpu, mc->due);
	spin_unlock(&mc->lock);
	if (due)
		hcube_events_kick(hc);
out:
	/* last: a reader who sees the count sees what the record asked for */
	smp_mb__before_atomic();
	atomic64_inc(&mc->records);
	return NOTIFY_DONE;
}
#endif

/**
 * hcube_mce_init() - the per-CPU records, at load, before the family
 * @hc: the module
 *
 * Return: 0 or -ENOMEM.
 */
int hcube_mce_init(struct hcube *hc)
{
	struct hcube_mce *mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	int i;

	if (!mc)
		return -ENOMEM;
	mc->cpu = kcalloc(nr_cpu_ids, sizeof(*mc->cpu), GFP_KERNEL);
	if (!mc->cpu || !zalloc_cpumask_var(&mc->due, GFP_KERNEL)) {
		kfree(mc->cpu);
		kfree(mc);
		return -ENOMEM;
	}
	spin_lock_init(&mc->lock);
	mc->hc = hc;
	mc->window = HCUBE_MCE_CE_WINDOW_DEFAULT;
	atomic64_set(&mc->records, 0);
	atomic64_set(&mc->outside, 0);
	atomic64_set(&mc->offline, 0);
	atomic64_set(&mc->ignored, 0);
	for (i = 0; i < HCUBE_MCA_NCLASSES; i++)
		atomic64_set(&mc->notcore[i], 0);
	hc->mce = mc;
	hc->cfg.mce_ce_window = mc->window;
	return 0;
}

/**
 * hcube_mce_start() - listen to the MCE decode chain, once all is ready
 * @hc: the module
 */
void hcube_mce_start(struct hcube *hc)
{
#ifdef CONFIG_X86_MCE
	struct hcube_mce *mc = hc->mce;

	mc->nb.notifier_call = hcube_mce_notify;
	/* it only reads the record: with the decoders, before the printer */
	mc->nb.priority = MCE_PRIO_EDAC;
	mce_register_decode_chain(&mc->nb);
	mc->registered = true;
#endif
}

/**
 * hcube_mce_stop() - stop listening, at unload (hcube.stopping set)
 * @hc: the module
 *
 * The chain's unregistration waits for a callback in progress: after it
 * none runs, and none kicks the worker.
 */
void hcube_mce_stop(struct hcube *hc)
{
#ifdef CONFIG_X86_MCE
	struct hcube_mce *mc = hc->mce;

	if (mc && mc->registered)
		mce_unregister_decode_chain(&mc->nb);
	if (mc)
		mc->registered = false;
#endif
}

void hcube_mce_exit(struct hcube *hc)
{
	struct hcube_mce *mc = hc->mce;

	if (!mc)
		return;
	hcube_mce_stop(hc);
	free_cpumask_var(mc->due);
	kvfree(mc->ring);
	kfree(mc->cpu);
	kfree(mc);
	hc->mce = NULL;
}

/**
 * hcube_mce_config() - new machine-check settings, under hcube.lock
 * @hc: the module
 * @threshold: mce_ce_threshold (0: off)
 * @window: mce_ce_window, seconds
 * @uc: mce_uc
 *
 * A new threshold starts every CPU's count afresh; a new window applies
 * to the errors already counted.
 *
 * Return: 0, or -ENOMEM with nothing changed.
 */
int hcube_mce_config(struct hcube *hc, u32 threshold, u32 window, bool uc)
{
	struct hcube_mce *mc = hc->mce;
	u64 *ring = NULL, *old;
	unsigned int cpu;

	if (threshold != mc->threshold && threshold) {
		ring = kvcalloc((size_t)threshold * nr_cpu_ids, sizeof(*ring),
				GFP_KERNEL);
		if (!ring)
			return -ENOMEM;
	}
	spin_lock(&mc->lock);
	old = NULL;
	if (threshold != mc->threshold) {
		old = mc->ring;
		mc->ring = ring;
		mc->threshold = threshold;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			mc->cpu[cpu].head = 0;
			mc->cpu[cpu].n = 0;
		}
	}
	mc->window = window;
	mc->uc = uc;
	spin_unlock(&mc->lock);
	kvfree(old);
	return 0;
}

/**
 * hcube_mce_take() - the CPUs machine checks ask to mark, under hcube.lock
 * @hc: the module
 * @due: set to them; their requests are taken
 * @uc: set to those of them asked for an uncorrected recoverable error
 */
void hcube_mce_take(struct hcube *hc, struct cpumask *due, struct cpumask *uc)
{
	struct hcube_mce *mc = hc->mce;
	unsigned int cpu;

	cpumask_clear(uc);
	spin_lock(&mc->lock);
	cpumask_copy(due, mc->due);
	cpumask_clear(mc->due);
	for_each_cpu(cpu, due) {
		if (mc->cpu[cpu].due_uc)
			cpumask_set_cpu(cpu, uc);
		mc->cpu[cpu].due_uc = false;
	}
	spin_unlock(&mc->lock);
}

/**
 * hcube_mce_mark() - a machine check marks @cpu, or the mark goes
 * @hc: the module, locked
 * @cpu: the CPU
 * @mark: marked now (keep what marked it), else cleared by FAULT_DEL
 * @uc: for an uncorrected recoverable error
 *
 * Either way the CPU's count starts afresh.
 */
void hcube_mce_mark(struct hcube *hc, unsigned int cpu, bool mark, bool uc)
{
	struct hcube_mce *mc = hc->mce;
	struct hcube_mce_cpu *c = &mc->cpu[cpu];

	spin_lock(&mc->lock);
	if (mark) {
		c->mark_count = mc->threshold && c->n ?
			hcube_mce_in_window(mc, cpu, ktime_get_boottime_ns()) : 0;
		c->mark_window = mc->window;
		mc->marks++;
	}
	c->marked = mark;
	c->uc = mark && uc;
	c->head = 0;
	c->n = 0;
	c->due_uc = false;
	cpumask_clear_cpu(cpu, mc->due);
	spin_unlock(&mc->lock);
}

/**
 * hcube_mce_refused() - count a mark refused (the last healthy vertex)
 * @hc: the module, locked
 * @cpu: the CPU a machine check asked to mark
 */
void hcube_mce_refused(struct hcube *hc, unsigned int cpu)
{
	hc->mce->refused++;
	pr_warn_ratelimited("machine checks on CPU %u: not marked faulty, its vertex is the last healthy one\n",
			    cpu);
}

/**
 * hcube_mce_info() - what the machine checks of @cpu say
 * @hc: the module, locked
 * @cpu: the CPU
 * @i: filled in
 *
 * Return: true when there is something to say (records, or a mark).
 */
bool hcube_mce_info(struct hcube *hc, unsigned int cpu, struct hcube_mce_info *i)
{
	struct hcube_mce *mc = hc->mce;
	struct hcube_mce_cpu *c = &mc->cpu[cpu];

	spin_lock(&mc->lock);
	i->records = c->records;
	i->status = c->status;
	i->bank = c->bank;
	i->marked = c->marked;
	i->uc = c->uc;
	if (c->marked) {
		i->count = c->mark_count;
		i->window = c->mark_window;
	} else {
		i->count = c->n ? hcube_mce_in_window(mc, cpu,
						      ktime_get_boottime_ns()) : 0;
		i->window = mc->window;
	}
	spin_unlock(&mc->lock);
	return i->records || i->marked;
}

/**
 * hcube_mce_stats() - the machine-check counters
 * @hc: the module, locked
 * @s: filled in
 */
void hcube_mce_stats(struct hcube *hc, struct hcube_mce_stats *s)
{
	struct hcube_mce *mc = hc->mce;

	s->records = atomic64_read(&mc->records);
	s->outside = atomic64_read(&mc->outside);
	s->offline = atomic64_read(&mc->offline);
	s->ignored = atomic64_read(&mc->ignored);
	s->marks = mc->marks;
	s->refused = mc->refused;
	s->memory = atomic64_read(&mc->notcore[HCUBE_MCA_MEMORY]);
	s->bus = atomic64_read(&mc->notcore[HCUBE_MCA_BUS]);
	s->shared_cache = atomic64_read(&mc->notcore[HCUBE_MCA_SHARED_CACHE]);
	s->firmware = atomic64_read(&mc->notcore[HCUBE_MCA_FIRMWARE]);
	s->other = atomic64_read(&mc->notcore[HCUBE_MCA_OTHER]);
}
