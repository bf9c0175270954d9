package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Slurm test: the job-array scripts of scripts/slurm on a real Slurm.
//
// It uses the cluster SLURM_CONF (or /etc/slurm/slurm.conf) names if sinfo
// answers; otherwise, with Debian's slurm-wlm and munge installed and root
// (or sudo without a password), it starts a one-node cluster on localhost
// with scripts/slurm/local-cluster.sh and stops it at the end. Without either it
// skips, and under CI=true it fails instead: CI installs the packages.

// slurmScripts returns scripts/slurm (absolute: the jobs run elsewhere).
func slurmScripts(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../scripts/slurm")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// slurmCluster returns the environment under which Slurm's commands reach a
// cluster, starting a local one if need be.
func slurmCluster(t *testing.T) []string {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Slurm (CI=true requires one): "+format, args...)
		}
		t.Skipf("no Slurm: "+format, args...)
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		unavailable("%v (apt-get install slurm-wlm munge)", err)
	}
	if err := exec.Command("sinfo", "-h").Run(); err == nil {
		t.Log("using the running cluster")
		return os.Environ()
	}
	// The daemons run as root: as root, or through sudo without a password
	// (a CI machine's usual set-up).
	var asRoot []string
	if os.Geteuid() != 0 {
		if err := exec.Command("sudo", "-n", "true").Run(); err != nil {
			unavailable("sinfo reaches no cluster, and starting one on localhost needs root (or sudo -n): %v", err)
		}
		asRoot = []string{"sudo", "-n"}
	}
	cluster := filepath.Join(t.TempDir(), "cluster")
	script := filepath.Join(slurmScripts(t), "local-cluster.sh")
	port := "SLURM_PORT=" + strconv.Itoa(freePortPair(t))
	run := func(what string) ([]byte, error) {
		argv := append(asRoot, "env", "BLINDFISH_SLURM_DIR="+cluster, port, "bash", script, what)
		return exec.Command(argv[0], argv[1:]...).CombinedOutput()
	}
	if out, err := run("start"); err != nil {
		run("stop")
		t.Fatalf("local-cluster.sh start: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := run("stop"); err != nil {
			t.Errorf("local-cluster.sh stop: %v\n%s", err, out)
		}
	})
	return append(os.Environ(), "SLURM_CONF="+filepath.Join(cluster, "slurm.conf"))
}

// freePortPair returns a port p of localhost such that p and p+1 are free
// (slurmctld's and slurmd's): a fixed pair would make two test runs on one
// machine start their clusters on the same ports, and the second wait for a
// node that never comes.
func freePortPair(t *testing.T) int {
	t.Helper()
	for range 50 {
		a, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := a.Addr().(*net.TCPAddr).Port
		b, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+1))
		a.Close()
		if err == nil {
			b.Close()
			return p
		}
	}
	t.Fatal("no two free ports in a row on localhost after 50 tries")
	return 0
}

// TestMatchSlurmArray submits an 8-game match of random against attacker as
// a 4-task job array with submit.sh and checks that the merge job's table
// is the table of one run with the same flags, and the records the same, and
// that it wrote the folder's page.
func TestMatchSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemons and builds the command: not in -short")
	}
	env := slurmCluster(t)
	work := t.TempDir()
	began := time.Now()
	binary := filepath.Join(work, "blindfish")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	flags := []string{"--white", "random", "--black", "attacker", "--games", "8", "--seed", "13", "--clock", "60+1", "--sprt", "0,50"}

	shards := filepath.Join(work, "shards")
	submit := exec.Command("bash", append([]string{filepath.Join(slurmScripts(t), "submit.sh"), "4", shards}, flags...)...)
	submit.Dir = work // where the jobs' output files go
	submit.Env = append(env, "BLINDFISH="+binary, "SBATCH_ARGS=--cpus-per-task=1")
	out, err := submit.CombinedOutput()
	if err != nil {
		t.Fatalf("submit.sh: %v\n%s", err, out)
	}
	f := strings.Fields(string(out)) // array ID merge ID
	if len(f) != 4 || f[0] != "array" || f[2] != "merge" {
		t.Fatalf("submit.sh printed %q", out)
	}
	submitted := time.Now()

	// Wait until both jobs have left the queue: the merge runs after the
	// four tasks. A merge held for good (a task failed) is a failure; the
	// limit only catches a cluster that never runs anything.
	deadline := time.Now().Add(10 * time.Minute)
	for {
		q := exec.Command("squeue", "-h", "-o", "%i %T %r", "-j", f[1]+","+f[3])
		q.Env = env
		queued, err := q.Output()
		if err != nil {
			t.Fatalf("squeue: %v", err)
		}
		if len(bytes.TrimSpace(queued)) == 0 {
			break
		}
		if bytes.Contains(queued, []byte("DependencyNeverSatisfied")) || time.Now().After(deadline) {
			exec.Command("scancel", f[1], f[3]).Run()
			logs, _ := filepath.Glob(filepath.Join(work, "*.out"))
			var b strings.Builder
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				b.WriteString("== " + l + "\n" + string(data))
			}
			t.Fatalf("jobs still queued:\n%s\n%s", queued, b.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("built in %s; the array and the merge ran in %s", submitted.Sub(began).Round(time.Millisecond),
		time.Since(submitted).Round(time.Millisecond))
	merged, err := os.ReadFile(filepath.Join(shards, "table.txt"))
	if err != nil {
		logs, _ := filepath.Glob(filepath.Join(work, "blindfish-merge-*.out"))
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, data)
		}
		t.Fatalf("the merge job wrote no table: %v", err)
	}
	// The merge's page of all eight games (the shards' own index pages
	// say "N games in"), with the SPRT.
	if page, err := os.ReadFile(filepath.Join(shards, "index.html")); err != nil {
		t.Errorf("the merge job wrote no page: %v", err)
	} else if !bytes.Contains(page, []byte("merged 8 games from 1 folder")) || !bytes.Contains(page, []byte("SPRT elo0=0 elo1=50")) {
		t.Errorf("the merge job's page is not the merged page of the 8 games with the SPRT")
	}
	logs, _ := filepath.Glob(filepath.Join(shards, "results.shard-*-of-4.jsonl"))
	if len(logs) != 4 {
		t.Errorf("%d shard logs, want 4: %v", len(logs), logs)
	}

	one := filepath.Join(work, "one")
	if code, out, errs := runBlindfish(t, context.Background(), append([]string{"match", "--out", one}, flags...)...); code != 0 {
		t.Fatalf("one run: exit %d\n%s%s", code, out, errs)
	}
	code, want, errs := runBlindfish(t, context.Background(), "match", "--merge", "--sprt", "0,50", one)
	if code != 0 {
		t.Fatalf("merge of one run: exit %d\n%s%s", code, want, errs)
	}
	if x, y := withoutTimes(t, string(merged)), withoutTimes(t, want); strings.Join(x, "\n") != strings.Join(y, "\n") || len(x) != 4 {
		t.Errorf("the Slurm array's table:\n%s\none run's:\n%s", merged, want)
	}
	records, _ := filepath.Glob(filepath.Join(one, "*.json"))
	if len(records) != 8 {
		t.Fatalf("%d records in one run", len(records))
	}
	for _, r := range records {
		x, _ := os.ReadFile(r)
		y, err := os.ReadFile(filepath.Join(shards, filepath.Base(r)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: not the same in the array's folder (%v)", filepath.Base(r), err)
		}
	}
}
