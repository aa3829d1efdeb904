/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels hcube is built for: Debian 12's 6.1
 * (the kernels it is for) and 6.12 (bookworm-backports; the admin guide's
 * Limits say what 6.2's user_cpus_ptr changes). Each HCUBE_HAVE_* is found
 * in the headers of the kernel built for (Kbuild), not by version.
 */
#ifndef HCUBE_COMPAT_H
#define HCUBE_COMPAT_H

#include <linux/slab.h>
#include <net/genetlink.h>

/* 6.12: kvrealloc(p, size, flags), as krealloc() */
#ifdef HCUBE_HAVE_KVREALLOC_NOPROF
#define hcube_kvrealloc(p, oldsize, newsize, gfp) kvrealloc(p, newsize, gfp)
#else
#define hcube_kvrealloc(p, oldsize, newsize, gfp) kvrealloc(p, oldsize, newsize, gfp)
#endif

/* 6.2: pre_doit and post_doit are given split ops; dumpit info embeds a genl_info */
#ifdef HCUBE_HAVE_GENL_SPLIT_OPS_DOIT
#define hcube_genl_doit_ops genl_split_ops
#define hcube_dumpit_attrs(dinfo) ((dinfo)->info.attrs)
#else
#define hcube_genl_doit_ops genl_ops
#define hcube_dumpit_attrs(dinfo) ((dinfo)->attrs)
#endif

/* 6.10: a CPU's LLC id is per_cpu_llc_id(), BAD_APICID when unknown */
#ifdef HCUBE_HAVE_PER_CPU_LLC_ID
#define hcube_cpu_llc_id(cpu) per_cpu_llc_id(cpu)
#define HCUBE_NO_LLC BAD_APICID
#else
#define hcube_cpu_llc_id(cpu) get_llc_id(cpu)
#define HCUBE_NO_LLC 0xffff
#endif

#endif /* HCUBE_COMPAT_H */
