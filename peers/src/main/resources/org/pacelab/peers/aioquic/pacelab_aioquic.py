"""pacelab's aioquic peer: a file server and a download client written for pacelab on aioquic's public API.

HTTP/0.9 (ALPN hq-interop, aioquic.h0) always; HTTP/3 (aioquic.h3) where pylsqpack is importable. aioquic's own
congestion control (reno or cubic) and pacer, its qlog (one file per connection) and an NSS key log. The command lines
follow pacelab's own peers:

  pacelab_aioquic.py server --listen ADDR:PORT --root DIR --cert FILE --key FILE [--alpn hq-interop|h3]
                            [--qlog-dir DIR] [--keylog FILE] [--cc reno|cubic] [--retry] [--session-tickets]
  pacelab_aioquic.py client [--insecure] [--json FILE] [--output DIR] [--timeout DURATION] [--alpn hq-interop|h3]
                            [--keylog FILE] [--qlog-dir DIR] [--cc reno|cubic] [--cipher-suites LIST] [--key-update]
                            [--negotiate-v2] [--session-ticket FILE [--zero-rtt]] URL...

The interop options are those of aioquic's own examples (examples/http3_server.py, http3_client.py), on the same
public API: the server's --retry sends a Retry to every new connection (serve(retry=True)); --session-tickets keeps
the tickets it issues in memory and accepts them, with 0-RTT (the examples' SessionTicketStore). The client's
--cipher-suites offers only the listed TLS 1.3 suites (aioquic's CipherSuite names); --key-update requests a key
update when the first response data arrives; --negotiate-v2 starts in QUIC v1 and offers v2 (RFC 9369) by compatible
version negotiation (RFC 9368); --session-ticket FILE resumes the session of the ticket in FILE, when there is one,
and writes the ticket the server sends into it (the client waits up to 5 s for one after its downloads, so that a
second process can resume); --zero-rtt sends the requests before the handshake completes, in 0-RTT when resuming.

The server prints "listening on ADDR:PORT" on stderr when ready and stops on SIGTERM, writing the qlog of every
connection still open (aioquic writes a connection's qlog only after it has drained) and sending nothing more. It
hands a file to aioquic a chunk at a time, at most 4 MiB ahead of what aioquic has sent (aioquic's API has no
send-buffer backpressure; see FileServer.sent). The client
downloads all URLs concurrently over one connection, does not verify the server's certificate (the lab's is
self-signed), writes pacelab's client log (times in monotonic nanoseconds since it started) and exits 1 when a
download fails.
"""

import argparse
import asyncio
import json
import os
import pickle
import re
import signal
import ssl
import sys
import tempfile
import time
from urllib.parse import unquote, urlsplit

from aioquic.asyncio import connect, serve
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h0.connection import H0_ALPN, H0Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ConnectionTerminated, ProtocolNegotiated
from aioquic.quic.logger import QuicFileLogger
from aioquic.quic.packet import QuicProtocolVersion
from aioquic.tls import CipherSuite, SessionTicket

try:
    from aioquic.h3.connection import H3_ALPN, H3Connection
except ImportError:  # pylsqpack is not installed: HTTP/0.9 only
    H3_ALPN, H3Connection = [], None

START = time.monotonic_ns()
CONTROLLERS = ("reno", "cubic")


def since_start():
    return time.monotonic_ns() - START


def fail(message):
    print("pacelab_aioquic: " + message, file=sys.stderr)
    sys.exit(2)


def unwritable_file(path):
    """Why a file cannot be written at path (created or replaced), or None when it can: the rule, and the sentences,
    of pacelab's own commands (cli's PathChecks.unwritableFile), checked before any connection so that a key log,
    session ticket or client log that cannot be written is not found out after the transfer."""
    if os.path.isdir(path):
        return "%s is a directory; give a file name" % path
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(parent):
        return "the directory %s does not exist (create it first)" % parent
    if not os.path.isdir(parent):
        return "%s is not a directory" % parent
    if not os.access(parent, os.W_OK):
        return "the directory %s is not writable" % parent
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "%s is not writable" % path
    return None


