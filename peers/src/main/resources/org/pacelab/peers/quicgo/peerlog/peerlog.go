// Package peerlog opens what pacelab's quic-go peers write beside the transfer: the NSS key log and one qlog file per
// connection, named by the connection's original destination connection ID as pacelab's analyzer matches them.
package peerlog

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

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

type bufferedFile struct {
	*bufio.Writer
	f *os.File
}

func (b bufferedFile) Close() error {
	if err := b.Writer.Flush(); err != nil {
		b.f.Close()
		return err
	}
	return b.f.Close()
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
		return bufferedFile{bufio.NewWriterSize(f, 1<<16), f}
	})
}
