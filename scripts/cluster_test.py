#!/usr/bin/env python3
"""make test-cluster: the Slurm recipe (deploy/slurm/batch-ringtones.sbatch) on a real one-node
Slurm, started here by scripts/slurm_cluster.sh (or reused if one is already running from the
same folder; then it is left running).

In a temporary folder (the "shared" file system of a one-node cluster) it writes clips and a
manifest of 12 ringtones, then twice:
  1. submits the recipe (sbatch --parsable, MANIFEST/OUT/PATH through --export) and a dependent
     `voicealarm batch ... --verify --json` job (--dependency=afterok), and waits for both (bounded);
  2. checks every task and the verify job ended COMPLETED with exit 0 (scontrol: there is no
     accounting), each array task's --json report in its log names its own shard from
     SLURM_ARRAY_TASK_ID, the reports together cover the manifest once, the verify report is ok, and
     ffprobe reads every ringtone as audio of the duration the reports give.
The first round builds everything; between rounds one clip gets new bytes (a local --verify must
then call exactly its ringtones stale); the second round must rebuild exactly those ringtones and
leave every other file untouched.

Usage: cluster_test.py [BIN] [--state-dir DIR]   (BIN: else $VOICEALARM_BIN, else .build/debug/voicealarm)
Prints a PASS summary and exits 0, or an `error:` line and exits 1.
"""
import argparse, hashlib, json, os, re, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, "scripts", "slurm_cluster.sh")
RECIPE = os.path.join(ROOT, "deploy", "slurm", "batch-ringtones.sbatch")
ROUND_TIMEOUT = float(os.environ.get("CLUSTER_TEST_TIMEOUT", "300"))   # seconds for both jobs of a round
POLL = 2.0

# The clip that changes between rounds, and the ringtones; the manifest writes clip paths relative
# to itself, so which shard a ringtone lands in does not depend on the temporary folder's name.
CHANGED = "chime.wav"
RINGTONES = [
    ("wake-01", ["calm.wav", "ready.mp3"], None),
    ("wake-02", ["chime.wav", "grateful.m4a"], None),
    ("wake-03", ["strong.flac", "kind.ogg"], None),
    ("wake-04", ["ready.mp3", "grateful.m4a", "kind.ogg"], None),
    ("wake-05", ["calm.wav", "strong.flac"], "caf"),
    ("wake-06", ["kind.ogg", "calm.wav"], "caf"),
    ("wake-07", ["ready.mp3", "chime.wav"], "caf"),
    ("wake-08", ["grateful.m4a", "strong.flac"], None),
    ("wake-09", ["calm.wav", "kind.ogg", "ready.mp3"], "mp3"),
    ("wake-10", ["strong.flac", "ready.mp3"], "mp3"),
    ("wake-11", ["kind.ogg", "chime.wav", "calm.wav"], None),
    ("wake-12", ["grateful.m4a", "calm.wav"], "wav"),
]
EXTENSIONS = {None: "m4a", "m4a": "m4a", "caf": "caf", "mp3": "mp3", "wav": "wav"}


class Failure(Exception):
    pass


def run(command, env=None, check=True, timeout=120):
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise Failure(f"{' '.join(command)} exited {result.returncode}: {(result.stderr or result.stdout).strip()[-2000:]}")
    return result


def tail(path, lines=25):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as error:
        return f"({error})"


def make_clips(work):
    clips = os.path.join(work, "clips")
    os.makedirs(clips)
    for name in ["calm.wav", "ready.mp3", "grateful.m4a", "strong.flac", "kind.ogg"]:
        shutil.copy(os.path.join(ROOT, "SampleAudio", name), clips)
    chime(os.path.join(clips, CHANGED), 660, 1.5)
    manifest = {"format": "m4a", "ringtones": [
        dict({"id": id, "clips": [f"clips/{c}" for c in names]}, **({"format": fmt} if fmt else {}))
        for id, names, fmt in RINGTONES]}
    path = os.path.join(work, "playlists.json")
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
    return path


def chime(path, frequency, seconds):
    """A short tone (sox), written in place of PATH."""
    run(["sox", "-n", "-r", "44100", "-c", "1", path + ".new.wav", "synth", str(seconds), "sine", str(frequency),
         "vol", "0.3", "fade", "q", "0.05", str(seconds), "0.2"])
    os.replace(path + ".new.wav", path)


