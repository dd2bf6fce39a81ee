package indepcheck

import (
	"fmt"
	"math"
	"slices"

	"raftlab/raftcore"
)

// The kube checks, computed again from the outside: which workers were
// alive is rebuilt here from the action log (what each verb does to a
// machine and its links), the controller's conclusions and the kubelets'
// Pods are read from World.KubeEvents, and when the controller could see
// the Leases from its reads in the client history. Nothing of raftcore's
// judge is called.

// KubeResult counts the findings of each kube check.
type KubeResult struct {
	Spurious, Slow, Twice int
}

// judgeSlackUs is the slow check's allowance for a read through the store
// (one second, as the lab documents it).
const judgeSlackUs = 1_000_000

// kubeView is the state the action log gives: which machines run and
// which links are up.
type kubeView struct {
	n      int // members
	total  int // members and workers
	status []raftcore.Status
	up     [][]bool
}

func newKubeView(cfg raftcore.Config) *kubeView {
	v := &kubeView{n: cfg.Nodes, total: cfg.Nodes + cfg.Workers}
	v.status = make([]raftcore.Status, v.total+1)
	v.up = make([][]bool, v.total+1)
	for i := range v.up {
		v.up[i] = make([]bool, v.total+1)
		for j := range v.up[i] {
			v.up[i][j] = true
		}
	}
	return v
}

// act applies what one logged action does to machines and links.
func (v *kubeView) act(a raftcore.Action) {
	setLink := func(from, to int, oneWay, up bool) {
		v.up[from][to] = up
		if !oneWay {
			v.up[to][from] = up
		}
	}
	switch a.Do {
	case raftcore.DoPause:
		if v.status[a.Node] == raftcore.StatusUp {
			v.status[a.Node] = raftcore.StatusPaused
		}
	case raftcore.DoResume:
		if v.status[a.Node] == raftcore.StatusPaused {
			v.status[a.Node] = raftcore.StatusUp
		}
	case raftcore.DoCrash:
		v.status[a.Node] = raftcore.StatusCrashed
	case raftcore.DoRestart:
		if v.status[a.Node] == raftcore.StatusCrashed {
			v.status[a.Node] = raftcore.StatusUp
		}
	case raftcore.DoCut, raftcore.DoRestore:
		setLink(a.From, a.To, a.OneWay, a.Do == raftcore.DoRestore)
	case raftcore.DoHeal:
		for i := 1; i <= v.total; i++ {
			for j := 1; j <= v.total; j++ {
				v.up[i][j] = true
			}
		}
	case raftcore.DoPartition:
		group := make([]int, v.total+1)
		for gi, g := range a.Groups {
			for _, id := range g {
				group[id] = gi + 1
			}
		}
		for i := 1; i <= v.total; i++ {
			if group[i] == 0 {
				group[i] = -i // alone
			}
		}
		for i := 1; i <= v.total; i++ {
			for j := 1; j <= v.total; j++ {
				v.up[i][j] = group[i] == group[j]
			}
		}
	}
}

// alive is whether worker id runs and is joined both ways to a running
// member.
func (v *kubeView) alive(id int) bool {
	if v.status[id] != raftcore.StatusUp {
		return false
	}
	for m := 1; m <= v.n; m++ {
		if v.status[m] == raftcore.StatusUp && v.up[id][m] && v.up[m][id] {
			return true
		}
	}
	return false
}

// statusAt is machine id's status as an event at time t finds it, from
// the actions: those taken before t. (Events due at an instant are handled
// before the actions taken at it, as a schedule plays them.)
func statusAt(actions []raftcore.Action, id int, t int64) raftcore.Status {
	st := raftcore.StatusUp
	for _, a := range actions {
		if int64(a.AtMs*1000+0.5) >= t {
			break
		}
		if a.Node != id {
			continue
		}
		switch {
		case a.Do == raftcore.DoPause && st == raftcore.StatusUp:
			st = raftcore.StatusPaused
		case a.Do == raftcore.DoResume && st == raftcore.StatusPaused:
			st = raftcore.StatusUp
		case a.Do == raftcore.DoCrash:
			st = raftcore.StatusCrashed
		case a.Do == raftcore.DoRestart && st == raftcore.StatusCrashed:
			st = raftcore.StatusUp
		}
	}
	return st
}

