package raftcore

// This file is the Raft protocol proper, following etcd-io/raft's raft.go
// rule for rule. Section numbers refer to the Raft paper (Ongaro and
// Ousterhout, 2014).
//
// The functions are named for the paper's rules, not as etcd names them. For
// a reader comparing the two: startElection is etcd's hup, requestVotes its
// campaign, countVote its poll, advanceCommitIndex its maybeCommit,
// appendToLocalLog its appendEntry, sendAppendEntries and
// broadcastAppendEntries its sendAppend and bcastAppend, appendIfConsistent
// and followLeaderCommit its raftLog.maybeAppend and raftLog.commitTo;
// checkTerm and handleRequestVote are the term checks and the vote answer
// at the top of its Step.
//
// Where each rule of the paper's Figure 2 is carried out:
//
// Every server
//   - Committed entries not yet applied are applied in index order:
//     World.afterStep (world.go), with Node.nextApply and Node.markApplied.
//   - A message with a higher term makes the machine take that term and
//     become a follower: checkTerm, through becomeFollower and reset. As in
//     etcd, a PreVote and a granted pre-vote leave the term alone, and under
//     CheckQuorum a machine that heard its leader within the election
//     timeout ignores vote requests.
//
// Followers
//   - They answer candidates and leaders: handleRequestVote, and from
//     stepFollower handleAppendEntries and handleHeartbeat.
//   - When the election timer runs out with no word from the current leader
//     and no vote granted, they stand for election: tickElection calls
//     startElection. Hearing the leader (stepFollower) and granting a vote
//     (handleRequestVote) zero the timer.
//
// Candidates
//   - On becoming candidate the machine moves to the next term, votes for
//     itself, restarts its election timer and asks every other machine for
//     its vote: requestVotes, through becomeCandidate and reset. With PreVote
//     on, requestVotes first runs a pre-vote round as a pre-candidate.
//   - Votes from a majority make it leader: stepCandidate counts them with
//     countVote (by quorum.MajorityConfig.VoteResult), then calls
//     becomeLeader.
//   - An AppendEntries (or heartbeat) from a leader of its term makes it a
//     follower: stepCandidate calls becomeFollower.
//   - If the election timer runs out again, tickElection starts a new
//     election.
//
// Leaders
//   - Once elected, the leader sends every follower an AppendEntries:
//     becomeLeader appends an empty entry of its term (§8) and stepCandidate
//     sends it with broadcastAppendEntries. While idle, tickHeartbeat sends
//     heartbeats (broadcastHeartbeat).
//   - A client's command goes into the leader's log and out to the
//     followers: proposeRaft, or stepLeader for one a follower passed on,
//     calls appendToLocalLog and broadcastAppendEntries. The world answers
//     the client once the entry is applied (World.onApplied, client.go).
//   - A follower whose next index is at or below the leader's last index is
//     sent the entries from its next index on: sendAppendEntries. stepLeader
//     handles the answer: a success moves the follower's match and next index
//     (Progress.maybeUpdate); a rejection moves its next index back
//     (Progress.maybeDecrTo, by the follower's hint, which can skip a whole
//     term rather than one entry) and the append is sent again.
//   - The highest index N stored on a majority becomes the commit index,
//     provided the entry at N is of the leader's term: advanceCommitIndex,
//     which finds N with quorum.MajorityConfig.CommittedIndex.
//
// RequestVote, on the receiving side: a request of an older term is
// ignored, or a pre-vote refused (checkTerm); handleRequestVote grants at
// most one vote per term, and only to a candidate whose log is at least as
// up to date as the voter's (raftLog.isUpToDate). Which of these refuses,
// and the CheckQuorum lease that ignores a request, are decided in
// reject.go (voteRefusal, ignoresInLease), whose reason the answer carries.
//
// AppendEntries, on the receiving side: one of an older term is ignored, or
// answered with the current term when PreVote or CheckQuorum is on
// (checkTerm); handleAppendEntries rejects one whose previous entry does not
// match the log, and appendIfConsistent replaces a conflicting entry and all
// after it with the leader's, appends what is new and moves the commit index
// up with followLeaderCommit.

