package org.pacelab.analysis.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes pcap and pcapng files for tests, in either byte order. */
public final class CaptureFiles {
    private CaptureFiles() {}

    /** One frame: capture time in ns since the epoch, interface index (pcapng), bytes. */
    public record Frame(long timeNs, int iface, byte[] bytes) {
        public Frame(long timeNs, byte[] bytes) {
            this(timeNs, 0, bytes);
        }
    }

    /** Classic pcap: nanosecond or microsecond timestamps. */
    public static byte[] pcap(ByteOrder order, boolean nanos, int linkType, List<Frame> frames) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(24).order(order);
        h.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(262144).putInt(linkType);
        o.writeBytes(h.array());
        for (Frame f : frames) {
            ByteBuffer r = ByteBuffer.allocate(16).order(order);
            long sec = f.timeNs() / 1_000_000_000L;
            long frac = f.timeNs() % 1_000_000_000L;
            r.putInt((int) sec).putInt((int) (nanos ? frac : frac / 1000)).putInt(f.bytes().length).putInt(f.bytes().length);
            o.writeBytes(r.array());
            o.writeBytes(f.bytes());
        }
        return o.toByteArray();
    }

    /** An interface of a pcapng section: link type and if_tsresol option byte (-1 for none) and if_tsoffset. */
    public record Interface(int linkType, int tsresol, long tsoffsetSeconds) {
        public Interface(int linkType) {
            this(linkType, 9, 0);
        }
    }

    /** Builds a pcapng file block by block. */
    public static final class Pcapng {
        private final ByteOrder order;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final List<Interface> interfaces = new ArrayList<>();

        public Pcapng(ByteOrder order) {
            this.order = order;
            section();
        }

        public Pcapng section() {
            ByteBuffer b = block(0x0A0D0D0A, 16);
            b.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1);
            close(b);
            interfaces.clear();
            return this;
        }

        public Pcapng iface(Interface i) {
            ByteArrayOutputStream opts = new ByteArrayOutputStream();
            if (i.tsresol() >= 0) {
                opts.writeBytes(option(9, new byte[] {(byte) i.tsresol()}));
            }
            if (i.tsoffsetSeconds() != 0) {
                opts.writeBytes(option(14, ByteBuffer.allocate(8).order(order).putLong(i.tsoffsetSeconds()).array()));
            }
            opts.writeBytes(option(0, new byte[0]));
            byte[] o = opts.toByteArray();
            ByteBuffer b = block(1, 8 + o.length);
            b.putShort((short) i.linkType()).putShort((short) 0).putInt(262144).put(o);
            close(b);
            interfaces.add(i);
            return this;
        }

        /** An Enhanced Packet Block; the timestamp is converted to the interface's resolution. */
        public Pcapng packet(Frame f) {
            return packetBlock(6, f);
        }

        /** An obsolete Packet Block (type 2: a 16-bit interface id and a 16-bit drops count, here 0). */
        public Pcapng obsoletePacket(Frame f) {
            return packetBlock(2, f);
        }

        private Pcapng packetBlock(int type, Frame f) {
            Interface i = interfaces.get(f.iface());
            long units = toUnits(f.timeNs() - i.tsoffsetSeconds() * 1_000_000_000L, i.tsresol() < 0 ? 6 : i.tsresol());
            byte[] data = f.bytes();
            int padded = (data.length + 3) & ~3;
            ByteBuffer b = block(type, 20 + padded);
            if (type == 2) {
                b.putShort((short) f.iface()).putShort((short) 0);
            } else {
                b.putInt(f.iface());
            }
            b.putInt((int) (units >>> 32)).putInt((int) units).putInt(data.length).putInt(data.length)
                    .put(data).put(new byte[padded - data.length]);
            close(b);
            return this;
        }

        public Pcapng simplePacket(byte[] data) {
            int padded = (data.length + 3) & ~3;
            ByteBuffer b = block(3, 4 + padded);
            b.putInt(data.length).put(data).put(new byte[padded - data.length]);
            close(b);
            return this;
        }

        /** A Decryption Secrets Block with an NSS key log. */
        public Pcapng secrets(String keyLog) {
            byte[] data = keyLog.getBytes(StandardCharsets.US_ASCII);
            int padded = (data.length + 3) & ~3;
            ByteBuffer b = block(0x0A, 8 + padded);
            b.putInt(0x544c534b).putInt(data.length).put(data).put(new byte[padded - data.length]);
            close(b);
            return this;
        }

        public byte[] bytes() {
            return out.toByteArray();
        }

        public Path write(Path file) throws IOException {
            Files.write(file, bytes());
            return file;
        }

        private ByteBuffer block(int type, int bodyLength) {
            ByteBuffer b = ByteBuffer.allocate(12 + bodyLength).order(order);
            b.putInt(type).putInt(12 + bodyLength);
            return b;
        }

        private void close(ByteBuffer b) {
            b.putInt(b.capacity());
            out.writeBytes(b.array());
        }

        private byte[] option(int code, byte[] value) {
            int padded = (value.length + 3) & ~3;
            ByteBuffer b = ByteBuffer.allocate(4 + padded).order(order);
            b.putShort((short) code).putShort((short) value.length).put(value);
            return b.array();
        }

        private static long toUnits(long ns, int tsresol) {
            int e = tsresol & 0x7f;
            if ((tsresol & 0x80) != 0) {
                return java.math.BigInteger.valueOf(ns).shiftLeft(e).divide(java.math.BigInteger.valueOf(1_000_000_000L)).longValue();
            }
            return e <= 9 ? ns / pow10(9 - e) : ns * pow10(e - 9);
        }

        private static long pow10(int n) {
            long v = 1;
            for (int k = 0; k < n; k++) {
                v *= 10;
            }
            return v;
        }
    }

    /** A pcapng with one Ethernet interface at nanosecond resolution holding the frames. */
    public static byte[] pcapngEthernet(List<Frame> frames) {
        Pcapng p = new Pcapng(ByteOrder.LITTLE_ENDIAN).iface(new Interface(1));
        frames.forEach(p::packet);
        return p.bytes();
    }
}
