package command

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
)

// Command is one word of the app's vocabulary: its name, its arguments'
// usage, what it does in one line, whether a book's prose may use it, and
// the parser that turns its arguments into an intent.
type Command struct {
	Name string
	Args string
	Doc  string
	// Example is a line of it, for docs/embedding.md and the tests (in a
	// cluster of machines A, B and C); "" for a command that takes nothing,
	// whose example is its name.
	Example string
	Prose   bool
	parse   func(c *Context, a args) (Intent, error)
}

// Table is every command, in the order docs/embedding.md lists them.
// Every way in that speaks words reads its lines here, so that "next" or
// "crash B" means one thing wherever it comes from.
var Table []*Command

func init() {
	Table = append(Table, timeCommands...)
	Table = append(Table, screenCommands...)
	Table = append(Table, worldCommands...)
	Table = append(Table, memberCommands...)
	Table = append(Table, setupCommands...)
}

// find is the command called name, in any case.
func find(name string) (*Command, bool) {
	for _, c := range Table {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return nil, false
}

// Names are the commands' names, in the table's order.
func Names() []string {
	out := make([]string, len(Table))
	for i, c := range Table {
		out[i] = c.Name
	}
	return out
}

// proseNames are the names of the commands prose may use.
func proseNames() string {
	var out []string
	for _, c := range Table {
		if c.Prose {
			out = append(out, c.Name)
		}
	}
	return strings.Join(out, ", ")
}

// fixed is a command that takes nothing and always asks for in.
func fixed(name, doc string, prose bool, in Intent) *Command {
	return &Command{Name: name, Doc: doc, Prose: prose, parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(0, 0); err != nil {
			return nil, err
		}
		return in, nil
	}}
}

// switchable parses "[on | off]": with nothing, the key's command, which
// turns the thing the other way; with a word, set.
func switchable(cmd viz.Command, set func(on bool) Intent) func(*Context, args) (Intent, error) {
	return func(_ *Context, a args) (Intent, error) {
		if err := a.want(0, 1); err != nil {
			return nil, err
		}
		if a.n() == 0 {
			return RunCommand{Cmd: cmd}, nil
		}
		on, err := a.onOff(0, false)
		return set(on), err
	}
}

// toolbar is a toolbar command's command: its stable name runs it.
func toolbar(cmd viz.Command, doc string, prose bool) *Command {
	return fixed(cmd.String(), doc, prose, RunCommand{Cmd: cmd})
}

// onMachine is a command that acts on one machine with a verb.
func onMachine(verb raftcore.Verb, doc string) *Command {
	return &Command{Name: string(verb), Args: "MACHINE", Example: string(verb) + " B", Doc: doc, Prose: true, parse: func(c *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		i, err := a.machine(c, 0)
		return ActOnMachine{Node: i, Verb: verb}, err
	}}
}

// Time: playing, stepping, the story's steps and the timeline.
var timeCommands = []*Command{
	fixed("play", "Run virtual time.", true, SetPaused{Paused: false}),
	{Name: "pause", Example: "pause B", Args: "[MACHINE]", Prose: true,
		Doc: "Stop virtual time; with a machine, freeze that machine (it keeps its memory and misses what comes).",
		parse: func(c *Context, a args) (Intent, error) {
			if a.n() == 0 {
				return SetPaused{Paused: true}, nil
			}
			return machineVerb(c, a, raftcore.DoPause)
		}},
	toolbar(viz.CmdPlayPause, "Pause or run virtual time, or play a resting figure's next step.", false),
	fixed("next", "Play a figure's story on to its next step, where it rests.", true, PlayStep{}),
	fixed("back", "Take a figure back to where its story's step began, or to the step before.", true, PrevStep{}),
	toolbar(viz.CmdStep, "Pause and run until the next visible change.", false),
	toolbar(viz.CmdStepBack, "Pause and go back to just before the latest visible change.", false),
	toolbar(viz.CmdPrevEvent, "Pause and go back to the previous notable event.", false),
	toolbar(viz.CmdNextEvent, "Pause and run on to the next notable event.", false),
	{Name: "speed", Example: "speed 2x", Args: "X | faster | slower", Doc: "Set virtual seconds per real second, 0.01 to 10 (0.1, 1/10x, 2x), or move the slider a notch.",
		parse: parseSpeed},
	{Name: "seek", Example: "seek 1500", Args: "MS | later | earlier", Prose: true, Doc: "Show the run at MS milliseconds of virtual time, or a twentieth of the run later or earlier.",
		parse: parseSeek},
	fixed("live", "Leave the recorded past for the live end of the run.", false, GoLive{}),
	fixed("other-run", "Bring back the run left by acting in the past.", false, ReturnToOtherRun{}),
}