import "raftlab/raftcore/quorum"

// reset enters term, forgetting the vote if the term is new, and clears the
// volatile state of the old role: the known leader, the election and
// heartbeat timers (with a new random election timeout), the votes
// received, the leader's view of its followers and its pending reads.
func (n *Node) reset(term uint64) {
	if n.term != term {
		n.term = term
		n.vote = None
	}
	n.lead = None
	n.electionElapsed = 0
	n.heartbeatElapsed = 0
	n.resetTimeout()
	for i := range n.votes {
		n.votes[i] = 0
	}
	n.prs = nil
	n.pendingReads = nil
	n.pendingReadMsgs = nil
	n.leadTransferee = None
	n.pendingConfIndex = 0
}

func (n *Node) becomeFollower(term uint64, lead NodeID, why Cause) {
	n.reset(term)
	n.lead = lead
	n.setRole(RoleFollower, why)
}

// becomePreCandidate starts a PreVote round (§9.6 of Ongaro's thesis): the
// machine asks whether it could win before it disrupts anyone by raising its
// term. Term and vote are left alone.
func (n *Node) becomePreCandidate(why Cause) {
	for i := range n.votes {
		n.votes[i] = 0
	}
	n.lead = None
	n.setRole(RolePreCandidate, why)
}

// becomeCandidate moves to the next term and votes for itself (§5.2).
func (n *Node) becomeCandidate(why Cause) {
	n.reset(n.term + 1)
	n.vote = n.ID
	n.setRole(RoleCandidate, why)
}

func (n *Node) becomeLeader() {
	n.reset(n.term)
	n.lead = n.ID
	last := n.log.lastIndex()
	// Every machine has a slot, member or not, so that a machine added
	// later finds one; only members' slots are read.
	n.prs = make([]Progress, n.cfg.size+1)
	for id := 1; id <= n.cfg.size; id++ {
		n.prs[id] = Progress{Next: last + 1}
	}
	self := &n.prs[n.ID]
	self.Match = last
	self.becomeReplicate()
	self.RecentActive = true
	// As etcd, take no change of configuration until everything in the log
	// now is applied: there may be an unapplied change among it.
	n.pendingConfIndex = last
	n.setRole(RoleLeader, CauseWonElection)
	// An empty entry of the new term lets the leader commit entries of
	// earlier terms (§5.4.2 and §8) and learn the commit index quickly.
	n.appendToLocalLog(Command{Kind: OpNoop})
}

// tickElection counts a tick towards the election timeout. As in etcd, only
// a machine that may stand for election (a voter of its own configuration)
// starts one and restarts the count: a learner or a spare keeps counting,
// so that, having heard no leader for an election timeout, it answers
// vote requests (the CheckQuorum lease) for as long as it hears none.
func (n *Node) tickElection() {
	n.electionElapsed++
	if n.electionElapsed >= n.randomizedTimeout && n.promotable() {
		n.electionElapsed = 0
		n.startElection(CauseElectionTimeout)
	}
}

func (n *Node) tickHeartbeat() {
	n.heartbeatElapsed++
	n.electionElapsed++
	if n.electionElapsed >= n.cfg.electionTicks {
		n.electionElapsed = 0
		if n.cfg.checkQuorum {
			n.checkQuorum()
			if n.role != RoleLeader {
				return
			}
		}
		// A transfer not done within an election timeout is abandoned,
		// and the leader takes proposals again.
		n.leadTransferee = None
	}
	if n.heartbeatElapsed >= n.cfg.heartbeatTicks {
		n.heartbeatElapsed = 0
		n.broadcastHeartbeat(0)
	}
}

