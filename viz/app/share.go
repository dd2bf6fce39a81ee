package app

import (
	"raftlab/viz"
	"strconv"
)

// ExportSchedule writes the whole run as a schedule (the format of raftsim
// run -f), to its furthest moment: replaying it reproduces the run's last
// world exactly.
func (a *App) ExportSchedule() ([]byte, error) { return a.session.ExportSchedule() }

// ExportTrace writes every trace event of the run up to now, one JSON
// object a line.
func (a *App) ExportTrace() ([]byte, error) { return a.session.ExportTrace() }

// ShareLink is a URL that opens this run at this moment, or the page's own
// address where the run is too long for a link (shareLink says so).
func (a *App) ShareLink() string {
	link, _ := a.linkFor(a.params)
	return link
}

// linkFor is the share link with settings p.
// It is the page's own address, with the error, where the run is too long
// to replay from a link.
func (a *App) linkFor(p viz.Params) (string, error) {
	payload, err := a.session.LinkPayload()
	if err != nil {
		return a.opts.BaseURL, err
	}
	p.Link, p.T, p.Scenario, p.Autoplay, p.Origins = "", 0, "", false, ""
	p.Speed = a.clock.Speed()
	q := p.Encode()
	if p.Speed == viz.DefaultParams().Speed {
		// Encode leaves a default out, but a page opened without a speed
		// starts at DefaultSpeed: say it, so the run plays at the pace
		// the reader chose.
		q = joinQuery(q, "speed="+strconv.FormatFloat(p.Speed, 'g', -1, 64))
	}
	return a.opts.BaseURL + "?" + joinQuery(q, "link="+payload), nil
}

// labLink is the address of the full lab (the page without embed) at this
// moment of this run.
func (a *App) labLink() string {
	p := a.params
	p.Embed = false
	link, _ := a.linkFor(p)
	return link
}

// joinQuery joins two parts of a URL query.
func joinQuery(q, part string) string {
	if q == "" {
		return part
	}
	return q + "&" + part
}
