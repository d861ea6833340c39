package org.pacelab.peers.build;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * pacelab's quic-go server and client (Go programs written in this project on quic-go's public API, shipped as
 * resources) built with Debian's Go against Debian's quic-go 0.29 in GOPATH mode ({@code GO111MODULE=off},
 * {@code GOPATH=<work>:/usr/share/gocode}), offline. Result: {@code bin/quic-go-server}, {@code bin/quic-go-client}.
 */
public final class QuicGoBuild implements PeerBuild {
    public static final String PEER = "quic-go";
    public static final String SERVER = "bin/quic-go-server";
    public static final String CLIENT = "bin/quic-go-client";
    static final String PACKAGE = "golang-github-lucas-clemente-quic-go-dev";
    static final Path GOCODE = Path.of("/usr/share/gocode");
    static final Path QUIC_GO = GOCODE.resolve("src/github.com/lucas-clemente/quic-go");
    private static final ProgramSources PROGRAMS = new ProgramSources("/org/pacelab/peers/quicgo/",
            List.of("peerlog/peerlog.go", "server/main.go", "client/main.go"));
    private static final long STEP_TIMEOUT_SECONDS = 1800;

    @Override
    public String peer() {
        return PEER;
    }

    @Override
    public List<SourceComponent> components() {
        return List.of();
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Tool("go", "golang-go", "to compile pacelab's quic-go server and client"));
    }

    @Override
    public List<String> debianPackages() {
        return List.of("golang-go", PACKAGE);
    }

    @Override
    public String missingPrerequisite(Programs programs) {
        return Files.isRegularFile(QUIC_GO.resolve("http3/server.go")) ? null
                : "quic-go's Go sources are not installed (" + QUIC_GO + " is missing); pacelab builds its quic-go peer against "
                + "Debian's quic-go 0.29 (Debian package " + PACKAGE + ": apt-get install " + PACKAGE + " as root)";
    }

    /** quic-go's Debian version and pacelab's programs, e.g. {@code 0.29.0-1+3f2a9c0d1e2b}. */
    @Override
    public String identity(Programs programs) {
        return debianVersion(programs) + "+" + PROGRAMS.fingerprint();
    }

    static String debianVersion(Programs programs) {
        return programs.find("dpkg-query").map(q -> Commands.run(List.of(q.toString(), "-W", "-f=${Version}", PACKAGE), null, 30))
                .filter(r -> r.exit() == 0 && !r.output().isBlank()).map(r -> r.output().strip()).orElse("unknown");
    }

    @Override
    public Properties build(Context c) throws BuildException {
        Path gopath = c.work().resolve("gopath");
        PROGRAMS.copyTo(gopath.resolve("src/pacelab/quicgo"));
        String go = c.tool("go");
        try {
            Files.createDirectories(c.out().resolve("bin"));
        } catch (java.io.IOException e) {
            throw new BuildException("cannot create " + c.out().resolve("bin") + ": " + e.getMessage());
        }
        Map<String, String> env = Map.of("GO111MODULE", "off", "GOPATH", gopath + ":" + GOCODE, "GOCACHE",
                c.work().resolve("gocache").toString(), "GOFLAGS", "", "CGO_ENABLED", "0", "HOME", c.work().toString());
        c.log().run("compiling quic-go-server", List.of(go, "build", "-o", c.out().resolve(SERVER).toString(),
                "pacelab/quicgo/server"), c.work(), env, STEP_TIMEOUT_SECONDS);
        c.log().run("compiling quic-go-client", List.of(go, "build", "-o", c.out().resolve(CLIENT).toString(),
                "pacelab/quicgo/client"), c.work(), env, STEP_TIMEOUT_SECONDS);
        Commands.Result v = Commands.run(List.of(go, "version"), c.work(), 30);
        Properties p = new Properties();
        p.setProperty("server", SERVER);
        p.setProperty("client", CLIENT);
        p.setProperty("protocols", "h3,hq-interop");
        p.setProperty("programs", PROGRAMS.fingerprint());
        p.setProperty("version", debianVersion(c.programs()) + " (Debian " + PACKAGE + ")"
                + (v.exit() == 0 ? ", " + v.output().strip().replace("go version ", "") : ""));
        return p;
    }

    @Override
    public String check(InstalledBuild build) {
        return build.programsProblem(List.of(SERVER, CLIENT), SERVER, "-h", "-listen");
    }
}
