# A single-node Slurm for the tests: munged, slurmctld and slurmd started
# as root under a temporary folder, with a minimal slurm.conf (one node
# "localhost" with this machine's CPUs, proctrack/linuxproc, task/none),
# and stopped by their pids.  Load it, call slurm_start in setup_file and
# slurm_stop in teardown_file; each case then starts with need_slurm,
# which skips, saying why, when Slurm could not be started.
#   SLURM_DIR     the folder of its configuration, state, logs and socket
#   SLURM_CONF    the slurm.conf every Slurm command reads

# slurm_why: why Slurm cannot run here, or nothing when it can
slurm_why() {
	local p

	[ "$(id -u)" -eq 0 ] || { echo "not root"; return; }
	for p in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
		command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v \
		    "$p" >/dev/null 2>&1 || {
			echo "$p not installed (Debian: slurm-wlm, munge)"
			return
		}
	done
}

# slurm_conf PORT: the slurm.conf of one node, controller and daemon on
# PORT and PORT + 1
slurm_conf() {
	cat <<EOF
ClusterName=spstest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.socket
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=batch Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

# slurm_alive: the three daemons run; if not, says which, with its log
slurm_alive() {
	local d

	for d in munged slurmctld slurmd; do
		# a daemon writes its pid file a moment after it forks
		[ -s "$SLURM_DIR/$d.pid" ] || continue
		kill -0 "$(cat "$SLURM_DIR/$d.pid")" 2>/dev/null && continue
		echo "$d is not running: $(tail -n 3 "$SLURM_DIR/$d.log")" >&2
		return 1
	done
}

# slurm_wait_idle: until the node is idle (30 s at most); fails if not
slurm_wait_idle() {
	local i state

	for ((i = 0; i < 300; i++)); do
		slurm_alive || return 1
		state=$(sinfo -h -n localhost -o %T 2>/dev/null)
		[ "$state" = idle ] && return 0
		sleep 0.1
	done
	echo "node state '$state' after 30 s" >&2
	return 1
}

# slurm_start: the daemons; sets SLURM_WHY (and returns 0) when they
# cannot run, or fails when they should and do not
slurm_start() {
	local port

	PATH=$PATH:/usr/sbin
	SLURM_WHY=$(slurm_why)
	export SLURM_WHY PATH
	[ -z "$SLURM_WHY" ] || return 0
	SLURM_DIR=$(mktemp -d /tmp/sps-slurm.XXXXXX)
	chmod 755 "$SLURM_DIR"
	mkdir -m 700 "$SLURM_DIR/state" "$SLURM_DIR/spool"
	# ports of this run only: another suite may run a Slurm of its own
	port=$((20000 + $$ % 20000 * 2))
	SLURM_CONF=$SLURM_DIR/slurm.conf
	export SLURM_DIR SLURM_CONF
	slurm_conf "$port" >"$SLURM_CONF"
	mungekey -c -k "$SLURM_DIR/munge.key" || return 1
	munged --force -S "$SLURM_DIR/munge.socket" \
	    --key-file "$SLURM_DIR/munge.key" \
	    --pid-file "$SLURM_DIR/munged.pid" \
	    --log-file "$SLURM_DIR/munged.log" \
	    --seed-file "$SLURM_DIR/munged.seed" || return 1
	slurmctld -i -f "$SLURM_CONF" || return 1
	slurmd -N localhost -f "$SLURM_CONF" || return 1
	slurm_wait_idle
}

# slurm_stop: every daemon by its pid (SIGTERM, then SIGKILL after 10 s:
# a slurmd still trying to reach a controller that did not start does
# not stop on SIGTERM), then the folder
slurm_stop() {
	local d i pid

	[ -n "${SLURM_DIR:-}" ] || return 0
	for d in slurmd slurmctld munged; do
		pid=$(cat "$SLURM_DIR/$d.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null || continue
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null
	done
	rm -rf "$SLURM_DIR"
}

# need_slurm: skip, saying why, when Slurm could not be started
need_slurm() {
	[ -z "$SLURM_WHY" ] || skip "no Slurm: $SLURM_WHY"
}

# slurm_wait_jobs: until the queue is empty (120 s at most)
slurm_wait_jobs() {
	local i queue

	for ((i = 0; i < 1200; i++)); do
		slurm_alive || return 1
		queue=$(squeue -h) || return 1
		[ -z "$queue" ] && return 0
		sleep 0.1
	done
	echo "jobs still queued: $(squeue 2>&1)" >&2
	return 1
}
