#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run SCRIPT=path: boot the test kernel, copy SCRIPT in, run it, print
# its output and exit with its exit status.
. "$(dirname "$0")/lib.sh"

script=$1
[ -n "$script" ] || die "usage: make run SCRIPT=path [QEMU_SMP=...] [CMDLINE=...]"
[ -f "$script" ] || die "no such file: $script"
"$HARNESS/build.sh" all || exit 1
logdir=$(new_logdir run)
"$HARNESS/boot.sh" script "$logdir" "$script"
rc=$?
sed -e '/@@IPCC-EXIT [0-9]*@@/d' "$logdir/output.log"
case $rc in
124 | 125) msg "console log: $logdir/console.log" ;;
esac
exit $rc