// machineVerb is a verb acting on the machine named by the only argument.
func machineVerb(c *Context, a args, verb raftcore.Verb) (Intent, error) {
	if err := a.want(1, 1); err != nil {
		return nil, err
	}
	i, err := a.machine(c, 0)
	return ActOnMachine{Node: i, Verb: verb}, err
}

func parseSpeed(c *Context, a args) (Intent, error) {
	if err := a.want(1, 1); err != nil {
		return nil, err
	}
	switch strings.ToLower(a.at(0)) {
	case "faster":
		return SetSpeed{Speed: viz.StepSpeed(c.Speed, 1)}, nil
	case "slower":
		return SetSpeed{Speed: viz.StepSpeed(c.Speed, -1)}, nil
	}
	s, err := viz.ParseSpeed(a.at(0))
	if err != nil || s < viz.MinSpeed || s > viz.MaxSpeed {
		return nil, fmt.Errorf("speed: %q is not a speed from 0.01 to 10 (such as 0.1, 1/10x or 2x)", a.at(0))
	}
	return SetSpeed{Speed: s}, nil
}

// maxSeekMs bounds a seek: no run is anywhere near a million seconds.
const maxSeekMs = 1e9

func parseSeek(c *Context, a args) (Intent, error) {
	if err := a.want(1, 1); err != nil {
		return nil, err
	}
	step := 0
	switch strings.ToLower(a.at(0)) {
	case "later":
		step = 1
	case "earlier":
		step = -1
	}
	if step != 0 {
		at := c.NowUs + int64(step)*max(c.HeadUs/20, c.TickUs)
		return Seek{AtUs: min(max(at, 0), c.HeadUs)}, nil
	}
	ms, err := a.number(0, "a time in milliseconds")
	if err != nil || ms < 0 || ms > maxSeekMs {
		return nil, fmt.Errorf("seek: %q is not a time in milliseconds, as in seek 1500", a.at(0))
	}
	return Seek{AtUs: int64(ms * 1000)}, nil
}

