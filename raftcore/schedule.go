package raftcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// Schedule is a whole run written down: the world's configuration, the
// actions and when the run ends. It is the file format of `raftsim run -f`
// and of the app's export (docs/raftsim.md describes it).
type Schedule struct {
	Nodes int `json:"nodes,omitempty"`
	// Members is Config.Members: how many of the machines are voters at
	// the start (absent: all of them).
	Members  int              `json:"members,omitempty"`
	Seed     int64            `json:"seed"`
	Protocol string           `json:"protocol,omitempty"`
	Names    []string         `json:"names,omitempty"`
	Zones    []Zone           `json:"zones,omitempty"`
	Options  *ScheduleOptions `json:"options,omitempty"`
	UntilMs  float64          `json:"until_ms"`
	Actions  []Action         `json:"actions"`

	// Controllers are Config.Controllers: the controllers' names.
	Controllers []string `json:"controllers,omitempty"`

	// Workers is Config.Workers: worker machines, numbered after the
	// nodes, each with a kubelet; Kube overrides DefaultKubeConfig.
	Workers int          `json:"workers,omitempty"`
	Kube    *KubeOptions `json:"kube,omitempty"`
}

// KubeOptions override DefaultKubeConfig; absent fields keep the default.
type KubeOptions struct {
	RenewMs        *int `json:"renew_ms,omitempty"`
	GraceMs        *int `json:"grace_ms,omitempty"`
	MonitorMs      *int `json:"monitor_ms,omitempty"`
	EvictMs        *int `json:"evict_ms,omitempty"`
	Pods           *int `json:"pods,omitempty"`
	ControllerNode *int `json:"controller_node,omitempty"`
}

// ScheduleOptions override DefaultConfig; absent fields keep the default.
type ScheduleOptions struct {
	PreVote          *bool     `json:"prevote,omitempty"`
	CheckQuorum      *bool     `json:"checkquorum,omitempty"`
	Sessions         *bool     `json:"sessions,omitempty"`
	ElectionTicks    *int      `json:"election_ticks,omitempty"`
	HeartbeatTicks   *int      `json:"heartbeat_ticks,omitempty"`
	TickMs           *int      `json:"tick_ms,omitempty"`
	LatencyMs        []float64 `json:"latency_ms,omitempty"`
	Loss             *float64  `json:"loss,omitempty"`
	Duplicate        *float64  `json:"duplicate,omitempty"`
	ClientTimeoutMs  *int      `json:"client_timeout_ms,omitempty"`
	InboxLimit       *int      `json:"inbox_limit,omitempty"`
	MaxEntriesPerMsg *int      `json:"max_entries_per_msg,omitempty"`
	MaxInflight      *int      `json:"max_inflight,omitempty"`
	// SnapshotCount, CatchUpEntries and BandwidthKBps are Config's: how
	// many applied entries between snapshots (0: none), how many entries
	// kept before a snapshot, and each link's bandwidth (0: unlimited).
	SnapshotCount  *int     `json:"snapshot_count,omitempty"`
	CatchUpEntries *int     `json:"catch_up_entries,omitempty"`
	BandwidthKBps  *float64 `json:"bandwidth_kbps,omitempty"`
	// CrossZoneLatencyMs is Config.CrossZoneLatencyMs: [min, max] between
	// zones, where latency_ms holds inside a zone.
	CrossZoneLatencyMs []float64 `json:"cross_zone_latency_ms,omitempty"`
	// Bugs names rules of Raft to break on purpose (Bugs lists them), so
	// that a run the explorer found against a broken variant replays, and
	// opens in the app, as the broken variant.
	Bugs []string `json:"bugs,omitempty"`
	// Idempotent is Config.Idempotent: whether deployment controllers'
	// reconciles are idempotent (absent: they are).
	Idempotent *bool `json:"idempotent,omitempty"`
}

// MaxUntilMs bounds a schedule's length (one virtual day).
const MaxUntilMs = 24 * 3600 * 1000

// DecodeSchedule reads and validates a schedule. Every error names the
// field at fault, e.g. `actions[2].node: 7 is out of range: use 1 to 5`.
func DecodeSchedule(r io.Reader) (Schedule, error) {
	data, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return Schedule{}, fmt.Errorf("reading schedule: %v", err)
	}
	return ParseSchedule(data)
}

// ParseSchedule is DecodeSchedule on bytes.
func ParseSchedule(data []byte) (Schedule, error) {
	var s Schedule
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Schedule{}, describeJSONError(data, err)
	}
	if dec.More() {
		return Schedule{}, errors.New("schedule: unexpected data after the JSON object")
	}
	if err := s.Validate(); err != nil {
		return Schedule{}, err
	}
	return s, nil
}

