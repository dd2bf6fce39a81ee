package main

import (
	"os"
	"strings"
	"testing"

	"raftlab/raftcore"
)

const reconcileExample = "../../docs/examples/reconcile.json"

// playExample runs an example schedule, which must exit 0, and returns its
// summary and what it said on standard error.
func playExample(t *testing.T, path string) (raftcore.Summary, string) {
	t.Helper()
	code, out, errOut := cmd(t, "", "run", "-f", path)
	if code != exitOK {
		t.Fatalf("%s: exit %d, want 0; stderr: %s", path, code, errOut)
	}
	return summary(t, out), errOut
}

// TestReconcileExample plays docs/examples/reconcile.json: without
// idempotence the repeated reconcile during the re-list creates a second
// ReplicaSet, which the summary counts and standard error reports, exiting
// 0 (1 with -strict); with idempotence the same run creates one and finds
// it there the second time.
func TestReconcileExample(t *testing.T) {
	s, errOut := playExample(t, reconcileExample)
	if s.Reconcile == nil {
		t.Fatal("no reconcile part in the summary")
	}
	k := s.Reconcile.Counts
	if k.Duplicates != 1 || k.Relists != 1 || k.WatchCuts != 1 || k.Creates != 2 || len(s.Reconcile.Facts) != 1 || len(s.ViolationCounts) != 0 {
		t.Fatalf("counts %+v, facts %+v, violations %v", k, s.Reconcile.Facts, s.ViolationCounts)
	}
	if f := s.Reconcile.Facts[0]; f.Rule != "created-twice" || f.Key != "deployments/web" || f.First != "replicasets/web-gpz4v" || f.Second != "replicasets/web-cj89r" {
		t.Fatalf("fact %+v", f)
	}
	if !strings.Contains(errOut, "1 reconcile finding (created-twice)") || !strings.Contains(errOut, "-strict makes this exit 1") {
		t.Fatalf("stderr does not tell of the duplicate: %q", errOut)
	}
	if c := s.Reconcile.Controllers; len(c) != 1 || c[0].Informer.State != "watching" || len(c[0].Informer.Cache) != 3 {
		t.Fatalf("controllers %+v", c)
	}
	if code, _, _ := cmd(t, "", "run", "-f", reconcileExample, "-strict"); code != exitViolation {
		t.Fatalf("-strict: exit %d, want 1", code)
	}

	data, err := os.ReadFile(reconcileExample)
	if err != nil {
		t.Fatal(err)
	}
	on := strings.Replace(string(data), `"idempotent": false`, `"idempotent": true`, 1)
	s = summary(t, mustRun(t, exitOK, on, "run", "-f", "-", "-strict"))
	if k := s.Reconcile.Counts; k.Duplicates != 0 || k.Creates != 1 || k.AlreadyExisted != 1 || s.Nodes[1].KV["replicasets/web-rcc5jlcb"] != "owner=web template=rcc5jlcb replicas=3" {
		t.Fatalf("idempotent: counts %+v, store %v", k, s.Nodes[1].KV)
	}
}

// TestBadReconcileInputNamesTheField: bad deploy-controller, reconcile and
// watch-cut actions, and a bad idempotence setting, exit 2 naming the
// field.
func TestBadReconcileInputNamesTheField(t *testing.T) {
	for in, want := range map[string]string{
		`{"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"deploy-controller","node":1,"to":4}]}`:                 "actions[0].to: 4 is out of range",
		`{"nodes":3,"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"reconcile","key":"web"}]}`:                   `actions[0].key: reconcile takes a Deployment's key`,
		`{"nodes":3,"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"watch-cut","node":9}]}`:                      "actions[0].node: 9 is out of range",
		`{"nodes":3,"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"set","setting":"idempotence","value":"1"}]}`: `actions[0].value: set takes on or off`,
		`{"nodes":3,"seed":1,"until_ms":100,"options":{"idempotent":"yes"},"actions":[]}`:                            "options.idempotent: want true or false",
	} {
		if !strings.Contains(in, `"nodes"`) {
			in = strings.Replace(in, `{"seed"`, `{"nodes":3,"seed"`, 1)
		}
		code, out, errOut := cmd(t, in, "run", "-f", "-")
		if code != exitInput || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", in, code, errOut, want)
		}
	}
}
