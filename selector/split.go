package selector

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// Default file name patterns, one per numbering.
const (
	DefaultSPPattern     = "sp-%03d.pgn"
	DefaultFritz9Pattern = "fritz9-%03d.pgn"
)

// Names of the files for the games that have no single number.
const (
	DFRCFile  = "dfrc.pgn"
	OtherFile = "other.pgn"
	// IncompleteFile receives the last game read before an input failed
	// (a truncated download, a damaged gzip): it ends where the reading
	// stopped, so it is kept apart from the whole games.
	IncompleteFile = "incomplete.pgn"
)

// ErrCutShort is wrapped by the warning about a game that ends where its
// input failed.
var ErrCutShort = errors.New("game cut short by a read error")

// DefaultMaxOpen is how many output files a Splitter keeps open at once:
// far below the usual limit of 256 or 1024 open files, and enough for the
// positions of a tournament to stay open.
const DefaultMaxOpen = 64

// openReserve is how many of the process's open files are left to
// everything but the output files: standard streams, inputs, the
// runtime's poller.
const openReserve = 12

// ErrNotEmpty is returned by NewSplitter for a directory that already holds
// files when SplitOptions.Append is not set.
var ErrNotEmpty = errors.New("directory is not empty")

// ErrPattern is wrapped by NewSplitter's errors about SplitOptions.Pattern.
var ErrPattern = errors.New("bad file name pattern")

// SplitOptions say where a Splitter writes.
type SplitOptions struct {
	// Dir is the output directory, created when missing.
	Dir string
	// By is the numbering of the file names.
	By numbering.Scheme
	// Pattern is the file name of a position, with one integer verb for its
	// number (e.g. "sp-%03d.pgn"); empty means the scheme's default. A
	// name ending in .gz or .zst is compressed; so are then the DFRC and
	// other files (dfrc.pgn.gz).
	Pattern string
	// Append allows a directory that already holds files, and appends to
	// them. Without it a non-empty Dir is refused with ErrNotEmpty.
	Append bool
	// MaxOpen bounds the files open at once for writing; 0 means
	// DefaultMaxOpen. Up to 8 more are open for an instant while new files
	// are created. Either bound is lowered to fit the process's limit on
	// open files, and lowered again should opening a file hit it.
	MaxOpen int
}

// Splitter writes every game to a file of its start position: one file
// per Scharnagl or Fritz9 number, DFRC games to dfrc.pgn and all others to
// other.pgn, appending in input order. Files are created when their first
// game comes.
//
// It holds games in memory per file and writes them in chunks, so that
// even with all 960 files in use it opens each file only once per few
// megabytes of input, and it never keeps more than MaxOpen files open
// (plus up to 8 briefly, while new files are created in the background),
// both fewer when the process's limit on open files is low: a file closed
// to make room is later reopened in append mode (a compressed file then
// gets a new gzip member or zstd frame, which readers join).
//
// Bytes that are not a game go with the game before them, as for Filter;
// when the run has no game at all, they go to other.pgn.
type Splitter struct {
	opts       SplitOptions
	names      [Classes]string
	incomplete string // name of the file of games cut short

	wroteIncomplete bool

	bufs     [Classes][]byte
	pending  int // bytes in bufs
	files    [Classes]*outFile
	open     *list.List // of *outFile, most recently used first
	written  [Classes]bool
	nfiles   int
	appender *stream.Appender

	// Creating a file can take a millisecond on some file systems, most of
	// it waiting: files are created in the background, a few at a time, as
	// soon as their first game is seen, and file waits for that.
	created  [Classes]chan error
	creators chan struct{} // one token per creation under way

	// The last game written by Run is held here until the next one comes
	// or the input ends: when the input fails, it is the game cut short.
	held      []byte
	heldClass int
	holding   bool
	writeErr  error // the first error of writing, told apart from reading

	// What Abort restores: each file's size before the run's first write
	// to it (-1 when the run created it), and the directories the run
	// made.
	before           [Classes]int64
	incompleteBefore int64
	madeDirs         []string

	rt router
	// chunk and budget are chunkSize and budget; tests make them small.
	chunk, budget int
}

