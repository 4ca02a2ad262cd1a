// Package stream opens frctool's inputs and outputs: "-" for the standard
// streams, compression detected from the magic bytes on input and chosen
// by the file name's extension on output, and files replaced atomically
// (temporary file, fsync, rename), so that a failed or interrupted run
// never leaves a half-written file behind.
package stream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

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

// Detect returns the compression whose magic number begins head.
func Detect(head []byte) Compression {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			return m.c
		}
	}
	return None
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

	counter *countingReader
	closers []func() error
}

// Consumed returns how many bytes of the file itself (before
// decompression) have been read: the progress against Size.
func (in *Input) Consumed() int64 { return in.counter.n.Load() }

// Close closes the decompressor and the file.
func (in *Input) Close() error {
	var errs []error
	for i := len(in.closers) - 1; i >= 0; i-- {
		errs = append(errs, in.closers[i]())
	}
	return errors.Join(errs...)
}

// Open opens the named input, "-" meaning stdin, and decompresses it when
// its first bytes are a gzip, bzip2 or zstd magic number.
func Open(name string, stdin io.Reader) (*Input, error) {
	in := &Input{Name: name, Size: -1}
	var src io.Reader
	if name == "-" || name == "" {
		in.Name = "stdin"
		src = stdin
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				in.Size = fi.Size()
			}
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				f.Close()
				return nil, fmt.Errorf("%s: is a directory", name)
			}
			in.Size = fi.Size()
		}
		src = f
		in.closers = append(in.closers, f.Close)
	}
	in.counter = &countingReader{r: src}
	br := bufio.NewReaderSize(in.counter, 256<<10)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF && len(head) == 0 {
		in.Close()
		return nil, err
	}
	in.Compression = Detect(head)
	defer func() {
		if in.Reader != nil && in.Compression != None {
			in.Reader = namedErrors{in.Reader, in.Name + ": " + in.Compression.String()}
		}
	}()
	switch in.Compression {
	case None:
		in.Reader = br
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
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(2), zstd.WithDecoderLowmem(true))
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("%s: zstd: %w", in.Name, err)
		}
		in.Reader = zr
		in.closers = append(in.closers, func() error { zr.Close(); return nil })
	}
	return in, nil
}

// namedErrors prefixes read errors with the file and format, since a
// decompressor's own ("unexpected EOF") names neither.
type namedErrors struct {
	r      io.Reader
	prefix string
}

func (n namedErrors) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", n.prefix, err)
	}
	return k, err
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

// Output is a destination being written: the standard output, or a file
// that appears under its name only when Commit succeeds.
type Output struct {
	// Name is the file name, or "stdout".
	Name string

	w       io.Writer // what Write writes to: the compressor or the file
	bw      *bufio.Writer
	zw      io.WriteCloser // the compressor, if any
	file    *AtomicFile    // nil for stdout
	stdout  io.Writer
	written bool
}

// Create opens an output. "-" or "" is stdout, written as is; any other
// name is a file, compressed as its extension says, written to a temporary
// file beside it and renamed into place by Commit.
func Create(name string, stdout io.Writer) (*Output, error) {
	if name == "-" || name == "" {
		o := &Output{Name: "stdout", stdout: stdout}
		o.bw = bufio.NewWriterSize(stdout, 256<<10)
		o.w = o.bw
		return o, nil
	}
	return CreateCompressed(name, ByExtension(name), 0)
}

// CreateCompressed opens the file name for writing with compression c,
// atomically as Create does. A non-zero perm sets the file's mode.
func CreateCompressed(name string, c Compression, perm os.FileMode) (*Output, error) {
	f, err := NewAtomicFile(name, perm)
	if err != nil {
		return nil, err
	}
	o := &Output{Name: name, file: f}
	o.bw = bufio.NewWriterSize(f, 256<<10)
	o.w = o.bw
	switch c {
	case Gzip:
		o.zw = gzip.NewWriter(o.bw)
	case Bzip2:
		zw, err := bzip2.NewWriter(o.bw, nil)
		if err != nil {
			f.Abort()
			return nil, err
		}
		o.zw = zw
	case Zstd:
		zw, err := zstd.NewWriter(o.bw)
		if err != nil {
			f.Abort()
			return nil, err
		}
		o.zw = zw
	}
	if o.zw != nil {
		o.w = o.zw
	}
	return o, nil
}

func (o *Output) Write(p []byte) (int, error) {
	o.written = true
	return o.w.Write(p)
}

// Commit flushes everything and, for a file, makes it appear under its
// name, replacing any file there. After an error the file is not there.
func (o *Output) Commit() error {
	if o.zw != nil {
		if err := o.zw.Close(); err != nil {
			o.Abort()
			return fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	if err := o.bw.Flush(); err != nil {
		o.Abort()
		return fmt.Errorf("%s: %w", o.Name, err)
	}
	if o.file != nil {
		return o.file.Commit()
	}
	return nil
}

// SetBackup makes Commit keep the file being replaced under name. It has
// no effect on stdout.
func (o *Output) SetBackup(name string) {
	if o.file != nil {
		o.file.Backup = name
	}
}

// Abort ends an output after a failure. A file output is discarded: the
// temporary file is removed and any file already under the name is left
// untouched. The standard output still gets what was written to it, so
// that a pipe receives every game read before the failure. Abort is a
// no-op after Commit.
func (o *Output) Abort() {
	if o.file != nil {
		o.file.Abort()
		return
	}
	o.bw.Flush()
}

// AtomicFile is a file written under a temporary name in the target's
// directory and renamed over the target by Commit: readers of the target
// see either the old content or the complete new one, never a mix.
type AtomicFile struct {
	*os.File
	target string
	perm   os.FileMode
	done   bool
	// Backup, when set before Commit, keeps the file being replaced under
	// this name (a hard link when possible, so there is no moment with no
	// file under the target's name).
	Backup string
}

// NewAtomicFile creates the temporary file for target. perm 0 keeps the
// mode of an existing target, or 0666 less umask for a new one.
func NewAtomicFile(target string, perm os.FileMode) (*AtomicFile, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if perm == 0 {
		if fi, err := os.Stat(target); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	f, err := os.CreateTemp(dir, "."+base+".frctool-*.tmp")
	if err != nil {
		return nil, err
	}
	return &AtomicFile{File: f, target: target, perm: perm}, nil
}

// Commit syncs the data to disk, and renames the file over the target.
func (a *AtomicFile) Commit() error {
	if a.done {
		return nil
	}
	a.done = true
	fail := func(err error) error {
		a.File.Close()
		os.Remove(a.File.Name())
		return fmt.Errorf("%s: %w", a.target, err)
	}
	if a.perm != 0 {
		if err := a.File.Chmod(a.perm); err != nil {
			return fail(err)
		}
	} else if err := a.File.Chmod(os.FileMode(0o666 &^ umask())); err != nil {
		return fail(err)
	}
	if err := a.File.Sync(); err != nil {
		return fail(err)
	}
	if err := a.File.Close(); err != nil {
		return fail(err)
	}
	if a.Backup != "" {
		os.Remove(a.Backup)
		if err := os.Link(a.target, a.Backup); err != nil {
			if err := copyFile(a.target, a.Backup); err != nil {
				return fail(fmt.Errorf("backup: %w", err))
			}
		}
	}
	if err := os.Rename(a.File.Name(), a.target); err != nil {
		return fail(err)
	}
	// The rename itself is durable only once the directory is synced.
	if d, err := os.Open(filepath.Dir(a.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file; the target is untouched.
func (a *AtomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
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
