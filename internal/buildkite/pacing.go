package buildkite

import (
	"context"
	"math"
	"sync"
	"time"
)

// Pacing. rateGate holds back the requests of a Client by what the answers say of the service's rate-limit
// window (RateLimit-Remaining and RateLimit-Reset), so that requests wait for the window instead of drawing
// 429s. A window counts units: REST's requests, GraphQL's complexity points (a gate of its own). A request
// costs one unit in REST; in GraphQL what its operation last cost, as the answers' RateLimit-Complexity-Actual
// said (graphQLCosts), or before any answer did, the most any operation cost:
//
//   - requests in flight count against what the window has left: a request goes only while
//     RateLimit-Remaining, as last reported and less what every request sent since costs, is at least what
//     it costs; otherwise it waits for the reset;
//   - a 429 that comes anyway closes the gate until the reset it names;
//   - when other clients spend the same window (other Terraform processes with the same token), the answers
//     show it: the count left drops by more than our own requests explain. The client then spreads what the
//     window has left over the time it has left, as each answer reports it, instead of sending in bursts,
//     and keeps back one request for each other client, which may have sent one since our last answer.
//     Clients that all do this never spend the window before it ends. A client alone sends in bursts as
//     before.

// shareHistory is how many recent answers of a window the sharing estimate looks back over.
const shareHistory = 4

// quietAnswers is how many answers in a row must show no other client spending the window before the
// gate sends in bursts again.
const quietAnswers = 3

// rateGate paces the requests of a Client by the service's rate-limit window (see above).
type rateGate struct {
	mu sync.Mutex
	// until holds every request back until then (a 429, or a window reported used up).
	until time.Time
	// seen: a response has arrived. Until then one request goes at a time, since nothing is known yet; a
	// shared window starts like this too.
	seen bool
	// known: left and resetAt describe the current window.
	known    bool
	left     int       // the lowest RateLimit-Remaining reported in the window, in units
	resetAt  time.Time // when the window ends: the earliest end its answers allow, so never early
	resetLow time.Time // the window ends after this, as its answers bound it; tells whether they agree
	limit    int       // RateLimit-Limit: what a new window holds; 0 when not said
	inFlight int       // what the requests sent and not yet answered cost, in units
	// unit is the most one of our requests has cost (0 before any answer said): what each other client may
	// have in flight, which a shared window keeps back, and the measure of what others spend.
	unit int
	// changed is closed, and replaced, whenever waiting requests may be able to go.
	changed chan struct{}

	share
}

// share is what the answers say of other clients spending the same window. Guarded by rateGate.mu.
type share struct {
	shared  bool    // other clients spend the window: spread requests, keep some back
	sharers float64 // how many clients spend it, ourselves included; 1 while alone
	quiet   int     // answers in a row that showed no one else spending the window
	// allowance is how many units may go at once in a shared window: our share of what the window held
	// when we first heard of it, so that a window the clients together do not fill is not spread out.
	allowance int
	answered  int // what our requests answered cost, in units, ever
	lastSent  time.Time
	recent    []sample // the window's latest answers, oldest first, at most shareHistory
}

// sample is the window as one answer found it.
type sample struct {
	at       time.Time
	left     int
	answered int
}

// block holds every request back until t; it never pulls the opening earlier, since another response may
// already know of a later reset.
func (g *rateGate) block(t time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.After(g.until) {
		g.until = t
	}
}

// openAt returns the time from which a request may be sent, as far as the window is concerned.
func (g *rateGate) openAt() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	at := g.until
	if g.known && g.left-g.inFlight < 1 && g.resetAt.After(at) {
		at = g.resetAt
	}
	return at
}

