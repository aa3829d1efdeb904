// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the cube, its vertices, faults and topology in the generic netlink
 * family: CUBE_GET, VERTEX_GET, TOPO_SET, FAULT_ADD, FAULT_DEL and the
 * FAULT_NTF, TOPO_NTF and CONTROLLER_NTF events.
 */
#include <linux/slab.h>
#include "hcube_nl.h"

static int hcube_fill_cube(struct sk_buff *skb, struct hcube *hc,
			   const struct hcube_nl_data *d)
{
	char pat[HCUBE_MAX_DIM + 1];

	if (nla_put_u32(skb, HCUBE_A_MODE, hc->mode) ||
	    nla_put_u32(skb, HCUBE_A_DIM, hc->dim) ||
	    nla_put_u32(skb, HCUBE_A_NVERTICES, hc->nv) ||
	    nla_put_u32(skb, HCUBE_A_NHEALTHY, hcube_nhealthy(hc)) ||
	    nla_put_u32(skb, HCUBE_A_NTASKS, hc->ntasks) ||
	    nla_put_u32(skb, HCUBE_A_GENERATION, hc->generation) ||
	    nla_put_u32(skb, HCUBE_A_CLUSTER_DIM, hc->cdim) ||
	    nla_put(skb, HCUBE_A_CONTROLLERS, hc->nclusters * sizeof(u16),
		    hc->m.ctrl))
		return -EMSGSIZE;
	if (!hc->topo_valid)
		return 0;
	if (nla_put_u32(skb, HCUBE_A_NATTACHED, hc->topo.nattached) ||
	    nla_put_u32(skb, HCUBE_A_CB_BASE, hc->topo.cb_base) ||
	    nla_put_u32(skb, HCUBE_A_CB_MASK, hc->topo.cb_mask) ||
	    nla_put_string(skb, HCUBE_A_CB_PATTERN,
			   hcube_pattern(pat, hc->dim, hc->topo.cb_base,
					 hc->topo.cb_mask)) ||
	    nla_put_u32(skb, HCUBE_A_TREE_DEPTH, hc->topo.depth))
		return -EMSGSIZE;
	return 0;
}

/*
 * Room for one HCUBE_A_CPU_INFO nest: its header, the u32s, the u64s, the
 * flag.
 */
#define HCUBE_CPU_INFO_SIZE	(nla_total_size(0) + 5 * nla_total_size(sizeof(u32)) + \
				 2 * nla_total_size_64bit(sizeof(u64)) + nla_total_size(0))

/*
 * @cpu as an HCUBE_A_CPU_INFO nest of type @type: who made it unusable (a
 * machine check, the administrator, hotplug) and its machine checks. With
 * @always false, only for a CPU that is faulty, offline or had records.
 */
static int hcube_put_cpu_info(struct sk_buff *skb, struct hcube *hc, int type,
			      unsigned int cpu, bool always)
{
	bool faulty = cpumask_test_cpu(cpu, hc->faulty);
	bool offline = !cpumask_test_cpu(cpu, hc->online);
	struct hcube_mce_info i;
	struct nlattr *nest;
	bool any = hcube_mce_info(hc, cpu, &i);
	u32 by;

	if (!always && !any && !faulty && !offline)
		return 0;
	by = faulty ? (i.marked ? HCUBE_REASON_MCE : HCUBE_REASON_ADMIN) :
	     HCUBE_REASON_HOTPLUG;
	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_A_CPU_INFO_CPU, cpu) ||
	    ((faulty || offline) && nla_put_u32(skb, HCUBE_A_CPU_INFO_MARKED_BY, by)) ||
	    nla_put_u64_64bit(skb, HCUBE_A_CPU_INFO_MCE_RECORDS, i.records, HCUBE_A_CPU_INFO_PAD) ||
	    nla_put_u32(skb, HCUBE_A_CPU_INFO_MCE_COUNT, i.count) ||
	    nla_put_u32(skb, HCUBE_A_CPU_INFO_MCE_WINDOW, i.window) ||
	    (i.records && (nla_put_u32(skb, HCUBE_A_CPU_INFO_MCE_BANK, i.bank) ||
			   nla_put_u64_64bit(skb, HCUBE_A_CPU_INFO_MCE_STATUS, i.status,
					     HCUBE_A_CPU_INFO_PAD))) ||
	    (faulty && i.uc && nla_put_flag(skb, HCUBE_A_CPU_INFO_MCE_UC))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static size_t hcube_vertex_size(struct hcube *hc, const struct hcube_nl_data *d)
{
	return NLMSG_GOODSIZE +
	       cpumask_weight(hc->v[d->pos].cpus) * HCUBE_CPU_INFO_SIZE;
}

