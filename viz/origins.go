package viz

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// ParseOrigins reads a list of web origins (scheme, host and port, as
// https://book.example or http://127.0.0.1:8080) separated by spaces or
// commas, as an author lists the pages allowed to drive a figure. A
// wildcard, a path or a scheme other than http and https is refused: a
// figure must know exactly whom it obeys.
func ParseOrigins(v string) ([]string, error) {
	var list []string
	for _, item := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if item == "*" {
			return nil, fmt.Errorf("%q allows every page; list the origins one by one", item)
		}
		u, err := url.Parse(item)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%q is not an origin such as https://book.example", item)
		}
		if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return nil, fmt.Errorf("%q has more than scheme, host and port", item)
		}
		o := u.Scheme + "://" + strings.ToLower(u.Host)
		if !slices.Contains(list, o) {
			list = append(list, o)
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("is empty")
	}
	return list, nil
}

// OriginAllowed reports whether a message from origin may drive the
// figure: it comes from the app's own origin or one the author listed.
func (p Params) OriginAllowed(origin, own string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	return origin == own || slices.Contains(strings.Fields(p.Origins), origin)
}
