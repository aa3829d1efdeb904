// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the cube's vertices from the machine's CPUs. Discovery and labels,
 * the vertices' states, faults marked by the administrator and CPU
 * hotplug; after a change of states, hcube_after_change() (balance) moves
 * the tasks.
 *
 * Labels. The groups are sorted by (NUMA node, last-level cache, package,
 * core, CPU) and a group's label is its rank; the NUMA nodes are ranked by
 * their distance from the first node (then by id). SMT and LLC siblings so
 * get adjacent labels, which differ in the low bits, and each node holds a
 * contiguous range of labels, told apart by the high bits. With n =
 * ceil(log2(groups)), the labels from the number of groups to 2^n - 1 are
 * absent vertices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/log2.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/topology.h>
#include "hcube.h"
#include "hcube_errors.h"

static enum cpuhp_state hcube_hp_state;
/* The cube the hotplug callbacks record for: they get no context. */
static struct hcube *hcube_hp_cube;

/* Sort keys of one CPU; see the labelling rule at the top. */
struct hcube_cpu_key {
	u32 node_rank, llc, pkg, core, cpu;
};

static int hcube_key_cmp(const void *a, const void *b)
{
	const struct hcube_cpu_key *x = a, *y = b;

	if (x->node_rank != y->node_rank)
		return x->node_rank < y->node_rank ? -1 : 1;
	if (x->llc != y->llc)
		return x->llc < y->llc ? -1 : 1;
	if (x->pkg != y->pkg)
		return x->pkg < y->pkg ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : (x->cpu > y->cpu);
}

/* Rank of each node with present CPUs, by distance from the first one. */
static void hcube_node_ranks(int *rank)
{
	int first = cpu_to_node(cpumask_first(cpu_present_mask));
	int node, other, cpu;
	nodemask_t nodes = NODE_MASK_NONE;

	for_each_present_cpu(cpu)
		node_set(cpu_to_node(cpu), nodes);
	for_each_node_mask(node, nodes) {
		int r = 0;

		for_each_node_mask(other, nodes) {
			int dn = node_distance(first, node);
			int dx = node_distance(first, other);

			if (dx < dn || (dx == dn && other < node))
				r++;
		}
		rank[node] = r;
	}
}

static u32 hcube_llc_of(int cpu)
{
	u32 llc = hcube_cpu_llc_id(cpu);

	/* No LLC reported: the package stands in for it. */
	return llc == HCUBE_NO_LLC ? 0x10000 + topology_physical_package_id(cpu) : llc;
}

/*
 * The groups of a mode, in label order, into @groups (room for
 * HCUBE_MAX_VERTICES). Returns the number of groups, or -errno.
 */
static int hcube_discover(u32 m, cpumask_var_t *groups)
{
	struct hcube_cpu_key *keys;
	int *rank, cpu, n = 0, i, ng = 0;

	keys = kcalloc(nr_cpu_ids, sizeof(*keys), GFP_KERNEL);
	rank = kcalloc(nr_node_ids, sizeof(*rank), GFP_KERNEL);
	if (!keys || !rank) {
		ng = -ENOMEM;
		goto out;
	}
	hcube_node_ranks(rank);
	for_each_present_cpu(cpu) {
		keys[n].node_rank = rank[cpu_to_node(cpu)];
		keys[n].llc = m == HCUBE_MODE_NODE ? 0 : hcube_llc_of(cpu);
		keys[n].pkg = m == HCUBE_MODE_CPU ? topology_physical_package_id(cpu) : 0;
		keys[n].core = m == HCUBE_MODE_CPU ? topology_core_id(cpu) : 0;
		keys[n].cpu = cpu;
		n++;
	}
	sort(keys, n, sizeof(*keys), hcube_key_cmp, NULL);

	for (i = 0; i < n; i++) {
		bool same = i > 0 && m != HCUBE_MODE_CPU &&
			    keys[i].node_rank == keys[i - 1].node_rank &&
			    keys[i].llc == keys[i - 1].llc;

		if (!same) {
			if (ng == HCUBE_MAX_VERTICES) {
				ng = -E2BIG;
				goto out;
			}
			cpumask_clear(groups[ng++]);
		}
		cpumask_set_cpu(keys[i].cpu, groups[ng - 1]);
	}
out:
	kfree(keys);
	kfree(rank);
	return ng;
}

