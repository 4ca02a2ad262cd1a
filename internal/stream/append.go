package stream

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// ErrAppend is returned by NewAppender for a compression whose files
// cannot be appended to.
var ErrAppend = errors.New("cannot append to files of this compression")

// Appender opens files for appending, all compressed alike. Each opening
// adds a gzip member or a zstd frame of its own, which readers (Open
// among them) join into one stream, so a file may be closed and reopened
// any number of times. The compressors are kept from one file to the
// next: making a zstd encoder costs megabytes, and a program writing many
// files in turn would otherwise make one per opening.
//
// An Appender and its files are for one goroutine at a time.
type Appender struct {
	c    Compression
	gz   []*gzip.Writer
	zstd []*zstd.Encoder
}

// NewAppender returns an Appender for files compressed with c: None, Gzip
// or Zstd. A bzip2 file would need its whole stream at once, so Bzip2
// gives ErrAppend.
func NewAppender(c Compression) (*Appender, error) {
	switch c {
	case None, Gzip, Zstd:
		return &Appender{c: c}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrAppend, c)
}

// AppendFile is a file opened by an Appender.
type AppendFile struct {
	f  *os.File
	w  io.Writer // f, or the compressor writing to it
	gz *gzip.Writer
	zs *zstd.Encoder
	a  *Appender
}

// Open opens the named file for appending, creating it when missing.
func (a *Appender) Open(name string) (*AppendFile, error) {
	fh, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, err // *PathError names the file
	}
	f := &AppendFile{f: fh, w: fh, a: a}
	switch a.c {
	case Gzip:
		if n := len(a.gz); n > 0 {
			f.gz, a.gz = a.gz[n-1], a.gz[:n-1]
			f.gz.Reset(fh)
		} else {
			f.gz = gzip.NewWriter(fh)
		}
		f.w = f.gz
	case Zstd:
		if n := len(a.zstd); n > 0 {
			f.zs, a.zstd = a.zstd[n-1], a.zstd[:n-1]
			f.zs.Reset(fh)
		} else {
			// One goroutine per encoder: many encoders may be alive at
			// once, and their files are written one at a time.
			if f.zs, err = zstd.NewWriter(fh, zstd.WithEncoderConcurrency(1)); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		f.w = f.zs
	}
	return f, nil
}

// Name returns the file's name as given to Open.
func (f *AppendFile) Name() string { return f.f.Name() }

func (f *AppendFile) Write(p []byte) (int, error) { return f.w.Write(p) }

// Close ends the compressed member or frame, hands the compressor back to
// the Appender and closes the file.
func (f *AppendFile) Close() error {
	var err error
	switch {
	case f.gz != nil:
		err = f.gz.Close()
		f.a.gz = append(f.a.gz, f.gz)
		f.gz = nil
	case f.zs != nil:
		err = f.zs.Close()
		f.a.zstd = append(f.a.zstd, f.zs)
		f.zs = nil
	}
	if e := f.f.Close(); err == nil {
		err = e
	}
	return err
}
