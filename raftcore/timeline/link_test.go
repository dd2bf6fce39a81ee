package timeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"raftlab/raftcore"
)

// pack builds a link around any payload bytes, with a correct header, so
// tests can reach the checks behind the checksum.
func pack(format string, data []byte, size uint64) string {
	var buf bytes.Buffer
	buf.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(data)))
	buf.Write(binary.AppendUvarint(nil, size))
	fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	fw.Write(data)
	fw.Close()
	return format + "." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// reopen opens tl's share link, encoded and decoded, as a reader's
// browser would.
func reopen(t testing.TB, tl *Timeline) *Timeline {
	t.Helper()
	l, err := DecodeLink(mustEncode(t, tl.Link("", nil)))
	if err != nil {
		t.Fatal(err)
	}
	opened, err := OpenLink(l)
	if err != nil {
		t.Fatal(err)
	}
	return opened
}

func mustEncode(t testing.TB, l Link) string {
	t.Helper()
	s, err := EncodeLink(l)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLinkRoundTripRebuildsTheRun(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	cfg := testConfig()
	cfg.Names = []string{"A", "B", "C", "D", "E"}
	cfg.Loss = 0.02
	cfg.ElectionTicks = 12
	tl := mustNew(t, cfg, Options{})
	liveRun(t, tl, r, 25)
	headSnap := snapOf(tl.World())

	for _, move := range []func(){
		func() {}, // at the head
		func() { tl.SeekTime(9_876_543) },
		func() {
			tl.SeekTime(4_000_000)
			for i := 0; i < 7; i++ {
				tl.StepForward() // in the middle of an instant, perhaps
			}
		},
	} {
		move()
		want := snapOf(tl.World())
		l := tl.Link("two-worlds", map[string]string{"protocol": "failover", "members": "2/2/1"})
		s := mustEncode(t, l)
		if strings.ContainsAny(s, "+/=?&# ") || !strings.HasPrefix(s, "1.") {
			t.Fatalf("link is not URL-safe: %q", s[:40])
		}
		got, err := DecodeLink(s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("decoded link differs:\ngot  %+v\nwant %+v", got, l)
		}
		opened, err := OpenLink(got)
		if err != nil {
			t.Fatal(err)
		}
		sameWorld(t, "opened link", opened.World(), want)
		if opened.Head() != tl.Head() || !reflect.DeepEqual(opened.Actions(), tl.Actions()) {
			t.Fatalf("opened link: head %v, %d actions; want %v, %d", opened.Head(), len(opened.Actions()), tl.Head(), len(tl.Actions()))
		}
		if !reflect.DeepEqual(opened.Marks(), tl.Marks()) {
			t.Fatal("opened link has other marks")
		}
		opened.SeekTo(opened.Head())
		sameWorld(t, "opened link's head", opened.World(), headSnap)
	}
}

func TestLinksAreShort(t *testing.T) {
	l := Link{Config: raftcore.DefaultConfig(), Actions: []raftcore.Action{}, PosUs: 3_000_000, Scenario: "majority"}
	s := mustEncode(t, l)
	if len(s) > 120 {
		t.Fatalf("a link to a fresh default run is %d characters: %s", len(s), s)
	}
	tl := mustNew(t, raftcore.DefaultConfig(), Options{})
	for i := 0; i < 20; i++ {
		tl.Advance(500_000)
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1 + i%5, Key: "deployments/web", Value: "v" + string(rune('0'+i%10))})
	}
	if s := mustEncode(t, tl.Link("", nil)); len(s) > 1000 {
		t.Fatalf("a link with 20 writes is %d characters", len(s))
	}
}

