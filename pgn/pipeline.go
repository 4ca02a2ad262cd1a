package pgn

import (
	"context"
	"io"
	"sync"
)

// Hooks are what a program running a Pipeline reports as it goes: called
// on the goroutine that calls Pipeline, in input order. Either may be nil.
type Hooks struct {
	// Warn is called with every problem of the input.
	Warn func(*ParseError)
	// Progress is called after each batch with the number of games in it.
	Progress func(games int)
}

// Report passes problems to Warn, if set.
func (h Hooks) Report(problems []*ParseError) {
	if h.Warn != nil {
		for _, p := range problems {
			h.Warn(p)
		}
	}
}

// Done passes the number of games of a finished batch to Progress, if set.
func (h Hooks) Done(games int) {
	if h.Progress != nil {
		h.Progress(games)
	}
}

// BatchSize is the amount of input a Pipeline hands to one worker at a
// time: large enough that handing over costs nothing next to the work,
// small enough that memory stays flat.
const BatchSize = 256 << 10

// Pipeline reads the games of r in batches and calls work for each batch on
// up to jobs goroutines, then emit with each batch's result on the calling
// goroutine, in input order. Results are reused: work must reset what it
// fills. At most 2*jobs+1 batches are in flight, so memory stays bounded
// whatever the input size. With jobs <= 1 everything runs on the calling
// goroutine.
//
// Pipeline stops at the first error from emit or from reading, or when ctx
// is done, and returns that error; io.EOF at the end of the input is not
// an error.
func Pipeline[R any](ctx context.Context, r *Reader, jobs int, work func(*Batch, *R), emit func(*Batch, *R) error) error {
	if jobs <= 1 {
		var b Batch
		var res R
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := r.ReadBatch(&b, BatchSize); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			work(&b, &res)
			if err := emit(&b, &res); err != nil {
				return err
			}
		}
	}

	type slot struct {
		batch Batch
		res   R
		done  chan struct{}
	}
	n := 2*jobs + 1
	free := make(chan *slot, n)
	for i := 0; i < n; i++ {
		free <- &slot{done: make(chan struct{}, 1)}
	}
	todo := make(chan *slot, n)
	order := make(chan *slot, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var readErr error
	go func() {
		defer close(todo)
		defer close(order)
		for {
			var s *slot
			select {
			case s = <-free:
			case <-ctx.Done():
				return
			}
			if err := r.ReadBatch(&s.batch, BatchSize); err != nil {
				if err != io.EOF {
					readErr = err
				}
				return
			}
			todo <- s
			order <- s
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range todo {
				work(&s.batch, &s.res)
				s.done <- struct{}{}
			}
		}()
	}

	var err error
	for s := range order {
		<-s.done
		if err == nil {
			if err = ctx.Err(); err == nil {
				err = emit(&s.batch, &s.res)
			}
			if err != nil {
				cancel()
			}
		}
		select {
		case free <- s:
		default:
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	return ctx.Err()
}
