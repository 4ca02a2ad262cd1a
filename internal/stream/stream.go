// Package stream opens frctool's inputs and outputs: "-" for the standard
// streams, compression detected from the magic bytes on input and chosen
// by the file name's extension on output, and files replaced atomically
// (temporary file, fsync, rename), so that a failed or interrupted run
// never leaves a half-written file behind. Only what is safe to replace is
// replaced: a symbolic link's target is rewritten in place of the link,
// and a device or FIFO is written to, never renamed over. Reads from
// pipes and terminals end when their context is done, so an interrupt
// does not wait for an idle input.
package stream

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/dsnet/compress/bzip2"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compression is a compression format of an input or output.
type Compression int

const (
	None Compression = iota
	Gzip
	Bzip2
	Zstd
)

func (c Compression) String() string {
	return [...]string{"none", "gzip", "bzip2", "zstd"}[c]
}

// magic numbers, RFC 1952, bzip2's "BZh", RFC 8878
var magics = []struct {
	c     Compression
	magic []byte
}{
	{Gzip, []byte{0x1f, 0x8b}},
	{Bzip2, []byte("BZh")},
	{Zstd, []byte{0x28, 0xb5, 0x2f, 0xfd}},
}

// ErrUnsupportedCompression is the error for an input compressed, or an
// output named, in a format frctool knows but does not read or write (xz,
// 7-Zip, zip, lz4, compress): read as text, such an input would be
// reported as binary data, and such an output written uncompressed under
// a name that says otherwise.
var ErrUnsupportedCompression = errors.New("compression not supported")

// foreign are the formats of ErrUnsupportedCompression, with their magic
// numbers, their file names' extensions, and the commands that write a
// file of theirs to stdout and that compress stdin, for the messages.
var foreign = []struct {
	name         string
	magic        []byte
	exts         []string
	tool, writer string
}{
	{"xz", []byte{0xfd, '7', 'z', 'X'}, []string{".xz", ".txz", ".lzma"}, "xz -dc", "xz"},
	{"7-Zip", []byte{'7', 'z', 0xbc, 0xaf}, []string{".7z"}, "7z x -so", "7z a -si"},
	{"zip", []byte{'P', 'K', 3, 4}, []string{".zip"}, "unzip -p", "zip"},
	{"lz4", []byte{0x04, 0x22, 0x4d, 0x18}, []string{".lz4"}, "lz4 -dc", "lz4"},
	{"compress", []byte{0x1f, 0x9d}, []string{".z"}, "uncompress -c", "compress"},
	{"brotli", nil, []string{".br"}, "brotli -dc", "brotli"},
}

// ErrUTF16 is the error for an input of UTF-16 text (a Windows editor's
// "Unicode"), which would be read as binary data with a NUL in every
// other byte.
var ErrUTF16 = errors.New("UTF-16 text (frctool reads UTF-8 and Latin-1)")

// detectForeign returns the error for an input whose first bytes are a
// format of ErrUnsupportedCompression, or UTF-16's byte order mark, or
// nil.
func detectForeign(name string, head []byte) error {
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		return fmt.Errorf("%s: %w; convert it first: %s", name, ErrUTF16, through(name, "iconv -f UTF-16 -t UTF-8"))
	}
	for _, f := range foreign {
		if f.magic != nil && bytes.HasPrefix(head, f.magic) {
			return fmt.Errorf("%s: %w: %s (frctool reads gzip, bzip2 and zstd); decompress it first: %s", name, ErrUnsupportedCompression, f.name, through(name, f.tool))
		}
	}
	return nil
}

// through says how to read input name through the command tool.
func through(name, tool string) string {
	if name == "stdin" {
		return "... | " + tool + " | frctool ..."
	}
	return tool + " " + name + " | frctool ..."
}

