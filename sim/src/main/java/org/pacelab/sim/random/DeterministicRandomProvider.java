package org.pacelab.sim.random;

import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.util.Map;

/**
 * A JCA provider whose only service is a SecureRandom ({@link ThreadScopedRandomSpi}), installed at the highest
 * priority so that {@code new SecureRandom()} and the JDK's internal default generators use it.
 *
 * <p>Why: the TLS library (agent15) draws the ClientHello and ServerHello randoms from static
 * {@code new SecureRandom()} instances, and its ECDHE key pairs and the server's ECDSA signature from the JDK's
 * default generator — none of which can be injected. With this provider first in the list, every one of those
 * draws goes through {@link ThreadScopedRandomSpi}, which serves the simulation's seeded stream on a thread that
 * has bound one ({@link RandomScope}) and the JDK's strong generator everywhere else. agent15 is not modified.
 *
 * <p>Limit: a generator object created before {@link #install()} (e.g. a static one in a class initialised by an
 * earlier handshake in the same JVM) keeps the provider it was created with. {@code Simulation} installs this
 * provider in its static initialiser and checks after each handshake that the client random came from the
 * simulation's stream, so such a JVM fails loudly instead of producing silently different bytes.
 */
public final class DeterministicRandomProvider extends Provider {
    private static final long serialVersionUID = 1L;
    public static final String NAME = "PacelabSimulationRandom";
    public static final String ALGORITHM = "PacelabThreadScoped";

    private DeterministicRandomProvider() {
        super(NAME, "1.0", "SecureRandom drawing from the pacelab simulation's seeded stream on simulation threads");
        putService(new Service(this, "SecureRandom", ALGORITHM, ThreadScopedRandomSpi.class.getName(), null,
                Map.of("ThreadSafe", "true")) {
            @Override
            public Object newInstance(Object constructorParameter) {
                return new ThreadScopedRandomSpi();
            }
        });
    }

    /** Installs the provider at position 1, once per JVM; later calls do nothing. */
    public static synchronized void install() {
        if (Security.getProvider(NAME) == null) {
            Security.insertProviderAt(new DeterministicRandomProvider(), 1);
        }
    }

    /** Whether {@code new SecureRandom()} currently resolves to this provider. */
    public static boolean isDefault() {
        Provider p = new SecureRandom().getProvider();
        return p != null && NAME.equals(p.getName());
    }
}
