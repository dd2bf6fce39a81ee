// Package explore is a model checker for raftcore: from a world of a few
// machines it tries every choice the world can make, one action at a time,
// and checks every safety rule in every state it reaches.
//
// The world's clock stands still at zero for the whole exploration. Nothing
// happens on its own; every step is one recorded raftcore action:
//
//   - deliver: one message in flight arrives now, whichever was sent first
//     (so every order of arrival is tried);
//   - drop and repeat: one message in flight is lost, or a second copy of
//     it is put on the wire (faults);
//   - timeout: a follower's or candidate's election timer runs out, while
//     its term is below the bound (a pre-candidate is not made to ask the
//     same question twice: repeat covers that);
//   - heartbeat: a leader's heartbeat timer runs out, when none of its
//     heartbeats is still in flight (a second round would only copy it);
//   - crash (a fault) and restart: a machine stops, losing all but its
//     term, vote and log, and later starts again;
//   - write: a client asks a machine that knows a leader to write a key;
//   - read: a client asks a leader, or a follower that knows one, to read
//     that key, linearizably (ReadIndex) or on the leader's lease.
//
// Because each step is an action, every path is a raftcore schedule: the
// shortest path to a broken rule replays with `raftsim run -f` and opens in
// the app from a share link, step by step.
//
// The search is breadth first, so the first broken rule it meets is reached
// by a shortest path. States reached by different paths are recognised by
// World.StateKey (machines, messages in flight as a multiset and what the
// checker remembers; not message ids, the trace or the action log) together
// with the budgets still left and what the read rule needs of the clients
// (clientKey). The space is bounded by the highest term a machine may
// reach, the number of client writes and reads, the length of a path and
// the number of faults along it.
//
// A standing clock has one consequence worth knowing: a follower's lease on
// its leader (CheckQuorum's "I heard my leader within the election timeout,
// so I ignore vote requests") ends only when its own election timer runs out,
// and a leader never steps down for want of a quorum, since both need time
// to pass. Elections still happen, once enough machines time out.
//
// Each state is also checked against invariants computed here, from the
// machines' public state and with the majority counted here, neither by the
// checker the world runs nor with raftcore/quorum: two leaders of one term,
// logs that agree on an entry's term but not on what precedes it, committed
// prefixes that differ, a commit index past the log's end, a committed entry
// held by fewer than a majority, and two stores that differ after applying
// the same log. Every
// read answered is held to a read rule ordered by the trace rather than the
// clock, which stands still (reads.go).
package explore
