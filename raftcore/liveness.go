package raftcore

import (
	"fmt"
	"slices"
)

// The liveness judge. The checker (checker.go) says nothing bad happened;
// this says something good does: once the network has been whole and every
// machine up, at normal speed and with an exact clock for long enough, one
// leader leads and every machine follows it, every machine has caught up to
// the commit index the cluster had reached a moment before, and clients'
// requests are answered. A machine that is up but never catches up,
// or a request that is never answered, breaks no safety rule; only a judge
// of progress sees it.
//
// Raft's progress is certain once a leader has settled, and only probable
// before: two machines can time out together and split the vote, and a
// machine with a stale log can keep resetting the others' timers (without
// PreVote). So the judge waits for a leader to settle, for as many election
// rounds as bad luck could plausibly need (livenessElectionRounds), and
// then holds the cluster to bounds that are certain (livenessTimes).

// Liveness is the liveness judge's verdict on a run as it stands now.
type Liveness struct {
	// Verdict is "live", "not live", or "not judged" when the run gives
	// the judge nothing to hold it to yet (Note says why).
	Verdict LivenessVerdict `json:"verdict"`
	// CalmSinceMs is when the last fault, repair or forced timer was
	// applied: since then only clients have acted.
	CalmSinceMs float64 `json:"calm_since_ms"`
	// JudgedAtMs is the moment the verdict is about: live or not live
	// from it on; for a run not judged, when the judge could rule if the
	// run went on calm (0 if it never could, as things are).
	JudgedAtMs float64 `json:"judged_at_ms,omitempty"`
	// Note says why the run was not judged.
	Note string `json:"note,omitempty"`
	// Problems says, for a run that is not live, what did not progress.
	Problems []string `json:"problems,omitempty"`
}

// LivenessVerdict is the judge's answer.
type LivenessVerdict string

const (
	Live      LivenessVerdict = "live"
	NotLive   LivenessVerdict = "not live"
	NotJudged LivenessVerdict = "not judged"
)

// livenessElectionRounds is how many election rounds a calm cluster may
// take to settle on a leader before the judge calls it not live. A round
// fails only when the machines with the longest logs lose a race of
// randomized timeouts, each drawn evenly from an election timeout's worth
// of ticks: at worst (two machines, no PreVote, the stale one resetting the
// other's timer every time it campaigns) a round fails a little more often
// than not, about 0.55, and 30 failures in a row happen less than once in
// fifty million calm spells.
const livenessElectionRounds = 30

// maxLivenessProblems bounds the problems a verdict lists.
const maxLivenessProblems = 8

// liveWatch is what the world keeps for the judge as it runs.
type liveWatch struct {
	// calmSince is when the last action that was not a client's was
	// applied, and elected when a machine last became leader.
	calmSince, elected int64
	// marks are the times the highest commit index any machine held rose,
	// with the new index, oldest first. Marks older than the horizon
	// (markHorizon) are dropped but for the last of them, which still
	// gives the index at the horizon's start.
	marks []commitMark
	high  uint64
}

type commitMark struct {
	us    int64
	index uint64
}

// markHorizon is how far back the judge asks for the highest commit index:
// a settle time (livenessTimes) at the longest latency an action may set,
// 60 seconds, with room to spare. Asked further back, for a follower very
// far behind, it answers no higher than the truth, which only spares the
// follower.
func (w *World) markHorizon() int64 {
	return 4*60_000_000 + 4*int64(w.cfg.HeartbeatTicks*w.cfg.TickMs)*1000
}

// client reports whether the verb is a client's request rather than
// something done to the machines or the network.
func (v Verb) client() bool {
	return v == DoWrite || v == DoDelete || v == DoRead || v == DoControl || v == DoLoad || v == DoLoadStop || v == DoDeployController || v == DoReconcile
}

// noteAction records an action: one that is not a client's starts the
// calm again.
func (l *liveWatch) noteAction(v Verb, now int64) {
	if !v.client() {
		l.calmSince = now
	}
}