// The screen: selection, menus, panels, the help and the key.
var screenCommands = []*Command{
	{Name: "select", Example: "select 2", Args: "MACHINE | 0", Doc: "Select a machine (0: none).", parse: func(c *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		if a.at(0) == "0" {
			return Select{Node: -1}, nil
		}
		if n := a.whole(0); n > len(c.Names) {
			return Select{Node: n - 1}, nil // Do says which numbers there are
		}
		i, err := a.machine(c, 0)
		return Select{Node: i}, err
	}},
	fixed("deselect", "Select no machine and close the open menu.", false, ClearSelection{}),
	fixed("dismiss", "Close the open menu, the help and the key.", false, Dismiss{}),
	{Name: "open", Example: "open machine C", Args: "machine M | link A-C | message ID | zone N | setup | scenarios", Doc: "Open a menu, or close it when it is open.",
		parse: parseOpen},
	{Name: "panel", Example: "panel Safety", Args: "NAME", Doc: "Bring a panel's tab to the front (Scenario, Question, Node, Safety, Client).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		k, err := a.panel(0)
		return ShowPanel{Panel: k}, err
	}},
	{Name: "unfold", Example: "unfold Client", Args: "NAME", Doc: "Open a stacked panel folded to its title.", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		k, err := a.panel(0)
		return UnfoldPanel{Panel: k}, err
	}},
	{Name: "rules", Example: "rules all", Args: "all | broken", Doc: "List every safety rule, or only the broken ones.", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		switch strings.ToLower(a.at(0)) {
		case "all":
			return ShowEveryRule{On: true}, nil
		case "broken":
			return ShowEveryRule{On: false}, nil
		}
		return nil, a.usage()
	}},
	{Name: "help", Example: "help off", Args: "[on | off]", Doc: "Show or hide the keys and gestures (with nothing: the other way).",
		parse: switchable(viz.CmdHelp, func(on bool) Intent { return ShowHelp{On: on} })},
	{Name: "present", Example: "present on", Args: "[on | off]", Doc: "Presenter mode for a projector: everything larger, one panel at a time (with nothing: the other way).",
		parse: switchable(viz.CmdPresent, func(on bool) Intent { return SetPresent{On: on} })},
	{Name: "legend", Example: "legend on", Args: "on | off", Doc: "Show or hide the key to the marks on the stage.", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		on, err := a.onOff(0, false)
		return ShowLegend{On: on}, err
	}},
	fixed("close-note", "Hide the note in the banner.", false, CloseBanner{}),
	{Name: "key", Example: "key c", Args: "NAME", Doc: "Press a key (c, Space, ?, Escape): whatever command it runs.", parse: func(c *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		line, ok := KeyLine(*c, a.at(0))
		if !ok {
			return nil, fmt.Errorf("key: %q does nothing", a.at(0))
		}
		return Parse(*c, line)
	}},
}

func parseOpen(c *Context, a args) (Intent, error) {
	if a.n() == 0 {
		return nil, a.usage()
	}
	rest := args{cmd: a.cmd, fields: a.fields[1:]}
	one := func() error { return rest.want(1, 1) }
	switch strings.ToLower(a.at(0)) {
	case "machine":
		if err := one(); err != nil {
			return nil, a.usage()
		}
		i, err := rest.machine(c, 0)
		return OpenMachine{Node: i}, err
	case "link":
		if err := one(); err != nil {
			return nil, a.usage()
		}
		l, oneWay, _, err := rest.link(c, 0)
		if err == nil && oneWay {
			err = fmt.Errorf("open: a link's menu is for both ways: write %s", Link(l, false, false))
		}
		return OpenLink{Link: l}, err
	case "message":
		if err := one(); err != nil {
			return nil, a.usage()
		}
		id, err := rest.number(0, "a message number")
		return OpenMessage{Msg: uint64(max(id, 0))}, err
	case "zone":
		if err := one(); err != nil {
			return nil, a.usage()
		}
		return OpenZone{Zone: rest.whole(0) - 1}, nil
	case "setup":
		return OpenSetup{}, rest.want(0, 0)
	case "scenarios":
		return OpenScenarios{}, rest.want(0, 0)
	}
	return nil, a.usage()
}

