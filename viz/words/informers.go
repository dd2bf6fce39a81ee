package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words of deployment controllers and their informers: the Informers
// part of the Safety panel (each controller's list-and-watch state, its
// cache against its API server's store and the reconcile checks), its
// buttons, and the tags of watch events on the stage.

// InformersTitle heads the informers in the Safety panel, and the panel
// itself in a figure about them.
const InformersTitle = "Informers"

// ControllerLine names a deployment controller by the machine it runs on,
// and by its number where there are several.
func ControllerLine(id int, node string, several bool) string {
	if several {
		return "Deployment controller " + Itoa(id) + " on " + node
	}
	return "Deployment controller on " + node
}

// NoController says a figure about informers has none running yet.
const NoController = "No deployment controller runs yet."

// InformerState says where an informer is in its list-and-watch loop at
// nowUs, and whether that is a trouble (a watch that is not running).
func InformerState(inf raftcore.Informer, nowUs int64) (text string, trouble bool) {
	switch inf.State {
	case raftcore.InformerDown:
		return "Machine down: cache and queue lost; it lists again when the machine restarts", true
	case raftcore.InformerListing:
		if inf.Synced {
			return "Re-listing (the last list was at rev " + u(inf.ListedRev) + ")", true
		}
		return "Listing, before its first watch", false
	case raftcore.InformerWaiting:
		wait := "re-listing in " + tenths(max(inf.RelistAtUs-nowUs, 0)) + " (backoff)"
		switch {
		case !inf.Synced:
			return "List failed · " + wait, true
		case inf.LastCut == raftcore.CutCompacted:
			// At its start or while it ran (its server restored a
			// snapshot): either way the revisions it needed are gone.
			return "Watch refused as compacted (410 Gone) · " + wait, true
		case inf.LastCut != raftcore.CutNone:
			return "Watch cut (" + inf.LastCut.String() + ") · " + wait, true
		}
		return "List failed · " + wait, true
	}
	return "Listed at rev " + u(inf.ListedRev) + " · watching from rev " + u(inf.ListedRev+1), false
}

// CacheHeading introduces a controller's cache, held against the store of
// its API server's member.
func CacheHeading(server string) string { return "Cache, against the store on " + server + ":" }

// ObjectName is a stored object's name as kubectl writes it:
// "deployments/web" is deployment/web, "replicasets/web-x" replicaset/web-x.
func ObjectName(key string) string {
	switch {
	case strings.HasPrefix(key, raftcore.DeploymentPrefix):
		return "deployment/" + strings.TrimPrefix(key, raftcore.DeploymentPrefix)
	case strings.HasPrefix(key, raftcore.ReplicaSetPrefix):
		return "replicaset/" + strings.TrimPrefix(key, raftcore.ReplicaSetPrefix)
	}
	return key
}

// CacheLine is one object of a controller's cache beside the store's copy:
// the same revision in both (ok), or what differs.
func CacheLine(key string, cacheRev, storeRev uint64, inCache, inStore bool) (text string, ok bool) {
	name := ObjectName(key)
	switch {
	case inCache && inStore && cacheRev == storeRev:
		return name + " · rev " + u(cacheRev), true
	case inCache && inStore:
		return name + " · cache rev " + u(cacheRev) + ", store rev " + u(storeRev), false
	case inStore:
		return name + " · store rev " + u(storeRev) + ", not in the cache", false
	}
	return name + " · cache rev " + u(cacheRev) + ", gone from the store", false
}

// InformerCacheEmpty says a controller's cache and its store hold no object yet.
const InformerCacheEmpty = "no Deployment or ReplicaSet yet"

// ReconcileWork is a controller's work so far: its reconciles, the
// ReplicaSets it created, the creates that found theirs already there and,
// if any, those that failed or went unheard.
func ReconcileWork(c raftcore.DeploymentController) string {
	s := "Reconciles " + Itoa(c.Reconciles) + " · created " + Itoa(c.Creates) + " · already there " + Itoa(c.AlreadyExisted)
	if c.FailedCreates > 0 {
		s += " · failed " + Itoa(c.FailedCreates)
	}
	return s
}

// ReconcileChecks are the checks' counts over the run: ReplicaSets created
// twice for one Deployment's template, and caches found to differ from
// their store once every event sent had arrived.
func ReconcileChecks(twice, diverged int) string {
	return "Created twice: " + Itoa(twice) + " · cache diverged: " + Itoa(diverged)
}

// The informers' buttons: apply the Deployment web, cut the watches,
// reconcile it again, and the row that turns idempotence on or off.
const (
	ApplyButton     = "Apply web"
	CutWatchButton  = "Cut watch"
	ReconcileButton = "Reconcile"
	RowIdempotent   = "Idempotent"
	IdempotentOn    = "on"
	IdempotentOff   = "off"
	Idempotence     = "idempotent reconcile"
	WatchEventTag   = "watch"
)

// KubeRole is the line under a member's disc saying what it does for the
// deployment controllers, long and short: runs one, serves one's API
// server, or both ("" for neither).
func KubeRole(controller, apiServer bool) (long, short string) {
	switch {
	case controller && apiServer:
		return "controller + API server", "ctrl + API"
	case controller:
		return "deployment controller", "controller"
	case apiServer:
		return "API server", "API server"
	}
	return "", ""
}

// RowKubernetes labels a member's menu row that starts a deployment
// controller on it (StartController).
const (
	RowKubernetes   = "Kubernetes"
	StartController = "Start a deployment controller"
)

// WatchTag tags a watch event on its way to a controller: "watch rev 4".
func WatchTag(rev uint64) string { return WatchEventTag + " rev " + u(rev) }

func u(v uint64) string { return strconv.FormatUint(v, 10) }
