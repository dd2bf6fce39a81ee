package main

import (
	"os"
	"strings"
	"testing"
)

const lostUpdateExample = "../../docs/examples/lost-update.json"

// TestLostUpdateExitsZeroUnlessStrict plays docs/examples/lost-update.json:
// the lost update is reported on standard error and in the summary, yet the
// run exits 0, since no Raft rule broke; -strict makes it exit 1; with cas
// on both controllers nothing is lost and a swap ends in conflict.
func TestLostUpdateExitsZeroUnlessStrict(t *testing.T) {
	s, errOut := playExample(t, lostUpdateExample)
	if s.LostUpdateCount != 1 || len(s.LostUpdates) != 1 || len(s.ViolationCounts) != 0 {
		t.Fatalf("want one lost update and no violation, got %d lost, violations %v", s.LostUpdateCount, s.ViolationCounts)
	}
	if f := s.LostUpdates[0]; f.ReadRev != 2 || f.OverwroteRev != 3 || f.LostValue != "replicas=2 image=web:2" {
		t.Fatalf("lost update %+v", f)
	}
	if !strings.Contains(errOut, "1 lost update (lost-update)") || !strings.Contains(errOut, "-strict makes this exit 1") {
		t.Fatalf("stderr does not tell of the lost update: %q", errOut)
	}
	if rev := s.Nodes[0].Revisions["deployments/web"]; rev != 4 {
		t.Fatalf("revision %d, want 4", rev)
	}
	if code, _, _ := cmd(t, "", "run", "-f", lostUpdateExample, "-strict"); code != exitViolation {
		t.Fatalf("-strict: exit %d, want 1", code)
	}

	data, err := os.ReadFile(lostUpdateExample)
	if err != nil {
		t.Fatal(err)
	}
	cas := strings.ReplaceAll(string(data), `"think_ms": 900}`, `"think_ms": 900, "cas": true}`)
	cas = strings.ReplaceAll(cas, `"think_ms": 150}`, `"think_ms": 150, "cas": true}`)
	s = summary(t, mustRun(t, exitOK, cas, "run", "-f", "-", "-strict"))
	conflicts := 0
	for _, op := range s.Ops {
		if op.Result == "conflict" {
			conflicts++
			if !op.Cas || op.IfRev != 2 || op.FoundRev != 3 {
				t.Fatalf("conflict %+v", op)
			}
		}
	}
	if s.LostUpdateCount != 0 || conflicts != 1 || s.Nodes[0].KV["deployments/web"] != "replicas=3 image=web:2" {
		t.Fatalf("with cas: %d lost, %d conflicts, object %q", s.LostUpdateCount, conflicts, s.Nodes[0].KV["deployments/web"])
	}
}

// TestBadVersionedInputNamesTheField: a bad if_rev, change or think_ms is
// refused with exit 2 and the field named.
func TestBadVersionedInputNamesTheField(t *testing.T) {
	for in, want := range map[string]string{
		`{"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"write","node":1,"key":"k","value":"v","if_rev":"7"}]}`:        "actions[0].if_rev: want a whole number",
		`{"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"read","node":1,"key":"k","if_rev":7}]}`:                       "actions[0].if_rev: only a write",
		`{"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"control","node":1,"key":"k","change":"replicas"}]}`:           `actions[0].change: "replicas" is not`,
		`{"seed":1,"until_ms":100,"actions":[{"at_ms":1,"do":"control","node":1,"key":"k","change":"r+1","think_ms":1e9}]}`: "actions[0].think_ms: 1e+09 is out of range",
	} {
		code, out, errOut := cmd(t, in, "run", "-f", "-")
		if code != exitInput || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", in, code, errOut, want)
		}
	}
}

// TestVersionedTruthFigure: the figure exits 0 showing its lost update (its
// expected lesson), 1 under -strict, and with writes=cas loses nothing.
func TestVersionedTruthFigure(t *testing.T) {
	got := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "versioned-truth"))
	if got.Expect != "ok" || got.LostUpdateCount != 1 || len(got.ViolationCounts) != 0 {
		t.Fatalf("plain: expect %q, %d lost, violations %v", got.Expect, got.LostUpdateCount, got.ViolationCounts)
	}
	if code, _, _ := cmd(t, "", "run", "-scenario", "versioned-truth", "-strict"); code != exitViolation {
		t.Fatalf("-strict: exit %d, want 1", code)
	}
	got = scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "versioned-truth", "-set", "writes=cas", "-strict"))
	if got.Expect != "ok" || got.LostUpdateCount != 0 {
		t.Fatalf("cas: expect %q, %d lost", got.Expect, got.LostUpdateCount)
	}
}