static void hcube_mem_free(struct hcube_mem *m)
{
	kvfree(m->state);
	kvfree(m->load);
	kvfree(m->before);
	kvfree(m->planned);
	kvfree(m->after);
	kvfree(m->scratch);
	kvfree(m->topo_mem);
	kvfree(m->plan_mem);
	kvfree(m->work);
	kvfree(m->routes);
	kvfree(m->ctrl);
	kvfree(m->ctrl_prev);
}

static int hcube_mem_alloc(struct hcube_mem *m, u32 dim)
{
	u32 nv = 1U << dim, ncl = 1U << (dim - hcube_pebble_cdim(dim)), i;

	m->state = kvzalloc(nv, GFP_KERNEL);
	m->load = kvcalloc(nv, sizeof(u32), GFP_KERNEL);
	m->before = kvcalloc(nv, sizeof(u32), GFP_KERNEL);
	m->planned = kvcalloc(nv, sizeof(u32), GFP_KERNEL);
	m->after = kvcalloc(nv, sizeof(u32), GFP_KERNEL);
	m->scratch = kvcalloc(nv, sizeof(u32), GFP_KERNEL);
	m->topo_mem = kvzalloc(hcube_topo_memsize(dim), GFP_KERNEL);
	m->plan_mem = kvzalloc(hcube_plan_memsize(dim), GFP_KERNEL);
	m->work = kvzalloc(hcube_work_memsize(dim), GFP_KERNEL);
	m->routes = kvcalloc(hcube_routes_max(dim), sizeof(*m->routes),
			     GFP_KERNEL);
	m->ctrl = kvcalloc(ncl, sizeof(*m->ctrl), GFP_KERNEL);
	m->ctrl_prev = kvcalloc(ncl, sizeof(*m->ctrl_prev), GFP_KERNEL);
	if (m->state && m->load && m->before && m->planned && m->after &&
	    m->scratch && m->topo_mem && m->plan_mem && m->work && m->routes &&
	    m->ctrl && m->ctrl_prev) {
		for (i = 0; i < ncl; i++)
			m->ctrl[i] = HCUBE_VERTEX_NONE;
		return 0;
	}
	hcube_mem_free(m);
	return -ENOMEM;
}

static void hcube_vertices_free(struct hcube_vertex *v, u32 nv)
{
	u32 i;

	for (i = 0; v && i < nv; i++) {
		free_cpumask_var(v[i].cpus);
		free_cpumask_var(v[i].usable);
	}
	kfree(v);
}

/*
 * Replace the vertices. @groups: @ngroups disjoint, non-empty masks of
 * present CPUs, in label order; validated by the caller. Only with no task.
 */
