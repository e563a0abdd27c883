package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// When Terraform is interrupted it calls StopProvider. terraform-plugin-go (v0.31) first passes the call
// to the framework, which cancels the contexts of the invocations running, and then ends its own contexts
// of those calls; its invocation loop sends nothing once its context has ended. An action that was
// waiting sees its context end, and reports the stop as an error, but that report races with the end of
// the library's context: most of the time it is dropped, the stream ends without a completed event, and
// Terraform (1.14 to 1.16) takes a stream that ends without one for a success: "Apply complete!", exit 0.
//
// stopAwaitingServer closes the race from the provider's side: its StopProvider returns, and so lets the
// library end its contexts, only once every invocation running has sent its last event, or after
// stopGrace. The framework's server is wrapped once, where it is served (NewProtocol6Server).

// stopGrace bounds how long a stop waits for the invocations running to report: an action stops waiting
// at once when its context ends, so this is only reached by an action stuck in something that ignores
// its context.
const stopGrace = 10 * time.Second

// stopAwaitingServer is a server whose StopProvider waits for the invocations running to send their last
// event before returning.
type stopAwaitingServer struct {
	fullServer

	mu      sync.Mutex
	running map[*invocation]struct{}
}

// invocation is one InvokeAction stream; done is closed once its last event has been sent, or the stream
// was given up.
type invocation struct{ done chan struct{} }

// awaitStops wraps s; a server without every optional part is returned as it is (then a stop may still
// lose an action's report), so that wrapping never hides a part.
func awaitStops(s tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	full, ok := s.(fullServer)
	if !ok {
		return s
	}
	return &stopAwaitingServer{fullServer: full, running: map[*invocation]struct{}{}}
}

// InvokeAction implements tfprotov6.ActionServer: the framework's stream, tracked until its last event
// has been sent (the library sends each event before the iterator's push returns).
func (s *stopAwaitingServer) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	stream, err := s.fullServer.InvokeAction(ctx, req)
	if err != nil || stream == nil || stream.Events == nil {
		return stream, err
	}
	inv := &invocation{done: make(chan struct{})}
	s.mu.Lock()
	s.running[inv] = struct{}{}
	s.mu.Unlock()
	events := stream.Events
	tracked := *stream
	tracked.Events = func(push func(tfprotov6.InvokeActionEvent) bool) {
		defer s.finished(inv)
		events(push)
	}
	return &tracked, nil
}

// finished marks inv's last event sent.
func (s *stopAwaitingServer) finished(inv *invocation) {
	s.mu.Lock()
	delete(s.running, inv)
	s.mu.Unlock()
	close(inv.done)
}

// StopProvider implements tfprotov6.ProviderServer: the framework cancels what runs, then the running
// invocations are given until stopGrace to send the error that says so.
func (s *stopAwaitingServer) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	resp, err := s.fullServer.StopProvider(ctx, req)
	s.mu.Lock()
	waiting := make([]*invocation, 0, len(s.running))
	for inv := range s.running {
		waiting = append(waiting, inv)
	}
	s.mu.Unlock()
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	for _, inv := range waiting {
		select {
		case <-inv.done:
		case <-grace.C:
			return resp, err
		case <-ctx.Done():
			return resp, err
		}
	}
	return resp, err
}