func TestDecodeLinkErrors(t *testing.T) {
	good := mustEncode(t, Link{Config: raftcore.DefaultConfig(), Actions: []raftcore.Action{{AtMs: 2000, Do: raftcore.DoWrite, Node: 1, Key: "k", Value: "v"}}, PosUs: 5_000_000})
	payload := func(run string, rest string) string {
		data := `{"run":` + run + rest + `}`
		return pack("1", []byte(data), uint64(len(data)))
	}
	run := `{"seed":1,"until_ms":5000,"actions":[]}`
	cases := []struct {
		name, link, want string
	}{
		{"empty", "  ", "the link is empty"},
		{"not a link", "hello", "not a raftlab link"},
		{"no format", ".abc", "not a raftlab link"},
		{"newer", "3." + good[2:], "this link was made by a newer raftlab (format 3); this version reads format 1"},
		{"format zero", "0." + good[2:], "format 0"},
		{"cut in the middle", good[:len(good)/2], "cut short"},
		{"cut after the header", good[:10], "cut short"},
		{"cut to the format", "1.", "cut short"},
		{"cut to a lone character", good[:2+((len(good)-2)/4-1)*4+1], "cut short"},
		{"edited character", good[:20] + "!" + good[21:], "cannot be in a link at position 21"},
		{"flipped character", good[:len(good)-3] + flip(good[len(good)-3]) + good[len(good)-2:], "the link"},
		{"extra data", pack("1", []byte("{}"), 2) + "AAAA", "extra data"},
		{"bad checksum", "1." + base64.RawURLEncoding.EncodeToString(append([]byte{1, 2, 3, 4}, mustRaw(t, good)[4:]...)), "checksum does not match"},
		{"oversized", pack("1", []byte("{}"), 5<<20), "limited to 4194304"},
		{"bomb", pack("1", bytes.Repeat([]byte(" "), 1<<20), 100), "says it holds 100 bytes but unpacks to more"},
		{"short data", pack("1", []byte("{}"), 100), "says it holds 100 bytes but unpacks to 2"},
		{"not JSON", pack("1", []byte("{{"), 2), "the link's data is not valid: broken JSON"},
		{"unknown field", payload(run, `,"x":1`), `unknown field "x"`},
		{"wrong type", payload(run, `,"pos_us":"soon"`), "pos_us: want int64"},
		{"no run", pack("1", []byte(`{"pos_us":1}`), 12), "run: missing"},
		{"bad nodes", payload(`{"nodes":12,"seed":1,"until_ms":5000,"actions":[]}`, ""), "nodes: 12 is out of range"},
		{"bad action", payload(`{"seed":1,"until_ms":5000,"actions":[{"at_ms":1,"do":"crash","node":7}]}`, ""), "actions[0].node: 7 is out of range"},
		{"unknown action", payload(`{"seed":1,"until_ms":5000,"actions":[{"at_ms":1,"do":"explode"}]}`, ""), `unknown action "explode"`},
		{"drop not in flight", payload(`{"seed":1,"until_ms":5000,"actions":[{"at_ms":1,"do":"write","node":1,"key":"k"},{"at_ms":3,"do":"drop","id":424242}]}`, ""), "actions[1] (drop at 3ms): id: message 424242 is not in flight"},
		{"negative position", payload(run, `,"pos_us":-5`), "pos_us: -5 is out of range"},
		{"too long", payload(`{"seed":1,"until_ms":4000000,"actions":[]}`, ""), "past the hour"},
		{"bad scenario", payload(run, `,"scenario":"Two Worlds"`), `scenario: "Two Worlds" has 'T'`},
		{"knobs without a scenario", payload(run, `,"knobs":{"split":"4/1"}`), "knobs: settings are given but no scenario"},
		{"knob value not a string", payload(run, `,"scenario":"majority","knobs":{"split":4}`), "knobs: want string, got JSON number"},
	}
	for _, c := range cases {
		_, err := DecodeLink(c.link)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to say %q", c.name, err, c.want)
		}
	}
	// Every truncation of a good link is refused.
	for i := 0; i < len(good); i++ {
		if _, err := DecodeLink(good[:i]); err == nil {
			t.Fatalf("link cut to %d of %d characters was accepted", i, len(good))
		}
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func mustRaw(t *testing.T, link string) []byte {
	raw, err := base64.RawURLEncoding.DecodeString(link[2:])
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestDecodeLinkAcceptsADropInFlight(t *testing.T) {
	tl := mustNew(t, testConfig(), Options{})
	tl.Advance(2_000_000)
	for len(tl.World().InFlight()) == 0 {
		tl.StepForward()
	}
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoDrop, ID: tl.World().InFlight()[0].ID})
	tl.Advance(1_000_000)
	sameWorld(t, "link with a drop", reopen(t, tl).World(), snapOf(tl.World()))
}

