#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, to run the workflow's SLURM profile for real:
#   workflow/slurm_node.sh start    install slurm-wlm and munge if missing, write slurm.conf,
#                                   start munged, slurmctld and slurmd, wait for the node to be idle
#   workflow/slurm_node.sh stop     stop the three daemons, remove their pid files
#   workflow/slurm_node.sh status   the daemons and the node (exit 0 when all are up)
# Needs root (it installs packages, writes /etc/slurm and starts daemons) and no systemd.
# A second `start` is a no-op. Exit 2: this machine cannot host the node (the reason is printed).
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# one-node test cluster written by imlbench workflow/slurm_node.sh"
MUNGE_PID=/run/munge/munged.pid
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
NODE=$(hostname -s)
WAIT_S=30

die() { echo "slurm_node.sh: $*" >&2; exit 2; }

alive() {  # alive PIDFILE: the process of PIDFILE runs (ps: also seen by a user who may not signal it)
    [[ -s $1 ]] && ps -p "$(cat "$1")" >/dev/null 2>&1
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v munged >/dev/null && command -v sinfo >/dev/null; then
        return
    fi
    command -v apt-get >/dev/null || die "slurmctld, slurmd or munged missing and no apt-get to install slurm-wlm and munge"
    echo "installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq slurm-wlm munge >/dev/null \
        || { apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; } \
        || die "apt-get install slurm-wlm munge failed"
}

node_conf() {  # the slurm.conf of this machine: its short hostname, CPUs and memory (MB)
    local cpus mem_mb
    cpus=$(nproc)
    # slurmd rejects a node with less memory than configured: keep 5% for rounding and the OS
    mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.95)}' /proc/meminfo)
    cat <<EOF
$MARK
ClusterName=imlbench
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
EnforcePartLimits=ALL
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MinJobAge=300
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
}

write_conf() {  # write slurm.conf unless it is already this one; never replace a foreign one
    local want
    want=$(node_conf)
    if [[ -f $CONF ]] && ! head -1 "$CONF" | grep -qxF "$MARK"; then
        die "$CONF exists and was not written by this script; not replacing it"
    fi
    if [[ -f $CONF ]] && [[ $(cat "$CONF") == "$want" ]]; then
        return
    fi
    if alive "$CTLD_PID" || alive "$SLURMD_PID"; then
        stop_daemons  # they run with another configuration
    fi
    install -d /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
    printf '%s\n' "$want" >"$CONF"
}

start_munge() {
    if alive "$MUNGE_PID"; then
        return
    fi
    rm -f "$MUNGE_PID"
    if [[ ! -s /etc/munge/munge.key ]]; then
        mungekey --create --keyfile /etc/munge/munge.key
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 600 /etc/munge/munge.key
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged
    munge -n | unmunge >/dev/null || die "munged started but munge/unmunge fails"
}

start_daemon() {  # start_daemon NAME PIDFILE
    if alive "$2"; then
        return
    fi
    rm -f "$2"
    "$1"
}

node_state() {
    sinfo -h -n "$NODE" -o %T 2>/dev/null | head -1
}

wait_idle() {
    local state=""
    for _ in $(seq $((WAIT_S * 5))); do
        state=$(node_state)
        case $state in
            idle | mixed | allocated | completing) return ;;
            drained | draining | down*) scontrol update NodeName="$NODE" State=RESUME 2>/dev/null || true ;;
        esac
        sleep 0.2
    done
    die "node $NODE not idle after ${WAIT_S} s (state: ${state:-none}); see /var/log/slurm/"
}

stop_one() {  # stop_one PIDFILE: SIGTERM, wait up to 10 s, then SIGKILL; remove the pid file
    local pid
    if alive "$1"; then
        pid=$(cat "$1")
        kill "$pid"
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$1"
}

stop_daemons() {
    stop_one "$SLURMD_PID"
    stop_one "$CTLD_PID"
}

status() {
    local ok=0 name file
    for name in munged:$MUNGE_PID slurmctld:$CTLD_PID slurmd:$SLURMD_PID; do
        file=${name#*:}
        if alive "$file"; then
            echo "${name%%:*}: running (pid $(cat "$file"))"
        else
            echo "${name%%:*}: stopped"
            ok=1
        fi
    done
    echo "node $NODE: $(node_state || true)"
    return $ok
}

case ${1:-} in
    start)
        [[ $(id -u) -eq 0 ]] || die "needs root (installs packages, writes $CONF, starts daemons)"
        install_packages
        write_conf
        start_munge
        start_daemon slurmctld "$CTLD_PID"
        start_daemon slurmd "$SLURMD_PID"
        wait_idle
        echo "node $NODE: $(node_state)"
        ;;
    stop)
        [[ $(id -u) -eq 0 ]] || die "needs root (stops daemons)"
        stop_daemons
        stop_one "$MUNGE_PID"
        ;;
    status)
        status
        ;;
    *)
        echo "usage: $0 start|stop|status" >&2
        exit 64
        ;;
esac
