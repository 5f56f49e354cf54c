package kargo

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/expr-lang/expr/builtin"
)

// The one thing of upstream's this suite changes is the clock of expressions. Kargo evaluates
// every step's `if` and config with expr-lang (pkg/expressions, pkg/promotion/evaluator.go), whose
// builtin now() reads time.Now(); a freeze step's `if` (the library's `fail` steps) asks it
// whether the freeze's window is open. So that a promotion runs at a chosen instant, now() reads
// the suite's clock instead: the builtin is replaced before any expression is compiled (the
// compiler copies the builtin's function into each program), with the same signature and
// behaviour (now(), now(location)). Everything else (the expression, the other builtins, Kargo's
// functions) is upstream's.
var clock atomic.Pointer[time.Time]

// ModelClock is when promotions run unless a scenario says otherwise: a Monday noon in June 2026,
// UTC, outside every freeze of the example platform (the test kit model's MODEL_CLOCK).
var ModelClock = time.Date(2026, time.June, 1, 12, 0, 0, 0, time.UTC)

// SetClock sets what expr-lang's now() returns.
func SetClock(t time.Time) { clock.Store(&t) }

// Now is the suite's clock.
func Now() time.Time { return *clock.Load() }

func init() {
	SetClock(ModelClock)
	f := builtin.Builtins[builtin.Index["now"]]
	f.Func = func(args ...any) (any, error) {
		if len(args) == 0 {
			return Now(), nil
		}
		if len(args) == 1 {
			if tz, ok := args[0].(*time.Location); ok {
				return Now().In(tz), nil
			}
		}
		return nil, fmt.Errorf("invalid number of arguments (expected 0, got %d)", len(args))
	}
}
