#!/usr/bin/env bash
# Starts a single-node SLURM cluster on this machine, as root, without
# systemd: munged, then slurmctld and slurmd, with deploy/slurm/slurm.conf.in
# filled in with this host's name, CPUs and memory. Debian's slurm-wlm and
# munge packages must be installed (.ci/run installs them). Idempotent: a
# cluster already answering is left as it is. Prints sinfo when it is up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${WARPSIM_SLURM_STATE:-/var/lib/warpsim-slurm}
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))

if pgrep -x munged >/dev/null && pgrep -x slurmctld >/dev/null && pgrep -x slurmd >/dev/null &&
  sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
  sinfo
  exit 0
fi

mkdir -p "$state/ctld" "$state/d" /etc/slurm /run/munge /var/log/munge /var/lib/munge
sed -e "s|@HOST@|$host|g" -e "s|@CPUS@|$cpus|g" -e "s|@MEM@|$mem|g" -e "s|@STATE@|$state|g" \
  "$here/slurm.conf.in" >/etc/slurm/slurm.conf
# slurmd 22.05 initializes a cgroup plugin even with proctrack/linuxproc and
# task/none (22.05 has no "disabled"): v1 where the v1 hierarchy is mounted,
# else v2 without systemd.
if [ -d /sys/fs/cgroup/freezer ]; then
  printf 'CgroupPlugin=cgroup/v1\nCgroupAutomount=yes\n' >/etc/slurm/cgroup.conf
else
  printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' >/etc/slurm/cgroup.conf
fi

if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! munge -n >/dev/null 2>&1; then
  # --force: munged refuses to start as root-owned directories otherwise.
  runuser -u munge -- /usr/sbin/munged --force 2>/dev/null || /usr/sbin/munged --force
  for _ in $(seq 50); do munge -n >/dev/null 2>&1 && break; sleep 0.1; done
fi

pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 100); do
  if pgrep -x slurmd >/dev/null && sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
    sinfo
    exit 0
  fi
  sleep 0.2
done
echo "slurm did not come up; logs in $state:" >&2
tail -n 20 "$state"/*.log >&2 || true
exit 1