int hcube_topology_set(struct hcube *hc, u32 m, cpumask_var_t *groups,
		       u32 ngroups, struct netlink_ext_ack *extack)
{
	u32 dim = order_base_2(ngroups), nv = 1U << dim, i;
	struct hcube_mem mem = {};
	struct hcube_vertex *v;
	int cpu;

	if (hc->ntasks)
		return -EBUSY;
	v = kcalloc(nv, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nv; i++) {
		if (!zalloc_cpumask_var(&v[i].cpus, GFP_KERNEL) ||
		    !zalloc_cpumask_var(&v[i].usable, GFP_KERNEL))
			goto nomem;
		INIT_LIST_HEAD(&v[i].tasks);
		if (i < ngroups)
			cpumask_copy(v[i].cpus, groups[i]);
	}
	if (hcube_mem_alloc(&mem, dim))
		goto nomem;

	hcube_mem_free(&hc->m);
	hcube_vertices_free(hc->v, hc->nv);
	hc->m = mem;
	/* the last report pointed into the memory just freed */
	hcube_report_reset(&hc->report, hc);
	hcube_topo_init(&hc->topo, dim, hc->m.topo_mem);
	hcube_plan_init(&hc->plan, dim, hc->m.plan_mem);
	hc->v = v;
	hc->mode = m;
	hc->dim = dim;
	hc->nv = nv;
	hc->ngroups = ngroups;
	hc->cdim = hcube_pebble_cdim(dim);
	hc->nclusters = 1U << (dim - hc->cdim);
	cpumask_clear(hc->cube_cpus);
	/* read without the lock (hcube_mask_vertex(), the hotplug callbacks) */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(hc->cpu_vertex[cpu], HCUBE_NO_VERTEX);
	for (i = 0; i < ngroups; i++) {
		cpumask_or(hc->cube_cpus, hc->cube_cpus, v[i].cpus);
		for_each_cpu(cpu, v[i].cpus)
			WRITE_ONCE(hc->cpu_vertex[cpu], i);
	}
	hcube_refresh(hc);
	/* the initial election is no change: TOPO_NTF tells of the rebuild */
	memcpy(hc->m.ctrl_prev, hc->m.ctrl, hc->nclusters * sizeof(u16));
	return 0;

nomem:
	hcube_vertices_free(v, nv);
	return -ENOMEM;
}

/*
 * The CPUs the scheduler keeps out of load balancing or of the tick
 * (isolcpus=, nohz_full=), unless the module parameter isolated says to
 * use them (@use_isolated): they are in no vertex's usable CPUs.
 */
static void hcube_isolated_cpus(struct cpumask *mask, bool use_isolated)
{
	cpumask_clear(mask);
	if (use_isolated)
		return;
	cpumask_and(mask, housekeeping_cpumask(HK_TYPE_DOMAIN),
		    housekeeping_cpumask(HK_TYPE_TICK));
	cpumask_andnot(mask, cpu_possible_mask, mask);
}

/* The state a vertex has for given marks; sets @usable. */
static u8 hcube_vertex_state(struct hcube *hc, struct hcube_vertex *v,
			     const struct cpumask *faulty, bool marked,
			     struct cpumask *usable)
{
	cpumask_andnot(usable, v->cpus, faulty);
	if (cpumask_empty(v->cpus))
		return HCUBE_VERTEX_ABSENT;
	if (marked || cpumask_empty(usable))
		return HCUBE_VERTEX_FAULTY;
	cpumask_andnot(usable, usable, hc->isolated);
	if (cpumask_empty(usable))
		return HCUBE_VERTEX_ISOLATED;
	cpumask_and(usable, usable, hc->online);
	return cpumask_empty(usable) ? HCUBE_VERTEX_OFFLINE : HCUBE_VERTEX_HEALTHY;
}

/*
 * Recompute masks, states, the logical topology and the pebble clusters'
 * controllers; a CONTROLLER_NTF then tells of the clusters whose
 * controller changed.
 */
void hcube_refresh(struct hcube *hc)
{
	cpumask_var_t usable;
	u32 i;
	int err;

	if (!alloc_cpumask_var(&usable, GFP_KERNEL)) {
		/* keep the old masks; states stay conservative */
		pr_err("out of memory refreshing vertex masks\n");
		return;
	}
	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];

		v->state = hcube_vertex_state(hc, v, hc->faulty, v->marked, usable);
		if (v->state != HCUBE_VERTEX_HEALTHY)
			cpumask_clear(usable);
		if (!cpumask_equal(v->usable, usable))
			v->dirty = true;
		cpumask_copy(v->usable, usable);
		/* the core knows healthy and not: isolated is as good as faulty */
		hc->m.state[i] = v->state == HCUBE_VERTEX_ISOLATED ?
				 HCUBE_VERTEX_FAULTY : v->state;
	}
	free_cpumask_var(usable);
	memcpy(hc->m.ctrl_prev, hc->m.ctrl, hc->nclusters * sizeof(u16));
	hcube_pebble_elect(hc->dim, hc->cdim, hc->m.state, hc->m.ctrl);
	err = hcube_topo_build(&hc->topo, hc->dim, hc->m.state, hc->m.work);
	hc->topo_valid = !err;
	hc->generation++;
}