func TestEncodeLinkRefusesBadLinks(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	three, minus := 3, -1
	for _, c := range []struct {
		l    Link
		want string
	}{
		{Link{Config: raftcore.Config{}}, "nodes: 0"},
		{Link{Config: cfg, Actions: []raftcore.Action{{Do: raftcore.DoHeal}}, PosActions: &three}, "pos_actions: 3 is out of range: use 0 to 1"},
		{Link{Config: cfg, PosActions: &minus}, "pos_actions: -1"},
		{Link{Config: cfg, Actions: []raftcore.Action{{Do: raftcore.DoPause, Node: 6}}}, "actions[0].node: 6"},
		{Link{Config: cfg, Actions: []raftcore.Action{{Do: raftcore.DoTimer, Node: 1, Ms: 1e6}}}, "actions[0].ms: "},
		{Link{Config: cfg, PosUs: MaxLinkUs + 1}, "pos_us"},
		{Link{Config: cfg, EndUs: 2 * MaxLinkUs}, "export it as a schedule"},
		{Link{Config: cfg, Scenario: "a/b"}, "scenario"},
		{Link{Config: cfg, Knobs: map[string]string{"split": "2/2/1"}}, "knobs: settings are given but no scenario"},
		{Link{Config: cfg, Scenario: "majority", Knobs: map[string]string{"Split": "2/2/1"}}, `knobs: "Split" is not a knob name`},
		{Link{Config: cfg, Scenario: "majority", Knobs: map[string]string{"split": ""}}, `knobs.split: "" is not a knob value`},
		{Link{Config: cfg, Scenario: "majority", Knobs: map[string]string{"split": "2 2"}}, `knobs.split: "2 2" is not a knob value`},
	} {
		if _, err := EncodeLink(c.l); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EncodeLink(%+v): %v, want %q", c.l, err, c.want)
		}
	}
}

// TestDecodeLinkTakesWholeAddresses: readers paste what Copy link gave
// them, a whole address, where a bare link is expected (the desktop's
// -link flag); the link inside it is read, and an address without one is
// refused by name.
func TestDecodeLinkTakesWholeAddresses(t *testing.T) {
	l := Link{Config: raftcore.DefaultConfig(), Actions: []raftcore.Action{{AtMs: 2000, Do: raftcore.DoWrite, Node: 1, Key: "k", Value: "v"}}, PosUs: 3_000_000, Scenario: "majority"}
	s := mustEncode(t, l)
	for _, in := range []string{
		s,
		"https://example.org/raftlab/index.html?nodes=5&seed=1&link=" + s,
		"http://127.0.0.1:8080/?link=" + s + "#figure",
		"link=" + s,
		"  ?link=" + s + "\n",
	} {
		got, err := DecodeLink(in)
		if err != nil {
			t.Errorf("DecodeLink(%.60q…): %v", in, err)
			continue
		}
		if got.PosUs != l.PosUs || len(got.Actions) != 1 || got.Scenario != "majority" {
			t.Errorf("DecodeLink(%.60q…) = %+v", in, got)
		}
	}
	for in, want := range map[string]string{
		"https://example.org/raftlab/index.html?nodes=5": "no link= parameter",
		"https://example.org/?link=%zz":                  "cannot be read",
		"https://example.org/?link=2." + s[2:]:           "newer raftlab (format 2)",
	} {
		if _, err := DecodeLink(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeLink(%q): %v, want it to say %q", in, err, want)
		}
	}
}

