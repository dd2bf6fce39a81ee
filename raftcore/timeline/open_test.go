package timeline

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"raftlab/raftcore"
)

// Opening a link a piece at a time builds the timeline OpenLink builds,
// and says how far it has got: from 0, never backwards, 1 only at the end.
func TestOpeningStepsToTheTimelineOpenLinkBuilds(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	liveRun(t, tl, rand.New(rand.NewPCG(31, 32)), 40)
	tl.SeekTime(17_000_000)
	s := mustEncode(t, tl.Link("", nil))
	l, err := DecodeLink(s)
	if err != nil {
		t.Fatal(err)
	}
	want, err := OpenLink(l)
	if err != nil {
		t.Fatal(err)
	}

	o, err := StartOpening(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.Link(), l) {
		t.Fatal("the opening's link differs from DecodeLink's")
	}
	if p := o.Progress(); p != 0 {
		t.Fatalf("progress %g before any step", p)
	}
	steps, last := 0, 0.0
	for !o.Step(100) {
		steps++
		p := o.Progress()
		if p < last || p >= 1 {
			t.Fatalf("step %d: progress %g after %g", steps, p, last)
		}
		last = p
		if got, err := o.Result(); got != nil || err != nil {
			t.Fatal("a result before the opening is over")
		}
	}
	if steps < 10 || last < 0.5 {
		t.Fatalf("%d steps, the last at %g: the pieces are not what was asked", steps, last)
	}
	got, err := o.Result()
	if err != nil {
		t.Fatal(err)
	}
	if o.Progress() != 1 {
		t.Fatalf("progress %g when done", o.Progress())
	}
	sameWorld(t, "opened in steps", got.World(), snapOf(want.World()))
	if got.Head() != want.Head() || !reflect.DeepEqual(got.Marks(), want.Marks()) || got.Checkpoints() != want.Checkpoints() {
		t.Fatal("the opening's timeline differs from OpenLink's")
	}
}

// A progress callback that answers false stops the opening.
func TestOpeningCanBeCanceled(t *testing.T) {
	l := Link{Config: nineMachines(), Actions: []raftcore.Action{}, PosUs: 600_000_000, EndUs: 600_000_000}
	o, err := StartOpenLink(l)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	got, err := o.Run(func(done float64) bool {
		calls++
		return done < 0.1
	})
	if !errors.Is(err, ErrOpenCanceled) || got != nil {
		t.Fatalf("got %v, %v", got, err)
	}
	if calls == 0 || o.Progress() != 1 || !o.Step(1) {
		t.Fatalf("%d calls, progress %g: the opening is not over", calls, o.Progress())
	}
}

// An opening checks a link's cost before replaying anything, as DecodeLink
// does.
func TestOpeningRefusesACostlyRunAtOnce(t *testing.T) {
	data := `{"run":{"nodes":9,"until_ms":3600000,"options":{"tick_ms":1},"actions":[]},"pos_us":0}`
	link := pack("1", []byte(data), uint64(len(data)))
	_, want := DecodeLink(link)
	if _, err := StartOpening(link); err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("StartOpening: %v; DecodeLink: %v", err, want)
	}
}

// A drop of a message that is not in flight is found by the opening's own
// replay, with DecodeLink's words.
func TestOpeningFindsADropNotInFlight(t *testing.T) {
	data := `{"run":{"seed":1,"until_ms":5000,"actions":[{"at_ms":1,"do":"write","node":1,"key":"k"},{"at_ms":3,"do":"drop","id":424242}]},"pos_us":0}`
	link := pack("1", []byte(data), uint64(len(data)))
	_, want := DecodeLink(link)
	if want == nil {
		t.Fatal("DecodeLink accepted the drop")
	}
	o, err := StartOpening(link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Run(nil); err == nil || err.Error() != want.Error() {
		t.Fatalf("opening: %v; DecodeLink: %v", err, want)
	}
}

// A schedule opens a piece at a time as ImportSchedule opens it.
func TestStartImportStepsToImportSchedule(t *testing.T) {
	data := []byte(`{"nodes":3,"seed":4,"until_ms":9000,"actions":[{"at_ms":3000,"do":"partition","groups":[[1],[2,3]]},{"at_ms":3000,"do":"write","node":2,"key":"a","value":"1"},{"at_ms":6000,"do":"heal"}]}`)
	want, err := ImportSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	o, err := StartImport(data)
	if err != nil {
		t.Fatal(err)
	}
	for !o.Step(50) {
	}
	got, err := o.Result()
	if err != nil {
		t.Fatal(err)
	}
	sameWorld(t, "imported in steps", got.World(), snapOf(want.World()))
	if _, err := StartImport([]byte(`{"until_ms":-1}`)); err == nil {
		t.Fatal("StartImport accepted a bad schedule")
	}
}