// commitRose notes that a machine's commit index is now index.
func (l *liveWatch) commitRose(now int64, index uint64, horizon int64) {
	if index <= l.high {
		return
	}
	l.high = index
	l.marks = append(l.marks, commitMark{us: now, index: index})
	keep := 0
	for keep+1 < len(l.marks) && l.marks[keep+1].us <= now-horizon {
		keep++
	}
	if keep > 0 {
		l.marks = slices.Delete(l.marks, 0, keep)
	}
}

// highAt is the highest commit index any machine held at time us.
func (l *liveWatch) highAt(us int64) uint64 {
	var idx uint64
	for _, m := range l.marks {
		if m.us > us {
			break
		}
		idx = m.index
	}
	return idx
}

func (l liveWatch) clone() liveWatch {
	l.marks = slices.Clone(l.marks)
	return l
}

// livenessTimes are the spans the judge allows, from the configuration,
// the slowest link and the leader's state. With T the tick, E the election
// timeout and H the heartbeat interval in ticks, and L the longest one-way
// latency:
type livenessTimes struct {
	// round is one election: the first randomized timeout runs out within
	// 2E ticks (a timer may have been reset just before, and a follower
	// that heard a leader ignores votes for E ticks within that time),
	// plus a tick, timers running out only on ticks, and two round trips,
	// PreVote's and the vote's: 2E·T + T + 4L. By the end of the first
	// round after the calm began, every machine whose timer ran before the
	// calm has heard from the leader or campaigned, and a campaign of a
	// higher term has reached the leader.
	round int64
	// catchUp is how long a settled leader takes to bring every machine
	// into line: its next heartbeat (H·T + L), then a probe per term in
	// which a follower's log can differ from its own (the rejection's hint
	// skips a term at a time; there are at most as many as its term), and
	// a round trip per window of entries, each 2L.
	catchUp int64
	// settle is how long a request takes when nothing is queued: it
	// travels to the leader (L), is replicated in a round trip (2L), and
	// its machine learns the commit with the next append or heartbeat
	// (H·T + L), give or take a tick: H·T + T + 4L. It bounds how long a
	// machine takes to learn a commit (the request's path is the longest
	// way to it), and a client that gives up sooner is not failed by the
	// cluster. A follower further behind needs a round trip (2L) more per
	// window it lacks (see behind).
	settle int64
	// window is how many entries flow control lets the leader send a
	// follower in one round trip: max_entries_per_msg × max_inflight.
	window uint64
	lat    int64
}

func (w *World) livenessTimes(lead NodeID) livenessTimes {
	tick := int64(w.cfg.TickMs) * 1000
	e, h := int64(w.cfg.ElectionTicks), int64(w.cfg.HeartbeatTicks)
	lat := w.slowestLink()
	t := livenessTimes{round: 2*e*tick + tick + 4*lat, settle: h*tick + tick + 4*lat, lat: lat,
		window: uint64(w.cfg.MaxEntriesPerMsg) * uint64(w.cfg.MaxInflight)}
	if lead != None {
		n := w.nodes[lead]
		probes := int64(n.term) + 1 + t.windows(n.log.lastIndex())
		t.catchUp = h*tick + lat + probes*2*lat
	}
	return t
}

// windows is how many windows of entries make up gap.
func (t livenessTimes) windows(gap uint64) int64 { return int64((gap + t.window - 1) / t.window) }

// behind is how long a follower gap entries behind its leader may take to
// learn the commit the leader had: settle, and a round trip per window of
// the gap beyond the first (a burst of writes fills the pipeline).
func (t livenessTimes) behind(gap uint64) int64 {
	return t.settle + max(t.windows(gap)-1, 0)*2*t.lat
}

// slowestLink is the longest one-way latency of any link now.
func (w *World) slowestLink() int64 {
	lat := int64(0)
	for i := 1; i <= w.cfg.Nodes; i++ {
		for j := 1; j <= w.cfg.Nodes; j++ {
			if i != j {
				lat = max(lat, w.links[i][j].LatencyMaxUs)
			}
		}
	}
	return lat
}

