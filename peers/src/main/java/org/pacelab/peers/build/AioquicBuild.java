package org.pacelab.peers.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * aioquic with its two C extensions ({@code _buffer}, {@code _crypto} against libcrypto) compiled for the machine's
 * Python 3 (stable ABI, {@code Py_LIMITED_API} 3.10, as aioquic's own wheels), beside pyOpenSSL and service-identity
 * (pure Python), all at pinned versions, and pacelab's server and client program written on aioquic's public API
 * ({@code pacelab_aioquic.py}, shipped as a resource). Result: {@code lib/} (the packages and the program) and the
 * wrappers {@code bin/aioquic-server}, {@code bin/aioquic-client} that run them with the Python they were built for.
 * HTTP/3 needs pylsqpack, which is not among the sources; where that Python can import it, the build says so and
 * the peer speaks HTTP/3 as well as hq-interop.
 */
public final class AioquicBuild implements PeerBuild {
    public static final String PEER = "aioquic";
    public static final String SERVER = "bin/aioquic-server";
    public static final String CLIENT = "bin/aioquic-client";
    public static final SourceComponent AIOQUIC = new SourceComponent("aioquic", "https://github.com/aiortc/aioquic",
            "6d36838d008c2202c337142fa07e8bf80e96bac8", "src/aioquic/_buffer.c", "BSD-3-Clause", false);
    public static final SourceComponent PYOPENSSL = new SourceComponent("pyopenssl", "https://github.com/pyca/pyopenssl",
            "26.2.0", "src/OpenSSL/SSL.py", "Apache-2.0", false);
    public static final SourceComponent SERVICE_IDENTITY = new SourceComponent("service-identity",
            "https://github.com/pyca/service-identity", "26.1.0", "src/service_identity/__init__.py", "MIT", false);
    private static final ProgramSources PROGRAMS = new ProgramSources("/org/pacelab/peers/aioquic/", List.of("pacelab_aioquic.py"));
    /**
     * What the interpreter must have: Python 3.10 or newer, its headers, and the pure-Python packages aioquic,
     * pyOpenSSL 26.2 and service-identity 26.1 import (cryptography 47 to 48, certifi, attrs, typing-extensions).
     */
    private static final String PROBE = """
            import sys, sysconfig, os, importlib
            if sys.version_info < (3, 10):
                print("python %d.%d is too old; aioquic needs 3.10 or newer" % sys.version_info[:2]); sys.exit(1)
            inc = sysconfig.get_paths()["include"]
            if not os.path.isfile(os.path.join(inc, "Python.h")):
                print("its headers are missing (%s/Python.h; Debian package python3-dev)" % inc); sys.exit(1)
            missing = []
            for module, package in (("cryptography", "cryptography"), ("certifi", "certifi"), ("attr", "attrs"),
                                    ("typing_extensions", "typing-extensions")):
                try:
                    importlib.import_module(module)
                except ImportError:
                    missing.append(package)
            if missing:
                print("it cannot import " + ", ".join(missing) + " (aioquic, pyOpenSSL and service-identity need them; "
                      "install them for this Python, e.g. python3 -m pip install " + " ".join(missing) + ")"); sys.exit(1)
            import cryptography
            major = int(cryptography.__version__.split(".")[0])
            if not 47 <= major < 49:
                print("it has cryptography " + cryptography.__version__ + "; pyOpenSSL 26.2 and service-identity 26.1 need "
                      "47 or 48 (python3 -m pip install 'cryptography>=47,<49')"); sys.exit(1)
            try:
                importlib.import_module("pylsqpack"); lsqpack = "yes"
            except ImportError:
                lsqpack = "no"
            print("ok", sys.executable, inc, "%d.%d.%d" % sys.version_info[:3], lsqpack)
            """;
    private static final long STEP_TIMEOUT_SECONDS = 600;

    /** What the probe found about an interpreter. */
    record Python(String executable, String include, String version, boolean pylsqpack) {}

    @Override
    public String peer() {
        return PEER;
    }

    @Override
    public List<SourceComponent> components() {
        return List.of(AIOQUIC, PYOPENSSL, SERVICE_IDENTITY);
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Tool("python3", "python3", "to run it"), new Tool("cc", "gcc", "to compile its C extensions"),
                new Tool("tar", "tar", "to unpack source tarballs"));
    }

    @Override
    public List<String> debianPackages() {
        return List.of("python3", "python3-dev", "gcc", "libssl-dev");
    }

    /** The Python 3 on PATH, else /usr/bin/python3: the first whose probe passes, or the first one's problem. */
    Object python(Programs programs) {
        List<Path> candidates = new ArrayList<>();
        programs.find("python3").ifPresent(candidates::add);
        Path system = Path.of("/usr/bin/python3");
        if (Files.isExecutable(system) && !candidates.contains(system)) {
            candidates.add(system);
        }
        String first = null;
        for (Path p : candidates) {
            Commands.Result r = Commands.run(List.of(p.toString(), "-c", PROBE), null, 60);
            String out = r.output().strip();
            if (r.exit() == 0 && out.startsWith("ok ")) {
                String[] f = out.split(" ");
                return new Python(f[1], f[2], f[3], f[4].equals("yes"));
            }
            if (first == null) {
                first = "aioquic cannot be built for " + p + ": " + (out.isEmpty() ? "it does not run (exit " + r.exit() + ")"
                        : out.lines().reduce((a, b) -> b).orElse(out));
            }
        }
        return first == null ? "python3 is not installed; aioquic needs Python 3.10 or newer (Debian package python3)" : first;
    }

    @Override
    public String missingPrerequisite(Programs programs) {
        if (python(programs) instanceof String problem) {
            return problem;
        }
        return Files.isRegularFile(Path.of("/usr/include/openssl/evp.h")) ? null
                : "OpenSSL's headers are not installed (/usr/include/openssl/evp.h); aioquic's _crypto extension needs them "
                + "(Debian package libssl-dev: apt-get install libssl-dev as root)";
    }

    /** The Python it is built for and pacelab's program, e.g. {@code py3.11.7+1a2b3c4d5e6f}. */
    @Override
    public String identity(Programs programs) {
        String version = python(programs) instanceof Python p ? p.version() : "unknown";
        return "py" + version + "+" + PROGRAMS.fingerprint();
    }

    @Override
    public Properties build(Context c) throws BuildException {
        if (!(python(c.programs()) instanceof Python py)) {
            throw new BuildException(String.valueOf(python(c.programs())));
        }
        Path lib = c.out().resolve("lib");
        Path bin = c.out().resolve("bin");
        try {
            Files.createDirectories(bin);
            copyTree(c.source(AIOQUIC.name()).tree().resolve("src/aioquic"), lib.resolve("aioquic"));
            copyTree(c.source(PYOPENSSL.name()).tree().resolve("src/OpenSSL"), lib.resolve("OpenSSL"));
            copyTree(c.source(SERVICE_IDENTITY.name()).tree().resolve("src/service_identity"), lib.resolve("service_identity"));
        } catch (IOException e) {
            throw new BuildException("aioquic: cannot copy its sources into " + lib + ": " + e.getMessage());
        }
        PROGRAMS.copyTo(lib);
        String cc = c.tool("cc");
        Path pkg = lib.resolve("aioquic");
        for (String ext : List.of("_buffer", "_crypto")) {
            List<String> cmd = new ArrayList<>(List.of(cc, "-O2", "-std=c99", "-shared", "-fPIC", "-DPy_LIMITED_API=0x030A0000",
                    "-I" + py.include(), pkg.resolve(ext + ".c").toString(), "-o", pkg.resolve(ext + ".abi3.so").toString()));
            if (ext.equals("_crypto")) {
                cmd.add("-lcrypto");
            }
            c.log().run("compiling aioquic's " + ext + " extension", cmd, c.work(), Map.of(), STEP_TIMEOUT_SECONDS);
        }
        for (String role : List.of("server", "client")) {
            Path wrapper = c.out().resolve("bin/aioquic-" + role);
            String script = "#!/bin/sh\n# pacelab's aioquic " + role + " (pacelab peers install aioquic), run with the Python its "
                    + "extensions were compiled for\nhere=$(dirname \"$(readlink -f \"$0\")\")\n"
                    + "PYTHONPATH=\"$here/../lib\" exec '" + py.executable().replace("'", "'\\''") + "' -s \"$here/../lib/pacelab_aioquic.py\" "
                    + role + " \"$@\"\n";
            try {
                Files.writeString(wrapper, script);
                Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
            } catch (IOException e) {
                throw new BuildException("aioquic: cannot write " + wrapper + ": " + e.getMessage());
            }
        }
        Properties p = new Properties();
        p.setProperty("server", SERVER);
        p.setProperty("client", CLIENT);
        p.setProperty("python", py.executable());
        p.setProperty("protocols", py.pylsqpack() ? "hq-interop,h3" : "hq-interop");
        p.setProperty("programs", PROGRAMS.fingerprint());
        p.setProperty("version", "Python " + py.version() + (py.pylsqpack() ? ", HTTP/3 with pylsqpack" : ", hq-interop only (no pylsqpack)"));
        return p;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().endsWith(".so")) {
                    Files.copy(p, t);
                }
            }
        }
    }

    @Override
    public String check(InstalledBuild build) {
        return build.programsProblem(List.of(SERVER, CLIENT), CLIENT, "--help", "--alpn");
    }

    /** The protocols a build speaks, from its record (hq-interop, and h3 where pylsqpack was importable). */
    public static List<String> protocols(Optional<InstalledBuild> build) {
        return build.map(b -> List.of(b.get("protocols") == null ? new String[] {"hq-interop"} : b.get("protocols").split(",")))
                .orElse(List.of("hq-interop"));
    }
}
