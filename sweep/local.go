package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Summary counts what a sweep did.
type Summary struct {
	Cells, Skipped, Ran, Failed, Interrupted int
	Wall                                     time.Duration
}

func (s Summary) String() string {
	msg := fmt.Sprintf("%d cells: %d run (%d failed), %d already recorded", s.Cells, s.Ran, s.Failed, s.Skipped)
	if s.Interrupted > 0 {
		msg += fmt.Sprintf(", %d not run (interrupted: rerun with --resume)", s.Interrupted)
	}
	return msg + fmt.Sprintf("; wall %.1f s", s.Wall.Seconds())
}

// LocalOptions configure RunLocal.
type LocalOptions struct {
	Jobs   int  // cells at once (at least 1)
	Resume bool // skip cells the database has
	// Progress, when not nil, gets a progress bar with an ETA (give it a
	// terminal only).
	Progress io.Writer
}

// Version is warpsim's version as the database records it: the module
// version and VCS revision the binary was built from.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v += " " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				v += " (modified)"
			}
		}
	}
	return v
}

// Describe records the sweep's spec and warpsim's version in the database.
func Describe(db *DB, spec *Spec) error {
	for k, v := range map[string]string{"spec": string(spec.Text()), "name": spec.Name, "warpsim_version": Version(),
		"metrics": fmt.Sprint(spec.Metrics)} {
		if err := db.SetMeta(k, v); err != nil {
			return err
		}
	}
	return nil
}

// RunLocal runs the cells on a pool of opt.Jobs workers, recording each
// as it finishes. Cancelling ctx (Ctrl-C) stops the running cells, which
// are not recorded; the recorded ones stay.
func RunLocal(ctx context.Context, cells []Cell, db *DB, r *Runner, opt LocalOptions) (Summary, error) {
	start := time.Now()
	sum := Summary{Cells: len(cells)}
	todo := cells
	if opt.Resume {
		done, err := db.Finished()
		if err != nil {
			return sum, err
		}
		todo = nil
		for _, c := range cells {
			if _, ok := done[c.ID]; ok {
				sum.Skipped++
				continue
			}
			todo = append(todo, c)
		}
	}
	var bar *progressbar.ProgressBar
	if opt.Progress != nil && len(todo) > 0 {
		bar = progressbar.NewOptions(len(todo), progressbar.OptionSetWriter(opt.Progress), progressbar.OptionSetDescription("sweep"),
			progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionOnCompletion(func() { fmt.Fprintln(opt.Progress) }))
	}
	jobs := max(opt.Jobs, 1)
	ch := make(chan Cell)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range ch {
				res, err := r.Run(ctx, c)
				mu.Lock()
				switch {
				case errors.Is(err, ErrInterrupted):
					sum.Interrupted++
				case err != nil:
					if firstErr == nil {
						firstErr = err
					}
				default:
					if rerr := db.Record(res); rerr != nil && firstErr == nil {
						firstErr = rerr
					}
					sum.Ran++
					if res.Status != "ok" {
						sum.Failed++
					}
				}
				if bar != nil {
					bar.Add(1)
				}
				mu.Unlock()
			}
		}()
	}
	for i, c := range todo {
		if ctx.Err() != nil || firstErr != nil {
			mu.Lock()
			sum.Interrupted += len(todo) - i
			mu.Unlock()
			break
		}
		select {
		case ch <- c:
		case <-ctx.Done():
			mu.Lock()
			sum.Interrupted += len(todo) - i
			mu.Unlock()
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(ch)
	wg.Wait()
	sum.Wall = time.Since(start)
	if firstErr != nil {
		return sum, firstErr
	}
	if ctx.Err() != nil {
		return sum, ErrInterrupted
	}
	if sum.Interrupted > 0 {
		return sum, fmt.Errorf("%d cells were killed before they finished (not recorded): rerun with --resume", sum.Interrupted)
	}
	return sum, nil
}
