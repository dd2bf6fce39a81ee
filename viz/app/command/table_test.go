package command

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
)

// three is the context of a cluster of three machines called A, B and C,
// at normal speed, two seconds into a run of four.
var three = Context{Names: []string{"A", "B", "C"}, Speed: 1, NowUs: 2_000_000, HeadUs: 4_000_000, TickUs: 100_000}

// Examples holds a line of every command and the intent it asks for: a
// command added to the table without one fails TestEveryCommandHasAnExample.
var Examples = map[string]Intent{
	"play":                    SetPaused{Paused: false},
	"pause":                   SetPaused{Paused: true},
	"pause B":                 ActOnMachine{Node: 1, Verb: raftcore.DoPause},
	"play-pause":              RunCommand{Cmd: viz.CmdPlayPause},
	"next":                    PlayStep{},
	"back":                    PrevStep{},
	"step":                    RunCommand{Cmd: viz.CmdStep},
	"step-back":               RunCommand{Cmd: viz.CmdStepBack},
	"prev-event":              RunCommand{Cmd: viz.CmdPrevEvent},
	"next-event":              RunCommand{Cmd: viz.CmdNextEvent},
	"speed 2x":                SetSpeed{Speed: 2},
	"speed faster":            SetSpeed{Speed: viz.StepSpeed(1, 1)},
	"seek 1500":               Seek{AtUs: 1_500_000},
	"seek later":              Seek{AtUs: 2_200_000},
	"live":                    GoLive{},
	"other-run":               ReturnToOtherRun{},
	"select 2":                Select{Node: 1},
	"select 0":                Select{Node: -1},
	"deselect":                ClearSelection{},
	"dismiss":                 Dismiss{},
	"open machine C":          OpenMachine{Node: 2},
	"open link 1-3":           OpenLink{Link: viz.LinkID{I: 0, J: 2}},
	"open message 17":         OpenMessage{Msg: 17},
	"open zone 2":             OpenZone{Zone: 1},
	"open setup":              OpenSetup{},
	"open scenarios":          OpenScenarios{},
	"panel safety":            ShowPanel{Panel: viz.PanelSafety},
	"unfold Client":           UnfoldPanel{Panel: viz.PanelClient},
	"rules all":               ShowEveryRule{On: true},
	"help":                    RunCommand{Cmd: viz.CmdHelp},
	"help off":                ShowHelp{On: false},
	"legend on":               ShowLegend{On: true},
	"close-note":              CloseBanner{},
	"key c":                   RunCommand{Cmd: viz.CmdClientWrite},
	"resume B":                ActOnMachine{Node: 1, Verb: raftcore.DoResume},
	"crash 3":                 ActOnMachine{Node: 2, Verb: raftcore.DoCrash},
	"restart c":               ActOnMachine{Node: 2, Verb: raftcore.DoRestart},
	"timeout A":               ActOnMachine{Node: 0, Verb: raftcore.DoTimeout},
	"write":                   RunCommand{Cmd: viz.CmdClientWrite},
	"write A":                 ActOnMachine{Node: 0, Verb: raftcore.DoWrite},
	"read B lease":            ActOnMachine{Node: 1, Verb: raftcore.DoRead, Mode: raftcore.ReadLease},
	"slow 2 20":               ActOnMachine{Node: 1, Verb: raftcore.DoSlow, Value: 20},
	"drift 1 0.5":             ActOnMachine{Node: 0, Verb: raftcore.DoDrift, Value: 0.5},
	"isolate C":               Isolate{Node: 2},
	"reconnect C":             Reconnect{Node: 2},
	"cut A-C":                 ActOnLink{Link: viz.LinkID{I: 0, J: 2}, Verb: raftcore.DoCut},
	"cut c–a":                 ActOnLink{Link: viz.LinkID{I: 0, J: 2}, Verb: raftcore.DoCut},
	"cut C->A":                ActOnLink{Link: viz.LinkID{I: 0, J: 2}, Verb: raftcore.DoCut, OneWay: true, Back: true},
	"heal":                    RunCommand{Cmd: viz.CmdHeal},
	"heal B-C":                ActOnLink{Link: viz.LinkID{I: 1, J: 2}, Verb: raftcore.DoRestore},
	"heal 1→2":                ActOnLink{Link: viz.LinkID{I: 0, J: 1}, Verb: raftcore.DoRestore, OneWay: true},
	"latency A-B 20 40":       ActOnLink{Link: viz.LinkID{I: 0, J: 1}, Verb: raftcore.DoLatency, LatencyMs: [2]float64{20, 40}},
	"loss A-B 0.2":            ActOnLink{Link: viz.LinkID{I: 0, J: 1}, Verb: raftcore.DoLoss, Loss: 0.2},
	"move B 2":                MoveToZone{Node: 1, Zone: 1},
	"zone 1 crash":            ActOnZone{Zone: 0, Verb: raftcore.DoZoneCrash},
	"drop 9":                  DropMessage{Msg: 9},
	"restart-leader":          RunCommand{Cmd: viz.CmdRestartLeader},
	"spread-timers":           RunCommand{Cmd: viz.CmdSpreadTimers},
	"align-timers":            RunCommand{Cmd: viz.CmdAlignTimers},
	"split-vote":              RunCommand{Cmd: viz.CmdSplitVote},
	"resume-all":              RunCommand{Cmd: viz.CmdResumeAll},
	`act {"do":"heal"}`:       Act{Action: raftcore.Action{Do: raftcore.DoHeal}},
	"reset":                   Restart{},
	"reseed":                  Reseed{},
	"knob prevote off":        SetKnob{Knob: "prevote", Value: "off"},
	"knob election 300 ms":    SetKnob{Knob: "election", Value: "300 ms"},
	"autoplay on":             SetAutoplay{On: true},
	"scenario majority":       StartScenario{ID: "majority"},
	"scenario":                StartScenario{},
	"nodes 7":                 SetNodes{Nodes: 7},
	"protocol naive-copy":     SetProtocol{Protocol: "naive-copy"},
	"option checkquorum off":  SetCheckQuorum{On: false},
	"election 50":             SetElection{Ticks: 50},
	"snapshots small":         SmallSnapshots,
	"snapshots off":           SetSnapshots{},
	"theme Dark":              SetTheme{Theme: "dark"},
	"lab":                     OpenInLab{},
	"copy-link":               CopyLink{},
	"save-run":                SaveRun{},
	"save-trace":              SaveTrace{},
	"save-picture":            SavePicture{},
	"save-picture stage":      SavePicture{Part: PicturePart{Kind: "stage"}, Format: "png"},
	"save-picture safety svg": SavePicture{Part: PicturePart{Kind: "panel", Panel: viz.PanelSafety}, Format: "svg"},
	"save-picture all PNG":    SavePicture{Part: PicturePart{Kind: "all"}, Format: "png"},
	"present":                 RunCommand{Cmd: viz.CmdPresent},
	"present on":              SetPresent{On: true},
	"save-frames":             SaveFrames{Seconds: DefaultFrameSeconds},
	"save-frames 1.5":         SaveFrames{Seconds: 1.5},
	"save-frames 2 gif":       SaveFrames{Seconds: 2, GIF: true},
	"save-frames GIF":         SaveFrames{Seconds: DefaultFrameSeconds, GIF: true},
	"choose-run":              ChooseRun{},
	`import {"nodes": 3}`:     OpenRun{JSON: `{"nodes": 3}`},
	"members 3":               SetMembers{Members: 3},
	"add-learner C":           ChangeMembers{Verb: raftcore.DoAddLearner, Node: 2},
	"add C":                   ChangeMembers{Verb: raftcore.DoAdd, Node: 2},
	"promote C":               ChangeMembers{Verb: raftcore.DoPromote, Node: 2},
	"remove c":                ChangeMembers{Verb: raftcore.DoRemove, Node: 2},
	"transfer-leader 3":       ChangeMembers{Verb: raftcore.DoTransferLeader, Node: 2},
	"joint A B":               ChangeMembers{Verb: raftcore.DoJoint, Node: -1, Voters: []int{0, 1}},
	"apply":                   Act{Action: raftcore.Action{Do: raftcore.DoWrite, Key: "deployments/web", Value: "replicas=3 image=web:1"}},
	"apply api":               Act{Action: raftcore.Action{Do: raftcore.DoWrite, Key: "deployments/api", Value: "replicas=3 image=api:1"}},
	"deploy-controller C B":   Act{Action: raftcore.Action{Do: raftcore.DoDeployController, Node: 3, To: 2}},
	"deploy-controller 1":     Act{Action: raftcore.Action{Do: raftcore.DoDeployController, Node: 1, To: 1}},
	"watch-cut":               Act{Action: raftcore.Action{Do: raftcore.DoWatchCut}},
	"watch-cut C":             Act{Action: raftcore.Action{Do: raftcore.DoWatchCut, Node: 3}},
	"reconcile":               Act{Action: raftcore.Action{Do: raftcore.DoReconcile, Key: "deployments/web"}},
	"reconcile api":           Act{Action: raftcore.Action{Do: raftcore.DoReconcile, Key: "deployments/api"}},
	"set idempotence off":     ChangeSetting{Setting: "idempotence", On: false},
	"set prevote off":         ChangeSetting{Setting: "prevote", On: false},
	"set Commit-Old-Term on":  ChangeSetting{Setting: "commit-old-term", On: true},
}