// TestLinkKeepsZones: a run in zones, with a machine moved and a zone
// lost, comes back from its link with the same placement and trace.
func TestLinkKeepsZones(t *testing.T) {
	cfg := testConfig()
	cfg.LatencyMinMs, cfg.LatencyMaxMs = 5, 10
	cfg.CrossZoneLatencyMs = []float64{40, 60}
	cfg.Zones = []raftcore.Zone{{Name: "a", Nodes: []int{1, 2}}, {Name: "b", Nodes: []int{3, 4}}, {Name: "c", Nodes: []int{5}}}
	tl := mustNew(t, cfg, Options{})
	tl.Advance(2_000_000)
	for _, a := range []raftcore.Action{{Do: raftcore.DoMove, Node: 2, Zone: "c"}, {Do: raftcore.DoZoneCrash, Zone: "a"}} {
		if err := tl.Act(a); err != nil {
			t.Fatal(err)
		}
	}
	tl.Advance(2_000_000)
	got, err := DecodeLink(mustEncode(t, tl.Link("", nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Config.Zones, cfg.Zones) || !reflect.DeepEqual(got.Config.CrossZoneLatencyMs, cfg.CrossZoneLatencyMs) {
		t.Fatalf("the link's zones: %+v %v", got.Config.Zones, got.Config.CrossZoneLatencyMs)
	}
	opened, err := OpenLink(got)
	if err != nil {
		t.Fatal(err)
	}
	opened.SeekTo(opened.Head())
	if w := opened.World(); w.TraceHash() != tl.World().TraceHash() || w.ZoneOf(2) != 2 {
		t.Fatalf("the opened link's world: hash %x (want %x), machine 2 in zone %d", w.TraceHash(), tl.World().TraceHash(), w.ZoneOf(2))
	}
}

// TestLinkCarriesControllers: a run with controllers, plain and cas, shared
// as a link and opened again, is the same run, seeked back into the middle
// of a controller's thinking included.
func TestLinkCarriesControllers(t *testing.T) {
	for _, cas := range []bool{false, true} {
		cfg := testConfig()
		cfg.Nodes = 3
		tl := mustNew(t, cfg, Options{})
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoTimeout, Node: 1})
		tl.Advance(1_000_000)
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "obj", Value: "replicas=2", IfRev: new(uint64)})
		tl.Advance(1_000_000)
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoControl, Node: 2, Key: "obj", Change: "replicas+1", ThinkMs: 900, Cas: cas})
		tl.Advance(300_000)
		mustAct(t, tl, raftcore.Action{Do: raftcore.DoControl, Node: 3, Key: "obj", Change: "image=web:2", ThinkMs: 100, Cas: cas})
		tl.Advance(3_000_000)
		head := snapOf(tl.World())
		lost := tl.World().LostUpdates()
		tl.SeekTime(2_600_000)
		want := snapOf(tl.World())

		opened := reopened(t, tl, want, head)
		if got := opened.World().LostUpdates(); got != lost || (lost == 0) != cas {
			t.Fatalf("cas %v: %d lost updates after opening, %d before", cas, got, lost)
		}
	}
}

