package scene

import (
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/stage"
	"raftlab/viz/words"
)

// captionWord is the widest word a machine's first line under its disc
// may say (a role of the protocol, or Crashed or Paused), and the widest
// of their short forms.
func (b *Builder) captionWord() (word, short string) {
	roles := []raftcore.Role{raftcore.RoleFollower, raftcore.RoleCandidate, raftcore.RoleLeader}
	switch b.cfg().Protocol {
	case raftcore.ProtocolNaiveCopy:
		roles = []raftcore.Role{raftcore.RoleReplica}
	case raftcore.ProtocolFailover:
		roles = []raftcore.Role{raftcore.RoleLeader, raftcore.RoleFollower}
	default:
		if b.cfg().PreVote || b.World().Settings().PreVote {
			roles = append(roles, raftcore.RolePreCandidate)
		}
	}
	said := []string{words.Crashed, words.Paused}
	for _, r := range roles {
		said = append(said, words.Capital(b.Voice().RoleWord(r)))
	}
	for _, w := range said {
		if b.Measure(w, SizeSmall) > b.Measure(word, SizeSmall) {
			word = w
		}
		if s := shortWord(w); b.Measure(s, SizeSmall) > b.Measure(short, SizeSmall) {
			short = s
		}
	}
	return word, short
}

// shortLetters is how many letters a role word keeps in its short form.
const shortLetters = 8

// shortWord is the short form of a role word that is too wide for the
// room under a crowded machine: its first letters and a full stop
// ("Pre-cand."). Short words are their own short form.
func shortWord(w string) string {
	r := []rune(w)
	if len(r) <= shortLetters+1 {
		return w
	}
	return string(r[:shortLetters]) + "."
}

// fitRole is the role line that fits room at size: the line itself, else
// the short form of its role word, else nothing (the machine's shape and
// colour still say its role), so that no word runs into a neighbour.
func (b *Builder) fitRole(line string, room, size float64) string {
	if b.Measure(line, size) <= room+1e-6 {
		return line
	}
	if s := shortWord(line); b.Measure(s, size) <= room+1e-6 {
		return s
	}
	return ""
}

// StageInput is what the stage's layout depends on, for the parts: the
// machines' names and words, the toolbar's buttons, the panel in front,
// the world's zones or the partition's sides, and the room an embedded
// figure's words leave.
func (b *Builder) StageInput(p Parts) stage.Input {
	b.Parts = p
	w := b.World()
	in := stage.Input{Names: b.machineNames(), Buttons: b.toolbarCommands(), Panels: !b.Params.Embed, OnePanel: b.Params.Present,
		Tab: b.View.Tab(), Figure: b.Figure(), Measure: b.Measure}
	in.Caption, in.Short = b.captionWord()
	in.Workers = b.cfg().Workers
	if w.HasZones() {
		in.WorldZones = make([]int, w.Size())
		for i := range in.WorldZones {
			in.WorldZones[i] = w.ZoneOf(nodeID(i))
		}
		in.ZoneCount = len(w.Config().Zones)
	} else {
		in.Sides = b.Session.Sides()
		in.Spares = b.spares()
	}
	in.W, in.H = b.room()
	if b.ownLogs() {
		in.Logs = b.ownLogsRoom(b.figureGeom().Panel)
	}
	return in
}

// machineNames are the machines' names, by layout index.
func (b *Builder) machineNames() []string {
	ns := make([]string, b.World().Size())
	for i := range ns {
		ns[i] = b.cfg().Name(nodeID(i))
	}
	return ns
}

// room is the room the stage's machines, logs, panels and controls have
// on the canvas: all of it, less an embedded figure's words and panel, or
// an embedded run's caption (a column on the right of a wide canvas, else
// a strip at the bottom).
func (b *Builder) room() (w, h float64) {
	w, h = b.Stage.W(), b.Stage.H()
	switch {
	case b.Figure():
		g := b.figureGeom()
		return g.Stage.W, g.Stage.H
	case b.Params.Embed:
		if cw := b.captionColumn(); cw > 0 {
			return w - cw, h
		}
		return w, max(h-b.captionHeight(), min(h, 200))
	}
	return w, h
}

// toolbarCommands are the toolbar's buttons. A narrow screen keeps the
// ones a finger needs and leaves room for the menu button; the keys still
// do the rest. An embedded figure has its own controls instead; an
// embedded run keeps time, a client write and healing.
func (b *Builder) toolbarCommands() []viz.Command {
	switch {
	case b.Figure():
		return []viz.Command{}
	case b.Params.Embed:
		return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdHelp}
	case b.Stage.W() < 560:
		return []viz.Command{viz.CmdPlayPause, viz.CmdStepBack, viz.CmdStep, viz.CmdClientWrite, viz.CmdHeal, viz.CmdResumeAll, viz.CmdHelp}
	}
	return viz.DefaultToolbar()
}
