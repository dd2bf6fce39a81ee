package words

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"raftlab/raftcore"
)

// TestInformerStateSaysEachState: the informer's line names each state of
// its list-and-watch loop, with the revisions and the wait left, and marks
// every state but watching (and a first list) as a trouble.
func TestInformerStateSaysEachState(t *testing.T) {
	for _, c := range []struct {
		inf     raftcore.Informer
		want    string
		trouble bool
	}{
		{raftcore.Informer{State: raftcore.InformerWatching, Synced: true, ListedRev: 4}, "Listed at rev 4 · watching from rev 5", false},
		{raftcore.Informer{State: raftcore.InformerListing}, "Listing, before its first watch", false},
		{raftcore.Informer{State: raftcore.InformerListing, Synced: true, ListedRev: 4}, "Re-listing (the last list was at rev 4)", true},
		{raftcore.Informer{State: raftcore.InformerWaiting, Synced: true, ListedRev: 4, LastCut: raftcore.CutByHand, RelistAtUs: 2_600_000},
			"Watch cut (cut by hand) · re-listing in 1.6 s (backoff)", true},
		{raftcore.Informer{State: raftcore.InformerWaiting, Synced: true, ListedRev: 4, LastCut: raftcore.CutLink, RelistAtUs: 1_800_000},
			"Watch cut (link cut) · re-listing in 0.8 s (backoff)", true},
		{raftcore.Informer{State: raftcore.InformerWaiting, Synced: true, ListedRev: 4, LastCut: raftcore.CutCompacted, RelistAtUs: 1_800_000},
			"Watch refused as compacted (410 Gone) · re-listing in 0.8 s (backoff)", true},
		{raftcore.Informer{State: raftcore.InformerWaiting, RelistAtUs: 1_800_000}, "List failed · re-listing in 0.8 s (backoff)", true},
		{raftcore.Informer{State: raftcore.InformerDown}, "Machine down: cache and queue lost; it lists again when the machine restarts", true},
	} {
		got, trouble := InformerState(c.inf, 1_000_000)
		assert.Equal(t, c.want, got)
		assert.Equal(t, c.trouble, trouble, c.want)
	}
}

// TestCacheLineSaysWhatDiffers: an object the cache and the store hold at
// one revision agrees; one at two revisions, missing from the cache or gone
// from the store, says which.
func TestCacheLineSaysWhatDiffers(t *testing.T) {
	for _, c := range []struct {
		key                string
		cacheRev, storeRev uint64
		inCache, inStore   bool
		want               string
		ok                 bool
	}{
		{"deployments/web", 2, 2, true, true, "deployment/web · rev 2", true},
		{"deployments/web", 2, 5, true, true, "deployment/web · cache rev 2, store rev 5", false},
		{"replicasets/web-x", 0, 3, false, true, "replicaset/web-x · store rev 3, not in the cache", false},
		{"replicasets/web-x", 3, 0, true, false, "replicaset/web-x · cache rev 3, gone from the store", false},
	} {
		got, ok := CacheLine(c.key, c.cacheRev, c.storeRev, c.inCache, c.inStore)
		assert.Equal(t, c.want, got)
		assert.Equal(t, c.ok, ok, c.want)
	}
}
