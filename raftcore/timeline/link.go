package timeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// Share links.
//
// A link is "<format>." followed by base64url (no padding) of a small
// header and the deflated JSON payload. The header is the CRC-32 (IEEE) of
// the JSON, 4 bytes big-endian, then its length as a uvarint: the length
// caps decompression before it starts (no zip bombs) and the checksum
// catches links damaged in copying or edited by hand. The JSON is
//
//	{"run": <schedule>, "pos_us": 12345, "pos_events": 678, "scenario": "majority",
//	 "knobs": {"split": "2/2/1"}}
//
// where <schedule> is a raftcore schedule (docs/raftsim.md) whose until_ms
// is the end of the run, so a link's run is also a valid `raftsim run -f`
// input, and reading one reuses the schedule's checks and field-named
// errors.

// LinkFormat is the link format this version writes and reads.
const LinkFormat = 1

// Limits on links.
const (
	// MaxLinkChars bounds the length of a link.
	MaxLinkChars = 1 << 20
	// MaxLinkBytes bounds a link's payload once decompressed.
	MaxLinkBytes = 4 << 20
	// MaxLinkUs is the longest run a link holds: an hour of virtual time.
	MaxLinkUs = 3600 * 1_000_000
)

// Link is a run to share: its configuration, its actions and the moment to
// show.
type Link struct {
	Config  raftcore.Config
	Actions []raftcore.Action
	// PosUs and PosEvents are the moment to show: the run after PosEvents
	// events, at virtual time PosUs, with every action taken by then.
	// PosEvents 0 means "at time PosUs", events due then included.
	PosUs     int64
	PosEvents uint64
	// PosActions, when set, is how many of the actions the moment has
	// applied: a moment between actions taken at one instant, as stepping
	// through a counterexample of the explorer shows (every action of it
	// falls at time 0). Nil means every action taken by then.
	PosActions *int
	// EndUs is how far the run goes, so the reader sees what follows the
	// moment; 0 means up to the moment or the last action, whichever is
	// later.
	EndUs int64
	// Scenario is the id of the book figure the run belongs to, if any.
	Scenario string
	// Knobs are the figure's settings that differ from its defaults, by
	// knob name. The run itself does not need them (Config and Actions
	// are the whole run), but the figure's story, zones and checks
	// depend on them.
	Knobs map[string]string
}

// Limits on a link's knob settings.
const (
	maxLinkKnobs   = 16
	maxKnobWordLen = 32
	knobNameRunes  = "a-z, 0-9 and -"
	knobValueRunes = "letters, digits and - / . : +"
)

// Link describes the timeline as a link showing the current position, with
// the whole run up to the head.
func (t *Timeline) Link(scenario string, knobs map[string]string) Link {
	p := t.Pos()
	l := Link{
		Config:    t.cfg,
		Actions:   append([]raftcore.Action(nil), t.br.log...),
		PosUs:     p.AtUs,
		PosEvents: p.Events,
		EndUs:     t.br.head.AtUs,
		Scenario:  scenario,
		Knobs:     knobs,
	}
	// The moment names its actions only where it has not applied one
	// that it would by its events and time.
	if k := p.Actions; k < len(t.br.log) && t.br.log[k].AtUs() <= p.AtUs && t.br.log[k].AfterEvents <= p.Events {
		l.PosActions = &k
	}
	return l
}

// Validate checks the link's configuration, every action, the moment and
// the scenario id. Errors name the field at fault.
func (l Link) Validate() error {
	if err := l.Config.Validate(); err != nil {
		return err
	}
	for i, a := range l.Actions {
		if err := a.ValidateFor(l.Config); err != nil {
			return fmt.Errorf("actions[%d].%v", i, err)
		}
		if a.AtUs() > MaxLinkUs {
			return fmt.Errorf("actions[%d].at_ms: %g is past the hour of virtual time a link can hold", i, a.AtMs)
		}
		// A link holds a recorded run, whose actions come in the order
		// they were taken.
		if i > 0 && a.AtMs < l.Actions[i-1].AtMs {
			return fmt.Errorf("actions[%d].at_ms: %g comes before the %g of actions[%d]: a link's actions are in the order they were taken", i, a.AtMs, l.Actions[i-1].AtMs, i-1)
		}
	}
	if l.PosUs < 0 || l.PosUs > MaxLinkUs {
		return fmt.Errorf("pos_us: %d is out of range: use 0 to %d (an hour)", l.PosUs, MaxLinkUs)
	}
	if k := l.PosActions; k != nil && (*k < 0 || *k > len(l.Actions)) {
		return fmt.Errorf("pos_actions: %d is out of range: use 0 to %d (the link's actions)", *k, len(l.Actions))
	}
	if l.EndUs < 0 || l.EndUs > MaxLinkUs {
		return fmt.Errorf("until_ms: the run ends at %s, past the hour of virtual time a link can hold; export it as a schedule instead", clockWords(l.EndUs))
	}
	if err := validScenario(l.Scenario); err != nil {
		return err
	}
	return validKnobs(l.Scenario, l.Knobs)
}