// UnsupportedExtension returns the error for an output name whose
// extension asks for a format of ErrUnsupportedCompression, or nil.
func UnsupportedExtension(name string) error {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range foreign {
		for _, e := range f.exts {
			if ext == e {
				return fmt.Errorf("%s: %w: %s (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to %s", name, ErrUnsupportedCompression, f.name, f.writer)
			}
		}
	}
	return nil
}

// Detect returns the compression whose magic number begins head. A zstd
// skippable frame (magic 0x184D2A50..0x184D2A5F, as pzstd begins its files
// with) counts as zstd.
func Detect(head []byte) Compression {
	if isSkippable(head) {
		return Zstd
	}
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			return m.c
		}
	}
	return None
}

// sniff returns the first bytes of br, enough for Detect: as many as the
// first read gives, up to four, and more only while they could still be
// the start of a magic number. A line typed at a terminal ("0" and Enter)
// is two bytes that start none, and must be read at once, not held until
// a second line brings the fourth byte.
func sniff(br *bufio.Reader) ([]byte, error) {
	head, err := br.Peek(1)
	for err == nil {
		head, _ = br.Peek(min(br.Buffered(), 4))
		if len(head) == 4 || !magicPrefix(head) {
			return head, nil
		}
		head, err = br.Peek(len(head) + 1)
	}
	return head, err
}

// magicPrefix tells whether head, shorter than four bytes, could be the
// start of a magic number Detect knows.
func magicPrefix(head []byte) bool {
	// A skippable frame's first byte may end in any of 16 values.
	frame := [4]byte{0x50, 0x2a, 0x4d, 0x18}
	copy(frame[:], head)
	if isSkippable(frame[:]) {
		return true
	}
	for _, m := range magics {
		if len(head) < len(m.magic) && bytes.HasPrefix(m.magic, head) {
			return true
		}
	}
	for _, f := range foreign {
		if len(head) < len(f.magic) && bytes.HasPrefix(f.magic, head) {
			return true
		}
	}
	// UTF-16's byte order marks, two bytes: a first 0xff or 0xfe waits
	// for the second.
	return len(head) == 1 && (head[0] == 0xff || head[0] == 0xfe)
}

// ByExtension returns the compression a file name asks for: .gz, .bz2,
// .zst (or .zstd); None otherwise.
func ByExtension(name string) Compression {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".gz", ".gzip":
		return Gzip
	case ".bz2", ".bzip2":
		return Bzip2
	case ".zst", ".zstd":
		return Zstd
	}
	return None
}

// Input is an opened input, decompressed.
type Input struct {
	io.Reader
	// Name is the file name, or "stdin".
	Name string
	// Size is the size of the file on disk (compressed), or -1 when not
	// known, as for a pipe.
	Size int64
	// Compression is the detected format.
	Compression Compression
	// Regular tells that the input is a regular file (by name or as
	// stdin), the only kind that can be rewritten in place.
	Regular bool

	src     io.Reader // the file or stdin, behind a ctxReader unless regular
	counter *countingReader
	closers []func() error
	waits   *ctxReader    // src when it may wait: a pipe, FIFO or terminal
	plain   *bufio.Reader // Reader's buffer when not compressed
}

// Idle reports whether the input has had nothing to read for d: no byte
// buffered, and none arriving within d. Only an uncompressed pipe, FIFO
// or terminal can be idle: a file never waits, and a decompressor may hold
// bytes of its own. A reader of a live feed (tail -f, a broadcast) asks
// before it waits, so as to pass on what it holds whole first. Idle must
// be called on the goroutine that reads; it returns false at once when ctx
// is done, for the Read that follows to report it.
func (in *Input) Idle(d time.Duration) bool {
	if in.waits == nil || in.plain == nil || in.plain.Buffered() > 0 {
		return false
	}
	return in.waits.idle(d)
}

// Consumed returns how many bytes of the file itself (before
// decompression) have been read: the progress against Size.
func (in *Input) Consumed() int64 { return in.counter.n.Load() }

