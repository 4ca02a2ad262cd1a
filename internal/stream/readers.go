package stream

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"sync"
	"time"
)

// ctxReader reads a source that may wait for data (a pipe, a terminal) on
// a goroutine of its own, so that Read can return when ctx is done. The
// goroutine may stay blocked in the source's Read until data comes or the
// source is closed; it holds one buffer until then.
type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	once sync.Once
	full chan chunk    // read by the goroutine, waiting for Read
	free chan []byte   // given back by Read
	stop chan struct{} // closed by close
	cur  chunk
	off  int
}

type chunk struct {
	b   []byte
	err error
}

const ctxChunk = 64 << 10

func newCtxReader(ctx context.Context, r io.Reader) *ctxReader {
	c := &ctxReader{ctx: ctx, r: r, full: make(chan chunk, 2), free: make(chan []byte, 2), stop: make(chan struct{})}
	c.free <- nil
	c.free <- nil
	return c
}

func (c *ctxReader) run() {
	for {
		var b []byte
		select {
		case b = <-c.free:
		case <-c.stop:
			return
		}
		if b == nil {
			b = make([]byte, ctxChunk)
		}
		n, err := c.r.Read(b[:cap(b)])
		select {
		case c.full <- chunk{b[:n], err}:
		case <-c.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *ctxReader) Read(p []byte) (int, error) {
	c.once.Do(func() { go c.run() })
	for c.off == len(c.cur.b) {
		if c.cur.err != nil {
			return 0, c.cur.err
		}
		if c.cur.b != nil {
			c.free <- c.cur.b
			c.cur.b = nil
		}
		// An input that has data is read to its end even once ctx is
		// done: only waiting is interrupted.
		select {
		case ch := <-c.full:
			c.cur, c.off = ch, 0
			continue
		default:
		}
		select {
		case ch := <-c.full:
			c.cur, c.off = ch, 0
		case <-c.ctx.Done():
			return 0, c.ctx.Err()
		}
	}
	n := copy(p, c.cur.b[c.off:])
	c.off += n
	return n, nil
}

// idle reports whether no byte is ready and none comes within d. A chunk
// that comes is kept for Read. Like Read, it is for one goroutine.
func (c *ctxReader) idle(d time.Duration) bool {
	if c.off < len(c.cur.b) || c.cur.err != nil {
		return false
	}
	c.once.Do(func() { go c.run() })
	if c.cur.b != nil { // read to its end: given back, as Read does
		c.free <- c.cur.b
		c.cur.b, c.off = nil, 0
	}
	select {
	case ch := <-c.full:
		c.cur, c.off = ch, 0
		return false
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case ch := <-c.full:
		c.cur, c.off = ch, 0
		return false
	case <-c.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (c *ctxReader) close() error {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	c.cur = chunk{}
	return nil
}

// A zstd skippable frame: 0x184D2A5? little-endian, then its 32-bit size.
func isSkippable(b []byte) bool {
	return len(b) >= 4 && b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18
}

// zstdFrames passes a zstd stream through without its skippable frames.
// It follows the frame structure of RFC 8878 (frame header, block headers,
// checksum) just far enough to know where each frame ends; anything it
// does not understand is passed on whole, for the decoder to report.
type zstdFrames struct {
	br    *bufio.Reader
	state int
	pass  int64 // bytes to pass on before the next header
	sum   bool  // the current frame ends with a checksum
}

const (
	atFrame = iota
	atBlock
	atChecksum
	passAll
)

func (z *zstdFrames) Read(p []byte) (int, error) {
	for z.pass == 0 {
		if err := z.next(); err != nil {
			return 0, err
		}
	}
	if z.pass < 0 {
		return z.br.Read(p)
	}
	if int64(len(p)) > z.pass {
		p = p[:z.pass]
	}
	n, err := z.br.Read(p)
	z.pass -= int64(n)
	if err == io.EOF && z.pass > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// next reads the next header and sets how much to pass on.
func (z *zstdFrames) next() error {
	switch z.state {
	case atFrame:
		head, err := z.br.Peek(8)
		if len(head) == 0 {
			return err
		}
		if isSkippable(head) && len(head) == 8 {
			_, err := z.br.Discard(8 + int(binary.LittleEndian.Uint32(head[4:])))
			return err
		}
		fh, _ := z.br.Peek(5)
		if len(fh) < 5 || fh[0] != 0x28 || fh[1] != 0xb5 || fh[2] != 0x2f || fh[3] != 0xfd {
			z.state, z.pass = passAll, -1
			return nil
		}
		fhd := fh[4]
		n := int64(5)
		if fhd&(1<<5) == 0 { // no single segment: a window descriptor
			n++
		}
		n += [...]int64{0, 1, 2, 4}[fhd&3]
		fcs := [...]int64{0, 2, 4, 8}[fhd>>6]
		if fcs == 0 && fhd&(1<<5) != 0 {
			fcs = 1
		}
		z.pass, z.sum, z.state = n+fcs, fhd&(1<<2) != 0, atBlock
	case atBlock:
		bh, _ := z.br.Peek(3)
		if len(bh) < 3 {
			z.state, z.pass = passAll, -1
			return nil
		}
		h := uint32(bh[0]) | uint32(bh[1])<<8 | uint32(bh[2])<<16
		size := int64(h >> 3)
		switch h >> 1 & 3 {
		case 1: // RLE: one byte repeated
			size = 1
		case 3:
			z.state, z.pass = passAll, -1
			return nil
		}
		z.pass = 3 + size
		if h&1 != 0 {
			z.state = atChecksum
			if !z.sum {
				z.state = atFrame
			}
		}
	case atChecksum:
		z.pass, z.state = 4, atFrame
	case passAll:
		z.pass = -1
	}
	return nil
}
