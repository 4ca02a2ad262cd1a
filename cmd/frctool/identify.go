package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

func identifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "identify",
		Usage:     "tell which Chess960 start position a FEN, EPD line or back rank shows",
		ArgsUsage: "[INPUT...]",
		Description: `Reads each INPUT, or each line of standard input when there are none or
for an INPUT of - (plain, gzip, bzip2 or zstd; blank lines and lines starting
with # are skipped; a row is written as soon as its line is read): a FEN
or EPD record in any castling style, or a back rank such as RNBQKBNR (German
TSLDKLST too). Prints one row per input with its Scharnagl number (SP) and
Fritz9 number.

sp and fritz9 are given for a symmetric start array only; white_sp and
black_sp for each side whose back rank is a legal Chess960 arrangement, so a
DFRC start array has both and no sp. A readable position that is no start
array gets the reason in the error column. An input that cannot be read is
named on stderr and gets an empty row; the exit status is then 1.

CSV columns: input,sp,fritz9,white_sp,black_sp,rank,error. JSON: one object
per line with the same fields, numbers as numbers and absent values as null.` +
			examplesHead +
			"frctool identify 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1'" + nextExample +
			"frctool identify --format csv < testdata/positions.txt",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv or json"},
			outputFlag(),
		},
		Action: runIdentify,
	}
}

// identifyRecord is one output row; nil fields are absent: empty in CSV,
// null in JSON.
type identifyRecord struct {
	Input   string  `json:"input"`
	SP      *int    `json:"sp"`
	Fritz9  *int    `json:"fritz9"`
	WhiteSP *int    `json:"white_sp"`
	BlackSP *int    `json:"black_sp"`
	Rank    *string `json:"rank"`
	Error   *string `json:"error"`

	unreadable bool // the input could not be read: Error says why, all else is absent
}

// newIdentifyRecord fills a row from what startpos.Identify returned.
func newIdentifyRecord(input string, id startpos.Identity, err error) identifyRecord {
	rec := identifyRecord{Input: input}
	if err != nil {
		rec.Error, rec.unreadable = ptr(err.Error()), true
		return rec
	}
	if sp, ok := id.SP(); ok {
		f, _ := id.Fritz9()
		rec.SP, rec.Fritz9 = ptr(sp), ptr(f)
	}
	if r, ok := id.WhiteRank(); ok {
		rec.WhiteSP, rec.Rank = ptr(id.White), ptr(r.String())
	}
	if id.Black >= 0 {
		rec.BlackSP = ptr(id.Black)
	}
	if id.NotStart != nil {
		rec.Error = ptr(id.NotStart.Error())
	}
	return rec
}

func ptr[T any](v T) *T { return &v }

func runIdentify(ctx context.Context, cmd *cli.Command) error {
	format, err := choice(cmd, "format", "text", "csv", "json")
	if err != nil {
		return err
	}
	header, appendRecord := "", appendIdentifyText
	switch format {
	case "csv":
		header, appendRecord = "input,sp,fritz9,white_sp,black_sp,rank,error", appendIdentifyCSV
	case "json":
		appendRecord = appendIdentifyJSON
	}
	return eachInput(ctx, cmd, header, func(dst, item []byte, readErr error) ([]byte, error) {
		if readErr != nil {
			return appendRecord(dst, newIdentifyRecord("", startpos.Identity{}, readErr)), readErr
		}
		id, err := startpos.Identify(string(item))
		return appendRecord(dst, newIdentifyRecord(string(item), id, err)), err
	})
}

// appendIdentifyText writes a row for people:
//
//	SP 518  Fritz9 359  RNBQKBNR
//	DFRC  White SP 518 RNBQKBNR  Black SP 0 BBQNNRKR
//	not a Chess960 start position: rank 4 is not empty  White SP 518  Black SP 518
//
// and an empty line for an input that cannot be read (its error is on stderr).
func appendIdentifyText(dst []byte, rec identifyRecord) []byte {
	switch {
	case rec.unreadable:
		return dst
	case rec.SP != nil:
		return appendNumbers(dst, *rec.SP)
	case rec.Error != nil:
		dst = append(dst, *rec.Error...)
	default:
		dst = append(dst, "DFRC"...)
	}
	for _, side := range []struct {
		name string
		sp   *int
	}{{"White", rec.WhiteSP}, {"Black", rec.BlackSP}} {
		if side.sp == nil {
			continue
		}
		r, _ := numbering.FromSP(*side.sp)
		dst = append(dst, "  "+side.name+" SP "...)
		dst = strconv.AppendInt(dst, int64(*side.sp), 10)
		dst = append(dst, ' ')
		dst = append(dst, r[:]...)
	}
	return dst
}

// appendNumbers writes a start position's numbers and rank for people:
// "SP 518  Fritz9 359  RNBQKBNR".
func appendNumbers(dst []byte, sp int) []byte {
	r, _ := numbering.FromSP(sp)
	dst = append(dst, "SP "...)
	dst = strconv.AppendInt(dst, int64(sp), 10)
	dst = append(dst, "  Fritz9 "...)
	dst = strconv.AppendInt(dst, int64(r.Fritz9()), 10)
	dst = append(dst, "  "...)
	return append(dst, r[:]...)
}

func appendIdentifyCSV(dst []byte, rec identifyRecord) []byte {
	dst = csvfield.Append(dst, []byte(rec.Input))
	for _, n := range []*int{rec.SP, rec.Fritz9, rec.WhiteSP, rec.BlackSP} {
		dst = append(dst, ',')
		if n != nil {
			dst = strconv.AppendInt(dst, int64(*n), 10)
		}
	}
	for _, s := range []*string{rec.Rank, rec.Error} {
		dst = append(dst, ',')
		if s != nil {
			dst = csvfield.Append(dst, []byte(*s))
		}
	}
	return dst
}

func appendIdentifyJSON(dst []byte, rec identifyRecord) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // FEN and error text are not HTML
	if err := enc.Encode(rec); err != nil {
		panic(err) // strings, ints and nils always encode
	}
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