// The world: every one of these becomes recorded actions.
var worldCommands = []*Command{
	onMachine(raftcore.DoResume, "Let a paused machine run again."),
	onMachine(raftcore.DoCrash, "Crash a machine: it loses everything but what it saved to disk."),
	onMachine(raftcore.DoRestart, "Start a crashed machine again from what it saved."),
	onMachine(raftcore.DoTimeout, "Make a machine's election timer run out now."),
	{Name: "write", Example: "write A", Args: "[MACHINE]", Prose: true, Doc: "Send a client write to the cluster, or to one machine.",
		parse: func(c *Context, a args) (Intent, error) {
			if a.n() == 0 {
				return RunCommand{Cmd: viz.CmdClientWrite}, nil
			}
			return machineVerb(c, a, raftcore.DoWrite)
		}},
	{Name: "read", Example: "read B lease", Args: "MACHINE [linearizable | lease | local]", Prose: true, Doc: "Send a client read to one machine, served as said (the lab's choice with nothing).",
		parse: parseRead},
	{Name: "slow", Example: "slow B 20", Args: "MACHINE MS", Prose: true, Doc: "Make a machine take MS milliseconds over each message (1: normal).",
		parse: func(c *Context, a args) (Intent, error) {
			return machineValue(c, a, raftcore.DoSlow, "milliseconds per message")
		}},
	{Name: "drift", Example: "drift B 0.5", Args: "MACHINE RATE", Prose: true, Doc: "Make a machine's clock run at RATE times true time (1: exact).",
		parse: func(c *Context, a args) (Intent, error) { return machineValue(c, a, raftcore.DoDrift, "a clock rate") }},
	{Name: "isolate", Example: "isolate C", Args: "MACHINE", Prose: true, Doc: "Cut a machine off from every other machine.",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(1, 1); err != nil {
				return nil, err
			}
			i, err := a.machine(c, 0)
			return Isolate{Node: i}, err
		}},
	{Name: "reconnect", Example: "reconnect C", Args: "MACHINE", Prose: true, Doc: "Restore every link of a machine.",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(1, 1); err != nil {
				return nil, err
			}
			i, err := a.machine(c, 0)
			return Reconnect{Node: i}, err
		}},
	{Name: "cut", Example: "cut A-C", Args: "A-C | A->C", Prose: true, Doc: "Cut a link both ways, or one way (A->C: A's messages to C are lost).",
		parse: func(c *Context, a args) (Intent, error) { return linkVerb(c, a, raftcore.DoCut) }},
	{Name: "heal", Example: "heal A->C", Args: "[A-C | A->C]", Prose: true, Doc: "Heal every partition and cut link, or restore one link (both ways, or one way).",
		parse: func(c *Context, a args) (Intent, error) {
			if a.n() == 0 {
				return RunCommand{Cmd: viz.CmdHeal}, nil
			}
			return linkVerb(c, a, raftcore.DoRestore)
		}},
	{Name: "latency", Example: "latency A-B 20 40", Args: "A-C LEAST MOST", Prose: true, Doc: "Set a link's delay, both ways, to LEAST to MOST milliseconds.",
		parse: parseLatency},
	{Name: "loss", Example: "loss A-B 0.2", Args: "A-C SHARE", Prose: true, Doc: "Lose a share of a link's messages, both ways (0 to 1).",
		parse: parseLoss},
	{Name: "move", Example: "move B 2", Args: "MACHINE SIDE", Doc: "Move a machine to side SIDE (from 1) of a partition, or of the figure's zones.",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(2, 2); err != nil {
				return nil, err
			}
			i, err := a.machine(c, 0)
			return MoveToZone{Node: i, Zone: a.whole(1) - 1}, err
		}},
	{Name: "zone", Example: "zone 1 crash", Args: "N crash | restart | cut | heal", Prose: true, Doc: "Act on a failure domain as a whole: lose it, bring it back, cut it off or reconnect it.",
		parse: parseZone},
	{Name: "drop", Example: "drop 9", Args: "MESSAGE", Doc: "Drop a message in flight: it never arrives.", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		id, err := a.number(0, "a message number")
		return DropMessage{Msg: uint64(max(id, 0))}, err
	}},
	toolbar(viz.CmdRestartLeader, "Crash the leader, then bring it back.", false),
	toolbar(viz.CmdSpreadTimers, "Spread the election timers so that one machine times out first.", false),
	toolbar(viz.CmdAlignTimers, "Make the two earliest election timers run out together.", false),
	toolbar(viz.CmdSplitVote, "Crash the leader and time two machines out together.", false),
	toolbar(viz.CmdResumeAll, "Bring back every paused or crashed machine.", false),
	{Name: "apply", Example: "apply web", Args: "[NAME]", Prose: true, Doc: "Apply a Deployment NAME (web with nothing) of three replicas of image NAME:1: a write of deployments/NAME through the API server.",
		parse: func(_ *Context, a args) (Intent, error) {
			name, err := deploymentName(a)
			if err != nil {
				return nil, err
			}
			return Act{Action: raftcore.Action{Do: raftcore.DoWrite, Key: raftcore.DeploymentPrefix + name, Value: DeploymentManifest(name)}}, nil
		}},
	{Name: "deploy-controller", Example: "deploy-controller C B", Args: "MACHINE [API-SERVER]", Doc: "Start a deployment controller and its informer on a machine, talking to the API server on another member (its own with nothing).",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(1, 2); err != nil {
				return nil, err
			}
			node, err := a.machine(c, 0)
			if err != nil {
				return nil, err
			}
			server := node
			if a.n() == 2 {
				if server, err = a.machine(c, 1); err != nil {
					return nil, err
				}
			}
			return Act{Action: raftcore.Action{Do: raftcore.DoDeployController, Node: node + 1, To: server + 1}}, nil
		}},
	{Name: "watch-cut", Example: "watch-cut C", Args: "[MACHINE]", Prose: true, Doc: "Cut the watch of every deployment controller, or of those on one machine: each informer waits its backoff, then lists again.",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(0, 1); err != nil {
				return nil, err
			}
			x := raftcore.Action{Do: raftcore.DoWatchCut}
			if a.n() == 1 {
				i, err := a.machine(c, 0)
				if err != nil {
					return nil, err
				}
				x.Node = i + 1
			}
			return Act{Action: x}, nil
		}},
	{Name: "reconcile", Example: "reconcile web", Args: "[NAME]", Prose: true, Doc: "Reconcile Deployment NAME (web with nothing) again on every deployment controller, from its cache as it is.",
		parse: func(_ *Context, a args) (Intent, error) {
			name, err := deploymentName(a)
			if err != nil {
				return nil, err
			}
			return Act{Action: raftcore.Action{Do: raftcore.DoReconcile, Key: raftcore.DeploymentPrefix + name}}, nil
		}},
	{Name: "act", Example: `act {"do":"heal"}`, Args: "JSON", Doc: "Record one action given as the schedule format writes it.", parse: func(_ *Context, a args) (Intent, error) {
		x, err := parseAction([]byte(a.rest))
		return Act{Action: x}, err
	}},
}

