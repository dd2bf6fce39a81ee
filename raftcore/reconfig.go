package raftcore

// Changing the configuration and handing leadership over, as etcd-io/raft
// does (raft.go's MsgProp checks, applyConfChange and switchToConfig,
// appliedTo's automatic leave of a joint configuration, and the leadership
// transfer of MsgTransferLeader and MsgTimeoutNow).
//
// A change goes through the log like a write. The leader takes at most one
// at a time: one proposed while an earlier change is not yet applied, a
// simple change while the configuration is joint, or a leave while it is
// not, is turned into an empty entry, as etcd turns it (pendingConfIndex).
// A change takes effect on each machine when that machine applies it. A
// joint configuration is left by its leader on its own once the change
// that entered it is applied. A leader that applies its own removal steps
// down (etcd's StepDownOnRemoval; see docs/raftsim.md).
//
// A leadership transfer makes the leader refuse proposals, bring the
// target's log up to its own, and then send it TimeoutNow; the target
// stands for election at once, without a pre-vote, and its vote requests
// are answered even by machines that heard a leader within the election
// timeout. A transfer not done within an election timeout is abandoned.

// campaignTransfer marks, in a vote request's Context, an election started
// by TimeoutNow (etcd's campaignTransfer context).
const campaignTransfer uint64 = 1

// confNote is something a machine did with a configuration change, for the
// trace: applied it, refused it, or could not apply it.
type confNote struct {
	index uint64
	text  string
}

func (n *Node) noteConf(index uint64, text string) {
	n.confNotes = append(n.confNotes, confNote{index: index, text: text})
}

// leaderPropose appends a proposal to the leader's log and sends it out,
// unless a leadership transfer is under way (etcd drops the proposal). A
// configuration change that etcd's leader would not take becomes an empty
// entry.
func (n *Node) leaderPropose(cmd Command) Refusal {
	if n.leadTransferee != None {
		return RefusedTransfer
	}
	if cmd.Kind == OpConf {
		cmd = n.admitConfChange(cmd)
	}
	n.appendToLocalLog(cmd)
	if n.role == RoleLeader { // BugApplyOnAppend can remove it on the spot
		n.broadcastAppendEntries()
	}
	return RefusedNone
}

// admitConfChange is etcd's check of a proposed change: refused while an
// earlier change may be unapplied, while joint unless it leaves, and when
// it leaves a configuration that is not joint. A change the configuration
// cannot make (removing the last voter) is refused too: etcd would append
// it and then fail to apply it. A refused change becomes an empty entry,
// as in etcd; a taken one is the new pending change.
func (n *Node) admitConfChange(cmd Command) Command {
	cc := cmd.Conf
	next := n.log.lastIndex() + 1
	why := ""
	switch {
	case n.pendingConfIndex > n.applied && !n.cfg.has(BugSecondPendingChange):
		why = "possible unapplied conf change at index " + u(n.pendingConfIndex) + " (applied to " + u(n.applied) + ")"
	case n.conf.joint() && cc.Type != ConfLeaveJoint:
		why = "must transition out of joint config first"
	case !n.conf.joint() && cc.Type == ConfLeaveJoint:
		why = "not in joint state; refusing empty conf change"
	default:
		if _, err := n.conf.apply(cc); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		n.noteConf(next, "refused "+cc.String()+" at "+n.conf.String()+": "+why)
		return Command{Kind: OpNoop}
	}
	n.pendingConfIndex = next
	return cmd
}

// proposeConfChange asks the machine to change the configuration: a
// leader proposes it, a follower passes it to its leader, as a write.
func (n *Node) proposeConfChange(cc ConfChange) Refusal {
	return n.proposeRaft(Command{Kind: OpConf, Conf: cc})
}

