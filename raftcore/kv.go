package raftcore

import "sort"

// KV is the state machine: a small key-value store whose keys read like
// Kubernetes objects ("deployments/web" -> "replicas=3").
//
// Every key carries its revision: the log index of the entry that last
// changed it (etcd's mod revision, which Kubernetes shows as an object's
// resourceVersion). A conditional put compares it when the entry is applied.
//
// Digest is an order-independent hash of the contents, revisions included,
// kept up to date on every change, so the checker can compare two machines'
// states in O(1).
type KV struct {
	data   map[string]KVValue
	digest uint64
	// sessions discards copies of a client's write that are already applied.
	sessions sessionTable
}

// KVValue is a stored value and the log index that last wrote it (etcd's
// mod revision).
type KVValue struct {
	Value    string `json:"value"`
	ModIndex uint64 `json:"rev"`
}

// applied is what applying one entry did to the store.
type applied struct {
	// PrevRev is the key's revision just before the entry (0: absent).
	PrevRev uint64
	// Conflict is set when a conditional put found a revision other than
	// the one it was conditioned on, and so changed nothing.
	Conflict bool
	// Repeat is set when the entry repeats a client write its session had
	// already applied: it changed nothing. FirstIndex is where the write
	// took effect: the entry's own index, or for a repeat the index of the
	// copy applied before (0 if forgotten), whose result is the answer.
	Repeat     bool
	FirstIndex uint64
}

// changed reports whether the entry changed the store's contents.
func (d applied) changed() bool { return !d.Repeat && !d.Conflict }

// apply applies e unless it repeats a client write already applied, or is
// a compare-and-swap that finds another revision, and says what it did.
func (kv *KV) apply(e Entry) applied {
	var out applied
	took, first := kv.sessions.admit(e.Data, e.Index)
	out.FirstIndex = first
	if !took {
		out.Repeat = true
		return out
	}
	if e.Data.Kind == OpPut || e.Data.Kind == OpDelete {
		out.PrevRev = kv.data[e.Data.Key].ModIndex
	}
	switch e.Data.Kind {
	case OpPut:
		if e.Data.Cas && out.PrevRev != e.Data.BasedOn {
			out.Conflict = true
			return out
		}
		kv.remove(e.Data.Key)
		if kv.data == nil {
			kv.data = make(map[string]KVValue)
		}
		kv.data[e.Data.Key] = KVValue{Value: e.Data.Value, ModIndex: e.Index}
		kv.digest += kvHash(e.Data.Key, e.Data.Value, e.Index)
	case OpDelete:
		kv.remove(e.Data.Key)
	}
	return out
}

func (kv *KV) remove(key string) {
	if old, ok := kv.data[key]; ok {
		kv.digest -= kvHash(key, old.Value, old.ModIndex)
		delete(kv.data, key)
	}
}

// Get returns the value stored under key.
func (kv *KV) Get(key string) (KVValue, bool) {
	v, ok := kv.data[key]
	return v, ok
}

// Len is the number of keys.
func (kv *KV) Len() int { return len(kv.data) }

// Digest is the order-independent hash of the contents.
func (kv *KV) Digest() uint64 { return kv.digest }

// Keys returns the keys in sorted order.
func (kv *KV) Keys() []string {
	keys := make([]string, 0, len(kv.data))
	for k := range kv.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Revisions returns each key's revision as a plain map (for summaries).
func (kv *KV) Revisions() map[string]uint64 {
	out := make(map[string]uint64, len(kv.data))
	for k, v := range kv.data {
		out[k] = v.ModIndex
	}
	return out
}

// Snapshot returns the contents as a plain map (for summaries).
func (kv *KV) Snapshot() map[string]string {
	out := make(map[string]string, len(kv.data))
	for k, v := range kv.data {
		out[k] = v.Value
	}
	return out
}

func (kv KV) clone() KV {
	kv.sessions = kv.sessions.clone()
	if kv.data == nil {
		return kv
	}
	m := make(map[string]KVValue, len(kv.data))
	for k, v := range kv.data {
		m[k] = v
	}
	kv.data = m
	return kv
}

func kvHash(key, value string, rev uint64) uint64 {
	h := fnvString(0xcbf29ce484222325, key)
	h = fnvString(h, value)
	h = fnvUint(h, rev)
	// A final mix so that sums of hashes do not cancel in simple ways.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