// DefaultDeployment is the Deployment apply and reconcile act on when
// they name none.
const DefaultDeployment = "web"

// DeploymentManifest is the value apply writes for Deployment name:
// three replicas of its first image.
func DeploymentManifest(name string) string { return "replicas=3 image=" + name + ":1" }

// deploymentName is the Deployment an apply or reconcile names, if any.
func deploymentName(a args) (string, error) {
	if err := a.want(0, 1); err != nil {
		return "", err
	}
	if a.n() == 0 {
		return DefaultDeployment, nil
	}
	name := a.at(0)
	if !isDNSSubdomain(name) {
		return "", fmt.Errorf("%s: %q is not a Deployment's name: as in Kubernetes, a name is lowercase letters, digits, '-' and '.', "+
			"each part between dots starting and ending with a letter or digit, at most 253 characters, such as web", a.cmd.Name, name)
	}
	return name, nil
}

// isDNSSubdomain reports whether name is what Kubernetes takes as a
// Deployment's name (an RFC 1123 subdomain): dot-separated parts of
// lowercase letters, digits and '-', each starting and ending with a
// letter or digit, 253 characters at most.
func isDNSSubdomain(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	for _, part := range strings.Split(name, ".") {
		if part == "" || !alnum(part[0]) || !alnum(part[len(part)-1]) {
			return false
		}
		for i := range len(part) {
			if c := part[i]; !alnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func parseRead(c *Context, a args) (Intent, error) {
	if err := a.want(1, 2); err != nil {
		return nil, err
	}
	i, err := a.machine(c, 0)
	if err != nil {
		return nil, err
	}
	in := ActOnMachine{Node: i, Verb: raftcore.DoRead}
	if a.n() == 2 {
		in.Mode = raftcore.ReadMode(strings.ToLower(a.at(1)))
		switch in.Mode {
		case raftcore.ReadLinearizable, raftcore.ReadLease, raftcore.ReadLocal:
		default:
			return nil, a.usage()
		}
	}
	return in, nil
}

// machineValue is a verb with a number acting on a machine.
func machineValue(c *Context, a args, verb raftcore.Verb, what string) (Intent, error) {
	if err := a.want(2, 2); err != nil {
		return nil, err
	}
	i, err := a.machine(c, 0)
	if err != nil {
		return nil, err
	}
	v, err := a.number(1, what)
	return ActOnMachine{Node: i, Verb: verb, Value: v}, err
}

// linkVerb cuts or restores the link named by the only argument.
func linkVerb(c *Context, a args, verb raftcore.Verb) (Intent, error) {
	if err := a.want(1, 1); err != nil {
		return nil, err
	}
	l, oneWay, back, err := a.link(c, 0)
	return ActOnLink{Link: l, Verb: verb, OneWay: oneWay, Back: back}, err
}

// bothWays is argument 0 read as a link both ways.
func bothWays(c *Context, a args) (viz.LinkID, error) {
	l, oneWay, _, err := a.link(c, 0)
	if err == nil && oneWay {
		err = fmt.Errorf("%s: the lab sets a link's delay and loss both ways: write %s", a.cmd.Name, Link(l, false, false))
	}
	return l, err
}

func parseLatency(c *Context, a args) (Intent, error) {
	if err := a.want(3, 3); err != nil {
		return nil, err
	}
	l, err := bothWays(c, a)
	if err != nil {
		return nil, err
	}
	lo, err := a.number(1, "a delay in milliseconds")
	if err != nil {
		return nil, err
	}
	hi, err := a.number(2, "a delay in milliseconds")
	return ActOnLink{Link: l, Verb: raftcore.DoLatency, LatencyMs: [2]float64{lo, hi}}, err
}

func parseLoss(c *Context, a args) (Intent, error) {
	if err := a.want(2, 2); err != nil {
		return nil, err
	}
	l, err := bothWays(c, a)
	if err != nil {
		return nil, err
	}
	p, err := a.number(1, "a share from 0 to 1")
	return ActOnLink{Link: l, Verb: raftcore.DoLoss, Loss: p}, err
}

// zoneVerbs are the verbs a zone takes, by the word for them.
var zoneVerbs = map[string]raftcore.Verb{
	"crash": raftcore.DoZoneCrash, "restart": raftcore.DoZoneRestart, "cut": raftcore.DoZoneCut, "heal": raftcore.DoZoneHeal,
}

func parseZone(_ *Context, a args) (Intent, error) {
	if err := a.want(2, 2); err != nil {
		return nil, err
	}
	v, ok := zoneVerbs[strings.ToLower(a.at(1))]
	if !ok {
		return nil, a.usage()
	}
	return ActOnZone{Zone: a.whole(0) - 1, Verb: v}, nil
}

// The setup, scenarios and sharing.
var setupCommands = []*Command{
	fixed("reset", "Start the run again with the same settings (a figure with its knobs as they are).", true, Restart{}),
	fixed("reseed", "Start the run again with the next seed.", false, Reseed{}),
	{Name: "knob", Example: "knob split 4/1", Args: "NAME VALUE", Prose: true, Doc: "Start the figure again with one of its knobs set (the value may hold spaces).",
		parse: func(_ *Context, a args) (Intent, error) {
			if a.n() < 2 {
				return nil, a.usage()
			}
			return SetKnob{Knob: a.at(0), Value: strings.Join(a.fields[1:], " ")}, nil
		}},
	{Name: "autoplay", Example: "autoplay on", Args: "on | off", Doc: "Have the app play the scenario's script from the start, or stop playing it.",
		parse: func(_ *Context, a args) (Intent, error) {
			if err := a.want(1, 1); err != nil {
				return nil, err
			}
			on, err := a.onOff(0, false)
			return SetAutoplay{On: on}, err
		}},
	{Name: "scenario", Example: "scenario majority", Args: "[ID]", Doc: "Start a scenario (nothing: free play).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(0, 1); err != nil {
			return nil, err
		}
		return StartScenario{ID: a.at(0)}, nil
	}},
	{Name: "nodes", Example: "nodes 5", Args: "N", Doc: "Start a free-play run of N machines (1 to 9).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		return SetNodes{Nodes: a.whole(0)}, nil
	}},
	{Name: "members", Example: "members 3", Args: "N", Doc: "Start a free-play run in which only N machines are in the cluster and the rest wait as spares (0: every machine).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		n, err := a.number(0, "a number of machines")
		if err != nil || n != float64(int(n)) {
			return nil, fmt.Errorf("members: %q is not a whole number of machines, as in members 3", a.at(0))
		}
		return SetMembers{Members: int(n)}, nil
	}},
	{Name: "protocol", Example: "protocol naive-copy", Args: "P", Doc: "Start a free-play run of a protocol (raft, naive-copy, failover).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		return SetProtocol{Protocol: a.at(0)}, nil
	}},
	{Name: "option", Example: "option prevote off", Args: "prevote | checkquorum on | off", Doc: "Start a free-play run with a Raft option on or off.", parse: parseOption},
	{Name: "set", Example: "set prevote off", Args: "prevote | checkquorum | idempotence | BUG on | off", Doc: "Change a Raft setting, deployment controllers' idempotence (or break a rule on purpose) from this moment on, keeping the run; in the past, fork it there.",
		parse: func(_ *Context, a args) (Intent, error) {
			if err := a.want(2, 2); err != nil {
				return nil, err
			}
			on, err := a.onOff(1, false)
			if err != nil {
				return nil, err
			}
			x := raftcore.Action{Do: raftcore.DoSet, Setting: strings.ToLower(a.at(0)), Value: "on"}
			if err := x.Validate(0); err != nil {
				return nil, fmt.Errorf("set: %v", err)
			}
			return ChangeSetting{Setting: x.Setting, On: on}, nil
		}},
	{Name: "election", Example: "election 20", Args: "TICKS", Doc: "Start the run again with an election timeout of TICKS ticks (2 to 100).", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		return SetElection{Ticks: a.whole(0)}, nil
	}},
	{Name: "snapshots", Example: "snapshots small", Args: "off | small | default", Doc: "Start the run again taking snapshots never, every " + strconv.Itoa(SmallSnapshots.Count) + " applied entries, or every " + strconv.Itoa(raftcore.DefaultSnapshotCount) + ".", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		c, ok := SnapshotChoice(strings.ToLower(a.at(0)))
		if !ok {
			return nil, fmt.Errorf("snapshots: use off, small or default, not %q", a.at(0))
		}
		return c, nil
	}},
	{Name: "theme", Example: "theme dark", Args: "light | dark", Doc: "Change the palette.", parse: func(_ *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		return SetTheme{Theme: frame.Theme(strings.ToLower(a.at(0)))}, nil
	}},
	fixed("lab", "Open the full lab at this moment of this run, in a new tab.", false, OpenInLab{}),
	fixed("copy-link", "Copy the share link of the run so far.", false, CopyLink{}),
	fixed("save-run", "Save the run as a schedule file.", false, SaveRun{}),
	fixed("save-trace", "Save the run's trace as a file.", false, SaveTrace{}),
	{Name: "save-picture", Example: "save-picture stage svg", Args: "[all | stage | PANEL] [png | svg]",
		Doc:   "Save the next frame as a picture: as the screen shows it, or, for a slide, the whole frame, the stage (machines and logs) or one panel, as a PNG at twice the size or as an SVG.",
		parse: parseSavePicture},
	{Name: "save-frames", Example: "save-frames 3 gif", Args: "[SECONDS] [svg | gif]",
		Doc:   "Save the stage over the last SECONDS of virtual time (3 unless given, up to 30), frame by frame: as SVG pictures in a zip file with a page that plays them, or as one animated GIF. An animation for a slide.",
		parse: parseSaveFrames},
	fixed("choose-run", "Ask for a schedule file to open.", false, ChooseRun{}),
	{Name: "import", Example: `import {"nodes":3,"actions":[]}`, Args: "JSON", Doc: "Open a schedule: its world, replayed to its end.", parse: func(_ *Context, a args) (Intent, error) {
		if a.rest == "" {
			return nil, a.usage()
		}
		return OpenRun{JSON: a.rest}, nil
	}},
}