/* Would any vertex stay healthy with these marks? */
static bool hcube_any_healthy(struct hcube *hc, const struct cpumask *faulty,
			      int marked_vertex)
{
	cpumask_var_t usable;
	bool any = false;
	u32 i;

	if (!alloc_cpumask_var(&usable, GFP_KERNEL))
		return false;
	for (i = 0; i < hc->nv && !any; i++) {
		bool marked = hc->v[i].marked || (int)i == marked_vertex;

		any = hcube_vertex_state(hc, &hc->v[i], faulty, marked, usable) ==
		      HCUBE_VERTEX_HEALTHY;
	}
	free_cpumask_var(usable);
	return any;
}

/* The checks of a fault change: 0, or -errno with the extack set. */
static int hcube_fault_check(struct hcube *hc, int cpu, int vertex, bool add,
			     struct netlink_ext_ack *extack,
			     const struct nlattr *attr)
{
	cpumask_var_t faulty;
	bool was, any;

	if (cpu >= 0) {
		if (hc->cpu_vertex[cpu] == HCUBE_NO_VERTEX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_CPU_OUTSIDE);
			return -EINVAL;
		}
		was = cpumask_test_cpu(cpu, hc->faulty);
	} else {
		if (hc->v[vertex].state == HCUBE_VERTEX_ABSENT) {
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_VERTEX_ABSENT);
			return -EINVAL;
		}
		was = hc->v[vertex].marked;
	}
	if (add && was) {
		if (cpu >= 0)
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_CPU_MARKED);
		else
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_VERTEX_MARKED);
		return -EEXIST;
	}
	if (!add && !was) {
		if (cpu >= 0)
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_CPU_UNMARKED);
		else
			NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_VERTEX_UNMARKED);
		return -ENOENT;
	}
	if (!add)
		return 0;

	if (!zalloc_cpumask_var(&faulty, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(faulty, hc->faulty);
	if (cpu >= 0)
		cpumask_set_cpu(cpu, faulty);
	any = hcube_any_healthy(hc, faulty, cpu >= 0 ? -1 : vertex);
	free_cpumask_var(faulty);
	if (any)
		return 0;
	if (cpu >= 0)
		NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_CPU_LAST);
	else
		NL_SET_ERR_MSG_ATTR(extack, attr, HCUBE_ERR_VERTEX_LAST);
	return -EBUSY;
}

/* A checked fault change, for @reason (admin or mce): then the tasks move. */
static void hcube_fault_apply(struct hcube *hc, int cpu, int vertex, bool add,
			      u32 reason)
{
	if (cpu >= 0) {
		if (add)
			cpumask_set_cpu(cpu, hc->faulty);
		else
			cpumask_clear_cpu(cpu, hc->faulty);
		vertex = hc->cpu_vertex[cpu];
	} else {
		hc->v[vertex].marked = add;
	}
	hcube_refresh(hc);
	hcube_notify(hc, HCUBE_CMD_FAULT_NTF, &(struct hcube_ntf){
		.reason = reason, .cpu = cpu, .vertex = vertex,
		.event = add ? HCUBE_FAULT_ADDED : HCUBE_FAULT_CLEARED });
	hcube_notify(hc, HCUBE_CMD_CONTROLLER_NTF, &(struct hcube_ntf){
		.reason = reason });
	hcube_after_change(hc, HCUBE_REASON_FAULT);
}