func describeJSONError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset)
		return fmt.Errorf("schedule is not valid JSON at line %d, column %d: %v", line, col, syn)
	case errors.As(err, &typ):
		field := fieldPath(typ.Field)
		// encoding/json names a field inside an array without its index.
		for _, list := range []string{"actions", "zones"} {
			if loc := locate(data); strings.HasPrefix(loc, list+"[") && strings.HasPrefix(field, list+".") {
				field = loc + strings.TrimPrefix(field, list)
			}
		}
		if field == "" {
			field = "schedule"
		}
		return fmt.Errorf("%s: want %s, got JSON %s", field, jsonKind(typ.Type), typ.Value)
	case errors.Is(err, io.EOF):
		return errors.New("schedule is empty: want a JSON object like {\"nodes\":3,\"until_ms\":5000,\"actions\":[]}")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("schedule is not valid JSON: it ends in the middle")
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		name := strings.TrimPrefix(msg, "json: unknown field ")
		switch loc := locate(data); {
		case loc == "options":
			return fmt.Errorf("options: unknown field %s; known fields: %s", name, jsonFields(ScheduleOptions{}))
		case loc == "kube":
			return fmt.Errorf("kube: unknown field %s; known fields: %s", name, jsonFields(KubeOptions{}))
		case strings.HasPrefix(loc, "zones["):
			return fmt.Errorf("%s: unknown field %s; known fields: %s", loc, name, jsonFields(Zone{}))
		case loc != "":
			return fmt.Errorf("%s: unknown field %s; known fields: %s", loc, name, jsonFields(Action{}))
		}
		return fmt.Errorf("unknown field %s; known fields: %s", name, jsonFields(Schedule{}))
	}
	return fmt.Errorf("schedule: %v", strings.TrimPrefix(msg, "json: "))
}

// locate finds the part of a schedule ("options", "zones[i]" or
// "actions[i]") that fails strict decoding, or "" when it is the top
// level.
func locate(data []byte) string {
	var parts struct {
		Options json.RawMessage   `json:"options"`
		Kube    json.RawMessage   `json:"kube"`
		Zones   []json.RawMessage `json:"zones"`
		Actions []json.RawMessage `json:"actions"`
	}
	if json.Unmarshal(data, &parts) != nil {
		return ""
	}
	strict := func(raw []byte, v any) error {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		return dec.Decode(v)
	}
	if len(parts.Options) > 0 && strict(parts.Options, &ScheduleOptions{}) != nil {
		return "options"
	}
	if len(parts.Kube) > 0 && strict(parts.Kube, &KubeOptions{}) != nil {
		return "kube"
	}
	for i, z := range parts.Zones {
		if strict(z, &Zone{}) != nil {
			return fmt.Sprintf("zones[%d]", i)
		}
	}
	for i, a := range parts.Actions {
		if strict(a, &Action{}) != nil {
			return fmt.Sprintf("actions[%d]", i)
		}
	}
	return ""
}

