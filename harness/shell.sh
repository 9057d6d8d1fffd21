#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make shell: boot the test kernel to an interactive shell on this terminal.
# Leave with 'poweroff -f' (or Ctrl-A x).
. "$(dirname "$0")/lib.sh"

"$HARNESS/build.sh" all || exit 1
logdir=$(new_logdir shell)
TIMEOUT=0 exec "$HARNESS/boot.sh" shell "$logdir"
