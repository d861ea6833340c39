import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Timed harness (a benchmark, not a test; issue 14): seals N packets of SIZE bytes with AES-128-GCM and a 20-byte
 * header as associated data, in place, a fresh nonce per packet, either with the JDK's JCA provider or with
 * OpenSSL's libcrypto through FFM critical downcalls (as quic's LibcryptoAead does), and prints the process's and
 * the sealing thread's CPU time. Run each mode in a fresh JVM, several times, alternating:
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC scripts/AeadBench.java jdk|libcrypto [SIZE] [N] [ROUNDS]</pre>
 *
 * With ROUNDS &gt; 1 the same JVM repeats the measurement (the first round includes the JIT's warm-up).
 */
public class AeadBench {
    public static void main(String[] args) throws Throwable {
        if (args.length < 1 || !(args[0].equals("jdk") || args[0].equals("libcrypto"))) {
            System.err.println("usage: AeadBench jdk|libcrypto [SIZE (default 1400)] [N (default 767000, a GiB of packets)] [ROUNDS (default 1)]");
            System.exit(2);
        }
        boolean jdk = args[0].equals("jdk");
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 1400;
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 767_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        byte[] key = new byte[16];
        byte[] buf = new byte[20 + size + 16];
        new java.util.Random(1).nextBytes(buf);
        byte[] nonce = new byte[12];
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var threads = ManagementFactory.getThreadMXBean();
        Sealer sealer = jdk ? new JdkSealer(key) : new LibcryptoSealer(key);
        long pn = 0;
        for (int r = 0; r < rounds; r++) {
            long p0 = os.getProcessCpuTime(), t0 = threads.getCurrentThreadCpuTime(), w0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                pn++;
                for (int k = 0; k < 8; k++) {
                    nonce[11 - k] = (byte) (pn >>> (8 * k));
                }
                sealer.seal(buf, size, nonce);
            }
            long p1 = os.getProcessCpuTime(), t1 = threads.getCurrentThreadCpuTime(), w1 = System.nanoTime();
            System.out.printf("%s round %d: %d packets of %d B: process CPU %.3f s (%.0f ns/packet), sealing thread CPU"
                            + " %.3f s (%.0f ns/packet), wall %.3f s, load %s%n", args[0], r + 1, n, size,
                    (p1 - p0) / 1e9, (p1 - p0) / (double) n, (t1 - t0) / 1e9, (t1 - t0) / (double) n, (w1 - w0) / 1e9,
                    java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0]);
        }
    }

    interface Sealer {
        void seal(byte[] packet, int payloadLength, byte[] nonce) throws Throwable;
    }

    static final class JdkSealer implements Sealer {
        final Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        final SecretKeySpec key;

        JdkSealer(byte[] key) throws Exception {
            this.key = new SecretKeySpec(key, "AES");
        }

        @Override
        public void seal(byte[] p, int len, byte[] nonce) throws Exception {
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            cipher.updateAAD(p, 0, 20);
            cipher.doFinal(p, 20, len, p, 20);
        }
    }

    static final class LibcryptoSealer implements Sealer {
        static final Linker L = Linker.nativeLinker();
        static final SymbolLookup C = SymbolLookup.libraryLookup("libcrypto.so.3", Arena.global());
        static final AddressLayout A = ValueLayout.ADDRESS;
        static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
        static final Linker.Option CRITICAL = Linker.Option.critical(true);
        static final MethodHandle NEW = h("EVP_CIPHER_CTX_new", FunctionDescriptor.of(A));
        static final MethodHandle AES128GCM = h("EVP_aes_128_gcm", FunctionDescriptor.of(A));
        static final MethodHandle INIT = h("EVP_CipherInit_ex", FunctionDescriptor.of(I, A, A, A, A, A, I), CRITICAL);
        static final MethodHandle UPDATE = h("EVP_CipherUpdate", FunctionDescriptor.of(I, A, A, A, A, I), CRITICAL);
        static final MethodHandle FINAL = h("EVP_CipherFinal_ex", FunctionDescriptor.of(I, A, A, A), CRITICAL);
        static final MethodHandle CTRL = h("EVP_CIPHER_CTX_ctrl", FunctionDescriptor.of(I, A, I, I, A), CRITICAL);
        final MemorySegment ctx;
        final MemorySegment outLength = MemorySegment.ofArray(new int[1]);

        static MethodHandle h(String name, FunctionDescriptor d, Linker.Option... o) {
            return L.downcallHandle(C.find(name).orElseThrow(), d, o);
        }

        LibcryptoSealer(byte[] key) throws Throwable {
            ctx = (MemorySegment) NEW.invokeExact();
            MemorySegment cipher = (MemorySegment) AES128GCM.invokeExact();
            int ok = (int) INIT.invokeExact(ctx, cipher, MemorySegment.NULL, MemorySegment.ofArray(key),
                    MemorySegment.NULL, 1);
            if (ok != 1) {
                throw new IllegalStateException("EVP_CipherInit_ex failed");
            }
        }

        @Override
        public void seal(byte[] p, int len, byte[] nonce) throws Throwable {
            MemorySegment s = MemorySegment.ofArray(p);
            MemorySegment payload = s.asSlice(20, len + 16);
            int ok = (int) INIT.invokeExact(ctx, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL,
                    MemorySegment.ofArray(nonce), 1);
            ok &= (int) UPDATE.invokeExact(ctx, MemorySegment.NULL, outLength, s.asSlice(0, 20), 20);
            ok &= (int) UPDATE.invokeExact(ctx, payload, outLength, payload, len);
            ok &= (int) FINAL.invokeExact(ctx, payload.asSlice(len), outLength);
            ok &= (int) CTRL.invokeExact(ctx, 0x10, 16, payload.asSlice(len));
            if (ok != 1) {
                throw new IllegalStateException("libcrypto sealing failed");
            }
        }
    }
}
