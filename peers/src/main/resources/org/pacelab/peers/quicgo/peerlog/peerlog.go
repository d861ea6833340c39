// Package peerlog opens what pacelab's quic-go peers write beside the transfer: the NSS key log and one qlog file per
// connection, named by the connection's original destination connection ID as pacelab's analyzer matches them.
package peerlog

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/lucas-clemente/quic-go/logging"
	"github.com/lucas-clemente/quic-go/qlog"
)

// KeyLog opens the key log file for appending, or returns nil when path is empty.
func KeyLog(path string) (io.Writer, error) {
	if path == "" {
		return nil, nil
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}

// CipherSuites parses a comma-separated list of TLS 1.3 cipher suite names (Go's, e.g. TLS_CHACHA20_POLY1305_SHA256)
// for tls.Config.CipherSuites, which quic-go's qtls honours for TLS 1.3 (Go's own crypto/tls does not). Shared by the
// server and the client; an unknown name is an error naming the valid ones.
func CipherSuites(list string) ([]uint16, error) {
	known := map[string]uint16{}
	var names []string
	for _, s := range tls.CipherSuites() {
		for _, v := range s.SupportedVersions {
			if v == tls.VersionTLS13 {
				known[s.Name] = s.ID
				names = append(names, s.Name)
			}
		}
	}
	var ids []uint16
	for _, n := range strings.Split(list, ",") {
		id, ok := known[strings.TrimSpace(n)]
		if !ok {
			return nil, fmt.Errorf("'%s' is not a TLS 1.3 cipher suite; valid values (comma-separated): %s", strings.TrimSpace(n),
				strings.Join(names, ", "))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// open holds the qlog files not yet closed, for FlushAll.
var (
	openMu sync.Mutex
	open   = map[*bufferedFile]struct{}{}
)

// bufferedFile is one connection's qlog; quic-go's tracer writes it from its own goroutine, FlushAll from another.
type bufferedFile struct {
	mu sync.Mutex
	w  *bufio.Writer
	f  *os.File
}

func (b *bufferedFile) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *bufferedFile) Close() error {
	openMu.Lock()
	delete(open, b)
	openMu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.w.Flush(); err != nil {
		b.f.Close()
		return err
	}
	return b.f.Close()
}

// FlushAll writes out what the qlogs of the connections still open hold (a qlog is otherwise written out when its
// connection has ended): for a program that stops without closing its connections.
func FlushAll() {
	openMu.Lock()
	files := make([]*bufferedFile, 0, len(open))
	for b := range open {
		files = append(files, b)
	}
	openMu.Unlock()
	for _, b := range files {
		b.mu.Lock()
		b.w.Flush()
		b.mu.Unlock()
	}
}

// Tracer writes one qlog per connection into dir (ODCID_role.qlog), or returns nil when dir is empty.
func Tracer(dir string) logging.Tracer {
	if dir == "" {
		return nil
	}
	return qlog.NewTracer(func(p logging.Perspective, odcid []byte) io.WriteCloser {
		role := "server"
		if p == logging.PerspectiveClient {
			role = "client"
		}
		name := filepath.Join(dir, fmt.Sprintf("%x_%s.qlog", odcid, role))
		f, err := os.Create(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "cannot create the qlog %s: %v\n", name, err)
			return nil
		}
		b := &bufferedFile{w: bufio.NewWriterSize(f, 1<<16), f: f}
		openMu.Lock()
		open[b] = struct{}{}
		openMu.Unlock()
		return b
	})
}
