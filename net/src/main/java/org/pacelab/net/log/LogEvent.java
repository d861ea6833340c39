package org.pacelab.net.log;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;

/**
 * One record of an event log.
 *
 * @param path the path index: 0 on a single-path link; 0 (a) or 1 (b) on a dual-connectivity downlink, 255
 *             ({@link org.pacelab.net.link.LinkObserver#NO_PATH}) for events of the downlink as a whole
 */
public record LogEvent(long time, long packetId, int flow, int size, EventType type, Direction direction,
                       DropCause cause, int path, int queuePackets) { }
