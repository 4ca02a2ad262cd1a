package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestStreamingCommandsBoundMemory checks that the streaming commands set
// the collector's soft limit of the memory budget, and that a user's
// GOMEMLIMIT wins over it.
func TestStreamingCommandsBoundMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want int64
	}{
		{"annotate", "", []string{"annotate", "-q", mixedFixture}, softLimit},
		{"stats", "", []string{"stats", "-q", mixedFixture}, softLimit},
		{"filter", "", []string{"filter", "-q", mixedFixture}, softLimit},
		{"validate", "", []string{"validate", "-q", mixedFixture}, softLimit},
		{"export", "", []string{"export", "-q", mixedFixture}, softLimit},
		{"a user's GOMEMLIMIT", "1GiB", []string{"stats", "-q", mixedFixture}, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.env)
			debug.SetMemoryLimit(math.MaxInt64)
			frctool(t, "", tc.args...)
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("memory limit %d after %v, want %d", got, tc.args, tc.want)
			}
		})
	}
	if softLimit >= StreamBudget {
		t.Errorf("the soft limit %d leaves no room within the budget %d", softLimit, StreamBudget)
	}
}
