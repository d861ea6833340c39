// pacelab's quic-go client: downloads the URLs concurrently over one connection with HTTP/3 (quic-go's
// http3.RoundTripper) or HTTP/0.9 (hq-interop, interop/http09), and writes pacelab's client log (request, first
// and last byte of each transfer, monotonic nanoseconds since the process started). Written on quic-go's public API
// for pacelab; command line as pacelab's own clients:
//
//	quic-go-client [--insecure] [--json FILE] [--output DIR] [--timeout DURATION] [--alpn h3|hq-interop]
//	               [--keylog FILE] [--qlog-dir DIR] [--cc cubic] [--handshake-timeout DURATION] URL...
//
// It exits 1 when a download fails. The server's certificate is not verified (the lab's is self-signed).
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/lucas-clemente/quic-go"
	"github.com/lucas-clemente/quic-go/http3"
	"github.com/lucas-clemente/quic-go/interop/http09"

	"pacelab/quicgo/peerlog"
)

var start = time.Now()

func since() int64 { return int64(time.Since(start)) }

type transfer struct {
	URL         string `json:"url"`
	Bytes       int64  `json:"bytes"`
	RequestNs   int64  `json:"request_ns"`
	FirstByteNs int64  `json:"first_byte_ns"`
	LastByteNs  int64  `json:"last_byte_ns"`
	Status      int    `json:"status"`
	err         error
}

type clientLog struct {
	WallTimeNs int64      `json:"wall_time_ns"`
	Transfers  []transfer `json:"transfers"`
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "quic-go-client: "+format+"\n", args...)
	os.Exit(2)
}

// firstByte records when the first body byte arrived.
type firstByte struct {
	r  io.Reader
	at *int64
}

func (f firstByte) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 && *f.at < 0 {
		*f.at = since()
	}
	return n, err
}

func download(ctx context.Context, rt http.RoundTripper, u string, out string) transfer {
	t := transfer{URL: u, FirstByteNs: -1}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.err = err
		return t
	}
	t.RequestNs = since()
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.err = err
		return t
	}
	defer resp.Body.Close()
	t.Status = resp.StatusCode
	if t.Status == 0 {
		t.Status = 200 // HTTP/0.9 has no status line
	}
	var sink io.Writer = io.Discard
	var tmp, final string
	if out != "" {
		final = filepath.Join(out, path.Base(req.URL.Path))
		f, err := os.CreateTemp(out, ".quic-go-client-*.part")
		if err != nil {
			t.err = err
			return t
		}
		tmp = f.Name()
		f.Chmod(0o644)
		defer f.Close()
		sink = f
	}
	t.Bytes, err = io.Copy(sink, firstByte{resp.Body, &t.FirstByteNs})
	t.LastByteNs = since()
	if t.FirstByteNs < 0 {
		t.FirstByteNs = t.LastByteNs
	}
	if err == nil && t.Status != 200 {
		err = fmt.Errorf("status %d", t.Status)
	}
	if err != nil {
		t.err = err
		if tmp != "" {
			os.Remove(tmp)
		}
		return t
	}
	if tmp != "" {
		if err := os.Rename(tmp, final); err != nil {
			t.err = err
		}
	}
	return t
}

func main() {
	flag.Bool("insecure", true, "do not verify the server's certificate (always the case)")
	jsonFile := flag.String("json", "", "write pacelab's client log here")
	output := flag.String("output", "", "save the bodies into this directory (named by the URL's last path segment)")
	timeout := flag.Duration("timeout", 10*time.Minute, "how long all downloads may take")
	alpn := flag.String("alpn", "h3", "application protocol: h3 or hq-interop")
	keyLog := flag.String("keylog", "", "NSS key log file (appended)")
	qlogDir := flag.String("qlog-dir", "", "directory for the connection's qlog")
	cc := flag.String("cc", "cubic", "congestion controller; quic-go 0.29 has cubic only")
	handshakeTimeout := flag.Duration("handshake-timeout", 0, "how long the handshake may stay idle (0: quic-go's 5 s)")
	flag.Parse()
	urls := flag.Args()
	if len(urls) == 0 {
		fail("give at least one URL")
	}
	for _, u := range urls {
		if p, err := url.Parse(u); err != nil || p.Scheme != "https" || p.Host == "" {
			fail("'%s' is not an https:// URL", u)
		}
	}
	if *cc != "cubic" {
		fail("--cc: '%s' is not a congestion controller of quic-go 0.29; valid values: cubic", *cc)
	}
	keys, err := peerlog.KeyLog(*keyLog)
	if err != nil {
		fail("--keylog: %v", err)
	}
	tlsConf := &tls.Config{InsecureSkipVerify: true, KeyLogWriter: keys}
	// Dialing an address, quic-go 0.29 uses a zero-length connection ID unless told otherwise; later quic-go (its
	// Transport, and the Interop Runner's quic-go image) uses 4 bytes, as this 0.29 does for its servers. 4 bytes here:
	// with no connection ID, a packet the server sends to a rebound client address names no connection, and neither
	// tshark nor the rebinding cases' check can tell which connection it belongs to (RFC 9000 §5.2, §9.5).
	quicConf := &quic.Config{Tracer: peerlog.Tracer(*qlogDir), HandshakeIdleTimeout: *handshakeTimeout, ConnectionIDLength: 4}
	var rt http.RoundTripper
	var closer io.Closer
	switch *alpn {
	case "h3":
		r := &http3.RoundTripper{TLSClientConfig: tlsConf, QuicConfig: quicConf}
		rt, closer = r, r
	case "hq-interop":
		r := &http09.RoundTripper{TLSClientConfig: tlsConf, QuicConfig: quicConf}
		rt, closer = r, r
	default:
		fail("--alpn: '%s' is not valid; valid values: h3, hq-interop", *alpn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	results := make([]transfer, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func(i int, u string) {
			defer wg.Done()
			results[i] = download(ctx, rt, u, *output)
		}(i, u)
	}
	wg.Wait()
	closer.Close()
	failed := 0
	for i, t := range results {
		if results[i].FirstByteNs < 0 {
			results[i].FirstByteNs = results[i].LastByteNs
		}
		if t.err != nil {
			failed++
			fmt.Fprintf(os.Stderr, "%s: %v\n", t.URL, t.err)
		} else {
			fmt.Fprintf(os.Stderr, "%s: status %d, %d bytes\n", t.URL, t.Status, t.Bytes)
		}
	}
	if *jsonFile != "" {
		data, _ := json.MarshalIndent(clientLog{WallTimeNs: since(), Transfers: results}, "", "  ")
		tmp := *jsonFile + ".part"
		if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil || os.Rename(tmp, *jsonFile) != nil {
			fmt.Fprintf(os.Stderr, "quic-go-client: cannot write %s\n", *jsonFile)
			os.Exit(1)
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}