static int hcube_fill_vertex(struct sk_buff *skb, struct hcube *hc,
			     const struct hcube_nl_data *d)
{
	unsigned int cpu;
	struct cpumask *tmp = hc->scratch;	/* under hcube.lock */
	u32 i = d->pos;
	struct hcube_vertex *v = &hc->v[i];
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_VERTEX);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_A_VERTEX_INFO_ID, i) ||
	    nla_put_u32(skb, HCUBE_A_VERTEX_INFO_STATE, v->state) ||
	    nla_put_u32(skb, HCUBE_A_VERTEX_INFO_LOAD, v->load) ||
	    hcube_nl_put_cpulist(skb, HCUBE_A_VERTEX_INFO_CPUS, v->cpus) ||
	    hcube_nl_put_cpulist(skb, HCUBE_A_VERTEX_INFO_USABLE_CPUS, v->usable))
		goto cancel;
	cpumask_and(tmp, v->cpus, hc->faulty);
	if (hcube_nl_put_cpulist(skb, HCUBE_A_VERTEX_INFO_FAULTY_CPUS, tmp))
		goto cancel;
	cpumask_andnot(tmp, v->cpus, hc->online);
	if (hcube_nl_put_cpulist(skb, HCUBE_A_VERTEX_INFO_OFFLINE_CPUS, tmp))
		goto cancel;
	cpumask_and(tmp, v->cpus, hc->isolated);
	if (hcube_nl_put_cpulist(skb, HCUBE_A_VERTEX_INFO_ISOLATED_CPUS, tmp))
		goto cancel;
	if (v->marked && nla_put_flag(skb, HCUBE_A_VERTEX_INFO_MARKED))
		goto cancel;
	for_each_cpu(cpu, v->cpus)
		if (hcube_put_cpu_info(skb, hc, HCUBE_A_VERTEX_INFO_CPU_INFO, cpu, false))
			goto cancel;
	if (hc->m.ctrl[i >> hc->cdim] == i &&
	    nla_put_flag(skb, HCUBE_A_VERTEX_INFO_CONTROLLER))
		goto cancel;
	if (hc->topo_valid) {
		bool attached = hc->topo.dist[i] != HCUBE_DIST_NONE;

		if (nla_put_s32(skb, HCUBE_A_VERTEX_INFO_PARENT, hc->topo.parent[i]) ||
		    (attached && hc->topo.dist[i] == 0 &&
		     nla_put_flag(skb, HCUBE_A_VERTEX_INFO_IN_CB)) ||
		    (attached && nla_put_u32(skb, HCUBE_A_VERTEX_INFO_DIST, hc->topo.dist[i])) ||
		    (attached && nla_put_u32(skb, HCUBE_A_VERTEX_INFO_OMEGA, hc->topo.omega[i])) ||
		    (!attached && v->state == HCUBE_VERTEX_HEALTHY &&
		     nla_put_flag(skb, HCUBE_A_VERTEX_INFO_DETACHED)))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

const struct hcube_nl_msg_ops hcube_nl_cube_msg = {
	.fill = hcube_fill_cube,
};

/*
 * VERTEX_GET: the vertex HCUBE_A_VERTEX_ID names (required by a do, a
 * filter of a dump), checked against the cube.
 */
static int hcube_vertex_prepare(struct hcube *hc, struct hcube_nl_data *d,
				struct nlattr **attrs,
				struct netlink_ext_ack *extack, bool dump)
{
	const struct nlattr *a = attrs[HCUBE_A_VERTEX_ID];
	int v;

	if (!a && dump)
		return 0;
	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, HCUBE_A_VERTEX_ID)) {
		NL_SET_ERR_MSG(extack, HCUBE_ERR_VERTEX_REQUIRED);
		return -EINVAL;
	}
	v = hcube_nl_vertex_id(hc, a, extack);
	if (v < 0)
		return v;
	d->pos = max_t(unsigned long, d->pos, v);
	d->last = v;
	return 0;
}