// checkQuorum steps a leader down when it has not heard from a majority
// within an election timeout: a leader cut off from the majority stops
// believing it leads, which is also what makes lease reads possible.
func (n *Node) checkQuorum() {
	if !n.quorumActive() {
		n.becomeFollower(n.term, None, CauseCheckQuorum)
		return
	}
	members := n.conf.members()
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) != n.ID && members.has(NodeID(id)) {
			n.prs[id].RecentActive = false
		}
	}
}

// startElection is what a follower or candidate does when its election
// timer runs out (§5.2): it stands for election, after a PreVote round when
// PreVote is on. A leader has no election to start.
func (n *Node) startElection(why Cause) {
	if n.role == RoleLeader || !n.canCampaign() {
		return
	}
	if n.cfg.preVote {
		n.requestVotes(true, why)
	} else {
		n.requestVotes(false, why)
	}
}

// forceTimeout is what the "timeout" action does. Under raft a follower or
// candidate acts as when its election timer runs out: it zeroes the timer's
// count and starts an election, with a PreVote round first when PreVote is
// on. That is etcd's MsgHup, which etcd's Node.Campaign sends (Campaign
// leaves the count alone; only a later tick of a pre-candidate shows it).
// It is not etcd's leadership transfer (MsgTimeoutNow), which skips PreVote
// and overrides the CheckQuorum lease: here, with CheckQuorum on, machines
// that heard a leader within the election timeout ignore the requests. A
// leader ignores the action; its own election timer running out would
// instead run the CheckQuorum check. Under failover a follower promotes
// itself, as when the authority goes silent; naive-copy has no timers and
// ignores it.
func (n *Node) forceTimeout() {
	switch n.cfg.protocol {
	case ProtocolRaft:
		n.electionElapsed = 0
		n.startElection(CauseForcedTimeout)
	case ProtocolFailover:
		n.promote(CauseForcedTimeout)
	}
}

// forceHeartbeat is what the "heartbeat" action does: a raft leader's
// heartbeat timer runs out now and it sends every follower a heartbeat, as
// tickHeartbeat does when the timer runs out on a tick. The election timer
// (the CheckQuorum period) is left alone, so no time is taken to pass.
// Anything but a raft leader ignores the action.
func (n *Node) forceHeartbeat() {
	if n.cfg.protocol != ProtocolRaft || n.role != RoleLeader {
		return
	}
	n.heartbeatElapsed = 0
	n.broadcastHeartbeat(0)
}

// requestVotes makes the machine a candidate, or with pre a pre-candidate,
// counts its own vote and asks every other machine for theirs: a
// RequestVote for its new term, or a PreVote for the term it would take.
// A cluster of one wins at once.
func (n *Node) requestVotes(pre bool, why Cause) {
	var voteType MsgType
	var term uint64
	if pre {
		n.becomePreCandidate(why)
		voteType = MsgPreVote
		term = n.term + 1 // the term it would use; not adopted yet
	} else {
		n.becomeCandidate(why)
		voteType = MsgVote
		term = n.term
	}
	if n.countVote(n.ID, true) == quorum.VoteWon {
		// A cluster of one wins at once.
		if pre {
			n.requestVotes(false, CauseWonPreVote)
		} else {
			n.becomeLeader()
		}
		return
	}
	voters := n.conf.incoming | n.conf.outgoing
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) == n.ID || !voters.has(NodeID(id)) {
			continue
		}
		m := Message{Type: voteType, To: NodeID(id), Term: term, Index: n.log.lastIndex(), LogTerm: n.log.lastTerm()}
		if why == CauseTransfer {
			m.Context = campaignTransfer
		}
		n.send(m)
	}
}

// countVote records from's answer (only the first answer of each machine
// counts) and reports whether the answers so far win or lose the election.
func (n *Node) countVote(from NodeID, granted bool) quorum.VoteResult {
	if n.votes[from] == 0 {
		if granted {
			n.votes[from] = 1
		} else {
			n.votes[from] = -1
		}
	}
	if n.cfg.has(BugCountLearners) {
		return n.withLearners().VoteResult(func(id quorum.ID) (yes, answered bool) {
			return n.votes[id] > 0, n.votes[id] != 0
		})
	}
	return n.conf.voters.VoteResult(func(id quorum.ID) (yes, answered bool) {
		return n.votes[id] > 0, n.votes[id] != 0
	})
}