// lastResume is when a pause of machine id was last ended by a resume at
// or before t, and nextResume the first after t (-1: none).
func lastResume(actions []raftcore.Action, id int, t int64) int64 {
	last := int64(-1)
	for _, r := range resumes(actions, id) {
		if r <= t {
			last = r
		}
	}
	return last
}

func nextResume(actions []raftcore.Action, id int, t int64) int64 {
	for _, r := range resumes(actions, id) {
		if r > t {
			return r
		}
	}
	return -1
}

// resumes are the times machine id went from paused to running.
func resumes(actions []raftcore.Action, id int) []int64 {
	var out []int64
	paused := false
	for _, a := range actions {
		if a.Node != id {
			continue
		}
		switch {
		case a.Do == raftcore.DoPause && statusAt(actions, id, int64(a.AtMs*1000+0.5)) == raftcore.StatusUp:
			paused = true
		case a.Do == raftcore.DoResume && paused:
			paused = false
			out = append(out, int64(a.AtMs*1000+0.5))
		case a.Do == raftcore.DoCrash:
			paused = false
		}
	}
	return out
}

// span is a time a worker was alive or dead, from start to end (the
// run's end for the last).
type span struct {
	alive      bool
	start, end int64
}

// CheckKube judges a finished run with workers: spurious and slow NotReady
// marks and Pods run twice, counted independently.
func CheckKube(w *raftcore.World) (KubeResult, error) {
	cfg := w.Config()
	if cfg.Workers == 0 {
		return KubeResult{}, nil
	}
	if len(cfg.Zones) > 0 {
		return KubeResult{}, fmt.Errorf("the independent kube check does not follow zones")
	}
	grace, renew, monitor := int64(cfg.Kube.GraceMs)*1000, int64(cfg.Kube.RenewMs)*1000, int64(cfg.Kube.MonitorMs)*1000
	ctl := cfg.Kube.ControllerNode

	// Alive and dead spans of every worker, and the controller's crashes,
	// from the actions in the order they were taken.
	v := newKubeView(cfg)
	spans := make([][]span, v.total+1)
	for id := v.n + 1; id <= v.total; id++ {
		spans[id] = []span{{alive: true, start: 0}}
	}
	var ctlCrashes []int64
	for _, a := range w.Actions() {
		at := int64(a.AtMs*1000 + 0.5)
		if a.Do == raftcore.DoCrash && a.Node == ctl && v.status[ctl] != raftcore.StatusCrashed {
			ctlCrashes = append(ctlCrashes, at)
		}
		v.act(a)
		for id := v.n + 1; id <= v.total; id++ {
			s := spans[id]
			if last := &s[len(s)-1]; v.alive(id) != last.alive {
				last.end = at
				spans[id] = append(s, span{alive: !last.alive, start: at})
			}
		}
	}
	end := w.Now()
	for id := v.n + 1; id <= v.total; id++ {
		spans[id][len(spans[id])-1].end = end
	}

	var r KubeResult
	events := w.KubeEvents()
	// Spurious: a mark while the kubelet has been alive a whole grace
	// period.
	for _, e := range events {
		if e.Kind != raftcore.KubeMarkNotReady {
			continue
		}
		for _, s := range spans[e.Worker] {
			// The span an event belongs to: events at an instant come
			// before the actions taken at it.
			if (s.start < e.AtUs || s.start == 0) && e.AtUs <= s.end && s.alive && e.AtUs-s.start >= grace {
				r.Spurious++
				break
			}
		}
	}

	// When the controller began to see the Leases again: its first
	// successful read after it started, after a failed read, or after its
	// machine crashed. looks are its reads' completions in order.
	// A read answered while the controller's machine is not running is
	// not heard; flight keeps every read's span, heard or not.
	type look struct {
		at int64
		ok bool
	}
	var looks []look
	var flight [][2]int64
	for _, op := range w.Ops() {
		if op.Kube != raftcore.KubeLook {
			continue
		}
		end := op.CompleteUs
		if !op.Done() {
			end = math.MaxInt64
		}
		flight = append(flight, [2]int64{op.InvokeUs, end})
		if op.Done() && statusAt(w.Actions(), ctl, op.CompleteUs) == raftcore.StatusUp {
			looks = append(looks, look{op.CompleteUs, op.Result == raftcore.OpOK})
		}
	}
	slices.SortStableFunc(looks, func(a, b look) int { return int(a.at - b.at) })
	// seeing(t) reports whether the controller could see at t and since
	// when it could.
	seeing := func(t int64) (bool, int64) {
		blind, since := true, int64(-1)
		crash := 0
		for _, l := range looks {
			if l.at > t {
				break
			}
			for crash < len(ctlCrashes) && ctlCrashes[crash] < l.at {
				blind = true
				crash++
			}
			switch {
			case !l.ok:
				blind = true
			case blind:
				blind, since = false, l.at
			}
		}
		for crash < len(ctlCrashes) && ctlCrashes[crash] < t {
			blind = true
			crash++
		}
		return !blind, since
	}
	notReadyAt := func(id raftcore.NodeID, t int64) bool {
		nr := false
		for _, e := range events {
			if e.AtUs > t {
				break
			}
			if e.Worker == id && (e.Kind == raftcore.KubeMarkNotReady || e.Kind == raftcore.KubeMarkReady) {
				nr = e.Kind == raftcore.KubeMarkNotReady
			}
		}
		return nr
	}
	// Slow: a dead span outlasting its deadline, with the controller
	// running and seeing at the deadline and the node not NotReady then.
	// The deadline runs from the death or from when the controller last
	// began to see again, whichever is later; each new beginning within
	// the span sets a new deadline.
	for id := v.n + 1; id <= v.total; id++ {
		for _, s := range spans[id] {
			if s.alive {
				continue
			}
			_, first := seeing(s.start)
			begins := []int64{first}
			for _, l := range looks {
				if l.at > s.start && l.at < s.end {
					if _, since := seeing(l.at); since != begins[len(begins)-1] {
						begins = append(begins, since)
					}
				}
			}
			for _, since := range begins {
				if since < 0 {
					continue
				}
				base := max(s.start, since) + grace + renew + judgeSlackUs
				deadline := base
				// A controller resumed from a pause gets a monitor period
				// to look; one paused at the deadline is judged after its
				// next resume.
				// (The deadline only grows, and resumes are finite.)
				for {
					if d := max(base, lastResume(w.Actions(), ctl, deadline)+monitor+judgeSlackUs); d != deadline {
						deadline = d
						continue
					}
					if statusAt(w.Actions(), ctl, deadline) != raftcore.StatusPaused {
						break
					}
					r := nextResume(w.Actions(), ctl, deadline)
					if r < 0 {
						deadline = math.MaxInt64
						break
					}
					deadline = max(base, r+monitor+judgeSlackUs)
				}
				late := func(t int64) bool {
					if t > s.end {
						return false // alive again first, or the run ended
					}
					ok, now := seeing(t)
					return ok && now == since && statusAt(w.Actions(), ctl, t) == raftcore.StatusUp && !notReadyAt(raftcore.NodeID(id), t)
				}
				if !late(deadline) {
					continue
				}
				// A read in flight at the deadline is waited for: the
				// controller is judged once it is answered.
				for _, f := range flight {
					if f[0] <= deadline && deadline < f[1] {
						deadline = f[1]
						break
					}
				}
				if late(deadline) {
					r.Slow++
				}
			}
		}
	}

	// Twice: a kubelet starts a Pod that another, not crashed since it
	// started it, still runs.
	running := make([][]string, v.total+1)
	v = newKubeView(cfg)
	acts := w.Actions()
	ai := 0
	for _, e := range events {
		for ai < len(acts) && int64(acts[ai].AtMs*1000+0.5) < e.AtUs {
			if a := acts[ai]; a.Do == raftcore.DoCrash && a.Node > v.n {
				running[a.Node] = nil
			}
			ai++
		}
		switch e.Kind {
		case raftcore.KubePodStart:
			for id := v.n + 1; id <= v.total; id++ {
				if id != int(e.Worker) && slices.Contains(running[id], e.Pod) {
					r.Twice++
				}
			}
			running[e.Worker] = append(running[e.Worker], e.Pod)
		case raftcore.KubePodStop:
			if i := slices.Index(running[e.Worker], e.Pod); i >= 0 {
				running[e.Worker] = slices.Delete(running[e.Worker], i, i+1)
			}
		}
	}
	return r, nil
}