// jsonKind names the JSON a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// jsonFields lists the JSON keys of a struct, for "unknown field" errors.
func jsonFields(v any) string {
	t := reflect.TypeOf(v)
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// fieldPath turns encoding/json's "actions.2.node" into "actions[2].node".
func fieldPath(f string) string {
	parts := strings.Split(f, ".")
	var b strings.Builder
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return
}

// Config builds the world configuration the schedule describes.
func (s Schedule) Config() Config {
	c := DefaultConfig()
	if s.Nodes != 0 {
		c.Nodes = s.Nodes
	}
	c.Members = s.Members
	c.Seed = s.Seed
	if s.Protocol != "" {
		c.Protocol = Protocol(s.Protocol)
	}
	c.Names = s.Names
	c.Zones = s.Zones
	c.Controllers = s.Controllers
	c.Workers = s.Workers
	if k := s.Kube; k != nil {
		setInt(&c.Kube.RenewMs, k.RenewMs)
		setInt(&c.Kube.GraceMs, k.GraceMs)
		setInt(&c.Kube.MonitorMs, k.MonitorMs)
		setInt(&c.Kube.EvictMs, k.EvictMs)
		setInt(&c.Kube.Pods, k.Pods)
		setInt(&c.Kube.ControllerNode, k.ControllerNode)
	}
	if o := s.Options; o != nil {
		c.CrossZoneLatencyMs = o.CrossZoneLatencyMs
		setBool(&c.PreVote, o.PreVote)
		setBool(&c.CheckQuorum, o.CheckQuorum)
		setBool(&c.Sessions, o.Sessions)
		setBool(&c.Idempotent, o.Idempotent)
		setInt(&c.ElectionTicks, o.ElectionTicks)
		setInt(&c.HeartbeatTicks, o.HeartbeatTicks)
		setInt(&c.TickMs, o.TickMs)
		setInt(&c.ClientTimeoutMs, o.ClientTimeoutMs)
		setInt(&c.InboxLimit, o.InboxLimit)
		setInt(&c.MaxEntriesPerMsg, o.MaxEntriesPerMsg)
		setInt(&c.MaxInflight, o.MaxInflight)
		setInt(&c.SnapshotCount, o.SnapshotCount)
		setInt(&c.CatchUpEntries, o.CatchUpEntries)
		if o.BandwidthKBps != nil {
			c.BandwidthKBps = *o.BandwidthKBps
		}
		if len(o.LatencyMs) == 2 {
			c.LatencyMinMs, c.LatencyMaxMs = o.LatencyMs[0], o.LatencyMs[1]
		}
		if o.Loss != nil {
			c.Loss = *o.Loss
		}
		if o.Duplicate != nil {
			c.Duplicate = *o.Duplicate
		}
		for _, name := range o.Bugs {
			// Unknown names are reported by Validate.
			b, _ := ParseBug(name)
			c.Bugs |= b
		}
	}
	return c
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

// Validate checks the schedule's configuration and every action.
func (s Schedule) Validate() error {
	if s.Nodes != 0 && (s.Nodes < 1 || s.Nodes > MaxNodes) {
		return fmt.Errorf("nodes: %d is out of range: use 1 to %d", s.Nodes, MaxNodes)
	}
	if s.Options != nil && s.Options.LatencyMs != nil && len(s.Options.LatencyMs) != 2 {
		return fmt.Errorf("options.latency_ms: want [min, max], got %d numbers", len(s.Options.LatencyMs))
	}
	if s.Options != nil {
		for i, name := range s.Options.Bugs {
			if _, err := ParseBug(name); err != nil {
				return fmt.Errorf("options.bugs[%d]: %v", i, err)
			}
		}
	}
	cfg := s.Config()
	if err := cfg.Validate(); err != nil {
		if s.Options != nil && !strings.HasPrefix(err.Error(), "nodes") && !strings.HasPrefix(err.Error(), "members") && !strings.HasPrefix(err.Error(), "protocol") && !strings.HasPrefix(err.Error(), "names") && !strings.HasPrefix(err.Error(), "zones") && !strings.HasPrefix(err.Error(), "controllers") && !strings.HasPrefix(err.Error(), "workers") && !strings.HasPrefix(err.Error(), "kube.") {
			return fmt.Errorf("options.%v", err)
		}
		return err
	}
	if s.UntilMs < 0 || s.UntilMs > MaxUntilMs {
		return fmt.Errorf("until_ms: %g is out of range: use 0 to %d", s.UntilMs, MaxUntilMs)
	}
	for i, a := range s.Actions {
		if err := a.ValidateFor(cfg); err != nil {
			return fmt.Errorf("actions[%d].%v", i, err)
		}
		if a.AtMs > s.UntilMs {
			return fmt.Errorf("actions[%d].at_ms: %g is after until_ms (%g), so it would never happen", i, a.AtMs, s.UntilMs)
		}
	}
	return validateEventCounts(s.Actions)
}

// playOrder is the order Play takes actions in: by time, ties in the order
// given. It returns their indexes.
func playOrder(actions []Action) []int {
	order := make([]int, len(actions))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return actions[order[a]].AtMs < actions[order[b]].AtMs })
	return order
}

// validateEventCounts checks the actions pinned with after_events against
// each other: taken in time order, the number of events handled before
// each can only grow. A count that goes back (an action moved later by
// hand, or its count lowered) would have the clock run backwards.
func validateEventCounts(actions []Action) error {
	last := -1
	for _, i := range playOrder(actions) {
		a := actions[i]
		if a.AfterEvents == 0 {
			continue
		}
		if last >= 0 && a.AfterEvents < actions[last].AfterEvents {
			p := actions[last]
			return fmt.Errorf("actions[%d].after_events: the %s at %g ms comes after %d events, fewer than the %d of actions[%d] (%s at %g ms), which is taken before it: counts of events cannot go back",
				i, a.Do, a.AtMs, a.AfterEvents, p.AfterEvents, last, p.Do, p.AtMs)
		}
		last = i
	}
	return nil
}

// Run plays the schedule in a new world and returns it. The world keeps
// its whole trace, so its memory grows with the run; RunTraced does not.
func (s Schedule) Run() (*World, error) { return s.RunTraced(0, nil) }

// RunTraced is Run with the world keeping only its newest keep trace
// events (0 keeps all) and handing every event to sink, if not nil, as it
// is recorded (World.StreamTrace): a quiet virtual day of nine machines
// records 27 million events, which a world keeping them all could not hold.
func (s Schedule) RunTraced(keep int, sink func(TraceEvent)) (*World, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	w, err := NewWorld(s.Config())
	if err != nil {
		return nil, err
	}
	if err := w.StreamTrace(keep, sink); err != nil {
		return nil, err
	}
	if err := w.Play(s.Actions); err != nil {
		return w, err
	}
	w.RunUntil(msToUs(s.UntilMs))
	return w, nil
}