// stepRaft handles one message under raft: the term rules first, then a
// vote request, or whatever the machine's role does with the rest.
func (n *Node) stepRaft(m Message) {
	if !n.checkTerm(m) {
		return
	}
	switch m.Type {
	case MsgVote, MsgPreVote:
		n.handleRequestVote(m)
		return
	}
	switch n.role {
	case RoleLeader:
		n.stepLeader(m)
	case RoleCandidate, RolePreCandidate:
		n.stepCandidate(m)
	default:
		n.stepFollower(m)
	}
}

// checkTerm applies the term rules of §5.1 to m, with etcd's refinements
// for PreVote and CheckQuorum: a higher term makes the machine a follower
// in that term, and a message of a lower term gets at most an answer that
// carries the current term. It reports whether m is still to be handled.
func (n *Node) checkTerm(m Message) bool {
	switch {
	case m.Term == 0:
		// A local message (proposal or read forwarded by a follower).
	case m.Term > n.term:
		if n.ignoresInLease(m) {
			// A machine that heard from a live leader within the election
			// timeout ignores vote requests: this keeps a partitioned
			// machine with a high term from disrupting a healthy cluster.
			return false
		}
		switch {
		case m.Type == MsgPreVote:
			// Never change term in answer to a PreVote.
		case m.Type == MsgPreVoteResp && !m.Reject:
			// A granted pre-vote carries the future term; the term moves
			// only when the real election starts.
		default:
			if m.Type == MsgApp || m.Type == MsgHeartbeat || m.Type == MsgSnap {
				n.becomeFollower(m.Term, m.From, CauseLeaderOfHigherTerm)
			} else {
				n.becomeFollower(m.Term, None, CauseHigherTerm)
			}
		}
	case m.Term < n.term:
		if (n.cfg.checkQuorum || n.cfg.preVote) && (m.Type == MsgHeartbeat || m.Type == MsgApp) {
			// Tell a stale leader about the newer term. Without this a
			// leader cut off and then reconnected would never step down,
			// since its followers ignore its messages.
			n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Why: RejectLowerTerm})
		} else if m.Type == MsgPreVote {
			n.send(Message{Type: MsgPreVoteResp, To: m.From, Term: n.term, Reject: true, Why: RejectLowerTerm})
		}
		return false
	}
	return true
}

// handleRequestVote answers a request for a vote or a pre-vote (§5.2). A
// vote goes to the machine already voted for in this term or, with no vote
// cast and no leader known in the term, to the asker; a pre-vote for a
// later term is granted whatever the vote. Either way the candidate's log
// must be at least as up to date as the voter's (§5.4.1). A granted vote is
// remembered and restarts the election timer; a granted pre-vote changes
// nothing.
func (n *Node) handleRequestVote(m Message) {
	respType := MsgVoteResp
	if m.Type == MsgPreVote {
		respType = MsgPreVoteResp
	}
	if why := n.voteRefusal(m); why != RejectNone {
		n.send(Message{Type: respType, To: m.From, Term: n.term, Reject: true, Why: why})
		return
	}
	n.send(Message{Type: respType, To: m.From, Term: m.Term})
	if m.Type == MsgVote {
		n.electionElapsed = 0
		n.vote = m.From
	}
}

func (n *Node) stepFollower(m Message) {
	switch m.Type {
	case MsgProp:
		// A follower's only job with a proposal is to pass it on.
		if n.lead != None {
			m.To = n.lead
			m.Term = 0
			n.send(m)
		}
	case MsgApp:
		n.electionElapsed = 0
		n.lead = m.From
		n.handleAppendEntries(m)
	case MsgHeartbeat:
		n.electionElapsed = 0
		n.lead = m.From
		n.handleHeartbeat(m)
	case MsgSnap:
		n.electionElapsed = 0
		n.lead = m.From
		n.handleSnapshot(m)
	case MsgReadIndex:
		if n.lead != None {
			m.To = n.lead
			m.Term = 0
			n.send(m)
		}
	case MsgReadIndexResp:
		n.readStates = append(n.readStates, ReadState{Index: m.Index, Ctx: m.Context, Term: m.Term})
	case MsgTransferLeader:
		n.forwardTransfer(m)
	case MsgTimeoutNow:
		n.timeoutNow()
	}
}

