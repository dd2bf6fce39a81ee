package app

import (
	"net/url"
	"raftlab/viz/frame"
	"strings"
	"time"
)

// SpeedChosen reports whether parameters (URL query pieces "k=v" or
// command-line arguments) set the speed, so the app knows whether to use
// its own default. Keys are read as viz.ParseQuery reads them: without
// case, dashes or underscores.
func SpeedChosen(parts []string) bool {
	for _, p := range parts {
		k, _, _ := strings.Cut(strings.TrimLeft(p, "-?&"), "=")
		if u, err := url.QueryUnescape(k); err == nil {
			k = u
		}
		k = strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(k)))
		if k == "speed" {
			return true
		}
	}
	return false
}

// Notify shows a short message from the host (a saved file, a copied
// link) in the banner.
func (a *App) Notify(text string) {
	a.say(text, frame.ToneText, 6*time.Second)
	a.settle()
}
