#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check kernel reStructuredText with plain docutils (no Sphinx needed).

usage:
  docs-rst.py --srctree DIR [--toctree] FILE       a new .rst file
  docs-rst.py --srctree DIR --base BASEFILE FILE   a patched .rst file
  docs-rst.py --srctree DIR --abi FILE             a new Documentation/ABI file

FILE is relative to the source tree DIR.  Every docutils message of level
WARNING or above is a finding.  The Sphinx directives and roles the kernel's
documentation uses get stand-ins: most only parse their content, and
``kernel-doc`` runs DIR/scripts/kernel-doc -rst like the kernel's Sphinx
extension does and parses its output, so that the rendered comments are
checked too (kernel-doc's own warnings are findings).

--base:    compare with the unpatched file; only findings the base does not
           have count (the text of a message, without its line number).
--toctree: the document must be listed in a toctree of its directory or of
           the one above, as Sphinx warns otherwise.
--abi:     the ABI file is checked with the tree's get_abi validate
           (scripts/get_abi.pl in 6.12, tools/docs/get_abi.py in 7.3), and
           the reStructuredText it generates from it is parsed.

Prints one line per finding and exits 1 when there is any, 2 on misuse.
"""
import argparse
import collections
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import docutils.core
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives, roles
    from docutils.statemachine import StringList
except ImportError:
    sys.exit('docs-rst.py: python3 docutils is missing (Debian: python3-docutils)')

SPHINX_VERSION = '3.4.3'   # kernel-doc's C domain dialect for Sphinx >= 3

# Sphinx and kernel roles; the text becomes a literal.
ROLES = '''doc ref numref term abbr kbd file samp command envvar option program
menuselection guilabel manpage download any dfn mimetype makevar regexp
c:func c:type c:macro c:data c:member c:struct c:union c:enum c:enumerator
c:var c:expr c:texpr cpp:func cpp:class'''.split()

# Directives whose content is documentation: parsed, so it is checked.
NESTED = '''only seealso versionadded versionchanged deprecated hlist glossary
flat-table cssclass c:function c:macro c:struct c:union c:enum c:enumerator
c:type c:var c:member c:namespace-push c:namespace-pop'''.split()

# Directives with nothing to check here.
IGNORED = '''toctree tabularcolumns highlight index sectionauthor codeauthor
literalinclude kernel-feat kernel-abi kernel-include c:namespace
productionlist'''.split()


class AnyOptions(dict):
    """An option_spec that takes any option with any value."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


class Ignored(Directive):
    has_content = True
    optional_arguments = 99
    final_argument_whitespace = True
    option_spec = AnyOptions()

    def run(self):
        return []


class Nested(Directive):
    has_content = True
    optional_arguments = 99
    final_argument_whitespace = True
    option_spec = AnyOptions()

    def run(self):
        node = nodes.container()
        if self.arguments:
            node += nodes.literal_block(text=' '.join(self.arguments))
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def kernel_doc_cmd(srctree):
    """kernel-doc of @srctree: Perl in 6.12 (which takes the Sphinx
    version of its C domain), Python in 7.3."""
    path = os.path.join(srctree, 'scripts/kernel-doc')
    with open(path, encoding='utf-8', errors='replace') as f:
        first = f.readline()
    if 'python' in first:
        return ['python3', path]
    return ['perl', path, '-sphinx-version', SPHINX_VERSION]


def get_abi_cmd(srctree, what):
    """get_abi of @srctree running @what (validate, or rest as the files'
    reStructuredText) on ./ABI: get_abi.pl in 6.12, get_abi.py in 7.3."""
    pl = os.path.join(srctree, 'scripts/get_abi.pl')
    if os.path.isfile(pl):
        return ['perl', pl, what] + (['--rst-source'] if what == 'rest' else []) + \
            ['--dir', 'ABI']
    py = os.path.join(srctree, 'tools/docs/get_abi.py')
    return ['python3', py, '--dir', 'ABI', what] + (['--raw'] if what == 'rest' else [])


class KernelDoc(Directive):
    """Like Documentation/sphinx/kerneldoc.py, without Sphinx."""
    required_arguments = 1
    optional_arguments = 4
    option_spec = {
        'doc': directives.unchanged_required,
        'export': directives.unchanged,
        'internal': directives.unchanged,
        'identifiers': directives.unchanged,
        'no-identifiers': directives.unchanged,
        'functions': directives.unchanged,
    }
    has_content = False
    srctree = '.'

    def run(self):
        opts = self.options
        cmd = kernel_doc_cmd(self.srctree) + ['-rst']
        if 'functions' in opts:
            opts['identifiers'] = opts['functions']
        if 'export' in opts or 'internal' in opts:
            kind = 'export' if 'export' in opts else 'internal'
            cmd.append('-' + kind)
            for pattern in str(opts[kind]).split():
                cmd += ['-export-file', os.path.join(self.srctree, pattern)]
        elif 'doc' in opts:
            cmd += ['-function', opts['doc']]
        elif 'identifiers' in opts:
            ids = opts['identifiers'].split()
            for i in ids:
                cmd += ['-function', i]
            if not ids:
                cmd.append('-no-doc-sections')
        for i in opts.get('no-identifiers', '').split():
            cmd += ['-nosymbol', i]
        path = os.path.join(self.srctree, self.arguments[0])
        if not os.path.isfile(path):
            return [self.state_machine.reporter.warning(
                f'kernel-doc: no file {self.arguments[0]}', line=self.lineno)]
        cmd.append(path)

        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        out = []
        for line in res.stderr.splitlines():
            out.append(self.state_machine.reporter.warning(
                f'kernel-doc: {line}', line=self.lineno))
        if res.returncode:
            out.append(self.state_machine.reporter.warning(
                f'kernel-doc exited with {res.returncode}', line=self.lineno))
        if not res.stdout.strip():
            out.append(self.state_machine.reporter.warning(
                f'kernel-doc: nothing extracted from {self.arguments[0]}',
                line=self.lineno))
        node = nodes.section()
        lines = StringList(res.stdout.splitlines(),
                           source=f'{self.arguments[0]} (kernel-doc -rst)')
        self.state.nested_parse(lines, 0, node, match_titles=1)
        return out + node.children


def literal_role(name, rawtext, text, lineno, inliner, options=None,
                 content=None):
    return [nodes.literal(rawtext, text)], []


def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """:doc:, which must name an existing document, as in Sphinx."""
    target = re.sub(r'^.*<(.*)>$', r'\1', text.strip())
    base = inliner.document.settings.ipcc_srctree
    if target.startswith('/'):
        path = os.path.join(base, 'Documentation', target[1:])
    else:
        here = os.path.dirname(inliner.document.settings.ipcc_docpath)
        path = os.path.join(base, here, target)
    msgs = []
    if not os.path.isfile(path + '.rst'):
        msgs.append(inliner.reporter.warning(
            f'unknown document: {target}', line=lineno))
    return [nodes.literal(rawtext, text)], msgs


def register(srctree):
    KernelDoc.srctree = srctree
    for name in ROLES:
        roles.register_local_role(name, literal_role)
    roles.register_local_role('doc', doc_role)
    for name in NESTED:
        directives.register_directive(name, Nested)
    for name in IGNORED:
        directives.register_directive(name, Ignored)
    directives.register_directive('kernel-doc', KernelDoc)


MSG = re.compile(r'^(.*?):(\d*):? ?\((\w+)/(\d)\) (.*)$')


def parse(text, source, srctree, docpath):
    """docutils messages of level WARNING and above, as (line, text)."""
    stream = io.StringIO()
    settings = {
        'report_level': 2,          # warnings and above
        'halt_level': 5,            # never stop: collect them all
        'warning_stream': stream,
        'syntax_highlight': 'none',
        'tab_width': 8,
        'input_encoding': 'utf-8',
        'ipcc_srctree': srctree,
        'ipcc_docpath': docpath,
    }
    try:
        docutils.core.publish_doctree(text, source_path=source,
                                      settings_overrides=settings)
    except Exception as e:  # a crash of the parser is a finding too
        stream.write(f'{source}:: (SEVERE/4) docutils failed: {e}\n')
    found = []
    for line in stream.getvalue().splitlines():
        m = MSG.match(line)
        if m:
            found.append((f'{m.group(1)}:{m.group(2)}',
                          f'{m.group(3)}: {m.group(5)}'))
    return found


DOC_PATH = re.compile(r'\bDocumentation/[\w./-]+\.(?:rst|txt)\b')


def doc_paths(text, srctree):
    """Documentation/... paths the text names that do not exist."""
    return sorted({p for p in DOC_PATH.findall(text)
                   if not os.path.isfile(os.path.join(srctree, p))})


def toctree_entries(path):
    """Entries of the toctrees of one .rst file."""
    entries = []
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError:
        return entries
    i = 0
    while i < len(lines):
        if re.match(r'^(\s*)\.\. toctree::', lines[i]):
            indent = len(re.match(r'^(\s*)', lines[i]).group(1))
            i += 1
            while i < len(lines):
                line = lines[i]
                if line.strip() and len(line) - len(line.lstrip()) <= indent:
                    break
                s = line.strip()
                if s and not s.startswith(':'):
                    entries.append(re.sub(r'^.*<(.*)>$', r'\1', s))
                i += 1
            continue
        i += 1
    return entries


def in_toctree(srctree, rel):
    doc = os.path.splitext(rel)[0]
    d = os.path.dirname(doc)
    for parent in (d, os.path.dirname(d)):
        pdir = os.path.join(srctree, parent)
        if not os.path.isdir(pdir):
            continue
        for name in sorted(os.listdir(pdir)):
            if not name.endswith('.rst'):
                continue
            idx = os.path.join(parent, name)
            if os.path.splitext(idx)[0] == doc:
                continue
            for e in toctree_entries(os.path.join(srctree, idx)):
                target = e[1:] if e.startswith('/') else os.path.join(parent, e)
                if e.startswith('/'):
                    target = os.path.join('Documentation', target)
                if os.path.normpath(target) == doc:
                    return True
    return False


def check_abi(srctree, rel):
    """get_abi validate, then its reStructuredText through docutils."""
    found = []
    top = tempfile.mkdtemp(prefix='docs-abi.')
    # get_abi.pl puts --dir into labels and titles: pass it relative to
    # the temporary directory, whose random name can end in "_" and
    # then reads as a reference ("File /tmp/docs-abi.k2_/ABI/..." gave
    # a dangling one, one run in a few dozen).
    tmp = os.path.join(top, 'ABI')
    try:
        os.makedirs(os.path.join(tmp, 'testing'))
        shutil.copy(os.path.join(srctree, rel), os.path.join(tmp, 'testing'))
        for args in (['validate'], ['rest']):
            res = subprocess.run(get_abi_cmd(srctree, args[0]),
                                 capture_output=True, text=True, check=False,
                                 cwd=top)
            copy = os.path.join('ABI', 'testing', os.path.basename(rel))
            for line in res.stderr.splitlines():
                line = line.replace(copy, rel).strip()
                found.append((rel, f'get_abi {args[0]}: {line}'))
            if res.returncode:
                found.append((rel, f'get_abi {args[0]} exited with '
                                   f'{res.returncode}'))
        if not res.stdout.strip():
            found.append((rel, 'get_abi rest: no symbol found'))
        found += parse(res.stdout, f'{rel} (get_abi rest)', srctree, rel)
    finally:
        shutil.rmtree(top)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--srctree', required=True)
    ap.add_argument('--base')
    ap.add_argument('--toctree', action='store_true')
    ap.add_argument('--abi', action='store_true')
    ap.add_argument('file')
    args = ap.parse_args()

    srctree = os.path.abspath(args.srctree)
    register(srctree)
    path = os.path.join(srctree, args.file)
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f'{args.file}: cannot read: {e}')
        return 1

    if args.abi:
        found = check_abi(srctree, args.file)
        found += [(args.file, f'ERROR: no such document: {p}')
                  for p in doc_paths(text, srctree)]
    else:
        found = parse(text, args.file, srctree, args.file)
        found += [(args.file, f'ERROR: no such document: {p}')
                  for p in doc_paths(text, srctree)]
        if args.base:
            try:
                with open(args.base, encoding='utf-8') as f:
                    btext = f.read()
            except OSError as e:
                print(f'{args.base}: cannot read: {e}')
                return 2
            old = collections.Counter(m for _, m in
                                      parse(btext, args.file, srctree,
                                            args.file))
            old.update((args.file, f'ERROR: no such document: {p}')[1]
                       for p in doc_paths(btext, srctree))
            new = []
            for where, m in found:
                if old[m]:
                    old[m] -= 1
                else:
                    new.append((where, m))
            found = new
        if args.toctree and not in_toctree(srctree, args.file):
            found.append((args.file, 'WARNING: document is not included in '
                                     'any toctree'))

    for where, m in found:
        print(f'{where}: {m}')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
