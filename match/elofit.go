package match

import (
	"fmt"
	"math"
)

// The maximum-likelihood fit behind a rating list (see ratings.go for the
// model). Newton's method on the log-likelihood converges in a handful of
// steps from all ratings equal, and the same matrix it inverts at the end is
// the information matrix that gives the intervals, which is why it is used
// rather than the MM iteration (as robust, but slow when ratings are far
// apart, and it gives no covariance). Each step is halved until the
// likelihood rises, so that a step overshooting on a flat stretch cannot
// make the iteration diverge; the log-likelihood is concave, so the step
// always rises once short enough.

// eloScale is c in a score of 1/(1+exp(−c·d)) for an Elo difference d.
const eloScale = math.Ln10 / 400

// Limits of the iteration: steps at most, the largest step of a rating (in
// Elo) below which it has converged, and the rating beyond which it is
// taken to run away to infinity (no maximum: a perfect score, no prior).
const (
	fitSteps    = 200
	fitTol      = 1e-9
	fitRunaway  = 20000
	fitHalvings = 60
)

// logistic returns 1/(1+e^−x) without overflow.
func logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logLogistic returns log(1/(1+e^−x)) without overflow or loss to 0.
func logLogistic(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// fitElo fits n ratings to the games of pairs (pts: the points i scored
// against j in n games) with prior virtual draws of each bot against the
// mean rating, holding bot fixed at 0 (the bots must be linked by games).
// It returns the ratings and their covariance (fixed's row and column 0).
func fitElo(n int, pairs []pairTally, prior float64, fixed int) (elo []float64, cov [][]float64, err error) {
	if n == 0 || fixed < 0 || fixed >= n {
		return nil, nil, fmt.Errorf("match: ratings: fit %d bots holding bot %d", n, fixed)
	}
	r := make([]float64, n)
	f := logLik(r, pairs, prior)
	for step := 0; ; step++ {
		if step == fitSteps {
			return nil, nil, fmt.Errorf("match: ratings: no convergence in %d steps: %w", fitSteps, ErrNoMaximum)
		}
		g, h := gradHess(r, pairs, prior)
		d, err := solve(reduce(h, fixed), reduceVec(g, fixed))
		if err != nil {
			if step > 0 {
				// The curvature vanished on the way: ratings running off
				// to infinity.
				return nil, nil, fmt.Errorf("%w: %w", ErrNoMaximum, err)
			}
			return nil, nil, err
		}
		d = expand(d, fixed)
		t := 1.0
		var next []float64
		var fn float64
		for range fitHalvings {
			next = make([]float64, n)
			for i := range r {
				next[i] = r[i] + t*d[i]
			}
			fn = logLik(next, pairs, prior)
			if fn >= f {
				break
			}
			t /= 2
		}
		biggest := 0.0
		for i := range r {
			biggest = math.Max(biggest, math.Abs(next[i]-r[i]))
		}
		r, f = next, fn
		for _, x := range r {
			if math.Abs(x) > fitRunaway {
				return nil, nil, ErrNoMaximum
			}
		}
		if biggest < fitTol {
			break
		}
	}
	_, h := gradHess(r, pairs, prior)
	inv, err := invert(reduce(h, fixed))
	if err != nil {
		return nil, nil, err
	}
	cov = make([][]float64, n)
	for i := range n {
		cov[i] = make([]float64, n)
	}
	for i, ri := 0, 0; i < n; i++ {
		if i == fixed {
			continue
		}
		for j, rj := 0, 0; j < n; j++ {
			if j == fixed {
				continue
			}
			cov[i][j] = inv[ri][rj]
			rj++
		}
		ri++
	}
	return r, cov, nil
}

// logLik is the log-likelihood of ratings r: the games, and the prior's
// virtual draws against the mean.
func logLik(r []float64, pairs []pairTally, prior float64) float64 {
	sum := 0.0
	for _, p := range pairs {
		x := eloScale * (r[p.i] - r[p.j])
		sum += p.pts*logLogistic(x) + (p.n-p.pts)*logLogistic(-x)
	}
	if prior > 0 {
		mean := meanOf(r)
		for _, ri := range r {
			x := eloScale * (ri - mean)
			sum += prior * (logLogistic(x) + logLogistic(-x)) / 2
		}
	}
	return sum
}

// gradHess returns the gradient of the log-likelihood and the negative of
// its Hessian (the information matrix, positive semi-definite).
func gradHess(r []float64, pairs []pairTally, prior float64) (g []float64, h [][]float64) {
	n := len(r)
	g = make([]float64, n)
	h = make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	c := eloScale
	for _, p := range pairs {
		s := logistic(c * (r[p.i] - r[p.j]))
		d := c * (p.pts - p.n*s)
		g[p.i] += d
		g[p.j] -= d
		w := c * c * p.n * s * (1 - s)
		h[p.i][p.i] += w
		h[p.j][p.j] += w
		h[p.i][p.j] -= w
		h[p.j][p.i] -= w
	}
	if prior > 0 {
		// Each bot's virtual draws depend on x_i = r_i − mean, and
		// ∂x_i/∂r_k = δ_ik − 1/n: the gradient and Hessian of a function of
		// the x are projected by P = I − 11ᵀ/n.
		mean := meanOf(r)
		a := make([]float64, n) // ∂/∂x_i
		v := make([]float64, n) // −∂²/∂x_i²
		sa, sv := 0.0, 0.0
		for i, ri := range r {
			s := logistic(c * (ri - mean))
			a[i] = prior * c * (0.5 - s)
			v[i] = prior * c * c * s * (1 - s)
			sa += a[i]
			sv += v[i]
		}
		nf := float64(n)
		for k := range n {
			g[k] += a[k] - sa/nf
			for l := range n {
				x := -(v[k]+v[l])/nf + sv/(nf*nf)
				if k == l {
					x += v[k]
				}
				h[k][l] += x
			}
		}
	}
	return g, h
}

func meanOf(r []float64) float64 {
	s := 0.0
	for _, x := range r {
		s += x
	}
	return s / float64(len(r))
}

// reduce drops row and column k of a.
func reduce(a [][]float64, k int) [][]float64 {
	var out [][]float64
	for i, row := range a {
		if i == k {
			continue
		}
		out = append(out, reduceVec(row, k))
	}
	return out
}

// reduceVec drops element k of v.
func reduceVec(v []float64, k int) []float64 {
	out := make([]float64, 0, len(v))
	for i, x := range v {
		if i != k {
			out = append(out, x)
		}
	}
	return out
}

// expand puts a 0 back at index k.
func expand(v []float64, k int) []float64 {
	out := make([]float64, 0, len(v)+1)
	out = append(out, v[:k]...)
	out = append(out, 0)
	return append(out, v[k:]...)
}

// cholesky returns L with a = L·Lᵀ, or an error when a is not positive
// definite (bots not linked by games).
func cholesky(a [][]float64) ([][]float64, error) {
	n := len(a)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
	}
	for i := range n {
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(s > 0) {
					return nil, fmt.Errorf("match: ratings: information matrix not positive definite (bots not linked by games?)")
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	return l, nil
}

// cholSolve solves L·Lᵀ·x = b.
func cholSolve(l [][]float64, b []float64) []float64 {
	n := len(b)
	y := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}

// solve solves a·x = b for a positive definite a.
func solve(a [][]float64, b []float64) ([]float64, error) {
	if len(b) == 0 {
		return nil, nil
	}
	l, err := cholesky(a)
	if err != nil {
		return nil, err
	}
	return cholSolve(l, b), nil
}

// invert returns the inverse of a positive definite a.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	if n == 0 {
		return nil, nil
	}
	l, err := cholesky(a)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, n)
	for j := range n {
		e := make([]float64, n)
		e[j] = 1
		col := cholSolve(l, e)
		for i := range n {
			if out[i] == nil {
				out[i] = make([]float64, n)
			}
			out[i][j] = col[i]
		}
	}
	return out, nil
}