func (n *Node) stepCandidate(m Message) {
	myResp := MsgVoteResp
	if n.role == RolePreCandidate {
		myResp = MsgPreVoteResp
	}
	switch m.Type {
	case MsgApp:
		n.becomeFollower(m.Term, m.From, CauseLeaderOfTerm)
		n.handleAppendEntries(m)
	case MsgHeartbeat:
		n.becomeFollower(m.Term, m.From, CauseLeaderOfTerm)
		n.handleHeartbeat(m)
	case MsgSnap:
		n.becomeFollower(m.Term, m.From, CauseLeaderOfTerm)
		n.handleSnapshot(m)
	case myResp:
		switch n.countVote(m.From, !m.Reject) {
		case quorum.VoteWon:
			if n.role == RolePreCandidate {
				n.requestVotes(false, CauseWonPreVote)
			} else {
				n.becomeLeader()
				n.broadcastAppendEntries()
			}
		case quorum.VoteLost:
			n.becomeFollower(n.term, None, CauseLostElection)
		}
	}
}

func (n *Node) stepLeader(m Message) {
	switch m.Type {
	case MsgProp:
		// A proposal refused here is dropped, as etcd drops it; its
		// client waits out its timeout.
		n.leaderPropose(m.Entries[0].Data)
		return
	case MsgReadIndex:
		n.handleReadIndex(m)
		return
	case MsgTransferLeader:
		n.handleTransferLeader(m)
		return
	}
	if !n.conf.members().has(m.From) || int(m.From) > n.cfg.size {
		// etcd's leader ignores a machine it keeps no progress for.
		return
	}
	pr := &n.prs[m.From]
	switch m.Type {
	case MsgAppResp:
		pr.RecentActive = true
		if m.Reject {
			next := m.RejectHint
			if m.LogTerm > 0 {
				next, _ = n.log.findConflictByTerm(m.RejectHint, m.LogTerm)
			}
			if pr.maybeDecrTo(m.Index, next) {
				if pr.State == ProgressReplicate {
					pr.becomeProbe()
				}
				n.sendAppendEntries(m.From, true)
			}
			return
		}
		if pr.maybeUpdate(m.Index) || (pr.Match == m.Index && pr.State == ProgressProbe) {
			switch {
			case pr.State == ProgressProbe:
				pr.becomeReplicate()
			case pr.State == ProgressSnapshot && pr.Match+1 >= n.log.firstIndex():
				// The follower holds the snapshot (or enough of the log):
				// back to replicating, through probe as etcd goes.
				pr.becomeProbe()
				pr.becomeReplicate()
			case pr.State == ProgressReplicate:
				pr.freeInflightUpTo(m.Index)
			}
			if n.advanceCommitIndex() {
				n.releasePendingReadMsgs()
				n.broadcastAppendEntries()
			} else if pr.canBumpCommit(n.commit) {
				// The follower may be missing the commit index; an append
				// tells it sooner than the next heartbeat would.
				n.sendAppendEntries(m.From, true)
			}
			// Flow control may now allow several appends at once.
			for n.sendAppendEntries(m.From, false) {
			}
			if m.From == n.leadTransferee && pr.Match == n.log.lastIndex() {
				// The transfer's target has caught up.
				n.send(Message{Type: MsgTimeoutNow, To: m.From, Term: n.term})
			}
		}
	case MsgHeartbeatResp:
		pr.RecentActive = true
		pr.Paused = false
		if pr.Match < n.log.lastIndex() || pr.State == ProgressProbe {
			n.sendAppendEntries(m.From, true)
		}
		if m.Context != 0 {
			n.ackRead(m.From, m.Context)
		}
	case MsgSnapStatus:
		n.reportSnapshot(m, pr)
	}
}