// maxCreators bounds the files being created at once, so that at most
// MaxOpen+maxCreators files are open.
const maxCreators = 8

// openBounds returns how many files may be open for writing and how many
// may be being created, for at most maxOpen written and a process limit of
// limit open files (0: unknown).
func openBounds(maxOpen int, limit uint64) (open, creators int) {
	open, creators = maxOpen, maxCreators
	if limit == 0 || limit >= uint64(maxOpen+maxCreators+openReserve) {
		return open, creators
	}
	avail := 2 // even below the reserve, try: opening falls back on EMFILE
	if limit > uint64(openReserve+avail) {
		avail = int(limit) - openReserve
	}
	creators = max(1, min(maxCreators, avail/4))
	open = max(1, min(maxOpen, avail-creators))
	return open, creators
}

// Chunking: a file's games are written once they reach chunkSize, and all
// files' games once they reach budget together.
const (
	chunkSize = 128 << 10
	budget    = 16 << 20
)

type outFile struct {
	*stream.AppendFile
	class int
	elem  *list.Element
}

// NewSplitter checks the options and the directory, creating it when
// missing.
func NewSplitter(opts SplitOptions) (*Splitter, error) {
	if opts.Dir == "" {
		opts.Dir = "."
	}
	if opts.MaxOpen <= 0 {
		opts.MaxOpen = DefaultMaxOpen
	}
	var creators int
	opts.MaxOpen, creators = openBounds(opts.MaxOpen, openFileLimit())
	if opts.Pattern == "" {
		opts.Pattern = DefaultSPPattern
		if opts.By == numbering.Fritz9 {
			opts.Pattern = DefaultFritz9Pattern
		}
	}
	s := &Splitter{opts: opts, open: list.New(), rt: newRouter(), chunk: chunkSize, budget: budget,
		creators: make(chan struct{}, creators)}
	if err := s.makeNames(); err != nil {
		return nil, err
	}
	// The directories MkdirAll is about to make, deepest first.
	for d := filepath.Clean(opts.Dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		s.madeDirs = append(s.madeDirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(opts.Dir, 0o777); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if !opts.Append {
		d, err := os.Open(opts.Dir)
		if err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		names, err := d.Readdirnames(1)
		d.Close()
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("output directory %s: %w", opts.Dir, err)
		}
		if len(names) > 0 {
			return nil, fmt.Errorf("%s: %w (it holds %s)", opts.Dir, ErrNotEmpty, names[0])
		}
	}
	return s, nil
}

// makeNames works out every file name from the pattern, and checks that
// the pattern gives 960 different plain file names.
func (s *Splitter) makeNames() error {
	p := s.opts.Pattern
	if strings.ContainsAny(p, `/\`) {
		return fmt.Errorf("%w %s: a file name, not a path", ErrPattern, words.Quote(p))
	}
	if stream.UnsupportedExtension(p) != nil {
		return fmt.Errorf("%w %s: %s output is not offered; use .gz or .zst", ErrPattern, words.Quote(p), filepath.Ext(p))
	}
	comp := stream.ByExtension(p)
	var err error
	if s.appender, err = stream.NewAppender(comp); err != nil {
		return fmt.Errorf("%w %s: %s output is not offered; use .gz or .zst", ErrPattern, words.Quote(p), comp)
	}
	suffix := ""
	if comp != stream.None {
		suffix = filepath.Ext(p)
	}
	s.names[DFRC] = DFRCFile + suffix
	s.names[Other] = OtherFile + suffix
	s.incomplete = IncompleteFile + suffix
	seen := map[string]bool{s.names[DFRC]: true, s.names[Other]: true, s.incomplete: true}
	for sp := 0; sp < numbering.Count; sp++ {
		n := sp
		if s.opts.By == numbering.Fritz9 {
			n, _ = numbering.SPToFritz9(sp)
		}
		name := fmt.Sprintf(p, n)
		if strings.Contains(name, "%!") {
			return fmt.Errorf("%w %s: want exactly one integer verb such as %%03d, got %s", ErrPattern, words.Quote(p), words.Quote(name))
		}
		if seen[name] || name == "" || name == "." || name == ".." {
			return fmt.Errorf("%w %s: gives the name %s twice; it needs the number in it (%%d)", ErrPattern, words.Quote(p), words.Quote(name))
		}
		seen[name] = true
		s.names[sp] = name
	}
	return nil
}

// FileName returns the name, inside the directory, of the file for the
// class.
func (s *Splitter) FileName(class int) string { return s.names[class] }

// Run splits every game of r, classifying on up to opts.Jobs goroutines
// while keeping the input's order, and reports as Filter.Run does. With
// opts.Where set, only the games it matches are written; the others are
// left out. Run may be called once per input; call Close after the last,
// also after an error, to write out the games held in memory.
//
// When r fails, its last game ends where the reading stopped, so it is
// not written to the file of its class but appended to IncompleteFile
// (with the compression of the others), and a warning wrapping
// ErrCutShort names it and its line.
func (s *Splitter) Run(ctx context.Context, r *pgn.Reader, opts pipeline.Options) error {
	s.holding = true
	err := s.rt.run(ctx, r, opts, s, func(d int) bool { return d >= 0 && d < numbering.Count })
	s.holding = false
	if len(s.held) == 0 {
		return err
	}
	if err == nil || s.writeErr != nil || ctx.Err() != nil {
		// The input ended or the run stopped between games: the held game
		// was read whole.
		if e := s.release(); err == nil {
			err = e
		}
		return err
	}
	if e := s.keepIncomplete(r, opts); e != nil {
		return fmt.Errorf("%w: %w", err, e)
	}
	return err
}

// release writes the held game to the file of its class.
func (s *Splitter) release() error {
	b := s.held
	s.held = s.held[:0]
	return s.add(s.heldClass, b)
}

// keepIncomplete appends the held game to the file of games cut short
// and warns about it.
func (s *Splitter) keepIncomplete(r *pgn.Reader, opts pipeline.Options) error {
	b := s.held
	s.held = s.held[:0]
	path := filepath.Join(s.opts.Dir, s.incomplete)
	if !s.wroteIncomplete {
		s.wroteIncomplete = true
		s.nfiles++
		s.incompleteBefore = sizeBefore(path)
	}
	f, err := s.appender.Open(path)
	if err != nil {
		return err // *PathError names the file
	}
	_, err = f.Write(b)
	if e := f.Close(); err == nil {
		err = e
	}
	if err != nil {
		return fileError(path, err)
	}
	// The Reader stands after the game; its first line is as many lines
	// back as the game has line ends (a lone CR in old Mac files).
	ends := bytes.Count(b, []byte("\n"))
	if ends == 0 {
		ends = bytes.Count(b, []byte("\r"))
	}
	line := r.Line() - ends
	s.rt.sum.Warnings++
	if opts.Warn != nil {
		opts.Warn(&pgn.ParseError{File: r.Name, Line: line, Err: fmt.Errorf("%w; its bytes are in %s", ErrCutShort, path)})
	}
	return nil
}

// Summary returns the counts so far; Selected counts the games written to
// the files of a number.
func (s *Splitter) Summary() Summary { return s.rt.sum }

// Files returns how many files the run has written to.
func (s *Splitter) Files() int { return s.nfiles }

// Close writes out everything held in memory and closes every file. It
// returns the first error.
func (s *Splitter) Close() error {
	err := s.rt.finish(s, Other)
	if e := s.flushAll(); err == nil {
		err = e
	}
	for s.open.Len() > 0 {
		if e := s.closeFile(s.open.Back().Value.(*outFile)); err == nil {
			err = e
		}
	}
	return err
}

// Flush writes the games held in memory to their files, for a reader of
// the files to see them: a live feed's games, when the input has gone idle
// (pipeline.Options.Flush). The last game written is written too: the input has
// gone on past it, so it was not cut short. A compressed file keeps what
// its compressor holds until Close.
func (s *Splitter) Flush() error {
	var err error
	if len(s.held) > 0 {
		err = s.release()
	}
	if err == nil {
		err = s.flushAll()
	}
	if err != nil && s.writeErr == nil {
		s.writeErr = err
	}
	return err
}

// WriteFailed reports whether writing a file failed, as opposed to
// reading an input: the files may then end inside a game, and the run is
// one to Abort rather than Close.
func (s *Splitter) WriteFailed() bool { return s.writeErr != nil }

// End ends the run that stopped with err, nil when its inputs were read to
// their end, and returns the run's error. The files are closed, with every
// game read whole written out, even after an input could not be read to
// its end (the game it cut short is in incomplete.pgn). A run stopped by a
// canceled context, or whose writing or closing failed, is put back
// instead, as by Abort: its error is then a *RollbackError.
func (s *Splitter) End(err error) error {
	if !errors.Is(err, context.Canceled) && !s.WriteFailed() {
		cerr := s.Close()
		if cerr == nil {
			return err
		}
		err = cerr
	}
	return &RollbackError{Dir: s.opts.Dir, Err: err, Restore: s.Abort()}
}

// RollbackError is the error of a split run that End put back: Err stopped
// it, and Restore, when not nil, is why the directory could not be put back
// as it was.
type RollbackError struct {
	Dir     string
	Err     error
	Restore error
}

func (e *RollbackError) Error() string {
	if e.Restore != nil {
		return fmt.Sprintf("%v; putting %s back as it was: %v", e.Err, e.Dir, e.Restore)
	}
	return fmt.Sprintf("%v; %s left as it was", e.Err, e.Dir)
}

// Unwrap gives both errors to errors.Is and errors.As.
func (e *RollbackError) Unwrap() []error {
	if e.Restore == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Restore}
}

// Abort ends a run that must leave the directory as it found it: one
// stopped by a signal, or whose writing failed. It drops the games held in
// memory, closes the files, cuts every file the run wrote to back to its
// size before the run (with SplitOptions.Append, the games it held
// before), removes the files the run created, and the directories the
// run made. It returns the errors of putting things back.
func (s *Splitter) Abort() error {
	var errs []error
	for s.open.Len() > 0 {
		f := s.open.Back().Value.(*outFile)
		s.open.Remove(f.elem)
		s.files[f.class] = nil
		f.Close() // what it says is of no use: the file is restored below
	}
	restore := func(path string, before int64) {
		var err error
		switch {
		case before == notAFile:
			return
		case before < 0:
			err = os.Remove(path)
		default:
			err = os.Truncate(path, before)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for class, written := range s.written {
		if !written {
			continue
		}
		if done := s.created[class]; done != nil { // a creation still under way
			s.created[class] = nil
			<-done
		}
		restore(filepath.Join(s.opts.Dir, s.names[class]), s.before[class])
	}
	if s.wroteIncomplete {
		restore(filepath.Join(s.opts.Dir, s.incomplete), s.incompleteBefore)
	}
	for _, d := range s.madeDirs {
		os.Remove(d) // only when nothing else came into it
	}
	s.bufs, s.held, s.pending = [Classes][]byte{}, nil, 0
	return errors.Join(errs...)
}

// sizeBefore returns the size of the file at path, -1 when there is
// none, or notAFile when something else has the name (a directory, which
// a run cannot write to, or a FIFO) or it cannot be looked at: Abort
// leaves it alone.
func sizeBefore(path string) int64 {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return -1
	case err != nil || !fi.Mode().IsRegular():
		return notAFile
	}
	return fi.Size()
}

const notAFile = -2

// dest leaves out the games Where does not select.
func (s *Splitter) dest(class int, selected bool) int {
	if !selected {
		return discard
	}
	return class
}

// write holds each game back until the next one comes, so that Run can
// tell the last game before a read error apart.
func (s *Splitter) write(class int, b []byte) error {
	if !s.holding {
		return s.add(class, b)
	}
	if len(s.held) > 0 {
		if err := s.release(); err != nil {
			return err
		}
	}
	s.held = append(s.held[:0], b...)
	s.heldClass = class
	if cap(s.held) > 2*s.chunk && len(b) <= s.chunk {
		s.held = append([]byte(nil), b...) // let go of a huge game's memory
	}
	return nil
}

// add appends b to the games held in memory for the class, writing them
// out by chunks.
func (s *Splitter) add(class int, b []byte) (err error) {
	defer func() {
		if err != nil && s.writeErr == nil {
			s.writeErr = err
		}
	}()
	s.bufs[class] = append(s.bufs[class], b...)
	s.pending += len(b)
	if !s.written[class] {
		s.written[class] = true
		s.nfiles++
		s.before[class] = sizeBefore(filepath.Join(s.opts.Dir, s.names[class]))
		s.create(class)
	}
	if len(s.bufs[class]) >= s.chunk {
		if err := s.flush(class); err != nil {
			return err
		}
	}
	if s.pending >= s.budget {
		return s.flushAll()
	}
	return nil
}

// flushAll writes every file's games. It keeps, for the next games, the
// buffers of the files written to, up to budget bytes of them: made anew
// after every flushAll, by appending, they were copied as they grew and
// took a quarter of split's time. The others are let go, so that memory
// stays near twice the budget whatever the number of files.
func (s *Splitter) flushAll() error {
	keep := s.budget
	for c := range s.bufs {
		if len(s.bufs[c]) > 0 {
			if err := s.flush(c); err != nil {
				return err
			}
			if b := s.bufs[c]; cap(b) <= keep {
				keep -= cap(b)
				continue
			}
		}
		s.bufs[c] = nil
	}
	return nil
}

// flush writes the games held for one class to its file.
func (s *Splitter) flush(class int) error {
	f, err := s.file(class)
	if err != nil {
		return err
	}
	b := s.bufs[class]
	if _, err := f.Write(b); err != nil {
		return fileError(f.Name(), err)
	}
	s.pending -= len(b)
	s.bufs[class] = b[:0]
	if cap(b) > 2*s.chunk {
		s.bufs[class] = nil // one huge game: do not keep its memory
	}
	return nil
}

// create makes the file of the class exist, in the background.
func (s *Splitter) create(class int) {
	done := make(chan error, 1)
	s.created[class] = done
	path := filepath.Join(s.opts.Dir, s.names[class])
	go func() {
		s.creators <- struct{}{}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err == nil {
			err = f.Close()
		} else if errors.Is(err, syscall.EMFILE) {
			err = nil // file creates it, once it has closed one
		}
		<-s.creators
		done <- err
	}()
}

// file returns the open file of the class, opening it in append mode and
// closing the least recently used one when MaxOpen are open.
func (s *Splitter) file(class int) (*outFile, error) {
	if f := s.files[class]; f != nil {
		s.open.MoveToFront(f.elem)
		return f, nil
	}
	if done := s.created[class]; done != nil {
		s.created[class] = nil
		if err := <-done; err != nil {
			return nil, err // *PathError names the file
		}
	}
	for s.open.Len() >= s.opts.MaxOpen {
		if err := s.closeFile(s.open.Back().Value.(*outFile)); err != nil {
			return nil, err
		}
	}
	af, err := s.appender.Open(filepath.Join(s.opts.Dir, s.names[class]))
	for err != nil && errors.Is(err, syscall.EMFILE) && s.open.Len() > 0 {
		// The process has fewer files to spare than its limit said (other
		// code holds some): keep fewer open from now on.
		s.opts.MaxOpen = max(1, s.open.Len()-1)
		if e := s.closeFile(s.open.Back().Value.(*outFile)); e != nil {
			return nil, e
		}
		af, err = s.appender.Open(filepath.Join(s.opts.Dir, s.names[class]))
	}
	if err != nil {
		return nil, err // it names the file
	}
	f := &outFile{AppendFile: af, class: class}
	f.elem = s.open.PushFront(f)
	s.files[class] = f
	return f, nil
}

// fileError names the file name in err, unless err names it already, as
// the system's errors do ("write sp-114.pgn: no space left on device").
func fileError(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == name {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// closeFile ends the file's compressed member or frame and closes it.
func (s *Splitter) closeFile(f *outFile) error {
	s.open.Remove(f.elem)
	s.files[f.class] = nil
	if err := f.Close(); err != nil {
		return fileError(f.Name(), err)
	}
	return nil
}
