package org.pacelab.quic.crypto;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link PacketAead} through OpenSSL's libcrypto (Debian's libssl3: {@code libcrypto.so.3}) with the foreign
 * function API (FFM, no JNI): one {@code EVP_CIPHER_CTX} per key, given the key once; per packet the nonce, the
 * header as AAD, the payload in place and the tag ({@code EVP_CipherInit_ex}, {@code EVP_CipherUpdate},
 * {@code EVP_CipherFinal_ex}, {@code EVP_CIPHER_CTX_ctrl}). The calls are "critical" downcalls that read and write
 * the packet's heap array directly (no copy). The context is freed when this object becomes unreachable (an
 * automatic arena's cleanup). Absent library or symbol: {@link #available()} is false and {@link PacketAead#forKey}
 * uses the JDK.
 */
final class LibcryptoAead implements PacketAead {
    /** EVP_CTRL_AEAD_GET_TAG and EVP_CTRL_AEAD_SET_TAG (openssl/evp.h; the GCM and ChaCha20-Poly1305 values). */
    private static final int GET_TAG = 0x10;
    private static final int SET_TAG = 0x11;

    private final MemorySegment ctx;
    private final int[] outLength = new int[1];
    private final MemorySegment outLengthSegment = MemorySegment.ofArray(outLength);
    private byte[] lastArray;
    private MemorySegment lastArraySegment;
    private byte[] lastNonce;
    private MemorySegment lastNonceSegment;
    /** The packet's header (the AAD), payload and tag: a key seals or opens packets at the same places again. */
    private final Slice headerSlice = new Slice();
    private final Slice payloadSlice = new Slice();
    private final Slice tagSlice = new Slice();

    LibcryptoAead(CipherSuite suite, byte[] key) {
        Native n = Native.INSTANCE.orElseThrow(() -> new IllegalStateException("libcrypto is not available"));
        try {
            MemorySegment raw = (MemorySegment) n.ctxNew.invokeExact();
            if (raw.equals(MemorySegment.NULL)) {
                throw new IllegalStateException("EVP_CIPHER_CTX_new failed");
            }
            MethodHandle free = n.ctxFree;
            this.ctx = raw.reinterpret(0, Arena.ofAuto(), s -> {
                try {
                    free.invokeExact(s);
                } catch (Throwable ignored) {
                    // nothing left to do for a context that cannot be freed
                }
            });
            MemorySegment cipher = (MemorySegment) (switch (suite) {
                case AES_128_GCM_SHA256 -> n.aes128Gcm;
                case AES_256_GCM_SHA384 -> n.aes256Gcm;
                case CHACHA20_POLY1305_SHA256 -> n.chacha20Poly1305;
            }).invokeExact();
            check((int) n.init.invokeExact(ctx, cipher, MemorySegment.NULL, MemorySegment.ofArray(key.clone()),
                    MemorySegment.NULL, 1), "EVP_CipherInit_ex (key)");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("libcrypto AEAD set-up failed: " + t, t);
        }
    }

    /** Whether libcrypto.so.3 and every function this class calls were found. */
    static boolean available() {
        return Native.INSTANCE.isPresent();
    }

