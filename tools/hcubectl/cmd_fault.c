// SPDX-License-Identifier: GPL-2.0
/* hcubectl fault add|del: mark a CPU or a vertex faulty, or healthy again. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hcubectl.h"

static int nhealthy_reply(const struct hc_msg *m, void *arg)
{
	uint32_t *n = arg;

	if (m->tb[HCUBE_A_NHEALTHY])
		*n = nla_get_u32(m->tb[HCUBE_A_NHEALTHY]);
	return 0;
}

/*
 * After a fault add: when one healthy vertex is left, every registered
 * task is on it now. The module refuses the mark that would leave none;
 * this one it takes, and says so.
 */
static void warn_last(struct hc_ctx *c)
{
	uint32_t n = UINT32_MAX;

	if (hc_get(c, HCUBE_CMD_CUBE_GET, false, c->what, nhealthy_reply, &n) || n != 1)
		return;
	fflush(stdout);
	fprintf(stderr, "hcubectl: %s: warning: one healthy vertex is left: every registered task is on it\n",
		c->what);
}

/* fault add|del cpu N | vertex V: the command's nlcmd says which. */
static int fault(struct hc_ctx *c, int argc, char **argv)
{
	int ret;
	const char *why;
	struct hc_req r;
	uint32_t v;
	bool cpu;

	if (argc < 1)
		hc_usage(c, "missing 'cpu N' or 'vertex V'");
	if (strcmp(argv[0], "cpu") && strcmp(argv[0], "vertex"))
		hc_usage(c, "'%s' is neither 'cpu' nor 'vertex'", argv[0]);
	cpu = !strcmp(argv[0], "cpu");
	if (argc < 2)
		hc_usage(c, "missing %s", cpu ? "CPU number" : "vertex");
	if (argc > 2)
		hc_usage(c, "unexpected argument '%s'", argv[2]);
	if (cpu && !hc_parse_u32(argv[1], &v))
		hc_usage(c, "'%s' is not a CPU number", argv[1]);
	if (!cpu && !hc_parse_vertex(argv[1], &v, &why))
		hc_usage(c, "vertex '%s' %s", argv[1], why);

	hc_req_init(&r, c->cmd->nlcmd, false, 64, c->what);
	if (cpu)
		hc_req_u32(&r, HCUBE_A_CPU, v, "cpu %s", argv[1]);
	else
		hc_req_u32(&r, HCUBE_A_VERTEX_ID, v, "vertex %s", argv[1]);
	ret = hc_req_ack(c, &r);
	if (!ret && c->cmd->nlcmd == HCUBE_CMD_FAULT_ADD)
		warn_last(c);
	return ret;
}

static const struct hc_cmd fault_subs[] = {
	{
		.name = "add",
		.args = "cpu N | vertex V",
		.nlcmd = HCUBE_CMD_FAULT_ADD,
		.flags = HC_ARGS | HC_ACK,
		.handler = fault,
	},
	{
		.name = "del",
		.alias = "delete",
		.args = "cpu N | vertex V",
		.nlcmd = HCUBE_CMD_FAULT_DEL,
		.flags = HC_ARGS | HC_ACK,
		.handler = fault,
	},
	{ 0 },
};

const struct hc_cmd hc_cmd_fault = {
	.name = "fault",
	.summary = "mark a CPU or a vertex faulty, or healthy again",
	.help =
	"Marks a CPU, or a whole vertex, faulty (add) or healthy again (del).\n"
	"hcube evacuates the registered tasks of a vertex that loses its last\n"
	"usable CPU and rebuilds the balancing subcube and its trees. A mark\n"
	"that would leave no healthy vertex is refused; one that leaves a single\n"
	"healthy vertex is made, with a warning on stderr.\n"
	"  N  a CPU number\n"
	"  V  a vertex: decimal id, or binary label with a 0b prefix (0b0101)\n"
	"Prints nothing (-j: {}). Needs CAP_NET_ADMIN and CAP_SYS_NICE.\n",
	.subs = fault_subs,
};