static bool hcube_vertex_next(struct hcube *hc, struct hcube_nl_data *d)
{
	return d->pos < hc->nv && d->pos <= d->last;
}

const struct hcube_nl_msg_ops hcube_nl_vertex_msg = {
	.prepare = hcube_vertex_prepare,
	.size = hcube_vertex_size,
	.fill = hcube_fill_vertex,
	.next = hcube_vertex_next,
};

static int hcube_fault_ntf_fill(struct sk_buff *skb, struct hcube *hc,
				const struct hcube_nl_data *d)
{
	const struct hcube_ntf *n = d->ntf;

	if ((n->cpu >= 0 && nla_put_u32(skb, HCUBE_A_CPU, n->cpu)) ||
	    nla_put_u32(skb, HCUBE_A_VERTEX_ID, n->vertex) ||
	    nla_put_u32(skb, HCUBE_A_EVENT, n->event) ||
	    nla_put_u32(skb, HCUBE_A_STATE, hc->v[n->vertex].state) ||
	    nla_put_u32(skb, HCUBE_A_REASON, n->reason) ||
	    (n->cpu >= 0 &&
	     hcube_put_cpu_info(skb, hc, HCUBE_A_CPU_INFO, n->cpu, true)))
		return -EMSGSIZE;
	return hcube_fill_cube(skb, hc, d);
}

const struct hcube_nl_msg_ops hcube_nl_fault_ntf_msg = {
	.fill = hcube_fault_ntf_fill,
};

static int hcube_topo_ntf_fill(struct sk_buff *skb, struct hcube *hc,
			       const struct hcube_nl_data *d)
{
	if (hcube_fill_cube(skb, hc, d) ||
	    nla_put_u32(skb, HCUBE_A_REASON, d->ntf->reason))
		return -EMSGSIZE;
	return 0;
}

const struct hcube_nl_msg_ops hcube_nl_topo_ntf_msg = {
	.fill = hcube_topo_ntf_fill,
};

/* One CONTROLLER_NTF per cluster whose controller the last refresh changed. */
static bool hcube_controller_next(struct hcube *hc, struct hcube_nl_data *d)
{
	for (; d->pos < hc->nclusters; d->pos++)
		if (hc->m.ctrl_prev[d->pos] != hc->m.ctrl[d->pos])
			return true;
	return false;
}

static int hcube_controller_ntf_fill(struct sk_buff *skb, struct hcube *hc,
				     const struct hcube_nl_data *d)
{
	u16 old = hc->m.ctrl_prev[d->pos], now = hc->m.ctrl[d->pos];

	if (nla_put_u32(skb, HCUBE_A_CLUSTER, d->pos) ||
	    nla_put_u32(skb, HCUBE_A_CLUSTER_DIM, hc->cdim) ||
	    (old != HCUBE_VERTEX_NONE &&
	     nla_put_u32(skb, HCUBE_A_CONTROLLER_OLD, old)) ||
	    (now != HCUBE_VERTEX_NONE &&
	     nla_put_u32(skb, HCUBE_A_CONTROLLER_NEW, now)) ||
	    nla_put_u32(skb, HCUBE_A_REASON, d->ntf->reason) ||
	    nla_put_u32(skb, HCUBE_A_GENERATION, hc->generation))
		return -EMSGSIZE;
	return 0;
}

const struct hcube_nl_msg_ops hcube_nl_controller_ntf_msg = {
	.fill = hcube_controller_ntf_fill,
	.next = hcube_controller_next,
};