    @Override
    public int seal(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int payloadLength,
                    byte[] nonce, long packetNumber) {
        Native n = Native.INSTANCE.get();
        Objects.checkFromIndexSize(headerOffset, headerLength, packet.capacity());
        Objects.checkFromIndexSize(payloadOffset, payloadLength + CipherSuite.TAG_LENGTH, packet.capacity());
        MemorySegment p = segment(packet);
        long base = base(packet);
        MemorySegment payload = payloadSlice.of(p, base + payloadOffset, payloadLength + CipherSuite.TAG_LENGTH);
        try {
            int ok = (int) n.init.invokeExact(ctx, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL,
                    nonceSegment(nonce), 1);
            ok &= (int) n.update.invokeExact(ctx, MemorySegment.NULL, outLengthSegment,
                    headerSlice.of(p, base + headerOffset, headerLength), headerLength);
            ok &= (int) n.update.invokeExact(ctx, payload, outLengthSegment, payload, payloadLength);
            MemorySegment tag = tagSlice.of(p, base + payloadOffset + payloadLength, CipherSuite.TAG_LENGTH);
            ok &= (int) n.finalEx.invokeExact(ctx, tag, outLengthSegment);
            ok &= (int) n.ctrl.invokeExact(ctx, GET_TAG, CipherSuite.TAG_LENGTH, tag);
            if (ok != 1) {
                // the message only on failure: building it for every packet cost ~1 % of a sender's event loop
                throw new IllegalStateException("libcrypto: sealing packet " + packetNumber + " failed");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("AEAD encryption of packet " + packetNumber + " failed: " + t, t);
        }
        return payloadLength + CipherSuite.TAG_LENGTH;
    }

    @Override
    public int open(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int ciphertextLength,
                    byte[] nonce, long packetNumber) throws AeadException {
        Native n = Native.INSTANCE.get();
        Objects.checkFromIndexSize(headerOffset, headerLength, packet.capacity());
        Objects.checkFromIndexSize(payloadOffset, ciphertextLength, packet.capacity());
        int plain = ciphertextLength - CipherSuite.TAG_LENGTH;
        if (plain < 0) {
            throw new AeadException("packet " + packetNumber + ": " + ciphertextLength
                    + " bytes of ciphertext are shorter than its tag");
        }
        MemorySegment p = segment(packet);
        long base = base(packet);
        MemorySegment payload = payloadSlice.of(p, base + payloadOffset, ciphertextLength);
        MemorySegment tag = tagSlice.of(p, base + payloadOffset + plain, CipherSuite.TAG_LENGTH);
        int ok;
        try {
            ok = (int) n.init.invokeExact(ctx, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL,
                    nonceSegment(nonce), 0);
            ok &= (int) n.update.invokeExact(ctx, MemorySegment.NULL, outLengthSegment,
                    headerSlice.of(p, base + headerOffset, headerLength), headerLength);
            ok &= (int) n.update.invokeExact(ctx, payload, outLengthSegment, payload, plain);
            ok &= (int) n.ctrl.invokeExact(ctx, SET_TAG, CipherSuite.TAG_LENGTH, tag);
            // Final checks the tag: 0 when the packet does not authenticate
            ok &= (int) n.finalEx.invokeExact(ctx, tag, outLengthSegment);
        } catch (Throwable t) {
            throw new AeadException("packet " + packetNumber + " could not be decrypted: " + t, t);
        }
        if (ok != 1) {
            throw new AeadException("packet " + packetNumber + " failed AEAD authentication");
        }
        return plain;
    }

    /**
     * The segment of the packet's memory: for a heap buffer the whole backing array, kept while packets keep coming in
     * the same array (a receive burst's buffer, a sender's packet buffer), since a segment and its session per packet
     * were most of a receiving client's allocation after its STREAM data was no longer copied into arrays.
     */
    private MemorySegment segment(ByteBuffer packet) {
        if (packet.hasArray()) {
            byte[] array = packet.array();
            if (array != lastArray) {
                lastArray = array;
                lastArraySegment = MemorySegment.ofArray(array);
            }
            return lastArraySegment;
        }
        return MemorySegment.ofBuffer(packet.duplicate().clear());
    }

    /** Where the buffer's index 0 lies in {@link #segment}'s segment. */
    private static long base(ByteBuffer packet) {
        return packet.hasArray() ? packet.arrayOffset() : 0;
    }

    /** The nonce's segment: the keys pass the same scratch array for every packet. */
    private MemorySegment nonceSegment(byte[] nonce) {
        if (nonce != lastNonce) {
            lastNonce = nonce;
            lastNonceSegment = MemorySegment.ofArray(nonce);
        }
        return lastNonceSegment;
    }

    /**
     * One slice of a segment, kept while the same place is asked for again. A receiver's packets land at the same
     * offsets of its receive buffer (one per datagram, at its start) with the same header and payload lengths as long as
     * they are full-sized and their packet numbers the same length, a sender's likewise in its packet buffer; three new
     * slices per packet were 29 % of a downloading client's sampled allocation at e5709ba, and the JIT's escape analysis
     * does not reliably remove them (the slice's constructor is not inlined into a large caller).
     */
    private static final class Slice {
        private MemorySegment whole;
        private long offset;
        private long length;
        private MemorySegment slice;

        MemorySegment of(MemorySegment whole, long offset, long length) {
            if (whole != this.whole || offset != this.offset || length != this.length) {
                this.slice = whole.asSlice(offset, length);
                this.whole = whole;
                this.offset = offset;
                this.length = length;
            }
            return slice;
        }
    }

    private static void check(int ok, String what) {
        if (ok != 1) {
            throw new IllegalStateException("libcrypto: " + what + " failed");
        }
    }

    /** The library's functions, looked up once; empty when the library or a function is missing. */
    private record Native(MethodHandle ctxNew, MethodHandle ctxFree, MethodHandle aes128Gcm, MethodHandle aes256Gcm,
                          MethodHandle chacha20Poly1305, MethodHandle init, MethodHandle update,
                          MethodHandle finalEx, MethodHandle ctrl) {
        static final Optional<Native> INSTANCE = load();

        private static Optional<Native> load() {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup lib = SymbolLookup.libraryLookup("libcrypto.so.3", Arena.global());
                AddressLayout a = ValueLayout.ADDRESS;
                ValueLayout.OfInt i = ValueLayout.JAVA_INT;
                Linker.Option critical = Linker.Option.critical(true);
                return Optional.of(new Native(
                        linker.downcallHandle(find(lib, "EVP_CIPHER_CTX_new"), FunctionDescriptor.of(a)),
                        linker.downcallHandle(find(lib, "EVP_CIPHER_CTX_free"), FunctionDescriptor.ofVoid(a)),
                        linker.downcallHandle(find(lib, "EVP_aes_128_gcm"), FunctionDescriptor.of(a)),
                        linker.downcallHandle(find(lib, "EVP_aes_256_gcm"), FunctionDescriptor.of(a)),
                        linker.downcallHandle(find(lib, "EVP_chacha20_poly1305"), FunctionDescriptor.of(a)),
                        linker.downcallHandle(find(lib, "EVP_CipherInit_ex"),
                                FunctionDescriptor.of(i, a, a, a, a, a, i), critical),
                        linker.downcallHandle(find(lib, "EVP_CipherUpdate"),
                                FunctionDescriptor.of(i, a, a, a, a, i), critical),
                        linker.downcallHandle(find(lib, "EVP_CipherFinal_ex"), FunctionDescriptor.of(i, a, a, a),
                                critical),
                        linker.downcallHandle(find(lib, "EVP_CIPHER_CTX_ctrl"), FunctionDescriptor.of(i, a, i, i, a),
                                critical)));
            } catch (Throwable t) {
                // no libcrypto.so.3, a missing function, or native access refused: the JDK's AEAD is used
                return Optional.empty();
            }
        }

        private static MemorySegment find(SymbolLookup lib, String name) {
            return lib.find(name).orElseThrow(() -> new IllegalArgumentException("libcrypto lacks " + name));
        }
    }
}