// Close closes the decompressor and the file, and lets go of the buffers,
// so that an Input kept after Close holds no memory worth counting.
func (in *Input) Close() error {
	var errs []error
	for i := len(in.closers) - 1; i >= 0; i-- {
		errs = append(errs, in.closers[i]())
	}
	in.closers = nil
	in.Reader, in.src = closedReader{}, nil
	return errors.Join(errs...)
}

type closedReader struct{}

func (closedReader) Read([]byte) (int, error) { return 0, os.ErrClosed }

// Open opens the named input, "-" meaning stdin, and decompresses it when
// its first bytes are a gzip, bzip2 or zstd magic number.
func Open(name string, stdin io.Reader) (*Input, error) {
	return OpenContext(context.Background(), name, stdin)
}

// bufferSize is the buffer an input is read through: 256 KB, or for a
// regular file smaller than that the file's size (a folder of single-game
// files would otherwise take 256 KB a file for the collector to reclaim).
// Reads larger than the buffer go past it to the file.
func bufferSize(in *Input) int {
	const most = 256 << 10
	if in.Regular && in.Size >= 0 && in.Size < most {
		return max(int(in.Size)+1, 512)
	}
	return most
}

// OpenContext is Open with reads that end when ctx is done: a read from a
// pipe, FIFO or terminal that is waiting for data then returns ctx.Err(),
// so an interrupt is never stuck behind an idle input. Regular files never
// wait, and are read directly; a read of one after ctx is done returns
// ctx.Err() too, so that a reader busy with a large file stops.
func OpenContext(ctx context.Context, name string, stdin io.Reader) (*Input, error) {
	in := &Input{Name: name, Size: -1}
	if name == "-" || name == "" {
		in.Name = "stdin"
		in.src = stdin
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				in.Size, in.Regular = fi.Size(), true
			}
			GrowPipe(f)
		}
	} else {
		f, err := openFile(ctx, name)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if fi.IsDir() {
			f.Close()
			return nil, isDirectory(name)
		}
		if fi.Mode().IsRegular() {
			in.Size, in.Regular = fi.Size(), true
		}
		GrowPipe(f)
		in.src = f
		in.closers = append(in.closers, f.Close)
	}
	if !in.Regular {
		cr := newCtxReader(ctx, in.src)
		in.src, in.waits = cr, cr
		// Closers run last first: the reading goroutine is told to stop
		// before the file under it is closed.
		in.closers = append(in.closers, cr.close)
	}
	in.counter = &countingReader{r: in.src}
	br := bufio.NewReaderSize(in.counter, bufferSize(in))
	head, err := sniff(br)
	if err != nil && err != io.EOF && len(head) == 0 {
		in.Close()
		if errors.Is(err, ctx.Err()) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	in.Compression = Detect(head)
	if in.Compression == None {
		if err := detectForeign(in.Name, head); err != nil {
			in.Close()
			return nil, err
		}
	}
	defer func() {
		if in.Reader != nil && in.Compression != None {
			in.Reader = namedErrors{in.Reader, in.Name + ": " + in.Compression.String()}
		}
		if in.Reader != nil && in.Regular {
			// A regular file never blocks, but a reader busy with it for
			// seconds (a merge of a large document) must stop too.
			in.Reader = stoppable{in.Reader, ctx}
		}
	}()
	switch in.Compression {
	case None:
		in.Reader, in.plain = br, br
	case Gzip:
		zr, err := gzip.NewReader(br)
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("%s: gzip: %w", in.Name, err)
		}
		in.Reader = zr
		in.closers = append(in.closers, zr.Close)
	case Bzip2:
		zr, err := bzip2.NewReader(br, nil)
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("%s: bzip2: %w", in.Name, err)
		}
		in.Reader = zr
		in.closers = append(in.closers, zr.Close)
	case Zstd:
		// The decoder's own goroutines decompress ahead of the parser,
		// which is what makes .zst inputs nearly as fast as plain ones.
		// Skippable frames are dropped before the decoder, which would
		// print a line to stderr for each.
		zr, err := zstd.NewReader(&zstdFrames{br: br},
			zstd.WithDecoderConcurrency(2), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(MaxWindow))
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("%s: zstd: %w", in.Name, err)
		}
		in.Reader = zr
		in.closers = append(in.closers, func() error { zr.Close(); return nil })
	}
	return in, nil
}

