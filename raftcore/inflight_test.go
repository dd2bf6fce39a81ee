package raftcore

import (
	"reflect"
	"testing"
)

func TestAppendInFlightReusesTheBufferAndMatchesInFlight(t *testing.T) {
	cfg := DefaultConfig()
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.RunFor(3_000_000)
	if err := w.Apply(Action{Do: DoLatency, LatencyMs: []float64{500, 900}}); err != nil {
		t.Fatal(err)
	}
	w.RunFor(1_000_000)
	want := w.InFlight()
	if len(want) < 2 {
		t.Fatalf("%d messages in flight, want a few", len(want))
	}
	head := Message{ID: 0}
	buf := make([]Message, 1, len(want)+1)
	buf[0] = head
	got := w.AppendInFlight(buf)
	if &got[0] != &buf[0] {
		t.Error("AppendInFlight did not use the buffer it was given room in")
	}
	if !reflect.DeepEqual(got[0], head) || !reflect.DeepEqual(got[1:], want) {
		t.Errorf("AppendInFlight kept %+v and appended %d messages, want the head kept and InFlight's %d", got[0], len(got)-1, len(want))
	}
}