// applyConfChange makes the change of entry e the machine's configuration,
// when the machine applies e (etcd's applyConfChange). An entry already in
// force (re-applied after a restart) changes nothing. A change the
// configuration cannot make is left unapplied (etcd would panic); only a
// deliberately broken leader appends one.
func (n *Node) applyConfChange(e Entry) {
	if e.Index <= n.confIndex {
		return
	}
	cc := e.Data.Conf
	next, err := n.conf.apply(cc)
	if cc.Type == ConfEnterJoint && n.cfg.has(BugDirectSwitch) && err == nil {
		// Broken: straight to the new voters, with no joint step.
		next = newConfState(cc.Voters, 0, n.conf.learners&^cc.Voters, false)
	}
	if err != nil {
		n.noteConf(e.Index, "could not apply "+cc.String()+" at "+n.conf.String()+": "+err.Error())
		return
	}
	prev := n.conf
	n.conf, n.confIndex = next, e.Index
	n.noteConf(e.Index, "applied "+cc.String()+": "+next.String())
	n.switchToConfig(prev)
}

// switchToConfig does what a leader does when its configuration changes
// (etcd's switchToConfig): it starts tracking machines that joined (their
// next index at its last index, counted as recently heard), steps down if
// it is no longer a voter, commits what the new configuration already
// holds, probes the newcomers, and abandons a transfer to a machine that
// is no longer a voter.
func (n *Node) switchToConfig(prev confState) {
	if n.role != RoleLeader {
		return
	}
	joined := n.conf.members() &^ prev.members()
	for id := 1; id < len(n.prs); id++ {
		if joined.has(NodeID(id)) {
			n.prs[id] = Progress{Next: max(n.log.lastIndex(), 1), RecentActive: true}
		}
	}
	if !n.conf.isVoter(n.ID) {
		n.becomeFollower(n.term, None, CauseRemoved)
		return
	}
	if n.advanceCommitIndex() {
		n.broadcastAppendEntries()
	} else {
		members := n.conf.members()
		for id := 1; id < len(n.prs); id++ {
			if NodeID(id) != n.ID && members.has(NodeID(id)) {
				n.sendAppendEntries(NodeID(id), false)
			}
		}
	}
	if n.leadTransferee != None && !n.conf.isVoter(n.leadTransferee) {
		n.leadTransferee = None
	}
}

// maybeLeaveJoint is the automatic leave of etcd's appliedTo: a leader
// whose joint configuration asks to be left, and which has applied the
// change that entered it, proposes the change that leaves it. A transfer
// under way refuses the proposal; it is tried again on the next apply.
func (n *Node) maybeLeaveJoint() {
	if n.role == RoleLeader && n.conf.autoLeave && n.applied >= n.pendingConfIndex {
		n.leaderPropose(Command{Kind: OpConf, Conf: ConfChange{Type: ConfLeaveJoint}})
	}
}

// transferLeader asks the machine to hand leadership to target (etcd's
// MsgTransferLeader, stepped on the machine the operator asked): a leader
// starts the transfer, a follower passes the request to its leader, and
// anyone else drops it.
func (n *Node) transferLeader(target NodeID) {
	n.stepRaft(Message{Type: MsgTransferLeader, From: n.ID, To: n.ID, Origin: target})
}

// handleTransferLeader starts a transfer at the leader. A learner, a
// machine outside the configuration, the leader itself and the machine a
// transfer already goes to are ignored; a transfer to another machine
// replaces the one under way. The transfer has an election timeout to
// finish: the timer restarts. A target whose log is the leader's gets
// TimeoutNow at once; any other is sent what it lacks first.
func (n *Node) handleTransferLeader(m Message) {
	target := m.Origin
	if !n.conf.members().has(target) || int(target) >= len(n.prs) || n.conf.learners.has(target) {
		return
	}
	if n.leadTransferee == target || target == n.ID {
		return
	}
	n.electionElapsed = 0
	n.leadTransferee = target
	if n.prs[target].Match == n.log.lastIndex() {
		n.send(Message{Type: MsgTimeoutNow, To: target, Term: n.term})
	} else {
		n.sendAppendEntries(target, true)
	}
}

// forwardTransfer passes a transfer request on to the leader, with the
// machine's term (etcd does the same); with no leader known it is dropped.
func (n *Node) forwardTransfer(m Message) {
	if n.lead == None {
		return
	}
	m.To, m.Term = n.lead, n.term
	n.send(m)
}

// timeoutNow is what the target of a transfer does with TimeoutNow: it
// stands for election at once, skipping the pre-vote (etcd's
// hup(campaignTransfer)).
func (n *Node) timeoutNow() {
	if n.role == RoleLeader || !n.canCampaign() {
		return
	}
	n.requestVotes(false, CauseTransfer)
}