// validKnobs checks the form of a link's knob settings (whether the
// scenario has such knobs is for the app to say).
func validKnobs(scenario string, knobs map[string]string) error {
	if len(knobs) == 0 {
		return nil
	}
	if scenario == "" {
		return errors.New("knobs: settings are given but no scenario")
	}
	if len(knobs) > maxLinkKnobs {
		return fmt.Errorf("knobs: %d settings; a link holds at most %d", len(knobs), maxLinkKnobs)
	}
	for _, name := range slices.Sorted(maps.Keys(knobs)) {
		if name == "" || len(name) > maxKnobWordLen || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return fmt.Errorf("knobs: %q is not a knob name: names have 1 to %d characters from %s", name, maxKnobWordLen, knobNameRunes)
		}
		v := knobs[name]
		ok := v != "" && len(v) <= maxKnobWordLen
		for _, c := range v {
			ok = ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-/.:+", c))
		}
		if !ok {
			return fmt.Errorf("knobs.%s: %q is not a knob value: values have 1 to %d characters, %s", name, v, maxKnobWordLen, knobValueRunes)
		}
	}
	return nil
}

// validScenario checks the form of a scenario id (whether it names a
// scenario is for the app to say).
func validScenario(id string) error {
	if len(id) > 64 {
		return fmt.Errorf("scenario: the id is %d characters long; ids have at most 64", len(id))
	}
	for i, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("scenario: %q has %q at position %d; ids use a-z, 0-9 and -", id, c, i+1)
		}
	}
	return nil
}

// linkPayload is the JSON inside a link.
type linkPayload struct {
	Run       json.RawMessage `json:"run"`
	PosUs     int64           `json:"pos_us"`
	PosEvents uint64          `json:"pos_events,omitempty"`
	// PosActions is a pointer so that 0 (the moment before a first
	// action) differs from none given (every action by then).
	PosActions *int   `json:"pos_actions,omitempty"`
	Scenario   string `json:"scenario,omitempty"`
	// A JSON object's keys are written sorted, so the same settings
	// always make the same link.
	Knobs map[string]string `json:"knobs,omitempty"`
}

// end is the link's run end: EndUs, or later if the moment or an action is.
func (l Link) end() int64 {
	end := max(l.EndUs, l.PosUs)
	for _, a := range l.Actions {
		end = max(end, a.AtUs())
	}
	return end
}

// data is the JSON a link of l compresses: the same for the same link
// whatever form it was read from.
func (l Link) data() ([]byte, error) {
	run, err := json.Marshal(scheduleOf(l.Config, l.Actions, l.end()))
	if err != nil {
		return nil, err
	}
	return json.Marshal(linkPayload{Run: run, PosUs: l.PosUs, PosEvents: l.PosEvents, PosActions: l.PosActions, Scenario: l.Scenario, Knobs: l.Knobs})
}

// EncodeLink writes l as a compact, URL-safe string. It refuses a run
// that asks for more simulation than a link of its size may (see
// LinkFreeTicks), as DecodeLink would.
func EncodeLink(l Link) (string, error) {
	if err := l.Validate(); err != nil {
		return "", err
	}
	data, err := l.data()
	if err != nil {
		return "", err
	}
	if err := linkLimits.check(l, len(data)); err != nil {
		return "", err
	}
	if len(data) > MaxLinkBytes {
		return "", fmt.Errorf("this run is too big for a link (%d bytes of data; the limit is %d): export it as a schedule instead", len(data), MaxLinkBytes)
	}
	var buf bytes.Buffer
	buf.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(data)))
	buf.Write(binary.AppendUvarint(nil, uint64(len(data))))
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	fw.Write(data)
	if err := fw.Close(); err != nil {
		return "", err
	}
	s := strconv.Itoa(LinkFormat) + "." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	if len(s) > MaxLinkChars {
		return "", fmt.Errorf("this run is too big for a link (%d characters; the limit is %d): export it as a schedule instead", len(s), MaxLinkChars)
	}
	return s, nil
}

