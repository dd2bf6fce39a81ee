//go:build desktop

package draw

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// storedFrame is a frame the app built, kept under testdata, with what a
// test needs to know of the app that built it. The files are made by e2e's
// TestRemakeDrawFrames (RAFTLAB_REMAKE_DRAW_FRAMES=1 go test -tags desktop
// -run TestRemakeDrawFrames ./e2e/): painting is tested with frames, so
// that these tests hold whatever shape the app takes.
type storedFrame struct {
	Name  string
	Frame *frame.Frame
	// Regions are parts of the layout (toolbar, cluster, logs, timeline).
	Regions map[string]viz.Rect
	// Leader, Follower and Crashed are machines by number (from 1).
	Leader, Follower, Crashed int
	RingR                     float64
}

// readTestdata decodes the gzipped JSON file testdata/name into v.
func readTestdata(t testing.TB, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// loadFrames reads a file of stored frames, in the order they were built.
// Each frame is stored as its fields, each field's JSON once in Parts.
func loadFrames(t testing.TB, name string) []storedFrame {
	t.Helper()
	var file struct {
		Parts   []json.RawMessage
		Entries []struct {
			storedFrame
			Frame map[string]int
		}
	}
	readTestdata(t, name, &file)
	out := make([]storedFrame, len(file.Entries))
	for i, e := range file.Entries {
		fields := map[string]json.RawMessage{}
		for k, p := range e.Frame {
			if p < 0 || p >= len(file.Parts) {
				t.Fatalf("%s: frame %d (%s): field %s is part %d of %d", name, i, e.Name, k, p, len(file.Parts))
			}
			fields[k] = file.Parts[p]
		}
		raw, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = e.storedFrame
		out[i].Frame = new(frame.Frame)
		if err := json.Unmarshal(raw, out[i].Frame); err != nil {
			t.Fatalf("%s: frame %d (%s): %v", name, i, e.Name, err)
		}
	}
	return out
}

// storedScene returns the stored scene called name.
func storedScene(t testing.TB, name string) storedFrame {
	t.Helper()
	for _, s := range loadFrames(t, "scenes.json.gz") {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scene %q in testdata/scenes.json.gz", name)
	return storedFrame{}
}
