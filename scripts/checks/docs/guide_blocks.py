# SPDX-License-Identifier: GPL-2.0
"""The literal blocks of an RST page and the marks that say what they are.

A block that shows real output is marked with an RST comment before the
paragraph that introduces it:

    .. hcube-output: NAME

    Some text::

      # hcubectl show
      ...

scripts/admin-session-in-vm.sh prints the output of block NAME after a
line "=== hcube-output: NAME", and check_guide.py compares the two. A
block that shows output the check does not reproduce (a Slurm log line,
say) is marked ".. hcube-sample: WHY". A mark is for the next literal
block of the page. check_docs.py fails on an unmarked block that looks
like output (looks_like_output()).
"""
import re

import docutils.core
import docutils.nodes

MARK = re.compile(r"hcube-(output|sample):\s*(.*?)\s*$")
# the capture's separator between blocks
CAPTURE_MARK = re.compile(r"^=== hcube-output: (\S+)$")


class Block:
    def __init__(self, kind, name, text, line):
        self.kind = kind        # "output", "sample" or None (unmarked)
        self.name = name        # the block's name, or the sample's reason
        self.text = text        # the block, dedented, without trailing blanks
        self.line = line        # the line of the mark (or block) in the page


def blocks(path):
    """Every literal block of @path in order, and the errors of its marks."""
    src = open(path).read()
    doc = docutils.core.publish_doctree(src, source_path=path,
                                        settings_overrides={"report_level": 5,
                                                            "halt_level": 5})
    out, errors, pending = [], [], None
    wanted = (docutils.nodes.comment, docutils.nodes.literal_block)
    for node in doc.findall(lambda n: isinstance(n, wanted)):
        if isinstance(node, docutils.nodes.comment):
            m = MARK.match(node.astext().strip())
            if not m:
                continue
            line = node.line or 0
            if pending:
                errors.append("line %d: mark '%s' before mark '%s', with no literal block "
                              "between them" % (pending[2], pending[1], m.group(2)))
            if not m.group(2):
                errors.append("line %d: mark hcube-%s without a name" % (line, m.group(1)))
            pending = (m.group(1), m.group(2), line)
            continue
        text = "\n".join(l.rstrip() for l in node.astext().rstrip().split("\n"))
        line = node.line or (pending[2] if pending else 0)
        if pending:
            out.append(Block(pending[0], pending[1], text, pending[2]))
        else:
            out.append(Block(None, None, text, line))
        pending = None
    if pending:
        errors.append("line %d: mark '%s' with no literal block after it" % (pending[2], pending[1]))
    return out, errors


def looks_like_output(text):
    """A block that shows what a program printed: a message of hcubectl or
    the module, or a "# " prompt line followed by a line that is not one."""
    lines = text.split("\n")
    if any(re.search(r"(^hcubectl: |\bhcube: )", l) for l in lines):
        return True
    for a, b in zip(lines, lines[1:]):
        if a.startswith("# ") and not a.endswith("\\") and b.strip() and \
           not b.startswith("# "):
            return True
    return False


def capture(paths):
    """The sections of the capture files: {name: text}, in their order."""
    out, name = {}, None
    for path in paths:
        for line in open(path):
            line = line.rstrip("\n")
            m = CAPTURE_MARK.match(line)
            if m:
                name = m.group(1)
                if name in out:
                    raise ValueError("%s: block %s twice" % (path, name))
                out[name] = []
            elif name is not None:
                out[name].append(line.rstrip())
    return {k: "\n".join(v).rstrip() for k, v in out.items()}