// scheduleOf writes a configuration and actions as a schedule ending at
// endUs, leaving out options that have their default value.
func scheduleOf(cfg raftcore.Config, actions []raftcore.Action, endUs int64) raftcore.Schedule {
	s := raftcore.MustWorld(cfg).Schedule()
	s.UntilMs = float64(endUs) / 1000
	s.Actions = append([]raftcore.Action{}, actions...)
	// Schedule spells out the main options; a link is shorter without
	// the ones that are defaults.
	d := raftcore.DefaultConfig()
	if o := s.Options; o != nil {
		dropDefault(&o.PreVote, d.PreVote)
		dropDefault(&o.CheckQuorum, d.CheckQuorum)
		dropDefault(&o.ElectionTicks, d.ElectionTicks)
		dropDefault(&o.HeartbeatTicks, d.HeartbeatTicks)
		dropDefault(&o.TickMs, d.TickMs)
		if len(o.LatencyMs) == 2 && o.LatencyMs[0] == d.LatencyMinMs && o.LatencyMs[1] == d.LatencyMaxMs {
			o.LatencyMs = nil
		}
		if reflect.ValueOf(*o).IsZero() {
			s.Options = nil
		}
	}
	if s.Protocol == string(d.Protocol) {
		s.Protocol = ""
	}
	if s.Nodes == d.Nodes {
		s.Nodes = 0
	}
	return s
}

func dropDefault[T comparable](p **T, def T) {
	if *p != nil && **p == def {
		*p = nil
	}
}

// DecodeLink reads a link written by EncodeLink (surrounding spaces are
// ignored). It checks everything OpenLink needs: the format, the
// integrity of the data, the configuration, every action in order, the
// moment, the scenario id and what the run costs to replay (see
// LinkFreeTicks), all before replaying anything; then it replays the run
// up to its last action naming a message in flight, since only the run
// can say whether that message was in flight. StartOpening checks the
// same while opening the link, replaying the run once.
func DecodeLink(s string) (Link, error) {
	l, err := readLink(s)
	if err != nil {
		return Link{}, err
	}
	if err := checkDrops(l); err != nil {
		return Link{}, fmt.Errorf("the link's run is not valid: %v", err)
	}
	return l, nil
}

// readLink is DecodeLink without replaying anything: every check but
// whether the messages its actions name are in flight.
func readLink(s string) (Link, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Link{}, errors.New("the link is empty")
	}
	if len(s) > MaxLinkChars {
		return Link{}, fmt.Errorf("the link is too long: %d characters; raftlab links have at most %d", len(s), MaxLinkChars)
	}
	s, err := linkParam(s)
	if err != nil {
		return Link{}, err
	}
	ver, body, ok := strings.Cut(s, ".")
	n, err := strconv.Atoi(ver)
	if !ok || err != nil || len(ver) > 6 || strings.TrimLeft(ver, "0123456789") != "" {
		return Link{}, fmt.Errorf("this is not a raftlab link: a link starts with its format number and a dot, like %q", strconv.Itoa(LinkFormat)+".")
	}
	if n > LinkFormat {
		return Link{}, fmt.Errorf("this link was made by a newer raftlab (format %d); this version reads format %d", n, LinkFormat)
	}
	if n < 1 {
		return Link{}, fmt.Errorf("this link has format %d, which no raftlab writes; this version reads format %d", n, LinkFormat)
	}
	trimmed := strings.TrimRight(body, "=")
	raw, err := base64.RawURLEncoding.DecodeString(trimmed)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			at := len(ver) + 1 + int(ce)
			// A lone good character after the last whole group of four is
			// what cutting a link short leaves one time in four; base64
			// blames that character.
			lone := len(trimmed)%4 == 1 && int(ce) == len(trimmed)-1 &&
				strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", trimmed[ce]) >= 0
			if int(ce) >= len(trimmed) || lone {
				return Link{}, errors.New("the link is cut short: copy all of it")
			}
			return Link{}, fmt.Errorf("the link has a character that cannot be in a link at position %d (%q): it was changed or damaged", at+1, s[at])
		}
		return Link{}, fmt.Errorf("the link is damaged: %v", err)
	}
	data, err := unpack(raw)
	if err != nil {
		return Link{}, err
	}
	return parsePayload(data)
}

// linkParam takes the link out of a whole share address
// ("https://…/index.html?nodes=3&link=1.…") or a query ("link=1.…"), as a
// reader may paste either. A bare link has no '?', '&' or '=' (base64url
// without padding), so it is returned as it is.
func linkParam(s string) (string, error) {
	if !strings.ContainsAny(s, "?&=") {
		return s, nil
	}
	query := s
	if _, q, ok := strings.Cut(s, "?"); ok {
		query = q
	}
	query, _, _ = strings.Cut(query, "#")
	v, err := url.ParseQuery(query)
	if err != nil {
		return "", fmt.Errorf("this address cannot be read (%v): copy the whole link again", err)
	}
	link := strings.TrimSpace(v.Get("link"))
	if link == "" {
		return "", errors.New("this address has no link= parameter: use the address that Copy link gives")
	}
	return link, nil
}