// TestLinkCarriesSettingsAndClusterWrites: a run whose settings changed
// midway and whose writes went to the cluster opens from its link the
// same, at the moment shown and at its head, with the settings of each.
func TestLinkCarriesSettingsAndClusterWrites(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes = 3
	tl := mustNew(t, cfg, Options{})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Key: "k", Value: "a"})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoSet, Setting: raftcore.SettingPreVote, Value: "off"})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCrash, Node: 1})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoSet, Setting: "commit-old-term", Value: "on"})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Key: "k", Value: "b"})
	tl.Advance(2_000_000)
	head, headSettings := snapOf(tl.World()), tl.World().Settings()
	tl.SeekTime(2_500_000)
	want, wantSettings := snapOf(tl.World()), tl.World().Settings()
	if wantSettings.PreVote || wantSettings.Bugs != 0 || headSettings.Bugs != raftcore.BugCommitOldTerm {
		t.Fatalf("settings at 2.5 s %+v, at the head %+v", wantSettings, headSettings)
	}

	opened := reopened(t, tl, want, head)
	if got := opened.World().Settings(); got != headSettings {
		t.Fatalf("opened link's settings at its head %+v, want %+v", got, headSettings)
	}
	opened.SeekTime(2_500_000)
	if got := opened.World().Settings(); got != wantSettings {
		t.Fatalf("opened link's settings at 2.5 s %+v, want %+v", got, wantSettings)
	}
	opened.SeekTo(opened.Head())
	ops := opened.World().Ops()
	if len(ops) != 2 || !ops[0].Cluster || ops[1].Node == 1 {
		t.Fatalf("cluster writes after opening: %+v", ops)
	}
}

// reopened opens tl's link to where tl is shown and checks that it shows
// the world want there, and head at its head, where it is left.
func reopened(t *testing.T, tl *Timeline, want, head snap) *Timeline {
	t.Helper()
	opened := reopen(t, tl)
	sameWorld(t, "opened link", opened.World(), want)
	opened.SeekTo(opened.Head())
	sameWorld(t, "opened link's head", opened.World(), head)
	return opened
}

// TestLinkCarriesDeploymentControllers: a run with a deployment
// controller, its watch cut, repeated reconciles and idempotence turned
// on midway, started with idempotence off, opens from its link the same
// at the moment shown and at its head, with the same controllers, caches
// and findings.
func TestLinkCarriesDeploymentControllers(t *testing.T) {
	cfg := testConfig()
	cfg.Nodes, cfg.Idempotent = 3, false
	tl := mustNew(t, cfg, Options{})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoDeployController, Node: 1, To: 2})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:1"})
	tl.Advance(150_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWatchCut, Node: 1})
	tl.Advance(350_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoReconcile, Key: "deployments/web"})
	tl.Advance(2_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoSet, Setting: raftcore.SettingIdempotence, Value: "on"})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:2"})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoCut, From: 1, To: 2})
	tl.Advance(1_000_000)
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoRestore, From: 1, To: 2})
	mustAct(t, tl, raftcore.Action{Do: raftcore.DoReconcile, Key: "deployments/web"})
	tl.Advance(5_000_000)
	w := tl.World()
	head, headCounts, headCtl := snapOf(w), w.ReconcileCounts(), w.DeploymentControllers()
	if headCounts.WatchCuts < 2 || headCounts.Relists < 2 || headCtl[0].Informer.State != raftcore.InformerWatching {
		t.Fatalf("the run did not cut and list again: %+v", headCounts)
	}
	tl.SeekTime(3_000_000)
	want, wantCounts := snapOf(tl.World()), tl.World().ReconcileCounts()

	opened := reopened(t, tl, want, head)
	if got := opened.World(); got.ReconcileCounts() != headCounts || !reflect.DeepEqual(got.DeploymentControllers(), headCtl) || got.Settings().Idempotent != true {
		t.Fatalf("opened link's head: %+v, want %+v", got.ReconcileCounts(), headCounts)
	}
	opened.SeekTime(3_000_000)
	if got := opened.World(); got.ReconcileCounts() != wantCounts || got.Config().Idempotent || got.Settings().Idempotent {
		t.Fatalf("opened link at 3 s: %+v, want %+v; idempotent %v", got.ReconcileCounts(), wantCounts, got.Settings().Idempotent)
	}
}
