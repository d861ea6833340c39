package org.pacelab.net.log;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;

/** One record of an event log. */
public record LogEvent(long time, long packetId, int flow, int size, EventType type, Direction direction,
                       DropCause cause, int queuePackets) { }