// unpack checks and decompresses a link's bytes.
func unpack(raw []byte) ([]byte, error) {
	cut := errors.New("the link is cut short: copy all of it")
	if len(raw) < 5 {
		return nil, cut
	}
	sum := binary.BigEndian.Uint32(raw)
	size, k := binary.Uvarint(raw[4:])
	if k <= 0 {
		return nil, errors.New("the link is damaged: its header is unreadable")
	}
	if size > MaxLinkBytes {
		return nil, fmt.Errorf("the link's data would take %d bytes unpacked; links are limited to %d (4 MiB)", size, MaxLinkBytes)
	}
	br := bytes.NewReader(raw[4+k:])
	fr := flate.NewReader(br)
	data, err := io.ReadAll(io.LimitReader(fr, int64(size)+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, cut
	case err != nil:
		return nil, fmt.Errorf("the link is damaged: its data cannot be unpacked (%v)", err)
	case uint64(len(data)) != size:
		return nil, fmt.Errorf("the link is damaged: it says it holds %d bytes but unpacks to %s", size, sizeWords(len(data), size))
	case br.Len() > 0:
		return nil, fmt.Errorf("the link has %d bytes of extra data after its end: it was changed or two links were joined", br.Len())
	case crc32.ChecksumIEEE(data) != sum:
		return nil, errors.New("the link was changed or damaged: its checksum does not match its data")
	}
	return data, nil
}

func sizeWords(got int, size uint64) string {
	if uint64(got) > size {
		return "more"
	}
	return strconv.Itoa(got)
}

// parsePayload reads and checks a link's JSON.
func parsePayload(data []byte) (Link, error) {
	var p linkPayload
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Link{}, fmt.Errorf("the link's data is not valid: %v", jsonProblem(err))
	}
	if dec.More() {
		return Link{}, errors.New("the link's data is not valid: more follows its JSON object")
	}
	if len(p.Run) == 0 || string(p.Run) == "null" {
		return Link{}, errors.New("the link's data is not valid: run: missing")
	}
	s, err := raftcore.ParseSchedule(p.Run)
	if err != nil {
		return Link{}, fmt.Errorf("the link's run is not valid: %v", err)
	}
	l := Link{
		Config:     s.Config(),
		Actions:    s.Actions,
		PosUs:      p.PosUs,
		PosEvents:  p.PosEvents,
		PosActions: p.PosActions,
		EndUs:      int64(math.Round(s.UntilMs * 1000)),
		Scenario:   p.Scenario,
		Knobs:      p.Knobs,
	}
	if l.Actions == nil {
		l.Actions = []raftcore.Action{}
	}
	if err := l.Validate(); err != nil {
		return Link{}, fmt.Errorf("the link is not valid: %v", err)
	}
	canonical, err := l.data()
	if err != nil {
		return Link{}, fmt.Errorf("the link is not valid: %v", err)
	}
	if err := linkLimits.check(l, len(canonical)); err != nil {
		return Link{}, err
	}
	return l, nil
}

// jsonProblem names the field of a JSON decoding error.
func jsonProblem(err error) string {
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: want %s, got JSON %s", typ.Field, typ.Type, typ.Value)
	case errors.As(err, &syn):
		return fmt.Sprintf("broken JSON at byte %d: %v", syn.Offset, syn)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// checkDrops replays the run up to its last action that names a message
// in flight ("drop", "deliver" or "repeat"), the kinds of action only the
// run can vet.
func checkDrops(l Link) error {
	log, order := sortedLog(l.Actions)
	last := -1
	for i, a := range log {
		switch a.Do {
		case raftcore.DoDrop, raftcore.DoDeliver, raftcore.DoRepeat:
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	cfg := l.Config
	cfg.TraceLimit = 1
	w := raftcore.MustWorld(cfg)
	_, err := replayTo(w, log[:last+1], Position{math.MaxUint64, log[last].AtUs(), allActions}, nil)
	return remapActionError(err, order)
}

// OpenLink builds the timeline a link describes, positioned at its moment.
// StartOpenLink does the same a piece at a time.
func OpenLink(l Link) (*Timeline, error) {
	o, err := StartOpenLink(l)
	if err != nil {
		return nil, err
	}
	return o.Run(nil)
}
