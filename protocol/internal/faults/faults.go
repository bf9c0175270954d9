// Package faults injects the faults of a flaky server into the answers of
// the loopback servers the network clients are tested against: bursts of
// 5xx, slow answers, connections dropped before or after the call is
// processed, and malformed answers.
package faults

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Faults says how often each fault is injected: each is the probability
// that one API call gets it. A call gets at most one fault.
type Faults struct {
	// Seed makes the faults repeatable.
	Seed uint64
	// Burst5xx starts a burst of BurstLength 5xx answers (500, 502, 503).
	Burst5xx    float64
	BurstLength int // default 3
	// Slow delays the answer by SlowDelay (the call is then processed).
	Slow      float64
	SlowDelay time.Duration // default 200 ms
	// Drop closes the connection without an answer, before processing.
	Drop float64
	// DropAfter processes the call, then closes the connection without the
	// answer; only calls that are safe to repeat get it (see safeToRepeat).
	DropAfter float64
	// Malformed answers 200 with a body that is not JSON, before processing.
	Malformed float64
	// EchoAuthOn401 makes 401 answers quote the credentials they were sent,
	// as a careless server might: a client must not repeat them.
	EchoAuthOn401 bool
}

// Injector decides, call by call, which fault to inject.
type Injector struct {
	f Faults

	mu        sync.Mutex
	rng       *rand.Rand
	burstLeft int
	counts    map[string]int
}

// New returns an injector of f.
func New(f Faults) *Injector {
	if f.BurstLength <= 0 {
		f.BurstLength = 3
	}
	if f.SlowDelay <= 0 {
		f.SlowDelay = 200 * time.Millisecond
	}
	return &Injector{f: f, rng: rand.New(rand.NewPCG(f.Seed, 0x5eed)), counts: map[string]int{}}
}

// Counts returns how many faults of each kind were injected.
func (fi *Injector) Counts() map[string]int {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	out := make(map[string]int, len(fi.counts))
	for k, v := range fi.counts {
		out[k] = v
	}
	return out
}

// pick chooses the fault for one call ("" for none).
func (fi *Injector) pick(repeatable bool) string {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	kind := ""
	if fi.burstLeft > 0 {
		fi.burstLeft--
		kind = "5xx"
	} else {
		x := fi.rng.Float64()
		for _, c := range []struct {
			p    float64
			kind string
		}{{fi.f.Burst5xx, "5xx"}, {fi.f.Slow, "slow"}, {fi.f.Drop, "drop"}, {fi.f.DropAfter, "drop-after"}, {fi.f.Malformed, "malformed"}} {
			if x < c.p {
				kind = c.kind
				break
			}
			x -= c.p
		}
		if kind == "5xx" {
			fi.burstLeft = fi.f.BurstLength - 1
		}
		if kind == "drop-after" && !repeatable {
			kind = "drop"
		}
	}
	if kind != "" {
		fi.counts[kind]++
	}
	return kind
}

// Serve runs handle under the fault chosen for this call; a call that is
// not repeatable never gets DropAfter (it gets Drop instead).
func (fi *Injector) Serve(w http.ResponseWriter, r *http.Request, repeatable bool, handle func(http.ResponseWriter)) {
	switch fi.pick(repeatable) {
	case "5xx":
		codes := []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}
		fi.mu.Lock()
		code := codes[fi.rng.IntN(len(codes))]
		fi.mu.Unlock()
		http.Error(w, "<html><body>upstream trouble</body></html>", code)
	case "slow":
		t := time.NewTimer(fi.f.SlowDelay)
		select {
		case <-t.C:
			handle(w)
		case <-r.Context().Done():
			t.Stop()
		}
	case "drop":
		hangUp(w)
	case "drop-after":
		rec := &recorder{header: http.Header{}}
		handle(rec)
		hangUp(w)
	case "malformed":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"sense_result": [[12, {"type": "Pie`))
	default:
		handle(w)
	}
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // the server drops the connection for us
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// recorder keeps an answer that is then not sent.
type recorder struct {
	header http.Header
	body   bytes.Buffer
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.code = code }
