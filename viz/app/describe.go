package app

import (
	"raftlab/raftcore"
	"raftlab/viz/app/stage"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"strconv"
	"strings"
)

// A canvas says nothing to a reader who cannot see it. With
// Options.Describe the app keeps a short text of what the figure shows
// (who leads, which sides the network is split into, what is committed)
// and hands it to its host whenever it changes, with one line for each
// notable event (a new leader, the story's next step, the note an action
// leaves, a broken safety rule) for the page to announce.

// told is what the description and the note last said, so that only
// changes are handed on; what was told of the world itself (its leader,
// its step, its broken rules) is the session's (session.Told), and goes
// with its world.
type told struct {
	version uint64 // the app's version when last told
	started bool   // anything was told: the first telling announces nothing
	text    string
	banner  string
}

// Describe is the figure's state in a few plain sentences.
func (a *App) Describe() string {
	w := a.World()
	var b strings.Builder
	sentence := func(parts ...string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	if a.scen() != nil {
		sentence(a.scen().Spec().Title, ".")
	}
	names := a.machineNames()
	sentence(strconv.Itoa(w.Size()), " machines: ", words.NameList(*a.cfg(), a.allMachines()), ".")
	var crashed, paused []raftcore.NodeID
	for i := 0; i < w.Size(); i++ {
		switch w.Status(nodeID(i)) {
		case raftcore.StatusCrashed:
			crashed = append(crashed, nodeID(i))
		case raftcore.StatusPaused:
			paused = append(paused, nodeID(i))
		}
	}
	if len(crashed) > 0 {
		sentence(words.NameList(*a.cfg(), crashed), isAre(len(crashed)), " crashed.")
	}
	if len(paused) > 0 {
		sentence(words.NameList(*a.cfg(), paused), isAre(len(paused)), " paused.")
	}
	if l := a.leader(); l >= 0 {
		sentence(names[l], " leads", a.voice().TermSuffix(w.Node(nodeID(l)).Term()), ".")
	} else {
		sentence("No machine leads.")
	}
	sentence(a.describeNetwork(names))
	sentence(a.describeCommit())
	if v := len(w.Violations()); v > 0 {
		sentence(strconv.Itoa(v), " safety ", words.Plural(v, "rule", "rules"), " broken.")
	}
	return b.String()
}

// describeNetwork says how the network is split: the sides of a
// partition, or the links that are cut.
func (a *App) describeNetwork(names []string) string {
	w := a.World()
	if a.stage.Mode() == stage.ZonesPartition && len(a.stage.Sides()) > 1 {
		sides := make([]string, len(a.stage.Sides()))
		for k, g := range a.stage.Sides() {
			ids := make([]raftcore.NodeID, len(g))
			for j, i := range g {
				ids[j] = nodeID(i)
			}
			sides[k] = words.NameList(*a.cfg(), ids)
		}
		return "The network is split into " + strconv.Itoa(len(sides)) + " sides: " + strings.Join(sides, "; ") + "."
	}
	var cut []string
	for i := 0; i < w.Size(); i++ {
		for j := i + 1; j < w.Size(); j++ {
			ij, ji := w.Link(nodeID(i), nodeID(j)).Up, w.Link(nodeID(j), nodeID(i)).Up
			switch {
			case !ij && !ji:
				cut = append(cut, names[i]+"–"+names[j])
			case !ij:
				cut = append(cut, names[i]+"→"+names[j])
			case !ji:
				cut = append(cut, names[j]+"→"+names[i])
			}
		}
	}
	if len(cut) == 0 {
		return "Every link is up."
	}
	return "Cut " + words.Plural(len(cut), "link", "links") + ": " + strings.Join(cut, ", ") + "."
}

// describeCommit says how far the log is committed, as the leader knows
// it (or the machine that knows most), and who does not know it yet.
func (a *App) describeCommit() string {
	w := a.World()
	var top uint64
	if l := a.leader(); l >= 0 {
		top = w.Node(nodeID(l)).Commit()
	} else {
		for i := 0; i < w.Size(); i++ {
			top = max(top, w.Node(nodeID(i)).Commit())
		}
	}
	if top == 0 {
		return "Nothing is committed yet."
	}
	s := "Committed: entries 1 to " + words.Utoa(top) + "."
	if top == 1 {
		s = "Committed: entry 1."
	}
	var behind []raftcore.NodeID
	for i := 0; i < w.Size(); i++ {
		if w.Node(nodeID(i)).Commit() < top {
			behind = append(behind, nodeID(i))
		}
	}
	if len(behind) > 0 && len(behind) < w.Size() {
		s += " " + words.NameList(*a.cfg(), behind) + " " + words.Plural(len(behind), "does", "do") + " not know it yet."
	}
	return s
}

// describeEffects hands the host the description when it changed since it
// was last told, and an announcement for each notable event since then.
// It looks only when the app changed at all.
func (a *App) describeEffects() {
	t, wt := &a.told, a.session.Told()
	if t.started && t.version == a.version {
		return
	}
	first := !t.started
	t.started, t.version = true, a.version
	w := a.World()
	announce := func(text string) {
		if !first && text != "" {
			a.effects = append(a.effects, frame.Effect{Kind: frame.EffectAnnounce, Text: text})
		}
	}
	leader, term := a.leader(), uint64(0)
	if leader >= 0 {
		term = w.Node(nodeID(leader)).Term()
	}
	if leader != wt.Leader || term != wt.Term {
		switch {
		case leader >= 0:
			announce(a.cfg().Name(nodeID(leader)) + " now leads" + a.voice().TermSuffix(term) + ".")
		case wt.Leader >= 0:
			announce("No machine leads now.")
		}
		wt.Leader, wt.Term = leader, term
	}
	if r := a.scen(); r != nil {
		step := r.Step()
		if r.ShownDone() {
			step = r.Tracker().StepCount()
		}
		if first || step != wt.Step {
			text := r.Tracker().TextOf(step)
			if step >= r.Tracker().StepCount() {
				text = r.Tracker().Final()
			}
			wt.StepName, wt.StepText = strconv.Itoa(step+1)+"/"+strconv.Itoa(r.Tracker().StepCount()), text
			a.effects = append(a.effects, frame.Effect{Kind: frame.EffectStep, Name: wt.StepName, Text: text})
			if step < r.Tracker().StepCount() {
				announce("Step " + strconv.Itoa(step+1) + " of " + strconv.Itoa(r.Tracker().StepCount()) + ": " + text)
			} else {
				announce(text)
			}
			wt.Step = step
		}
	}
	if bt := a.voice().Banner(a.view.Banner().Text); bt != t.banner {
		announce(bt)
		t.banner = bt
	}
	if vs := w.Violations(); len(vs) > wt.Broken {
		for _, v := range vs[wt.Broken:] {
			announce("Safety rule broken: " + v.Text)
		}
		wt.Broken = len(vs)
	} else if len(vs) < wt.Broken {
		wt.Broken = len(vs) // stepped back before the break
	}
	if text := a.Describe(); text != t.text {
		t.text = text
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectDescribe, Text: text})
	}
}

// TakeEffects returns and forgets the host requests made since last time:
// with Options.Describe, the description and announcements too, which the
// host thereby takes once a tick at most.
func (a *App) TakeEffects() []frame.Effect {
	if a.opts.Describe {
		a.describeEffects()
	}
	e := a.effects
	a.effects = nil
	return e
}

// StepTold is the story's step last handed on as EffectStep ("N/M" and
// its words), for a host that starts to listen after it was: "" before
// any, and in free play.
func (a *App) StepTold() (name, text string) {
	wt := a.session.Told()
	return wt.StepName, wt.StepText
}

func isAre(n int) string { return words.Plural(n, " is", " are") }
