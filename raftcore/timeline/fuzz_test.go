package timeline

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"raftlab/raftcore"
)

// fuzzMaxUs skips fuzz inputs whose run is longer: a long run goes through
// the same code as a short one and only costs time.
const fuzzMaxUs = 30_000_000

func FuzzDecodeLink(f *testing.F) {
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

// checkLink: no panic, and every accepted link opens and encodes again.
func checkLink(t *testing.T, s string) {
	l, err := DecodeLink(s)
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	if l.end() > fuzzMaxUs {
		return
	}
	tl, err := OpenLink(l)
	if err != nil {
		t.Fatalf("DecodeLink accepted a link OpenLink refuses: %v", err)
	}
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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, perr := raftcore.ParseSchedule(data)
		if perr == nil && s.UntilMs*1000 > fuzzMaxUs {
			return
		}
		got, err := ImportSchedule(data)
		if perr != nil {
			if err == nil {
				t.Fatalf("imported a schedule ParseSchedule refuses: %v", perr)
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
