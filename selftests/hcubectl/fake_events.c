// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's events: what a socket gets once it joins the "events"
 * group (hcubectl monitor and top), one of each kind as the module sends
 * it: faults and CPU hotplug, a topology change, a task that exited, a
 * rebalance, a new pebble controller, with HCUBE_FAKE_UNITS new threads,
 * children and a task refused, an event of a newer module, and with
 * HCUBE_FAKE_UNLOAD the family going away.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "fake.h"
#include "hcube_core_ext.h"

/* An event of the fake family: no sequence number, no port. */
static void event_begin(struct mb *b, int cmd)
{
	msg_begin(b, FAKE_FAMILY, 0, 0, 0, cmd);
}

static void queue_task_event(struct mb *b, const struct task_desc *d)
{
	event_begin(b, HCUBE_CMD_TASK_NTF);
	put_task(b, HCUBE_A_TASK, d);
	msg_end_queue(b);
}

/* A FAULT_NTF about @cpu (its vertex), or about vertex n - 1 if @cpu < 0. */
static void queue_fault_event(struct mb *b, int cpu, u32 event, u32 state, u32 reason,
			      bool summary)
{
	event_begin(b, HCUBE_CMD_FAULT_NTF);
	if (cpu >= 0)
		put_u32(b, HCUBE_A_CPU, (u32)cpu);
	put_u32(b, HCUBE_A_VERTEX_ID, cpu >= 0 ? (u32)cpu / CPUS_PER_VERTEX : cube.n - 1);
	put_u32(b, HCUBE_A_EVENT, event);
	put_u32(b, HCUBE_A_STATE, state);
	put_u32(b, HCUBE_A_REASON, reason);
	if (summary)
		put_summary(b);
	msg_end_queue(b);
}

void queue_events(void)
{
	struct task_desc exited = {
		.pid = 777, .tgid = 777, .comm = "sleep", .state = HCUBE_TASK_EXITED,
		.has_reason = true, .reason = HCUBE_REASON_EXITED,
	};
	struct mb b = { 0 };
	int policy;

	cube_init();
	/* as the module: the CPU, its vertex, the event, the state, the cube */
	queue_fault_event(&b, 3, HCUBE_FAULT_ADDED, HCUBE_VERTEX_FAULTY,
			  HCUBE_REASON_ADMIN, true);
	/* a vertex, and without the summary (a module that sends less) */
	queue_fault_event(&b, -1, HCUBE_FAULT_CLEARED, HCUBE_VERTEX_HEALTHY,
			  HCUBE_REASON_ADMIN, false);
	/* CPU hotplug */
	queue_fault_event(&b, 5, HCUBE_CPU_OFFLINE, HCUBE_VERTEX_OFFLINE,
			  HCUBE_REASON_HOTPLUG, true);
	queue_fault_event(&b, 5, HCUBE_CPU_ONLINE, HCUBE_VERTEX_HEALTHY,
			  HCUBE_REASON_HOTPLUG, true);

	event_begin(&b, HCUBE_CMD_TOPO_NTF);
	put_summary(&b);
	put_u32(&b, HCUBE_A_REASON, HCUBE_REASON_HOTPLUG);
	msg_end_queue(&b);

	exited.vertex = cube.n - 1;
	queue_task_event(&b, &exited);

	/* HCUBE_FAKE_EVENT_POLICY: the rebalance's policy by name, mcwa if unset */
	policy = getenv("HCUBE_FAKE_EVENT_POLICY") ?
		 hcube_policy_parse(getenv("HCUBE_FAKE_EVENT_POLICY")) : HCUBE_POLICY_MCWA;
	event_begin(&b, HCUBE_CMD_REBALANCE_NTF);
	put_report(&b, policy < 0 ? HCUBE_POLICY_MCWA : (u32)policy, false, HCUBE_REASON_AUTO);
	msg_end_queue(&b);

	/* vertex 1 (the controller of cluster 0 here) failed: 2 took over */
	event_begin(&b, HCUBE_CMD_CONTROLLER_NTF);
	put_u32(&b, HCUBE_A_CLUSTER, 0);
	put_u32(&b, HCUBE_A_CLUSTER_DIM, hcube_pebble_cdim(cube.dim));
	put_u32(&b, HCUBE_A_CONTROLLER_OLD, 1);
	put_u32(&b, HCUBE_A_CONTROLLER_NEW, 2);
	put_u32(&b, HCUBE_A_REASON, HCUBE_REASON_ADMIN);
	put_u32(&b, HCUBE_A_GENERATION, 43);
	msg_end_queue(&b);

	if (getenv("HCUBE_FAKE_UNITS")) {
		/* 800's new child 801 and its thread 802; 803 refused over max_tasks */
		static const struct task_desc created[] = {
			{ .pid = 801, .tgid = 801, .comm = "worker", .vertex = 1,
			  .state = HCUBE_TASK_ACTIVE, .cpus = "2-3", .orig = "0-31",
			  .has_reason = true, .reason = HCUBE_REASON_FORK, .has_units = true,
			  .origin = HCUBE_REASON_FORK, .unit = HCUBE_UNIT_JOB, .creator = 800 },
			{ .pid = 802, .tgid = 801, .comm = "worker", .vertex = 1,
			  .state = HCUBE_TASK_ACTIVE, .cpus = "2-3", .orig = "0-31",
			  .has_reason = true, .reason = HCUBE_REASON_THREAD, .has_units = true,
			  .origin = HCUBE_REASON_THREAD, .unit = HCUBE_UNIT_JOB, .creator = 801 },
			{ .pid = 803, .tgid = 803, .comm = "worker", .no_vertex = true,
			  .cpus = "0-31", .has_reason = true, .reason = HCUBE_REASON_REFUSED,
			  .creator = 800 },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(created); i++)
			queue_task_event(&b, &created[i]);
	}

	event_begin(&b, 99);	/* from a newer module */
	put_u32(&b, HCUBE_A_DIM, 1);
	msg_end_queue(&b);

	if (getenv("HCUBE_FAKE_UNLOAD")) {
		msg_begin(&b, GENL_ID_CTRL, 0, 0, 0, CTRL_CMD_DELFAMILY);
		put_attr(&b, CTRL_ATTR_FAMILY_ID, &(uint16_t){ FAKE_FAMILY }, 2);
		put_str(&b, CTRL_ATTR_FAMILY_NAME, HCUBE_FAMILY_NAME);
		msg_end_queue(&b);
	}
	free(b.d);
}