// appendToLocalLog appends commands to the leader's own log in its term
// (not to be confused with the AppendEntries message, which
// sendAppendEntries sends).
func (n *Node) appendToLocalLog(cmds ...Command) {
	last := n.log.lastIndex()
	ents := make([]Entry, len(cmds))
	for i, c := range cmds {
		ents[i] = Entry{Index: last + 1 + uint64(i), Term: n.term, Data: c}
	}
	n.log.appendAfter(last, ents...)
	n.prs[n.ID].maybeUpdate(n.log.lastIndex())
	n.advanceCommitIndex()
	n.applyOnAppend(ents)
}

// advanceCommitIndex moves the commit index to the highest index stored on
// a majority, but only if that entry is of the leader's current term
// (§5.4.2): counting replicas is not enough for entries of earlier terms.
// It reports whether the commit index moved. The count is over every
// machine's match index, the leader's own last index among them.
func (n *Node) advanceCommitIndex() bool {
	mci := uint64(n.conf.voters.CommittedIndex(&n.prs))
	if n.cfg.has(BugCountLearners) {
		mci = uint64(n.withLearners().CommittedIndex(&n.prs))
	}
	if n.cfg.has(BugCommitWithoutMajority) {
		// One copy is taken for enough: the highest index any machine
		// holds, which is the leader's own last index.
		mci = n.prs.highestMatch()
	}
	if mci <= n.commit {
		return false
	}
	if n.log.term(mci) != n.term && !n.cfg.has(BugCommitOldTerm) {
		return false
	}
	n.commit = mci
	n.countedIn, n.countedOut, n.countedLearners, n.countedTo = n.conf.incoming, n.conf.outgoing, n.conf.learners, mci
	return true
}

// broadcastAppendEntries sends every follower whose flow control allows it
// an AppendEntries with the entries it lacks, even if that is none.
func (n *Node) broadcastAppendEntries() {
	members := n.conf.members()
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) != n.ID && members.has(NodeID(id)) {
			n.sendAppendEntries(NodeID(id), true)
		}
	}
}

// sendAppendEntries sends the follower an AppendEntries with the entries it
// lacks, from its next index on. With sendIfEmpty false it sends only when
// there are entries to send. It reports whether it sent.
func (n *Node) sendAppendEntries(to NodeID, sendIfEmpty bool) bool {
	pr := &n.prs[to]
	if pr.isPaused() {
		return false
	}
	prev := pr.Next - 1
	if n.log.compacted(prev) {
		// The follower needs entries the leader no longer holds.
		if !n.cfg.has(BugCompactWithoutSnapshot) {
			return n.maybeSendSnapshot(to, pr)
		}
		// Broken: go on from the first entry still held, as if the
		// follower had the rest.
		pr.Next = n.log.firstIndex()
		prev = pr.Next - 1
	}
	var ents []Entry
	// With the window full (a heartbeat answer unpaused it), only an empty
	// append goes out: if every append in flight was lost, the follower's
	// answer to this one is what gets replication moving again.
	if pr.State != ProgressReplicate || !pr.inflightFull(n.cfg.maxInflight) {
		ents = n.log.slice(pr.Next, n.cfg.maxEntries)
	}
	if len(ents) == 0 && !sendIfEmpty {
		return false
	}
	n.send(Message{Type: MsgApp, To: to, Term: n.term, Index: prev, LogTerm: n.log.term(prev), Entries: ents, Commit: n.commit})
	last := prev
	if len(ents) > 0 {
		last = ents[len(ents)-1].Index
	}
	pr.sentEntries(len(ents), last, n.cfg.maxInflight)
	pr.sentCommit = n.commit
	return true
}

