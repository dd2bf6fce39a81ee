package timeline

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

// nineMachines is etcd's configuration for a cluster of nine.
func nineMachines() raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = 9
	return cfg
}

// A link's run is limited before anything is replayed: an hour of nine
// machines ticking every millisecond, in a link of a few dozen bytes, is
// refused with what it asks for and what the link may ask for, even when
// its last action would only be found wrong by replaying the hour (a drop
// of a message never sent, the kind DecodeLink replays the run to judge).
func TestDecodeLinkRefusesACostlyRunBeforeReplaying(t *testing.T) {
	data := `{"run":{"nodes":9,"until_ms":3600000,"options":{"tick_ms":1},"actions":[{"at_ms":3599000,"do":"drop","id":424242}]},"pos_us":0}`
	_, err := DecodeLink(pack("1", []byte(data), uint64(len(data))))
	if err == nil {
		t.Fatal("a link asking for an hour of nine machines at 1 ms ticks was accepted")
	}
	for _, want := range []string{"1 hour of 9 machines at 1 ms ticks", "32,400,000 machine ticks", "may ask for at most", "400,000, plus 200 a byte, never more than 600,000", "export the run as a schedule"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
}

// An hour of nine machines at etcd's tick is within what any link may ask
// for, whatever its size; the same hour at 10 ms ticks is not, and
// neither is a drift that makes every clock run ten times fast.
func TestLinkCostRule(t *testing.T) {
	hour := int64(MaxLinkUs)
	quiet := Link{Config: nineMachines(), Actions: []raftcore.Action{}, PosUs: hour, EndUs: hour}
	s := mustEncode(t, quiet)
	if _, err := DecodeLink(s); err != nil {
		t.Fatalf("an hour of nine quiet machines: %v", err)
	}

	fast := quiet
	fast.Config.TickMs = 10
	if _, err := EncodeLink(fast); err == nil || !strings.Contains(err.Error(), "1 hour of 9 machines at 10 ms ticks, 3,240,000 machine ticks") {
		t.Fatalf("EncodeLink of an hour at 10 ms ticks: %v", err)
	}

	drift := quiet
	drift.Actions = nil
	for id := 1; id <= 9; id++ {
		drift.Actions = append(drift.Actions, raftcore.Action{AtMs: 1000, Do: raftcore.DoDrift, Node: id, Rate: 10})
	}
	if _, err := EncodeLink(drift); err == nil || !strings.Contains(err.Error(), "clocks running up to 10 times fast") {
		t.Fatalf("EncodeLink of an hour of clocks ten times fast: %v", err)
	}
}

// Each byte of a link's run buys more: a run just past what a bare link
// may ask for opens once its actions make its data long enough, and
// padding the link's JSON with spaces buys nothing.
func TestLinkAllowanceGrowsWithItsData(t *testing.T) {
	cfg := nineMachines()
	cfg.TickMs = 72 // an hour of nine machines: 450,000 ticks
	end := int64(MaxLinkUs)
	bare := Link{Config: cfg, Actions: []raftcore.Action{}, PosUs: end, EndUs: end}
	ticks := raftcore.MachineTicks(cfg, nil, end)
	for _, k := range []int{0, 10, 200} {
		l := bare
		for i := 0; i < k; i++ {
			l.Actions = append(l.Actions, raftcore.Action{AtMs: float64(1000 * (i + 1)), Do: raftcore.DoWrite, Node: 1 + i%9, Key: "deployments/web", Value: "replicas=3"})
		}
		data, err := l.data()
		if err != nil {
			t.Fatal(err)
		}
		// The writes' own ticks are the same: only the data changed.
		allowed := ticks <= linkLimits.allowance(len(data))
		_, err = EncodeLink(l)
		if allowed != (err == nil) {
			t.Fatalf("%d writes, %d bytes: %.0f ticks against %.0f allowed, EncodeLink: %v", k, len(data), ticks, linkLimits.allowance(len(data)), err)
		}
		if k == 0 && allowed || k == 200 && !allowed {
			t.Fatalf("%d writes: the rule should not allow %v", k, allowed)
		}
		if k > 0 {
			continue
		}
		// The same refused link with its JSON padded to ten times its length.
		padded := strings.Replace(string(data), `"run":`, `"run":`+strings.Repeat(" ", 10*len(data)), 1)
		if _, err := DecodeLink(pack("1", []byte(padded), uint64(len(padded)))); err == nil || !strings.Contains(err.Error(), "machine ticks") {
			t.Fatalf("a padded link: %v", err)
		}
	}
}

// A link holds a recorded run, whose actions come in time order: one out
// of order is refused, naming it, before anything is replayed.
func TestDecodeLinkRefusesActionsOutOfOrder(t *testing.T) {
	data := `{"run":{"nodes":3,"until_ms":5000,"actions":[{"at_ms":3000,"do":"crash","node":1},{"at_ms":2000,"do":"restart","node":1}]},"pos_us":0}`
	_, err := DecodeLink(pack("1", []byte(data), uint64(len(data))))
	if err == nil || !strings.Contains(err.Error(), "actions[1].at_ms: 2000 comes before the 3000 of actions[0]") {
		t.Fatalf("got %v", err)
	}
}
