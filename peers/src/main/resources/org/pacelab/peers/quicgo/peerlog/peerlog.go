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
	"syscall"

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

// UnwritableFile says why a file cannot be written at path (created or replaced), or returns "" when it can: the rule,
// and the sentences, of pacelab's own commands (cli's PathChecks.unwritableFile), checked before any connection so
// that a key log or client log that cannot be written is not found out after the transfer.
func UnwritableFile(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return path + " is a directory; give a file name"
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	parent := filepath.Dir(abs)
	st, err := os.Stat(parent)
	if err != nil {
		if os.IsNotExist(err) {
			return "the directory " + parent + " does not exist (create it first)"
		}
		return fmt.Sprintf("%s: %v", parent, err)
	}
	if !st.IsDir() {
		return parent + " is not a directory"
	}
	if !writable(parent) {
		return "the directory " + parent + " is not writable"
	}
	if _, err := os.Stat(path); err == nil && !writable(path) {
		return path + " is not writable"
	}
	return ""
}

// OutputDirectory says why a directory cannot be used or created at path for writing into, or returns "" when it can,
// by cli's PathChecks.unwritableDirectory's rule and sentences; then it creates the directory when it is missing.
func OutputDirectory(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	if st, err := os.Stat(abs); err == nil {
		if !st.IsDir() {
			return path + " is a file, not a directory"
		}
		if !writable(abs) {
			return "the directory " + path + " is not writable"
		}
		return ""
	}
	ancestor := filepath.Dir(abs)
	for {
		if _, err := os.Stat(ancestor); err == nil || filepath.Dir(ancestor) == ancestor {
			break
		}
		ancestor = filepath.Dir(ancestor)
	}
	if st, err := os.Stat(ancestor); err == nil && !st.IsDir() {
		return "cannot create " + path + ": " + ancestor + " is a file, not a directory"
	}
	if !writable(ancestor) {
		return "cannot create " + path + ": the directory " + ancestor + " is not writable"
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Sprintf("cannot create %s: %v", path, err)
	}
	return ""
}

// writable tells whether this process may write path (access(2) with W_OK, as Java's Files.isWritable).
func writable(path string) bool {
	return syscall.Access(path, 2) == nil
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
