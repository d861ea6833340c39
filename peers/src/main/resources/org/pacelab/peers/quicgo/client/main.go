// pacelab's quic-go client: downloads the URLs concurrently over one connection with HTTP/3 (quic-go's
// http3.RoundTripper) or HTTP/0.9 (hq-interop, interop/http09), and writes pacelab's client log (request, first
// and last byte of each transfer, monotonic nanoseconds since the process started). Written on quic-go's public API
// for pacelab; command line as pacelab's own clients:
//
//	quic-go-client [--insecure] [--json FILE] [--output DIR] [--timeout DURATION] [--alpn h3|hq-interop]
//	               [--keylog FILE] [--qlog-dir DIR] [--cc cubic] [--handshake-timeout DURATION]
//	               [--cipher-suites LIST] [--resume | --zero-rtt] URL...
//
// The interop options are those quic-go's own interop client (interop/client) uses for the runner's test cases, on the
// same public API: --cipher-suites offers only the listed TLS 1.3 cipher suites (tls.Config.CipherSuites, which
// quic-go's qtls honours for TLS 1.3); --resume downloads the first URL over one connection, waits up to 10 s for its
// session ticket (tls.ClientSessionCache), closes it and downloads the rest over a second connection that resumes the
// session; --zero-rtt does the same with the second connection's requests sent in 0-RTT (quic.DialAddrEarly through
// the GET_0RTT request method of interop/http09 and http3). Both connections are made by one process: Go's tls.ClientSessionState cannot be written
// to a file (crypto/tls before Go 1.21 has no API for it).
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

func download(ctx context.Context, rt http.RoundTripper, method string, u string, out string) transfer {
	t := transfer{URL: u, FirstByteNs: -1}
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
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

// downloadAll downloads the URLs concurrently (over the round tripper's one connection to their server).
func downloadAll(ctx context.Context, rt http.RoundTripper, method string, urls []string, out string, results []transfer) {
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func(i int, u string) {
			defer wg.Done()
			results[i] = download(ctx, rt, method, u, out)
		}(i, u)
	}
	wg.Wait()
}

// sessionCache tells when a session ticket has arrived (as quic-go's interop client's).
type sessionCache struct {
	tls.ClientSessionCache
	put chan<- struct{}
}

func newSessionCache(c tls.ClientSessionCache) (tls.ClientSessionCache, <-chan struct{}) {
	put := make(chan struct{}, 100)
	return &sessionCache{ClientSessionCache: c, put: put}, put
}

func (c *sessionCache) Put(key string, cs *tls.ClientSessionState) {
	c.ClientSessionCache.Put(key, cs)
	select {
	case c.put <- struct{}{}:
	default:
	}
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
	suites := flag.String("cipher-suites", "", "comma-separated TLS 1.3 cipher suites to offer, e.g. TLS_CHACHA20_POLY1305_SHA256")
	resume := flag.Bool("resume", false, "first URL over one connection, the rest over a second one resuming its session")
	zeroRtt := flag.Bool("zero-rtt", false, "as --resume, with the second connection's requests in 0-RTT")
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
	for _, f := range []struct{ option, path string }{{"--keylog", *keyLog}, {"--json", *jsonFile}} {
		if f.path != "" {
			if problem := peerlog.UnwritableFile(f.path); problem != "" {
				fail("%s: %s", f.option, problem)
			}
		}
	}
	for _, d := range []struct{ option, path string }{{"--qlog-dir", *qlogDir}, {"--output", *output}} {
		if d.path != "" {
			if problem := peerlog.OutputDirectory(d.path); problem != "" {
				fail("%s: %s", d.option, problem)
			}
		}
	}
	keys, err := peerlog.KeyLog(*keyLog)
	if err != nil {
		fail("--keylog: %v", err)
	}
	tlsConf := &tls.Config{InsecureSkipVerify: true, KeyLogWriter: keys}
	if *suites != "" {
		ids, err := peerlog.CipherSuites(*suites)
		if err != nil {
			fail("--cipher-suites: %v", err)
		}
		tlsConf.CipherSuites = ids
	}
	twoConnections := *resume || *zeroRtt
	if twoConnections && len(urls) < 2 {
		fail("--resume and --zero-rtt need at least 2 URLs (the first for the first connection, the rest for the second)")
	}
	var tickets <-chan struct{}
	if twoConnections {
		tlsConf.ClientSessionCache, tickets = newSessionCache(tls.NewLRUClientSessionCache(1))
	}
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
	if twoConnections {
		results[0] = download(ctx, rt, http.MethodGet, urls[0], *output)
		if results[0].err == nil {
			select {
			case <-tickets:
			case <-time.After(10 * time.Second):
				fmt.Fprintln(os.Stderr, "quic-go-client: no session ticket within 10 s; the second connection cannot resume")
			}
		}
		closer.Close() // the next request dials a new connection, which resumes the cached session
		method := http.MethodGet
		if *zeroRtt && *alpn == "h3" {
			method = http3.MethodGet0RTT
		} else if *zeroRtt {
			method = http09.MethodGet0RTT
		}
		downloadAll(ctx, rt, method, urls[1:], *output, results[1:])
	} else {
		downloadAll(ctx, rt, http.MethodGet, urls, *output, results)
	}
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