// rollover starts a new window once the reported one has ended. Called with mu held.
func (g *rateGate) rollover(now time.Time) {
	if !g.known || g.resetAt.IsZero() || now.Before(g.resetAt) {
		return // no window, or one whose end is not known yet (rolled over, no answer since), or not ended
	}
	g.recent = g.recent[:0]
	if g.limit > 0 {
		g.left = g.limit
		g.resetAt = time.Time{} // unknown until a response of the new window says
		g.known = true
		// Others wait for this window too: learn what they left of it from one answer before sending more.
		g.seen = g.seen && !g.shared
		return
	}
	g.known = false
}

// wake lets waiting requests look again. Called with mu held.
func (g *rateGate) wake() {
	if g.changed != nil {
		close(g.changed)
	}
	g.changed = make(chan struct{})
}

// acquire waits until a request of one unit may be sent (acquireCost).
func (g *rateGate) acquire(ctx context.Context) error { return g.acquireCost(ctx, 1, false) }

// acquireCost waits until a request that costs cost units may be sent, or ctx is done, and counts it in
// flight; alone, it also waits until no other request is in flight (its cost is a guess, see
// graphQLCosts). The request's response, or its failure, must be handed to releaseCost with the same cost.
func (g *rateGate) acquireCost(ctx context.Context, cost int, alone bool) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		g.mu.Lock()
		wait := g.waitCost(time.Now(), cost)
		if wait == 0 && alone && g.inFlight > 0 {
			wait = -1 // until the requests in flight are answered
		}
		if wait == 0 {
			g.inFlight += cost
			g.lastSent = time.Now()
			g.allowance = max(g.allowance-cost, 0)
			g.mu.Unlock()
			return nil
		}
		if g.changed == nil {
			g.changed = make(chan struct{})
		}
		changed := g.changed
		g.mu.Unlock()

		if err := waitFor(ctx, changed, wait); err != nil {
			return err
		}
	}
}

// wait says how long a request of one unit must wait (waitCost).
func (g *rateGate) wait(now time.Time) time.Duration { return g.waitCost(now, 1) }

// waitCost says how long a request that costs cost units must wait before it may go: 0 for now, -1 until an
// answer arrives. A request that costs more than a whole window is counted as the whole window. Called with
// mu held.
func (g *rateGate) waitCost(now time.Time, cost int) time.Duration {
	g.rollover(now)
	if g.limit > 0 {
		cost = min(cost, g.limit)
	}
	cost = max(cost, 1)
	switch {
	case now.Before(g.until):
		return g.until.Sub(now)
	case !g.seen && g.inFlight > 0:
		return -1 // until the first answer says what the window holds
	case g.known && g.left-g.inFlight < cost && !g.resetAt.IsZero():
		return max(g.resetAt.Sub(now), time.Millisecond)
	case g.known && g.left-g.inFlight < cost && g.inFlight > 0:
		return -1 // a new window whose end no answer has told yet: the next answer will
	case g.shared && g.seen && g.known && !g.resetAt.IsZero():
		return g.spread(now, cost)
	}
	return 0
}

// spread paces a request that costs cost units in a shared window: it keeps back one request for each
// other client, and sends the rest one at a time, what is left spread over the time left (a request of
// more units waits longer after the last). Called with mu held.
func (g *rateGate) spread(now time.Time, cost int) time.Duration {
	left := g.left - g.inFlight
	if left-g.reserve() < cost {
		return max(g.resetAt.Sub(now), time.Millisecond)
	}
	if g.allowance >= cost {
		return 0
	}
	next := g.lastSent.Add(g.resetAt.Sub(now) * time.Duration(cost) / time.Duration(left))
	if !next.After(now) {
		return 0
	}
	if next.After(g.resetAt) {
		next = g.resetAt
	}
	return max(next.Sub(now), time.Millisecond)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// reserve is how many units a shared window keeps back: one request of the most a request has cost in the
// window for each other client, which may have sent one since our last answer. Called with mu held.
func (g *rateGate) reserve() int {
	return max(int(math.Ceil(g.sharers))-1, 0) * max(g.unit, 1)
}

// waitFor waits until changed is closed, d has passed (d < 0: no limit) or ctx is done.
func waitFor(ctx context.Context, changed <-chan struct{}, d time.Duration) error {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-changed:
	case <-timer:
	}
	return nil
}

