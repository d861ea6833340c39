package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.peers.build.Commands;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.PeerDeclaration;
import org.pacelab.lab.scenario.Suggestions;

/**
 * A peer a scenario declares by the command lines of its server and client ({@link PeerDeclaration}): the runner fills
 * the placeholders in per run and starts the program by the path the host found. Usable where its program is
 * installed; it takes option {@code cc} when it declares controllers; it writes a key log when a command uses
 * {@code {keylog}}, a qlog when the server's uses {@code {qlogdir}}.
 */
public final class CommandLinePeer implements Peer {
    static final String DOWNLOADS = "downloads";

    private final PeerDeclaration d;

    public CommandLinePeer(PeerDeclaration declaration) {
        this.d = declaration;
    }

    public PeerDeclaration declaration() {
        return d;
    }

    @Override
    public String name() {
        return d.name().value();
    }

    @Override
    public String summary() {
        return d.summary() + " (declared by command line at " + d.at() + ")";
    }

    @Override
    public List<Protocol> protocols() {
        return d.protocols().stream().map(p -> p.equals("h3") ? Protocol.H3 : Protocol.HQ_INTEROP).toList();
    }

    @Override
    public Set<Role> roles() {
        EnumSet<Role> r = EnumSet.noneOf(Role.class);
        if (d.server() != null) {
            r.add(Role.SERVER);
        }
        if (d.client() != null) {
            r.add(Role.CLIENT);
        }
        return r;
    }

    @Override
    public Set<Mode> modes() {
        return EnumSet.copyOf(d.modes());
    }

    private PeerDeclaration.Template template(Role role) {
        return role == Role.SERVER ? d.server() : d.client();
    }

    @Override
    public List<PeerOption> options(Role role) {
        PeerDeclaration.Template t = template(role);
        if (t == null || d.cc().isEmpty() || !t.uses("cc")) {
            return List.of();
        }
        List<String> valid = List.copyOf(d.cc().keySet());
        return List.of(new PeerOption("cc", String.join(", ", valid), v -> d.cc().containsKey(v.strip().toLowerCase(Locale.ROOT)) ? null
                : "'" + v + "' is not a congestion controller " + name() + " declares" + Suggestions.didYouMean(v, valid)
                + "; valid values: " + String.join(", ", valid)));
    }

    @Override
    public boolean writesKeyLog(Role role) {
        PeerDeclaration.Template t = template(role);
        return t != null && t.uses("keylog");
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        String program = template(role).program();
        boolean found = program.contains("/") ? Files.isRegularFile(Path.of(program)) && Files.isExecutable(Path.of(program))
                : host.which(program).isPresent();
        return found ? Availability.USABLE : Availability.missing(program + " is not installed here (the " + role.word()
                + " command of " + name() + ", declared at " + template(role).at() + ")");
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        if (!d.versionCommand().isEmpty()) {
            try {
                Commands.Result r = Commands.run(30, host.resolve(d.versionCommand()));
                String first = r.output().lines().findFirst().orElse("").strip();
                if (r.ok() && !first.isEmpty()) {
                    return first;
                }
            } catch (IOException e) {
                // reported as declared below
            }
        }
        return name() + " (declared by command line at " + d.at() + ")";
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("address", s.address());
        v.put("port", Integer.toString(s.port()));
        v.put("docroot", s.documentRoot().toString());
        v.put("cert", s.certificate().toString());
        v.put("key", s.privateKey().toString());
        put(v, "keylog", s.keyLog());
        put(v, "qlogdir", s.qlogDir());
        v.put("alpn", s.protocol().alpn());
        cc(v, s.options());
        PeerDeclaration.Template t = d.server();
        Readiness ready = t.ready().equals("tcp") ? new Readiness.TcpListening(s.port()) : new Readiness.UdpBound(s.port());
        return Launch.of(render(t, v, Map.of()), environment(t, v), ready);
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("address", c.host());
        v.put("port", Integer.toString(c.port()));
        v.put("url", c.url(c.paths().getFirst()));
        v.put("path", c.paths().getFirst());
        v.put("streams", Integer.toString(c.paths().size()));
        v.put("cert", c.certificate().toString());
        put(v, "keylog", c.keyLog());
        v.put("alpn", c.protocol().alpn());
        v.put("timeout", Long.toString(Math.max(1, c.timeoutNs() / 1_000_000_000L)));
        PeerDeclaration.Template t = d.client();
        if (t.uses("outdir")) {
            Path out = Files.createDirectories(c.workDir().resolve(DOWNLOADS));
            v.put("outdir", out.toString());
        }
        cc(v, c.options());
        Map<String, List<String>> lists = Map.of("urls", c.paths().stream().map(c::url).toList(), "paths", c.paths());
        return Launch.of(render(t, v, lists), environment(t, v), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        if (d.client().success().equals("files")) {
            return new ClientOutcome(BuiltPeers.takeDownloads(c.workDir().resolve(DOWNLOADS)), null);
        }
        // success: exit-code; the runner has checked that the client exited 0
        return new ClientOutcome(c.totalBytes(), null);
    }

    private static void put(Map<String, String> v, String key, Path p) {
        if (p != null) {
            v.put(key, p.toString());
        }
    }

    private void cc(Map<String, String> v, Map<String, String> options) {
        String cc = options.get("cc");
        if (cc != null) {
            v.put("cc", d.cc().get(cc.strip().toLowerCase(Locale.ROOT)));
        }
    }

    /**
     * The command line: each argument with its placeholders filled in; {@code {urls}} and {@code {paths}} as one argument
     * per download; an argument or optional group with a placeholder that has no value in this run left out.
     */
    static List<String> render(PeerDeclaration.Template t, Map<String, String> values, Map<String, List<String>> lists) {
        List<String> cmd = new ArrayList<>();
        for (PeerDeclaration.Arg a : t.command()) {
            switch (a) {
                case PeerDeclaration.Word w -> {
                    String name = w.text().length() > 2 ? w.text().substring(1, w.text().length() - 1) : "";
                    if (lists.containsKey(name) && w.text().equals("{" + name + "}")) {
                        cmd.addAll(lists.get(name));
                    } else {
                        String f = PeerDeclaration.fill(w.text(), values);
                        if (f != null) {
                            cmd.add(f);
                        }
                    }
                }
                case PeerDeclaration.Group g -> {
                    List<String> filled = new ArrayList<>();
                    for (String word : g.words()) {
                        String f = PeerDeclaration.fill(word, values);
                        if (f == null) {
                            filled = null;
                            break;
                        }
                        filled.add(f);
                    }
                    if (filled != null) {
                        cmd.addAll(filled);
                    }
                }
            }
        }
        return cmd;
    }

    private static Map<String, String> environment(PeerDeclaration.Template t, Map<String, String> values) {
        Map<String, String> env = new LinkedHashMap<>();
        t.environment().forEach((k, text) -> {
            String f = PeerDeclaration.fill(text, values);
            if (f != null) {
                env.put(k, f);
            }
        });
        return env;
    }
}