func TestEveryLineBecomesItsIntent(t *testing.T) {
	for line, want := range Examples {
		got, err := Parse(three, line)
		require.NoError(t, err, line)
		assert.Equal(t, want, got, line)
		// The page gives the same words apart.
		fields := strings.Fields(line)
		if name := fields[0]; name != "act" && name != "import" {
			got, err = ParseArgs(three, name, fields[1:]...)
			require.NoError(t, err, line)
			assert.Equal(t, want, got, "%s, given apart", line)
		}
	}
}

func TestEveryCommandHasAnExampleAndADoc(t *testing.T) {
	seen := map[string]bool{}
	for line := range Examples {
		name, _, _ := strings.Cut(line, " ")
		seen[name] = true
	}
	for _, c := range Table {
		assert.Truef(t, seen[c.Name], "command %s has no example in Examples", c.Name)
		assert.NotEmptyf(t, c.Doc, "command %s says nothing of what it does", c.Name)
		_, ok := find(c.Name)
		assert.True(t, ok, c.Name)
	}
	assert.Len(t, Names(), len(Table))
}

func TestNamesAreOneEach(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Table {
		assert.Falsef(t, names[strings.ToLower(c.Name)], "two commands are called %s", c.Name)
		names[strings.ToLower(c.Name)] = true
	}
	for c := viz.CmdPlayPause; c <= viz.CmdHelp; c++ {
		_, ok := find(ToolbarLine(c))
		assert.Truef(t, ok, "the toolbar's %v runs no command of the table", c)
	}
}

