package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"raftlab/raftcore"
)

// maxLinkBytes bounds a decoded share link, so a hostile link cannot make
// the page inflate gigabytes.
const maxLinkBytes = 4 << 20

// ExportSchedule writes the run up to now as a schedule (the format of
// raftsim run -f): replaying it reproduces this world exactly.
func (a *App) ExportSchedule() ([]byte, error) {
	return json.MarshalIndent(a.World().Schedule(), "", "  ")
}

// traceExport is the trace file: the run's summary and the newest events.
type traceExport struct {
	Summary raftcore.Summary      `json:"summary"`
	Kept    int                   `json:"trace_kept"`
	Note    string                `json:"note,omitempty"`
	Trace   []raftcore.TraceEvent `json:"trace"`
}

// ExportTrace writes the run's summary and the trace events kept in memory.
func (a *App) ExportTrace() ([]byte, error) {
	w := a.World()
	t := traceExport{Summary: w.Summarize(), Kept: len(w.Trace()), Trace: w.Trace()}
	if uint64(len(w.Trace())) < w.TraceCount() {
		t.Note = fmt.Sprintf("only the newest %d of %d events are kept; export the run and replay it with raftsim for all of them", len(w.Trace()), w.TraceCount())
	}
	return json.MarshalIndent(t, "", "  ")
}

// encodeLink packs a schedule into a URL-safe payload: deflated JSON in
// base64url.
func encodeLink(s raftcore.Schedule) (string, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write(data); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// decodeLink unpacks a payload made by encodeLink.
func decodeLink(payload string) (raftcore.Schedule, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return raftcore.Schedule{}, fmt.Errorf("link: not a raftlab link (bad base64: %v)", err)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), maxLinkBytes+1))
	if err != nil {
		return raftcore.Schedule{}, fmt.Errorf("link: not a raftlab link (%v)", err)
	}
	if len(data) > maxLinkBytes {
		return raftcore.Schedule{}, fmt.Errorf("link: the run it holds is larger than %d bytes", maxLinkBytes)
	}
	return raftcore.ParseSchedule(data)
}

// ShareLink is a URL that opens this run at this moment.
func (a *App) ShareLink() string {
	payload, err := encodeLink(a.World().Schedule())
	if err != nil {
		return a.opts.BaseURL
	}
	p := a.params
	p.Link, p.T = "", 0
	q := p.Encode()
	if q != "" {
		q += "&"
	}
	return a.opts.BaseURL + "?" + q + "link=" + payload
}

func (a *App) openLink(payload string) error {
	s, err := decodeLink(payload)
	if err != nil {
		return err
	}
	return a.load(s)
}

// ImportSchedule opens a schedule file: its world, replayed up to its end.
func (a *App) ImportSchedule(data []byte) error {
	s, err := raftcore.ParseSchedule(data)
	if err != nil {
		return err
	}
	if err := a.load(s); err != nil {
		return err
	}
	a.note(fmt.Sprintf("Imported a run of %s with %d actions.", fmtClock(int64(s.UntilMs*1000)), len(s.Actions)))
	return nil
}

// load replaces the world with a schedule's run, stopped at its end. The
// schedule's actions become the recorded history, so the timeline can go
// anywhere in it.
func (a *App) load(s raftcore.Schedule) error {
	cfg := s.Config()
	cfg.TraceLimit = TraceLimit
	if len(cfg.Names) == 0 {
		cfg.Names = nodeNames(cfg.Nodes)
	}
	h, err := newHistory(cfg)
	if err != nil {
		return err
	}
	h.acts = append([]raftcore.Action(nil), s.Actions...)
	until := int64(s.UntilMs * 1000)
	for k := range h.acts {
		if h.acts[k].AtUs() > until {
			until = h.acts[k].AtUs()
		}
	}
	// Replay once to fill in when each action was taken, event by event.
	w := h.cur
	for k := range h.acts {
		if err := w.Play(h.acts[k : k+1]); err != nil {
			return fmt.Errorf("actions[%d]: %v", k, err)
		}
		h.acts[k] = w.Actions()[k]
	}
	h.cur = h.ckpts[0].w.Clone()
	h.RunUntil(until)
	if s.UntilMs*1000 < float64(until) {
		h.GoTo(int64(s.UntilMs * 1000))
	}
	a.cfg, a.hist = cfg, h
	a.params.Nodes, a.params.Protocol, a.params.Seed = cfg.Nodes, string(cfg.Protocol), cfg.Seed
	a.params.PreVote, a.params.CheckQuorum = cfg.PreVote, cfg.CheckQuorum
	a.params.Scenario = ""
	a.scen = nil
	a.selected, a.menu, a.paused, a.carry = -1, menuState{}, true, 0
	a.layKey = layoutKey{}
	a.touchLayout()
	a.changed()
	return nil
}

// parseAction reads one action from JSON, strictly: unknown fields are
// errors that name the field.
func parseAction(data []byte) (raftcore.Action, error) {
	var x raftcore.Action
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return x, fmt.Errorf("action: %v", err)
	}
	if dec.More() {
		return x, fmt.Errorf("action: more than one JSON value")
	}
	return x, nil
}