// Play applies actions at their times, in time order (stable for equal
// times). An action with AfterEvents is applied after exactly that many
// events, as when it was recorded.
func (w *World) Play(actions []Action) error {
	for _, i := range playOrder(actions) {
		a := actions[i]
		err := w.advanceTo(a)
		if err == nil {
			err = w.Apply(a)
		}
		if err != nil {
			return fmt.Errorf("actions[%d] (%s at %gms): %v", i, a.Do, a.AtMs, err)
		}
	}
	return nil
}

// advanceTo moves the world to the moment action a was (or is to be)
// taken. An action pinned after a number of events that is reached while
// events due before the action's time still wait is refused: taking it
// would move the clock past those events, and the clock would then run
// backwards to handle them.
func (w *World) advanceTo(a Action) error {
	at := a.AtUs()
	if a.AfterEvents == 0 {
		w.RunUntil(at)
		return nil
	}
	for w.processed < a.AfterEvents {
		next, ok := w.NextEventAt()
		if !ok || next > at {
			break
		}
		w.Step()
	}
	if next, ok := w.NextEventAt(); ok && next < at && w.processed >= a.AfterEvents {
		return fmt.Errorf("after_events: %d events are handled by %g ms, before at_ms %g, with more due before it: taken there, the action would move the clock past them and it would run backwards",
			a.AfterEvents, float64(w.now)/1000, a.AtMs)
	}
	if at > w.now {
		w.now = at
	}
	return nil
}

// Schedule writes the world's run so far as a schedule ending now: running
// it reproduces this world exactly.
func (w *World) Schedule() Schedule {
	c := w.cfg
	d := DefaultConfig()
	s := Schedule{Nodes: c.Nodes, Members: c.Members, Seed: c.Seed, Protocol: string(c.Protocol), Names: c.Names, Zones: cloneZones(c.Zones), UntilMs: float64(w.now) / 1000,
		Controllers: c.Controllers}
	o := &ScheduleOptions{PreVote: &c.PreVote, CheckQuorum: &c.CheckQuorum, ElectionTicks: &c.ElectionTicks,
		HeartbeatTicks: &c.HeartbeatTicks, TickMs: &c.TickMs, LatencyMs: []float64{c.LatencyMinMs, c.LatencyMaxMs}}
	// Only what differs from the defaults is written, so that a schedule
	// says what its run changed.
	o.Sessions = unlessDefault(c.Sessions, d.Sessions)
	o.Idempotent = unlessDefault(c.Idempotent, d.Idempotent)
	o.Loss = unlessDefault(c.Loss, d.Loss)
	o.Duplicate = unlessDefault(c.Duplicate, d.Duplicate)
	o.ClientTimeoutMs = unlessDefault(c.ClientTimeoutMs, d.ClientTimeoutMs)
	o.InboxLimit = unlessDefault(c.InboxLimit, d.InboxLimit)
	o.MaxEntriesPerMsg = unlessDefault(c.MaxEntriesPerMsg, d.MaxEntriesPerMsg)
	o.MaxInflight = unlessDefault(c.MaxInflight, d.MaxInflight)
	o.SnapshotCount = unlessDefault(c.SnapshotCount, d.SnapshotCount)
	o.CatchUpEntries = unlessDefault(c.CatchUpEntries, d.CatchUpEntries)
	o.BandwidthKBps = unlessDefault(c.BandwidthKBps, d.BandwidthKBps)
	o.CrossZoneLatencyMs = append([]float64(nil), c.CrossZoneLatencyMs...)
	o.Bugs = c.Bugs.Names()
	s.Options = o
	s.Workers = c.Workers
	if c.Kube != d.Kube {
		dk := d.Kube
		s.Kube = &KubeOptions{RenewMs: unlessDefault(c.Kube.RenewMs, dk.RenewMs), GraceMs: unlessDefault(c.Kube.GraceMs, dk.GraceMs),
			MonitorMs: unlessDefault(c.Kube.MonitorMs, dk.MonitorMs), EvictMs: unlessDefault(c.Kube.EvictMs, dk.EvictMs),
			Pods: unlessDefault(c.Kube.Pods, dk.Pods), ControllerNode: unlessDefault(c.Kube.ControllerNode, dk.ControllerNode)}
	}
	s.Actions = append([]Action{}, w.actions...)
	return s
}

// unlessDefault is a pointer to v, or nil where v is the default d: an
// option a schedule leaves out.
func unlessDefault[T comparable](v, d T) *T {
	if v == d {
		return nil
	}
	return &v
}