def check_output_files(args):
    for option, path in (("--keylog", args.keylog), ("--json", getattr(args, "json", None)),
                         ("--session-ticket", getattr(args, "session_ticket", None))):
        problem = unwritable_file(path) if path else None
        if problem:
            fail("%s: %s" % (option, problem))


def duration(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(ms|s|m)?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError("'%s' is not a duration such as 90s or 90000ms" % text)
    return float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[m.group(2)]


class QlogFiles(QuicFileLogger):
    """aioquic's one-file-per-connection qlog, which also writes the traces of connections still open when asked
    (aioquic writes a trace only when its connection has ended, after draining)."""

    def __init__(self, path):
        super().__init__(path)
        self.open = []

    def start_trace(self, is_client, odcid):
        trace = super().start_trace(is_client=is_client, odcid=odcid)
        self.open.append(trace)
        return trace

    def end_trace(self, trace):
        if trace in self.open:
            self.open.remove(trace)
            super().end_trace(trace)

    def flush(self):
        for trace in list(self.open):
            self.end_trace(trace)


def flush_qlog(c):
    if isinstance(c.quic_logger, QlogFiles):
        c.quic_logger.flush()


def configuration(args, is_client):
    alpns = {"hq-interop": H0_ALPN, "h3": H3_ALPN}[args.alpn]
    if not alpns:
        fail("--alpn h3: HTTP/3 needs pylsqpack, which this Python cannot import; use --alpn hq-interop")
    cc = "reno" if args.cc == "newreno" else args.cc
    if cc not in CONTROLLERS:
        fail("--cc: '%s' is not a congestion controller of aioquic; valid values: %s" % (args.cc, ", ".join(CONTROLLERS)))
    c = QuicConfiguration(is_client=is_client, alpn_protocols=alpns, congestion_control_algorithm=cc)
    if is_client and args.cipher_suites:
        names = [n.strip() for n in args.cipher_suites.split(",")]
        valid = [s.name for s in CipherSuite if s != CipherSuite.EMPTY_RENEGOTIATION_INFO_SCSV]
        for n in names:
            if n not in valid:
                fail("--cipher-suites: '%s' is not a TLS 1.3 cipher suite of aioquic; valid values (comma-separated): %s"
                     % (n, ", ".join(valid)))
        c.cipher_suites = [CipherSuite[n] for n in names]
    if is_client and args.negotiate_v2:
        # as aioquic's examples/http3_client.py --negotiate-v2: the first Initial in v1, v2 preferred in the
        # version_information transport parameter (aioquic's server takes the client's first compatible version)
        c.original_version = QuicProtocolVersion.VERSION_1
        c.supported_versions = [QuicProtocolVersion.VERSION_2, QuicProtocolVersion.VERSION_1]
    if args.qlog_dir:
        if not os.path.isdir(args.qlog_dir):
            fail("--qlog-dir %s: not a directory" % args.qlog_dir)
        c.quic_logger = QlogFiles(args.qlog_dir)
    if args.keylog:
        c.secrets_log_file = open(args.keylog, "a", buffering=1)
    return c


def http_connection(quic):
    return H3Connection(quic) if quic.configuration.alpn_protocols == H3_ALPN and H3Connection else H0Connection(quic)


# ---- server ------------------------------------------------------------------------------------------------


class Feed:
    """A file being sent on a stream, a chunk at a time."""

    def __init__(self, file, size):
        self.file = file
        self.remaining = size
        self.written = 0


class FileServer(QuicConnectionProtocol):
    root = None
    CHUNK = 1 << 20
    # aioquic buffers whatever it is handed: a file is handed over a chunk at a time, at most this far ahead of what
    # aioquic has sent, so that a large (or a 64 GiB sparse) file is not read into memory
    AHEAD = 4 << 20

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.http = None
        self.feeds = {}

    def quic_event_received(self, event):
        if isinstance(event, ProtocolNegotiated):
            self.http = H3Connection(self._quic) if event.alpn_protocol in H3_ALPN else H0Connection(self._quic)
        if isinstance(event, ConnectionTerminated):
            for feed in self.feeds.values():
                feed.file.close()
            self.feeds.clear()
        if self.http is None:
            return
        for e in self.http.handle_event(event):
            if isinstance(e, HeadersReceived):
                self.respond(e.stream_id, dict(e.headers))
        self.transmit()

    def transmit(self):
        self.feed()
        super().transmit()

    def sent(self, stream_id, feed):
        """How far aioquic has sent the stream. Its API offers no send-buffer backpressure: the stream's sender (a
        public class, whose highest_offset is public) is reached through the connection's stream table, the one
        private attribute this program uses."""
        stream = getattr(self._quic, "_streams", {}).get(stream_id)
        return feed.written if stream is None else stream.sender.highest_offset

    def feed(self):
        for stream_id, feed in list(self.feeds.items()):
            while feed.remaining > 0 and feed.written - self.sent(stream_id, feed) < self.AHEAD:
                data = feed.file.read(min(self.CHUNK, feed.remaining))
                if not data:  # the file shrank while it was being served: never send short data as complete
                    self._quic.reset_stream(stream_id, 0x102)  # H3_INTERNAL_ERROR
                    feed.remaining = 0
                    break
                feed.remaining -= len(data)
                feed.written += len(data)
                self.http.send_data(stream_id, data, end_stream=feed.remaining == 0)
            if feed.remaining == 0:
                feed.file.close()
                del self.feeds[stream_id]

    def respond(self, stream_id, headers):
        path = headers.get(b":path", b"/").decode("utf-8", "replace")
        opened = self.open(path)
        if opened is None:
            if isinstance(self.http, H0Connection):
                self._quic.reset_stream(stream_id, 0x10C)  # H3_REQUEST_REJECTED: HTTP/0.9 has no status
            else:
                self.http.send_headers(stream_id, [(b":status", b"404"), (b"content-length", b"0")], end_stream=True)
            return
        file, size = opened
        if not isinstance(self.http, H0Connection):
            self.http.send_headers(stream_id, [(b":status", b"200"), (b"content-length", str(size).encode())])
        if size == 0:
            file.close()
            self.http.send_data(stream_id, b"", end_stream=True)
            return
        self.feeds[stream_id] = Feed(file, size)
        self.feed()

    def open(self, target):
        """The file under the root a target names, open, and its size; None (outside the root, not a regular file,
        unreadable)."""
        path = unquote(target.split("?", 1)[0])
        parts = [p for p in path.split("/") if p]
        if any(p in (".", "..") or "\\" in p or "\0" in p for p in parts):
            return None
        file = os.path.realpath(os.path.join(self.root, *parts))
        if os.path.commonpath([file, self.root]) != self.root or not os.path.isfile(file):
            return None
        try:
            f = open(file, "rb")
            return f, os.fstat(f.fileno()).st_size
        except OSError:
            return None


class TicketStore:
    """The session tickets the server issued, each accepted once (aioquic's examples/http3_server.py
    SessionTicketStore): a client presenting one resumes without a certificate and may send 0-RTT data, which aioquic's
    server accepts for a ticket it finds."""

    def __init__(self):
        self.tickets = {}

    def add(self, ticket):
        self.tickets[ticket.ticket] = ticket

    def pop(self, label):
        return self.tickets.pop(label, None)


async def run_server(args):
    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        fail("--listen: '%s' is not ADDR:PORT" % args.listen)
    if not os.path.isdir(args.root):
        fail("--root %s: not a directory" % args.root)
    FileServer.root = os.path.realpath(args.root)
    c = configuration(args, is_client=False)
    try:
        c.load_cert_chain(args.cert, args.key)
    except (OSError, ValueError) as e:
        fail("--cert/--key: %s" % e)
    tickets = TicketStore() if args.session_tickets else None
    server = await serve(host.strip("[]"), int(port), configuration=c, create_protocol=FileServer, retry=args.retry,
                         session_ticket_fetcher=tickets.pop if tickets else None,
                         session_ticket_handler=tickets.add if tickets else None)
    print("listening on %s (%s)" % (args.listen, args.alpn), file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, stop.set)
    await stop.wait()
    # Stopped: write the qlogs of the connections still open and close the socket without closing them. Closing them
    # (server.close()) sent each a CONNECTION_CLOSE, also the connections aioquic opens for an Initial it cannot decrypt
    # (a corrupted destination connection ID), which had sent nothing: their Initials, each with a source connection
    # ID of its own, counted as handshakes in the interop check (handshakecorruption with this server). aioquic's own
    # server program (examples/http3_server.py, the interop runner's) sends nothing when stopped either.
    flush_qlog(c)
    server._transport.close()  # aioquic's QuicServer keeps its transport here; sends after this are dropped


# ---- client ------------------------------------------------------------------------------------------------


class Transfer:
    def __init__(self, url, output):
        self.url = url
        self.path = urlsplit(url).path or "/"
        self.bytes = 0
        self.request_ns = self.first_byte_ns = self.last_byte_ns = 0
        self.status = 0
        self.error = None
        self.done = asyncio.get_running_loop().create_future()
        self.file = self.tmp = None
        if output:
            name = os.path.basename(unquote(self.path)) or "index"
            self.final = os.path.join(output, name)
            # a name of its own beside the file, not derived from it: the runner's zerortt names are 250 characters,
            # and a prefix and suffix would exceed the file system's 255
            fd, self.tmp = tempfile.mkstemp(dir=output, prefix=".aioquic-", suffix=".part")
            self.file = os.fdopen(fd, "wb")

    def received(self, data, ended):
        if data and self.bytes == 0:
            self.first_byte_ns = since_start()
        self.bytes += len(data)
        if self.file:
            self.file.write(data)
        if ended:
            self.finish(None)

    def finish(self, error):
        if self.done.done():
            return
        self.last_byte_ns = since_start()
        if not self.first_byte_ns:
            self.first_byte_ns = self.last_byte_ns
        self.error = error or (None if self.status in (0, 200) else "status %d" % self.status)
        if self.file:
            self.file.close()
            if self.error is None:
                os.replace(self.tmp, self.final)
            else:
                os.remove(self.tmp)
        self.done.set_result(None)

    def log(self):
        return {"url": self.url, "bytes": self.bytes, "request_ns": self.request_ns, "first_byte_ns": self.first_byte_ns,
                "last_byte_ns": self.last_byte_ns, "status": self.status or 200}


class Tickets:
    """A session ticket kept in a file between client processes (aioquic's examples/http3_client.py
    --session-ticket): the ticket to resume with, and the one the server sends now."""

    def __init__(self, path):
        self.path = path
        self.received = asyncio.Event()

    def load(self):
        if not os.path.exists(self.path):
            return None
        try:
            with open(self.path, "rb") as f:
                ticket = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as e:
            fail("--session-ticket %s: not a session ticket this program wrote (%s)" % (self.path, e))
        if not isinstance(ticket, SessionTicket):
            fail("--session-ticket %s: not a session ticket this program wrote" % self.path)
        return ticket

    def save(self, ticket):
        tmp = self.path + ".part"
        with open(tmp, "wb") as f:
            pickle.dump(ticket, f)
        os.replace(tmp, self.path)
        self.received.set()


class Downloader(QuicConnectionProtocol):
    key_update = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.http = http_connection(self._quic)
        self.streams = {}

    def get(self, transfer, authority):
        stream_id = self._quic.get_next_available_stream_id()
        self.streams[stream_id] = transfer
        transfer.request_ns = since_start()
        self.http.send_headers(stream_id, [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", authority.encode()),
                                           (b":path", transfer.path.encode())], end_stream=True)
        self.transmit()

    def quic_event_received(self, event):
        if isinstance(event, ConnectionTerminated):
            for t in self.streams.values():
                t.finish("the connection ended: %s (error %d)" % (event.reason_phrase or "closed", event.error_code))
            return
        stream = getattr(event, "stream_id", None)
        if stream in self.streams and type(event).__name__ == "StreamReset":
            self.streams[stream].finish("the server reset the stream (error %d)" % event.error_code)
        for e in self.http.handle_event(event):
            t = self.streams.get(e.stream_id)
            if t is None:
                continue
            if isinstance(e, HeadersReceived):
                t.status = int(dict(e.headers).get(b":status", b"200"))
                if e.stream_ended:
                    t.finish(None)
            elif isinstance(e, DataReceived):
                t.received(e.data, e.stream_ended)
                if self.key_update:
                    # as aioquic's examples/http3_client.py --key-update: once, when response data arrives (the
                    # handshake is complete by then, RFC 9001 §6)
                    self.key_update = False
                    self.request_key_update()


async def run_client(args):
    for u in args.urls:
        p = urlsplit(u)
        if p.scheme != "https" or not p.hostname:
            fail("'%s' is not an https:// URL" % u)
    hosts = {(urlsplit(u).hostname, urlsplit(u).port or 443) for u in args.urls}
    if len(hosts) != 1:
        fail("all URLs must name the same server (one connection)")
    host, port = hosts.pop()
    if args.output and not os.path.isdir(args.output):
        fail("--output %s: not a directory" % args.output)
    c = configuration(args, is_client=True)
    c.verify_mode = ssl.CERT_NONE
    c.server_name = "localhost"
    tickets = Tickets(args.session_ticket) if args.session_ticket else None
    if tickets:
        c.session_ticket = tickets.load()
    elif args.zero_rtt:
        fail("--zero-rtt: 0-RTT needs a session ticket to resume; give --session-ticket FILE")
    Downloader.key_update = args.key_update
    transfers = [Transfer(u, args.output) for u in args.urls]
    try:
        async with connect(host, port, configuration=c, create_protocol=Downloader, wait_connected=not args.zero_rtt,
                           session_ticket_handler=tickets.save if tickets else None) as client:
            for t in transfers:
                client.get(t, urlsplit(t.url).netloc)
            try:
                await asyncio.wait_for(asyncio.gather(*(t.done for t in transfers)), args.timeout)
            except asyncio.TimeoutError:
                for t in transfers:
                    t.finish("not finished within %g s" % args.timeout)
            if tickets and not tickets.received.is_set() and not any(t.error for t in transfers):
                # the next process resumes with this connection's ticket: wait for one before closing
                try:
                    await asyncio.wait_for(tickets.received.wait(), 5)
                except asyncio.TimeoutError:
                    print("no session ticket received within 5 s", file=sys.stderr)
    except (ConnectionError, OSError) as e:
        for t in transfers:
            t.finish("cannot connect: %s" % e)
    flush_qlog(c)
    failed = 0
    for t in transfers:
        if t.error:
            failed += 1
            print("%s: %s" % (t.url, t.error), file=sys.stderr)
        else:
            print("%s: %d bytes" % (t.url, t.bytes), file=sys.stderr)
    if args.json:
        tmp = args.json + ".part"
        with open(tmp, "w") as f:
            json.dump({"wall_time_ns": since_start(), "transfers": [t.log() for t in transfers]}, f, indent=2)
        os.replace(tmp, args.json)
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(prog="pacelab_aioquic.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="role", required=True)
    for role in ("server", "client"):
        p = sub.add_parser(role)
        p.add_argument("--alpn", choices=["hq-interop", "h3"], default="hq-interop")
        p.add_argument("--qlog-dir")
        p.add_argument("--keylog")
        p.add_argument("--cc", default="reno")
        if role == "server":
            p.add_argument("--listen", required=True)
            p.add_argument("--root", required=True)
            p.add_argument("--cert", required=True)
            p.add_argument("--key", required=True)
            p.add_argument("--retry", action="store_true")
            p.add_argument("--session-tickets", action="store_true")
        else:
            p.add_argument("--cipher-suites")
            p.add_argument("--key-update", action="store_true")
            p.add_argument("--negotiate-v2", action="store_true")
            p.add_argument("--session-ticket")
            p.add_argument("--zero-rtt", action="store_true")
            p.add_argument("--insecure", action="store_true")
            p.add_argument("--json")
            p.add_argument("--output")
            p.add_argument("--timeout", type=duration, default=600.0)
            p.add_argument("urls", nargs="+", metavar="URL")
    args = parser.parse_args()
    check_output_files(args)
    if args.role == "server":
        asyncio.run(run_server(args))
        return 0
    return asyncio.run(run_client(args))


if __name__ == "__main__":
    sys.exit(main())