/**
 * hcube_fault_change() - FAULT_ADD or FAULT_DEL of a CPU or a vertex
 * @hc: the module, locked
 * @cpu: the CPU, or -1 for @vertex
 * @vertex: the vertex, when @cpu is -1
 * @add: mark, else clear
 * @extack: where a refusal is explained
 * @attr: the attribute a refusal names
 *
 * Clearing a CPU a machine check marked clears that mark and its count.
 *
 * Return: 0, or -errno with nothing changed.
 */
int hcube_fault_change(struct hcube *hc, int cpu, int vertex, bool add,
		       struct netlink_ext_ack *extack, const struct nlattr *attr)
{
	int err = hcube_fault_check(hc, cpu, vertex, add, extack, attr);

	if (err)
		return err;
	if (cpu >= 0 && !add)
		hcube_mce_mark(hc, cpu, false, false);
	hcube_fault_apply(hc, cpu, vertex, add, HCUBE_REASON_ADMIN);
	return 0;
}

/**
 * hcube_mce_apply() - mark the CPUs machine checks asked for
 * @hc: the module, locked
 *
 * The worker, after the records hcube_mce.c took: each CPU still in the
 * cube, online and not faulty is marked as FAULT_ADD marks it, unless its
 * vertex is the last healthy one (refused and counted).
 */
void hcube_mce_apply(struct hcube *hc)
{
	cpumask_var_t due, uc;
	unsigned int cpu;
	int err;

	if (!alloc_cpumask_var(&due, GFP_KERNEL))
		return;
	if (!alloc_cpumask_var(&uc, GFP_KERNEL)) {
		free_cpumask_var(due);
		return;
	}
	hcube_mce_take(hc, due, uc);
	for_each_cpu(cpu, due) {
		/* what changed since the record: nothing left to mark */
		if (hc->stopping || hc->cpu_vertex[cpu] == HCUBE_NO_VERTEX ||
		    !cpumask_test_cpu(cpu, hc->online) ||
		    cpumask_test_cpu(cpu, hc->faulty))
			continue;
		err = hcube_fault_check(hc, cpu, -1, true, NULL, NULL);
		if (err == -EBUSY)
			hcube_mce_refused(hc, cpu);
		if (err)
			continue;
		hcube_mce_mark(hc, cpu, true, cpumask_test_cpu(cpu, uc));
		hcube_fault_apply(hc, cpu, -1, true, HCUBE_REASON_MCE);
	}
	free_cpumask_var(uc);
	free_cpumask_var(due);
}

/*
 * CPU hotplug. The callbacks run with the hotplug lock held for write:
 * they only record the change (bounded work, under hcube.hp_lock) and
 * queue the worker, which applies it under hcube.lock once the hotplug
 * operation is over (hcube_hotplug_apply()).
 */
static int hcube_cpu_up(unsigned int cpu)
{
	struct hcube *hc = hcube_hp_cube;

	spin_lock(&hc->hp_lock);
	cpumask_set_cpu(cpu, hc->hp_online);
	WRITE_ONCE(hc->hp_gen, hc->hp_gen + 1);	/* hcube_mask.c */
	WRITE_ONCE(hc->cpu_on_gen[cpu], hc->hp_gen);
	hc->hp_pending = true;
	spin_unlock(&hc->hp_lock);
	hcube_events_kick(hc);
	return 0;
}

static int hcube_cpu_down(unsigned int cpu)
{
	struct hcube *hc = hcube_hp_cube;

	u16 v = READ_ONCE(hc->cpu_vertex[cpu]);

	spin_lock(&hc->hp_lock);
	cpumask_clear_cpu(cpu, hc->hp_online);
	if (v != HCUBE_NO_VERTEX)
		WRITE_ONCE(hc->voff[v], hc->voff[v] + 1);
	WRITE_ONCE(hc->hp_gen, hc->hp_gen + 1);
	WRITE_ONCE(hc->cpu_off_gen[cpu], hc->hp_gen);
	hc->hp_pending = true;
	spin_unlock(&hc->hp_lock);
	hcube_events_kick(hc);
	return 0;
}