// broadcastHeartbeat sends heartbeats; ctx, when not zero, makes the round
// confirm a pending read (ReadIndex).
func (n *Node) broadcastHeartbeat(ctx uint64) {
	if ctx == 0 && len(n.pendingReads) > 0 {
		// Piggyback the newest pending read so that reads are not stranded
		// by a lost heartbeat.
		ctx = n.pendingReads[len(n.pendingReads)-1].ctx
	}
	members := n.conf.members()
	for id := 1; id <= n.cfg.size; id++ {
		if NodeID(id) == n.ID || !members.has(NodeID(id)) {
			continue
		}
		// A follower may not yet have the leader's whole committed prefix;
		// telling it to commit past its match would be wrong.
		commit := min(n.commit, n.prs[id].Match)
		n.send(Message{Type: MsgHeartbeat, To: NodeID(id), Term: n.term, Commit: commit, Context: ctx})
		n.prs[id].sentCommit = commit
	}
}

// handleAppendEntries answers an AppendEntries from the leader of the
// machine's term (§5.3). One that starts below the commit index is answered
// with the commit index, as etcd does: what is committed already matches.
// One whose previous entry does not match is rejected with a hint of where
// the two logs may still agree, so that the leader can move back past a
// whole term at once.
func (n *Node) handleAppendEntries(m Message) {
	if m.Index < n.commit {
		n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Index: n.commit})
		return
	}
	if last, ok := n.appendIfConsistent(m.Index, m.LogTerm, m.Commit, m.Entries); ok {
		n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Index: last})
		return
	}
	hint := m.Index
	if l := n.log.lastIndex(); l < hint {
		hint = l
	}
	hint, hintTerm := n.log.findConflictByTerm(hint, m.LogTerm)
	n.send(Message{Type: MsgAppResp, To: m.From, Term: n.term, Index: m.Index, Reject: true, RejectHint: hint, LogTerm: hintTerm, Why: RejectLogMismatch})
}

// appendIfConsistent is the consistency check of AppendEntries (§5.3):
// entries are accepted only after an entry matching (index, logTerm);
// conflicting entries and all that follow them are replaced by the
// leader's. The commit index then follows the leader's, up to the last new
// entry. It returns that entry's index and whether the entries matched.
func (n *Node) appendIfConsistent(index, logTerm, commit uint64, ents []Entry) (uint64, bool) {
	if !n.log.matchTerm(index, logTerm) {
		return 0, false
	}
	lastNew := index + uint64(len(ents))
	if ci := n.log.findConflict(ents); ci != 0 {
		if n.cfg.has(BugNoTruncate) && ci <= n.log.lastIndex() {
			// Broken: keep our conflicting entries, add only what is new.
			if have := n.log.lastIndex() - index; have < uint64(len(ents)) {
				n.log.appendAfter(n.log.lastIndex(), ents[have:]...)
			}
		} else {
			n.log.appendAfter(ci-1, ents[ci-index-1:]...)
		}
		n.applyOnAppend(ents[ci-index-1:])
	}
	if commit > lastNew {
		commit = lastNew
	}
	n.followLeaderCommit(commit)
	return lastNew, true
}

// followLeaderCommit raises the commit index to c, which the leader has
// committed and this machine's log is known to share. It never lowers it.
func (n *Node) followLeaderCommit(c uint64) {
	if c > n.commit {
		n.commit = c
	}
}

func (n *Node) handleHeartbeat(m Message) {
	n.followLeaderCommit(m.Commit)
	n.send(Message{Type: MsgHeartbeatResp, To: m.From, Term: n.term, Context: m.Context})
}

func (n *Node) proposeRaft(cmd Command) Refusal {
	switch n.role {
	case RoleLeader:
		return n.leaderPropose(cmd)
	case RoleFollower:
		if n.lead == None {
			return RefusedNoLeader
		}
		n.send(Message{Type: MsgProp, To: n.lead, Entries: []Entry{{Data: cmd}}})
		return RefusedNone
	default:
		return RefusedElection
	}
}