// Liveness judges the run as it stands now (see the top of this file).
//
// Once the calm has lasted a round, a leader that has led since then (or
// since it was elected, if later) must within catchUp have every machine
// following it in its term. From then on, each machine must hold the
// commit index the cluster had a settle time ago (more for a machine
// that many entries behind), and every request sent must be answered:
// done, or for a compare-and-swap refused on its revision. Until a leader
// has settled so long, the run is not judged, unless the calm has lasted
// livenessElectionRounds rounds: then it is not live.
func (w *World) Liveness() Liveness {
	w.thaw()
	calm := w.live.calmSince
	v := Liveness{Verdict: NotJudged, CalmSinceMs: usToMs(calm)}
	if v.Note = w.uncalm(); v.Note != "" {
		return v
	}
	lead := w.settledLeader()
	t := w.livenessTimes(lead)
	giveUp := calm + livenessElectionRounds*t.round
	if lead == None {
		if w.now < giveUp {
			v.Note = "no leader has settled yet"
			v.JudgedAtMs = usToMs(giveUp)
			return v
		}
		v.Verdict, v.JudgedAtMs = NotLive, usToMs(giveUp)
		v.Problems = []string{fmt.Sprintf("no leader settled in %d election rounds of %g ms after the calm began", livenessElectionRounds, usToMs(t.round))}
		return v
	}
	if w.live.elected > giveUp {
		v.Verdict, v.JudgedAtMs = NotLive, usToMs(giveUp)
		v.Problems = []string{fmt.Sprintf("leaders kept changing for %d election rounds of %g ms after the calm began", livenessElectionRounds, usToMs(t.round))}
		return v
	}
	start := max(calm+t.round, w.live.elected)
	due := start + t.catchUp + t.settle
	if w.now < due {
		v.Note = fmt.Sprintf("machine %s leads; the judge rules %g ms after it settled", w.cfg.Name(lead), usToMs(t.catchUp+t.settle))
		v.JudgedAtMs = usToMs(due)
		return v
	}
	v.JudgedAtMs = usToMs(start + t.catchUp)
	v.Problems = w.stalled(lead, start+t.catchUp, t)
	v.Verdict = Live
	if len(v.Problems) > 0 {
		v.Verdict = NotLive
	}
	return v
}

func usToMs(us int64) float64 { return float64(us) / 1000 }

// uncalm says why the world is not in a state the judge can hold to a
// bound, or "" when it is: a protocol other than raft (which promises no
// progress), a link down or lossy, messages slower than the election
// timeout allows for, a machine paused, crashed, slowed, or with a clock
// that runs at another rate.
func (w *World) uncalm() string {
	if w.cfg.Protocol != ProtocolRaft {
		return fmt.Sprintf("%s promises no progress", w.cfg.Protocol)
	}
	// Raft needs a heartbeat and its answer to arrive well within an
	// election timeout, or followers campaign against a working leader.
	if 2*w.slowestLink()+int64(w.cfg.HeartbeatTicks*w.cfg.TickMs)*1000 >= int64(w.cfg.ElectionTicks*w.cfg.TickMs)*1000 {
		return "a heartbeat's round trip takes as long as an election timeout"
	}
	for i := 1; i <= w.cfg.Nodes; i++ {
		m := &w.machines[i]
		name := w.cfg.Name(NodeID(i))
		switch {
		case m.status != StatusUp:
			return fmt.Sprintf("machine %s is %s", name, m.status)
		case m.slow > 1:
			// A slowed machine is a queue whose wait grows with the
			// traffic: no fixed bound holds for it.
			return fmt.Sprintf("machine %s is slowed to %g ms a message", name, m.slow)
		case m.drift != 1:
			return fmt.Sprintf("machine %s's clock runs at %g times real time", name, m.drift)
		}
		for j := 1; j <= w.cfg.Nodes; j++ {
			if l := w.links[i][j]; i != j && (!l.Up || l.Loss > 0) {
				return fmt.Sprintf("the link from %s to %s is down or loses messages", name, w.cfg.Name(NodeID(j)))
			}
		}
	}
	return ""
}

