package app

import (
	"raftlab/raftcore"
	"raftlab/viz/app/stage"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"strconv"
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
	sc := words.Scene{Machines: a.allMachines(), Leader: raftcore.None, Violations: len(w.Violations())}
	if a.scen() != nil {
		sc.Title = a.scen().Spec().Title
	}
	for _, id := range sc.Machines {
		switch w.Status(id) {
		case raftcore.StatusCrashed:
			sc.Crashed = append(sc.Crashed, id)
		case raftcore.StatusPaused:
			sc.Paused = append(sc.Paused, id)
		}
	}
	if l := a.leader(); l >= 0 {
		sc.Leader, sc.Term = nodeID(l), w.Node(nodeID(l)).Term()
	}
	for _, id := range a.actingLeaders() {
		if id != sc.Leader {
			sc.Believers = append(sc.Believers, words.Believer{Node: id, Term: w.Node(id).Term()})
		}
	}
	a.describeNetwork(&sc)
	a.describeCommit(&sc)
	a.describeWorkers(&sc)
	sc.Controllers, sc.NowUs, sc.CreatedTwice = w.DeploymentControllers(), w.Now(), w.ReconcileCounts().Duplicates
	return a.voice().Describe(sc)
}

// describeWorkers tells sc of the worker machines: each one's condition,
// its kubelet's state and the members it is cut from, and the node
// lifecycle controller's zone state.
func (a *App) describeWorkers(sc *words.Scene) {
	w := a.World()
	sum, ok := w.Kube()
	if !ok {
		return
	}
	sc.Zone = sum.Zone
	for _, n := range sum.Nodes {
		ws := words.WorkerSaid{Name: n.Name, Condition: words.NodeCondition(n.NotReady), Kubelet: n.Status}
		for i := 0; i < w.Size(); i++ {
			if !w.Link(nodeID(i), n.ID).Up || !w.Link(n.ID, nodeID(i)).Up {
				ws.CutFrom = append(ws.CutFrom, nodeID(i))
			}
		}
		sc.Workers = append(sc.Workers, ws)
	}
}

// actingLeaders are the running machines that act as leader: the leader
// and any old one that has not heard of it yet; the failover's
// authorities.
func (a *App) actingLeaders() []raftcore.NodeID {
	w := a.World()
	var out []raftcore.NodeID
	for i := 0; i < w.Size(); i++ {
		id := nodeID(i)
		if w.Status(id) == raftcore.StatusUp && w.Node(id).Role() == raftcore.RoleLeader {
			out = append(out, id)
		}
	}
	return out
}

// describeNetwork tells sc how the network is split: the sides of a
// partition, or the links that are cut.
func (a *App) describeNetwork(sc *words.Scene) {
	w := a.World()
	if a.stage.Mode() == stage.ZonesPartition && len(a.stage.Sides()) > 1 {
		for _, g := range a.stage.Sides() {
			ids := make([]raftcore.NodeID, len(g))
			for j, i := range g {
				ids[j] = nodeID(i)
			}
			sc.Sides = append(sc.Sides, ids)
		}
		return
	}
	for i := 0; i < w.Size(); i++ {
		for j := i + 1; j < w.Size(); j++ {
			ij, ji := w.Link(nodeID(i), nodeID(j)).Up, w.Link(nodeID(j), nodeID(i)).Up
			switch {
			case !ij && !ji:
				sc.Cut = append(sc.Cut, words.CutLink{From: nodeID(i), To: nodeID(j)})
			case !ij:
				sc.Cut = append(sc.Cut, words.CutLink{From: nodeID(i), To: nodeID(j), OneWay: true})
			case !ji:
				sc.Cut = append(sc.Cut, words.CutLink{From: nodeID(j), To: nodeID(i), OneWay: true})
			}
		}
	}
}

// describeCommit tells sc how far the log is committed, as the leader
// knows it (or the machine that knows most), and who does not know it
// yet.
func (a *App) describeCommit(sc *words.Scene) {
	w := a.World()
	var top uint64
	if l := a.leader(); l >= 0 {
		top = w.Node(nodeID(l)).Commit()
	} else {
		for i := 0; i < w.Size(); i++ {
			top = max(top, w.Node(nodeID(i)).Commit())
		}
	}
	sc.Committed = top
	for i := 0; i < w.Size(); i++ {
		if w.Node(nodeID(i)).Commit() < top {
			sc.Behind = append(sc.Behind, nodeID(i))
		}
	}
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
	if a.cfg().Protocol == raftcore.ProtocolFailover {
		// Authorities do not take turns: a second one does not replace
		// the first, so the set is told, not the first.
		acting := a.actingLeaders()
		var mask uint64
		for _, id := range acting {
			mask |= 1 << uint(id)
		}
		if mask != wt.Acting {
			announce(a.voice().AuthoritiesNow(acting))
			wt.Acting = mask
		}
	} else if leader != wt.Leader || term != wt.Term {
		switch {
		case leader >= 0:
			announce(a.voice().NowLeads(a.cfg().Name(nodeID(leader)), term))
		case wt.Leader >= 0:
			announce(a.voice().NoLeader())
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
				announce(words.StepAnnounced(step+1, r.Tracker().StepCount(), text))
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
			announce(words.RuleBrokenAnnounced(v.Text))
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
