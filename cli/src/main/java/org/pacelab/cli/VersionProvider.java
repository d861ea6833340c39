package org.pacelab.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports pacelab's version together with the JDK it runs on. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {
                "pacelab " + (v == null ? "development build" : v),
                "JDK " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
