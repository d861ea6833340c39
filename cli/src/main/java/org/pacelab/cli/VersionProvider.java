package org.pacelab.cli;

import org.pacelab.lab.host.SourceCommit;

import picocli.CommandLine.IVersionProvider;

/** Reports pacelab's version, the commit it was built from ({@link SourceCommit}) and the JDK it runs on. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {
                "pacelab " + (v == null ? "development build" : v) + ", built from commit " + SourceCommit.ofThisBuild(),
                "JDK " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
