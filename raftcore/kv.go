package raftcore

import "sort"

// KV is the state machine: a small key-value store whose keys read like
// Kubernetes objects ("deployments/web" -> "replicas=3").
//
// Digest is an order-independent hash of the contents, kept up to date on
// every change, so the checker can compare two machines' states in O(1).
type KV struct {
	data   map[string]KVValue
	digest uint64
	// sessions discards copies of a client's write that are already applied.
	sessions sessionTable
}

// KVValue is a stored value and the log index that last wrote it (etcd's
// mod revision).
type KVValue struct {
	Value    string
	ModIndex uint64
}

// apply applies e unless it repeats a client write already applied, and
// returns the index of the write's first application: e.Index when it took
// effect now, otherwise the earlier index (0 if forgotten).
func (kv *KV) apply(e Entry) (took bool, firstIndex uint64) {
	if took, firstIndex = kv.sessions.admit(e.Data, e.Index); !took {
		return false, firstIndex
	}
	switch e.Data.Kind {
	case OpPut:
		kv.remove(e.Data.Key)
		if kv.data == nil {
			kv.data = make(map[string]KVValue)
		}
		kv.data[e.Data.Key] = KVValue{Value: e.Data.Value, ModIndex: e.Index}
		kv.digest += kvHash(e.Data.Key, e.Data.Value)
	case OpDelete:
		kv.remove(e.Data.Key)
	}
	return true, e.Index
}

func (kv *KV) remove(key string) {
	if old, ok := kv.data[key]; ok {
		kv.digest -= kvHash(key, old.Value)
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

func kvHash(key, value string) uint64 {
	h := fnvString(0xcbf29ce484222325, key)
	h = fnvString(h, value)
	// A final mix so that sums of hashes do not cancel in simple ways.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
