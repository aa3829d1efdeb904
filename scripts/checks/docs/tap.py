# SPDX-License-Identifier: GPL-2.0
"""TAP for the documentation checks: ok() and todo() a line each, end()
the plan and a summary."""

count = {"n": 0, "failed": 0, "todo": 0}


def ok(cond, name, why=()):
    """A test: "ok N NAME", or "not ok N NAME" and each line of @why."""
    count["n"] += 1
    print("%s %d %s" % ("ok" if cond else "not ok", count["n"], name))
    if not cond:
        count["failed"] += 1
        for w in why:
            print("#   " + w)


def todo(name, why):
    """A known failure, listed but not failing: "not ok N NAME # TODO WHY"."""
    count["n"] += 1
    count["todo"] += 1
    print("not ok %d %s # TODO %s" % (count["n"], name, why))


def end(what):
    """The plan and "# WHAT: P passed, F failed"; the exit status."""
    n, failed, todos = count["n"], count["failed"], count["todo"]
    print("1..%d" % n)
    print("# %s: %d passed, %d failed%s" % (what, n - failed - todos, failed,
                                           ", %d TODO" % todos if todos else ""))
    return 1 if failed else 0
