package buildkite

import (
	"fmt"
	"net/http"
	"net/url"
)

// maxRedirects is how many redirects within the origin one read follows.
const maxRedirects = 10

// redirectError is a redirect the client refused to follow. No request went to its target.
type redirectError struct {
	to     string // where the service tried to send the request, without query or credentials
	reason string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("the service redirected it to %s: %s", e.to, e.reason)
}

// checkRedirect is the CheckRedirect of the client's HTTP client. A redirect to another origin (scheme,
// host or port) is never followed, so the token is never sent anywhere but the configured origin, and the
// foreign answer is never taken for the object. Within the origin, only reads (GET, HEAD) are followed:
// repeating them anywhere changes nothing, whereas net/http would turn a redirected POST into a GET,
// whose answer would be taken for the created object, or send a write again to a path nobody chose.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	to := (&url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path}).String()
	switch {
	case !sameOrigin(req.URL, first.URL):
		return &redirectError{to: to, reason: "refusing to follow a redirect to another origin"}
	case first.Method != http.MethodGet && first.Method != http.MethodHead:
		return &redirectError{to: to, reason: fmt.Sprintf("refusing to follow the redirect of a %s, which only reads may follow", first.Method)}
	case len(via) >= maxRedirects:
		return &redirectError{to: to, reason: fmt.Sprintf("stopped after %d redirects", maxRedirects)}
	}
	return nil
}
