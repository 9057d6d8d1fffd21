#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive an installed Debian system booted by boot.sh MODE=disk.

usage: deb-login.py LOGDIR -- COMMAND...

Runs COMMAND (boot.sh disk LOGDIR), whose stdin/stdout are the guest's
serial console; waits for the login prompt, logs in as root (no
password), runs the checks below one by one, powers the guest off and
prints one result line per check ("ok NAME" or "not ok NAME: why"), then
"N passed, N failed". The whole console goes to LOGDIR/console.log.

The checks are what README.md's "Real hardware" section tells a user to
look at after installing the package, made exact. DEB_KVER is the
package's kernel release, which uname -r must show. Then each selftest
named in DEB_SELFTESTS (copied to /opt/ipcc by deb-boot.sh) runs as one
check: it passes when the binary exits 0 (kselftest: no case failed);
its TAP output goes to LOGDIR/NAME.tap. What lsmod shows after the
login goes to LOGDIR/lsmod.txt (the input of make deb DEB_LSMOD=).
"""
import os
import re
import select
import subprocess
import sys
import time

LOGIN_TIMEOUT = int(os.environ.get('LOGIN_TIMEOUT', '1200'))
CMD_TIMEOUT = 120
SELFTEST_TIMEOUT = 1200
SYSCTL = '/proc/sys/kernel/sched_ipcc'


class Console:
    """The guest's console: what it printed so far, and a way to type."""

    def __init__(self, proc, log):
        self.proc = proc
        self.log = log
        self.buf = ''

    def expect(self, pattern, timeout, start=0):
        """Wait until @pattern matches the output after @start; the match."""
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf, start)
            if m:
                return m
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
            if r:
                data = os.read(self.proc.stdout.fileno(), 65536)
                if not data:
                    return None
                text = data.decode('utf-8', 'replace')
                self.log.write(text)
                self.log.flush()
                self.buf += text

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def run(self, cmd, timeout=CMD_TIMEOUT):
        """Run @cmd in the guest's shell; (exit status, output) or None.

        The output lies between two markers that only the shell's printf
        writes whole: the echo of the typed line holds them as format
        strings, so neither the terminal's nor readline's echo of it
        can be taken for them.
        """
        start = len(self.buf)
        self.send(f"printf '@@%s@@\\n' B; {cmd}; printf '@@RC %s@@\\n' $?\n")
        m = self.expect(r'@@RC (\d+)@@', timeout, start)
        if not m:
            return None
        out = self.buf[start:m.start()]
        b = out.find('@@B@@')
        out = out[b + len('@@B@@'):] if b >= 0 else ''
        out = re.sub(r'\x1b\[[0-9;?]*[A-Za-z]', '', out).replace('\r', '')
        return int(m.group(1)), out.strip('\n') + '\n'


def main():
    if len(sys.argv) < 4 or sys.argv[2] != '--':
        sys.exit(__doc__)
    logdir, cmd = sys.argv[1], sys.argv[3:]
    os.makedirs(logdir, exist_ok=True)
    results = []

    def check(name, ok, why=''):
        results.append((name, ok, why))
        print(f'ok {name}' if ok else f'not ok {name}: {why}', flush=True)

    with open(os.path.join(logdir, 'console.log'), 'w') as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE)
        con = Console(proc, log)
        t0 = time.monotonic()
        m = con.expect(r'login: ', LOGIN_TIMEOUT)
        check('login_prompt', m is not None,
              f'the guest ended (exit {proc.returncode}) before a login prompt'
              if proc.poll() is not None else
              f'no login prompt in {LOGIN_TIMEOUT} s')
        if m:
            print(f'# login prompt after {time.monotonic() - t0:.0f} s',
                  flush=True)
            con.send('root\n')
            m = con.expect(r'root@[^:]*:[^#]*# ', 120, m.end())
            check('root_shell', m is not None, 'no root shell prompt')
        if m:
            # Kernel messages off the console (the knobs log), and no
            # bracketed-paste escapes around each command's output.
            con.run("dmesg -n 1; bind 'set enable-bracketed-paste off'")
            # The modules this system loaded, for make deb DEB_LSMOD=.
            r = con.run('lsmod')
            if r and r[0] == 0:
                with open(os.path.join(logdir, 'lsmod.txt'), 'w') as f:
                    f.write(r[1])
            guest_checks(con, check)
            selftests(con, check, logdir)
            con.send('poweroff -f\n')
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    failed = sum(1 for r in results if not r[1])
    print(f'{len(results) - failed} passed, {failed} failed')
    return 1 if failed else 0


