package raftcore

// The cluster's client: a write sent "to the cluster" (an action with no
// machine named) goes where etcd's client (clientv3) would send it. That
// client keeps one connection to one member of its endpoint list and sends
// every request there; the member, if it is a follower, passes a proposal
// on to the leader it knows (MsgProp), so the client never looks for the
// leader itself. When the connection fails because the member is down, the
// client's balancer moves to another endpoint and the request goes there.
//
// Here the endpoints are the machines in id order. A crashed machine
// refuses connections at once, so the client finds it down before it
// sends: it moves to the next machine after it, wrapping around, and stays
// there for the writes that follow. So does a machine outside the
// cluster: a spare that never joined, or a member removed (etcd stops a
// member once it is removed), and a learner, which etcd lets serve no
// writes. A paused or cut-off machine still accepts the connection; the
// client cannot tell it from a slow one, and its write waits there, as any
// write sent to that machine would.

// clusterEndpoint is the machine the cluster's client sends its next
// write to: the one it is connected to if it takes connections, else the
// next one that does, which it then stays connected to. With none to take
// them it keeps its connection's machine, and the write is refused there.
func (w *World) clusterEndpoint() NodeID {
	n := NodeID(w.cfg.Nodes)
	if w.endpoint == None {
		w.endpoint = 1
	}
	for k := NodeID(0); k < n; k++ {
		id := (w.endpoint-1+k)%n + 1
		if w.takesClients(id) {
			w.endpoint = id
			break
		}
	}
	return w.endpoint
}

// takesClients reports whether machine id accepts a client's connection:
// it is not crashed, and it is a voting member of the cluster as it knows
// it.
func (w *World) takesClients(id NodeID) bool {
	nd := w.nodes[id]
	return w.machines[id].status != StatusCrashed && nd.IsMember() && !nd.IsLearner()
}

// Endpoint is the machine the cluster's client is connected to, where its
// next write to the cluster goes if that machine is still running; None
// before its first write.
func (w *World) Endpoint() NodeID { return w.endpoint }