/*
 * Under hcube.lock: the worker, after the hotplug operation that queued it
 * ended, and every command that changes something, first. The vertices'
 * states from the CPUs online and active now, an event per CPU
 * of the cube whose state changed since the last time (a CPU that went
 * down and up in between shows no change), then new masks, evacuation and
 * a rebalance as after a fault.
 */
void hcube_hotplug_apply(struct hcube *hc)
{
	cpumask_var_t now, changed;
	unsigned int cpu;
	bool pending, any;

	if (!alloc_cpumask_var(&now, GFP_KERNEL))
		return;	/* hp_pending stays set: the next run tries again */
	if (!alloc_cpumask_var(&changed, GFP_KERNEL)) {
		free_cpumask_var(now);
		return;
	}
	spin_lock(&hc->hp_lock);
	cpumask_copy(now, hc->hp_online);
	pending = hc->hp_pending;
	hc->hp_pending = false;
	spin_unlock(&hc->hp_lock);
	/*
	 * A CPU leaves the active mask before the callbacks hear that it
	 * goes down, and joins it after they hear that it came up: a CPU
	 * counts when it is online and active.
	 */
	cpumask_and(now, now, cpu_active_mask);
	cpumask_xor(changed, hc->online, now);
	cpumask_and(changed, changed, hc->cube_cpus);
	cpumask_copy(hc->online, now);
	any = !cpumask_empty(changed);
	if (any) {
		hcube_refresh(hc);
		for_each_cpu(cpu, changed)
			hcube_notify(hc, HCUBE_CMD_FAULT_NTF, &(struct hcube_ntf){
				.reason = HCUBE_REASON_HOTPLUG, .cpu = cpu,
				.vertex = hc->cpu_vertex[cpu],
				.event = cpumask_test_cpu(cpu, now) ?
					 HCUBE_CPU_ONLINE : HCUBE_CPU_OFFLINE });
		hcube_notify(hc, HCUBE_CMD_CONTROLLER_NTF, &(struct hcube_ntf){
			.reason = HCUBE_REASON_HOTPLUG });
	}
	free_cpumask_var(changed);
	free_cpumask_var(now);
	/* a CPU that went down and up meanwhile changed no state, but masks */
	if (pending || any)
		hcube_after_change(hc, HCUBE_REASON_HOTPLUG);
}

void hcube_free_groups(cpumask_var_t *groups)
{
	u32 i;

	for (i = 0; groups && i < HCUBE_MAX_VERTICES; i++)
		free_cpumask_var(groups[i]);
	kfree(groups);
}

cpumask_var_t *hcube_alloc_groups(void)
{
	cpumask_var_t *groups;
	u32 i;

	groups = kcalloc(HCUBE_MAX_VERTICES, sizeof(*groups), GFP_KERNEL);
	if (!groups)
		return NULL;
	for (i = 0; i < HCUBE_MAX_VERTICES; i++) {
		if (!zalloc_cpumask_var(&groups[i], GFP_KERNEL)) {
			hcube_free_groups(groups);
			return NULL;
		}
	}
	return groups;
}

/* Build the groups of a discovered mode and install them. */
int hcube_topology_mode(struct hcube *hc, u32 m, struct netlink_ext_ack *extack)
{
	cpumask_var_t *groups = hcube_alloc_groups();
	int ng, err;

	if (!groups)
		return -ENOMEM;
	/* a snapshot of the present CPUs' topology, nothing more */
	cpus_read_lock();
	ng = hcube_discover(m, groups);
	cpus_read_unlock();
	if (ng == -E2BIG)
		NL_SET_ERR_MSG(extack, HCUBE_ERR_MODE_TOO_MANY);
	err = ng < 0 ? ng : hcube_topology_set(hc, m, groups, ng, extack);
	hcube_free_groups(groups);
	return err;
}