// release ends a request of one unit (releaseCost).
func (g *rateGate) release(w window, failed bool) { g.releaseCost(w, failed, 1) }

// releaseCost ends a request acquireCost let go for cost units: its response updates the window; a request
// that failed without one may still have been counted, so it is taken off what is left. What the answer
// says the request cost (RateLimit-Complexity-Actual), when it says, is what it cost.
func (g *rateGate) releaseCost(w window, failed bool, cost int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight -= cost
	g.seen = true
	if failed && g.known {
		g.left -= cost
	}
	if !w.hasCost {
		w.cost = cost
	}
	if !failed {
		g.answered += w.cost
	}
	if !failed && !w.tooMany && w.cost > g.unit {
		// What others spent was counted in our largest request: count it again in this larger one.
		if g.sharers > 1 && g.unit > 0 {
			g.sharers = max(1, g.sharers*float64(g.unit)/float64(w.cost))
		}
		g.unit = w.cost
	}
	g.update(w)
	g.wake()
}

// window is what one response said of the rate-limit window.
type window struct {
	remaining, limit int
	hasRemaining     bool
	reset            time.Duration // from receipt; valid when hasReset
	hasReset         bool
	grain            time.Duration // the unit RateLimit-Reset is rounded to (a second); 0 for a second
	retryAfter       time.Duration // a 429's wait when it names no reset; valid when hasRetryAfter
	hasRetryAfter    bool
	tooMany          bool
	cost             int // what the request cost in the window's units: RateLimit-Complexity-Actual
	hasCost          bool
}

// update applies a response's report. Called with mu held.
func (g *rateGate) update(w window) {
	now := time.Now()
	if w.limit > 0 {
		g.limit = w.limit
	}
	if w.hasRemaining && w.hasReset {
		g.updateWindow(now, w)
	}
	if w.tooMany || (w.hasRemaining && w.remaining <= 0) {
		// Closed until the window ends: as all its answers bound the end, when this one told of it.
		var at time.Time
		switch {
		case w.hasRemaining && w.hasReset:
			at = g.resetAt
		case w.hasReset:
			at = now.Add(w.reset)
		case w.tooMany && w.hasRetryAfter:
			at = now.Add(w.retryAfter)
		}
		if at.After(g.until) {
			g.until = at
		}
	}
}

// updateWindow applies what an answer says of the window's count and end. Called with mu held.
func (g *rateGate) updateWindow(now time.Time, w window) {
	end := now.Add(w.reset)
	g.rollover(now)
	grain := w.grain
	if grain <= 0 {
		grain = time.Second
	}
	// Answers of one window name the same end, give or take the rounding of RateLimit-Reset to whole
	// seconds, and arrive out of order: the lowest count is the latest, and since the service rounds the
	// time left up, the earliest end is the closest to the true one. An answer naming another end describes
	// another window (a 429's, a proxy's, or the service's after it moved), and the latest answer is the
	// service's word on it: merging the two would keep one window's count until the other's end, as a
	// 429's 0 until a 60 s window ends, and stall every request for that long. A 429 always replaces what
	// other answers said.
	sameWindow := g.known && !g.resetAt.IsZero() && now.Before(g.resetAt) &&
		end.After(g.resetAt.Add(-2*grain)) && end.Before(g.resetAt.Add(2*grain))
	switch {
	case w.tooMany || !sameWindow:
		g.left, g.resetAt, g.resetLow = w.remaining, end, end.Add(-grain)
		g.recent = g.recent[:0]
		if !w.tooMany && g.limit > 0 && g.limit-w.remaining-w.cost-g.inFlight > 0 {
			g.shared = true // others spent this window before our first answer of it
		}
		g.allowance = 0
		if g.shared && g.sharers > 1 && !w.tooMany {
			g.allowance = int(float64(w.remaining-g.inFlight-g.reserve()) / g.sharers)
		}
	case maxTime(g.resetLow, end.Add(-grain)).Before(minTime(g.resetAt, end)):
		// Rounded up to whole seconds, each answer bounds the end from both sides; while the bounds of all
		// agree, the earliest upper one is the closest to the end.
		g.left = min(g.left, w.remaining)
		g.resetAt, g.resetLow = minTime(g.resetAt, end), maxTime(g.resetLow, end.Add(-grain))
	default:
		// Bounds that disagree: the window moved, or the service rounds otherwise; wait for the later end.
		g.left = min(g.left, w.remaining)
		g.resetAt, g.resetLow = maxTime(g.resetAt, end), end.Add(-grain)
	}
	g.known = true
	g.observeSharing(now)
}

