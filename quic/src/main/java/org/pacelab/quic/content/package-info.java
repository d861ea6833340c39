/**
 * What the HTTP/3 and hq-interop applications serve and download, independent of the protocol: the
 * server's {@link org.pacelab.quic.content.ContentSource} of {@link org.pacelab.quic.content.Body bodies}, the
 * synthetic {@code /bytes/N} content, and the client's {@link org.pacelab.quic.content.DownloadSink},
 * per-download timing and results. Sans-I/O: implementations that touch files live in {@code org.pacelab.io.app}.
 */
package org.pacelab.quic.content;