def report_in(log):
    """The --json report in a task's log (stdout and stderr share it: stderr's lines come around it)."""
    text = open(log, errors="replace").read()
    decoder = json.JSONDecoder()
    for match in re.finditer(r"^\{", text, re.M):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise Failure(f"no JSON report in {log}:\n{tail(log)}")


def job_records(job, env):
    """scontrol's record of each task of JOB: {"ArrayTaskId", "JobState", "ExitCode", "StdOut", ...}."""
    out = run(["scontrol", "show", "job", "-o", job], env=env).stdout
    return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in out.splitlines() if line.strip()]


class Round:
    def __init__(self, test, number):
        self.test, self.number = test, number

    def submit(self):
        t, env = self.test, self.test.env
        exports = {"PATH": f"{t.bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}", "MANIFEST": t.manifest, "OUT": t.out}
        if any("," in value for value in exports.values()):
            raise Failure(f"a path holds a comma, which sbatch --export cannot carry: {exports}")
        export = "ALL," + ",".join(f"{k}={v}" for k, v in exports.items())
        self.started = time.monotonic()
        self.array = run(["sbatch", "--parsable", f"--chdir={t.work}", f"--export={export}", RECIPE], env=env).stdout.strip().split(";")[0]
        t.jobs.append(self.array)
        gate = f"voicealarm batch {os.path.basename(t.manifest)} --out {os.path.basename(t.out)} --verify --json"
        self.verify = run(["sbatch", "--parsable", f"--chdir={t.work}", f"--export={export}", f"--dependency=afterok:{self.array}",
                           "--job-name=voicealarm-verify", f"--output=voicealarm-verify-%j.log", "--wrap", gate],
                          env=env).stdout.strip().split(";")[0]
        t.jobs.append(self.verify)
        print(f"round {self.number}: array job {self.array} and dependent verify job {self.verify} submitted; waiting", flush=True)

    def wait(self):
        deadline = self.started + ROUND_TIMEOUT
        while True:
            queued = run(["squeue", "-h", "-j", f"{self.array},{self.verify}", "-o", "%i %T %r"], env=self.test.env, check=False)
            if queued.returncode == 0 and not queued.stdout.strip():
                break
            if queued.returncode != 0 and "Invalid job id" not in queued.stderr:
                raise Failure(f"squeue failed: {queued.stderr.strip()}")
            if time.monotonic() > deadline:
                raise Failure(f"round {self.number}: jobs still queued or running after {ROUND_TIMEOUT:.0f} s:\n{queued.stdout.strip()}")
            time.sleep(POLL)
        self.seconds = time.monotonic() - self.started

    def check(self, expected_built):
        t = self.test
        tasks = sorted(job_records(self.array, t.env), key=lambda r: int(r.get("ArrayTaskId", "0")))
        if [r.get("ArrayTaskId") for r in tasks] != ["1", "2", "3", "4"]:
            raise Failure(f"array job {self.array}: expected tasks 1-4 (the recipe's --array=1-4), scontrol shows {[r.get('ArrayTaskId') for r in tasks]}")
        self.reports = []
        for record in tasks:
            task = record["ArrayTaskId"]
            log = os.path.join(t.work, f"voicealarm-batch-{self.array}_{task}.log")
            if record.get("JobState") != "COMPLETED" or record.get("ExitCode") != "0:0":
                raise Failure(f"array task {self.array}_{task} ended {record.get('JobState')} with exit {record.get('ExitCode')}; its log:\n{tail(log)}")
            report = report_in(log)
            shard = report.get("shard") or {}
            if shard != {"index": int(task), "count": 4, "source": "SLURM_ARRAY_TASK_ID"}:
                raise Failure(f"task {task}'s report names shard {shard}, not {{index {task}, count 4, source SLURM_ARRAY_TASK_ID}}")
            if report.get("failed"):
                raise Failure(f"task {task} failed ringtones: {report['failed']}")
            self.reports.append(report)
        owners = {}
        for task, report in enumerate(self.reports, 1):
            for ringtone in report["ringtones"]:
                if ringtone["id"] in owners:
                    raise Failure(f"{ringtone['id']} is in the reports of tasks {owners[ringtone['id']]} and {task}")
                owners[ringtone["id"]] = task
        ids = [id for id, _, _ in RINGTONES]
        if sorted(owners) != ids:
            raise Failure(f"the tasks' reports cover {sorted(owners)}, the manifest {ids}")
        self.built = sorted(id for r in self.reports for id in r["built"])
        self.skipped = sorted(id for r in self.reports for id in r["skipped"])
        if self.built != sorted(expected_built) or self.skipped != sorted(set(ids) - set(expected_built)):
            raise Failure(f"round {self.number}: built {self.built} and skipped {self.skipped}; expected built {sorted(expected_built)}")
        self.per_task = [len(r["ringtones"]) for r in self.reports]

        # The gate: the dependent job ran after the array (afterok) and found everything in place.
        verify, = job_records(self.verify, t.env)
        log = os.path.join(t.work, f"voicealarm-verify-{self.verify}.log")
        if verify.get("JobState") != "COMPLETED" or verify.get("ExitCode") != "0:0":
            raise Failure(f"verify job {self.verify} ended {verify.get('JobState')} ({verify.get('Reason')}) with exit {verify.get('ExitCode')}; its log:\n{tail(log)}")
        verdict = report_in(log)
        if not (verdict.get("ok") is True and verdict.get("checked") == len(ids) and not verdict.get("missing") and not verdict.get("stale")):
            raise Failure(f"verify job {self.verify} reported {verdict}")

        # Every ringtone, read by an independent decoder.
        for report in self.reports:
            for ringtone in report["ringtones"]:
                path = os.path.join(t.out, f"{ringtone['id']}.{EXTENSIONS[dict((i, f) for i, _, f in RINGTONES)[ringtone['id']]]}")
                if ringtone["output"] != path or not os.path.isfile(path):
                    raise Failure(f"{ringtone['id']}: report names {ringtone['output']}, expected the file {path}")
                probe = json.loads(run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type:format=duration", "-of", "json", path]).stdout)
                kinds = [s.get("codec_type") for s in probe.get("streams", [])]
                duration = float(probe.get("format", {}).get("duration", "nan"))
                if kinds != ["audio"] or not 2.0 <= duration <= 29.5 or abs(duration - (ringtone["duration"] or 0)) > 0.3:
                    raise Failure(f"{path}: ffprobe reads streams {kinds}, {duration:.2f} s (the report says {ringtone['duration']})")


class ClusterTest:
    def __init__(self, binary, state_dir):
        self.binary, self.state_dir = binary, state_dir
        self.env = dict(os.environ, SLURM_CONF=os.path.join(state_dir, "slurm.conf"))
        self.jobs, self.started_cluster, self.work = [], False, None

    def start_cluster(self):
        began = time.monotonic()
        if run([CLUSTER, "status", self.state_dir], check=False).returncode == 0:
            print(f"slurm: reusing the one-node Slurm already running from {self.state_dir}", flush=True)
        else:
            self.started_cluster = True
            started = subprocess.run([CLUSTER, "start", self.state_dir], stdout=subprocess.PIPE, text=True)
            print(started.stdout.strip().splitlines()[0] if started.stdout.strip() else "", flush=True)
            if started.returncode != 0:
                raise Failure("the one-node Slurm did not start (its logs are above)")
        self.cluster_seconds = time.monotonic() - began
        self.version = run(["sinfo", "-V"], env=self.env).stdout.strip()
        self.node = run(["sinfo", "-h", "-N", "-o", "%N %c"], env=self.env).stdout.split()

    def run_all(self):
        self.work = tempfile.mkdtemp(prefix="voicealarm-cluster.")
        self.bin_dir = os.path.join(self.work, "bin")
        os.makedirs(self.bin_dir)
        os.symlink(self.binary, os.path.join(self.bin_dir, "voicealarm"))
        self.manifest = make_clips(self.work)
        self.out = os.path.join(self.work, "ringtones")
        ids = [id for id, _, _ in RINGTONES]

        first = Round(self, 1)
        first.submit(); first.wait(); first.check(ids)

        # New bytes for one clip: exactly its ringtones are stale, and only they are built again.
        affected = [id for id, names, _ in RINGTONES if CHANGED in names]
        before = {id: self.file_state(id) for id in ids}
        clip = os.path.join(self.work, "clips", CHANGED)
        old = hashlib.sha256(open(clip, "rb").read()).hexdigest()
        chime(clip, 880, 2.0)
        if hashlib.sha256(open(clip, "rb").read()).hexdigest() == old:
            raise Failure(f"{CHANGED}: the new clip has the old bytes")
        local = run([self.binary, "batch", self.manifest, "--out", self.out, "--verify", "--json"], check=False)
        stale = sorted(s["id"] for s in json.loads(local.stdout).get("stale", [])) if local.stdout.strip() else None
        if local.returncode != 1 or stale != affected:
            raise Failure(f"after {CHANGED} changed, --verify exited {local.returncode} calling {stale} stale; expected exit 1 and {affected}")

        second = Round(self, 2)
        second.submit(); second.wait(); second.check(affected)
        for id in ids:
            now = self.file_state(id)
            if id in affected and now[0] == before[id][0]:
                raise Failure(f"{id} uses {CHANGED} but its file has the same bytes as before")
            if id not in affected and now != before[id]:
                raise Failure(f"{id} does not use {CHANGED} but its file was rewritten")
        return first, second, affected

    def file_state(self, id):
        fmt = dict((i, f) for i, _, f in RINGTONES)[id]
        path = os.path.join(self.out, f"{id}.{EXTENSIONS[fmt]}")
        stat = os.stat(path)
        return hashlib.sha256(open(path, "rb").read()).hexdigest(), stat.st_ino, stat.st_mtime_ns

    def clean_up(self):
        problems = []
        if self.jobs:
            left = run(["squeue", "-h", "-j", ",".join(self.jobs), "-o", "%i"], env=self.env, check=False).stdout.split()
            if left:
                run(["scancel", *self.jobs], env=self.env, check=False)
                for _ in range(30):
                    if not run(["squeue", "-h", "-j", ",".join(self.jobs), "-o", "%i"], env=self.env, check=False).stdout.strip():
                        break
                    time.sleep(1)
        if self.started_cluster:
            stopped = run([CLUSTER, "stop", self.state_dir], check=False)
            if stopped.returncode != 0 or run([CLUSTER, "status", self.state_dir], check=False).returncode == 0:
                problems.append(f"the Slurm daemons did not stop: {stopped.stderr.strip()}")
        if self.work:
            shutil.rmtree(self.work, ignore_errors=True)
        return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=os.environ.get("VOICEALARM_BIN", os.path.join(ROOT, ".build/debug/voicealarm")))
    parser.add_argument("--state-dir", default=os.environ.get("SLURM_STATE_DIR", os.path.join(ROOT, ".build/slurm")))
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"error: {binary}: no voicealarm binary there (build it, or give its path)", file=sys.stderr)
        return 1
    for tool in ["sbatch", "squeue", "scontrol", "sinfo", "ffprobe", "sox"]:
        if not shutil.which(tool):
            print(f"error: {tool}: not found (make test-cluster installs slurm-wlm; make deps installs ffmpeg and sox)", file=sys.stderr)
            return 1
    # SIGTERM and SIGHUP end the run like Ctrl-C: through clean_up.
    def interrupted(number, _frame):
        raise KeyboardInterrupt(signal.Signals(number).name)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupted)

    began = time.monotonic()
    test = ClusterTest(binary, os.path.abspath(args.state_dir))
    error = None
    try:
        test.start_cluster()
        first, second, affected = test.run_all()
    except Failure as failure:
        error = str(failure)
    except KeyboardInterrupt as interrupt:
        error = f"interrupted ({interrupt or 'Ctrl-C'})"
    except subprocess.TimeoutExpired as timeout:
        error = f"{' '.join(timeout.cmd)} did not answer in {timeout.timeout:.0f} s"
    finally:
        problems = test.clean_up()
    if error or problems:
        for line in ([error] if error else []) + problems:
            print(f"error: {line}", file=sys.stderr)
        return 1

    total = time.monotonic() - began
    node, cpus = (test.node + ["?", "?"])[:2]
    print(f"PASS test-cluster: {test.version}, one node ({node}, {cpus} CPUs), "
          f"{'started' if test.started_cluster else 'reused'} in {test.cluster_seconds:.1f} s")
    print(f"  round 1: array job {first.array}, 4 tasks (shards 1-4 of 4 from SLURM_ARRAY_TASK_ID, "
          f"{'+'.join(map(str, first.per_task))} ringtones): built {len(first.built)} of {len(RINGTONES)}, "
          f"verify job {first.verify} ok; ffprobe read all {len(RINGTONES)}; {first.seconds:.1f} s")
    print(f"  round 2: {CHANGED} changed (--verify: {len(affected)} stale): rebuilt {len(second.built)} "
          f"({', '.join(second.built)}), {len(second.skipped)} up to date and untouched, verify job {second.verify} ok; {second.seconds:.1f} s")
    print(f"  total {total:.1f} s; {'Slurm stopped, ' if test.started_cluster else ''}temporary folder removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
