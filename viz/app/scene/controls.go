package scene

import (
	"math"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

var cmdIcons = map[viz.Command]string{
	viz.CmdPlayPause: "play", viz.CmdStep: "step", viz.CmdStepBack: "back",
	viz.CmdPrevEvent: "prev", viz.CmdNextEvent: "next", viz.CmdClientWrite: "write",
	viz.CmdRestartLeader: "restart", viz.CmdSpreadTimers: "spread", viz.CmdAlignTimers: "align",
	viz.CmdSplitVote: "split", viz.CmdResumeAll: "resume", viz.CmdHeal: "heal", viz.CmdHelp: "help",
}

// Widget ids of the app's own controls.
const (
	IDMenu        = "menu"
	IDBannerClose = "banner.close"
	CmdPrefix     = "cmd:"
	TabPrefix     = "tab:"
)

// buttonTip says what a toolbar button does, with its key.
func (b *Builder) buttonTip(c viz.Command, paused bool) string {
	kb, ok := c.Binding()
	desc := b.keyDesc(c)
	switch c {
	case viz.CmdPlayPause:
		desc = words.PlayPause(paused)
	case viz.CmdClientWrite:
		desc = b.Voice().WriteTip()
	}
	if ok {
		return words.WithKey(desc, kb.Label)
	}
	return desc
}

// keyDesc is KeyDesc in the words on screen.
func (b *Builder) keyDesc(c viz.Command) string { return b.Voice().Key(KeyDesc(c)) }

// keyDescs say what each command of a key or a button does.
var keyDescs = map[viz.Command]string{
	viz.CmdPlayPause: words.KeyPlayPause, viz.CmdStep: words.KeyStep, viz.CmdStepBack: words.KeyStepBack,
	viz.CmdPrevEvent: words.KeyPrevEvent, viz.CmdNextEvent: words.KeyNextEvent, viz.CmdClientWrite: words.KeyClientWrite,
	viz.CmdRestartLeader: words.KeyRestartLeader, viz.CmdSpreadTimers: words.KeySpreadTimers, viz.CmdAlignTimers: words.KeyAlignTimers,
	viz.CmdSplitVote: words.KeySplitVote, viz.CmdResumeAll: words.KeyResumeAll, viz.CmdHeal: words.KeyHeal, viz.CmdHelp: words.KeyHelp,
	viz.CmdPresent: words.KeyPresent,
}

// KeyDesc is what command c, a key's and a button's, does, in one line
// ("" for none).
func KeyDesc(c viz.Command) string { return keyDescs[c] }

func (b *Builder) buildToolbar() {
	f := &b.frame
	f.Toolbar = f.Toolbar[:0]
	var right float64
	for _, btn := range b.lay().Buttons {
		icon := cmdIcons[btn.Cmd]
		on := false
		if btn.Cmd == viz.CmdPlayPause {
			if !b.Clock.Paused() {
				icon = "pause"
			}
			on = !b.Clock.Paused()
		}
		if btn.Cmd == viz.CmdHelp {
			on = b.View.Help()
		}
		f.Toolbar = append(f.Toolbar, frame.Widget{ID: CmdPrefix + btn.Cmd.String(), Kind: frame.WidgetIcon, Rect: btn.Rect, Icon: icon, On: on, Enabled: true, Label: b.buttonTip(btn.Cmd, b.Clock.Paused()),
			Do: command.ToolbarLine(btn.Cmd)})
		right = max(right, btn.Rect.Right())
	}
	tb := b.lay().Toolbar
	gap := 4.0
	bh, by, pad := 0.0, tb.Y, gap
	if len(b.lay().Buttons) > 0 {
		first := b.lay().Buttons[0].Rect
		bh, by, pad = first.H, first.Y, first.X-tb.X
	}
	end := tb.Right() - pad
	// The speed slider shares the buttons' row on a wide canvas.
	if b.lay().Speed.Y < by+bh && b.lay().Speed.Bottom() > by {
		end = b.lay().Speed.X - 2*gap
	}
	f.Status = frame.TextItem{}
	if !b.Params.Embed && bh > 0 {
		x := right + gap
		label := words.SetupMenu
		wide := b.Measure(label, SizeBody) + 24
		if end-x >= wide+40 {
			f.Toolbar = append(f.Toolbar, frame.Widget{ID: IDMenu, Kind: frame.WidgetButton, Rect: viz.XYWH(x, by, wide, bh), Label: label, Enabled: true, On: b.View.Menu().Kind == view.MenuMain || b.View.Menu().Kind == view.MenuScenarios, Size: SizeBody,
				Do: "open setup"})
			x += wide + gap
		} else if end-x >= bh {
			f.Toolbar = append(f.Toolbar, frame.Widget{ID: IDMenu, Kind: frame.WidgetIcon, Rect: viz.XYWH(x, by, bh, bh), Icon: "menu", Label: words.SetupMenuIcon, Enabled: true, On: b.View.Menu().Kind == view.MenuMain || b.View.Menu().Kind == view.MenuScenarios,
				Do: "open setup"})
			x += bh + gap
		}
		b.noteSlot = viz.XYWH(x, by, max(end-x, 0), bh)
		if status := b.statusLine(); end-x >= b.Measure(status, SizeBody)+4 {
			f.Status = frame.TextItem{Text: status, X: x, Y: by + (bh-SizeBody)/2 - 1, Size: SizeBody, Tone: frame.ToneMuted}
		}
	} else {
		b.noteSlot = viz.Rect{}
	}
	// Speed slider: its value on the left, the track on the right.
	s := b.lay().Speed
	label := words.Speed(viz.FormatSpeed(b.Clock.Speed()))
	lw := b.Measure(words.WidestSpeed, SizeSmall) + 8
	f.Speed = frame.SliderView{Rect: s, Frac: viz.SliderPos(b.Clock.Speed())}
	if s.W > lw+40 {
		f.Speed.Track = viz.XYWH(s.X+lw, s.Y+s.H/2-3, s.W-lw-8, 6)
		f.Speed.Label = frame.TextItem{Text: label, X: s.X + 2, Y: s.Y + (s.H-SizeSmall)/2 - 1, Size: SizeSmall, Tone: frame.ToneText}
	} else {
		f.Speed.Track = viz.XYWH(s.X+4, s.Y+s.H/2-3, s.W-8, 6)
	}
}

// statusLine sums up the run: time, and who leads.
func (b *Builder) statusLine() string {
	w := b.World()
	s := words.RunState{NowUs: w.Now(), Paused: b.Clock.Paused(), Seconds: b.SecondsClock()}
	if l := b.leader(); l >= 0 {
		s.Leader, s.Term = b.cfg().Name(nodeID(l)), w.Node(nodeID(l)).Term()
	}
	for i := 0; i < w.Size(); i++ {
		if w.Status(nodeID(i)) == raftcore.StatusUp && w.Node(nodeID(i)).Role() == raftcore.RoleLeader {
			s.Authorities++
		}
	}
	return b.Voice().StatusLine(s)
}

// buildTimeline lays out the time line under the stage: the time shown,
// its buttons, the track with the run's length and its marks.
func (b *Builder) buildTimeline() {
	f := &b.frame
	r := b.lay().Timeline
	tl := &f.Timeline
	tl.Rect = r
	tl.Marks = tl.Marks[:0]
	if r.W <= 0 || r.H <= 0 {
		return
	}
	head := b.Session.HeadUs()
	now := b.Session.NowUs()
	left := words.ClockIn(now, b.SecondsClock())
	lw := b.Measure(words.WidestNow, SizeSmall) + 12
	rw := b.Measure(words.WidestLength, SizeSmall) + 12
	rw += b.timelineButtons(tl, r, r.W-lw-rw)
	tl.Track = viz.XYWH(r.X+lw, r.Y+r.H/2-4, r.W-lw-rw, 8)
	span := float64(max(head, 1_000_000))
	tl.Head = float64(head) / span
	tl.Now = float64(now) / span
	tl.Left = frame.TextItem{Text: left, X: r.X + 6, Y: r.Y + (r.H-SizeSmall)/2 - 1, Size: SizeSmall, Tone: frame.ToneText, Bold: true}
	right := words.OfLength(head, b.SecondsClock())
	if b.Session.AtHead() {
		right = words.Live
	}
	tl.Right = frame.TextItem{Text: right, X: tl.Track.Right() + 8, Y: r.Y + (r.H-SizeSmall)/2 - 1, Size: SizeSmall, Tone: frame.ToneMuted}
	b.timelineMarks(tl, span)
}

// timelineButtons puts the buttons at the right end of the time line r:
// back to the live end while the stage replays the past, and back to the
// run abandoned by acting in the past, in their short words when the
// long ones would leave the track, room wide, too short. It returns the
// width they take.
func (b *Builder) timelineButtons(tl *frame.TimelineView, r viz.Rect, room float64) float64 {
	tl.Buttons = tl.Buttons[:0]
	type want struct {
		id, long, short string
		do              string
	}
	var wants []want
	if !b.Session.AtHead() {
		wants = append(wants, want{IDLive, words.BackToLive, words.LiveShort, "live"})
	}
	if _, ok := b.Session.Timeline().Ghost(); ok {
		wants = append(wants, want{"timeline.ghost", words.BackToOther, words.OtherShort, "other-run"})
	}
	widths := func(short bool) (ws []float64, sum float64) {
		for _, w := range wants {
			l := w.long
			if short {
				l = w.short
			}
			ws = append(ws, b.widgetWidth(l, SizeSmall))
			sum += ws[len(ws)-1] + 6
		}
		return ws, sum
	}
	short := false
	ws, sum := widths(false)
	if room-sum < 80 {
		short = true
		ws, sum = widths(true)
	}
	bh := math.Min(r.H-8, 26)
	x := r.Right() - sum
	for i, w := range wants {
		label := w.long
		if short {
			label = w.short
		}
		tl.Buttons = append(tl.Buttons, frame.Widget{ID: w.id, Kind: frame.WidgetButton, Label: label, Enabled: true, Size: SizeSmall, Do: w.do,
			Rect: viz.XYWH(x, r.Y+(r.H-bh)/2, ws[i], bh)})
		x += ws[i] + 6
	}
	return sum
}

// timelineMarks places the run's marks along the track, span long.
// Marks closer than 3 pixels would draw on top of each other; it keeps
// the most telling one of each cluster.
func (b *Builder) timelineMarks(tl *frame.TimelineView, span float64) {
	lastX := -10.0
	var lastKind timeline.MarkKind
	for k, m := range b.Session.Marks() {
		x := tl.Track.X + float64(m.At.AtUs)/span*tl.Track.W
		if x-lastX < 3 && len(tl.Marks) > 0 {
			prev := &tl.Marks[len(tl.Marks)-1]
			// Later kinds are the more important ones.
			if m.Kind > lastKind {
				*prev, lastKind = markView(prev.X, k, m), m.Kind
			}
			continue
		}
		tl.Marks = append(tl.Marks, markView(x, k, m))
		lastX, lastKind = x, m.Kind
	}
}

// markView is mark m, the run's k-th, drawn at x.
func markView(x float64, k int, m timeline.Mark) frame.MarkView {
	return frame.MarkView{X: x, Tone: markTone(m.Kind), Source: k, Major: m.Kind >= timeline.MarkFault}
}

func markTone(k timeline.MarkKind) frame.Tone {
	switch k {
	case timeline.MarkElection:
		return frame.ToneLeader
	case timeline.MarkCommit:
		return frame.ToneGood
	case timeline.MarkViolation:
		return frame.ToneBad
	case timeline.MarkClient:
		return frame.ToneClient
	case timeline.MarkRestore:
		return frame.ToneSnap
	}
	return frame.ToneAccent
}
