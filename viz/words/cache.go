package words

// The words of a figure's cache: a cache in front of the cluster, as
// CoreDNS is in front of the API server, that answers from what it last
// read and never refuses.

// CacheTitle heads the cache's lines in the client panel.
const CacheTitle = "A cache in front of etcd, like CoreDNS"

// CacheEmpty says a cache has read nothing yet, and through whom it will.
func CacheEmpty(key, upstream string) string {
	return "Reads " + key + " through " + upstream + "; nothing cached yet."
}

// CacheAnswers says what a cache answers anyone who asks: the value of
// its last answered read (#id), and when it read it.
func CacheAnswers(key, value string, id int, atUs int64) string {
	return "Answers " + key + " = " + value + " at once, from read #" + Itoa(id) + " at t = " + tenths(atUs) + "."
}

// CacheCut says a cache's latest refresh got no answer, and that it
// answers all the same.
func CacheCut(id int, upstream string) string {
	return "Its refresh #" + Itoa(id) + " through " + upstream + " got no answer: it answers anyway (AP)."
}

// CacheRefreshing says a cache's latest refresh is still waiting.
func CacheRefreshing(id int, upstream string) string {
	return "Refreshing through " + upstream + " (#" + Itoa(id) + "), still answering meanwhile."
}

// CacheStale says a cache's answer misses an acknowledged write.
func CacheStale(id int, value string) string {
	return "Stale: misses #" + Itoa(id) + " (" + value + ")."
}

// CacheFresh says a cache's answer misses no acknowledged write.
const CacheFresh = "Fresh: no acknowledged write is newer."

// NotFound is a read's answer for a key that does not exist.
const NotFound = "not found"

// CacheBadgeEmpty tags the machine a cache reads through before it has
// read anything.
const CacheBadgeEmpty = "cache: empty"

// CacheBadge tags the machine a cache reads through with what the cache
// answers.
func CacheBadge(value string, stale bool) string {
	if stale {
		return "cache: " + value + ", stale"
	}
	return "cache: " + value
}

// StaleReadBadge tags the machine that answered read #id with value,
// which the checker flagged as stale.
func StaleReadBadge(id int, value string) string {
	return StaleReadBadgeShort(id) + ": " + value
}

// StaleReadBadgeShort is the stale read's tag where the value does not
// fit: only which read it was.
func StaleReadBadgeShort(id int) string {
	return "stale read #" + Itoa(id)
}