// observeSharing compares how far the window's count fell over the recent answers with how many of our
// requests were answered meanwhile: what is left over was spent by other clients. Called with mu held.
func (g *rateGate) observeSharing(now time.Time) {
	g.recent = append(g.recent, sample{at: now, left: g.left, answered: g.answered})
	if len(g.recent) > shareHistory {
		g.recent = append(g.recent[:0], g.recent[len(g.recent)-shareHistory:]...)
	}
	if len(g.recent) < 2 {
		return
	}
	first := g.recent[0]
	ours := g.answered - first.answered + g.inFlight // requests in flight may have been counted already
	spent := first.left - g.left
	if spent > ours {
		// The most clients seen at once: one that paused since is still there, and waits for this window.
		// Where requests cost more than one unit (GraphQL's points), what the others spent counts in our
		// largest requests at least: a client of cheap requests beside one of dear ones sees one other
		// client, not a thousand.
		g.shared, g.quiet = true, 0
		unit := max(g.unit, 1)
		g.sharers = max(g.sharers, min(float64(spent)/float64(max(ours, unit)), float64(max(g.limit/unit, 2))))
		return
	}
	// Quiet answers late in a window prove little: the others may only be keeping back their reserve.
	if g.limit > 0 && 2*g.left < g.limit {
		return
	}
	if g.quiet++; g.quiet >= quietAnswers {
		g.shared, g.sharers = false, 1
	}
}

// graphQLCosts is what the client knows of what its GraphQL documents cost, in complexity points: the
// units of the GraphQL window. A document costs what its last answer said (RateLimit-Complexity-Actual);
// one not answered yet, the most any document has cost (1 before any answer), so that a guess errs towards
// waiting. A batched rules read of another size is another document.
type graphQLCosts struct {
	mu    sync.Mutex
	byDoc map[string]int
	most  int
}

// estimate is what document is expected to cost; guessed when no answer to it has said.
func (k *graphQLCosts) estimate(document string) (cost int, guessed bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if n, ok := k.byDoc[document]; ok {
		return max(n, 1), false
	}
	return max(k.most, 1), true
}

// learn records what an answer said document cost.
func (k *graphQLCosts) learn(document string, w window) {
	if !w.hasCost {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byDoc == nil {
		k.byDoc = map[string]int{}
	}
	k.byDoc[document] = w.cost
	k.most = max(k.most, w.cost)
}

// costOf returns what the request of the call ctx belongs to costs at its gate, whether that is a guess,
// and its GraphQL document ("" for REST, whose requests cost one each). A document whose cost is a guess
// goes alone, so that its answer, which says what it cost, comes before any other request counts on the
// guess: a client's first few GraphQL requests, one for each of its documents, go one at a time.
func (c *Client) costOf(ctx context.Context) (cost int, guessed bool, document string) {
	ex := exchangeFrom(ctx)
	if ex == nil || ex.r.graphQL == "" {
		return 1, false, ""
	}
	req, ok := ex.r.in.(graphQLRequest)
	if !ok {
		return 1, false, ""
	}
	cost, guessed = c.graphCosts.estimate(req.Query)
	return cost, guessed, req.Query
}
