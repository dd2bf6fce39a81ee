package raftcore

import (
	"fmt"
	"strconv"
)

// NodeID names a machine. Machines are numbered 1..N; None (0) means "nobody",
// as in etcd where a zero id is never a member.
type NodeID int

// None is the absent node: no vote cast, no leader known, or a client.
const None NodeID = 0

// Role is what a machine currently believes it is.
type Role uint8

const (
	RoleFollower Role = iota
	RolePreCandidate
	RoleCandidate
	RoleLeader
	// RoleReplica is the only role in naive-copy: every machine is equal.
	RoleReplica
)

var roleNames = [...]string{"follower", "pre-candidate", "candidate", "leader", "replica"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("role(%d)", r)
}

// Protocol names the replication protocol every machine of a world runs.
type Protocol string

const (
	// ProtocolRaft is Raft as etcd runs it.
	ProtocolRaft Protocol = "raft"
	// ProtocolNaiveCopy accepts writes anywhere and copies them to whoever is
	// reachable: no agreement, no order, no repair.
	ProtocolNaiveCopy Protocol = "naive-copy"
	// ProtocolFailover has one authority that orders writes; a follower that
	// stops hearing it promotes itself. No terms, no votes, no quorum.
	ProtocolFailover Protocol = "failover"
)

// Protocols lists the protocols in the order the app offers them.
var Protocols = []Protocol{ProtocolRaft, ProtocolNaiveCopy, ProtocolFailover}