func TestBadLinesSayWhatIsWrong(t *testing.T) {
	cases := map[string]string{
		"":                      "empty command",
		"fly B":                 `"fly" is not a command`,
		"cut A":                 `"A" is not a link`,
		"cut A-F":               `no machine "F": there are A, B, C`,
		"cut A-A":               "joins a machine to itself",
		"crash":                 "usage: crash MACHINE",
		"crash A B":             "usage: crash MACHINE",
		"seek soon":             `"soon" is not a time in milliseconds`,
		"seek -4":               `"-4" is not a time`,
		"next please":           "next takes nothing",
		"knob x":                "usage: knob NAME VALUE",
		"speed warp":            `"warp" is not a speed`,
		"read A fast":           "usage: read MACHINE",
		"latency A->B 20 40":    "both ways",
		"open link A->B":        "both ways",
		"option prevote maybe":  `"maybe" is not on or off`,
		"set speed on":          `"speed" is not prevote, checkquorum, idempotence or a bug`,
		"set prevote":           "set",
		"option pre-vote on":    `"pre-vote" is not an option`,
		"panel Nowhere":         `"Nowhere" is not a panel`,
		"key q":                 `"q" does nothing`,
		"key escape":            `"escape" does nothing`,
		`act {"do":"heal","x"}`: "act",
		"apply a/b":             `"a/b" is not a Deployment's name`,
		"apply Web":             `"Web" is not a Deployment's name: as in Kubernetes`,
		"apply e\u0301":         `is not a Deployment's name`,
		"apply web-":            `"web-" is not a Deployment's name`,
		"apply web..api":        `"web..api" is not a Deployment's name`,
		"reconcile -web":        `"-web" is not a Deployment's name`,
		"reconcile web api":     "usage: reconcile [NAME]",
		"watch-cut Z":           `no machine "Z"`,
		"deploy-controller":     "usage: deploy-controller MACHINE",
		"zone 1 explode":        "usage: zone N",
		"save-picture desk":     `"desk" is not a panel; use Scenario, Question, Node, Safety, Client, all or stage`,
		"save-picture all gif":  `"gif" is not a picture format`,
		"save-frames 0":         "0 seconds is out of range",
		"save-frames 60":        "60 seconds is out of range",
		"save-frames soon":      "soon",
		"save-frames 2 3":       "usage: save-frames",
	}
	for line, want := range cases {
		_, err := Parse(three, line)
		require.Error(t, err, line)
		assert.Contains(t, err.Error(), want, line)
	}
}

