package org.pacelab.peers.build;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * picoquic's {@code picoquicdemo} (client and server) with picotls (OpenSSL and minicrypto back ends, no fusion),
 * both at pinned commits: picotls's three libraries with CMake, then picoquic against them
 * ({@code -DPICOQUIC_FETCH_PTLS=OFF}), tests and the simulator left out. Result: {@code bin/picoquicdemo}.
 */
public final class PicoquicBuild implements PeerBuild {
    public static final String PEER = "picoquic";
    public static final String PROGRAM = "bin/picoquicdemo";
    public static final SourceComponent PICOQUIC = new SourceComponent("picoquic", "https://github.com/private-octopus/picoquic",
            "d199d45be8690dfa8653e214733243524112e3c0", "picoquic/picoquic.h", "MIT", false);
    public static final SourceComponent PICOTLS = new SourceComponent("picotls", "https://github.com/h2o/picotls",
            "f07f1c8c68b237f1468bc1f1fe1b68aba3ff23b4", "include/picotls.h", "MIT", true);
    private static final long STEP_TIMEOUT_SECONDS = 1800;

    @Override
    public String peer() {
        return PEER;
    }

    @Override
    public List<SourceComponent> components() {
        return List.of(PICOQUIC, PICOTLS);
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Tool("cmake", "cmake", "to configure its build"), new Tool("make", "make", "to run its build"),
                new Tool("cc", "gcc", "to compile it (a C compiler)"), new Tool("c++", "g++", "to configure it (CMake checks for a C++ compiler)"),
                new Tool("pkg-config", "pkg-config", "to find OpenSSL"), new Tool("tar", "tar", "to unpack source tarballs"));
    }

    @Override
    public List<String> debianPackages() {
        return List.of("build-essential", "cmake", "libssl-dev", "pkg-config");
    }

    @Override
    public String missingPrerequisite(Programs programs) {
        String pkgConfig = programs.find("pkg-config").map(Path::toString).orElse("pkg-config");
        Commands.Result r = Commands.run(List.of(pkgConfig, "--exists", "openssl"), null, 30);
        return r.exit() == 0 ? null : "OpenSSL's development files are not installed (pkg-config finds no openssl); picoquic and "
                + "picotls need them (Debian package libssl-dev: apt-get install libssl-dev as root)";
    }

    @Override
    public Properties build(Context c) throws BuildException {
        Path tls = c.source(PICOTLS.name()).tree();
        Path quic = c.source(PICOQUIC.name()).tree();
        Path tlsBuild = c.work().resolve("build-picotls");
        Path quicBuild = c.work().resolve("build-picoquic");
        String cmake = c.tool("cmake");
        String jobs = Integer.toString(c.jobs());
        c.log().run("configuring picotls", List.of(cmake, "-S", tls.toString(), "-B", tlsBuild.toString(),
                "-DCMAKE_BUILD_TYPE=Release", "-DWITH_FUSION=OFF"), c.work(), Map.of(), STEP_TIMEOUT_SECONDS);
        c.log().run("compiling picotls", List.of(cmake, "--build", tlsBuild.toString(), "-j", jobs, "--target", "picotls-core",
                "picotls-openssl", "picotls-minicrypto"), c.work(), Map.of(), STEP_TIMEOUT_SECONDS);
        c.log().run("configuring picoquic", List.of(cmake, "-S", quic.toString(), "-B", quicBuild.toString(),
                "-DCMAKE_BUILD_TYPE=Release", "-DPICOQUIC_FETCH_PTLS=OFF", "-Dpicoquic_BUILD_TESTS=OFF", "-DBUILD_PICO_SIM=OFF",
                "-DPTLS_INCLUDE_DIR=" + tls.resolve("include"),
                "-DPTLS_CORE_LIBRARY=" + tlsBuild.resolve("libpicotls-core.a"),
                "-DPTLS_OPENSSL_LIBRARY=" + tlsBuild.resolve("libpicotls-openssl.a"),
                "-DPTLS_MINICRYPTO_LIBRARY=" + tlsBuild.resolve("libpicotls-minicrypto.a")), c.work(), Map.of(), STEP_TIMEOUT_SECONDS);
        c.log().run("compiling picoquicdemo", List.of(cmake, "--build", quicBuild.toString(), "-j", jobs, "--target", "picoquicdemo"),
                c.work(), Map.of(), STEP_TIMEOUT_SECONDS);
        Path bin = c.out().resolve("bin");
        try {
            java.nio.file.Files.createDirectories(bin);
            java.nio.file.Files.copy(quicBuild.resolve("picoquicdemo"), c.out().resolve(PROGRAM), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        } catch (java.io.IOException e) {
            throw new BuildException("picoquic: cannot copy picoquicdemo into " + bin + ": " + e.getMessage());
        }
        Properties p = new Properties();
        p.setProperty("program", PROGRAM);
        p.setProperty("protocols", "h3,hq-interop");
        return p;
    }

    @Override
    public String check(InstalledBuild build) {
        return build.programsProblem(List.of(PROGRAM), PROGRAM, "-h", "PicoQUIC demo");
    }
}
