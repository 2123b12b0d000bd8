package payments

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

func TestSniffReceipt(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		head string
		want string
	}{
		"jpeg":              {"\xff\xd8\xff\xe0\x00\x10JFIF", TypeJPEG},
		"jpeg, 3 bytes":     {"\xff\xd8\xff", TypeJPEG},
		"png":               {"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", TypePNG},
		"webp":              {"RIFF\x16\x00\x00\x00WEBPVP8L", TypeWebP},
		"pdf":               {"%PDF-1.7\n", ""},
		"gif":               {"GIF89a\x01\x00", ""},
		"riff wave":         {"RIFF\x16\x00\x00\x00WAVEfmt ", ""},
		"webp too short":    {"RIFF\x16\x00\x00\x00WEB", ""},
		"png, one byte off": {"\x89PNG\r\n\x1a\x0b", ""},
		"jpeg prefix only":  {"\xff\xd8", ""},
		"text":              {"hello", ""},
		"empty":             {"", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := SniffReceipt([]byte(tc.head))
			if tc.want == "" {
				require.ErrorIs(t, err, ErrReceiptType)
				assert.Equal(t, clubhouse.UnsupportedMedia, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLimitReceipt(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, 99, 100} {
		got, err := io.ReadAll(LimitReceipt(bytes.NewReader(make([]byte, size)), 100))
		require.NoError(t, err, "size %d", size)
		assert.Len(t, got, size)
	}
	for _, size := range []int{101, 102, 10_000} {
		r := &countingReader{r: bytes.NewReader(make([]byte, size))}
		got, err := io.ReadAll(LimitReceipt(r, 100))
		require.ErrorIs(t, err, ErrReceiptTooLarge, "size %d", size)
		assert.Equal(t, clubhouse.TooLarge, clubhouse.KindOf(err))
		assert.Len(t, got, 100, "at most the limit is yielded")
		assert.LessOrEqual(t, r.n, 101, "at most one byte past the limit is read")
	}
	// One byte at a time, as a slow client sends it.
	_, err := io.ReadAll(LimitReceipt(iotest.OneByteReader(bytes.NewReader(make([]byte, 101))), 100))
	require.ErrorIs(t, err, ErrReceiptTooLarge)
	assert.Equal(t, 5*1024*1024, MaxReceiptSize, "5 MB is read as 5 MiB")
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestReadReceipt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte("x"), 5000)...)
	rc, err := ReadReceipt(iotest.HalfReader(bytes.NewReader(png)), dir)
	require.NoError(t, err)
	assert.Equal(t, TypePNG, rc.ContentType)
	assert.EqualValues(t, len(png), rc.Size)
	for range 2 { // the body can be read again, as a signing client does
		got, err := io.ReadAll(rc.body())
		require.NoError(t, err)
		assert.Equal(t, png, got)
	}
	_, isCloser := rc.body().(io.Closer)
	assert.False(t, isCloser, "no HTTP client may close the spooled file")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)
	require.NoError(t, rc.Close())
	require.NoError(t, rc.Close(), "Close twice is safe")
	require.NoError(t, (*Receipt)(nil).Close())
	entries, _ = os.ReadDir(dir)
	assert.Empty(t, entries, "Close removes the file")

	for name, tc := range map[string]struct {
		body string
		err  error
	}{
		"empty":     {"", ErrReceiptMissing},
		"pdf":       {"%PDF-1.7 and then some", ErrReceiptType},
		"too large": {"\xff\xd8\xff" + strings.Repeat("z", MaxReceiptSize-2), ErrReceiptTooLarge},
	} {
		_, err := ReadReceipt(strings.NewReader(tc.body), dir)
		require.ErrorIs(t, err, tc.err, name)
		entries, _ := os.ReadDir(dir)
		assert.Empty(t, entries, "%s: nothing left behind", name)
	}
	rc, err = ReadReceipt(strings.NewReader("\xff\xd8\xff"+strings.Repeat("z", MaxReceiptSize-3)), dir)
	require.NoError(t, err, "exactly MaxReceiptSize is accepted")
	assert.EqualValues(t, MaxReceiptSize, rc.Size)
	require.NoError(t, rc.Close())

	broken := errors.New("connection reset")
	_, err = ReadReceipt(io.MultiReader(strings.NewReader("\xff\xd8\xff\xe0"), iotest.ErrReader(broken)), dir)
	require.ErrorIs(t, err, broken)
	_, err = ReadReceipt(iotest.ErrReader(broken), dir)
	require.ErrorIs(t, err, broken)
}

func TestReceiptKey(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "receipts/41/17-abc.jpg", receiptKey(41, "17", "abc", TypeJPEG))
	assert.Equal(t, "receipts/41/17-abc.png", receiptKey(41, "17", "abc", TypePNG))
	assert.Equal(t, "receipts/41/17-abc.webp", receiptKey(41, "17", "abc", TypeWebP))
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 100 {
		u, tok := newUUID(), token()
		assert.Regexp(t, uuid, u)
		assert.Regexp(t, `^[a-z2-7]{16}$`, tok)
		assert.False(t, seen[u] || seen[tok], "random parts repeat")
		seen[u], seen[tok] = true, true
	}
}

// FuzzSniffReceipt checks that a sniffed type always matches its signature,
// and that the verdict depends on the first SniffLen bytes only.
func FuzzSniffReceipt(f *testing.F) {
	for _, seed := range []string{"\xff\xd8\xff\xe0", "\x89PNG\r\n\x1a\n", "RIFF\x00\x00\x00\x00WEBPVP8 ", "%PDF", "", "RIFF"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ct, err := SniffReceipt(b)
		if err != nil {
			require.ErrorIs(t, err, ErrReceiptType)
			require.Empty(t, ct)
		} else {
			switch ct {
			case TypeJPEG:
				require.True(t, bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}))
			case TypePNG:
				require.True(t, bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")))
			case TypeWebP:
				require.True(t, len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP")
			default:
				t.Fatalf("unknown type %q", ct)
			}
		}
		if len(b) > SniffLen {
			ct2, err2 := SniffReceipt(b[:SniffLen])
			require.Equal(t, ct, ct2)
			require.Equal(t, err == nil, err2 == nil)
		}
	})
}

// FuzzLimitReceipt checks the limit over any content, limit and read size:
// up to the limit every byte comes through unchanged; past it the reader
// fails with ErrReceiptTooLarge having yielded exactly the limit.
func FuzzLimitReceipt(f *testing.F) {
	f.Add([]byte("hello world"), uint8(5), uint8(3))
	f.Add([]byte("hello"), uint8(5), uint8(1))
	f.Add([]byte{}, uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, limit, chunk uint8) {
		r := LimitReceipt(bytes.NewReader(b), int64(limit))
		var got []byte
		buf := make([]byte, int(chunk)+1)
		var err error
		for {
			var n int
			n, err = r.Read(buf)
			require.GreaterOrEqual(t, n, 0)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if len(b) <= int(limit) {
			require.ErrorIs(t, err, io.EOF)
			require.True(t, bytes.Equal(b, got), "every byte comes through")
		} else {
			require.ErrorIs(t, err, ErrReceiptTooLarge)
			require.True(t, bytes.Equal(b[:limit], got), "exactly the limit comes through")
		}
	})
}