// settledLeader is the machine that leads the highest term any machine
// is in, or None.
func (w *World) settledLeader() NodeID {
	lead, top := None, uint64(0)
	for i := 1; i <= w.cfg.Nodes; i++ {
		n := w.nodes[i]
		top = max(top, n.term)
		if n.role == RoleLeader && (lead == None || n.term > w.nodes[lead].term) {
			lead = NodeID(i)
		}
	}
	if lead == None || w.nodes[lead].term != top {
		return None
	}
	return lead
}

// stalled lists what failed to progress under leader lead: from from on,
// every machine follows it, holds the commit index the cluster had a little
// earlier (t.behind), and has every request sent to it answered. Only the
// machines the leader's configuration names are held to it: a machine
// taken out of the cluster no longer hears the leader (etcd stops a removed
// member), so neither it nor the requests sent to it are the cluster's to
// answer for.
func (w *World) stalled(lead NodeID, from int64, t livenessTimes) []string {
	var out []string
	add := func(format string, args ...any) {
		if len(out) < maxLivenessProblems {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	l := w.nodes[lead]
	members := l.conf.members()
	for i := 1; i <= w.cfg.Nodes; i++ {
		id := NodeID(i)
		n := w.nodes[i]
		if !members.has(id) {
			continue
		}
		if id != lead && (n.role != RoleFollower || n.lead != lead || n.term != l.term) {
			add("machine %s is %s in term %d, not following %s, the leader of term %d", w.cfg.Name(id), n.role, n.term, w.cfg.Name(lead), l.term)
		}
		by := w.now - t.behind(l.log.lastIndex()-min(n.commit, l.log.lastIndex()))
		if want := w.live.highAt(by); n.commit < want {
			add("machine %s's commit index is %d; the cluster's was %d by %g ms", w.cfg.Name(id), n.commit, want, usToMs(by))
		}
	}
	// The newest few that failed among the operations the history forgot
	// come first: they are older than every one kept.
	for _, list := range [][]Op{w.failedForgotten, w.ops} {
		for i := range list {
			if op := &list[i]; op.InvokeUs >= from && members.has(op.Node) && !answered(op, t.settle) {
				add("%s %d at machine %s, sent at %g ms: %s (%s)", op.Kind, op.ID, w.cfg.Name(op.Node), usToMs(op.InvokeUs), op.Result, op.Reason)
			}
		}
	}
	return out
}

// answered reports whether a request that is over was answered: done, or
// refused on its revision (a compare-and-swap's conflict). A request still
// waiting may yet be; a refusal etcd makes by design (a lease read with
// CheckQuorum off) and a client that gave up sooner than a follower may
// take to learn a commit (settle) are not the cluster's doing. How long an
// answer took is not held against it: a burst of requests queues.
func answered(op *Op, settle int64) bool {
	switch op.Result {
	case OpPending, OpOK, OpConflict:
		return true
	case OpTimeout:
		return op.CompleteUs-op.InvokeUs < settle
	}
	return op.Refusal == RefusedLeaseNoCheckQuorum
}

// AwaitLiveness runs the world on, with no further actions, until the
// liveness judge rules, and returns the verdict. A world that is not calm,
// or not raft, is returned as it is, not judged.
func (w *World) AwaitLiveness() Liveness {
	w.thaw()
	for {
		v := w.Liveness()
		if v.Verdict != NotJudged || v.JudgedAtMs == 0 {
			return v
		}
		// A leader may settle sooner than the judge could rule without
		// one: look again every round at most.
		next := min(msToUs(v.JudgedAtMs), w.now+w.livenessTimes(None).round)
		w.RunUntil(max(next, w.now+1))
	}
}
