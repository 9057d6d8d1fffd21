#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build the mailed series: a git history on the base, then format-patch.

usage: series.py REPO BASE_SRC TREE OUT NEWFILES_LIST ASSEMBLED_SRC

  REPO           this repository (harness/series/layout, patches/, files)
  BASE_SRC       the pristine base tree (never written)
  TREE           a git work tree of the base, created or reset here
  OUT            directory for the format-patch files (emptied first)
  NEWFILES_LIST  file with the series' new files, one repo path a line
  ASSEMBLED_SRC  the tree harness/assemble.sh made: the series' final
                 files must be identical to it

The layout (harness/series/layout) groups the repo's new files and hook
patches into logical patches; this script checks that it uses each of them
exactly once, commits one patch per block with a Signed-off-by, writes the
patches and a cover letter (harness/series/cover.txt, with the benchmark
table of README.md), and checks the result against the assembled tree.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

BASE_TAG = 'ipcc-base'


def die(text):
    print(f'[ipcc] ERROR: {text}', file=sys.stderr)
    sys.exit(1)


def git(tree, *args, inp=None):
    r = subprocess.run(['git', '-C', tree, *args], input=inp, text=True,
                       capture_output=True, check=False)
    if r.returncode:
        die(f'git {" ".join(args)}: {r.stderr.strip()}')
    return r.stdout


def parse_layout(path):
    blocks = []
    cur = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#'):
                continue
            m = re.match(r'^(patch|files|hooks|maintainers):\s*(.*)$', line)
            if m and m.group(1) == 'patch':
                cur = {'subject': m.group(2).strip(), 'files': [], 'hooks': [],
                       'maintainers': False, 'body': []}
                blocks.append(cur)
            elif cur is None:
                if line.strip():
                    die(f'{path}: text before the first "patch:" line')
            elif m and m.group(1) == 'files':
                cur['files'] += m.group(2).split()
            elif m and m.group(1) == 'hooks':
                cur['hooks'] += m.group(2).split()
            elif m and m.group(1) == 'maintainers':
                cur['maintainers'] = m.group(2).strip() == 'yes'
            else:
                cur['body'].append(line)
    for b in blocks:
        while b['body'] and not b['body'][0].strip():
            b['body'].pop(0)
        while b['body'] and not b['body'][-1].strip():
            b['body'].pop()
    return blocks


def hook_message(path):
    """Subject and body of a hook patch (between the header and "---")."""
    subject, body, state = None, [], 'head'
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if state == 'head':
                if line.startswith('Subject:'):
                    subject = re.sub(r'^Subject:\s*(\[PATCH[^\]]*\]\s*)?', '', line)
                elif subject is not None and not line.strip():
                    state = 'body'
            elif state == 'body':
                if line == '---':
                    break
                if not line.startswith('Signed-off-by:'):
                    body.append(line)
    while body and not body[-1].strip():
        body.pop()
    return subject, body


def hook_path(repo, name):
    """The file of hook patch NAME for the base in $BASE (see lib.sh)."""
    own = os.path.join(repo, 'patches', os.environ.get('BASE', ''), name)
    if os.environ.get('BASE') and os.path.isfile(own):
        return own
    return os.path.join(repo, 'patches', name)


def check_coverage(repo, blocks, newfiles):
    series = []
    with open(os.path.join(repo, 'patches', 'series'), encoding='utf-8') as f:
        for line in f:
            line = re.sub(r'#.*', '', line).strip()
            if line:
                series.append(line)
    used_files = [p for b in blocks for p in b['files']]
    used_hooks = [p for b in blocks for p in b['hooks']]
    errors = []
    for name, used, want in (('file', used_files, newfiles),
                             ('hook patch', used_hooks, series)):
        for p in sorted(set(want) - set(used)):
            errors.append(f'{name} {p} is in no patch of the layout')
        for p in sorted(set(used) - set(want)):
            errors.append(f'{name} {p} of the layout does not exist')
        for p in sorted({p for p in used if used.count(p) > 1}):
            errors.append(f'{name} {p} is in more than one patch')
    if errors:
        die('harness/series/layout does not match the repository:\n  ' +
            '\n  '.join(errors))


def prepare_tree(base_src, tree):
    tagged = subprocess.run(['git', '-C', tree, 'rev-parse', '-q', '--verify',
                             f'refs/tags/{BASE_TAG}'], capture_output=True,
                            check=False).returncode == 0
    if os.path.isdir(os.path.join(tree, '.git')) and tagged:
        git(tree, 'checkout', '-q', '-f', '--detach', BASE_TAG)
        git(tree, 'clean', '-q', '-f', '-d', '-x')
        return
    print(f'[ipcc] series: copying the base into {tree}', file=sys.stderr)
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    subprocess.run(['cp', '-a', base_src + '/.', tree], check=True)
    git(tree, 'init', '-q')
    git(tree, 'add', '-A', '-f')
    git(tree, '-c', 'user.name=ipcc', '-c', 'user.email=ipcc@localhost',
        'commit', '-q', '-m',
        f"base: Debian {os.environ.get('BASE_PKG', 'linux-source')} "
        f"{os.environ.get('BASE_VERSION', '')}")
    git(tree, 'tag', BASE_TAG)


