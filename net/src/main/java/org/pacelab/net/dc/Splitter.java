package org.pacelab.net.dc;

/** The splitter state of one flow: where its next packet goes. */
@FunctionalInterface
public interface Splitter {
    PathChoice next();
}
