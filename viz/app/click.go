package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
)

// widgetAt is the id of the app control under p, topmost first.
func (a *App) widgetAt(p viz.Point) string {
	f := a.Frame()
	if f.Help != nil {
		return ""
	}
	if f.Menu != nil {
		for _, r := range f.Menu.Rows {
			for _, w := range r.Widgets {
				if w.Enabled && w.Rect.Contains(p) {
					return w.ID
				}
			}
		}
		if f.Menu.Rect.Contains(p) {
			return ""
		}
	}
	if f.Banner != nil && f.Banner.Close.Rect.Contains(p) {
		return idBannerClose
	}
	if f.Caption != nil {
		for _, r := range f.Caption.Rows {
			for _, w := range r.Widgets {
				if w.Enabled && w.Rect.Contains(p) {
					return w.ID
				}
			}
		}
	}
	for _, pv := range f.Panels {
		if !pv.Clip.Contains(p) && !pv.Folded {
			continue
		}
		for _, w := range pv.Widgets {
			if w.Enabled && w.Rect.Contains(p) {
				return w.ID
			}
		}
	}
	for _, w := range f.Tabs {
		if w.Rect.Contains(p) {
			return w.ID
		}
	}
	for _, w := range f.Toolbar {
		if w.Enabled && w.Rect.Contains(p) {
			return w.ID
		}
	}
	if b := f.Timeline.Button; b != nil && b.Rect.Contains(p) {
		return b.ID
	}
	return ""
}

// panelAt is the visible panel that holds p.
func (a *App) panelAt(p viz.Point) (viz.PanelKind, bool) {
	a.Frame()
	for _, pn := range a.panelRects {
		if pn.rect.Contains(p) {
			return pn.kind, true
		}
	}
	return 0, false
}

// Click presses the control with the given id, as a tap on it would.
func (a *App) Click(id string) error { return a.click(id) }

// click carries out a control by id. Menu items act on what the open menu
// is about.
func (a *App) click(id string) error {
	err := a.doClick(id)
	if err != nil {
		a.say(err.Error(), ToneBad, 6*time.Second)
	}
	a.changed()
	return err
}

func (a *App) doClick(id string) error {
	name, arg, _ := strings.Cut(id, ":")
	if strings.HasPrefix(id, cmdPrefix) {
		for c := viz.CmdPlayPause; c <= viz.CmdHelp; c++ {
			if c.String() == arg {
				return a.Command(c)
			}
		}
		return fmt.Errorf("click: no command %q", arg)
	}
	if strings.HasPrefix(id, tabPrefix) {
		for _, k := range viz.PanelKinds() {
			if k.Title() == arg {
				a.setTab(k)
				return nil
			}
		}
		return fmt.Errorf("click: no panel %q", arg)
	}
	switch {
	case id == idMenu:
		a.openMenu(menuState{kind: menuMain})
		return nil
	case id == "scenarios":
		a.openMenu(menuState{kind: menuScenarios})
		return nil
	case id == idBannerClose:
		a.banner = banner{}
		return nil
	case name == "open":
		for _, k := range viz.PanelKinds() {
			if k.Title() == arg {
				a.opened = k
				return nil
			}
		}
		return fmt.Errorf("click: no panel %q", arg)
	case id == "rules":
		a.showRules = !a.showRules
		return nil
	case id == "timeline.ghost":
		g, ok := a.hist.tl.Ghost()
		if !ok || !a.hist.tl.ReturnToGhost() {
			return fmt.Errorf("click %s: there is no other run to go back to", id)
		}
		a.cache = a.cache.forked(g.Fork.AtUs)
		a.paused = true
		a.afterWorldMoved()
		a.note("Back on the run you had left; the one you made is kept in its place.")
		return nil
	case name == "scenario":
		a.menu = menuState{}
		return a.SetScenario(arg)
	case id == "scenario.restart":
		return a.Reset()
	case id == "scenario.autoplay":
		if a.scen == nil {
			return fmt.Errorf("click %s: no scenario is playing", id)
		}
		if a.scen.autoplay {
			a.scen.autoplay = false
			return nil
		}
		// The script plays from the start.
		if err := a.restartScenario(); err != nil {
			return err
		}
		a.scen.autoplay, a.paused = true, false
		return nil
	case name == "knob":
		k, v, _ := strings.Cut(arg, "=")
		return a.setKnob(k, v)
	case strings.HasPrefix(id, "node."):
		return a.nodeItem(strings.TrimPrefix(name, "node."), arg)
	case strings.HasPrefix(id, "link."):
		return a.linkItem(strings.TrimPrefix(name, "link."), arg)
	case id == "msg.drop":
		m := a.menu.msg
		a.menu = menuState{}
		if err := a.act(raftcore.Action{Do: raftcore.DoDrop, ID: m}); err != nil {
			return fmt.Errorf("that message has already arrived")
		}
		a.note("Message #" + utoa(m) + " dropped: it falls away and never arrives.")
		return nil
	}
	return a.setupItem(name, arg, id)
}

