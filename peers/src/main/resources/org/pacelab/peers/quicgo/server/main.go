// pacelab's quic-go server: serves the files of a directory over HTTP/3 (quic-go's http3.Server) or HTTP/0.9
// (hq-interop, quic-go's interop/http09), with quic-go's own congestion control (CUBIC) and pacer, a key log and a
// qlog per connection. Written on quic-go's public API for pacelab; command line as pacelab's own peers:
//
//	quic-go-server --listen ADDR:PORT --root DIR --cert FILE --key FILE [--alpn h3|hq-interop] [--qlog-dir DIR]
//	               [--keylog FILE] [--cc cubic] [--retry] [--cipher-suites LIST]
//
// The interop options are those quic-go's own interop server (interop/server) sets for the runner's test cases, on the
// same public API: --retry sends a Retry to every new connection (quic.Config.RequireAddressValidation);
// --cipher-suites restricts the TLS 1.3 cipher suites (tls.Config.CipherSuites, which quic-go's qtls honours for TLS
// 1.3), e.g. TLS_CHACHA20_POLY1305_SHA256. The server always issues session tickets and accepts 0-RTT (quic-go's
// interop/http09 and http3 servers listen with quic.ListenEarly).
//
// It prints "listening on ADDR:PORT" on stderr when ready and stops on SIGTERM, writing the qlogs of the connections
// still open and sending nothing more.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/lucas-clemente/quic-go"
	"github.com/lucas-clemente/quic-go/http3"
	"github.com/lucas-clemente/quic-go/interop/http09"

	"pacelab/quicgo/peerlog"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "quic-go-server: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	listen := flag.String("listen", "", "address and port to listen on, e.g. 127.0.0.1:4433")
	root := flag.String("root", "", "directory whose files are served")
	certFile := flag.String("cert", "", "certificate chain (PEM)")
	keyFile := flag.String("key", "", "private key (PEM)")
	alpn := flag.String("alpn", "h3", "application protocol: h3 or hq-interop")
	qlogDir := flag.String("qlog-dir", "", "directory for one qlog per connection")
	keyLog := flag.String("keylog", "", "NSS key log file (appended)")
	cc := flag.String("cc", "cubic", "congestion controller; quic-go 0.29 has cubic only")
	retry := flag.Bool("retry", false, "send a Retry to every new connection (address validation)")
	suites := flag.String("cipher-suites", "", "comma-separated TLS 1.3 cipher suites, e.g. TLS_CHACHA20_POLY1305_SHA256")
	flag.Parse()
	if *listen == "" || *root == "" || *certFile == "" || *keyFile == "" {
		fail("--listen, --root, --cert and --key are required")
	}
	if *cc != "cubic" {
		fail("--cc: '%s' is not a congestion controller of quic-go 0.29; valid values: cubic", *cc)
	}
	if st, err := os.Stat(*root); err != nil || !st.IsDir() {
		fail("--root %s: not a directory", *root)
	}
	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		fail("--cert/--key: %v", err)
	}
	if *keyLog != "" {
		if problem := peerlog.UnwritableFile(*keyLog); problem != "" {
			fail("--keylog: %s", problem)
		}
	}
	if *qlogDir != "" {
		if problem := peerlog.OutputDirectory(*qlogDir); problem != "" {
			fail("--qlog-dir: %s", problem)
		}
	}
	keys, err := peerlog.KeyLog(*keyLog)
	if err != nil {
		fail("--keylog: %v", err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, KeyLogWriter: keys, MinVersion: tls.VersionTLS13}
	if *suites != "" {
		ids, err := peerlog.CipherSuites(*suites)
		if err != nil {
			fail("--cipher-suites: %v", err)
		}
		tlsConf.CipherSuites = ids
	}
	validate := *retry
	quicConf := &quic.Config{Tracer: peerlog.Tracer(*qlogDir), RequireAddressValidation: func(net.Addr) bool { return validate }}
	handler := http.FileServer(http.Dir(*root))

	var serve func() error
	switch *alpn {
	case "h3":
		s := &http3.Server{Addr: *listen, TLSConfig: tlsConf, QuicConfig: quicConf, Handler: handler}
		serve = s.ListenAndServe
	case "hq-interop":
		s := &http09.Server{Server: &http.Server{Addr: *listen, TLSConfig: tlsConf, Handler: handler}, QuicConfig: quicConf}
		serve = s.ListenAndServe
	default:
		fail("--alpn: '%s' is not valid; valid values: h3, hq-interop", *alpn)
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- serve() }()
	fmt.Fprintf(os.Stderr, "listening on %s (%s)\n", *listen, *alpn)
	select {
	case <-signals:
		// Stopped: write the qlogs of the connections still open and end without closing them. Closing them (the
		// server's Close) sent each a CONNECTION_CLOSE, also the connections quic-go opens for an Initial it cannot
		// decrypt (a corrupted destination connection ID), which had sent nothing: their Initials, each with a source
		// connection ID of its own, counted as handshakes in the interop check (handshakecorruption with this server).
		// quic-go's own interop server sends nothing when stopped either (it has no signal handler).
		peerlog.FlushAll()
		os.Exit(0)
	case err := <-done:
		if err != nil {
			fmt.Fprintf(os.Stderr, "quic-go-server: %v\n", err)
			os.Exit(1)
		}
	}
}