// Readable reports why OpenContext could not open the named input, or
// nil, without reading any of it: so that a program can refuse to start
// on a misspelt input before it writes anything. A FIFO is only looked
// at, since opening one waits for a writer; "-" and "" (stdin) are always
// readable.
func Readable(name string) error {
	if name == "-" || name == "" {
		return nil
	}
	fi, err := os.Stat(name)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return isDirectory(name)
	case fi.Mode()&os.ModeNamedPipe != 0:
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	return f.Close()
}

// isDirectory is the error for a directory named as an input, which the
// system opens but cannot read.
func isDirectory(name string) error {
	return &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
}

// openFile opens name for reading. Opening a FIFO waits for a writer, so
// a FIFO is opened on a goroutine that ctx can abandon.
func openFile(ctx context.Context, name string) (*os.File, error) {
	if fi, err := os.Stat(name); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return os.Open(name)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// MaxWindow is the largest zstd window accepted: 128 MiB, what zstd
// --ultra -22 uses. The decoder allocates the whole window, so a file
// written with --long=31 would otherwise take 2 GiB of memory per input.
const MaxWindow = 128 << 20

// ErrWindowTooLarge is the error for a zstd frame whose window is over
// MaxWindow.
var ErrWindowTooLarge = errors.New("window larger than the 128 MiB limit (written with zstd --long=28 or more?)")

// namedErrors prefixes read errors with the file and format, since a
// decompressor's own ("unexpected EOF") names neither.
type namedErrors struct {
	r      io.Reader
	prefix string
}

func (n namedErrors) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, zstd.ErrWindowSizeExceeded):
		err = fmt.Errorf("%s: %w", n.prefix, ErrWindowTooLarge)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		// An interrupt is not the file's fault.
	default:
		err = fmt.Errorf("%s: %w", n.prefix, err)
	}
	return k, err
}

// stoppable reads from r until ctx is done, then returns ctx's error: a
// check a read, where the reads of a pipe or terminal wait in a ctxReader.
type stoppable struct {
	r   io.Reader
	ctx context.Context
}

func (s stoppable) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.r.Read(p)
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Output is a destination being written: the standard output, a file
// that appears under its name only when Commit succeeds, or a character
// device or FIFO written to as it is.
type Output struct {
	// Name is the file name, or "stdout".
	Name string

	w      io.Writer // what Write writes to: the compressor or the buffer
	bw     *bufio.Writer
	zw     io.WriteCloser // the compressor, if any
	file   *AtomicFile    // for a regular file or a new one
	direct *os.File       // for a device or FIFO
	done   bool
}

// Create opens an output. "-" or "" is stdout, written as is; any other
// name is a file, compressed as its extension says, written to a temporary
// file beside it and renamed into place by Commit (see CreateCompressed).
func Create(name string, stdout io.Writer) (*Output, error) {
	if name == "-" || name == "" {
		o := &Output{Name: "stdout"}
		if f, ok := stdout.(*os.File); ok {
			GrowPipe(f)
		}
		o.bw = bufio.NewWriterSize(stdout, 256<<10)
		o.w = o.bw
		return o, nil
	}
	if err := UnsupportedExtension(name); err != nil {
		return nil, err
	}
	return CreateCompressed(name, ByExtension(name), 0)
}

