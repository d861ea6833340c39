package org.pacelab.analysis.capture;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** Streams the frames of one capture file in file order. */
public interface CaptureReader extends Closeable {

    /**
     * Reads the next frame into {@code frame} (whose view stays valid until the next call).
     * Returns false at the end of the capture, and also when the file ends inside a record
     * (then {@link #truncation()} says where).
     *
     * @throws CaptureFormatException when a record is corrupt (the message names the byte offset)
     */
    boolean next(CapturedFrame frame) throws IOException;

    /** "pcap" or "pcapng". */
    String format();

    /** Present when the file ended inside a record: a sentence naming the byte offset. */
    Optional<String> truncation();

    /** NSS key log text found in pcapng Decryption Secrets Blocks so far (empty for pcap). */
    List<String> embeddedKeyLogs();

    /** Link types of the interfaces seen so far (LINKTYPE_ values). */
    List<Integer> linkTypes();

    /** Informational sentences about records that were read but not delivered. */
    default List<String> notes() {
        return List.of();
    }
}
