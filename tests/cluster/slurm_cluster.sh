#!/usr/bin/env bash
# Sourced by the cluster tests: a one-node Slurm cluster on localhost, private to the caller.
#   cluster_start DIR   munged + slurmctld + slurmd with state, logs and sockets under DIR;
#                       exports SLURM_CONF so sbatch, squeue, scontrol (and qsub) talk to it
#   cluster_stop        stops every daemon cluster_start started, by PID (call it from a trap)
#   cluster_wait_job ID SECONDS   waits until job ID has left the queue; 1 if it is still there
# Needs root (slurmd starts jobs as their user; munged runs as the munge user) and Debian's
# slurmctld, slurmd, slurm-client and munge. The system's /etc/slurm and munge are not touched;
# the ports are free ones, so two clusters (two tests) can run side by side.

cluster_pids=()

cluster_start() {
  local dir=$1 host ports
  host=$(hostname -s)
  mkdir -p "$dir"/{munge,state,spool,log}
  # munged runs as munge, refuses key or socket directories others can write, and wants
  # its socket directory searchable by all.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 711 "$dir" "$dir/munge" && chmod 400 "$dir/munge/munge.key" && chown -R munge:munge "$dir/munge"
  setpriv --reuid=munge --regid=munge --clear-groups /usr/sbin/munged --foreground \
    --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" > "$dir/munge/munged.out" 2>&1 &
  cluster_pids+=($!)

  ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
  read -r ctld_port slurmd_port <<< "$ports"
  # The node line is what slurmd detects (slurmd -C), or it drains the node as mismatched.
  # linuxproc + task/none: no cgroups needed (containers, CI); pmix for srun --mpi=pmix.
  cat > "$dir/slurm.conf" <<CONF
ClusterName=gridflowci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock,cred_expire=10
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=10
$(slurmd -C | head -1) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  : > "$dir/plugstack.conf"
  export SLURM_CONF=$dir/slurm.conf

  local i
  for ((i = 0; i < 50; ++i)); do [ -S "$dir/munge/munge.sock" ] && break; sleep 0.1; done
  /usr/sbin/slurmctld -D -i > "$dir/log/slurmctld.out" 2>&1 &
  cluster_pids+=($!)
  /usr/sbin/slurmd -D > "$dir/log/slurmd.out" 2>&1 &
  cluster_pids+=($!)
  # Ready once the node is idle; bounded, and a failure shows the daemons' logs.
  for ((i = 0; i < 100; ++i)); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
    sleep 0.2
  done
  echo "cluster: the node did not become idle in 20 s" >&2
  sinfo >&2 || true
  tail -n 20 "$dir"/log/*.log "$dir/munge/munged.log" >&2 || true
  return 1
}

cluster_stop() {
  local pid i
  # Jobs first, while slurmd and slurmctld are there to end their processes (bounded), then
  # the daemons, newest first.
  if [ ${#cluster_pids[@]} -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
    scancel --full --quiet --user="$(id -un)" 2>/dev/null
    for ((i = 0; i < 20; ++i)); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  for ((i = ${#cluster_pids[@]} - 1; i >= 0; --i)); do
    pid=${cluster_pids[i]}
    kill "$pid" 2>/dev/null || continue
    timeout 10 tail --pid="$pid" -f /dev/null || kill -KILL "$pid" 2>/dev/null
  done
  cluster_pids=()
}

cluster_wait_job() {
  local id=$1 limit=$2 i
  for ((i = 0; i < limit * 2; ++i)); do
    [ -z "$(squeue -h -j "$id" -o %i 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  return 1
}