// CreateCompressed opens the file name for writing with compression c. A
// regular file, or a name where nothing is yet, is replaced atomically
// (see AtomicFile); a symbolic link is followed and its target replaced.
// A character device (/dev/null, a terminal) or a FIFO is written to
// directly: replacing it would put a plain file where the system or
// another process expects the device or pipe. A non-zero perm sets the
// file's mode.
func CreateCompressed(name string, c Compression, perm os.FileMode) (*Output, error) {
	path, fi, err := resolve(name)
	if err != nil {
		return nil, err
	}
	o := &Output{Name: name}
	var dst io.Writer
	switch {
	case fi == nil || fi.Mode().IsRegular():
		f, err := newAtomicFile(name, path, fi, perm)
		if err != nil {
			return nil, err
		}
		o.file, dst = f, f
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory", name)
	case fi.Mode()&(os.ModeCharDevice|os.ModeNamedPipe) != 0:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		GrowPipe(f)
		o.direct, dst = f, f
	default:
		return nil, fmt.Errorf("%s: %w", name, ErrNotWritable)
	}
	o.bw = bufio.NewWriterSize(dst, 256<<10)
	o.w = o.bw
	switch c {
	case Gzip:
		o.zw = gzip.NewWriter(o.bw)
	case Bzip2:
		zw, err := bzip2.NewWriter(o.bw, nil)
		if err != nil {
			o.Abort()
			return nil, err
		}
		o.zw = zw
	case Zstd:
		zw, err := zstd.NewWriter(o.bw)
		if err != nil {
			o.Abort()
			return nil, err
		}
		o.zw = zw
	}
	if o.zw != nil {
		o.w = o.zw
	}
	return o, nil
}

// ErrNotWritable is the error for an output that is neither a regular
// file, a character device nor a FIFO (a socket, a block device).
var ErrNotWritable = errors.New("not a regular file, character device or FIFO")