/*
 * The CPU masks and the cube of @mode, with every CPU online now, at load.
 * @use_isolated: the module parameter isolated.
 */
int hcube_cpu_init(struct hcube *hc, u32 mode, bool use_isolated)
{
	int err;

	spin_lock_init(&hc->hp_lock);
	hc->cpu_vertex = kcalloc(nr_cpu_ids, sizeof(*hc->cpu_vertex), GFP_KERNEL);
	hc->voff = kcalloc(HCUBE_MAX_VERTICES, sizeof(*hc->voff), GFP_KERNEL);
	hc->cpu_off_gen = kcalloc(nr_cpu_ids, sizeof(*hc->cpu_off_gen), GFP_KERNEL);
	hc->cpu_on_gen = kcalloc(nr_cpu_ids, sizeof(*hc->cpu_on_gen), GFP_KERNEL);
	if (!hc->cpu_vertex || !hc->voff || !hc->cpu_off_gen || !hc->cpu_on_gen ||
	    !zalloc_cpumask_var(&hc->faulty, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->hp_online, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->online, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->cube_cpus, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->scratch, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->scratch2, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->scratch3, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&hc->isolated, GFP_KERNEL)) {
		hcube_cpu_exit(hc);
		return -ENOMEM;
	}

	hcube_isolated_cpus(hc->isolated, use_isolated);
	/*
	 * Not under the hotplug lock: hcube_topology_mode() takes it for its
	 * snapshot, inside hcube.lock, and a CPU that changes meanwhile is
	 * seen when the callbacks go live (hcube_hotplug_start()).
	 */
	hcube_lock(hc);
	cpumask_copy(hc->online, cpu_online_mask);
	cpumask_copy(hc->hp_online, cpu_online_mask);
	err = hcube_topology_mode(hc, mode, NULL);
	hcube_unlock(hc);
	if (err)
		hcube_cpu_exit(hc);
	return err;
}

void hcube_cpu_exit(struct hcube *hc)
{
	hcube_mem_free(&hc->m);
	hcube_vertices_free(hc->v, hc->nv);
	free_cpumask_var(hc->isolated);
	free_cpumask_var(hc->scratch3);
	free_cpumask_var(hc->scratch2);
	free_cpumask_var(hc->scratch);
	free_cpumask_var(hc->cube_cpus);
	free_cpumask_var(hc->online);
	free_cpumask_var(hc->hp_online);
	free_cpumask_var(hc->faulty);
	kfree(hc->voff);
	kfree(hc->cpu_on_gen);
	kfree(hc->cpu_off_gen);
	kfree(hc->cpu_vertex);
}

/*
 * The hotplug callbacks go live (the worker and the family exist): what
 * changed since the topology was read is applied by the worker.
 */
int hcube_hotplug_start(struct hcube *hc)
{
	int ret;

	hcube_hp_cube = hc;
	cpus_read_lock();
	spin_lock(&hc->hp_lock);
	if (!cpumask_equal(hc->hp_online, cpu_online_mask)) {
		cpumask_copy(hc->hp_online, cpu_online_mask);
		hc->hp_pending = true;
	}
	spin_unlock(&hc->hp_lock);
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN, "hcube:online",
						   hcube_cpu_up, hcube_cpu_down);
	cpus_read_unlock();
	if (ret < 0)
		return ret;
	hcube_hp_state = ret;
	if (hc->hp_pending)
		hcube_events_kick(hc);
	return 0;
}

void hcube_hotplug_stop(struct hcube *hc)
{
	cpuhp_remove_state_nocalls(hcube_hp_state);
}