// The length of an animation save-frames makes, in seconds of virtual
// time, unless given, and at most.
const (
	DefaultFrameSeconds = 3
	MaxFrameSeconds     = 30
)

func parseSaveFrames(_ *Context, a args) (Intent, error) {
	if err := a.want(0, 2); err != nil {
		return nil, err
	}
	in := SaveFrames{Seconds: DefaultFrameSeconds}
	rest := a.fields
	if n := len(rest); n > 0 && (strings.EqualFold(rest[n-1], "gif") || strings.EqualFold(rest[n-1], "svg")) {
		in.GIF = strings.EqualFold(rest[n-1], "gif")
		rest = rest[:n-1]
	}
	if len(rest) > 1 {
		return nil, a.usage()
	}
	if len(rest) == 1 {
		v, err := a.number(0, "seconds")
		if err == nil && (v <= 0 || v > MaxFrameSeconds) {
			err = fmt.Errorf("%s: %s seconds is out of range: use more than 0, up to %d", a.cmd.Name, a.at(0), MaxFrameSeconds)
		}
		if err != nil {
			return nil, err
		}
		in.Seconds = v
	}
	return in, nil
}

func parseSavePicture(_ *Context, a args) (Intent, error) {
	if err := a.want(0, 2); err != nil {
		return nil, err
	}
	if a.n() == 0 {
		return SavePicture{}, nil
	}
	in := SavePicture{Format: "png"}
	switch part := strings.ToLower(a.at(0)); part {
	case "all", "stage":
		in.Part.Kind = part
	default:
		k, err := a.panel(0)
		if err != nil {
			return nil, fmt.Errorf("%v, all or stage", err)
		}
		in.Part = PicturePart{Kind: "panel", Panel: k}
	}
	if a.n() == 2 {
		in.Format = strings.ToLower(a.at(1))
		if in.Format != "png" && in.Format != "svg" {
			return nil, fmt.Errorf("%s: %q is not a picture format; use png or svg", a.cmd.Name, a.at(1))
		}
	}
	return in, nil
}

func parseOption(_ *Context, a args) (Intent, error) {
	if err := a.want(2, 2); err != nil {
		return nil, err
	}
	on, err := a.onOff(1, false)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(a.at(0)) {
	case "prevote":
		return SetPreVote{On: on}, nil
	case "checkquorum":
		return SetCheckQuorum{On: on}, nil
	}
	return nil, fmt.Errorf("option: %q is not an option; use prevote or checkquorum", a.at(0))
}

// ExampleLine is a line of c: its Example, or its name when it takes
// nothing.
func (c *Command) ExampleLine() string {
	if c.Example != "" {
		return c.Example
	}
	return c.Name
}
