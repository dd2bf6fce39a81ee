package timeline

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"raftlab/raftcore"
)

// fuzzLinkCost is the link cost rule the fuzz targets run under. The
// fuzzer calls an input that takes ten seconds a hang, and the product's
// rule lets a link ask for seconds of replay, which an instrumented build
// takes several times over; under this one every link accepted opens in a
// fraction of a second, and a link that asks for a long run is refused by
// the rule, as any link past its limit is, rather than skipped.
var fuzzLinkCost = linkCost{free: 10_000, perByte: 10, most: 30_000}

// fuzzOpenCalls bounds how long a fuzzed schedule is opened for: that many
// pieces of OpenStepMoments moments, then the opening is canceled.
const fuzzOpenCalls = 4

func FuzzDecodeLink(f *testing.F) {
	saved := linkLimits
	linkLimits = fuzzLinkCost
	f.Cleanup(func() { linkLimits = saved })
	tl := mustNew(f, testConfig(), Options{})
	tl.Advance(3_000_000)
	for len(tl.World().InFlight()) == 0 {
		tl.StepForward()
	}
	mustAct(f, tl, raftcore.Action{Do: raftcore.DoDrop, ID: tl.World().InFlight()[0].ID})
	liveRun(f, tl, rand.New(rand.NewPCG(25, 26)), 3)
	tl.SeekTime(4_000_000)
	good := mustEncode(f, tl.Link("majority", nil))
	for _, s := range []string{
		good,
		mustEncode(f, Link{Config: raftcore.DefaultConfig()}),
		good[:len(good)/2],
		"2." + good[2:],
		"",
		"1.",
		`{"run":{"until_ms":1000,"actions":[{"at_ms":1,"do":"drop","id":3}]},"pos_us":500}`,
		`{"run":{"nodes":3,"until_ms":2000,"actions":[{"at_ms":100,"do":"partition","groups":[[1],[2,3]]}]},"pos_us":1500,"pos_events":20}`,
		// Long runs: an hour of nine machines, and the same at 1 ms ticks
		// with a drop only a replay could refuse.
		`{"run":{"nodes":9,"until_ms":3600000,"actions":[]},"pos_us":3600000000}`,
		`{"run":{"nodes":9,"until_ms":3600000,"options":{"tick_ms":1},"actions":[{"at_ms":3599000,"do":"drop","id":424242}]},"pos_us":0}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLink(t, s)
		// The same text as a link's JSON, so that the checks behind the
		// checksum see fuzzed input too.
		checkLink(t, pack("1", []byte(s), uint64(len(s))))
	})
}

// checkLink: no panic, every accepted link opens, in one go or a piece at
// a time, and encodes again; a refused one is refused by the opening too.
func checkLink(t *testing.T, s string) {
	l, err := DecodeLink(s)
	o, oerr := StartOpening(s)
	var stepped *Timeline
	if oerr == nil {
		stepped, oerr = o.Run(nil)
	}
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		if oerr == nil || oerr.Error() != err.Error() {
			t.Fatalf("DecodeLink: %v; opening: %v", err, oerr)
		}
		return
	}
	tl, err := OpenLink(l)
	if err != nil {
		t.Fatalf("DecodeLink accepted a link OpenLink refuses: %v", err)
	}
	if oerr != nil {
		t.Fatalf("DecodeLink accepted a link the opening refuses: %v", oerr)
	}
	sameWorld(t, "opened a piece at a time", stepped.World(), snapOf(tl.World()))
	if tl.Pos().AtUs > l.PosUs {
		t.Fatalf("opened at %v, after the link's moment %d", tl.Pos(), l.PosUs)
	}
	again, err := EncodeLink(l)
	if err != nil {
		t.Fatalf("an accepted link does not encode: %v", err)
	}
	l2, err := DecodeLink(again)
	if err != nil {
		t.Fatalf("a re-encoded link does not decode: %v", err)
	}
	if third, _ := EncodeLink(l2); third != again {
		t.Fatal("encoding is not stable")
	}
}

func FuzzImportSchedule(f *testing.F) {
	tl := mustNew(f, testConfig(), Options{})
	liveRun(f, tl, rand.New(rand.NewPCG(27, 28)), 4)
	var buf bytes.Buffer
	if err := tl.WriteSchedule(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	for _, s := range []string{
		`{"nodes":3,"seed":4,"until_ms":9000,"actions":[{"at_ms":6000,"do":"heal"},{"at_ms":3000,"do":"partition","groups":[[1],[2,3]]},{"at_ms":3000,"do":"write","node":2,"key":"a","value":"1"}]}`,
		`{"until_ms":1000,"actions":[{"at_ms":50,"do":"write","node":1,"key":"k"},{"at_ms":60,"do":"drop","id":7,"after_events":3}]}`,
		`{"protocol":"failover","until_ms":3000,"actions":[{"at_ms":100,"do":"pause","node":1,"after_events":9}]}`,
		`{"until_ms":-1}`,
		`[]`,
		// A quiet virtual day of nine machines: 27 million events.
		`{"nodes":9,"until_ms":86400000,"actions":[]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, perr := raftcore.ParseSchedule(data)
		o, err := StartImport(data)
		if perr != nil {
			if err == nil {
				t.Fatalf("imported a schedule ParseSchedule refuses: %v", perr)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseSchedule accepts a schedule StartImport refuses: %v", err)
		}
		// A long run is opened for a while and then given up, which is
		// what a reader's Cancel does: the opening must stop cleanly.
		calls, last := 0, 0.0
		got, err := o.Run(func(done float64) bool {
			if done < last || done >= 1 {
				t.Fatalf("progress %g after %g", done, last)
			}
			last = done
			calls++
			return calls < fuzzOpenCalls
		})
		if errors.Is(err, ErrOpenCanceled) {
			if got != nil {
				t.Fatal("a canceled opening gave a timeline")
			}
			return
		}
		// The timeline plays a schedule exactly as Schedule.Run does.
		want, rerr := s.Run()
		if (err == nil) != (rerr == nil) || (err != nil && err.Error() != rerr.Error()) {
			t.Fatalf("ImportSchedule: %v; Schedule.Run: %v", err, rerr)
		}
		if err == nil {
			sameWorld(t, "imported schedule", got.World(), snapOf(want))
		}
	})
}