int hcube_nl_topo_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube *hc = hcube_nl_hc;
	cpumask_var_t *groups, all;
	const struct nlattr *a;
	char *list;
	u32 m, ng = 0;
	int rem, err;

	if (HCUBE_REQUIRE(info, HCUBE_A_MODE, HCUBE_ERR_MODE_REQUIRED))
		return -EINVAL;
	m = nla_get_u32(info->attrs[HCUBE_A_MODE]);
	if (m != HCUBE_MODE_CUSTOM && info->attrs[HCUBE_A_GROUP]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_GROUP],
				    HCUBE_ERR_GROUP_NOT_CUSTOM);
		return -EINVAL;
	}
	if (m == HCUBE_MODE_CUSTOM &&
	    HCUBE_REQUIRE(info, HCUBE_A_GROUP, HCUBE_ERR_GROUP_REQUIRED))
		return -EINVAL;
	if (hc->ntasks) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_MODE], HCUBE_ERR_MODE_TASKS);
		return -EBUSY;
	}
	if (m != HCUBE_MODE_CUSTOM) {
		err = hcube_topology_mode(hc, m, info->extack);
		goto done;
	}

	/* a string attribute need not end with a NUL: each is copied here */
	list = kmalloc(HCUBE_CPULIST_MAX + 1, GFP_KERNEL);
	groups = hcube_alloc_groups();
	if (!list || !groups || !zalloc_cpumask_var(&all, GFP_KERNEL)) {
		if (groups)
			hcube_free_groups(groups);
		kfree(list);
		return -ENOMEM;
	}
	err = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HCUBE_A_GROUP)
			continue;
		if (ng == HCUBE_MAX_VERTICES) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_TOO_MANY);
			err = -E2BIG;
			break;
		}
		nla_strscpy(list, a, HCUBE_CPULIST_MAX + 1);
		if (cpulist_parse(list, groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_CPULIST);
			err = -EINVAL;
			break;
		}
		if (cpumask_empty(groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_EMPTY);
			err = -EINVAL;
			break;
		}
		if (!cpumask_subset(groups[ng], cpu_present_mask)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_ABSENT);
			err = -EINVAL;
			break;
		}
		if (cpumask_intersects(groups[ng], all)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_OVERLAP);
			err = -EINVAL;
			break;
		}
		cpumask_or(all, all, groups[ng]);
		ng++;
	}
	if (!err)
		err = hcube_topology_set(hc, m, groups, ng, info->extack);
	free_cpumask_var(all);
	hcube_free_groups(groups);
	kfree(list);
done:
	if (!err)
		hcube_notify(hc, HCUBE_CMD_TOPO_NTF, &(struct hcube_ntf){
			.reason = HCUBE_REASON_ADMIN });
	return err;
}

int hcube_nl_fault_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *acpu = info->attrs[HCUBE_A_CPU];
	struct nlattr *avx = info->attrs[HCUBE_A_VERTEX_ID];
	bool add = info->genlhdr->cmd == HCUBE_CMD_FAULT_ADD;
	struct hcube *hc = hcube_nl_hc;
	int cpu = -1, v = -1;

	if (!acpu && !avx) {
		NL_SET_ERR_MSG(info->extack, HCUBE_ERR_CPU_OR_VERTEX);
		return -EINVAL;
	}
	if (acpu && avx) {
		NL_SET_ERR_MSG_ATTR(info->extack, avx, HCUBE_ERR_CPU_AND_VERTEX);
		return -EINVAL;
	}
	if (acpu) {
		u32 c = nla_get_u32(acpu);

		if (!cpu_present(c)) {
			NL_SET_ERR_MSG_ATTR(info->extack, acpu, HCUBE_ERR_CPU_ABSENT);
			return -ENODEV;
		}
		cpu = c;
	} else {
		v = hcube_nl_vertex_id(hc, avx, info->extack);
		if (v < 0)
			return v;
	}
	return hcube_fault_change(hc, cpu, v, add, info->extack, acpu ? acpu : avx);
}
