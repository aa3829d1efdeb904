// SPDX-License-Identifier: GPL-2.0
/* hcubectl fault add|del: mark a CPU or a vertex faulty, or healthy again. */
#include <string.h>
#include "hcubectl.h"

/* fault add|del cpu N | vertex V: the command's nlcmd says which. */
static int fault(struct hc_ctx *c, int argc, char **argv)
{
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
	return hc_req_ack(c, &r);
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
	"usable CPU and rebuilds the balancing subcube and its trees.\n"
	"  N  a CPU number\n"
	"  V  a vertex: decimal id, or binary label with a 0b prefix (0b0101)\n"
	"Prints nothing (-j: {}). Needs CAP_NET_ADMIN.\n",
	.subs = fault_subs,
};