// applyOnAppend is BugApplyOnAppend: changes of configuration take effect
// as they are appended (the paper's rule, without its undoing of a change
// whose entry is later replaced).
func (n *Node) applyOnAppend(ents []Entry) {
	if !n.cfg.has(BugApplyOnAppend) {
		return
	}
	for i := range ents {
		if ents[i].Data.Kind == OpConf {
			n.applyConfChange(n.log.entry(ents[i].Index))
		}
	}
}

// applyMember hands a membership action to the machine it names in From,
// or to the leader: the up machine leading in the highest term. As etcd's
// server does before it proposes, the machine first checks the change
// against the configuration it has applied: a machine added must not be a
// member yet, one promoted must be a learner (and, asked of the leader,
// caught up to nine tenths of the leader's log, etcd's readiness rule), one
// removed must be a member. What it refuses, and a request with nobody to
// ask, is noted in the trace; the action is logged either way, so a replay
// takes the same path.
func (w *World) applyMember(a Action) {
	asked := NodeID(a.From)
	if asked == None {
		asked = w.leaderToAsk()
	}
	if asked == None {
		w.record(TraceEvent{Kind: TraceConf, Text: "no leader to ask: " + string(a.Do) + " not proposed"})
		return
	}
	if w.machines[asked].status != StatusUp {
		w.record(TraceEvent{Kind: TraceConf, Node: asked, Text: "machine " + w.cfg.Name(asked) + " is not running: " + string(a.Do) + " not proposed"})
		return
	}
	n := w.nodes[asked]
	before := w.capture(asked)
	if a.Do == DoTransferLeader {
		n.transferLeader(NodeID(a.Node))
	} else {
		cc := confChangeOf(a)
		if why := n.serverCheck(a.Do, cc.Node); why != "" {
			n.noteConf(0, "refused "+string(a.Do)+" "+u(uint64(cc.Node))+": "+why)
		} else if r := n.proposeConfChange(cc); r != RefusedNone {
			n.noteConf(0, "refused "+cc.String()+": "+r.String())
		}
	}
	w.afterStep(asked, before)
}

// confChangeOf is the change a membership action asks for.
func confChangeOf(a Action) ConfChange {
	switch a.Do {
	case DoAdd, DoPromote:
		return ConfChange{Type: ConfAddVoter, Node: NodeID(a.Node)}
	case DoAddLearner:
		return ConfChange{Type: ConfAddLearner, Node: NodeID(a.Node)}
	case DoRemove:
		return ConfChange{Type: ConfRemove, Node: NodeID(a.Node)}
	}
	var voters []NodeID
	for _, id := range a.Voters {
		voters = append(voters, NodeID(id))
	}
	return ConfChange{Type: ConfEnterJoint, Voters: setOf(voters...)}
}

// learnerReadyShare is how much of the leader's log a learner must hold to
// be promoted (etcd server's readyPercentThreshold).
const learnerReadyShare = 0.9

// serverCheck is etcd's server-side check of a membership request against
// the configuration the machine has applied; it says why the request is
// refused, or "" to propose it.
func (n *Node) serverCheck(do Verb, id NodeID) string {
	members := n.conf.members()
	switch do {
	case DoAdd, DoAddLearner:
		if members.has(id) {
			return "machine " + u(uint64(id)) + " is already a member"
		}
	case DoPromote:
		if !n.conf.learners.has(id) {
			return "machine " + u(uint64(id)) + " is not a learner"
		}
		if n.role == RoleLeader && float64(n.prs[id].Match) < float64(n.prs[n.ID].Match)*learnerReadyShare {
			return "learner " + u(uint64(id)) + " is not caught up with the leader yet"
		}
	case DoRemove:
		if !members.has(id) {
			return "machine " + u(uint64(id)) + " is not a member"
		}
	}
	return ""
}

// leaderToAsk is the running machine that leads in the highest term (the
// lowest-numbered on a tie), or None.
func (w *World) leaderToAsk() NodeID {
	best := None
	for id := 1; id <= w.cfg.Nodes; id++ {
		n := w.nodes[id]
		if w.machines[id].status != StatusUp || n.role != RoleLeader {
			continue
		}
		if best == None || n.term > w.nodes[best].term {
			best = NodeID(id)
		}
	}
	return best
}
