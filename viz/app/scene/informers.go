package scene

import (
	"math"
	"slices"
	"strings"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// informersFocus reports whether the figure shown is about informers: its
// panel is then theirs alone, under their title.
func (b *Builder) informersFocus() bool {
	return b.scen() != nil && b.scen().Spec().UI.Focus == scenarios.PanelInformers
}

// informers writes the deployment controllers of a world that has them:
// the reconcile checks' counts; for each controller, where its informer is
// in its list-and-watch loop, its cache object by object beside the store
// of its API server's member (what a reconcile works from against what is
// true), and its work; then the buttons that apply the Deployment, cut
// the watches, reconcile again and turn idempotence on or off. It reports
// whether the world has deployment controllers.
func (b *Builder) informers(wr *writer) bool {
	w := b.World()
	cs := b.scratch.deploy
	if len(cs) == 0 {
		if b.informersFocus() {
			wr.text(words.NoController, SizeBody-1, frame.ToneMuted, false)
			return true
		}
		return false
	}
	if !b.informersFocus() {
		wr.text(words.InformersTitle, SizeBody, frame.ToneText, true)
	}
	// The checks' counts first: on a small page they are what must show
	// without scrolling.
	n := w.ReconcileCounts()
	tone := frame.ToneGood
	if n.Duplicates+n.Diverged > 0 {
		tone = frame.ToneBad
	}
	wr.text(words.ReconcileChecks(n.Duplicates, n.Diverged), SizeBody-1, tone, true)
	cfg := b.cfg()
	for _, c := range cs {
		server := words.MachineName(*cfg, c.Server)
		wr.text(words.ControllerLine(c.ID, words.MachineName(*cfg, c.Node), len(cs) > 1), SizeBody-1, frame.ToneText, true)
		state, trouble := words.InformerState(c.Informer, w.Now())
		mark, tone := "✓", frame.ToneGood
		if trouble {
			mark, tone = "!", frame.ToneWarn
		}
		wr.item(mark, tone, state, SizeBody-1, frame.ToneText)
		wr.text(words.CacheHeading(server), SizeSmall, frame.ToneMuted, false)
		b.cacheLines(wr, c)
		wr.text(words.ReconcileWork(c), SizeSmall, frame.ToneMuted, false)
		wr.gap(3)
	}
	wr.gap(2)
	name := command.DefaultDeployment
	wr.buttons(0,
		button("informers.apply", words.ApplyButton, "apply "+name),
		button("informers.cut", words.CutWatchButton, "watch-cut"),
		button("informers.reconcile", words.ReconcileButton, "reconcile "+name))
	if !b.Figure() {
		// A figure turns idempotence by its knob, starting again; the lab
		// turns it from this moment on.
		on := w.Settings().Idempotent
		wr.row(words.RowIdempotent, b.Measure(words.RowIdempotent, SizeSmall)+10,
			chip("informers.idempotent:on", words.IdempotentOn, on, "set "+raftcore.SettingIdempotence+" on"),
			chip("informers.idempotent:off", words.IdempotentOff, !on, "set "+raftcore.SettingIdempotence+" off"))
	}
	return true
}

// cacheLines writes controller c's cache beside its API server's store:
// every object either holds, in key order, each marked whether the two
// agree on it.
func (b *Builder) cacheLines(wr *writer, c raftcore.DeploymentController) {
	kv := b.World().Node(c.Server).KV()
	var keys []string
	for _, k := range kv.Keys() {
		if wantedByInformer(c.Informer, k) {
			keys = append(keys, k)
		}
	}
	for k := range c.Informer.Cache {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		wr.indent(words.InformerCacheEmpty, SizeSmall, frame.ToneMuted, false, 8)
		return
	}
	for _, k := range keys {
		held, inCache := c.Informer.Cache[k]
		stored, inStore := kv.Get(k)
		text, same := words.CacheLine(k, held.ModIndex, stored.ModIndex, inCache, inStore)
		mark, tone := "✓", frame.ToneGood
		if !same {
			mark, tone = "✗", frame.ToneBad
		}
		wr.item(mark, tone, text, SizeSmall, frame.ToneText)
	}
}

// kubeRole is what member id does for the deployment controllers, in the
// long and short words of the second line under its disc: it runs one, or
// serves one's API, or both; "" where it does neither, and in a world
// without them. Where the story is about controllers, this says more of a
// machine than its vote.
func (b *Builder) kubeRole(id raftcore.NodeID) (long, short string) {
	ctl, api := false, false
	for _, c := range b.scratch.deploy {
		ctl = ctl || c.Node == id
		api = api || c.Server == id
	}
	return words.KubeRole(ctl, api)
}

// kubeMenuRow offers, in the free lab's menu of member i, to start a
// deployment controller there, talking to the member's own API server, as
// a control-plane node's controller manager talks to its local one; a
// member that runs one already is not offered another.
func (b *Builder) kubeMenuRow(wr *writer, i int, labelW float64) {
	if b.Figure() || b.Plain() || b.cfg().Protocol != raftcore.ProtocolRaft || len(b.scratch.deploy) >= raftcore.MaxDeploymentControllers {
		return
	}
	for _, c := range b.scratch.deploy {
		if c.Node == nodeID(i) {
			return
		}
	}
	m := command.Machine(i)
	wr.row(words.RowKubernetes, labelW, button("node.deploy-controller", words.StartController, string(raftcore.DoDeployController)+" "+m))
}

// wantedByInformer reports whether key is under one of inf's prefixes.
func wantedByInformer(inf raftcore.Informer, key string) bool {
	for _, p := range inf.Prefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// watchDots draws the watch events on their way from an API server to a
// deployment controller's machine, along the link between the two members,
// tagged with the revision each carries while few are in flight.
func (b *Builder) watchDots() {
	w := b.World()
	sent := w.WatchesInFlight()
	if len(sent) == 0 {
		return
	}
	now := w.Now()
	r := b.lay().MessageRadius
	cs := b.scratch.deploy
	labels := len(sent) <= 4
	for _, s := range sent {
		c := cs[s.Controller-1]
		from, to := int(c.Server)-1, int(c.Node)-1
		lk, ok := b.lay().Link(from, to)
		if !ok {
			continue
		}
		lane := lk.Lane(from, to)
		frac := float64(now-s.SentUs) / float64(max(s.ArriveUs-s.SentUs, 1))
		pos := lane.At(math.Min(math.Max(frac, 0), 1))
		v := frame.MsgView{From: from, To: to, Pos: pos, R: r, Tone: frame.ToneAccent}
		if labels {
			v.Label = b.msgTag(words.WatchTag(s.Event.Rev), pos, lane.B.Sub(lane.A).Unit().Perp().Mul(r+7), false)
		}
		b.frame.Messages = append(b.frame.Messages, v)
	}
}