func (a *App) nodeItem(what, arg string) error {
	if a.menu.kind != menuNode {
		if a.selected < 0 {
			return fmt.Errorf("click node.%s: no machine is selected", what)
		}
		a.menu = menuState{kind: menuNode, node: a.selected}
	}
	i := a.menu.node
	node := i + 1
	name := a.cfg.Name(nodeID(i))
	switch what {
	case "pause", "resume", "crash", "restart", "timeout":
		x := raftcore.Action{Do: raftcore.Verb(what), Node: node}
		if err := a.act(x); err != nil {
			return err
		}
		a.note(describeAction(a.cfg, x) + ".")
	case "slow", "drift":
		f, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return fmt.Errorf("click node.%s: %q is not a number", what, arg)
		}
		x := raftcore.Action{Do: raftcore.DoSlow, Node: node, MsPerMessage: f}
		if what == "drift" {
			x = raftcore.Action{Do: raftcore.DoDrift, Node: node, Rate: f}
		}
		if err := a.act(x); err != nil {
			return err
		}
		a.note(describeAction(a.cfg, x) + ".")
	case "write":
		return a.act(a.nextWrite(i))
	case "read":
		mode := arg
		if mode == "" {
			mode = string(a.readMode)
		}
		if err := a.act(raftcore.Action{Do: raftcore.DoRead, Node: node, Key: a.questionKey(), Mode: raftcore.ReadMode(mode)}); err != nil {
			return err
		}
	case "isolate":
		a.menu = menuState{}
		return a.isolate(i)
	case "reconnect":
		a.menu = menuState{}
		return a.reconnect(i)
	default:
		return fmt.Errorf("click: no machine action %q for %s", what, name)
	}
	return nil
}

func (a *App) linkItem(what, arg string) error {
	if a.menu.kind != menuLink {
		return fmt.Errorf("click link.%s: no link is open", what)
	}
	l := a.menu.link
	i, j := l.I+1, l.J+1
	w := a.World()
	var x raftcore.Action
	switch what {
	case "cut", "restore":
		x = raftcore.Action{Do: raftcore.Verb(what), From: i, To: j}
	case "ij", "ji":
		from, to := i, j
		if what == "ji" {
			from, to = j, i
		}
		do := raftcore.DoCut
		if !w.Link(raftcore.NodeID(from), raftcore.NodeID(to)).Up {
			do = raftcore.DoRestore
		}
		x = raftcore.Action{Do: do, From: from, To: to, OneWay: true}
	case "latency":
		lo, hi, ok := strings.Cut(arg, "-")
		a1, e1 := strconv.ParseFloat(lo, 64)
		a2, e2 := strconv.ParseFloat(hi, 64)
		if !ok || e1 != nil || e2 != nil {
			return fmt.Errorf("click link.latency: want min-max in ms, got %q", arg)
		}
		x = raftcore.Action{Do: raftcore.DoLatency, From: i, To: j, LatencyMs: []float64{a1, a2}}
	case "loss":
		p, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return fmt.Errorf("click link.loss: %q is not a number", arg)
		}
		x = raftcore.Action{Do: raftcore.DoLoss, From: i, To: j, Loss: &p}
	default:
		return fmt.Errorf("click: no link action %q", what)
	}
	if err := a.act(x); err != nil {
		return err
	}
	a.note(describeAction(a.cfg, x) + ".")
	return nil
}

// setupItem handles the setup menu: cluster size, protocol, options,
// theme and sharing.
func (a *App) setupItem(name, arg, id string) error {
	p := a.params
	switch name {
	case "nodes":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > viz.MaxNodes {
			return fmt.Errorf("nodes: use 1 to %d", viz.MaxNodes)
		}
		p.Nodes = n
	case "protocol":
		if _, err := raftcore.ParseProtocol(arg); err != nil {
			return fmt.Errorf("protocol: %v", err)
		}
		p.Protocol = arg
	case "prevote":
		p.PreVote = !p.PreVote
	case "checkquorum":
		p.CheckQuorum = !p.CheckQuorum
	case "election":
		t, err := strconv.Atoi(arg)
		if err != nil || t < 2 || t > 100 {
			return fmt.Errorf("election: use 2 to 100 ticks")
		}
		a.cfg.ElectionTicks = t
	case "theme":
		if arg != string(ThemeLight) && arg != string(ThemeDark) {
			return fmt.Errorf("theme: use light or dark")
		}
		a.theme = Theme(arg)
		a.params.Theme = arg
		return nil
	case "reset":
		return a.Reset()
	case "reseed":
		a.params.Seed++
		return a.Reset()
	case "share.link":
		a.effects = append(a.effects, Effect{Kind: EffectCopy, Text: a.ShareLink()})
		a.note("Link copied. It replays this run up to now.")
		return nil
	case "share.schedule":
		data, err := a.ExportSchedule()
		if err != nil {
			return err
		}
		a.effects = append(a.effects, Effect{Kind: EffectSave, Name: "raftlab-run.json", Data: data})
		return nil
	case "share.trace":
		data, err := a.ExportTrace()
		if err != nil {
			return err
		}
		a.effects = append(a.effects, Effect{Kind: EffectSave, Name: "raftlab-trace.json", Data: data})
		return nil
	case "share.png":
		a.menu = menuState{}
		a.effects = append(a.effects, Effect{Kind: EffectScreenshot, Name: "raftlab.png"})
		return nil
	case "share.import":
		a.effects = append(a.effects, Effect{Kind: EffectOpen})
		return nil
	default:
		return fmt.Errorf("click: no control %q", id)
	}
	if name != "election" {
		p.Scenario = ""
		a.params = p
	}
	return a.Reset()
}