func TestProseUsesOnlyItsCommands(t *testing.T) {
	in, err := ParseProse(three, "  crash   3 ")
	require.NoError(t, err)
	assert.Equal(t, ActOnMachine{Node: 2, Verb: raftcore.DoCrash}, in)
	_, err = ParseProse(three, "save-run")
	assert.ErrorContains(t, err, "not a directive a page's text may use")
	_, err = ParseProse(three, "")
	assert.ErrorContains(t, err, "empty directive")
	_, err = ParseProse(three, "cut A-F")
	assert.ErrorContains(t, err, `"cut A-F": cut: no machine "F"`, "a directive's error names the directive")
}

func TestWrittenLinesReadBack(t *testing.T) {
	l := viz.LinkID{I: 0, J: 2}
	for _, c := range []struct {
		oneWay, back bool
	}{{false, false}, {true, false}, {true, true}} {
		in, err := Parse(three, "cut "+Link(l, c.oneWay, c.back))
		require.NoError(t, err)
		assert.Equal(t, ActOnLink{Link: l, Verb: raftcore.DoCut, OneWay: c.oneWay, Back: c.back}, in)
	}
	for _, v := range []float64{0.1, 0.2, 1.0 / 3, 20, 1e-9} {
		in, err := Parse(three, "drift 2 "+Number(v))
		require.NoError(t, err)
		assert.Equal(t, v, in.(ActOnMachine).Value)
	}
}

func TestKeysRunTheirToolbarCommands(t *testing.T) {
	for _, b := range viz.KeyBindings() {
		line, ok := KeyLine(three, b.Key)
		require.True(t, ok, b.Key)
		in, err := Parse(three, line)
		require.NoError(t, err, b.Key)
		assert.Equal(t, RunCommand{Cmd: b.Cmd}, in, "key %q", b.Key)
	}
	_, ok := KeyLine(three, "Escape")
	assert.False(t, ok, "Escape with nothing open does something")
	open := three
	open.Open = true
	line, ok := KeyLine(open, "Escape")
	assert.True(t, ok)
	assert.Equal(t, "dismiss", line)
}

func TestEveryExampleReads(t *testing.T) {
	for _, c := range Table {
		_, err := Parse(three, c.ExampleLine())
		assert.NoError(t, err, c.Name)
		assert.True(t, strings.HasPrefix(c.ExampleLine(), c.Name), "the example of %s is of another command", c.Name)
	}
}

// TestDeploymentNamesAreKubernetes: the names apply and reconcile take are
// the names Kubernetes takes for a Deployment, and no others.
func TestDeploymentNamesAreKubernetes(t *testing.T) {
	for _, name := range []string{"web", "api", "a", "0", "web-2", "my.web", "a-b.c-d.e", strings.Repeat("a", 253)} {
		if !isDNSSubdomain(name) {
			t.Errorf("%q is refused; Kubernetes takes it", name)
		}
	}
	for _, name := range []string{"", "Web", "web_2", "-web", "web-", ".web", "web.", "a..b", "a.-b", "wé", "e\u0301", "a b", "a/b", "a=b", strings.Repeat("a", 254)} {
		if isDNSSubdomain(name) {
			t.Errorf("%q is taken; Kubernetes refuses it", name)
		}
	}
}
