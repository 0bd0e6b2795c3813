package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestComponentPinvSquare compares ComponentPinvSquare with gonum's route
// (ComponentPinv, then SquareSym): L⁺ whole and the upper triangle of S
// within 1e-11 of the largest entry, on random graphs of 2 to 300 nodes
// (sizes around the blocks of 4, 8 and 16; components with consecutive
// and scattered nodes), one scratch reused throughout; and that L·L⁺ is
// the projector I − J/n.
func TestComponentPinvSquare(t *testing.T) {
	var w PinvSquareWork
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 48))
		n := 2 + r.IntN(40)
		if seed%6 == 0 {
			n = 60 + r.IntN(240)
		}
		g := randomPinvGraph(r, n, seed%2 == 0)
		for c, nodes := range Groups(labelComponents(g)) {
			nc := len(nodes)
			if nc < 2 {
				continue
			}
			var ref PinvSquareWork
			wantL, wantS, ld, err := componentPinvSquareRef(&ref, g, nodes)
			if err != nil {
				t.Fatal(err)
			}
			gotL, gotS, gld, err := ComponentPinvSquare(&w, g, nodes)
			if err != nil {
				t.Fatal(err)
			}
			if gld != ld {
				t.Fatalf("stride %d, want %d", gld, ld)
			}
			scaleL, scaleS := 0.0, 0.0
			for a := range nc {
				for b := range nc {
					scaleL = max(scaleL, math.Abs(wantL[a*ld+b]))
					if b >= a {
						scaleS = max(scaleS, math.Abs(wantS[a*ld+b]))
					}
				}
			}
			for a := range nc {
				for b := range nc {
					if d := math.Abs(gotL[a*ld+b] - wantL[a*ld+b]); !(d <= 1e-11*scaleL) {
						t.Fatalf("seed %d component %d (%d nodes): L⁺(%d,%d) = %v, gonum's %v", seed, c, nc, a, b, gotL[a*ld+b], wantL[a*ld+b])
					}
					if d := math.Abs(gotS[a*ld+b] - wantS[a*ld+b]); b >= a && !(d <= 1e-11*scaleS) {
						t.Fatalf("seed %d component %d (%d nodes): S(%d,%d) = %v, gonum's %v", seed, c, nc, a, b, gotS[a*ld+b], wantS[a*ld+b])
					}
				}
			}
			// (L L⁺)_ab = deg_a L⁺_ab − Σ_{k ∈ N(a)} L⁺_kb = δ_ab − 1/n_C.
			pos := map[int]int{}
			for a, i := range nodes {
				pos[i] = a
			}
			for a, i := range nodes {
				for b := range nc {
					v := float64(len(g.Out(i))) * gotL[a*ld+b]
					for _, k := range g.Out(i) {
						v -= gotL[pos[k]*ld+b]
					}
					want := -1 / float64(nc)
					if a == b {
						want++
					}
					if math.Abs(v-want) > 1e-9 {
						t.Fatalf("seed %d component %d: (L·L⁺)(%d,%d) = %v, want %v", seed, c, a, b, v, want)
					}
				}
			}
		}
	}
}

// TestComponentPinvSquareNotConnected: nodes that are not one component
// (two isolated nodes: L + J/n singular) are refused by the FMA route's
// pivot floor (gonum's route, elsewhere, may take the rounding residue for
// a pivot, as ComponentPinv does).
func TestComponentPinvSquareNotConnected(t *testing.T) {
	if !fmaKernel {
		t.Skip("no FMA kernel: ComponentPinvSquare is gonum's route")
	}
	g := NewGraph(2, false)
	var w PinvSquareWork
	if _, _, _, err := ComponentPinvSquare(&w, g, []int{0, 1}); err == nil {
		t.Fatal("no error for two unconnected nodes")
	}
}

// BenchmarkComponentPinvSquare times L⁺ and S of a ring of n nodes with
// chords (the set-up of a GTR engine), against gonum's route, and with
// AVX-512 against the 4×8 blocks (fma4x8).
func BenchmarkComponentPinvSquare(b *testing.B) {
	for _, n := range []int{40, 160, 620} {
		g := NewGraph(n, false)
		for i := range n {
			g.AddEdge(i, (i+1)%n)
			g.AddEdge(i, (i*7+3)%n)
		}
		nodes := make([]int, n)
		for i := range nodes {
			nodes[i] = i
		}
		var w PinvSquareWork
		b.Run(fmt.Sprintf("fma/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, _, err := ComponentPinvSquare(&w, g, nodes); err != nil {
					b.Fatal(err)
				}
			}
		})
		if fma8x8 {
			b.Run(fmt.Sprintf("fma4x8/n=%d", n), func(b *testing.B) {
				fma8x8 = false
				defer func() { fma8x8 = true }()
				for b.Loop() {
					if _, _, _, err := ComponentPinvSquare(&w, g, nodes); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("gonum/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, _, err := componentPinvSquareRef(&w, g, nodes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestComponentPinvSquare8x8: the products by fmaBlock8x8US (AVX-512) give
// L⁺ and the upper triangle of S bit for bit as those by fmaBlock4x8US, on
// connected random graphs of 2–70 and 133 nodes (every remainder of the
// blocks), with scratch left dirty by a larger component.
func TestComponentPinvSquare8x8(t *testing.T) {
	if !fma8x8 {
		t.Skip("no AVX-512: fmaBlock8x8US not built or not usable")
	}
	defer func() { fma8x8 = true }()
	rng := rand.New(rand.NewPCG(8, 48))
	var w4, w8 PinvSquareWork
	for _, n := range append([]int{133}, func() (ns []int) {
		for n := 2; n <= 70; n++ {
			ns = append(ns, n)
		}
		return ns
	}()...) {
		g := NewGraph(n, false)
		for i := 1; i < n; i++ {
			g.AddEdge(i, rng.IntN(i)) // a random tree: connected
		}
		for range n {
			if a, b := rng.IntN(n), rng.IntN(n); a != b && !g.HasEdge(a, b) {
				g.AddEdge(a, b)
			}
		}
		nodes := make([]int, n)
		for i := range nodes {
			nodes[i] = i
		}
		fma8x8 = false
		lp4, s4, ld, err := ComponentPinvSquare(&w4, g, nodes)
		if err != nil {
			t.Fatal(err)
		}
		fma8x8 = true
		lp8, s8, _, err := ComponentPinvSquare(&w8, g, nodes)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for c := range n {
				if math.Float64bits(lp4[i*ld+c]) != math.Float64bits(lp8[i*ld+c]) {
					t.Fatalf("n=%d: L⁺(%d,%d) = %v by 8×8, %v by 4×8", n, i, c, lp8[i*ld+c], lp4[i*ld+c])
				}
				if c >= i && math.Float64bits(s4[i*ld+c]) != math.Float64bits(s8[i*ld+c]) {
					t.Fatalf("n=%d: S(%d,%d) = %v by 8×8, %v by 4×8", n, i, c, s8[i*ld+c], s4[i*ld+c])
				}
			}
		}
	}
}