// resolve follows name's symbolic links to the file they end at, which
// may not exist yet (a dangling link creates its target). fi is nil when
// nothing is there.
//
// A device or FIFO is taken as it is, before following links: what
// /dev/stdout and /proc/self/fd/N link to ("pipe:[1234]") is no path, and
// opening the name itself reaches the right file.
func resolve(name string) (path string, fi os.FileInfo, err error) {
	if st, err := os.Stat(name); err == nil && st.Mode()&(os.ModeCharDevice|os.ModeNamedPipe) != 0 {
		return name, st, nil
	}
	path = name
	for range 40 {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return path, fi, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", nil, fmt.Errorf("%s: too many levels of symbolic links", name)
}

func (o *Output) Write(p []byte) (int, error) {
	return o.w.Write(p)
}

// Flush writes out what an output to the standard output, a device or a
// FIFO holds in memory, for a reader at the other end that waits for it
// (a live feed's games, passed on as they come). A gzip or zstd
// compressor ends its block there, so that the reader can decompress all
// that was written; bzip2 cannot end a block early, and its output holds
// up to a block (900 KB of input) until more comes or Commit. Flush does
// nothing for a file, which appears only at Commit.
func (o *Output) Flush() error {
	if o.file != nil || o.done {
		return nil
	}
	if o.zw != nil {
		f, ok := o.zw.(interface{ Flush() error })
		if !ok {
			return nil
		}
		if err := f.Flush(); err != nil {
			return fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	return o.bw.Flush()
}

// Commit flushes everything and, for a file, makes it appear under its
// name, replacing any file there. After an error the file is not there.
func (o *Output) Commit() error { return CommitAll(o) }

// CommitAll commits several outputs together: every one is flushed and
// synced first, and only when all of that succeeded are the files renamed
// into place, so that a failure (a full disk) leaves every old file as it
// was. nil outputs are skipped. Only a failing rename itself, after the
// data is safe on disk, can leave some outputs committed and not others.
func CommitAll(outs ...*Output) error {
	var err error
	for _, o := range outs {
		if o != nil && err == nil {
			err = o.prepare()
		}
	}
	for _, o := range outs {
		if o == nil {
			continue
		}
		if err != nil {
			o.Abort()
		} else {
			err = o.publish()
		}
	}
	return err
}

// prepare writes out everything but the rename.
func (o *Output) prepare() error {
	if o.done {
		return nil
	}
	fail := func(err error) error {
		o.Abort()
		return fmt.Errorf("%s: %w", o.Name, err)
	}
	if o.zw != nil {
		if err := o.zw.Close(); err != nil {
			return fail(err)
		}
	}
	if err := o.bw.Flush(); err != nil {
		return fail(err)
	}
	switch {
	case o.file != nil:
		if err := o.file.prepare(); err != nil {
			o.Abort()
			return err
		}
	case o.direct != nil:
		o.done = true
		if err := o.direct.Close(); err != nil {
			return fmt.Errorf("%s: %w", o.Name, err)
		}
	default:
		o.done = true
	}
	return nil
}

// publish renames a prepared file into place.
func (o *Output) publish() error {
	if o.done {
		return nil
	}
	o.done = true
	return o.file.publish()
}

// SetBackup makes Commit keep the file being replaced under name. It has
// no effect on stdout, devices and FIFOs.
func (o *Output) SetBackup(name string) {
	if o.file != nil {
		o.file.Backup = name
	}
}

// Abort ends an output after a failure. A file output is discarded: the
// temporary file is removed and any file already under the name is left
// untouched. The standard output, a device or a FIFO still gets what was
// written to it, so that a pipe receives every game read before the
// failure. Abort is a no-op after Commit.
func (o *Output) Abort() {
	if o.done {
		return
	}
	if o.file != nil {
		o.done = true
		o.file.Abort()
		return
	}
	o.bw.Flush()
	if o.direct != nil {
		o.done = true
		o.direct.Close()
	}
}

// AtomicFile is a file written under a temporary name in the target's
// directory and renamed over the target by Commit: readers of the target
// see either the old content or the complete new one, never a mix. The new
// file gets the old one's mode (special bits included) and, as far as the
// process may give them, its owner and group.
type AtomicFile struct {
	*os.File
	target string      // the file replaced: the name given, links followed
	perm   os.FileMode // permissions and special bits; 0: 0666 less umask
	old    os.FileInfo // the file replaced, nil for a new one
	done   bool
	// Backup, when set before Commit, keeps the file being replaced under
	// this name (a hard link when possible, so there is no moment with no
	// file under the target's name).
	Backup string
	// written counts the bytes written, of which those before flushed
	// are being written to disk already (see Write).
	written, flushed int64
}

// writebackEvery is how much of a file is written between requests to
// the system to start writing it to disk. Without them, Commit's fsync
// writes all of a large output after the work is done: 0.08 to 0.16 s
// for tree's 124 MB of CSV from the lichess-like file, on this project's
// machine. Started as the output grows, the disk writes while the work
// goes on, and the fsync finds little left.
const writebackEvery = 8 << 20

// startWriteback is writeback, or what a test puts in its place.
var startWriteback = writeback

// Write writes p to the file, and every writebackEvery bytes asks the
// system to start writing them to disk.
func (a *AtomicFile) Write(p []byte) (int, error) {
	n, err := a.File.Write(p)
	a.written += int64(n)
	if a.written-a.flushed >= writebackEvery {
		startWriteback(a.File, a.flushed, a.written-a.flushed)
		a.flushed = a.written
	}
	if err != nil {
		err = a.named(err)
	}
	return n, err
}

// named makes err, of the temporary file, an error of the file it
// replaces: "write out.pgn: no space left on device". The temporary
// file's name means nothing to the user, and is gone by the time the
// message is read.
func (a *AtomicFile) named(err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path == a.File.Name() {
		return &fs.PathError{Op: pe.Op, Path: a.target, Err: pe.Err}
	}
	return fmt.Errorf("%s: %w", a.target, err)
}

// NewAtomicFile creates the temporary file for target. A symbolic link is
// followed, and its target replaced in the target's own directory; a
// target that is not a regular file is refused. perm 0 keeps the mode of
// an existing target, or 0666 less umask for a new one.
func NewAtomicFile(target string, perm os.FileMode) (*AtomicFile, error) {
	path, fi, err := resolve(target)
	if err != nil {
		return nil, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", target)
	}
	return newAtomicFile(target, path, fi, perm)
}

// specialBits are the mode bits kept from the file replaced.
const specialBits = os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky

func newAtomicFile(name, path string, old os.FileInfo, perm os.FileMode) (*AtomicFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if perm == 0 && old != nil {
		perm = old.Mode() & specialBits
	}
	f, err := os.CreateTemp(dir, "."+tempBase(base)+".frctool-*.tmp")
	if err != nil {
		// The temporary file's name means nothing to the user: say what
		// stops the output itself ("x.csv: no such file or directory").
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: %w (no directory %s)", name, err, filepath.Clean(dir))
			}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a := &AtomicFile{File: f, target: path, perm: perm, old: old}
	temporaries.Lock()
	temporaries.files[a] = struct{}{}
	temporaries.Unlock()
	return a, nil
}

// tempBase is the part of a temporary file's name taken from the name of
// the file it replaces: all of it, or for a long name its first bytes,
// so that the temporary name stays within the 255 bytes most file systems
// allow a name when the output's own name does (the rest of it adds up
// to 24 bytes at most).
func tempBase(base string) string {
	const most = 200
	if len(base) <= most {
		return base
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut-- // a name cut inside a character would not be UTF-8
	}
	return base[:cut]
}

// temporaries are the atomic files neither committed nor aborted yet.
var temporaries = struct {
	sync.Mutex
	files map[*AtomicFile]struct{}
}{files: map[*AtomicFile]struct{}{}}

// RemoveTemporaries aborts every AtomicFile neither committed nor aborted
// yet: their temporary files are removed and their targets left as they
// were. A program calls it when it recovers from a panic, which skipped
// the Aborts its error paths would have made.
func RemoveTemporaries() {
	temporaries.Lock()
	live := make([]*AtomicFile, 0, len(temporaries.files))
	for a := range temporaries.files {
		live = append(live, a)
	}
	temporaries.Unlock()
	for _, a := range live {
		a.Abort()
	}
}

// settled takes a out of the temporaries, committed or aborted.
func (a *AtomicFile) settled() {
	a.done = true
	temporaries.Lock()
	delete(temporaries.files, a)
	temporaries.Unlock()
}

// Commit syncs the data to disk, and renames the file over the target.
func (a *AtomicFile) Commit() error {
	if err := a.prepare(); err != nil {
		return err
	}
	return a.publish()
}

// prepare gives the file its owner and mode, syncs and closes it.
func (a *AtomicFile) prepare() error {
	if a.done {
		return nil
	}
	if err := chown(a.File, a.old); err != nil {
		return a.fail(err)
	}
	// After the chown, which clears the setuid and setgid bits.
	perm := a.perm
	if perm == 0 {
		perm = os.FileMode(0o666 &^ umask())
	}
	if err := a.File.Chmod(perm); err != nil {
		return a.fail(err)
	}
	if err := a.File.Sync(); err != nil {
		return a.fail(err)
	}
	if err := a.File.Close(); err != nil {
		return a.fail(err)
	}
	return nil
}

// publish keeps the backup and renames the prepared file into place.
func (a *AtomicFile) publish() error {
	if a.done {
		return nil
	}
	if a.Backup != "" {
		os.Remove(a.Backup)
		if err := os.Link(a.target, a.Backup); err != nil {
			if err := copyFile(a.target, a.Backup); err != nil {
				return a.fail(fmt.Errorf("backup: %w", err))
			}
		}
	}
	if err := os.Rename(a.File.Name(), a.target); err != nil {
		return a.fail(err)
	}
	a.settled()
	// The rename itself is durable only once the directory is synced.
	if d, err := os.Open(filepath.Dir(a.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func (a *AtomicFile) fail(err error) error {
	a.Abort()
	return a.named(err)
}

// Abort removes the temporary file; the target is untouched.
func (a *AtomicFile) Abort() {
	if a.done {
		return
	}
	a.settled()
	a.File.Close()
	os.Remove(a.File.Name())
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
