package org.pacelab.lab.testing;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.pacelab.lab.host.Host;

/** A host whose programs, root and qdiscs a test decides. */
public final class FakeHost extends Host {
    private final Set<String> programs = new HashSet<>();
    private final Map<String, Host.QdiscSupport> qdiscs = new HashMap<>();
    private boolean root;

    public FakeHost with(String... names) {
        programs.addAll(Set.of(names));
        return this;
    }

    public FakeHost root(boolean r) {
        root = r;
        return this;
    }

    public FakeHost qdisc(String kind, boolean available, String detail) {
        qdiscs.put(kind, new Host.QdiscSupport(available, detail));
        return this;
    }

    /** Every program the standard peers use. */
    public static FakeHost everything() {
        return new FakeHost().with("gtlsserver", "gtlsclient", "nginx", "curl", "chromium").root(true);
    }

    @Override
    public Optional<Path> which(String program) {
        return programs.contains(program) ? Optional.of(Path.of("/usr/bin", program)) : Optional.empty();
    }

    @Override
    public boolean isRoot() {
        return root;
    }

    @Override
    public String packageVersion(String pkg) {
        return "1.0-test";
    }

    @Override
    public String kernelRelease() {
        return "6.18-test";
    }

    @Override
    public QdiscSupport qdisc(String kind) {
        return qdiscs.getOrDefault(kind, new Host.QdiscSupport(false, "this kernel (6.18-test) has no " + kind + " qdisc"));
    }
}