// ParseProtocol checks a protocol name.
func ParseProtocol(s string) (Protocol, error) {
	for _, p := range Protocols {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown protocol %q: use raft, naive-copy or failover", s)
}

// OpKind is what a client command does to the key-value store.
type OpKind uint8

const (
	// OpNoop is the empty entry a new leader appends (etcd does the same) so
	// that it can commit entries of earlier terms.
	OpNoop OpKind = iota
	OpPut
	OpDelete
	// OpConf changes the cluster's configuration (Command.Conf); it leaves
	// the store alone.
	OpConf
)

var opKindNames = [...]string{"noop", "put", "delete", "conf"}

func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// Command is the payload of a log entry.
type Command struct {
	Kind  OpKind
	Key   string
	Value string
	// OpID links the entry to the client operation that proposed it, so the
	// machine the client asked can answer when it applies the entry.
	OpID int
	// Based says the value was computed from a read of the key (a
	// read-modify-write), which saw the key at revision BasedOn (0: the key
	// did not exist). The checker uses it to name a lost update.
	Based   bool
	BasedOn uint64
	// Cas makes a put conditional: it takes effect only if the key's
	// revision is still BasedOn when the entry is applied. Every machine
	// applies the same log to the same state, so every machine decides the
	// same way.
	Cas bool
	// Client, Seq and Low are the client session of §6.3 of Ongaro's
	// thesis: the writing client's id, the write's sequence number within
	// that client, and the lowest sequence number the client was still
	// waiting on when it sent this one (everything below is answered, so
	// the state machine may forget it). A zero Client is a write outside
	// any session, applied however often it appears in the log.
	Client NodeID
	Seq    uint64
	Low    uint64
	// Conf is the change an OpConf entry makes to the configuration.
	Conf ConfChange
}

func (c Command) String() string {
	switch c.Kind {
	case OpPut:
		if c.Cas {
			return c.Key + "=" + c.Value + " if rev " + strconv.FormatUint(c.BasedOn, 10)
		}
		return c.Key + "=" + c.Value
	case OpDelete:
		return "delete " + c.Key
	case OpConf:
		return c.Conf.String()
	default:
		return "(empty)"
	}
}

// Entry is one log entry. Chain is a running hash of the log up to and
// including this entry; two logs with the same Chain at an index are
// identical up to that index. The checker uses it to test Log Matching
// without comparing whole logs.
type Entry struct {
	Index uint64
	Term  uint64
	Data  Command
	Chain uint64
}

// MsgType is the kind of a message between machines.
type MsgType uint8

const (
	MsgPreVote MsgType = iota
	MsgPreVoteResp
	MsgVote
	MsgVoteResp
	MsgApp
	MsgAppResp
	MsgHeartbeat
	MsgHeartbeatResp
	// MsgProp carries a client proposal from a follower to the leader.
	MsgProp
	// MsgReadIndex asks the leader for a read index; MsgReadIndexResp answers.
	MsgReadIndex
	MsgReadIndexResp
	// MsgCopy is naive-copy's "here is a write I accepted".
	MsgCopy
	// MsgClient is a client request arriving at the machine it chose. It never
	// crosses the network, but it queues behind the machine's other work.
	MsgClient
	// MsgTransferLeader asks a leader to hand leadership to the machine
	// Origin names; a follower passes it on to its leader.
	MsgTransferLeader
	// MsgTimeoutNow tells the target of a transfer to stand for election
	// at once.
	MsgTimeoutNow
	// MsgSnap carries the leader's snapshot to a follower that needs
	// entries the leader has compacted.
	MsgSnap
	// MsgSnapStatus is the transport's report to the leader on a snapshot
	// it sent: it arrived, or (Reject) it was lost. Like MsgClient it
	// never crosses the network.
	MsgSnapStatus

	// MsgKube is a kubelet's request to an API server, MsgKubeResp the
	// answer (kubelet.go); both cross the network between a worker and a
	// member.
	MsgKube
	MsgKubeResp
)

var msgTypeNames = [...]string{
	"PreVote", "PreVoteResp", "Vote", "VoteResp", "Append", "AppendResp",
	"Heartbeat", "HeartbeatResp", "Propose", "ReadIndex", "ReadIndexResp", "Copy", "Client",
	"TransferLeader", "TimeoutNow", "Snapshot", "SnapshotStatus",
	"Kube", "KubeResp",
}

func (t MsgType) String() string {
	if int(t) < len(msgTypeNames) {
		return msgTypeNames[t]
	}
	return fmt.Sprintf("msg(%d)", t)
}

// IsResponse reports whether t answers another message.
func (t MsgType) IsResponse() bool {
	switch t {
	case MsgPreVoteResp, MsgVoteResp, MsgAppResp, MsgHeartbeatResp, MsgReadIndexResp:
		return true
	}
	return false
}

// Message is one message between machines. Messages are plain data: the app
// draws them in flight, and a reader can inspect or drop one.
type Message struct {
	ID   uint64
	Type MsgType
	From NodeID
	To   NodeID
	Term uint64
	// LogTerm and Index: for votes, the candidate's last log position; for
	// appends, the entry preceding Entries; for append responses, the
	// follower's last matching index (or the rejected index).
	LogTerm uint64
	Index   uint64
	Entries []Entry
	Commit  uint64
	Reject  bool
	// Why is the reason for a refused vote or pre-vote, a rejected
	// append, or an append answer that tells a stale leader of a newer
	// term. Nothing but a reader acts on it.
	Why RejectReason
	// RejectHint is the follower's guess of where the logs diverge, so the
	// leader can skip a whole term at a time.
	RejectHint uint64
	// Context ties a heartbeat round or read index answer to a read
	// request; on a vote request, campaignTransfer marks an election a
	// leader asked for by TimeoutNow.
	Context uint64
	// Lease asks for a lease-based read instead of a quorum round.
	Lease bool
	// Origin is, on a read request, the machine the client asked. A follower
	// that passes the request on keeps it, so the leader answers that
	// machine even when the request crossed two hops (etcd keeps From for
	// this; here From is always the sender, whose link the message uses).
	// On MsgTransferLeader it is the machine leadership should go to.
	Origin NodeID

	SendUs    int64
	DeliverUs int64
	// Lost is set when the network will drop this message on arrival (loss).
	Lost bool
	// Client is set on MsgClient.
	Client *ClientRequest
	// Snapshot is set on MsgSnap; it is shared, never changed.
	Snapshot *Snapshot
}

// Bytes is roughly how large the message is on the wire: a fixed header,
// each entry with its key and value, and a snapshot's contents. On a link
// of limited bandwidth (Config.BandwidthKBps) a larger message takes
// longer to arrive.
func (m *Message) Bytes() int {
	const header, perEntry = 48, 40
	b := header
	for i := range m.Entries {
		b += perEntry + len(m.Entries[i].Data.Key) + len(m.Entries[i].Data.Value)
	}
	if m.Snapshot != nil {
		b += m.Snapshot.Bytes()
	}
	return b
}

// ReadMode says how a read is served.
type ReadMode string

const (
	// ReadLinearizable uses etcd's ReadIndex: the leader confirms with a
	// quorum that it still leads, then the answer waits for apply.
	ReadLinearizable ReadMode = "linearizable"
	// ReadLease lets the leader answer from its lease (CheckQuorum) without a
	// quorum round; the lease is measured on the leader's own clock. With
	// CheckQuorum off there is no lease, and lease reads are refused.
	ReadLease ReadMode = "lease"
	// ReadLocal answers from the asked machine's own applied state. Fast and
	// always available, possibly stale (etcd's "serializable" reads).
	ReadLocal ReadMode = "local"
)

// ParseReadMode checks a read mode name; "serializable" is accepted as local.
func ParseReadMode(s string) (ReadMode, error) {
	switch s {
	case "linearizable", "":
		return ReadLinearizable, nil
	case "lease":
		return ReadLease, nil
	case "local", "serializable":
		return ReadLocal, nil
	}
	return "", fmt.Errorf("unknown read mode %q: use linearizable, lease or local", s)
}

// ClientRequest is what a client hands to a machine.
type ClientRequest struct {
	OpID int
	Kind OpKind // OpPut or OpDelete for writes; OpNoop for reads
	Read bool
	Key  string
	// Value is the value to write.
	Value string
	Mode  ReadMode
	// Based, BasedOn and Cas are copied to the command (see Command).
	Based   bool
	BasedOn uint64
	Cas     bool

	// kube is set on MsgKube and MsgKubeResp.
	kube *kubeCall
}
