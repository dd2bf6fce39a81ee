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
// sends: it moves to the next running machine after it, wrapping around,
// and stays there for the writes that follow. A paused or cut-off machine
// still accepts the connection; the client cannot tell it from a slow one,
// and its write waits there, as any write sent to that machine would.

// clusterEndpoint is the machine the cluster's client sends its next
// write to: the one it is connected to if it is not crashed, else the next
// one that is not, which it then stays connected to. With every machine
// crashed it keeps its connection's machine, and the write is refused there.
func (w *World) clusterEndpoint() NodeID {
	n := NodeID(w.cfg.Nodes)
	if w.endpoint == None {
		w.endpoint = 1
	}
	for k := NodeID(0); k < n; k++ {
		id := (w.endpoint-1+k)%n + 1
		if w.machines[id].status != StatusCrashed {
			w.endpoint = id
			break
		}
	}
	return w.endpoint
}

// Endpoint is the machine the cluster's client is connected to, where its
// next write to the cluster goes if that machine is still running; None
// before its first write.
func (w *World) Endpoint() NodeID { return w.endpoint }