def main():
    if len(sys.argv) != 7:
        die(__doc__.strip().splitlines()[2])
    repo, base_src, tree, out, listfile, assembled = sys.argv[1:]
    with open(listfile, encoding='utf-8') as f:
        newfiles = [l.strip() for l in f if l.strip()]
    blocks = parse_layout(os.path.join(repo, 'harness', 'series', 'layout'))
    check_coverage(repo, blocks, newfiles)

    ident = hook_ident(repo)
    prepare_tree(base_src, tree)
    git(tree, 'checkout', '-q', '-B', 'ipcc')
    for n, b in enumerate(blocks, 1):
        for p in b['files']:
            dst = os.path.join(tree, p)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            # From the assembled tree: the base's backports (which change
            # only the series' new files) land in the patch adding a file.
            shutil.copy2(os.path.join(assembled, p), dst)
        for h in b['hooks']:
            r = subprocess.run(['patch', '-p1', '-F0', '-s', '--no-backup-if-mismatch',
                                '-i', hook_path(repo, h)],
                               cwd=tree, capture_output=True, text=True, check=False)
            if r.returncode:
                die(f'patch {n} ({b["subject"]}): {h} does not apply in this '
                    f'order:\n{r.stdout}{r.stderr}')
        if b['files'] or b['maintainers']:
            merge_maintainers(repo, tree)
        body = b['body']
        if not body:
            if not b['hooks']:
                die(f'patch {n} ({b["subject"]}) needs a message body')
            # A hook split where the bases differ: the first part speaks.
            body = hook_message(hook_path(repo, b['hooks'][0]))[1]
        msg = b['subject'] + '\n\n' + '\n'.join(body) + \
            f'\n\nSigned-off-by: {ident[0]} <{ident[1]}>\n'
        git(tree, 'add', '-A', '-f')
        git(tree, '-c', f'user.name={ident[0]}', '-c', f'user.email={ident[1]}',
            'commit', '-q', '--date=2026-12-03T12:00:00Z', '-F', '-', inp=msg)

    # The series must produce exactly the tree make test assembles.
    changed = git(tree, 'diff', '--name-only', BASE_TAG, 'HEAD').split()
    for p in changed:
        a, b = os.path.join(tree, p), os.path.join(assembled, p)
        if not os.path.exists(b) or open(a, 'rb').read() != open(b, 'rb').read():
            die(f'{p} differs from the assembled tree {assembled}')

    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    git(tree, '-c', f'user.name={ident[0]}', '-c', f'user.email={ident[1]}',
        'format-patch', '-q', '--cover-letter', '--thread', '-o', out,
        f'{BASE_TAG}..HEAD')
    fill_cover(repo, out)
    files = sorted(os.listdir(out))
    print(f'[ipcc] series: {len(files) - 1} patches and a cover letter in {out}',
          file=sys.stderr)
    for f in files:
        print(f'  {f}', file=sys.stderr)


def merge_maintainers(repo, tree):
    """Merge the MAINTAINERS entry, with the F: lines that match so far.

    Each patch that adds files updates the entry (checkpatch asks for it),
    and no F: line names a file that does not exist yet.
    """
    src = os.path.join(repo, 'MAINTAINERS')
    if not os.path.exists(src):
        return
    keep = []
    with open(src, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^F:\t(\S+)', line)
            if m:
                pat = m.group(1)
                if pat.endswith('/'):
                    hit = os.path.isdir(os.path.join(tree, pat))
                else:
                    hit = bool(glob.glob(os.path.join(tree, pat)))
                if not hit:
                    continue
            keep.append(line)
    tmp = os.path.join(tree, '.git', 'MAINTAINERS.ipcc')
    with open(tmp, 'w', encoding='utf-8') as f:
        f.writelines(keep)
    subprocess.run(['python3', os.path.join(repo, 'harness', 'merge-maintainers.py'),
                    os.path.join(tree, 'MAINTAINERS'), tmp], check=True)


def hook_ident(repo):
    """Author of the series: the Signed-off-by of the first hook patch."""
    with open(os.path.join(repo, 'patches', '0001-kconfig.patch'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^Signed-off-by:\s*(.*?)\s*<(.*)>', line)
            if m:
                return m.group(1), m.group(2)
    die('no Signed-off-by in patches/0001-kconfig.patch')
    return None


def fill_cover(repo, out):
    cover = os.path.join(out, '0000-cover-letter.patch')
    with open(os.path.join(repo, 'harness', 'series', 'cover.txt'), encoding='utf-8') as f:
        subject, _, blurb = f.read().partition('\n\n')
    with open(os.path.join(repo, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    m = re.search(r'^### Benchmark results\n(.*?)(?=^### )', readme, re.S | re.M)
    bench = m.group(1).strip() if m else '(no benchmark section in README.md)'
    blurb = blurb.replace('@BENCH@', bench).rstrip() + '\n'
    with open(cover, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('*** SUBJECT HERE ***', subject.strip())
    text = text.replace('*** BLURB HERE ***', blurb)
    with open(cover, 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main()