def guest_checks(con, check):
    """The packaged kernel on the hybrid part, as a user checks it."""
    def run(name, cmd):
        r = con.run(cmd)
        if r is None:
            check(name, False, f'no answer to "{cmd}"')
        return r

    r = run('kernel_is_package', 'uname -r')
    if r:
        want = os.environ.get('DEB_KVER', '')
        check('kernel_is_package', r[0] == 0 and want and r[1].strip() == want,
              f'uname -r: {r[1].strip()!r}, the package: {want!r}')
    r = run('cpu_features', "grep -o -w 'itd\\|hreset\\|hfi' /proc/cpuinfo | sort -u | tr '\\n' ' '")
    if r:
        check('cpu_features', r[1].split() == ['hfi', 'hreset', 'itd'],
              f'flags: {r[1].strip()!r}')
    r = run('backend_on', 'dmesg | grep -c "ipcc_itd: .*task classification on"')
    if r:
        check('backend_on', r[1].strip() == '1', f'log lines: {r[1].strip()!r}')
    r = run('itd_status', 'cat /sys/kernel/debug/ipcc_itd/status')
    if r:
        lines = r[1].split('\n')
        check('itd_status', r[0] == 0 and all(w in lines for w in
                                              ('state on', 'hardware on', 'classes 4')),
              f'status: {r[1].strip()[:200]!r}')
    r = run('scores', 'cat /sys/kernel/debug/sched/ipcc/scores')
    if r:
        rows = [ln.split() for ln in r[1].splitlines() if ln.strip()]
        ok = (r[0] == 0 and len(rows) > 1 and rows[0][:2] == ['cpu', 'class0'] and
              len({tuple(x[1:]) for x in rows[1:]}) > 1)
        check('scores', ok, f'scores: {r[1].strip()[:200]!r}')
    r = run('task_class',
            '(yes >/dev/null & p=$!; sleep 3; grep ipcc.class /proc/$p/sched; kill $p)')
    if r:
        m = re.search(r'ipcc\.class\s*:\s*(-?\d+)', r[1])
        check('task_class', m is not None and 0 <= int(m.group(1)) <= 3,
              f'/proc/PID/sched: {r[1].strip()[:200]!r}')
    r = run('sysctl_default', f'cat {SYSCTL}')
    if r:
        check('sysctl_default', r[1].strip() == '2', f'sched_ipcc: {r[1].strip()!r}')
    r = run('sysctl_off', f'echo 0 > {SYSCTL} && cat {SYSCTL}')
    if r:
        check('sysctl_off', r[0] == 0 and r[1].strip() == '0',
              f'rc {r[0]}, {r[1].strip()!r}')
    r = run('sysctl_bad_refused', f'echo 7 > {SYSCTL}; echo "rc=$?"; cat {SYSCTL}')
    if r:
        out = r[1]
        check('sysctl_bad_refused',
              'Invalid argument' in out and 'rc=1' in out and out.strip().endswith('0'),
              f'{out.strip()!r}')
    r = run('sysctl_full', f'echo 2 > {SYSCTL} && cat {SYSCTL}')
    if r:
        check('sysctl_full', r[0] == 0 and r[1].strip() == '2',
              f'rc {r[0]}, {r[1].strip()!r}')


def selftests(con, check, logdir):
    """The series' selftests, on the installed kernel and system."""
    for t in os.environ.get('DEB_SELFTESTS', '').split():
        r = con.run(f'/opt/ipcc/{t} >/root/{t}.tap 2>&1; r=$?; '
                    f'grep -E "^(not )?ok |^# +(FAIL|SKIP) " /root/{t}.tap; (exit $r)',
                    timeout=SELFTEST_TIMEOUT)
        if r is None:
            check(f'selftest:{t}', False, f'no result in {SELFTEST_TIMEOUT} s')
            continue
        with open(os.path.join(logdir, f'{t}.tap'), 'w') as f:
            f.write(r[1])
        oks = len(re.findall(r'^ok ', r[1], re.M))
        bad = re.findall(r'^not ok .*', r[1], re.M)
        print(f'# {t}: {oks} ok, {len(bad)} not ok', flush=True)
        check(f'selftest:{t}', r[0] == 0,
              f'exit {r[0]}: ' + '; '.join(bad)[:300])


if __name__ == '__main__':
    sys.exit(main())
