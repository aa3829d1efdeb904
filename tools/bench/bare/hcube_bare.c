// SPDX-License-Identifier: GPL-2.0
/*
 * hcube_bare: the physical limit of a rebalance, for make bench only.
 *
 * Userspace writes an array of struct hcube_bare_move to
 * /sys/kernel/debug/hcube_bare/moves: threads (by id in the writer's pid
 * namespace) and the CPU range each goes to. The write resolves every
 * thread and builds every mask first, untimed, then times nothing but a
 * loop of set_cpus_allowed_ptr() calls, which is what hcube's moves come
 * down to. Reading the file gives "<moves> <errors> <ns>\n" of the last
 * write. It is never loaded outside the bench VM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

struct hcube_bare_move {
	s32 tid;
	u32 cpu_lo, cpu_hi;
};

#define HCUBE_BARE_MAX	65536

static DEFINE_MUTEX(hcube_bare_lock);
static u32 last_moves, last_errors;
static u64 last_ns;
static struct dentry *hcube_bare_dir;

static ssize_t hcube_bare_write(struct file *f, const char __user *buf,
				size_t len, loff_t *pos)
{
	size_t n = len / sizeof(struct hcube_bare_move), i;
	struct hcube_bare_move *mv;
	struct task_struct **task;
	cpumask_var_t *mask;
	u32 errors = 0;
	u64 t0, ns;
	int err = 0;

	if (!n || n > HCUBE_BARE_MAX || len % sizeof(*mv))
		return -EINVAL;
	mv = vmemdup_user(buf, len);
	if (IS_ERR(mv))
		return PTR_ERR(mv);
	task = kvcalloc(n, sizeof(*task), GFP_KERNEL);
	mask = kvcalloc(n, sizeof(*mask), GFP_KERNEL);
	if (!task || !mask) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct pid *pid = find_get_pid(mv[i].tid);
		u32 cpu;

		task[i] = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
		put_pid(pid);
		if (!task[i] || mv[i].cpu_hi >= nr_cpu_ids ||
		    mv[i].cpu_lo > mv[i].cpu_hi ||
		    !zalloc_cpumask_var(&mask[i], GFP_KERNEL)) {
			err = -EINVAL;
			goto out;
		}
		for (cpu = mv[i].cpu_lo; cpu <= mv[i].cpu_hi; cpu++)
			cpumask_set_cpu(cpu, mask[i]);
	}

	mutex_lock(&hcube_bare_lock);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		errors += set_cpus_allowed_ptr(task[i], mask[i]) != 0;
	ns = ktime_get_ns() - t0;
	last_moves = n;
	last_errors = errors;
	last_ns = ns;
	mutex_unlock(&hcube_bare_lock);
out:
	for (i = 0; task && mask && i < n; i++) {
		if (task[i])
			put_task_struct(task[i]);
		free_cpumask_var(mask[i]);
	}
	kvfree(mask);
	kvfree(task);
	kvfree(mv);
	return err ? err : len;
}

static ssize_t hcube_bare_read(struct file *f, char __user *buf, size_t len,
			       loff_t *pos)
{
	char line[64];
	int n;

	mutex_lock(&hcube_bare_lock);
	n = scnprintf(line, sizeof(line), "%u %u %llu\n", last_moves,
		      last_errors, last_ns);
	mutex_unlock(&hcube_bare_lock);
	return simple_read_from_buffer(buf, len, pos, line, n);
}

static const struct file_operations hcube_bare_fops = {
	.owner = THIS_MODULE,
	.write = hcube_bare_write,
	.read = hcube_bare_read,
	.llseek = default_llseek,
};

static int __init hcube_bare_init(void)
{
	hcube_bare_dir = debugfs_create_dir("hcube_bare", NULL);
	debugfs_create_file("moves", 0600, hcube_bare_dir, NULL,
			    &hcube_bare_fops);
	return 0;
}

static void __exit hcube_bare_exit(void)
{
	debugfs_remove_recursive(hcube_bare_dir);
}

module_init(hcube_bare_init);
module_exit(hcube_bare_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hcube bench: a bare loop of set_cpus_allowed_ptr()");
